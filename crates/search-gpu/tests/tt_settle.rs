//! The kernel knob `TT_SETTLE` (search_state.h, on by default): a child whose table entry would
//! end it at once, at or below its parent's alpha, is settled by the parent without being entered.
//! The tree must not change: one worker searches the same nodes, with the same values, best moves
//! and lines at every depth. `TT_SETTLE=2` also counts the settled children among the ETC cutoffs,
//! which shows that some were. The settled child's value is the entry ETC's round read, not read
//! again at the move's turn; with one worker only the node's own earlier moves could have changed
//! it meanwhile, and on these positions none did. `TT_SETTLE_PV` (on wherever `TT_SETTLE` is)
//! lets PV nodes settle their later children too, and `SETTLE_AGAIN` (likewise) runs the round
//! again for a node's moves past the first round's. The settled children are never made, and with
//! `KEEP_CHILDREN` (on by default) every child the round looked at keeps its check flag and key
//! for the move step: both paths run here against the plain search. Its own test binary, because
//! the kernel's build options are read from the environment when a search is opened.

mod common;

use common::Run;

#[test]
fn settled_children_leave_one_workers_tree_as_it_was() {
    // The iterations' entries settle many children of the next iteration's reduced moves.
    let fens = common::TREE_FENS;
    let depth = 8;
    let plain = common::one_worker_runs("-DTT_SETTLE=0", &fens, depth);
    let settled = common::one_worker_runs("-DTT_SETTLE=2 -DTT_SETTLE_PV=0", &fens, depth);
    // TT_SETTLE_PV (on wherever TT_SETTLE is): PV nodes settle their later children too.
    let settled_pv = common::one_worker_runs("-DTT_SETTLE=2", &fens, depth);
    for (a, b) in plain
        .iter()
        .zip(&settled)
        .chain(plain.iter().zip(&settled_pv))
    {
        let without_etc = |r: &Run| -> Vec<_> {
            r.iter()
                .map(|(n, t, _, s, m, pv)| (*n, *t, *s, m.clone(), pv.clone()))
                .collect()
        };
        assert_eq!(without_etc(a), without_etc(b), "the tree changed");
        let extra: u64 = a.iter().zip(b).map(|(x, y)| y.2 - x.2).sum();
        let cutoffs: u64 = a.iter().map(|x| x.1).sum();
        eprintln!("{extra} children settled of {cutoffs} table cutoffs");
        assert!(
            a.iter().zip(b).all(|(x, y)| y.2 >= x.2) && extra > 0,
            "no child was settled: {a:?} {b:?}"
        );
    }
}
