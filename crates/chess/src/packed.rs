//! `PackedBoard`: the 40-byte position the GPU kernels read and write: a quad-bitboard for the
//! pieces (32 bytes) and one word for the rest of the state.
//!
//! The layout is a contract with the kernels (`kernels/board.h` mirrors it), so every bit
//! position is a named constant here and the struct's size and alignment are asserted.
//!
//! # Pieces: the quad-bitboard
//!
//! Each square has a 4-bit code; bit `k` of the code of square `s` is bit `s` of `quad[k]`.
//!
//! | code bits | meaning                                                        |
//! |-----------|----------------------------------------------------------------|
//! | 0..=2     | piece type + 1: 0 empty, 1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king (7 invalid) |
//! | 3         | colour: 0 white, 1 black (must be 0 on an empty square)        |
//!
//! So `quad[0] | quad[1] | quad[2]` is the occupancy, `quad[3]` the black pieces, and any piece
//! set is an AND of the words or their complements (see [`PackedBoard::pieces`]). Two sets come
//! out especially cheap and are what sliding-attack code wants:
//! bishops and queens = `quad[0] & (quad[1] ^ quad[2])`, rooks and queens = `quad[2] & !quad[1]`.
//!
//! # State: the `state` word
//!
//! | bits    | field                                    | constant                |
//! |---------|------------------------------------------|-------------------------|
//! | 0       | side to move (1 = black)                 | [`SIDE_SHIFT`]          |
//! | 1..=4   | castling slot 0: white, king side        | [`CASTLING_SHIFT`]      |
//! | 5..=8   | castling slot 1: white, queen side       |                         |
//! | 9..=12  | castling slot 2: black, king side        |                         |
//! | 13..=16 | castling slot 3: black, queen side       |                         |
//! | 17..=20 | en passant                               | [`EP_SHIFT`]            |
//! | 21..=36 | half-move clock (16 bits)                | [`HALFMOVE_SHIFT`]      |
//! | 37..=52 | full-move number (16 bits)               | [`FULLMOVE_SHIFT`]      |
//! | 53..=63 | zero                                     | [`STATE_USED_MASK`]     |
//!
//! A castling slot is 4 bits at `CASTLING_SHIFT + 4 * slot`, slot = `2 * colour + wing`: bit 3
//! ([`NIBBLE_PRESENT`]) says the right exists and bits 0..=2 ([`NIBBLE_FILE_MASK`]) are the file
//! of the castling rook, so Chess960 rights need nothing extra. The en-passant nibble has the
//! same shape: present bit and the file of the square; its rank follows from the side to move
//! (rank 6 when white moves, rank 3 when black does). As on [`Board`], the square is recorded
//! only when a pawn of the side to move attacks it, so equal positions pack equal.
//!
//! There is exactly one packed form of each position: [`PackedBoard::unpack`] rejects anything
//! [`Board::pack`] could not have produced.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::{CastleRights, Wing};
use crate::fen::FenError;
use crate::types::{Color, File, PieceType, Rank, Square};
use std::fmt::Write as _;
use thiserror::Error;

/// Bit of the side to move in [`PackedBoard::state`] (1 = black).
pub const SIDE_SHIFT: u32 = 0;
/// First bit of the four castling nibbles.
pub const CASTLING_SHIFT: u32 = 1;
/// Bits per castling slot.
pub const CASTLING_SLOT_BITS: u32 = 4;
/// First bit of the en-passant nibble.
pub const EP_SHIFT: u32 = 17;
/// First bit of the 16-bit half-move clock.
pub const HALFMOVE_SHIFT: u32 = 21;
/// First bit of the 16-bit full-move number.
pub const FULLMOVE_SHIFT: u32 = 37;
/// In a castling or en-passant nibble: the right or square exists.
pub const NIBBLE_PRESENT: u64 = 0b1000;
/// In a castling or en-passant nibble: the file (a = 0 … h = 7).
pub const NIBBLE_FILE_MASK: u64 = 0b0111;
/// Every bit of the state word that carries information; the others are zero.
pub const STATE_USED_MASK: u64 = (1 << (FULLMOVE_SHIFT + 16)) - 1;
/// In a square's code: the piece-type bits (type index + 1, 0 = empty).
pub const CODE_TYPE_MASK: u8 = 0b0111;
/// In a square's code: the colour bit (1 = black).
pub const CODE_BLACK: u8 = 0b1000;

