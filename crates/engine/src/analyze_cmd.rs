//! `kogge analyze`: searches one position and shows the search as it deepens, for people rather
//! than GUIs: a diagram, the search used (the CPU's unless `kogge --backend cuda|opencl`), then
//! one line per completed iteration with the score in pawns and the principal variation in SAN,
//! then the best move and the expected reply.

use crate::diagram::diagram;
use crate::engine_backend::EngineSettings;
use crate::san_line::{numbered_san, san_and_uci};
use crate::search_setup::{SearchArgs, parse_movetime};
use anyhow::{Context, Result};
use clap::Args;
use kogge_chess::Board;
use kogge_search::{
    Bound, DisplayValue, GamePosition, Info, Report, SearchBackend, SearchControl, nodes_per_second,
};
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Thinking time when neither `--movetime` nor `--depth` is given: long enough for a useful
/// depth, short enough not to feel stuck.
const DEFAULT_MOVETIME_MS: u64 = 3000;

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// The position, as FEN. Default: the start position.
    #[arg(long)]
    pub fen: Option<String>,

    /// Think this many milliseconds [default: 3000, or no time limit when --depth or --nodes is
    /// given].
    #[arg(long, value_name = "MS", value_parser = parse_movetime)]
    pub movetime: Option<u64>,

    #[command(flatten)]
    pub search: SearchArgs,

    /// Show this many best lines instead of one.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub multipv: u32,
}

pub fn run(args: &AnalyzeArgs, engine: EngineSettings) -> Result<ExitCode> {
    let board = match &args.fen {
        Some(fen) => Board::from_fen(fen).with_context(|| format!("invalid FEN '{fen}'"))?,
        None => Board::startpos(),
    };
    let mut out = io::stdout().lock();
    write!(out, "{}", diagram(&board))?;
    writeln!(out)?;
    writeln!(out, "FEN: {}", board.to_fen())?;
    writeln!(out)?;

    if board.legal_moves().is_empty() {
        let why = if board.in_check() {
            "checkmate"
        } else {
            "stalemate"
        };
        writeln!(out, "No legal move: {why}.")?;
        return Ok(ExitCode::SUCCESS);
    }

    let multipv = args.multipv as usize;
    let limits = args.search.limits(args.movetime, DEFAULT_MOVETIME_MS);
    out.flush()?;
    let mut search = args.search.engine_search(engine, multipv);
    writeln!(out, "Search: {}", search.name())?;
    writeln!(out)?;
    let control = SearchControl::new();
    writeln!(out, "{}", header(multipv > 1))?;
    out.flush()?;
    // The search reports from its own thread while this one waits in `search`; the lock is
    // released so that the sink can take it.
    drop(out);

    let sink = move |report: Report| {
        // Aspiration failures (bounds) would show a score that is about to change; people want
        // the settled line of each iteration.
        match report {
            Report::Pv(info) if info.bound == Bound::Exact => {
                let line = iteration_line(&board, &info, multipv > 1);
                // A reader that went away is noticed when the final lines are written.
                let mut out = io::stdout().lock();
                let _ = writeln!(out, "{line}");
                let _ = out.flush();
            }
            // Why a GPU search is not used, or stopped being used: on stderr, out of the table.
            Report::Message(text) => eprintln!("note: {text}"),
            _ => {}
        }
    };
    let started = Instant::now();
    let result = search.search(&GamePosition::new(board), &limits, &control, &sink);
    let took = started.elapsed();

    let mut out = io::stdout().lock();
    writeln!(out)?;
    match result.best {
        Some(best) => {
            writeln!(out, "Best move: {}", san_and_uci(&board, best))?;
            let mut after = board;
            after.play(best);
            match result.ponder.filter(|&m| after.is_legal(m)) {
                Some(ponder) => writeln!(out, "Ponder:    {}", san_and_uci(&after, ponder))?,
                None => writeln!(out, "Ponder:    (none)")?,
            }
        }
        // Only a position without legal moves has no best move, and that was handled above.
        None => writeln!(out, "Best move: (none)")?,
    }
    writeln!(out, "{}", searched_line(result.nodes, took))?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The column titles over the iteration lines.
fn header(multipv: bool) -> String {
    let line = if multipv { "line " } else { "" };
    format!(
        "{line}{:>7}  {:>7}  {:>11}  {:>7}  {:>8}  pv",
        "depth", "score", "nodes", "nps", "time"
    )
}

/// One iteration: `  12/19    +0.31      1234567    1.52M     0.81s  1. e4 e5 2. Nf3`.
fn iteration_line(board: &Board, info: &Info, multipv: bool) -> String {
    let line = if multipv {
        format!("{:>4} ", info.multipv)
    } else {
        String::new()
    };
    format!(
        "{line}{:>7}  {:>7}  {:>11}  {:>7}  {:>8}  {}",
        format!("{}/{}", info.depth, info.seldepth),
        DisplayValue::from_value(info.value).human(),
        info.nodes,
        short_count(info.nps()),
        seconds(info.time),
        numbered_san(board, &info.pv)
    )
}

/// `Searched:  734208 nodes in 0.97s, 756.3k nodes/s`: the whole search, the iteration the time
/// limit ended included, which the iteration lines do not count.
fn searched_line(nodes: u64, time: Duration) -> String {
    format!(
        "Searched:  {nodes} nodes in {}, {} nodes/s",
        seconds(time),
        short_count(nodes_per_second(nodes, time))
    )
}

/// A rate for a narrow column: `950`, `12.3k`, `1.52M`.
fn short_count(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.2}M", n as f64 / 1e6),
    }
}

fn seconds(time: Duration) -> String {
    format!("{:.2}s", time.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_counts() {
        assert_eq!(short_count(950), "950");
        assert_eq!(short_count(12_345), "12.3k");
        assert_eq!(short_count(1_520_000), "1.52M");
    }

    #[test]
    fn the_searched_line() {
        assert_eq!(
            searched_line(734_208, Duration::from_millis(970)),
            "Searched:  734208 nodes in 0.97s, 756.9k nodes/s"
        );
    }

    #[test]
    fn an_iteration_line() {
        let board = Board::startpos();
        let pv = vec![board.parse_uci("e2e4").expect("a legal move")];
        let info = Info {
            depth: 12,
            seldepth: 19,
            multipv: 1,
            value: 31,
            bound: Bound::Exact,
            nodes: 1_234_567,
            time: Duration::from_millis(810),
            hashfull: 0,
            pv,
        };
        let line = iteration_line(&board, &info, false);
        assert!(line.starts_with("  12/19    +0.31      1234567"), "{line}");
        assert!(line.ends_with("0.81s  1. e4"), "{line}");
    }
}
