//! Small bitboard masks the terms share: files, adjacent files, the ranks in front of a square.
//! Computed with shifts rather than tables so that the GPU port is a line each.

use kogge_chess::{Bitboard, Color, Square};

/// The file of `sq`.
#[inline(always)]
pub(crate) fn file_of(sq: Square) -> Bitboard {
    Bitboard::file(sq.file())
}

/// The one or two files next to the file of `sq` (whole files, every rank).
#[inline(always)]
pub(crate) fn adjacent_files(sq: Square) -> Bitboard {
    let f = file_of(sq).0;
    Bitboard(((f & !Bitboard::FILE_A.0) >> 1) | ((f & !Bitboard::FILE_H.0) << 1))
}

/// Every square on a rank strictly in front of `sq` as seen by `color` (towards rank 8 for
/// white, rank 1 for black).
#[inline(always)]
pub(crate) fn forward_ranks(color: Color, sq: Square) -> Bitboard {
    let r = sq.rank().index() as u32;
    match color {
        Color::White => Bitboard(u64::MAX.checked_shl(8 * (r + 1)).unwrap_or(0)),
        Color::Black => Bitboard((1u64 << (8 * r)) - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().expect("square name")
    }

    #[test]
    fn masks() {
        assert_eq!(
            adjacent_files(sq("a4")),
            Bitboard::file(kogge_chess::File::B)
        );
        assert_eq!(adjacent_files(sq("e4")).count(), 16);
        assert_eq!(forward_ranks(Color::White, sq("e8")), Bitboard::EMPTY);
        assert_eq!(forward_ranks(Color::Black, sq("e1")), Bitboard::EMPTY);
        assert_eq!(forward_ranks(Color::White, sq("e7")), Bitboard::RANK_8);
        assert_eq!(forward_ranks(Color::Black, sq("e2")), Bitboard::RANK_1);
        for s in Square::all() {
            for c in Color::ALL {
                let mirrored = forward_ranks(c.flip(), s.relative(Color::Black));
                let expected = Bitboard(forward_ranks(c, s).0.swap_bytes());
                assert_eq!(mirrored, expected, "{s} {c:?}");
            }
        }
    }
}
