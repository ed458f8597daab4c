//! The kernel knob `DEFERRED_AS_MET` (search_state.h, an experiment, off by default): a move that
//! ABDADA put off because another worker was on it is taken up later without being tested for
//! pruning again (it passed when first met), its quiet count undone when it is put off, and at 2
//! reduced by its place in the list. One worker never puts a move off, so its tree must stay
//! node for node the default's; with many workers the finishers' results must keep their kind
//! (the mates proven, a legal move from the workers that may end an iteration). Its own test
//! binary, because the kernel's build options are read from the environment when a search is
//! opened; the plain side is the default kernel's build (empty options), which other tests
//! compile too.

mod common;

use kogge_search_gpu::{Finisher, ParallelMode};

#[test]
fn one_worker_is_unchanged_and_many_still_prove_the_mates() {
    let options = "-DDEFERRED_AS_MET=2";
    let plain = common::one_worker_runs("", &common::TREE_FENS, 8);
    let as_met = common::one_worker_runs(options, &common::TREE_FENS, 8);
    assert_eq!(plain, as_met, "one worker's tree changed");
    // The options stay set: these searches are built with the knob too.
    for mut gpu in common::open_all_finishing(16, ParallelMode::AbdadaRmo, Finisher::Clean) {
        gpu.set_slice_nodes(Some(16));
        let helpers_ended = common::iterations_ended_every(&mut gpu, 2);
        eprintln!("clean helpers ended {helpers_ended} of the iterations");
    }
}
