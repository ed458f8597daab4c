//! `kogge selftest`: checks the GPU kernels on one device against answers known to be right.
//!
//! - **movegen**: GPU perft (`kogge-gpu-perft`) of every position of the three perft suites, at
//!   the deepest depth listed whose count is at most `--max-nodes`, against that count.
//! - **eval**: the GPU evaluation (`kernels/eval.h`) against the CPU's (`kogge_eval`) on every
//!   position of those suites, WAC and the openings, and on positions of random playouts from
//!   the perft suites (the same ones the tests compare).
//!
//! Each check group prints one line (`movegen  perft-suite.epd  127 passed, 0 failed (1.2 s)`)
//! and its first failures in detail; the last line is the total, `N passed, N failed`. Exit
//! status 0 when everything passed, 1 when anything failed (a device or kernel error inside a
//! check counts as a failure of that check), 2 for bad input or no device at all.
//!
//! - **search**: the GPU search (`kernels/search.cl`) on every WAC position to a fixed depth:
//!   it must reach the depth with a legal best move; and where the CPU search
//!   proves a mate in at most three moves at that depth, the GPU must prove the same mate (in one
//!   of three searches: a helper that ends an iteration may have pruned it, rarely). Then
//!   `go searchmoves` and MultiPV on ten of them: with half the legal moves named and three
//!   lines asked for, the lines must play named moves, each a different one, best first.
//!
//! A new group of checks is a function with the signature of [`Check`]
//! and one more entry in [`CHECKS`].

use crate::perft_cmd::progress_bar;
use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use kogge_chess::Move;
use kogge_chess::epd::{Epd, parse_file};
use kogge_chess::{Board, testdata};
use kogge_gpu::{BackendKind, Device, DeviceInfo, choose, list_devices};
use kogge_gpu_perft::{GpuPerft, PerftOptions};
use kogge_search::{
    Bound, DisplayValue, GamePosition, Limits, MATE, SearchBackend, SearchControl, Value,
};
use kogge_search_cpu::CpuSearch;
use kogge_search_gpu::{
    ClockOptions, GpuEvaluator, GpuSearch, GpuSearchOptions, PlayoutOptions, compare_with_cpu,
    iterative_deepening, playouts,
};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

/// `--max-nodes` when not given: the whole selftest takes about 10 s with OpenCL on two CPU
/// cores (PoCL), well under a minute on a busy machine. On a real GPU pass a large value.
pub const DEFAULT_MAX_NODES: u64 = 1_000_000;

/// The suites with perft counts: move generation is checked on these.
const PERFT_SUITES: [&str; 3] = ["perft-suite.epd", "perft-random.epd", "perft-chess960.epd"];

/// Every suite: the evaluation is checked on all of them.
const EVAL_SUITES: [&str; 5] = [
    "perft-suite.epd",
    "perft-random.epd",
    "perft-chess960.epd",
    "wac.epd",
    "openings-8ply.epd",
];

/// Failures shown in detail per group; the rest are only counted.
const SHOWN_FAILURES: usize = 5;

#[derive(Args, Debug)]
pub struct SelftestArgs {
    /// The backend to test: cuda or opencl. Default: the device `kogge devices` marks (a CUDA
    /// GPU, else an OpenCL GPU, else an OpenCL CPU device).
    #[arg(long, value_enum)]
    pub backend: Option<GpuBackend>,

    /// Which device of the backend, as `kogge devices` numbers them.
    #[arg(long, value_name = "N")]
    pub device: Option<usize>,

    /// Move generation: perft each position at the deepest depth whose count is at most N.
    #[arg(
        long,
        value_name = "N",
        default_value_t = DEFAULT_MAX_NODES,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub max_nodes: u64,

    /// The folder holding the test suites (perft-suite.epd, wac.epd, ...). Default: the
    /// shared data folder beside the source checkout (../shared/data).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
}

/// The `--backend` values: the GPU backends only (there is nothing to test on the CPU).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GpuBackend {
    Cuda,
    Opencl,
}

impl From<GpuBackend> for BackendKind {
    fn from(b: GpuBackend) -> BackendKind {
        match b {
            GpuBackend::Cuda => BackendKind::Cuda,
            GpuBackend::Opencl => BackendKind::OpenCl,
        }
    }
}

