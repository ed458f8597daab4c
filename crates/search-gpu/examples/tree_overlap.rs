//! How much of one worker's tree the parallel search visits, and how much outside it: for each
//! position, one worker searches to DEPTH and the node-count diagnostic (`KOGGE_SEARCH_DIAG`)
//! records its nodes (key and depth); then, from a cleared table, WORKERS workers search the same
//! position to the same depth on the same record, and their nodes count as in one worker's tree
//! (`earlier`), outside it (`new`), or entered again (`seen`). Full-window iterations from depth 1.
//! A control: `1h` for WORKERS is one worker again from a cleared table but with the history its
//! first search trained, so that only the move order differs: how far a tree moves on that alone.
//!
//! `cargo run --release -p kogge-search-gpu --example tree_overlap -- FILE COUNT DEPTH WORKERS...`
//! with the first COUNT positions of the EPD file FILE. Environment: `DEVICE=N` picks a device of
//! `kogge devices`' list (default 0); `KOGGE_SEARCH_DIAG` (default 24) the table's size.

mod common;

use anyhow::{Context, Result, bail};
use common::device_from_env;
use kogge_chess::Board;
use kogge_chess::epd::parse_file;
use kogge_search_gpu::{GpuSearch, GpuSearchOptions, NodeCounts, Outcome};

fn search(
    gpu: &mut GpuSearch,
    board: &Board,
    depth: i32,
    keep_history: bool,
) -> Result<NodeCounts> {
    if keep_history {
        gpu.clear_table()?;
    } else {
        gpu.clear()?;
    }
    for d in 1..=depth {
        match gpu.iterate(board, d, -32001, 32001, &mut |_| false)? {
            Outcome::Done(_) => {}
            Outcome::Stopped { .. } => bail!("the search stopped"),
        }
    }
    gpu.node_counts()?.context("no node counts")
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        bail!("usage: tree_overlap FILE COUNT DEPTH WORKERS...");
    }
    let text = std::fs::read_to_string(&args[1]).with_context(|| args[1].clone())?;
    let count: usize = args[2].parse().context("COUNT")?;
    let depth: i32 = args[3].parse().context("DEPTH")?;
    // (workers, whether the history is kept: the `1h` control)
    let runs: Vec<(usize, bool)> = args[4..]
        .iter()
        .map(|w| match w.strip_suffix('h') {
            Some("1") => Ok((1, true)),
            _ => Ok((w.parse().context("WORKERS")?, false)),
        })
        .collect::<Result<_>>()?;
    let boards: Vec<Board> = parse_file(&text)
        .into_iter()
        .take(count)
        .map(|(line, entry)| Ok(entry.with_context(|| format!("line {line}"))?.board))
        .collect::<Result<_>>()?;
    if std::env::var_os("KOGGE_SEARCH_DIAG").is_none() {
        // SAFETY: no other thread runs yet.
        unsafe { std::env::set_var("KOGGE_SEARCH_DIAG", "24") };
    }

    let info = &device_from_env()?;
    let options = GpuSearchOptions {
        workers: runs.iter().map(|r| r.0).max().unwrap_or(1),
        ..GpuSearchOptions::for_device(info)
    };
    let mut gpu = GpuSearch::open(info, options)?;
    println!(
        "{} ({}): {} positions to depth {depth}",
        info.name,
        info.backend,
        boards.len()
    );
    println!(
        "{:>8} {:>12} {:>12} {:>12} {:>12} {:>12} {:>8}",
        "workers", "one's nodes", "entries", "in one's", "outside", "again", "lost"
    );
    for &(w, keep_history) in &runs {
        let (mut one, mut inside, mut outside, mut again, mut lost) = (0, 0, 0, 0, 0);
        for board in &boards {
            gpu.new_search(&[])?;
            gpu.set_active_workers(1);
            let first = search(&mut gpu, board, depth, false)?;
            gpu.next_node_count_run()?;
            gpu.set_active_workers(w);
            let many = search(&mut gpu, board, depth, keep_history)?;
            one += first.new;
            inside += many.earlier;
            outside += many.new;
            again += many.seen;
            lost += first.lost + many.lost;
        }
        let label = if keep_history {
            "1h".to_string()
        } else {
            w.to_string()
        };
        println!(
            "{label:>8} {one:>12} {:>12} {inside:>12} {outside:>12} {again:>12} {lost:>8}",
            inside + outside + again
        );
    }
    Ok(())
}
