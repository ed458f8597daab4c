//! `kogge epd`: a strength test. Searches every position of an EPD file (WAC, a tactics suite)
//! and checks the move played against the position's `bm` (best moves: any of them passes) and
//! `am` (moves to avoid: none of them may be played).
//!
//! One line per position on stdout as it finishes, then the totals; the last line is always
//! `N passed, N failed` (with `, N skipped` added only when some positions had nothing to
//! check or could not be read). Failing positions are the point of the test, not an error, so
//! the exit status is 0 unless `--min-pass` asks for a threshold.

use crate::engine_backend::{EngineBackend, EngineSettings};
use crate::perft_cmd::progress_bar;
use crate::san_line::numbered_san;
use crate::search_setup::{SearchArgs, parse_movetime};
use anyhow::{Context, Result};
use clap::Args;
use kogge_chess::epd::{self, Epd};
use kogge_chess::{Board, Move};
use kogge_search::{DisplayValue, GamePosition, SearchBackend, SearchControl, SearchResult};
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Thinking time per position when neither `--movetime` nor `--depth` is given.
const DEFAULT_MOVETIME_MS: u64 = 1000;

#[derive(Args, Debug)]
pub struct EpdArgs {
    /// The EPD file: one position per line with `bm` and/or `am` operations (and `id`).
    pub file: PathBuf,

    /// Think this many milliseconds per position [default: 1000, or no time limit when --depth
    /// or --nodes is given].
    #[arg(long, value_name = "MS", value_parser = parse_movetime)]
    pub movetime: Option<u64>,

    /// Depth, nodes, threads and table (cleared before every position).
    #[command(flatten)]
    pub search: SearchArgs,

    /// Exit with status 1 when fewer than this many positions pass.
    #[arg(long, value_name = "N")]
    pub min_pass: Option<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Passed,
    Failed,
    /// Nothing to check: no `bm` or `am`, an operand that is no legal move, or an unreadable line.
    Skipped,
}

impl Verdict {
    fn word(self) -> &'static str {
        match self {
            Verdict::Passed => "pass",
            Verdict::Failed => "FAIL",
            Verdict::Skipped => "skip",
        }
    }
}

/// The `bm` and `am` moves of one position, checked against its legal moves.
#[derive(Debug)]
struct Expected {
    best: Vec<Move>,
    avoid: Vec<Move>,
    /// As the file writes them: `bm Qg6 Rf3 am Kd1`.
    text: String,
}

impl Expected {
    /// The moves the position asks for, or why it cannot be checked.
    fn of(epd: &Epd) -> Result<Expected, String> {
        let (best_text, avoid_text) = (epd.best_moves(), epd.avoid_moves());
        if best_text.is_empty() && avoid_text.is_empty() {
            return Err("no bm or am".to_string());
        }
        let parse = |texts: &[&str], opcode: &str| -> Result<Vec<Move>, String> {
            texts
                .iter()
                .map(|t| {
                    epd.board
                        .parse_san(t)
                        .map_err(|e| format!("{opcode} '{t}': {e}"))
                })
                .collect()
        };
        let mut text = Vec::new();
        if !best_text.is_empty() {
            text.push(format!("bm {}", best_text.join(" ")));
        }
        if !avoid_text.is_empty() {
            text.push(format!("am {}", avoid_text.join(" ")));
        }
        Ok(Expected {
            best: parse(&best_text, "bm")?,
            avoid: parse(&avoid_text, "am")?,
            text: text.join(" "),
        })
    }

    /// Whether `mv` is one of the best moves (if any are given) and none of the moves to avoid.
    fn accepts(&self, mv: Option<Move>) -> bool {
        let Some(mv) = mv else {
            return false;
        };
        (self.best.is_empty() || self.best.contains(&mv)) && !self.avoid.contains(&mv)
    }
}

