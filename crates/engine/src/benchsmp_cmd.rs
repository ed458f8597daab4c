//! `kogge benchsmp`: how the GPU search scales with workers, as Zeta's `benchsmp` shows it. For
//! each worker count (1, 2, 4, … by default) every position is searched to a fixed depth from a
//! fresh table; the table gives nodes per second and time to depth, and both as speedups over
//! the first row. One kernel build serves every row: the workers are allocated once for the
//! largest count and fewer are launched. With `--runs N` each row with several workers searches
//! the positions N times and reports the mean: such a search's time to a depth varies by up to 3
//! times from run to run, with which of near-equal root moves the earlier iterations settled on
//! (forty-ninth session, docs/PERFORMANCE.md), so one run a row says little. With `--json` a row
//! also gives each position's mean time and nodes, which `bench/ab_table.py` compares position by
//! position (at depth 17 every position spreads, the fifth the most: seventy-second session).

use crate::bench::POSITIONS;
use anyhow::{Context, Result, bail};
use clap::Args;
use kogge_chess::Board;
use kogge_chess::epd;
use kogge_gpu::{BackendKind, choose, list_devices};
use kogge_search::{GamePosition, Limits, SearchControl};
use kogge_search_gpu::{
    ClockOptions, Finisher, GpuSearch, GpuSearchOptions, ParallelMode, iterative_deepening,
};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct BenchSmpArgs {
    /// GPU backend: cuda or opencl (default: the best device there is).
    #[arg(long, value_parser = ["cuda", "opencl"])]
    pub backend: Option<String>,

    /// Which device of the backend, as `kogge devices` numbers them.
    #[arg(long, value_name = "N")]
    pub device: Option<usize>,

    /// Depth of every search.
    #[arg(long, default_value_t = 8)]
    pub depth: u32,

    /// Worker counts, comma-separated [default: 1, 2, 4, … up to the device's default].
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub workers: Vec<usize>,

    /// Positions: `start` (the start position), `bench` (the first N of `kogge bench`'s), or an
    /// EPD or FEN file (its first N positions; e.g. endgames, which the bench positions lack).
    #[arg(long, default_value = "start")]
    pub positions: String,

    /// With `--positions bench` or a file: how many.
    #[arg(long, default_value_t = 8)]
    pub count: usize,

    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256)]
    pub hash: usize,

    /// How workers share the search: lazy, rmo, abdada, abdada-rmo or ybwc.
    #[arg(long, default_value = "abdada-rmo", value_parser = ParallelMode::NAMES)]
    pub mode: String,

    /// Who ends an iteration: `any` (the first worker to finish it; its result is used),
    /// `checked` (a helper only where its result agrees with worker 0's first move and the
    /// others' best), `main` (worker 0 only), `closing` (`any`, then `checked` for the depth
    /// asked for) or `clean` (worker 0 and about eight helpers, every 32nd of 264, ordering as
    /// worker 0 does)
    /// [default: the device's, as the engine plays].
    #[arg(long, value_parser = Finisher::NAMES)]
    pub finish: Option<String>,

    /// Searches of the positions a row with several workers makes, each from a cleared table;
    /// the row gives their mean and the fastest and slowest run's time. One worker's search is
    /// deterministic (the same nodes every run), so its row is searched once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,

    /// Print one JSON object per row instead of the table.
    #[arg(long)]
    pub json: bool,
}

struct Row {
    workers: usize,
    /// Runs over the positions, and their nodes and time summed.
    runs: u32,
    nodes: u64,
    time: Duration,
    /// The fastest and the slowest run.
    fastest: Duration,
    slowest: Duration,
    /// Each position's time and nodes, summed over the runs (in the positions' order).
    position_time: Vec<Duration>,
    position_nodes: Vec<u64>,
}

impl Row {
    /// The mean run's seconds and nodes.
    fn mean_secs(&self) -> f64 {
        (self.time.as_secs_f64() / f64::from(self.runs)).max(1e-9)
    }

    fn mean_nodes(&self) -> f64 {
        self.nodes as f64 / f64::from(self.runs)
    }
}

/// The first `count` positions of an EPD or FEN file; a line that does not parse is an error, so
/// that a table never silently leaves a position out.
fn positions_from_file(path: &str, count: usize) -> Result<Vec<Board>> {
    let text = std::fs::read_to_string(path).with_context(|| {
        format!("--positions '{path}': not start, bench or a readable EPD/FEN file")
    })?;
    let positions: Vec<Board> = epd::parse_file(&text)
        .into_iter()
        .take(count)
        .map(|(line, parsed)| {
            parsed
                .map(|e| e.board)
                .with_context(|| format!("{path}, line {line}"))
        })
        .collect::<Result<_>>()?;
    if positions.is_empty() {
        bail!("--positions '{path}': no positions in the file");
    }
    Ok(positions)
}

