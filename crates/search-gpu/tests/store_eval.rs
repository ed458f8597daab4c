//! The kernel knob `STORE_EVAL` (search.cl, 2 by default): a node that ends on its static
//! evaluation (quiescence's stand pat, a reverse-futility cutoff) keeps it in the table, a lower
//! bound at depth 0, where the table had nothing. The tree must not change: a later visit ends on
//! the entry with the value its stand pat would have given, or takes the evaluation from it, so
//! one worker searches the same nodes, with the same values, best moves and lines at every depth.
//! More of its nodes end on the table, which shows that the entries were read. Its own test
//! binary, because the kernel's build options are read from the environment when a search is
//! opened.

mod common;

#[test]
fn kept_evaluations_leave_one_workers_tree_as_it_was() {
    let fens = common::TREE_FENS;
    let depth = 8;
    let plain = common::one_worker_runs("-DSTORE_EVAL=0", &fens, depth);
    let kept = common::one_worker_runs("-DSTORE_EVAL=2", &fens, depth);
    for (a, b) in plain.iter().zip(&kept) {
        let tree = |r: &common::Run| -> Vec<_> {
            r.iter()
                .map(|(n, _, e, s, m, pv)| (*n, *e, *s, m.clone(), pv.clone()))
                .collect()
        };
        assert_eq!(tree(a), tree(b), "the tree changed");
        let more: u64 = a.iter().zip(b).map(|(x, y)| y.1.saturating_sub(x.1)).sum();
        let fewer: u64 = a.iter().zip(b).map(|(x, y)| x.1.saturating_sub(y.1)).sum();
        eprintln!("{more} more table cutoffs, {fewer} fewer");
        assert!(more > 0, "no node ended on a kept evaluation: {a:?} {b:?}");
    }
}
