//! The kernel knobs `HELPERS_KEEP` and `SOLO_MAIN` (search_state.h, off by default), which serve
//! the helpers whose results end no iteration (all under `GPU Finisher main`, the noisy ones under
//! `clean`): such a helper that finishes its root search goes on to the next depth in the same
//! launch, suspends rather than stops when the iteration ends, and the next iteration of the same
//! root (`START_KEEP`) resumes it where it is. The finishers' results must not change in kind:
//! only worker 0 (and under `clean` a clean helper, here every second worker) ends an iteration
//! and they prove the mates, in slices of 16 nodes that suspend the kept helpers hundreds of
//! times, and a quiet position gives a legal line. On PoCL `SOLO_MAIN` 2 (the finishers, worker 0
//! and under `clean` the clean helpers, count themselves on their multiprocessor) only compiles
//! and runs its words (no two work-groups share a multiprocessor number there). Its own test
//! binary, because the kernel's build options are read from the environment when a search is
//! opened.

mod common;

use common::board;
use kogge_search_gpu::{Finisher, GpuSearch, ParallelMode};

/// Iterations 1 to `depth` of one search (each after the first starts with `START_KEEP`): a
/// worker `finisher` allows ends every one (under `clean` with `CLEAN_EVERY=2u`, an even one),
/// with a legal move.
fn search_to(
    gpu: &mut GpuSearch,
    finisher: Finisher,
    fen: &str,
    depth: i32,
) -> kogge_search_gpu::Iteration {
    let b = board(fen);
    let done = common::iterations(gpu, &b, depth);
    for it in &done {
        let allowed = match finisher {
            Finisher::Clean => it.worker % 2 == 0,
            _ => it.worker == 0,
        };
        assert!(
            allowed,
            "depth {}: worker {} ended an iteration under {finisher:?}",
            it.depth, it.worker
        );
        assert!(b.legal_moves().contains(it.best), "{it:?}");
    }
    done.into_iter().last().unwrap()
}

#[test]
fn kept_helpers_leave_worker_0_proving_the_mates() {
    // SAFETY: set before any search is opened, in a binary with a single test, so no other
    // thread reads the environment meanwhile.
    unsafe {
        common::set_kernel_options(
            "-DHELPERS_KEEP=2 -DSOLO_MAIN=2 -DCLEAN_EVERY=2u -DCLEAN_WORKERS=0",
        )
    };
    let mates = [
        (
            "r3kr2/1pp4p/1p1p4/7q/4P1n1/2PP2Q1/PP4P1/R1BB2K1 b q - 0 1",
            2,
        ),
        ("6kr/1q2r1p1/1p2N1Q1/5p2/1P1p4/6R1/7P/2R3K1 w - - 0 1", 3),
    ];
    for finisher in [Finisher::Main, Finisher::Clean] {
        for gpu in common::open_all_finishing(4, ParallelMode::AbdadaRmo, finisher) {
            kept_helpers_search(gpu, finisher, &mates);
        }
    }
}

fn kept_helpers_search(mut gpu: GpuSearch, finisher: Finisher, mates: &[(&str, i32)]) {
    gpu.set_slice_nodes(Some(16));
    for &(fen, moves) in mates {
        gpu.clear().unwrap();
        let it = search_to(&mut gpu, finisher, fen, 7);
        assert_eq!(it.score, 32000 - (2 * moves - 1), "{fen}: {it:?}");
    }
    // A quiet middlegame, on the table the mates left: the helpers search ahead of worker 0
    // and their entries are the ones its iterations meet.
    let quiet = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1BBPPP/R2QK2R w KQ - 0 9";
    let it = search_to(&mut gpu, finisher, quiet, 7);
    assert!(it.score.abs() < 300, "{it:?}");
    let helpers: u64 = gpu.worker_nodes()[1..].iter().sum();
    assert!(
        helpers > 0,
        "the helpers searched nothing in the last iteration"
    );
}