pub fn run(args: &BenchSmpArgs) -> Result<ExitCode> {
    let kind = match args.backend.as_deref() {
        Some("cuda") => Some(BackendKind::Cuda),
        Some("opencl") => Some(BackendKind::OpenCl),
        _ => None,
    };
    let positions: Vec<Board> = match args.positions.as_str() {
        "start" => vec![Board::startpos()],
        "bench" => POSITIONS
            .iter()
            .take(args.count.max(1))
            .map(|(fen, _)| Board::from_fen(fen).context("bench position"))
            .collect::<Result<_>>()?,
        file => positions_from_file(file, args.count.max(1))?,
    };
    let info = choose(&list_devices(), kind, args.device).context("no GPU device")?;
    let default = GpuSearchOptions::for_device(&info);
    let counts: Vec<usize> = if args.workers.is_empty() {
        std::iter::successors(Some(1usize), |n| Some(n * 2))
            .take_while(|&n| n <= default.workers)
            .chain((!default.workers.is_power_of_two()).then_some(default.workers))
            .collect()
    } else {
        args.workers.clone()
    };
    if counts.contains(&0) {
        bail!("a worker count must be at least 1");
    }
    let most = counts.iter().copied().max().unwrap_or(1);
    let options = GpuSearchOptions {
        workers: most,
        hash_mb: args.hash,
        mode: ParallelMode::from_name(&args.mode).unwrap_or_default(),
        finisher: args
            .finish
            .as_deref()
            .and_then(Finisher::from_name)
            .unwrap_or(default.finisher),
    };
    let finisher = options.finisher;
    // What each JSON row says of how it was searched, so that saved rows describe themselves.
    let setup = format!(
        "\"mode\":\"{}\",\"finish\":\"{}\",\"depth\":{}",
        args.mode,
        finisher.name(),
        args.depth
    );
    let mut gpu =
        GpuSearch::open(&info, options).with_context(|| format!("opening {}", info.name))?;
    if !args.json {
        println!(
            "{} ({}), depth {}, {} position(s), mode {}, finisher {}",
            info.name,
            info.backend,
            args.depth,
            positions.len(),
            args.mode,
            finisher.name()
        );
        println!(
            "{:>8} {:>14} {:>10} {:>14} {:>12} {:>12} {:>5} {:>8} {:>8}",
            "workers",
            "nodes",
            "time s",
            "nodes/s",
            "nps speedup",
            "ttd speedup",
            "runs",
            "min s",
            "max s"
        );
    }
    // A first search outside the table: drivers that compile or load lazily (PoCL builds the
    // kernel at its first launch) would otherwise charge that to the first row.
    gpu.set_active_workers(1);
    let warm = Board::startpos();
    let legal: Vec<_> = warm.legal_moves().iter().copied().collect();
    iterative_deepening(
        &mut gpu,
        &GamePosition::new(warm),
        &Limits::depth(1),
        &SearchControl::new(),
        &(),
        &legal,
        Instant::now(),
        ClockOptions::UNTIMED,
        1,
    )
    .context("GPU search")?;
    let mut rows: Vec<Row> = Vec::new();
    for &workers in &counts {
        gpu.set_active_workers(workers);
        let runs = if workers == 1 { 1 } else { args.runs };
        let mut row = Row {
            workers,
            runs,
            nodes: 0,
            time: Duration::ZERO,
            fastest: Duration::MAX,
            slowest: Duration::ZERO,
            position_time: vec![Duration::ZERO; positions.len()],
            position_nodes: vec![0; positions.len()],
        };
        for _ in 0..runs {
            let mut run_time = Duration::ZERO;
            for (i, board) in positions.iter().enumerate() {
                gpu.clear().context("clearing the table")?;
                let position = GamePosition::new(*board);
                let legal: Vec<_> = board.legal_moves().iter().copied().collect();
                let start = Instant::now();
                let result = iterative_deepening(
                    &mut gpu,
                    &position,
                    &Limits::depth(args.depth),
                    &SearchControl::new(),
                    &(),
                    &legal,
                    start,
                    ClockOptions::UNTIMED,
                    1,
                )
                .context("GPU search")?;
                let time = start.elapsed();
                run_time += time;
                row.nodes += result.nodes;
                row.position_time[i] += time;
                row.position_nodes[i] += result.nodes;
            }
            row.time += run_time;
            row.fastest = row.fastest.min(run_time);
            row.slowest = row.slowest.max(run_time);
        }
        print_row(&row, rows.first(), args.json.then_some(&setup));
        rows.push(row);
    }
    Ok(ExitCode::SUCCESS)
}

/// One row, as a table line or (with `json`, the set-up's fields to add) a JSON object: the
/// mean run's nodes and time, and the speedups of the means over the first row's; the JSON also
/// each position's mean time and nodes (`position_seconds`, `position_nodes`), after the fields
/// a log cut short keeps.
fn print_row(row: &Row, first: Option<&Row>, json: Option<&str>) {
    let secs = row.mean_secs();
    let nodes = row.mean_nodes();
    let nps = nodes / secs;
    let (nps_up, ttd_up) = match first {
        Some(f) => (nps / (f.mean_nodes() / f.mean_secs()), f.mean_secs() / secs),
        None => (1.0, 1.0),
    };
    let (fastest, slowest) = (row.fastest.as_secs_f64(), row.slowest.as_secs_f64());
    if let Some(setup) = json {
        let runs = f64::from(row.runs);
        let seconds: Vec<String> = row
            .position_time
            .iter()
            .map(|t| format!("{:.4}", t.as_secs_f64() / runs))
            .collect();
        let position_nodes: Vec<String> = row
            .position_nodes
            .iter()
            .map(|&n| format!("{:.0}", n as f64 / runs))
            .collect();
        println!(
            "{{\"workers\":{},\"nodes\":{:.0},\"seconds\":{:.4},\"nps\":{:.0},\"nps_speedup\":{:.2},\"ttd_speedup\":{:.2},\"runs\":{},\"seconds_min\":{:.4},\"seconds_max\":{:.4},{setup},\"position_seconds\":[{}],\"position_nodes\":[{}]}}",
            row.workers,
            nodes,
            secs,
            nps,
            nps_up,
            ttd_up,
            row.runs,
            fastest,
            slowest,
            seconds.join(","),
            position_nodes.join(",")
        );
    } else {
        println!(
            "{:>8} {:>14.0} {:>10.3} {:>14.0} {:>12.2} {:>12.2} {:>5} {:>8.3} {:>8.3}",
            row.workers, nodes, secs, nps, nps_up, ttd_up, row.runs, fastest, slowest
        );
    }
}
