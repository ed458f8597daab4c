//! The GPU search on every device present (PoCL where there is no GPU): legal moves, mates
//! found, iterations that agree with what the position demands.

mod common;

use kogge_chess::{Board, Epd};
use kogge_search_gpu::driver::Outcome;
use kogge_search_gpu::{GpuSearch, GpuSearchOptions, ParallelMode};

fn open_all(workers: usize) -> Vec<GpuSearch> {
    open_all_with(workers, ParallelMode::Lazy)
}

fn open_all_with(workers: usize, mode: ParallelMode) -> Vec<GpuSearch> {
    open_all_finishing(workers, mode, false)
}

fn open_all_finishing(workers: usize, mode: ParallelMode, any_finisher: bool) -> Vec<GpuSearch> {
    common::devices()
        .into_iter()
        .map(|device| {
            let options = GpuSearchOptions {
                workers,
                hash_mb: 8,
                mode,
                any_finisher,
            };
            GpuSearch::with_device(device, options).expect("search kernel builds")
        })
        .collect()
}

fn board(fen: &str) -> Board {
    Epd::parse(fen).expect("valid FEN").board
}

fn search_to(gpu: &mut GpuSearch, b: &Board, depth: i32) -> kogge_search_gpu::Iteration {
    gpu.new_search(&[]).unwrap();
    let mut last = None;
    for d in 1..=depth {
        match gpu.iterate(b, d, -32001, 32001, &mut |_| false).unwrap() {
            Outcome::Done(it) => {
                eprintln!(
                    "depth {} score {} nodes {} pv {:?}",
                    it.depth,
                    it.score,
                    it.nodes,
                    it.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>()
                );
                last = Some(it)
            }
            Outcome::Stopped { .. } => unreachable!(),
        }
    }
    last.unwrap()
}

#[test]
fn start_position_gives_a_legal_line() {
    for mode in ParallelMode::ALL {
        for mut gpu in open_all_with(2, mode) {
            let b = Board::startpos();
            let it = search_to(&mut gpu, &b, 5);
            assert!(b.legal_moves().contains(it.best), "{mode:?}: {it:?}");
            assert!(it.depth >= 5 && !it.pv.is_empty(), "{mode:?}: {it:?}");
            assert!(it.score.abs() < 200, "{mode:?}: {it:?}");
        }
    }
}

#[test]
fn finds_scholars_mate() {
    let b = board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    for mut gpu in open_all(2) {
        let it = search_to(&mut gpu, &b, 3);
        assert_eq!(it.best.to_string(), "h5f7");
        assert_eq!(it.score, 32000 - 1, "mate in one");
        assert_eq!(it.pv, vec![it.best]);
    }
}

#[test]
fn slices_do_not_change_the_search() {
    // Black mates in two (WAC); one worker, so the search is deterministic.
    let b = board("4k1r1/2p3r1/1pR1p3/3pP2p/3P2qP/P4N2/1PQ4P/5R1K b - - 0 1");
    for mut gpu in open_all(1) {
        let mut runs = Vec::new();
        for slice in [Some(1_000_000), Some(7), Some(1)] {
            gpu.set_slice_nodes(slice);
            gpu.clear().unwrap();
            let it = search_to(&mut gpu, &b, 6);
            runs.push((it.nodes, it.score, it.best));
        }
        assert!(runs.iter().all(|r| *r == runs[0]), "{runs:?}");
        assert_eq!(runs[0].1, 32000 - 3, "mate in two");
    }
}

#[test]
fn every_worker_proves_mates_across_slices() {
    // WAC mates in two and three. Any worker may end an iteration, and slices of 16 nodes
    // suspend and resume every worker hundreds of times: with the saved stacks packed at their
    // size, PoCL returned the helpers' stacks corrupted and their results missed these mates.
    let mates = [
        (
            "r3kr2/1pp4p/1p1p4/7q/4P1n1/2PP2Q1/PP4P1/R1BB2K1 b q - 0 1",
            2,
        ),
        ("6kr/1q2r1p1/1p2N1Q1/5p2/1P1p4/6R1/7P/2R3K1 w - - 0 1", 3),
        ("4kn2/r4p1r/p3bQ2/q1nNP1Np/1p5P/8/PPP3P1/2KR3R w - - 0 1", 2),
        ("4R3/4q1kp/6p1/1Q3b2/1P1b1P2/6KP/8/8 b - - 0 1", 3),
    ];
    for mode in [ParallelMode::Rmo, ParallelMode::AbdadaRmo] {
        for mut gpu in open_all_finishing(2, mode, true) {
            gpu.set_slice_nodes(Some(16));
            for (fen, moves) in mates {
                gpu.clear().unwrap();
                let it = search_to(&mut gpu, &board(fen), 7);
                assert_eq!(
                    it.score,
                    32000 - (2 * moves - 1),
                    "{mode:?}, worker {}: {fen}",
                    it.worker
                );
            }
        }
    }
}