/// A position in the GPU's layout: see the [module documentation](self) for every bit.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PackedBoard {
    /// Bit `k` of each square's 4-bit code, one bitboard per `k`.
    pub quad: [u64; 4],
    /// Side to move, castling rights, en passant, clocks.
    pub state: u64,
}

// The kernels index arrays of these; a size or alignment change must be a deliberate one.
const _: () = assert!(std::mem::size_of::<PackedBoard>() == 40);
const _: () = assert!(std::mem::align_of::<PackedBoard>() == 8);
const _: () = assert!(std::mem::offset_of!(PackedBoard, state) == 32);

/// Why a [`PackedBoard`] is not a position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PackError {
    #[error("square {square} has invalid piece code {code:#06b}")]
    InvalidCode { square: Square, code: u8 },
    #[error("state word {0:#018x} has bits set above bit 52")]
    ReservedBits(u64),
    #[error("the packed position is not legal: {0}")]
    Invalid(#[from] FenError),
    #[error("not the canonical packing of its position ({0})")]
    NotCanonical(&'static str),
}

/// The 4-bit code of a square holding `pt` of colour `c`.
#[inline(always)]
pub const fn piece_code(c: Color, pt: PieceType) -> u8 {
    (pt.index() as u8 + 1) | (c.index() as u8) << 3
}

/// A castling or en-passant nibble for an optional file.
#[inline(always)]
const fn nibble(file: Option<File>) -> u64 {
    match file {
        Some(f) => NIBBLE_PRESENT | f.index() as u64,
        None => 0,
    }
}

impl Board {
    /// This position in the GPU's packed layout.
    pub fn pack(&self) -> PackedBoard {
        let mut quad = [0u64; 4];
        for c in Color::ALL {
            for pt in PieceType::ALL {
                let set = self.pieces_of(c, pt).0;
                let code = piece_code(c, pt);
                for (k, word) in quad.iter_mut().enumerate() {
                    if code >> k & 1 != 0 {
                        *word |= set;
                    }
                }
            }
        }
        let mut state = (self.side_to_move().index() as u64) << SIDE_SHIFT;
        let rights = self.castle_rights();
        for c in Color::ALL {
            for w in Wing::ALL {
                state |= nibble(rights.rook_file(c, w)) << castling_shift(c, w);
            }
        }
        state |= nibble(self.en_passant().map(Square::file)) << EP_SHIFT;
        state |= u64::from(self.halfmove_clock()) << HALFMOVE_SHIFT;
        state |= u64::from(self.fullmove_number()) << FULLMOVE_SHIFT;
        PackedBoard { quad, state }
    }
}

/// First bit of the castling nibble of colour `c`, wing `w`.
#[inline(always)]
pub const fn castling_shift(c: Color, w: Wing) -> u32 {
    CASTLING_SHIFT + CASTLING_SLOT_BITS * (2 * c.index() as u32 + w as u32)
}

impl PackedBoard {
    /// The 4-bit code of `sq` (see the module documentation).
    #[inline(always)]
    pub fn code_on(&self, sq: Square) -> u8 {
        let s = sq.index();
        self.quad
            .iter()
            .enumerate()
            .fold(0, |code, (k, word)| code | ((word >> s & 1) as u8) << k)
    }

    /// Squares with a piece: any of the three type bits set.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.quad[0] | self.quad[1] | self.quad[2])
    }

    /// Pieces of colour `c`. On a valid board the colour bit is clear on empty squares, so black
    /// is just `quad[3]`.
    #[inline(always)]
    pub fn colored(&self, c: Color) -> Bitboard {
        match c {
            Color::White => Bitboard(self.occupied().0 & !self.quad[3]),
            Color::Black => Bitboard(self.quad[3]),
        }
    }

    /// Pieces of type `pt`, either colour: the AND of the three type words, each taken as is
    /// where the code has a 1 and complemented where it has a 0. This is the kernel's recipe.
    #[inline(always)]
    pub fn pieces_of_type(&self, pt: PieceType) -> Bitboard {
        let code = pt.index() + 1;
        let pick = |k: usize| {
            if code >> k & 1 != 0 {
                self.quad[k]
            } else {
                !self.quad[k]
            }
        };
        Bitboard(pick(0) & pick(1) & pick(2))
    }

    /// Pieces of colour `c` and type `pt`.
    #[inline(always)]
    pub fn pieces(&self, c: Color, pt: PieceType) -> Bitboard {
        self.pieces_of_type(pt) & self.colored(c)
    }

    /// Bishops and queens of both colours (codes 3 = 011 and 5 = 101).
    #[inline(always)]
    pub fn diagonal_sliders(&self) -> Bitboard {
        Bitboard(self.quad[0] & (self.quad[1] ^ self.quad[2]))
    }

    /// Rooks and queens of both colours (codes 4 = 100 and 5 = 101).
    #[inline(always)]
    pub fn orthogonal_sliders(&self) -> Bitboard {
        Bitboard(self.quad[2] & !self.quad[1])
    }

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        if self.state >> SIDE_SHIFT & 1 != 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The file of colour `c`'s castling rook on wing `w`, if that right exists.
    #[inline(always)]
    pub fn castling_rook_file(&self, c: Color, w: Wing) -> Option<File> {
        nibble_file(self.state >> castling_shift(c, w))
    }

    /// The en-passant square, if recorded.
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        let file = nibble_file(self.state >> EP_SHIFT)?;
        let rank = match self.side_to_move() {
            Color::White => Rank::R6,
            Color::Black => Rank::R3,
        };
        Some(Square::new(file, rank))
    }

    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        (self.state >> HALFMOVE_SHIFT) as u16
    }

    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        (self.state >> FULLMOVE_SHIFT) as u16
    }

    /// Rebuilds the [`Board`], with the same checks FEN parsing applies (one king each, no pawn
    /// on the first or last rank, castling rooks in place, side not to move not in check, …),
    /// and demands that packing the result gives back exactly `self`. Never panics.
    pub fn unpack(&self) -> Result<Board, PackError> {
        if self.state & !STATE_USED_MASK != 0 {
            return Err(PackError::ReservedBits(self.state));
        }
        // Going through FEN text reuses every validation of `Board::from_fen` and builds the
        // hash and check information the one way they are built everywhere else. Unpacking
        // happens when results come back from the device, far off any hot path.
        let mut fen = String::with_capacity(96);
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                let sq = Square::from_index_unchecked(u32::from(rank * 8 + file));
                let code = self.code_on(sq);
                let kind = code & CODE_TYPE_MASK;
                if kind == 0 {
                    if code != 0 {
                        return Err(PackError::InvalidCode { square: sq, code });
                    }
                    empty += 1;
                    continue;
                }
                if kind == 7 {
                    return Err(PackError::InvalidCode { square: sq, code });
                }
                if empty > 0 {
                    let _ = write!(fen, "{empty}");
                    empty = 0;
                }
                let letter = PieceType::from_index(usize::from(kind - 1)).char();
                fen.push(if code & CODE_BLACK != 0 {
                    letter
                } else {
                    letter.to_ascii_uppercase()
                });
            }
            if empty > 0 {
                let _ = write!(fen, "{empty}");
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let side = self.side_to_move();
        let _ = write!(fen, " {} ", side.fen_char());
        // Shredder-FEN: rook files, so Chess960 rights survive whatever the rooks' order.
        let mut castling = String::new();
        for c in Color::ALL {
            for w in Wing::ALL {
                if let Some(f) = self.castling_rook_file(c, w) {
                    castling.push(match c {
                        Color::White => f.char().to_ascii_uppercase(),
                        Color::Black => f.char(),
                    });
                }
            }
        }
        fen.push_str(if castling.is_empty() { "-" } else { &castling });
        match self.en_passant() {
            Some(ep) => {
                let _ = write!(fen, " {ep}");
            }
            None => fen.push_str(" -"),
        }
        let _ = write!(fen, " {} {}", self.halfmove_clock(), self.fullmove_number());
        let board = Board::from_fen(&fen)?;

        // FEN parsing forgives a few things the packed form must not contain, since then two
        // packings would mean one position.
        let repacked = board.pack();
        if repacked != *self {
            let reason = if board.castle_rights() != self.castle_rights_unchecked() {
                "a castling right sits in the other wing's slot"
            } else if repacked.en_passant() != self.en_passant() {
                "an en-passant square no pawn can take on"
            } else if repacked.fullmove_number() != self.fullmove_number() {
                "a full-move number of 0"
            } else {
                "fields differ after repacking"
            };
            return Err(PackError::NotCanonical(reason));
        }
        Ok(board)
    }

    /// The castling nibbles as [`CastleRights`], without checking them against the pieces.
    fn castle_rights_unchecked(&self) -> CastleRights {
        let mut rights = CastleRights::NONE;
        for c in Color::ALL {
            for w in Wing::ALL {
                rights.set(c, w, self.castling_rook_file(c, w));
            }
        }
        rights
    }
}

