//! The trace: which weights an evaluation added, and how often, for the tuner.
//!
//! Every term adds whole multiples of [`Weights`] entries, so the evaluation before blending is
//! `Σ coefficient[i] · weight[i]`, where `coefficient[i]` counts how many times weight `i` was
//! added for white minus for black. Each term reports its additions to a [`Trace`] next to adding
//! them; the engine passes [`NoTrace`], whose empty method compiles away, and the tuner passes
//! [`Coefficients`]. A test checks that the coefficients reproduce [`evaluate`](crate::evaluate)
//! exactly, so a term that forgets to report fails it.

use crate::score::Score;
use crate::tunable::{Weights, param};
use crate::{phase, white_score_with};
use kogge_chess::{Board, Color};

/// Receives every weight a term adds.
pub trait Trace {
    /// `color`'s side of the evaluation added weight number `param` (see [`param`]) `count`
    /// times.
    fn add(&mut self, color: Color, param: usize, count: i32);
}

/// The trace of a normal evaluation: nothing.
pub struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn add(&mut self, _color: Color, _param: usize, _count: i32) {}
}

/// The coefficients of one position: for each weight, how many times it was added for white
/// minus for black, and the phase to blend with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coefficients {
    /// Indexed by [`param`] number; [`param::COUNT`] entries.
    pub counts: Vec<i32>,
    /// The game phase, 0 (pawn endgame) to 24 (opening).
    pub phase: i32,
}

impl Trace for Coefficients {
    #[inline]
    fn add(&mut self, color: Color, param: usize, count: i32) {
        match color {
            Color::White => self.counts[param] += count,
            Color::Black => self.counts[param] -= count,
        }
    }
}

impl Coefficients {
    /// The weights' sum before blending, white's view: what [`white_score`](crate::white_score)
    /// gives for `weights`.
    pub fn white_score(&self, weights: &Weights) -> Score {
        self.counts
            .iter()
            .zip(weights.to_vec())
            .map(|(&c, w)| w * c)
            .sum()
    }

    /// The nonzero coefficients as `(param, count)`.
    pub fn nonzero(&self) -> impl Iterator<Item = (usize, i32)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c != 0)
            .map(|(i, c)| (i, *c))
    }
}

/// The coefficients of `board` (they do not depend on the weights); all 0 for a drawn king and
/// pawn against king, which [`evaluate`](crate::evaluate) scores 0 whatever the weights.
pub fn trace(board: &Board) -> Coefficients {
    let mut c = Coefficients {
        counts: vec![0; param::COUNT],
        phase: phase(board),
    };
    if !crate::kpk::is_draw(board) {
        white_score_with(board, &Weights::DEFAULT, &mut c);
    }
    c
}
