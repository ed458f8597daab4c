//! `CLEAN_WORKERS` (search_moves.h, 8 by default): under `GPU Finisher clean` the clean helpers'
//! spacing follows the worker count, about N clean workers at any count. With the default kernel
//! 16 workers are spaced every 2nd (with `CLEAN_EVERY` alone, 32, worker 0 would be their only
//! finisher). The mates must still be proven, only even workers may end an iteration, and some
//! even helper must end one: with `-DCLEAN_WORKERS=0` no helper does (checked), so the test fails
//! there.

mod common;

use kogge_search_gpu::{Finisher, ParallelMode};

#[test]
fn sixteen_workers_have_clean_helpers_that_end_iterations() {
    for mut gpu in common::open_all_finishing(16, ParallelMode::AbdadaRmo, Finisher::Clean) {
        gpu.set_slice_nodes(Some(16));
        let helpers_ended = common::iterations_ended_every(&mut gpu, 2);
        eprintln!("clean helpers ended {helpers_ended} of the iterations");
        assert!(helpers_ended > 0, "no clean helper ended an iteration");
    }
}
