//! The kernel knobs `FINISH_QUORUM` and `FINISH_PICK` (search_state.h; 1 and 0 by default): under
//! `GPU Finisher any` an iteration ends only once three workers have finished it (or worker 0
//! has), and the host takes the root move most of them name. The results must not change in
//! kind: the mates proven, a legal line in a quiet position; and no helper ends an iteration
//! with fewer than three finished (with a quorum of 1 that check fails at once). On PoCL, which
//! runs the work-groups in order from worker 0, worker 0 ends most iterations (the first groups
//! take most of a slice's shared node budget): with 8 workers it often ended all 21, with 32 the
//! helpers ended 7 to 13 of them in ten runs. The count is printed, not required, so that a run
//! where worker 0 ends them all still passes (the host's rule has its unit tests in driver.rs).
//! Its own test binary, because the kernel's build options are read from the environment when a
//! search is opened.

mod common;

use common::board;
use kogge_search_gpu::{Finisher, ParallelMode};

#[test]
fn three_finishers_end_an_iteration_and_prove_the_mates() {
    // SAFETY: set before any search is opened, in a binary with a single test, so no other
    // thread reads the environment meanwhile.
    unsafe { common::set_kernel_options("-DFINISH_QUORUM=3u -DFINISH_PICK=2u") };
    for mut gpu in common::open_all_finishing(32, ParallelMode::AbdadaRmo, Finisher::Any) {
        gpu.set_slice_nodes(Some(16));
        let mut helpers_ended = 0;
        for (fen, mate) in common::MATES_AND_QUIET {
            gpu.clear().unwrap();
            let b = board(fen);
            gpu.new_search(&[]).unwrap();
            let mut last = None;
            for depth in 1..=7 {
                let it = match gpu
                    .iterate(&b, depth, -32001, 32001, &mut |_| false)
                    .unwrap()
                {
                    kogge_search_gpu::Outcome::Done(it) => it,
                    kogge_search_gpu::Outcome::Stopped { .. } => unreachable!("nothing stops it"),
                };
                let finished = gpu.finished_workers();
                assert!(
                    it.worker == 0 || finished >= 3,
                    "{fen} depth {depth}: helper {} ended it with {finished} finished",
                    it.worker
                );
                helpers_ended += usize::from(it.worker != 0);
                assert!(b.legal_moves().contains(it.best), "{fen}: {it:?}");
                last = Some(it);
            }
            common::assert_mate_or_quiet(fen, mate, &last.unwrap());
        }
        eprintln!("helpers ended {helpers_ended} of the iterations");
    }
}