/// What every check gets: the device under test, the suites and the options.
pub struct Selftest {
    pub device: DeviceInfo,
    pub suites: Vec<Suite>,
    pub max_nodes: u64,
}

/// One EPD file, read and parsed.
pub struct Suite {
    pub name: &'static str,
    pub entries: Vec<Epd>,
}

impl Selftest {
    fn suite(&self, name: &str) -> Result<&Suite> {
        self.suites
            .iter()
            .find(|s| s.name == name)
            .with_context(|| format!("suite {name} not loaded"))
    }

    /// A fresh handle on the device under test (each check builds its own kernels on it).
    fn open_device(&self) -> Result<Device> {
        Device::open(&self.device).with_context(|| format!("cannot open {}", self.device.name))
    }
}

/// A group of checks: runs them, reporting each group through `report`. An error ends the
/// check; it counts as one failure.
pub type Check = fn(&Selftest, &mut Report) -> Result<()>;

/// Every group of checks, in the order they run.
pub const CHECKS: [(&str, Check); 3] = [
    ("movegen", check_movegen),
    ("eval", check_eval),
    ("search", check_search),
];

/// Depth of the searches of the `search` check: mates in three (five plies) with room to spare.
const SEARCH_DEPTH: u32 = 7;

/// WAC positions the GPU searches besides those with a mate: the first this many.
const SEARCH_POSITIONS: usize = 30;

/// How many times the GPU searches a mate position (from a cleared table) before a miss fails.
const MATE_SEARCHES: u32 = 3;

pub fn run(args: &SelftestArgs) -> Result<ExitCode> {
    let data = match &args.data {
        Some(dir) => dir.clone(),
        None => testdata::path(""),
    };
    if !data.is_dir() {
        bail!(
            "test data folder {} not found (pass --data DIR, the folder holding {})",
            data.display(),
            EVAL_SUITES.join(", ")
        );
    }
    let suites = EVAL_SUITES
        .iter()
        .map(|name| read_suite(&data, name))
        .collect::<Result<Vec<_>>>()?;

    let list = list_devices();
    let device = choose(&list, args.backend.map(BackendKind::from), args.device)
        .context("selftest needs a CUDA or OpenCL device")?;

    let selftest = Selftest {
        device,
        suites,
        max_nodes: args.max_nodes,
    };
    let mut report = Report::new(io::stdout().lock());
    report.line(&format!(
        "selftest on {} {}: {} (max nodes {})",
        selftest.device.backend, selftest.device.index, selftest.device.name, args.max_nodes
    ))?;
    for (name, check) in CHECKS {
        if let Err(e) = check(&selftest, &mut report) {
            report.abort(name, &format!("{e:#}"))?;
        }
    }
    report.total()
}

/// Reads and parses `dir/name`; a missing file or a bad line is bad input.
fn read_suite(dir: &Path, name: &'static str) -> Result<Suite> {
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let entries = parse_file(&text)
        .into_iter()
        .map(|(line, parsed)| parsed.with_context(|| format!("{}:{line}", path.display())))
        .collect::<Result<Vec<_>>>()?;
    Ok(Suite { name, entries })
}

// ---- Reporting ----------------------------------------------------------------------------------

/// Collects the results group by group and prints each group's line as it finishes, so that a
/// long run shows its progress.
pub struct Report {
    out: io::StdoutLock<'static>,
    passed: u64,
    failed: u64,
    open: Option<Group>,
}

struct Group {
    check: &'static str,
    name: String,
    passed: u64,
    failed: u64,
    failures: Vec<String>,
    notes: Vec<String>,
    started: Instant,
}

impl Report {
    fn new(out: io::StdoutLock<'static>) -> Report {
        Report {
            out,
            passed: 0,
            failed: 0,
            open: None,
        }
    }

