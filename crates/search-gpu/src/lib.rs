//! `kogge-search-gpu`: the GPU side of Kogge's search. The evaluation ported to the device
//! (`kernels/eval.h`, checked against `kogge_eval` position by position) and the warp-worker
//! search that uses it (`kernels/search.cl`, driven by [`GpuSearch`]).

mod backend;
pub mod cpu_check;
pub mod driver;
pub mod eval_source;
pub mod game_keys;
pub mod gpu_eval;
mod kernel_source;
pub mod lane_qs;
pub mod layout;
pub mod line_table;
pub mod playouts;
mod tables_source;

pub use backend::{ClockOptions, GpuBackend, iterative_deepening};
pub use cpu_check::{EvalMismatch, compare_with_cpu};
pub use driver::{
    CyclePart, GpuSearch, GpuSearchOptions, Iteration, NodeCounts, Outcome, TableEntry,
};
pub use eval_source::{EVAL_SCRATCH_INTS, eval_source, search_source_prefix, weights_source};
pub use gpu_eval::{GpuEvaluator, LaneScores, eval_check_source};
pub use kernel_source::{
    gen_check_source, gives_check_check_source, lane_qs_check_source, search_defines,
    search_source, see_check_source,
};
pub use layout::{Finisher, ParallelMode};
pub use playouts::{PlayoutOptions, playouts};
