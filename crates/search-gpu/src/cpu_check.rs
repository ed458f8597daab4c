//! The GPU evaluation against the CPU's, position by position: what the tests and
//! `kogge selftest` run, and what a mismatch tells whoever has to find the bug.

use crate::gpu_eval::{GpuEvaluator, LaneScores};
use kogge_chess::{Board, Color};
use kogge_eval::{NoTrace, Term, Weights, evaluate_with, phase};
use kogge_gpu::GpuError;
use std::fmt;

/// A position the GPU scored differently from the CPU (or where its lanes disagreed).
#[derive(Clone, Debug)]
pub struct EvalMismatch {
    pub board: Board,
    /// `kogge_eval::evaluate_with(board, weights)`.
    pub cpu: i32,
    /// Every lane's result on the GPU.
    pub gpu: LaneScores,
    /// The CPU's terms, white's minus black's, in `Term::ALL` order.
    pub terms: Vec<(Term, i32, i32)>,
}

impl EvalMismatch {
    /// The mismatch of `board`, with the CPU's terms under `weights`.
    pub fn from_scores(
        board: &Board,
        cpu: i32,
        gpu: LaneScores,
        weights: &Weights,
    ) -> EvalMismatch {
        let terms = Term::ALL
            .iter()
            .map(|&t| {
                let white = t.score_with(board, Color::White, weights, &mut NoTrace);
                let black = t.score_with(board, Color::Black, weights, &mut NoTrace);
                let total = white - black;
                (t, total.mg, total.eg)
            })
            .collect();
        EvalMismatch {
            board: *board,
            cpu,
            gpu,
            terms,
        }
    }

    pub fn lanes_agree(&self) -> bool {
        self.gpu.iter().all(|&v| v == self.gpu[0])
    }

    /// One line: the FEN and both scores (and every lane's result where they differ).
    pub fn summary(&self) -> String {
        let lanes = if self.lanes_agree() {
            String::new()
        } else {
            format!(
                " (lanes disagree, even ones together, odd ones alone: {:?})",
                self.gpu
            )
        };
        format!(
            "{}: cpu {}, gpu {}{lanes}",
            self.board.to_fen(),
            self.cpu,
            self.gpu[0]
        )
    }

    /// One line: the CPU's terms (mg/eg, white's minus black's) and the phase, to show which
    /// term the GPU got wrong.
    pub fn cpu_terms(&self) -> String {
        let terms: Vec<String> = self
            .terms
            .iter()
            .map(|(t, mg, eg)| format!("{t} {mg}/{eg}"))
            .collect();
        format!(
            "cpu terms: {}; phase {}",
            terms.join(", "),
            phase(&self.board)
        )
    }
}

impl fmt::Display for EvalMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\n  {}", self.summary(), self.cpu_terms())
    }
}

/// Evaluates `boards` on the GPU and on the CPU (with the evaluator's weights) and returns the
/// positions where they differ, in order.
pub fn compare_with_cpu(
    gpu: &mut GpuEvaluator,
    boards: &[Board],
) -> Result<Vec<EvalMismatch>, GpuError> {
    let results = gpu.evaluate_lanes(boards)?;
    let weights = gpu.weights();
    Ok(boards
        .iter()
        .zip(results)
        .filter_map(|(board, lanes)| {
            let cpu = evaluate_with(board, weights);
            let ok = lanes.iter().all(|&v| v == cpu);
            (!ok).then(|| EvalMismatch::from_scores(board, cpu, lanes, weights))
        })
        .collect())
}