    fn line(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.out, "{text}")?;
        self.out.flush()
    }

    /// Starts the group `name` of check `check` (ending any group still open).
    pub fn start(&mut self, check: &'static str, name: &str) -> io::Result<()> {
        self.finish()?;
        self.open = Some(Group {
            check,
            name: name.to_string(),
            passed: 0,
            failed: 0,
            failures: Vec::new(),
            notes: Vec::new(),
            started: Instant::now(),
        });
        Ok(())
    }

    pub fn pass(&mut self) {
        if let Some(g) = &mut self.open {
            g.passed += 1;
        }
    }

    /// One failure; `detail` (FEN, expected, got) is shown for the first few of a group.
    pub fn fail(&mut self, detail: String) {
        if let Some(g) = &mut self.open {
            g.failed += 1;
            if g.failures.len() < SHOWN_FAILURES {
                g.failures.push(detail);
            }
        }
    }

    /// A check that passed, but not at once (shown under the group's line, as failures are).
    pub fn note(&mut self, detail: String) {
        if let Some(g) = &mut self.open {
            g.notes.push(detail);
        }
    }

    /// Prints the open group's line, its notes and first failures, and adds it to the total.
    pub fn finish(&mut self) -> io::Result<()> {
        let Some(g) = self.open.take() else {
            return Ok(());
        };
        self.passed += g.passed;
        self.failed += g.failed;
        writeln!(
            self.out,
            "{:<8} {:<20} {} passed, {} failed ({:.1} s)",
            g.check,
            g.name,
            g.passed,
            g.failed,
            g.started.elapsed().as_secs_f64()
        )?;
        for note in &g.notes {
            writeln!(self.out, "  note {note}")?;
        }
        for detail in &g.failures {
            for (i, line) in detail.lines().enumerate() {
                let lead = if i == 0 { "  FAIL " } else { "       " };
                writeln!(self.out, "{lead}{line}")?;
            }
        }
        if g.failed as usize > g.failures.len() {
            writeln!(
                self.out,
                "  ... and {} more",
                g.failed as usize - g.failures.len()
            )?;
        }
        self.out.flush()
    }

    /// A check that could not go on: the error is a failure of the group it was in (or of a
    /// group of its own).
    fn abort(&mut self, check: &'static str, error: &str) -> io::Result<()> {
        if self.open.is_none() {
            self.start(check, "error")?;
        }
        self.fail(format!("error: {error}"));
        self.finish()
    }

    /// The total line; the exit status.
    fn total(mut self) -> Result<ExitCode> {
        self.finish()?;
        let (passed, failed) = (self.passed, self.failed);
        self.line(&format!("{passed} passed, {failed} failed"))?;
        Ok(if failed == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        })
    }
}

// ---- movegen: GPU perft against the suites' counts ------------------------------------------------

fn check_movegen(t: &Selftest, report: &mut Report) -> Result<()> {
    let device = t.open_device()?;
    let defaults = PerftOptions::for_device(&device);
    // Ply buffers sized to the counts asked for, not to the device: the defaults allocate (and
    // clear) a quarter of the device's memory, seconds of work that small counts never use.
    // Plies that do not fit are split into chunks.
    let positions_per_ply =
        (t.max_nodes / 16).clamp(1 << 12, defaults.positions_per_ply as u64) as usize;
    let options = PerftOptions {
        positions_per_ply,
        ..defaults
    };
    let mut gpu = GpuPerft::new(device, options).context("cannot build the perft kernels")?;
    for name in PERFT_SUITES {
        let suite = t.suite(name)?;
        report.start("movegen", name)?;
        let bar = progress_bar(suite.entries.len() as u64);
        for epd in &suite.entries {
            if let Some(bar) = &bar {
                bar.inc(1);
            }
            let Some((depth, expected)) = deepest_count(epd, t.max_nodes) else {
                continue;
            };
            let got = gpu
                .perft(&epd.board, depth)
                .with_context(|| format!("GPU perft of {} depth {depth}", epd.board.to_fen()))?;
            if got == expected {
                report.pass();
            } else {
                report.fail(format!(
                    "{} depth {depth}: expected {expected}, got {got}",
                    epd.board.to_fen()
                ));
            }
        }
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        report.finish()?;
    }
    Ok(())
}

