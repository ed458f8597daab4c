//! The kernel knob `CLEAN_DEEPER` (search_moves.h, off by default): under `GPU Finisher clean`
//! every `CLEAN_DEEPER`-th clean helper searches the iteration one ply deeper, in worker 0's
//! order, and may end it there. Built here with `CLEAN_EVERY=1u CLEAN_DEEPER=1`: every helper is
//! clean and searches ahead, so that helpers ahead end iterations on PoCL at all (3 of 21 in one
//! run, 4 in another; none with `CLEAN_EVERY=8u CLEAN_DEEPER=2`, nor with `CLEAN_EVERY=1u
//! CLEAN_DEEPER=2`, where the clean helpers at the depth asked finished first). The results must
//! not change in kind: the mates are proven, a quiet position gives a legal line, and an
//! iteration ends at the depth of the worker that ended it, a ply deeper for a helper (the host
//! goes on past it). On PoCL worker 0 ends most iterations (it runs the work-groups in order), so
//! how many the helpers ended is printed, not required. Its own test binary: the kernel's build
//! options are read from the environment when a search is opened.

mod common;

use common::board;
use kogge_search_gpu::{Finisher, ParallelMode};

#[test]
fn clean_helpers_ahead_end_only_at_their_depth_and_the_mates_are_proven() {
    // SAFETY: set before any search is opened, in a binary with a single test, so no other
    // thread reads the environment meanwhile.
    unsafe { common::set_kernel_options("-DCLEAN_EVERY=1u -DCLEAN_DEEPER=1") };
    for mut gpu in common::open_all_finishing(32, ParallelMode::AbdadaRmo, Finisher::Clean) {
        gpu.set_slice_nodes(Some(16));
        let mut ahead_ended = 0;
        for (fen, mate) in common::MATES_AND_QUIET {
            gpu.clear().unwrap();
            let b = board(fen);
            let its = common::iterations(&mut gpu, &b, 7);
            for (depth, it) in (1..).zip(&its) {
                // The helpers search a ply deeper, worker 0 the depth asked.
                let ahead = it.worker != 0;
                assert_eq!(
                    it.depth as i32,
                    depth + i32::from(ahead),
                    "{fen} depth {depth}: worker {} reported depth {}",
                    it.worker,
                    it.depth
                );
                assert!(b.legal_moves().contains(it.best), "{fen}: {it:?}");
                ahead_ended += usize::from(ahead);
            }
            common::assert_mate_or_quiet(fen, mate, its.last().unwrap());
        }
        eprintln!("clean helpers ahead ended {ahead_ended} of the iterations");
    }
}
