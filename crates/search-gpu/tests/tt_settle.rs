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

use kogge_chess::Epd;
use kogge_search_gpu::GpuSearch;
use kogge_search_gpu::driver::Outcome;

/// Each iteration's nodes, table cutoffs, ETC cutoffs, value, best move and line, depth 1 to
/// `depth`, for each position; one worker, from an empty table.
type Run = Vec<(u64, u64, u64, i32, String, String)>;

fn search_all(gpu: &mut GpuSearch, fens: &[&str], depth: i32) -> Run {
    let mut run = Vec::new();
    for fen in fens {
        let board = Epd::parse(fen).expect("valid FEN").board;
        gpu.new_search(&[]).unwrap();
        gpu.clear().unwrap();
        for d in 1..=depth {
            match gpu
                .iterate(&board, d, -32001, 32001, &mut |_| false)
                .unwrap()
            {
                Outcome::Done(it) => run.push((
                    it.nodes,
                    it.tt_cutoffs,
                    it.etc_cutoffs,
                    it.score,
                    it.best.to_string(),
                    it.pv
                        .iter()
                        .map(|m| m.to_string())
                        .collect::<Vec<_>>()
                        .join(" "),
                )),
                Outcome::Stopped { .. } => unreachable!("nothing stops it"),
            }
        }
    }
    run
}

fn run_with(options: &str, fens: &[&str], depth: i32) -> Vec<Run> {
    // SAFETY: set while no search is open, in a binary whose only test this is, so no other
    // thread reads the environment meanwhile.
    unsafe {
        std::env::set_var("KOGGE_OPENCL_OPTIONS", options);
        std::env::set_var("KOGGE_CUDA_OPTIONS", options);
    }
    common::devices()
        .into_iter()
        .map(|device| search_all(&mut common::one_worker_search(device), fens, depth))
        .collect()
}

#[test]
fn settled_children_leave_one_workers_tree_as_it_was() {
    // A middlegame (kiwipete) and a rook ending, where the iterations' entries settle many
    // children of the next iteration's reduced moves.
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];
    let depth = 8;
    let plain = run_with("-DTT_SETTLE=0", &fens, depth);
    let settled = run_with("-DTT_SETTLE=2 -DTT_SETTLE_PV=0", &fens, depth);
    // TT_SETTLE_PV (on wherever TT_SETTLE is): PV nodes settle their later children too.
    let settled_pv = run_with("-DTT_SETTLE=2", &fens, depth);
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