/// The deepest `;Dn count` of `epd` with a count of at most `max_nodes`.
fn deepest_count(epd: &Epd, max_nodes: u64) -> Option<(u32, u64)> {
    epd.perft_counts()
        .into_iter()
        .filter(|&(_, count)| count <= max_nodes)
        .max_by_key(|&(depth, _)| depth)
}

// ---- eval: the GPU evaluation against the CPU's ---------------------------------------------------

fn check_eval(t: &Selftest, report: &mut Report) -> Result<()> {
    let device = t.open_device()?;
    let mut gpu = GpuEvaluator::new(device).context("cannot build the evaluation kernel")?;
    for name in EVAL_SUITES {
        let boards: Vec<Board> = t.suite(name)?.entries.iter().map(|e| e.board).collect();
        compare_eval(&mut gpu, report, name, &boards)?;
    }
    let starts: Vec<Board> = PERFT_SUITES
        .iter()
        .map(|name| t.suite(name))
        .collect::<Result<Vec<_>>>()?
        .into_iter()
        .flat_map(|s| s.entries.iter().map(|e| e.board))
        .collect();
    let boards = playouts(&starts, &PlayoutOptions::CHECK);
    compare_eval(&mut gpu, report, "random playouts", &boards)
}

// ---- search: the GPU search, legal and finding the mates the CPU finds --------------------------

