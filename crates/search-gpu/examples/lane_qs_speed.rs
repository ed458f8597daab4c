//! How fast lanes searching side by side get through the horizon's quiescence searches
//! (`kernels/lane_qs.h`): every child of each position of the EPD files, with a null window
//! around the position's evaluation (`lane_qs::horizon_jobs`), run by W warps in rounds of 32
//! consecutive children, each round as slow as its slowest lane ("wait"), and again with lanes
//! that go on to their next child at once ("free"). Every result is checked against
//! the CPU's `lane_qs::reference`. Per warp, the nodes per second compare with a GPU search
//! worker's (`kogge benchsmp`), which enters one node at a time with its 32 lanes together.
//!
//! `cargo run --release -p kogge-search-gpu --example lane_qs_speed -- WARPS FILE...`, WARPS a
//! comma-separated list of warp counts. Environment: `DEVICE=N` picks a device of `kogge
//! devices`' list (default 0); `REPEAT=N` copies the job list N times (default 1), so that the
//! launches are long enough to time.

mod common;

use anyhow::{Context, Result, bail};
use common::device_from_env;
use kogge_chess::Board;
use kogge_chess::epd::parse_file;
use kogge_gpu::Device;
use kogge_search_gpu::lane_qs::{LaneQs, LaneQsResult, horizon_jobs, reference};

/// The same margins as the tests: children that fail high, low, and in between.
const MARGINS: [i32; 5] = [-150, -40, 0, 40, 150];
/// The horizon's distance from the root, for mate scores.
const PLY: u32 = 5;
/// Lanes of a warp, and of a round.
const LANES: usize = 32;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        bail!("usage: lane_qs_speed WARPS FILE...");
    }
    let warps: Vec<usize> = args[1]
        .split(',')
        .map(|w| w.parse().context("WARPS"))
        .collect::<Result<_>>()?;
    let mut boards: Vec<Board> = Vec::new();
    for file in &args[2..] {
        let text = std::fs::read_to_string(file).with_context(|| file.clone())?;
        for (line, entry) in parse_file(&text) {
            boards.push(entry.with_context(|| format!("{file}: line {line}"))?.board);
        }
    }
    let repeat: usize = std::env::var("REPEAT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let once = horizon_jobs(&boards, &MARGINS);
    let expected: Vec<LaneQsResult> = once
        .iter()
        .map(|j| reference(&j.board, j.alpha, j.beta, PLY))
        .collect();
    let jobs: Vec<_> = (0..repeat).flat_map(|_| once.iter().cloned()).collect();

    let info = &device_from_env()?;
    let mut qs = LaneQs::new(Device::open(info)?)?;

    // Each round's busy share: its lanes' nodes over 32 times its largest (the node is the unit
    // of work; a round lasts as long as its longest search).
    let rounds: Vec<&[LaneQsResult]> = expected.chunks(LANES).collect();
    let busy: u64 = rounds
        .iter()
        .map(|r| r.iter().map(|q| u64::from(q.nodes)).sum::<u64>())
        .sum();
    let slots: u64 = rounds
        .iter()
        .map(|r| LANES as u64 * u64::from(r.iter().map(|q| q.nodes).max().unwrap_or(0)))
        .sum();
    let nodes_once: u64 = expected.iter().map(|q| u64::from(q.nodes)).sum();
    println!(
        "{} ({}): {} positions, {} searches x {repeat}, {nodes_once} nodes each time \
         ({:.2} a search); rounds {:.1}% busy (nodes over 32 x each round's largest)",
        info.name,
        info.backend,
        boards.len(),
        once.len(),
        nodes_once as f64 / once.len() as f64,
        100.0 * busy as f64 / slots as f64
    );
    // A first launch builds whatever the driver builds lazily and warms the caches.
    qs.run(&jobs[..jobs.len().min(LANES * 64)], PLY, 64, true)?;
    println!(
        "| warps | rounds | nodes | time s | nodes/s | nodes/s per warp | searches/s per warp | wrong |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (&w, wait) in warps.iter().flat_map(|w| [(w, true), (w, false)]) {
        let (got, took) = qs.run(&jobs, PLY, w, wait)?;
        let wrong = got
            .iter()
            .zip(expected.iter().cycle())
            .filter(|(g, e)| g != e)
            .count();
        let nodes: u64 = got.iter().map(|q| u64::from(q.nodes)).sum();
        let secs = took.as_secs_f64();
        let active = w.min(jobs.len().div_ceil(LANES)) as f64;
        println!(
            "| {w} | {} | {nodes} | {secs:.4} | {:.1} M | {:.0} K | {:.0} K | {wrong} |",
            if wait { "wait" } else { "free" },
            nodes as f64 / secs / 1e6,
            nodes as f64 / secs / active / 1e3,
            jobs.len() as f64 / secs / active / 1e3
        );
    }
    Ok(())
}
