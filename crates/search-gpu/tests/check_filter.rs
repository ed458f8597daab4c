//! The kernel knob `CHECK_FILTER` (search_state.h, 0 by default): the move step (1), and ETC's
//! round too (2), test a child's king only where `may_give_check` says the move may give check.
//! Its 0 is exact (tests/gives_check.rs), so the tree must not change: one worker searches the
//! same nodes, with the same values, best moves and lines at every depth, every way. A check missed would leave a child in
//! check unflagged (no evasions, no check extension), and the tree would differ. Its own test
//! binary, because the kernel's build options are read from the environment when a search is
//! opened.

mod common;

#[test]
fn the_check_filter_leaves_one_workers_tree_as_it_was() {
    let fens = common::TREE_FENS;
    let depth = 8;
    let tested = common::one_worker_runs("-DCHECK_FILTER=0", &fens, depth);
    assert!(!tested.is_empty(), "no device searched");
    for options in ["-DCHECK_FILTER=1", "-DCHECK_FILTER=2"] {
        let filtered = common::one_worker_runs(options, &fens, depth);
        for (a, b) in tested.iter().zip(&filtered) {
            assert!(a.iter().all(|r| r.0 > 0), "a search entered no node: {a:?}");
            assert_eq!(a, b, "{options}: the tree changed");
        }
    }
}