fn check_search(t: &Selftest, report: &mut Report) -> Result<()> {
    let device = t.open_device()?;
    let mut options = GpuSearchOptions::for_device(&t.device);
    options.hash_mb = 64;
    let mut gpu =
        GpuSearch::with_device(device, options).context("cannot build the search kernel")?;
    let mut cpu = CpuSearch::new(16, 1);
    let positions: Vec<Board> = t
        .suite("wac.epd")?
        .entries
        .iter()
        .map(|e| e.board)
        .collect();
    let limits = Limits::depth(SEARCH_DEPTH);
    // The CPU (fast) finds the positions with a short forced mate; the GPU searches those and
    // the first SEARCH_POSITIONS others.
    let mut mates = Vec::new();
    let mut chosen = Vec::new();
    for (i, board) in positions.iter().enumerate() {
        cpu.clear();
        let reference = cpu.search(
            &GamePosition::new(*board),
            &limits,
            &SearchControl::new(),
            &(),
        );
        let mate = reference.value >= MATE - 5;
        if mate || i < SEARCH_POSITIONS {
            chosen.push((*board, mate.then_some(reference.value)));
        }
    }
    report.start(
        "search",
        &format!("wac.epd depth {SEARCH_DEPTH}, legal best moves"),
    )?;
    let bar = progress_bar(chosen.len() as u64);
    for (board, cpu_mate) in &chosen {
        if let Some(bar) = &bar {
            bar.inc(1);
        }
        let legal: Vec<Move> = board.legal_moves().iter().copied().collect();
        let got = search_cleared(&mut gpu, board, &limits)?;
        let best_legal = got.best.is_some_and(|m| legal.contains(&m));
        if best_legal && got.depth >= SEARCH_DEPTH {
            report.pass();
        } else {
            report.fail(format!(
                "{}: best move {:?} at depth {} (legal: {best_legal})",
                board.to_fen(),
                got.best,
                got.depth
            ));
        }
        if let Some(cpu_value) = cpu_mate {
            mates.push((*board, *cpu_value, got.value));
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    report.finish()?;
    report.start("search", "mates in 1-3 the CPU proves")?;
    for (board, cpu_value, first_value) in mates {
        // A helper may end an iteration (`GPU Finisher clean`, `any`) having pruned the mate where
        // worker 0 would not have (about 2 of 4,000 searches of one position with 264 workers on
        // the H200 under `any`, forty-sixth session): a miss is searched again, and only misses
        // every time fail.
        let (gpu_value, searches) = search_until(cpu_value, first_value, || {
            Ok(search_cleared(&mut gpu, &board, &limits)?.value)
        })?;
        if cpu_value == gpu_value {
            if searches > 1 {
                report.note(format!(
                    "{}: mate in {} proved by search {searches} of {MATE_SEARCHES} (the first scored {})",
                    board.to_fen(),
                    (MATE - cpu_value + 1) / 2,
                    DisplayValue::from_value(first_value).uci()
                ));
            }
            report.pass();
        } else {
            report.fail(format!(
                "{}: the CPU proves mate in {}, the GPU scores {}",
                board.to_fen(),
                (MATE - cpu_value + 1) / 2,
                DisplayValue::from_value(gpu_value).uci()
            ));
        }
    }
    report.finish()?;
    check_root_moves(&mut gpu, &chosen, report)
}

/// Searches again (`again`) while the value is not `want`, up to [`MATE_SEARCHES`] searches in
/// all counting the `first`: the last value and how many searches it took.
fn search_until(
    want: Value,
    first: Value,
    mut again: impl FnMut() -> Result<Value>,
) -> Result<(Value, u32)> {
    let mut value = first;
    let mut searches = 1;
    while value != want && searches < MATE_SEARCHES {
        value = again()?;
        searches += 1;
    }
    Ok((value, searches))
}

/// One GPU search of `board` to `limits`, from a cleared table, as `go` would run it.
fn search_cleared(
    gpu: &mut GpuSearch,
    board: &Board,
    limits: &Limits,
) -> Result<kogge_search::SearchResult> {
    let legal: Vec<Move> = board.legal_moves().iter().copied().collect();
    gpu.clear().context("clearing the GPU table")?;
    iterative_deepening(
        gpu,
        &GamePosition::new(*board),
        limits,
        &SearchControl::new(),
        &(),
        &legal,
        Instant::now(),
        ClockOptions::UNTIMED,
        1,
    )
    .with_context(|| format!("GPU search of {}", board.to_fen()))
}

/// Positions of the root-moves check: the first this many of the search check's.
const ROOT_MOVE_POSITIONS: usize = 10;
/// Its depth and lines.
const ROOT_MOVE_DEPTH: u32 = 5;
const ROOT_MOVE_LINES: usize = 3;

/// `go searchmoves` and MultiPV on the GPU: with the later half of a position's legal moves named
/// and three lines asked for, every line of the last set reported plays a named move, no two the
/// same, best first, at the depth asked or deeper, and the move played is the first line's.
///
/// The last set, not every line reported at the depth asked: a helper searching ahead may end a
/// line's iteration a ply deeper, so one set can report line 2 at depth 5 while line 1 is still at
/// depth 4, and the next set reports all three at depth 5 again (an NVIDIA OpenCL selftest in the
/// thirty-eighth session counted four lines at depth 5 for it). The last set was short of the depth
/// once line 1 alone reached it that way (5 of 40 CUDA selftests on the H200): the host now
/// deepens until the set's shallowest line is at the depth asked (`set_depth` in the GPU backend).
fn check_root_moves(
    gpu: &mut GpuSearch,
    chosen: &[(Board, Option<Value>)],
    report: &mut Report,
) -> Result<()> {
    report.start(
        "search",
        &format!("searchmoves, MultiPV {ROOT_MOVE_LINES}, depth {ROOT_MOVE_DEPTH}"),
    )?;
    for (board, _) in chosen.iter().take(ROOT_MOVE_POSITIONS) {
        let legal: Vec<Move> = board.legal_moves().iter().copied().collect();
        let named: Vec<Move> = legal[legal.len() / 2..].to_vec();
        let mut limits = Limits::depth(ROOT_MOVE_DEPTH);
        limits.searchmoves = named.clone();
        let lines = Mutex::new(Vec::new());
        let sink = |r: kogge_search::Report| {
            if let kogge_search::Report::Pv(info) = r
                && info.bound == Bound::Exact
            {
                lines.lock().unwrap_or_else(|e| e.into_inner()).push(info);
            }
        };
        gpu.clear().context("clearing the GPU table")?;
        let got = iterative_deepening(
            gpu,
            &GamePosition::new(*board),
            &limits,
            &SearchControl::new(),
            &sink,
            &legal,
            Instant::now(),
            ClockOptions::UNTIMED,
            ROOT_MOVE_LINES,
        )
        .with_context(|| format!("GPU search of {}", board.to_fen()))?;
        let lines = last_line_set(lines.into_inner().unwrap_or_else(|e| e.into_inner()));
        let firsts: Vec<Move> = lines.iter().filter_map(|l| l.pv.first().copied()).collect();
        let wanted = ROOT_MOVE_LINES.min(named.len());
        let indices_ok = lines
            .iter()
            .enumerate()
            .all(|(i, l)| l.multipv as usize == i + 1);
        let distinct = firsts
            .iter()
            .enumerate()
            .all(|(i, m)| !firsts[..i].contains(m));
        let best_first = lines.windows(2).all(|w| w[0].value >= w[1].value);
        if lines.len() == wanted
            && lines.iter().all(|l| l.depth >= ROOT_MOVE_DEPTH)
            && indices_ok
            && distinct
            && best_first
            && firsts.iter().all(|m| named.contains(m))
            && got.best == firsts.first().copied()
        {
            report.pass();
        } else {
            let shown: Vec<String> = lines
                .iter()
                .map(|l| {
                    format!(
                        "{} depth {} {} {:?}",
                        l.multipv,
                        l.depth,
                        l.value,
                        l.pv.first()
                    )
                })
                .collect();
            report.fail(format!(
                "{}: named {} moves, lines {shown:?}, played {:?}",
                board.to_fen(),
                named.len(),
                got.best
            ));
        }
    }
    report.finish()?;
    Ok(())
}

/// The last set of MultiPV lines among the exact lines a search reported, in order: each set
/// starts with its line 1.
fn last_line_set(mut lines: Vec<kogge_search::Info>) -> Vec<kogge_search::Info> {
    let start = lines.iter().rposition(|l| l.multipv == 1).unwrap_or(0);
    lines.split_off(start)
}

fn compare_eval(
    gpu: &mut GpuEvaluator,
    report: &mut Report,
    name: &str,
    boards: &[Board],
) -> Result<()> {
    report.start("eval", name)?;
    let mismatches =
        compare_with_cpu(gpu, boards).with_context(|| format!("GPU evaluation of {name}"))?;
    for _ in mismatches.len()..boards.len() {
        report.pass();
    }
    for m in mismatches {
        report.fail(m.to_string());
    }
    report.finish()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_missed_mate_is_searched_again_and_fails_only_when_every_search_misses() {
        let mate = MATE - 3;
        let values = |v: Vec<Value>| {
            let mut it = v.into_iter();
            move || Ok(it.next().expect("no more searches than MATE_SEARCHES"))
        };
        // Proved at once: no second search.
        assert_eq!(search_until(mate, mate, values(vec![])).unwrap(), (mate, 1));
        // Missed once, proved by the second search.
        assert_eq!(
            search_until(mate, 120, values(vec![mate])).unwrap(),
            (mate, 2)
        );
        // Missed by all of them: the last value, after MATE_SEARCHES searches.
        assert_eq!(
            search_until(mate, 120, values(vec![80, 95])).unwrap(),
            (95, MATE_SEARCHES)
        );
        // A search's error is the check's.
        assert!(search_until(mate, 0, || bail!("kernel failed")).is_err());
    }

    fn line(multipv: u32, depth: u32, value: Value) -> kogge_search::Info {
        kogge_search::Info {
            depth,
            seldepth: depth,
            multipv,
            value,
            bound: Bound::Exact,
            nodes: 0,
            time: Duration::ZERO,
            hashfull: 0,
            pv: Vec::new(),
        }
    }

    #[test]
    fn the_root_moves_check_takes_the_last_set_of_lines() {
        // The thirty-eighth session's OpenCL selftest: depth 4's set reported line 2 at depth 5
        // (a helper searching ahead ended it there), then depth 5's set all three.
        let reported = vec![
            line(1, 4, 120),
            line(2, 5, 96),
            line(3, 4, 60),
            line(1, 5, 31997),
            line(2, 5, 83),
            line(3, 5, 71),
        ];
        let last: Vec<(u32, u32, Value)> = last_line_set(reported)
            .iter()
            .map(|l| (l.multipv, l.depth, l.value))
            .collect();
        assert_eq!(last, vec![(1, 5, 31997), (2, 5, 83), (3, 5, 71)]);
        assert!(last_line_set(Vec::new()).is_empty());
    }
}