/// The file of a present nibble (the low four bits of `bits`).
#[inline(always)]
fn nibble_file(bits: u64) -> Option<File> {
    if bits & NIBBLE_PRESENT != 0 {
        File::new((bits & NIBBLE_FILE_MASK) as u8)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;

    /// Packs, unpacks and checks every accessor against the board.
    fn check(b: &Board) {
        let p = b.pack();
        assert_eq!(p.unpack().as_ref(), Ok(b), "{}", b.to_fen());
        assert_eq!(p.occupied(), b.occupied());
        for c in Color::ALL {
            assert_eq!(p.colored(c), b.colored(c));
            for pt in PieceType::ALL {
                assert_eq!(p.pieces(c, pt), b.pieces_of(c, pt), "{c:?} {pt:?}");
            }
            for w in Wing::ALL {
                assert_eq!(
                    p.castling_rook_file(c, w),
                    b.castle_rights().rook_file(c, w)
                );
            }
        }
        for pt in PieceType::ALL {
            assert_eq!(p.pieces_of_type(pt), b.pieces(pt));
        }
        let q = PieceType::Queen;
        assert_eq!(
            p.diagonal_sliders(),
            b.pieces(PieceType::Bishop) | b.pieces(q)
        );
        assert_eq!(
            p.orthogonal_sliders(),
            b.pieces(PieceType::Rook) | b.pieces(q)
        );
        assert_eq!(p.side_to_move(), b.side_to_move());
        assert_eq!(p.en_passant(), b.en_passant());
        assert_eq!(p.halfmove_clock(), b.halfmove_clock());
        assert_eq!(p.fullmove_number(), b.fullmove_number());
        for sq in Square::all() {
            let expected = b.piece_on(sq).map_or(0, |pc| piece_code(pc.color, pc.kind));
            assert_eq!(p.code_on(sq), expected, "{sq}");
        }
    }

    #[test]
    fn start_position_layout() {
        let p = Board::startpos().pack();
        // Pawns (code 1) and bishops (3) and queens (5) have bit 0; ranks 2 and 7 are pawns.
        assert_eq!(p.quad[3], 0xFFFF_0000_0000_0000);
        assert_eq!(p.pieces_of_type(PieceType::Pawn).0, 0x00FF_0000_0000_FF00);
        assert_eq!(p.code_on("e8".parse().unwrap()), 0b1110);
        assert_eq!(p.code_on("d1".parse().unwrap()), 0b0101);
        // White to move; KQkq on files h, a; no ep; clocks 0 and 1.
        let castling = (0b1111 | 0b1000 << 4 | 0b1111 << 8 | 0b1000 << 12) << CASTLING_SHIFT;
        assert_eq!(p.state, castling | 1 << FULLMOVE_SHIFT);
    }

    #[test]
    fn state_fields_at_their_bits() {
        let b = Board::from_fen("4k3/8/8/8/3pP3/8/8/R3K3 b Q e3 300 4000").unwrap();
        let p = b.pack();
        assert_eq!(p.state & 1, 1);
        assert_eq!(
            p.state >> castling_shift(Color::White, Wing::Queen) & 0xF,
            0b1000
        );
        assert_eq!(p.state >> castling_shift(Color::White, Wing::King) & 0xF, 0);
        assert_eq!(p.state >> EP_SHIFT & 0xF, 0b1000 | 4);
        assert_eq!(p.state >> HALFMOVE_SHIFT & 0xFFFF, 300);
        assert_eq!(p.state >> FULLMOVE_SHIFT & 0xFFFF, 4000);
        check(&b);
        // The largest clocks fit.
        check(&Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 65535 65535").unwrap());
    }

    #[test]
    fn every_suite_position_round_trips() {
        let mut n = 0;
        for file in ["perft-suite.epd", "perft-random.epd", "perft-chess960.epd"] {
            for fen in crate::testdata::fens(file) {
                let b = Board::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
                check(&b);
                n += 1;
            }
        }
        assert_eq!(n, 127 + 6838 + 960);
    }

    /// A tiny deterministic generator for the playouts (xorshift64*).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
    }

    #[test]
    fn random_playouts_round_trip() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut starts: Vec<String> = crate::testdata::fens("perft-suite.epd");
        starts.extend(
            crate::testdata::fens("perft-chess960.epd")
                .into_iter()
                .step_by(10),
        );
        let mut n = 0;
        for fen in &starts {
            for _ in 0..4 {
                let mut b = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
                for _ply in 0..120 {
                    check(&b);
                    n += 1;
                    let moves = b.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m: Move = moves[(rng.next() % moves.len() as u64) as usize];
                    b.play(m);
                }
            }
        }
        assert!(n > 50_000, "only {n} positions");
    }

    #[test]
    fn invalid_packings_are_errors() {
        let good = Board::startpos().pack();
        let e1: Square = "e1".parse().unwrap();
        let e4: Square = "e4".parse().unwrap();
        let with_code = |sq: Square, code: u8| {
            let mut p = good;
            for (k, word) in p.quad.iter_mut().enumerate() {
                *word = *word & !(1 << sq.index()) | u64::from(code >> k & 1) << sq.index();
            }
            p
        };
        for code in [7u8, 15, 8] {
            assert_eq!(
                with_code(e4, code).unpack(),
                Err(PackError::InvalidCode { square: e4, code })
            );
        }
        // No white king.
        assert!(matches!(
            with_code(e1, 0).unpack(),
            Err(PackError::Invalid(FenError::KingCount { .. }))
        ));
        // A pawn on the back rank.
        let mut p = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
            .unwrap()
            .pack();
        p.quad[0] |= 1 << 56;
        assert!(matches!(
            p.unpack(),
            Err(PackError::Invalid(FenError::PawnOnBackRank(_)))
        ));
        // Reserved bits.
        let mut p = good;
        p.state |= 1 << 60;
        assert_eq!(p.unpack(), Err(PackError::ReservedBits(p.state)));
        // A castling right without its rook (white king side on the g-file: a knight).
        let mut p = good;
        p.state = p.state & !(0xF << CASTLING_SHIFT) | (0b1000 | 6) << CASTLING_SHIFT;
        assert!(matches!(
            p.unpack(),
            Err(PackError::Invalid(FenError::Castling { .. }))
        ));
        // An en-passant square that no pawn could have crossed.
        let mut p = good;
        p.state |= (0b1000 | 3) << EP_SHIFT;
        assert!(matches!(
            p.unpack(),
            Err(PackError::Invalid(FenError::EnPassant { .. }))
        ));
        // The white queen-side rook written in the king-side slot: a real right, wrong slot.
        let b = Board::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").unwrap();
        let mut p = b.pack();
        p.state = p.state & !(0xFF << CASTLING_SHIFT) | NIBBLE_PRESENT << CASTLING_SHIFT;
        assert!(matches!(p.unpack(), Err(PackError::NotCanonical(_))));
        // An en-passant square that is valid but that no pawn can take on.
        let b = Board::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1").unwrap();
        let mut p = b.pack();
        p.state |= (0b1000 | 4) << EP_SHIFT;
        assert!(matches!(p.unpack(), Err(PackError::NotCanonical(_))));
        // Full-move number 0.
        let mut p = good;
        p.state &= !(0xFFFF << FULLMOVE_SHIFT);
        assert!(matches!(p.unpack(), Err(PackError::NotCanonical(_))));
        // The side not to move in check.
        let b = Board::from_fen("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1").unwrap();
        let mut p = b.pack();
        p.state ^= 1;
        assert!(matches!(
            p.unpack(),
            Err(PackError::Invalid(FenError::OpponentInCheck(_)))
        ));
    }

    /// Arbitrary words never panic: a cheap fuzz over random and all-ones packings.
    #[test]
    fn garbage_never_panics() {
        let mut rng = Rng(12345);
        for _ in 0..20_000 {
            let mut p = PackedBoard {
                quad: [rng.next(), rng.next(), rng.next(), rng.next()],
                state: rng.next(),
            };
            let _ = p.unpack();
            // Sparser boards and clean state words get further into validation.
            p.quad
                .iter_mut()
                .for_each(|w| *w &= rng.next() & rng.next() & rng.next());
            p.state &= STATE_USED_MASK;
            if let Ok(b) = p.unpack() {
                assert_eq!(b.pack(), p);
            }
        }
        let all = PackedBoard {
            quad: [u64::MAX; 4],
            state: u64::MAX,
        };
        assert!(all.unpack().is_err());
    }
}
