//! Every tunable constant of the CPU search, in one place (the GPU search reads the same
//! names). Values are the usual starting points of alpha-beta engines, to be tuned by matches.

use kogge_search::Value;

/// Aspiration windows start at this half-width from depth [`ASPIRATION_MIN_DEPTH`] on and grow
/// by half again on each failure.
pub const ASPIRATION_WINDOW: Value = 18;
pub const ASPIRATION_MIN_DEPTH: i32 = 5;

/// Reverse futility pruning: at depth ≤ this, a static eval above beta by this margin per ply
/// cuts the node.
pub const RFP_MAX_DEPTH: i32 = 8;
pub const RFP_MARGIN: Value = 75;

/// Null-move pruning: from this depth; reduction `base + depth / div + min((eval - beta) / 200,
/// 3)`; verified by a reduced search from [`NMP_VERIFY_DEPTH`] on, where zugzwang would hide
/// a mate or a long loss.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE: i32 = 3;
pub const NMP_DEPTH_DIV: i32 = 4;
pub const NMP_VERIFY_DEPTH: i32 = 12;

/// Razoring: at depth ≤ this, a static eval this far below alpha drops into quiescence. Only
/// at depth 1: deeper, a margin of a few hundred per ply drops the quiet follow-up of a
/// sacrifice (the rook lift after a queen sacrifice that threatens mate) into quiescence, which
/// cannot see it (WAC at 1,000,000 nodes: 278 passes at depth ≤ 3, 284 at depth 1).
pub const RAZOR_MAX_DEPTH: i32 = 1;
pub const RAZOR_MARGIN: Value = 250;

/// Futility pruning of quiet moves: at depth ≤ this, skip quiet moves when the static eval plus
/// `base + per_ply * depth` cannot reach alpha.
pub const FUTILITY_MAX_DEPTH: i32 = 7;
pub const FUTILITY_BASE: Value = 80;
pub const FUTILITY_PER_PLY: Value = 90;

/// Late move pruning: at depth ≤ this, stop trying quiet moves after `base + depth²` of them
/// (half that when the position is not improving).
pub const LMP_MAX_DEPTH: i32 = 8;
pub const LMP_BASE: i32 = 3;

/// SEE pruning thresholds per ply of depth: quiet moves and captures that lose more than this
/// much material are skipped at shallow depth.
pub const SEE_QUIET_MARGIN: Value = -60;
pub const SEE_CAPTURE_MARGIN: Value = -100;
pub const SEE_PRUNE_MAX_DEPTH: i32 = 8;

/// Late move reductions: `LMR_BASE + ln(depth) · ln(move number) / LMR_DIVISOR`, applied from
/// depth [`LMR_MIN_DEPTH`] and move number [`LMR_MIN_MOVE`] (1-based).
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_MIN_MOVE: usize = 3;
/// History points per ply of reduction removed (or added, if negative).
pub const LMR_HISTORY_DIV: i32 = 8192;

/// Internal iterative reduction: no table move at depth ≥ this costs a ply.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Quiescence delta pruning: a capture that cannot lift the stand-pat score to alpha even with
/// this margin on top is skipped.
pub const DELTA_MARGIN: Value = 200;

/// History scores stay within ±this.
pub const HISTORY_MAX: i32 = 16_384;

/// Nodes between two looks at the clock and the stop flag.
pub const CHECK_INTERVAL: u64 = 1024;
