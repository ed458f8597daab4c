//! The kernel knob `NULL_STORE` (search.cl): a null move's cutoff keeps its value in the table, a
//! lower bound at the node's depth, as a move's cutoff does. Unlike `STORE_EVAL`'s entries these
//! change the tree: a later visit to the position, the next iteration's or a transposition's,
//! ends on the entry where its depth and bound allow, instead of searching the null move again.
//! So one worker's nodes end on the table more often (on PoCL, kiwipete and a rook ending to depth
//! 8: 2,243 table cutoffs against 2,217, 25,676 nodes against 25,716), and every iteration still
//! ends with a move and a value. Its own test binary, because the kernel's build options are read
//! from the environment when a search is opened; the plain side is the default kernel's build
//! (empty options), which other tests compile too.

mod common;

#[test]
fn stored_null_cutoffs_end_later_visits_on_the_table() {
    let fens = common::TREE_FENS;
    let depth = 8;
    let plain = common::one_worker_runs("", &fens, depth);
    let stored = common::one_worker_runs("-DNULL_STORE=1", &fens, depth);
    for (a, b) in plain.iter().zip(&stored) {
        let nodes = |r: &common::Run| r.iter().map(|x| x.0).sum::<u64>();
        let cutoffs = |r: &common::Run| r.iter().map(|x| x.1).sum::<u64>();
        eprintln!(
            "nodes {} -> {}, table cutoffs {} -> {}",
            nodes(a),
            nodes(b),
            cutoffs(a),
            cutoffs(b)
        );
        assert!(
            cutoffs(b) > cutoffs(a),
            "no more nodes ended on the table: {a:?} {b:?}"
        );
        for (_, _, _, score, best, _) in b {
            assert!(score.abs() < 32000, "no value: {b:?}");
            assert!(best != "0000", "no best move: {b:?}");
        }
    }
}
