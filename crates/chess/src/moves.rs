//! `Move`: 16 bits — from (6), to (6), kind (2), promotion piece (2) — the same packing the GPU
//! kernels use. Castling is stored as "king takes own rook" (to = the rook's square), which is
//! unambiguous in Chess960; UCI output converts it to the king's destination unless Chess960
//! notation is asked for.

use crate::types::{PieceType, Square};
use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Move(u16);

/// What kind of move a `Move` is, beyond from and to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    Normal = 0,
    Promotion = 1,
    EnPassant = 2,
    Castling = 3,
}

impl Move {
    /// No move (a1a1): the "empty" value of move slots.
    pub const NONE: Move = Move(0);
    /// The null move (b1b1), for null-move pruning. Never legal on a board.
    pub const NULL: Move = Move(1 | 1 << 6);

    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6)
    }
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, piece: PieceType) -> Move {
        // Knight (1) … queen (4) are stored as 0 … 3.
        let p = (piece.index() as u16).wrapping_sub(1) & 3;
        Move(from.index() as u16 | (to.index() as u16) << 6 | 1 << 12 | p << 14)
    }
    #[inline(always)]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | 2 << 12)
    }
    /// Castling, written as the king moving onto its own castling rook's square.
    #[inline(always)]
    pub const fn castling(king: Square, rook: Square) -> Move {
        Move(king.index() as u16 | (rook.index() as u16) << 6 | 3 << 12)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 63) as u32)
    }
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0 >> 6 & 63) as u32)
    }
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 & 3 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castling,
        }
    }
    /// The piece promoted to, for promotions.
    #[inline(always)]
    pub const fn promotion_piece(self) -> Option<PieceType> {
        match self.kind() {
            MoveKind::Promotion => Some(PieceType::from_index((self.0 >> 14) as usize + 1)),
            _ => None,
        }
    }
    #[inline(always)]
    pub const fn is_castling(self) -> bool {
        matches!(self.kind(), MoveKind::Castling)
    }
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }
    #[inline(always)]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }
}

/// Coordinates as in UCI, with castling as king-takes-rook (Chess960 form). Use
/// [`crate::Board::to_uci`] for the notation a GUI expects in standard chess.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Move::NONE {
            return write!(f, "0000");
        }
        if *self == Move::NULL {
            return write!(f, "0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(p) = self.promotion_piece() {
            write!(f, "{}", p.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")?;
        match self.kind() {
            MoveKind::EnPassant => write!(f, "(ep)"),
            MoveKind::Castling => write!(f, "(castle)"),
            _ => Ok(()),
        }
    }
}

/// A fixed-capacity move list on the stack. 256 exceeds the most legal moves any chess position
/// has (218).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; 256],
    len: usize,
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NONE; 256],
            len: 0,
        }
    }
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < 256);
        // Legal positions have at most 218 moves; the bound keeps a corrupt board from writing
        // past the array.
        if self.len < 256 {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        let e7: Square = "e7".parse().unwrap();
        let e8: Square = "e8".parse().unwrap();
        for p in PieceType::PROMOTIONS {
            let m = Move::promotion(e7, e8, p);
            assert_eq!((m.from(), m.to(), m.promotion_piece()), (e7, e8, Some(p)));
            assert_eq!(m.kind(), MoveKind::Promotion);
        }
        let m = Move::normal(e7, e8);
        assert_eq!(m.to_string(), "e7e8");
        assert_eq!(
            Move::promotion(e7, e8, PieceType::Knight).to_string(),
            "e7e8n"
        );
        assert_ne!(Move::NULL, Move::NONE);
    }
}
