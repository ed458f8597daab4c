//! `GPU Finisher clean` (`Finisher::Clean`, FINISH_CLEAN in search_state.h): only every
//! `CLEAN_EVERY`-th helper orders its moves as worker 0 does, and only those and worker 0 may end
//! an iteration. The results must not change in kind (the mates proven, a legal line in a quiet
//! position), and no worker outside those may end an iteration: with `Finisher::Any` in place of
//! `Finisher::Clean` the check below fails (helpers 1 to 31 end iterations on PoCL). On PoCL worker
//! 0 ends most iterations (it runs the work-groups in order), so the count of helpers' ends is
//! printed, not required, as in `finish_quorum.rs`. Its own test binary, built with `CLEAN_EVERY`
//! 8 (32 by default) and `CLEAN_WORKERS` off (by default it would space 32 workers every 4th) so
//! that 32 workers have three clean helpers: the kernel's build options are read from the
//! environment when a search is opened.

mod common;

use kogge_search_gpu::{Finisher, ParallelMode};

#[test]
fn only_clean_helpers_end_an_iteration_and_the_mates_are_proven() {
    // SAFETY: set before any search is opened, in a binary with a single test, so no other
    // thread reads the environment meanwhile.
    unsafe { common::set_kernel_options("-DCLEAN_EVERY=8u -DCLEAN_WORKERS=0") };
    for mut gpu in common::open_all_finishing(32, ParallelMode::AbdadaRmo, Finisher::Clean) {
        gpu.set_slice_nodes(Some(16));
        let helpers_ended = common::iterations_ended_every(&mut gpu, 8);
        eprintln!("clean helpers ended {helpers_ended} of the iterations");
    }
}
