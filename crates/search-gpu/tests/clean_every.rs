//! The kernel knobs `CLEAN_EVERY` and `CLEAN_RANK_MIN_DEPTH` (search_moves.h; off by default):
//! only every k-th helper reduces and prunes by its moves' noise-free places, and only those
//! and worker 0 may end an iteration; the noise-free places only at nodes of at least d plies to
//! go. The results must not change in kind (the mates proven, a legal line in a quiet
//! position), and no worker outside those may end an iteration: with `CLEAN_RANK=1` alone in
//! place of `CLEAN_EVERY` the check below fails (helpers 1 to 31 end iterations on PoCL). On
//! PoCL worker 0 ends most iterations (it runs the work-groups in order), so the count of
//! helpers' ends is printed, not required, as in `finish_quorum.rs`. Its own test binary: the
//! kernel's build options are read from the environment when a search is opened.

mod common;

use common::board;
use kogge_search_gpu::{Finisher, ParallelMode};

const OPTIONS: &str = "-DCLEAN_EVERY=8u -DCLEAN_RANK_MIN_DEPTH=2";

#[test]
fn only_clean_helpers_end_an_iteration_and_the_mates_are_proven() {
    // SAFETY: set before any search is opened, in a binary with a single test, so no other
    // thread reads the environment meanwhile.
    unsafe {
        std::env::set_var("KOGGE_OPENCL_OPTIONS", OPTIONS);
        std::env::set_var("KOGGE_CUDA_OPTIONS", OPTIONS);
    }
    let positions = [
        (
            "r3kr2/1pp4p/1p1p4/7q/4P1n1/2PP2Q1/PP4P1/R1BB2K1 b q - 0 1",
            Some(2),
        ),
        (
            "6kr/1q2r1p1/1p2N1Q1/5p2/1P1p4/6R1/7P/2R3K1 w - - 0 1",
            Some(3),
        ),
        (
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1BBPPP/R2QK2R w KQ - 0 9",
            None,
        ),
    ];
    for mut gpu in common::open_all_finishing(32, ParallelMode::AbdadaRmo, Finisher::Any) {
        gpu.set_slice_nodes(Some(16));
        let mut helpers_ended = 0;
        for (fen, mate) in positions {
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
                assert!(
                    it.worker % 8 == 0,
                    "{fen} depth {depth}: worker {} ended it",
                    it.worker
                );
                helpers_ended += usize::from(it.worker != 0);
                assert!(b.legal_moves().contains(it.best), "{fen}: {it:?}");
                last = Some(it);
            }
            let it = last.unwrap();
            match mate {
                Some(moves) => assert_eq!(it.score, 32000 - (2 * moves - 1), "{fen}: {it:?}"),
                None => assert!(it.score.abs() < 300, "{fen}: {it:?}"),
            }
        }
        eprintln!("clean helpers ended {helpers_ended} of the iterations");
    }
}
