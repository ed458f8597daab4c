//! `kogge perft`: counts the leaves of the legal move tree of one position (optionally split by
//! root move), or checks every `;Dn count` of the positions in an EPD file.
//!
//! Results go to stdout, as text whose last line is always the summary (`nodes N time_ms T nps R`
//! for one position, `N passed, N failed` for a file), or as one JSON object. Progress bars go
//! to stderr, and only when it is a terminal, so that piped and CI output stays exactly the
//! results.

use crate::PerftArgs;
use crate::perft_backend::PerftRunner;
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use kogge_chess::epd::{self, Epd};
use kogge_chess::{Board, Move, sliders};
use serde_json::{Map, Value, json};
use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The deepest perft accepted, on the command line and in EPD files. Depth 20 already never
/// finishes; a larger number is a typo.
pub const MAX_DEPTH: u32 = 20;

/// `--max-nodes` when not given: every count of the standard perft suites up to depth 5 or so,
/// a few minutes for a whole suite on one core.
pub const DEFAULT_MAX_NODES: u64 = 10_000_000;

pub fn run(args: &PerftArgs) -> Result<ExitCode> {
    let threads = args.threads.unwrap_or_else(default_threads);
    let mut runner = PerftRunner::open(args.backend, args.device, threads, args.hash)?;
    if let Some(path) = &args.epd {
        let max_nodes = args.max_nodes.unwrap_or(DEFAULT_MAX_NODES);
        return run_epd(path, max_nodes, &mut runner, args.json);
    }
    // Clap guarantees a depth whenever there is no --epd.
    let depth = args.depth.context("a depth is required")?;
    run_position(
        args.fen.as_deref(),
        depth,
        args.divide,
        &mut runner,
        args.json,
    )
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

// ---- One position ------------------------------------------------------------------------------

fn run_position(
    fen: Option<&str>,
    depth: u32,
    divide: bool,
    runner: &mut PerftRunner,
    json: bool,
) -> Result<ExitCode> {
    let board = match fen {
        Some(fen) => Board::from_fen(fen).with_context(|| format!("invalid FEN '{fen}'"))?,
        None => Board::startpos(),
    };
    let bar = progress_bar(0);
    let start = Instant::now();
    let counted = count(&board, depth, runner, divide, bar.as_ref())?;
    let speed = Speed::new(counted.nodes, start.elapsed());
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }

    let mut out = io::stdout().lock();
    if json {
        let mut obj = Map::new();
        obj.insert("depth".into(), json!(depth));
        obj.insert("fen".into(), json!(board.to_fen()));
        speed.insert_into(&mut obj);
        obj.insert("backend".into(), json!(runner.describe()));
        obj.insert("sliders".into(), json!(sliders::preferred().name()));
        if divide {
            let moves = counted.moves.iter().map(|(mv, n)| (mv.clone(), json!(n)));
            obj.insert("divide".into(), Value::Object(moves.collect()));
        }
        serde_json::to_writer(&mut out, &Value::Object(obj))?;
        writeln!(out)?;
    } else {
        if divide {
            for (mv, n) in &counted.moves {
                writeln!(out, "{mv}: {n}")?;
            }
            writeln!(out)?;
        }
        writeln!(out, "{}", speed.line())?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

struct Counted {
    nodes: u64,
    /// Per root move, in UCI notation, sorted by the move's text; empty unless asked for.
    moves: Vec<(String, u64)>,
}

/// Runs perft. The root-move split runs when the caller wants the split or shows a progress bar
/// (its work items are what the bar counts); otherwise one plain count, which is also what the
/// benchmarks time.
fn count(
    board: &Board,
    depth: u32,
    runner: &mut PerftRunner,
    divide: bool,
    bar: Option<&ProgressBar>,
) -> Result<Counted> {
    if depth == 0 {
        // The position itself is the one leaf; the split has no root moves to report it under.
        return Ok(Counted {
            nodes: 1,
            moves: Vec::new(),
        });
    }
    if !divide && bar.is_none() {
        return Ok(Counted {
            nodes: runner.perft(board, depth)?,
            moves: Vec::new(),
        });
    }
    let progress = |done: usize, total: usize| {
        if let Some(bar) = bar {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        }
    };
    let split = runner.divide(board, depth, &progress)?;
    let nodes = split.iter().map(|(_, n)| n).sum();
    let mut moves: Vec<(String, u64)> = if divide {
        split.iter().map(|&(mv, n)| (uci(board, mv), n)).collect()
    } else {
        Vec::new()
    };
    // Sorted by text, so that the output of two engines can be diffed line by line.
    moves.sort();
    Ok(Counted { nodes, moves })
}

/// A root move in UCI notation: castling as the king's destination (e1g1) in standard chess, as
/// king takes rook (e1h1) where the castling rights are Chess960 ones, as GUIs expect each.
fn uci(board: &Board, mv: Move) -> String {
    board.to_uci(mv, board.has_chess960_castling())
}

/// Node count, wall time and speed of one run.
struct Speed {
    nodes: u64,
    time_ms: u64,
    nps: u64,
}

impl Speed {
    fn new(nodes: u64, elapsed: Duration) -> Speed {
        let secs = elapsed.as_secs_f64();
        Speed {
            nodes,
            time_ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
            // Below the clock's resolution there is no meaningful rate.
            nps: if secs > 0.0 {
                (nodes as f64 / secs) as u64
            } else {
                0
            },
        }
    }

    fn line(&self) -> String {
        format!(
            "nodes {} time_ms {} nps {}",
            self.nodes, self.time_ms, self.nps
        )
    }

    fn insert_into(&self, obj: &mut Map<String, Value>) {
        obj.insert("nodes".into(), json!(self.nodes));
        obj.insert("time_ms".into(), json!(self.time_ms));
        obj.insert("nps".into(), json!(self.nps));
    }
}

// ---- An EPD file -------------------------------------------------------------------------------

/// One `;Dn` count compared.
struct Check {
    depth: u32,
    expected: u64,
    got: Option<u64>,
}

impl Check {
    fn passed(&self) -> bool {
        self.got == Some(self.expected)
    }
}

/// What became of one non-blank line of the file.
enum Outcome {
    Checked { fen: String, checks: Vec<Check> },
    Unparsable(String),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Passed,
    Failed,
    /// Parsed, but no count was within --max-nodes: nothing was tested.
    Skipped,
}

struct Report {
    line: usize,
    outcome: Outcome,
}

impl Report {
    fn verdict(&self) -> Verdict {
        match &self.outcome {
            Outcome::Unparsable(_) => Verdict::Failed,
            Outcome::Checked { checks, .. } if checks.is_empty() => Verdict::Skipped,
            Outcome::Checked { checks, .. } if checks.iter().all(Check::passed) => Verdict::Passed,
            Outcome::Checked { .. } => Verdict::Failed,
        }
    }

    /// `line 12: <fen> depths 1,2,3: OK`, or FAIL followed by each wrong count.
    fn text(&self, max_nodes: u64) -> String {
        let line = self.line;
        match &self.outcome {
            Outcome::Unparsable(why) => format!("line {line}: FAIL cannot parse: {why}"),
            Outcome::Checked { fen, checks } if checks.is_empty() => {
                format!("line {line}: {fen} no count within {max_nodes} nodes: SKIPPED")
            }
            Outcome::Checked { fen, checks } => {
                let depths: Vec<String> = checks.iter().map(|c| c.depth.to_string()).collect();
                let mut text = format!("line {line}: {fen} depths {}: ", depths.join(","));
                let wrong: Vec<String> = checks
                    .iter()
                    .filter(|c| !c.passed())
                    .map(|c| match c.got {
                        Some(got) => format!("D{} expected {} got {got}", c.depth, c.expected),
                        None => format!(
                            "D{} expected {} not counted (depth above {MAX_DEPTH})",
                            c.depth, c.expected
                        ),
                    })
                    .collect();
                if wrong.is_empty() {
                    text.push_str("OK");
                } else {
                    text.push_str("FAIL ");
                    text.push_str(&wrong.join(", "));
                }
                text
            }
        }
    }

    fn json(&self) -> Value {
        let verdict = match self.verdict() {
            Verdict::Passed => "ok",
            Verdict::Failed => "fail",
            Verdict::Skipped => "skipped",
        };
        match &self.outcome {
            Outcome::Unparsable(why) => json!({"line": self.line, "result": verdict, "error": why}),
            Outcome::Checked { fen, checks } => {
                let checks: Vec<Value> = checks
                    .iter()
                    .map(|c| json!({"depth": c.depth, "expected": c.expected, "got": c.got}))
                    .collect();
                json!({"line": self.line, "result": verdict, "fen": fen, "checks": checks})
            }
        }
    }
}

fn run_epd(path: &Path, max_nodes: u64, runner: &mut PerftRunner, json: bool) -> Result<ExitCode> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read EPD file '{}'", path.display()))?;
    let entries = epd::parse_file(&text);
    let bar = progress_bar(entries.len() as u64);
    let mut out = io::stdout().lock();
    let mut reports = Vec::new();
    let mut nodes = 0;
    let start = Instant::now();
    for (line, parsed) in entries {
        if let Some(bar) = &bar {
            bar.set_message(format!("line {line}"));
        }
        let outcome = match parsed {
            Ok(epd) => check_position(&epd, max_nodes, runner, &mut nodes)?,
            Err(e) => Outcome::Unparsable(e.to_string()),
        };
        let report = Report { line, outcome };
        if !json {
            // Line by line as the checks finish, so a long run shows where it is even when piped.
            let text = report.text(max_nodes);
            match &bar {
                Some(bar) => bar.suspend(|| writeln!(out, "{text}"))?,
                None => writeln!(out, "{text}")?,
            }
        }
        reports.push(report);
        if let Some(bar) = &bar {
            bar.inc(1);
        }
    }
    let speed = Speed::new(nodes, start.elapsed());
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }

    let tally = |v: Verdict| reports.iter().filter(|r| r.verdict() == v).count();
    let (passed, failed, skipped) = (
        tally(Verdict::Passed),
        tally(Verdict::Failed),
        tally(Verdict::Skipped),
    );
    if json {
        let mut obj = Map::new();
        obj.insert("file".into(), json!(path.display().to_string()));
        obj.insert("max_nodes".into(), json!(max_nodes));
        obj.insert(
            "positions".into(),
            Value::Array(reports.iter().map(Report::json).collect()),
        );
        obj.insert("passed".into(), json!(passed));
        obj.insert("failed".into(), json!(failed));
        obj.insert("skipped".into(), json!(skipped));
        speed.insert_into(&mut obj);
        obj.insert("backend".into(), json!(runner.describe()));
        obj.insert("sliders".into(), json!(sliders::preferred().name()));
        serde_json::to_writer(&mut out, &Value::Object(obj))?;
        writeln!(out)?;
    } else {
        writeln!(out, "{}", speed.line())?;
        // The plain closing line that test harnesses read; skips are named only when there are
        // any, so a clean run ends in exactly "N passed, N failed".
        if skipped > 0 {
            writeln!(out, "{passed} passed, {failed} failed, {skipped} skipped")?;
        } else {
            writeln!(out, "{passed} passed, {failed} failed")?;
        }
    }
    out.flush()?;
    Ok(if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Counts every depth of `epd` whose expected count is within `max_nodes`, adding the nodes
/// searched to `nodes`.
fn check_position(
    epd: &Epd,
    max_nodes: u64,
    runner: &mut PerftRunner,
    nodes: &mut u64,
) -> Result<Outcome> {
    let mut checks = Vec::new();
    for (depth, expected) in epd.perft_counts() {
        if expected > max_nodes {
            continue;
        }
        if depth > MAX_DEPTH {
            checks.push(Check {
                depth,
                expected,
                got: None,
            });
            continue;
        }
        let got = runner.perft(&epd.board, depth)?;
        *nodes += got;
        checks.push(Check {
            depth,
            expected,
            got: Some(got),
        });
        // A wrong small count must not lure us into ever deeper searches: once a count is past
        // the limit, the deeper ones (sorted by depth) are too, and this one already failed.
        if got > max_nodes {
            break;
        }
    }
    Ok(Outcome::Checked {
        fen: epd.board.to_fen(),
        checks,
    })
}

// ---- Progress ----------------------------------------------------------------------------------

/// A progress bar on stderr, only when stderr is a terminal: redirected runs and CI logs get
/// nothing but results.
pub(crate) fn progress_bar(len: u64) -> Option<ProgressBar> {
    if !io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(len);
    let style = ProgressStyle::with_template(
        "{spinner} {elapsed_precise} [{wide_bar}] {pos}/{len} {msg} eta {eta}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    Some(bar)
}
