//! What a thread learns about quiet moves while it searches, for ordering: butterfly history
//! (side, from, to), continuation history (the previous move's piece and target → this move's
//! piece and target), capture history, killer moves per ply and counter moves. Kept between
//! searches of one game; cleared by `ucinewgame`.

use crate::params::HISTORY_MAX;
use kogge_chess::{Color, Move, Piece, PieceType};

/// A piece and the square it moved to: the key of continuation history and counter moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceTo {
    /// 0 = none, else 1 + colour · 6 + piece type.
    pub piece: u8,
    pub to: u8,
}

impl PieceTo {
    pub const NONE: PieceTo = PieceTo { piece: 0, to: 0 };

    pub fn new(piece: Piece, to: kogge_chess::Square) -> PieceTo {
        PieceTo {
            piece: 1 + (piece.color.index() * 6 + piece.kind.index()) as u8,
            to: to.index() as u8,
        }
    }

    fn index(self) -> usize {
        self.piece as usize * 64 + self.to as usize
    }
}

const PIECE_TO: usize = 13 * 64;

/// Moves the value `entry` toward the sign of `bonus`, saturating at ±[`HISTORY_MAX`]: the
/// "gravity" update, which lets old knowledge fade as new results come in.
#[inline]
fn update(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let e = *entry as i32;
    *entry = (e + bonus - e * bonus.abs() / HISTORY_MAX) as i16;
}

/// The history bonus for a cutoff at `depth`.
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * 16 + depth * 32).min(1600)
}

pub struct History {
    butterfly: Vec<i16>,
    continuation: Vec<i16>,
    capture: Vec<i16>,
    counter: Vec<Move>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: vec![0; 2 * 64 * 64],
            continuation: vec![0; PIECE_TO * PIECE_TO],
            capture: vec![0; PIECE_TO * 6],
            counter: vec![Move::NONE; PIECE_TO],
        }
    }
}

impl History {
    pub fn clear(&mut self) {
        *self = History::default();
    }

    fn butterfly_index(side: Color, mv: Move) -> usize {
        side.index() * 4096 + mv.from().index() * 64 + mv.to().index()
    }

    /// The ordering score of a quiet move: butterfly plus continuation history.
    #[inline]
    pub fn quiet(&self, side: Color, mv: Move, this: PieceTo, previous: PieceTo) -> i32 {
        let mut s = self.butterfly[Self::butterfly_index(side, mv)] as i32;
        if previous != PieceTo::NONE {
            s += self.continuation[previous.index() * PIECE_TO + this.index()] as i32;
        }
        s
    }

    #[inline]
    pub fn capture(&self, this: PieceTo, victim: PieceType) -> i32 {
        self.capture[this.index() * 6 + victim.index()] as i32
    }

    pub fn update_quiet(
        &mut self,
        side: Color,
        mv: Move,
        this: PieceTo,
        previous: PieceTo,
        bonus: i32,
    ) {
        update(&mut self.butterfly[Self::butterfly_index(side, mv)], bonus);
        if previous != PieceTo::NONE {
            update(
                &mut self.continuation[previous.index() * PIECE_TO + this.index()],
                bonus,
            );
        }
    }

    pub fn update_capture(&mut self, this: PieceTo, victim: PieceType, bonus: i32) {
        update(&mut self.capture[this.index() * 6 + victim.index()], bonus);
    }

    pub fn counter(&self, previous: PieceTo) -> Move {
        self.counter[previous.index()]
    }

    pub fn set_counter(&mut self, previous: PieceTo, mv: Move) {
        if previous != PieceTo::NONE {
            self.counter[previous.index()] = mv;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_saturates() {
        let mut e = 0i16;
        for _ in 0..1000 {
            update(&mut e, 1600);
        }
        assert!(e as i32 <= HISTORY_MAX && e as i32 > HISTORY_MAX * 9 / 10);
        for _ in 0..1000 {
            update(&mut e, -1600);
        }
        assert!(e as i32 >= -HISTORY_MAX && (e as i32) < -HISTORY_MAX * 9 / 10);
    }
}
