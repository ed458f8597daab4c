//! Does every worker's result hold up? Finds the positions of an EPD file where the CPU search
//! proves a mate in at most three moves at depth 7, then searches each of them several times on
//! the GPU, letting any worker (or only worker 0) end an iteration, and counts the results that
//! do not give the same mate. This is how the misaligned saved stacks of PoCL were found (see
//! `STACK_STRIDE_WORDS` in search.cl).
//!
//! `cargo run --release -p kogge-search-gpu --example helper_mates -- FILE WORKERS MODE ANY RUNS`
//! with MODE one of lazy, rmo, abdada, abdada-rmo and ANY 1 (any worker ends an iteration) or 0
//! (worker 0 only). Environment: `DEVICE=N` picks a device of `kogge devices`' list (default 0),
//! `SLICE=N` fixes the nodes per worker and launch (small values stress suspending and resuming),
//! `ONLY=TEXT` keeps the positions whose FEN contains TEXT. A miss is printed with its search's
//! number (the how-manyth `search new` of `KOGGE_SEARCH_TRACE=1`'s trace) and its lines.

mod common;

use anyhow::{Context, Result, bail};
use common::{device_from_env, env_number};
use kogge_chess::epd::parse_file;
use kogge_gpu::Device;
use kogge_search::{GamePosition, Limits, MATE, Report, SearchBackend, SearchControl};
use kogge_search_cpu::CpuSearch;
use kogge_search_gpu::{
    ClockOptions, Finisher, GpuSearch, GpuSearchOptions, ParallelMode, iterative_deepening,
};
use std::sync::Mutex;
use std::time::Instant;

/// The depth of every search, CPU and GPU: mates in three (five plies) with room to spare, as
/// `kogge selftest` checks them.
const DEPTH: u32 = 7;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 6 {
        bail!(
            "usage: helper_mates FILE WORKERS MODE FINISHER RUNS (FINISHER: any, checked or main)"
        );
    }
    let text = std::fs::read_to_string(&args[1]).with_context(|| args[1].clone())?;
    let workers: usize = args[2].parse().context("WORKERS")?;
    let mode = ParallelMode::from_name(&args[3]).context("MODE")?;
    let finisher = Finisher::from_name(&args[4]).context("FINISHER")?;
    let runs: usize = args[5].parse().context("RUNS")?;
    let only = std::env::var("ONLY").ok();

    let limits = Limits::depth(DEPTH);
    let mut cpu = CpuSearch::new(16, 1);
    let mut mates = Vec::new();
    for (line, entry) in parse_file(&text) {
        let board = entry.with_context(|| format!("line {line}"))?.board;
        if only
            .as_ref()
            .is_some_and(|o| !board.to_fen().contains(o.as_str()))
        {
            continue;
        }
        cpu.clear();
        let reference = cpu.search(
            &GamePosition::new(board),
            &limits,
            &SearchControl::new(),
            &(),
        );
        if reference.value >= MATE - 5 {
            mates.push((board, reference.value));
        }
    }

    let info = &device_from_env()?;
    println!(
        "{} ({}): {} mates, {workers} workers, {mode:?}, finisher {}",
        info.name,
        info.backend,
        mates.len(),
        finisher.name()
    );
    let options = GpuSearchOptions {
        workers,
        hash_mb: 16,
        mode,
        finisher,
    };
    let mut gpu = GpuSearch::with_device(Device::open(info)?, options)?;
    if let Some(nodes) = env_number::<u32>("SLICE")? {
        gpu.set_slice_nodes(Some(nodes));
    }

    let (mut same, mut different) = (0, 0);
    let mut search = 0usize;
    for (board, value) in &mates {
        let legal: Vec<_> = board.legal_moves().iter().copied().collect();
        let mut misses = Vec::new();
        for _ in 0..runs {
            gpu.clear()?;
            search += 1;
            let lines = Mutex::new(Vec::new());
            let sink = |r: Report| {
                if let Report::Pv(info) = r {
                    let pv: Vec<String> = info.pv.iter().take(8).map(|m| m.to_string()).collect();
                    let line = format!("d{} {} {}", info.depth, info.value, pv.join(" "));
                    lines.lock().unwrap_or_else(|e| e.into_inner()).push(line);
                }
            };
            let got = iterative_deepening(
                &mut gpu,
                &GamePosition::new(*board),
                &limits,
                &SearchControl::new(),
                &sink,
                &legal,
                Instant::now(),
                ClockOptions::UNTIMED,
                1,
            )?;
            if got.value == *value {
                same += 1;
            } else {
                different += 1;
                misses.push(got.value);
                let lines = lines.into_inner().unwrap_or_else(|e| e.into_inner());
                println!("  search {search}: {} | {}", got.value, lines.join(" | "));
            }
        }
        if !misses.is_empty() {
            println!("{}: CPU {value}, GPU {misses:?}", board.to_fen());
        }
    }
    println!("{same} searches gave the CPU's mate, {different} did not");
    Ok(())
}