pub fn run(args: &EpdArgs, engine: EngineSettings) -> Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read EPD file '{}'", args.file.display()))?;
    let entries = epd::parse_file(&text);
    let limits = args.search.limits(args.movetime, DEFAULT_MOVETIME_MS);
    let mut search = args.search.engine_search(engine, 1);
    // stderr: stdout keeps one line a position and the closing counts, for scripts.
    eprintln!("search: {}", search.name());
    let bar = progress_bar(entries.len() as u64);
    let mut out = io::stdout().lock();
    let (mut passed, mut failed, mut skipped) = (0usize, 0usize, 0usize);
    let mut nodes = 0u64;
    let start = Instant::now();
    for (line, parsed) in entries {
        let (verdict, text) = match parsed {
            Err(e) => (
                Verdict::Skipped,
                format!(
                    "line {line:<7} {}  cannot parse: {e}",
                    Verdict::Skipped.word()
                ),
            ),
            Ok(epd) => {
                let label = epd
                    .id()
                    .map_or_else(|| format!("line {line}"), str::to_string);
                if let Some(bar) = &bar {
                    bar.set_message(label.clone());
                }
                check_position(&epd, &label, &limits, &mut search, &mut nodes)
            }
        };
        match verdict {
            Verdict::Passed => passed += 1,
            Verdict::Failed => failed += 1,
            Verdict::Skipped => skipped += 1,
        }
        // Line by line as the searches finish, so that a long run shows where it is even when
        // piped to a file.
        match &bar {
            Some(bar) => bar.suspend(|| writeln!(out, "{text}"))?,
            None => writeln!(out, "{text}")?,
        }
        out.flush()?;
        if let Some(bar) = &bar {
            bar.inc(1);
        }
    }
    let elapsed = start.elapsed();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let secs = elapsed.as_secs_f64();
    let nps = if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    };
    writeln!(
        out,
        "nodes {nodes} time_ms {} nps {nps}",
        elapsed.as_millis()
    )?;
    // The closing line that scripts read; skips are named only when there are any.
    if skipped > 0 {
        writeln!(out, "{passed} passed, {failed} failed, {skipped} skipped")?;
    } else {
        writeln!(out, "{passed} passed, {failed} failed")?;
    }
    out.flush()?;
    Ok(match args.min_pass {
        Some(min) if passed < min => ExitCode::FAILURE,
        _ => ExitCode::SUCCESS,
    })
}

/// Searches one position and judges the move, adding the nodes searched to `nodes`. Returns the
/// verdict and the line to print:
/// `WAC.001      pass  Qg6       bm Qg6             depth 14  #2  1. Qg6 …`.
fn check_position(
    epd: &Epd,
    label: &str,
    limits: &kogge_search::Limits,
    search: &mut EngineBackend,
    nodes: &mut u64,
) -> (Verdict, String) {
    let expected = match Expected::of(epd) {
        Ok(expected) => expected,
        Err(why) => {
            let word = Verdict::Skipped.word();
            return (Verdict::Skipped, format!("{label:<12} {word}  {why}"));
        }
    };
    // Each position on its own: what an earlier position left in the table or the histories
    // must not help or hinder this one.
    search.clear();
    let control = SearchControl::new();
    let result: SearchResult = search.search(&GamePosition::new(epd.board), limits, &control, &());
    *nodes += result.nodes;
    let verdict = if expected.accepts(result.best) {
        Verdict::Passed
    } else {
        Verdict::Failed
    };
    let played = result
        .best
        .map_or_else(|| "(none)".to_string(), |mv| epd.board.to_san(mv));
    let line = format!(
        "{label:<12} {}  {played:<8} {:<18} depth {:<3} {:>7}  {}",
        verdict.word(),
        expected.text,
        result.depth,
        DisplayValue::from_value(result.value).human(),
        principal_line(&epd.board, &result),
    );
    (verdict, line.trim_end().to_string())
}

/// The move played and the expected reply, numbered: what a reader needs to see why a position
/// failed.
fn principal_line(board: &Board, result: &SearchResult) -> String {
    let line: Vec<Move> = result.best.into_iter().chain(result.ponder).collect();
    numbered_san(board, &line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_and_avoid_moves() {
        let epd = Epd::parse("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; am Kf1; id \"t\";")
            .expect("an EPD line");
        let expected = Expected::of(&epd).expect("moves to check");
        assert_eq!(expected.text, "bm Rd8# am Kf1");
        let mv = |uci: &str| Some(epd.board.parse_uci(uci).expect("a legal move"));
        assert!(expected.accepts(mv("d1d8")));
        assert!(!expected.accepts(mv("g1f1")));
        assert!(!expected.accepts(mv("h2h3")));
        assert!(!expected.accepts(None));
    }

    #[test]
    fn nothing_to_check_or_a_bad_move_is_a_skip() {
        let none = Epd::parse("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - id \"x\";").expect("EPD");
        assert!(Expected::of(&none).is_err());
        let bad = Epd::parse("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Qd8;").expect("EPD");
        assert!(Expected::of(&bad).unwrap_err().contains("Qd8"));
    }
}
