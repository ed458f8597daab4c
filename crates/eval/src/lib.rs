//! Kogge's hand-crafted evaluation.
//!
//! Integer arithmetic only, so that the CPU search and the GPU kernels (which port it term by
//! term) give identical scores. Each term is a function `term(board, color, weights, trace)`
//! giving one side's contribution as a midgame/endgame [`Score`]; the evaluation sums white's
//! minus black's over all terms, blends the pair by the game [`phase`] (see [`Score::blend`]) and
//! returns the result in centipawns from the side to move's point of view. Every weight lives in
//! [`weights`]; the terms read the tunable ones from a [`Weights`] (the engine's is the constant
//! [`Weights::DEFAULT`]) and report what they add to a [`Trace`], which the tuner turns into each
//! position's [`Coefficients`].
//!
//! The terms, in [`Term`] order: [`material`], [`piece_squares`], [`mobility`],
//! [`pawn_structure`], [`king_safety`], [`bishop_pair`], [`rook_files`], [`tempo`].

mod breakdown;
mod king;
pub mod kpk;
mod masks;
mod mirror;
mod pawns;
mod score;
mod terms;
mod trace;
mod tunable;
pub mod weights;

pub use breakdown::{Breakdown, TermScores};
pub use king::king_safety;
pub use mirror::mirror;
pub use pawns::pawn_structure;
pub use score::{MAX_PHASE, Score};
pub use terms::{bishop_pair, material, mobility, piece_squares, rook_files, tempo};
pub use trace::{Coefficients, NoTrace, Trace, trace};
pub use tunable::{KING_DANGER_LEN, Weights, param};

use kogge_chess::{Board, Color, PieceType};
use std::fmt;

/// One evaluation term, for the breakdown table and for tools that look at terms one at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    Material,
    PieceSquares,
    Mobility,
    PawnStructure,
    KingSafety,
    BishopPair,
    RookFiles,
    Tempo,
}

impl Term {
    pub const COUNT: usize = 8;
    pub const ALL: [Term; Term::COUNT] = [
        Term::Material,
        Term::PieceSquares,
        Term::Mobility,
        Term::PawnStructure,
        Term::KingSafety,
        Term::BishopPair,
        Term::RookFiles,
        Term::Tempo,
    ];

    /// The name printed in the breakdown table.
    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::PieceSquares => "Piece-square",
            Term::Mobility => "Mobility",
            Term::PawnStructure => "Pawns",
            Term::KingSafety => "King safety",
            Term::BishopPair => "Bishop pair",
            Term::RookFiles => "Rook files",
            Term::Tempo => "Tempo",
        }
    }

    /// This term's contribution for `color` with the engine's weights.
    pub fn score(self, board: &Board, color: Color) -> Score {
        self.score_with(board, color, &Weights::DEFAULT, &mut NoTrace)
    }

    /// This term's contribution for `color` with weights `w`, reporting to `trace`.
    #[inline]
    pub fn score_with(
        self,
        board: &Board,
        color: Color,
        w: &Weights,
        trace: &mut impl Trace,
    ) -> Score {
        match self {
            Term::Material => material(board, color, w, trace),
            Term::PieceSquares => piece_squares(board, color, w, trace),
            Term::Mobility => mobility(board, color, w, trace),
            Term::PawnStructure => pawn_structure(board, color, w, trace),
            Term::KingSafety => king_safety(board, color, w, trace),
            Term::BishopPair => bishop_pair(board, color, w, trace),
            Term::RookFiles => rook_files(board, color, w, trace),
            Term::Tempo => tempo(board, color, w, trace),
        }
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// The game phase from non-pawn material: [`weights::PHASE_WEIGHT`] per piece (knight and bishop
/// 1, rook 2, queen 4), clamped to `0..=24`. 24 is the opening (and anything with more material,
/// after promotions), 0 a pawn endgame.
pub fn phase(board: &Board) -> i32 {
    let sum: i32 = PieceType::ALL
        .into_iter()
        .map(|pt| weights::PHASE_WEIGHT[pt.index()] * board.pieces(pt).count() as i32)
        .sum();
    sum.clamp(0, MAX_PHASE)
}

/// The sum of every term, white's contribution minus black's, before blending.
pub fn white_score(board: &Board) -> Score {
    white_score_with(board, &Weights::DEFAULT, &mut NoTrace)
}

/// [`white_score`] with weights `w`, reporting every weight added to `trace`.
#[inline(always)]
pub fn white_score_with(board: &Board, w: &Weights, trace: &mut impl Trace) -> Score {
    let mut sum = Score::ZERO;
    for t in Term::ALL {
        sum += t.score_with(board, Color::White, w, trace);
        sum -= t.score_with(board, Color::Black, w, trace);
    }
    sum
}

/// The evaluation in centipawns from the side to move's point of view (positive: good for the
/// side to move); 0 for a drawn king and pawn against king ([`kpk`]).
pub fn evaluate(board: &Board) -> i32 {
    evaluate_with(board, &Weights::DEFAULT)
}

/// [`evaluate`] with weights `w` (the tuner's check that rounded weights score as expected).
#[inline(always)]
pub fn evaluate_with(board: &Board, w: &Weights) -> i32 {
    if kpk::is_draw(board) {
        return 0;
    }
    let white = white_score_with(board, w, &mut NoTrace).blend(phase(board));
    match board.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// Every term for both sides, the phase and the result: what the UCI `eval` command prints.
pub fn breakdown(board: &Board) -> Breakdown {
    Breakdown::new(board)
}

#[cfg(test)]
mod tests;
