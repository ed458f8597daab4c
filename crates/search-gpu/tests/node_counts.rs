//! The node-count diagnostic (`KOGGE_SEARCH_DIAG`): with one worker every node entered is counted
//! once, as new or as seen before, and a second run of the same search finds its every node in
//! the first's record. Its own test binary, because the variable is read when a
//! search is opened and the environment is the process's.

mod common;

use kogge_chess::Epd;
use kogge_search_gpu::driver::Outcome;

#[test]
fn one_worker_counts_every_node_it_enters_once_and_finds_them_again() {
    // SAFETY: set before any device is opened, in a binary whose only test this is, so no other
    // thread reads the environment meanwhile.
    unsafe { std::env::set_var("KOGGE_SEARCH_DIAG", "16") };
    let board = Epd::parse("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 4")
        .expect("valid FEN")
        .board;
    for device in common::devices() {
        let mut gpu = common::one_worker_search(device);
        // Small slices, so that some end at a node's entry: the count must not depend on where
        // the host cut the search (CI's slower machine once cut one there and counted 218).
        gpu.set_slice_nodes(Some(7));
        // Twice: the second search must start from cleared counts.
        for _ in 0..2 {
            gpu.new_search(&[]).unwrap();
            gpu.clear().unwrap(); // the same tree each time: no entries from the search before
            let mut entered = 0;
            for depth in 1..=5 {
                match gpu
                    .iterate(&board, depth, -32001, 32001, &mut |_| false)
                    .unwrap()
                {
                    Outcome::Done(it) => entered += it.nodes,
                    Outcome::Stopped { .. } => unreachable!("nothing stops it"),
                }
            }
            let counts = gpu
                .node_counts()
                .unwrap()
                .expect("KOGGE_SEARCH_DIAG is set");
            eprintln!("{entered} nodes entered: {counts:?}");
            assert_eq!(counts.lost, 0, "a 2^16-key table holds a depth-5 search");
            assert_eq!(counts.new + counts.seen, entered);
            // Every iteration enters the root again, and deeper ones the nodes of shallower.
            assert!(counts.seen >= 4 && counts.new > 0, "{counts:?}");
        }
        // A second run on the same record, from a cleared table: one worker searches the same
        // tree again, so its every node is one the first run entered.
        let first = gpu.node_counts().unwrap().unwrap();
        gpu.next_node_count_run().unwrap();
        gpu.clear().unwrap();
        for depth in 1..=5 {
            gpu.iterate(&board, depth, -32001, 32001, &mut |_| false)
                .unwrap();
        }
        let again = gpu.node_counts().unwrap().unwrap();
        eprintln!("again: {again:?}");
        assert_eq!((again.earlier, again.new), (first.new, 0), "{again:?}");
    }
}
