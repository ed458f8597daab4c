//! The kernel knobs `HELPERS_KEEP` and `SOLO_MAIN` (search_state.h, off by default), which serve
//! `GPU Finisher main`: a helper that finishes its root search goes on to the next depth in the
//! same launch, a helper suspends rather than stops when worker 0 ends the iteration, and the
//! next iteration of the same root (`START_KEEP`) resumes it where it is. Worker 0's results must
//! not change in kind: it ends every iteration and proves the mates, in slices of 16 nodes that
//! suspend the kept helpers hundreds of times, and a quiet position gives a legal line. On PoCL
//! `SOLO_MAIN` only compiles and runs its word (no two work-groups share a multiprocessor
//! number there). Its own test binary, because the kernel's build options are read from the
//! environment when a search is opened.

mod common;

use kogge_chess::{Board, Epd};
use kogge_search_gpu::driver::Outcome;
use kogge_search_gpu::{Finisher, GpuSearch, GpuSearchOptions, ParallelMode};

fn board(fen: &str) -> Board {
    Epd::parse(fen).expect("valid FEN").board
}

/// Iterations 1 to `depth` of one search (each after the first starts with `START_KEEP`).
fn search_to(gpu: &mut GpuSearch, b: &Board, depth: i32) -> kogge_search_gpu::Iteration {
    gpu.new_search(&[]).unwrap();
    let mut last = None;
    for d in 1..=depth {
        match gpu.iterate(b, d, -32001, 32001, &mut |_| false).unwrap() {
            Outcome::Done(it) => {
                assert_eq!(it.worker, 0, "depth {d}: only worker 0 ends an iteration");
                assert!(b.legal_moves().contains(it.best), "depth {d}: {it:?}");
                last = Some(it);
            }
            Outcome::Stopped { .. } => unreachable!("nothing stops it"),
        }
    }
    last.unwrap()
}

#[test]
fn kept_helpers_leave_worker_0_proving_the_mates() {
    // SAFETY: set before any search is opened, in a binary with a single test, so no other
    // thread reads the environment meanwhile.
    unsafe {
        std::env::set_var("KOGGE_OPENCL_OPTIONS", "-DHELPERS_KEEP=2 -DSOLO_MAIN=1");
        std::env::set_var("KOGGE_CUDA_OPTIONS", "-DHELPERS_KEEP=2 -DSOLO_MAIN=1");
    }
    let mates = [
        (
            "r3kr2/1pp4p/1p1p4/7q/4P1n1/2PP2Q1/PP4P1/R1BB2K1 b q - 0 1",
            2,
        ),
        ("6kr/1q2r1p1/1p2N1Q1/5p2/1P1p4/6R1/7P/2R3K1 w - - 0 1", 3),
    ];
    for device in common::devices() {
        let options = GpuSearchOptions {
            workers: 4,
            hash_mb: 8,
            mode: ParallelMode::AbdadaRmo,
            finisher: Finisher::Main,
        };
        let mut gpu = GpuSearch::with_device(device, options).expect("search kernel builds");
        gpu.set_slice_nodes(Some(16));
        for (fen, moves) in mates {
            gpu.clear().unwrap();
            let it = search_to(&mut gpu, &board(fen), 7);
            assert_eq!(it.score, 32000 - (2 * moves - 1), "{fen}: {it:?}");
        }
        // A quiet middlegame, on the table the mates left: the helpers search ahead of worker 0
        // and their entries are the ones its iterations meet.
        let b = board("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1BBPPP/R2QK2R w KQ - 0 9");
        let it = search_to(&mut gpu, &b, 7);
        assert!(b.legal_moves().contains(it.best), "{it:?}");
        assert!(it.score.abs() < 300, "{it:?}");
        let helpers: u64 = gpu.worker_nodes()[1..].iter().sum();
        assert!(
            helpers > 0,
            "the helpers searched nothing in the last iteration"
        );
    }
}
