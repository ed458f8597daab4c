//! `GpuEvaluator`: evaluates batches of positions on a device with `kernels/eval.h`, one
//! work-group of [`WORKER_LANES`] lanes per position, exactly as the GPU search will call it.
//! It exists to prove the port right (the tests and `kogge selftest` compare it with
//! `kogge_eval::evaluate` position by position) and to time it; the search evaluates inside its
//! own kernel.

use crate::eval_source::{WORKER_LANES, search_source_prefix};
use crate::line_table::line_table;
use kogge_chess::{Board, PackedBoard};
use kogge_eval::Weights;
use kogge_gpu::{Arg, Buffer, Device, GpuError, Kernel, Module};

/// `kernels/eval_check.cl`: the batch kernel.
pub const EVAL_CHECK_CL: &str = include_str!("../../gpu/kernels/eval_check.cl");

/// The whole source of the batch kernel: the search's include order (board.h, movegen.h, the
/// weights, eval.h), then eval_check.cl.
pub fn eval_check_source(weights: &Weights) -> String {
    search_source_prefix(weights) + EVAL_CHECK_CL
}

/// Positions per launch: buffers of a few megabytes, and launches long enough that their
/// overhead does not count.
const BATCH: usize = 1 << 14;

/// 64-bit words per packed position (`PackedBoard`, 40 bytes).
const WORDS: usize = 5;

/// The evaluation of one position as each lane of its work-group returned it.
pub type LaneScores = [i32; WORKER_LANES];

/// The evaluation kernel built for one device, with its buffers.
pub struct GpuEvaluator {
    device: Device,
    _module: Module,
    kernel: Kernel,
    boards: Buffer<[u64; WORDS]>,
    scores: Buffer<LaneScores>,
    /// line_attacks.h's table.
    lines: Buffer<u64>,
    /// The weights the kernel was built with.
    weights: Weights,
}

impl GpuEvaluator {
    /// Builds the kernel with the engine's weights, [`Weights::DEFAULT`].
    pub fn new(device: Device) -> Result<GpuEvaluator, GpuError> {
        GpuEvaluator::with_weights(device, &Weights::DEFAULT)
    }

    /// Builds the kernel with `weights` (the tuner's, or scrambled ones in tests): the GPU then
    /// matches `kogge_eval::evaluate_with(board, weights)`.
    pub fn with_weights(device: Device, weights: &Weights) -> Result<GpuEvaluator, GpuError> {
        let module = device.build(&eval_check_source(weights), &[])?;
        let kernel = module.kernel("eval_check")?;
        let boards = device.alloc(BATCH)?;
        let scores = device.alloc(BATCH)?;
        let lines = device.upload(&line_table())?;
        Ok(GpuEvaluator {
            device,
            _module: module,
            kernel,
            boards,
            scores,
            lines,
            weights: weights.clone(),
        })
    }

    pub fn device(&self) -> &Device {
        &self.device
    }

    /// The weights the kernel was built with.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The evaluation of each position, in centipawns from the side to move's view (lane 0's
    /// answer; [`GpuEvaluator::evaluate_lanes`] has every lane's).
    pub fn evaluate(&mut self, boards: &[Board]) -> Result<Vec<i32>, GpuError> {
        Ok(self
            .evaluate_lanes(boards)?
            .iter()
            .map(|lanes| lanes[0])
            .collect())
    }

    /// Every lane's result for each position: the even lanes' from `evaluate` (the lanes
    /// together), the odd lanes' from `evaluate_alone` (each lane by itself). All equal when
    /// eval.h keeps its promises.
    pub fn evaluate_lanes(&mut self, boards: &[Board]) -> Result<Vec<LaneScores>, GpuError> {
        let mut out = Vec::with_capacity(boards.len());
        for chunk in boards.chunks(BATCH) {
            let packed: Vec<[u64; WORDS]> = chunk.iter().map(|b| words(&b.pack())).collect();
            self.device.write(&mut self.boards, &packed)?;
            let n = chunk.len();
            self.device.launch(
                &self.kernel,
                n * WORKER_LANES,
                WORKER_LANES,
                &[
                    Arg::buf(&self.boards),
                    // A chunk is at most BATCH positions: always fits.
                    Arg::U32(n as u32),
                    Arg::buf(&self.scores),
                    Arg::buf(&self.lines),
                ],
            )?;
            let start = out.len();
            out.resize(start + n, [0; WORKER_LANES]);
            self.device.read(&self.scores, &mut out[start..])?;
        }
        Ok(out)
    }
}

fn words(packed: &PackedBoard) -> [u64; WORDS] {
    [
        packed.quad[0],
        packed.quad[1],
        packed.quad[2],
        packed.quad[3],
        packed.state,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_board_is_five_words() {
        // The kernel reads positions as board.h's PackedBoard: four quad words and the state.
        assert_eq!(std::mem::size_of::<PackedBoard>(), 8 * WORDS);
        assert_eq!(std::mem::size_of::<LaneScores>(), 4 * WORKER_LANES);
    }
}
