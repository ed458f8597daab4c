//! What the device tests share: every device there is, and the positions to compare on.

// Each test binary uses a subset.
#![allow(dead_code)]

use kogge_chess::{Board, Epd, testdata};
use kogge_gpu::Device;
use kogge_search_gpu::driver::Outcome;
use kogge_search_gpu::{
    Finisher, GpuSearch, GpuSearchOptions, ParallelMode, PlayoutOptions, playouts,
};

/// Every device there is (`kogge_gpu::testing`: PoCL where there is no GPU, required in CI).
pub fn devices() -> Vec<Device> {
    kogge_gpu::testing::open_devices("the GPU search")
}

/// A position from its FEN.
pub fn board(fen: &str) -> Board {
    Epd::parse(fen).expect("valid FEN").board
}

/// WAC's mates in two and three and a quiet middlegame (moves to mate; `None`: quiet), on which
/// the finisher knobs' tests check that a search's results do not change in kind.
pub const MATES_AND_QUIET: [(&str, Option<i32>); 3] = [
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

/// A last iteration's result as [`MATES_AND_QUIET`] has it: the mate proven, or a quiet value.
pub fn assert_mate_or_quiet(fen: &str, mate: Option<i32>, it: &kogge_search_gpu::Iteration) {
    match mate {
        Some(moves) => assert_eq!(it.score, 32000 - (2 * moves - 1), "{fen}: {it:?}"),
        None => assert!(it.score.abs() < 300, "{fen}: {it:?}"),
    }
}

/// One search of `b`, iterations 1 to `depth` with the full window (each after the first on the
/// table of the ones before), every iteration completed.
pub fn iterations(gpu: &mut GpuSearch, b: &Board, depth: i32) -> Vec<kogge_search_gpu::Iteration> {
    gpu.new_search(&[]).unwrap();
    (1..=depth)
        .map(
            |d| match gpu.iterate(b, d, -32001, 32001, &mut |_| false).unwrap() {
                Outcome::Done(it) => it,
                Outcome::Stopped { .. } => unreachable!("nothing stops it"),
            },
        )
        .collect()
}

/// [`MATES_AND_QUIET`] searched to depth 7, each from a cleared table: every iteration must be
/// ended by a worker whose number is a multiple of `spacing` (under `Finisher::Clean`, worker 0
/// or a clean helper) with a legal move, and the last must keep its kind. Returns how many
/// iterations a helper ended.
pub fn iterations_ended_every(gpu: &mut GpuSearch, spacing: usize) -> usize {
    let mut helpers_ended = 0;
    for (fen, mate) in MATES_AND_QUIET {
        gpu.clear().unwrap();
        let b = board(fen);
        let its = iterations(gpu, &b, 7);
        for it in &its {
            assert!(
                it.worker % spacing == 0,
                "{fen} depth {}: worker {} ended it",
                it.depth,
                it.worker
            );
            assert!(b.legal_moves().contains(it.best), "{fen}: {it:?}");
            helpers_ended += usize::from(it.worker != 0);
        }
        assert_mate_or_quiet(fen, mate, its.last().unwrap());
    }
    helpers_ended
}

/// A search with `workers` workers in `mode`, ended by `finisher`, with 8 MiB of table, on
/// every device.
pub fn open_all_finishing(
    workers: usize,
    mode: ParallelMode,
    finisher: Finisher,
) -> Vec<GpuSearch> {
    devices()
        .into_iter()
        .map(|device| {
            let options = GpuSearchOptions {
                workers,
                hash_mb: 8,
                mode,
                finisher,
            };
            GpuSearch::with_device(device, options).expect("search kernel builds")
        })
        .collect()
}

/// A search of one worker on `device` (deterministic), in the default mode and with the default
/// finisher, with 8 MiB of table.
pub fn one_worker_search(device: Device) -> GpuSearch {
    let options = GpuSearchOptions {
        workers: 1,
        hash_mb: 8,
        mode: ParallelMode::default(),
        finisher: Finisher::default(),
    };
    GpuSearch::with_device(device, options).expect("search kernel builds")
}

/// One worker's search of some positions, iteration by iteration (depth 1 on, each position from
/// an empty table): nodes, table cutoffs, ETC cutoffs, value, best move and line.
pub type Run = Vec<(u64, u64, u64, i32, String, String)>;

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

/// The kernel knobs every search opened from now on is built with, on both backends
/// (`KOGGE_OPENCL_OPTIONS` and `KOGGE_CUDA_OPTIONS`, read when a search is opened).
///
/// # Safety
/// Sets the process's environment: only while no other thread may read it, as in a test binary
/// whose only test this is.
pub unsafe fn set_kernel_options(options: &str) {
    // SAFETY: the caller's promise.
    unsafe {
        std::env::set_var("KOGGE_OPENCL_OPTIONS", options);
        std::env::set_var("KOGGE_CUDA_OPTIONS", options);
    }
}

/// One worker's [`Run`] on every device, to `depth`, with the kernel built with `options` (as
/// `KOGGE_OPENCL_OPTIONS` and `KOGGE_CUDA_OPTIONS`). Only for a test binary whose only test this
/// is: the options are read from the process's environment when a search is opened.
pub fn one_worker_runs(options: &str, fens: &[&str], depth: i32) -> Vec<Run> {
    // SAFETY: set while no search is open, in a binary with a single test (above), so no other
    // thread reads the environment meanwhile.
    unsafe { set_kernel_options(options) };
    devices()
        .into_iter()
        .map(|device| search_all(&mut one_worker_search(device), fens, depth))
        .collect()
}

/// A middlegame (kiwipete) and a rook ending, where the iterations' entries meet many of the
/// next iteration's nodes: the positions on which a knob must leave one worker's tree as it was.
pub const TREE_FENS: [&str; 2] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

/// Every position of a shared EPD file.
pub fn suite(name: &str) -> Vec<Board> {
    testdata::fens(name)
        .iter()
        .map(|fen| match Epd::parse(fen) {
            Ok(epd) => epd.board,
            Err(e) => panic!("{name}: {fen}: {e}"),
        })
        .collect()
}

/// The suites GPU evaluation is compared on.
pub const SUITES: [&str; 5] = [
    "perft-suite.epd",
    "perft-random.epd",
    "perft-chess960.epd",
    "wac.epd",
    "openings-8ply.epd",
];

/// The suites random playouts start from (varied material, Chess960 castling).
pub const PLAYOUT_SUITES: [&str; 3] = ["perft-suite.epd", "perft-random.epd", "perft-chess960.epd"];

/// Every position of the suites of [`SUITES`].
pub fn suite_boards() -> Vec<Board> {
    SUITES.iter().flat_map(|s| suite(s)).collect()
}

/// The positions of random playouts from [`PLAYOUT_SUITES`] ([`PlayoutOptions::CHECK`]).
pub fn playout_boards() -> Vec<Board> {
    let starts: Vec<Board> = PLAYOUT_SUITES.iter().flat_map(|s| suite(s)).collect();
    playouts(&starts, &PlayoutOptions::CHECK)
}

/// The batch checks' verdict: on every device, `mismatches` compares `what` (its answers against
/// the CPU's) and returns how many `items` it compared and a message for each disagreement; none
/// may disagree, and something must have been compared.
pub fn assert_agrees_everywhere(
    what: &str,
    items: &str,
    mismatches: impl Fn(&Device) -> (usize, Vec<String>),
) {
    for device in devices() {
        let (n, bad) = mismatches(&device);
        eprintln!("{}: {what}: {n} {items} compared", device.info().name);
        assert!(n > 0, "{what}: no {items} to compare");
        assert!(
            bad.is_empty(),
            "{what}: {} of {n} {items} differ on {}:\n{}",
            bad.len(),
            device.info().name,
            bad.iter().take(5).cloned().collect::<Vec<_>>().join("\n")
        );
    }
}

/// Runs `kernel` over `n` items, one work-item each, with `inputs` as its first arguments and a
/// buffer of `n` answers as its last (the batch check kernels: see_check, gives_check_check).
pub fn run_per_item(
    device: &kogge_gpu::Device,
    kernel: &kogge_gpu::Kernel,
    n: usize,
    inputs: &[kogge_gpu::Arg],
) -> Vec<u32> {
    let out = device.alloc::<u32>(n).expect("alloc");
    let mut args: Vec<kogge_gpu::Arg> = inputs.to_vec();
    args.push(kogge_gpu::Arg::buf(&out));
    let local = 64;
    device
        .launch(kernel, n.div_ceil(local) * local, local, &args)
        .expect("the batch kernel runs");
    let mut got = vec![0u32; n];
    device.read(&out, &mut got).expect("read");
    got
}
