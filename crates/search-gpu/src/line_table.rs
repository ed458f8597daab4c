//! The table of `kernels/line_attacks.h`: the attacks of one slider along one line ("kindergarten"
//! lookups) and of the leapers, made from the CPU's attacks so that the two cannot disagree. The
//! layout is the header's: 512 words of rank attacks by file and inner occupancy (copied to every
//! rank), 512 of a-file attacks by rank and inner occupancy (bit `i` of the index is rank
//! `6 - i`), then knight, king, white pawn and black pawn attacks by square, the diagonal and
//! the anti-diagonal through each square, and last the evaluation's king-and-pawn-against-king
//! table (`kogge_eval::kpk`), which only the evaluation of such an ending reads.

use kogge_chess::Bitboard;
use kogge_chess::attacks;
use kogge_chess::types::{Color, Square};

/// Words in the table (`LINE_TABLE_WORDS` in the header).
const LINE_TABLE_WORDS: usize = KPK + kogge_eval::kpk::WORDS;
/// Where the a-file part starts (`LINE_FILE_ATTACKS`).
const FILE_ATTACKS: usize = 512;
/// Where the leapers' parts start (`LINE_KNIGHT`, `LINE_KING`, `LINE_PAWN`).
const KNIGHT: usize = 1024;
const KING: usize = 1088;
const PAWN: usize = 1152;
/// Where the diagonals through each square start (`LINE_DIAGONAL`, `LINE_ANTIDIAGONAL`).
const DIAGONAL: usize = 1280;
const ANTIDIAGONAL: usize = 1344;
/// Where the king-and-pawn-against-king table starts (`LINE_KPK`): `kogge_eval::kpk::words`, which
/// the evaluation reads there for a position of two kings and a pawn (eval.h's `kpk_draw`).
const KPK: usize = 1408;

const RANK_1: u64 = 0xff;
const FILE_A: u64 = 0x0101_0101_0101_0101;

fn square(i: usize) -> Square {
    Square::from_index(i).expect("a square index below 64")
}

/// The diagonal (a1-h8 direction) through `sq`, as board.h's diagonal_of.
fn diagonal_of(sq: usize) -> u64 {
    let dd = (sq & 7) as i32 - (sq >> 3) as i32;
    let d = 0x8040_2010_0804_0201u64;
    if dd >= 0 {
        d >> (8 * dd)
    } else {
        d << (-8 * dd)
    }
}

/// The anti-diagonal (h1-a8 direction) through `sq`, as board.h's antidiagonal_of.
fn antidiagonal_of(sq: usize) -> u64 {
    let da = 7 - (sq & 7) as i32 - (sq >> 3) as i32;
    let a = 0x0102_0408_1020_4080u64;
    if da >= 0 {
        a >> (8 * da)
    } else {
        a << (-8 * da)
    }
}

/// The table the search and evaluation kernels read.
pub fn line_table() -> Vec<u64> {
    let mut t = vec![0u64; LINE_TABLE_WORDS];
    for index in 0..64usize {
        for file in 0..8 {
            // Bit i of the index: file i + 1 of the first rank.
            let occupied = Bitboard((index as u64) << 1);
            let along_rank = attacks::rook(square(file), occupied).0 & RANK_1;
            t[64 * file + index] = along_rank.wrapping_mul(0x0101_0101_0101_0101);
        }
        for rank in 0..8 {
            let occupied = (0..6)
                .filter(|i| index >> i & 1 == 1)
                .fold(0u64, |o, i| o | 1u64 << (8 * (6 - i)));
            let along_file = attacks::rook(square(8 * rank), Bitboard(occupied)).0 & FILE_A;
            t[FILE_ATTACKS + 64 * rank + index] = along_file;
        }
    }
    for sq in 0..64 {
        t[KNIGHT + sq] = attacks::knight(square(sq)).0;
        t[KING + sq] = attacks::king(square(sq)).0;
        t[PAWN + sq] = attacks::pawn(Color::White, square(sq)).0;
        t[PAWN + 64 + sq] = attacks::pawn(Color::Black, square(sq)).0;
        t[DIAGONAL + sq] = diagonal_of(sq);
        t[ANTIDIAGONAL + sq] = antidiagonal_of(sq);
    }
    t[KPK..].copy_from_slice(kogge_eval::kpk::words());
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_is_the_headers() {
        // line_attacks.h's defines, read from the header the kernels are built from.
        let h = crate::eval_source::LINE_ATTACKS_H;
        for (name, value) in [
            ("LINE_FILE_ATTACKS", FILE_ATTACKS),
            ("LINE_KNIGHT", KNIGHT),
            ("LINE_KING", KING),
            ("LINE_PAWN", PAWN),
            ("LINE_DIAGONAL", DIAGONAL),
            ("LINE_ANTIDIAGONAL", ANTIDIAGONAL),
            ("LINE_KPK", KPK),
            ("LINE_TABLE_WORDS", LINE_TABLE_WORDS),
        ] {
            assert!(
                h.contains(&format!("#define {name} {value}u\n")),
                "{name} is not {value} in line_attacks.h"
            );
        }
        let t = line_table();
        assert_eq!(t.len(), LINE_TABLE_WORDS);
        assert_eq!(&t[KPK..], &kogge_eval::kpk::words()[..]);
    }

    /// line_attacks.h's lookups, step for step.
    fn line_attacks(t: &[u64], sq: usize, occ: u64, line: u64) -> u64 {
        let index = ((occ & line).wrapping_mul(0x0202_0202_0202_0202) >> 58) as usize;
        t[(sq & 7) * 64 + index] & line
    }

    fn file_attacks(t: &[u64], sq: usize, occ: u64) -> u64 {
        let a_file = (occ >> (sq & 7)) & FILE_A;
        let index = (a_file.wrapping_mul(0x0080_4020_1008_0400) >> 58) as usize;
        t[FILE_ATTACKS + (sq >> 3) * 64 + index] << (sq & 7)
    }

    #[test]
    fn lookups_match_the_cpu_attacks() {
        let t = line_table();
        // A fixed xorshift sequence: sparse, dense and random boards on every square.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for sq in 0..64 {
            for _ in 0..500 {
                let (a, b) = (next(), next());
                for occ in [a & b, a, a | b, 0, !0] {
                    let rook =
                        line_attacks(&t, sq, occ, RANK_1 << (sq & 56)) | file_attacks(&t, sq, occ);
                    let bishop = line_attacks(&t, sq, occ, t[DIAGONAL + sq])
                        | line_attacks(&t, sq, occ, t[ANTIDIAGONAL + sq]);
                    assert_eq!(
                        rook,
                        attacks::rook(square(sq), Bitboard(occ)).0,
                        "rook {sq} {occ:#x}"
                    );
                    assert_eq!(
                        bishop,
                        attacks::bishop(square(sq), Bitboard(occ)).0,
                        "bishop {sq} {occ:#x}"
                    );
                }
            }
        }
    }
}
