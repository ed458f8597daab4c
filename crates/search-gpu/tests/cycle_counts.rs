//! The diagnostic `KOGGE_SEARCH_CYCLES` (`DIAG_CYCLES` in search_state.h): the kernel counts the
//! turns and cycles of each part of its state machine. The turns must agree with the tree the
//! search reports: every node entered is one sync with the table and one turn of the entry's
//! control (but the children settled from the table by their parent, counted as nodes and never
//! entered), and an evaluation is asked for only on the way to the evaluation's state. Its own
//! test binary, because the kernel's build options are read from the environment when a search
//! is opened. With `DIAG_CYCLES_WORKER` naming another worker, a worker's counters are not added.

mod common;

use kogge_chess::Epd;
use kogge_search_gpu::driver::Outcome;

#[test]
fn the_parts_turns_agree_with_the_nodes_searched() {
    // SAFETY: set before any search is opened, in a binary whose only test this is, so no other
    // thread reads the environment meanwhile.
    unsafe { std::env::set_var("KOGGE_SEARCH_CYCLES", "1") };
    let board = Epd::parse("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
        .expect("valid FEN")
        .board;
    for device in common::devices() {
        let mut gpu = common::one_worker_search(device);
        gpu.new_search(&[]).unwrap();
        gpu.set_slice_nodes(Some(200));
        let (mut nodes, mut table_cutoffs) = (0, 0);
        for depth in 1..=6 {
            match gpu
                .iterate(&board, depth, -32001, 32001, &mut |_| false)
                .unwrap()
            {
                Outcome::Done(it) => {
                    nodes += it.nodes;
                    table_cutoffs += it.tt_cutoffs;
                }
                Outcome::Stopped { .. } => unreachable!("nothing stops it"),
            }
        }
        let parts = gpu.cycle_counts().unwrap().expect("counted");
        let turns = |name: &str| {
            parts
                .iter()
                .find(|p| p.name == name)
                .unwrap_or_else(|| panic!("no part {name}: {parts:?}"))
                .turns
        };
        // Quiescence's generations, evaluations and states are counted apart (`-qs`): both
        // searches' turns together are what the nodes are compared with, and both must turn.
        let both = |name: &str| {
            let (plain, qs) = (turns(name), turns(&format!("{name}-qs")));
            assert!(
                plain > 0 && qs > 0,
                "{name} or {name}-qs never turned: {parts:?}"
            );
            plain + qs
        };
        let (sync, enter) = (turns("need-sync"), both("state-enter"));
        // A launch ends at a node's entry (its slice is over) after the sync and before the
        // entry's turn is counted; otherwise each sync is followed by an entry, which counts the
        // node unless the slice is over or the iteration done. Children settled by their parent
        // (TT_SETTLE) count as nodes and as table cutoffs without an entry.
        let launches_at_most = nodes / 50 + 20;
        assert!(
            sync >= enter
                && sync - enter <= launches_at_most
                && enter <= nodes + launches_at_most
                && nodes <= enter + table_cutoffs,
            "{nodes} nodes, {table_cutoffs} table cutoffs, {sync} syncs, {enter} entries: {parts:?}"
        );
        assert!(both("need-eval") <= both("state-eval"), "{parts:?}");
        assert!(
            both("need-gen") > 0 && both("state-next") > 0 && both("state-return") > 0,
            "{parts:?}"
        );
        // The cycle counter exists on the backend or not: every part that turned has cycles, or
        // none has (OpenCL off NVIDIA).
        let turned: Vec<_> = parts.iter().filter(|p| p.turns > 0).collect();
        let counted = turned.iter().filter(|p| p.cycles > 0).count();
        assert!(
            counted == 0 || counted == turned.len(),
            "some parts without cycles: {parts:?}"
        );
        eprintln!(
            "{nodes} nodes; {} parts turned, {counted} with cycles",
            turned.len()
        );
    }

    // `-DDIAG_CYCLES_WORKER=W` adds only worker W's counters to the totals (worker 0's walk under
    // `GPU Finisher main`, fifty-seventh session): naming a worker the search does not have, one
    // worker's search counts nothing though it ran.
    // SAFETY: as above; every search of the first part is closed.
    unsafe { common::set_kernel_options("-DDIAG_CYCLES_WORKER=1") };
    for device in common::devices() {
        let mut gpu = common::one_worker_search(device);
        let nodes: u64 = common::iterations(&mut gpu, &board, 4)
            .iter()
            .map(|it| it.nodes)
            .sum();
        let parts = gpu.cycle_counts().unwrap().expect("counted");
        assert!(
            nodes > 0 && parts.iter().all(|p| p.turns == 0 && p.cycles == 0),
            "{nodes} nodes, but worker 0's counters were added: {parts:?}"
        );
    }
}
