//! `kogge bench`: searches a fixed list of positions to a fixed depth, one thread, a fresh table
//! for each, and prints the total node count and speed the way Stockfish does.
//!
//! The node count is the build's signature: with one thread and a fixed depth the search is
//! deterministic, so any change to the search or the evaluation that changes what is searched
//! changes the count, and a change that must not (a refactoring, a faster move generator) is
//! shown to leave it alone. Testing frameworks read the last line, `N nodes R nps`. The UCI
//! `bench` command calls [`run_bench`] too, so both print the same signature.

use anyhow::{Result, bail};
use clap::Args;
use kogge_chess::Board;
use kogge_search::{GamePosition, Limits, MAX_PLY, SearchBackend, SearchControl};
use kogge_search_cpu::CpuSearch;
use kogge_search_cpu::span::{GPU_SPLIT_MIN_DEPTH, IterationSpan, SpanConfig};
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The depth when none is given: the whole list takes a few seconds in a release build on one
/// core, long enough to measure speed, short enough to run after every change.
pub const DEFAULT_DEPTH: u32 = 14;

/// The deepest bench accepted: what the search itself allows.
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 4;

/// The table size for every position: small, so that the count does not depend on the
/// machine's memory and the clearing costs nothing.
const HASH_MB: usize = 16;

/// The positions, with a name for the progress lines. Varied on purpose: openings and
/// middlegames exercise move ordering and pruning, tactics the extensions and quiescence,
/// endgames deep iterations and the king-and-pawn evaluation. Every one is legal, has a legal
/// move, and uses standard castling (checked by the tests below).
pub const POSITIONS: &[(&str, &str)] = &[
    // Openings, a few moves in.
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "start position",
    ),
    (
        "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6",
        "Ruy Lopez, Closed",
    ),
    (
        "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6",
        "Sicilian Najdorf",
    ),
    (
        "r1bq1rk1/pppnbppp/4pn2/3p2B1/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 3 7",
        "Queen's Gambit Declined",
    ),
    (
        "r1bq1rk1/ppp1npbp/3p1np1/3Pp3/2P1P3/2N2N2/PP2BPPP/R1BQ1RK1 w - - 1 9",
        "King's Indian, Mar del Plata",
    ),
    (
        "rnbqk2r/pp2nppp/4p3/2ppP3/3P4/P1P5/2P2PPP/R1BQKBNR w KQkq - 1 7",
        "French Winawer",
    ),
    (
        "rn1qkbnr/pp2ppp1/2p3bp/8/3P3P/6N1/PPP2PP1/R1BQKBNR w KQkq - 0 7",
        "Caro-Kann Classical",
    ),
    (
        "r1bqk2r/pppp1ppp/2n2n2/8/1bBPP3/5N2/PP3PPP/RNBQK2R w KQkq - 1 7",
        "Italian, Moeller",
    ),
    (
        "rnbqkb1r/ppp2ppp/1n6/4p3/8/2N3P1/PP1PPPBP/R1BQK1NR w KQkq - 2 6",
        "English, reversed Dragon",
    ),
    (
        "rnbq1rk1/p1pp1ppp/1p2pn2/8/2PP4/P1Q5/1P2PPPP/R1B1KBNR w KQ - 0 7",
        "Nimzo-Indian Classical",
    ),
    (
        "rn2kb1r/ppp1pppp/5n2/q4b2/3P4/2N2N2/PPP2PPP/R1BQKB1R w KQkq - 3 6",
        "Scandinavian",
    ),
    (
        "rn1qk2r/pp3ppp/2p1pn2/5b2/PbBP4/2N1PN2/1P3PPP/R1BQ1RK1 b kq - 2 8",
        "Slav",
    ),
    (
        "r2q1rk1/pp1bppbp/2np1np1/8/2PNP3/2N1B3/PP2BPPP/R2Q1RK1 w - - 2 10",
        "Maroczy bind",
    ),
    (
        "rnbqkb1r/pppp1p1p/5n2/4N3/4PppP/8/PPPP2P1/RNBQKB1R w KQkq - 2 6",
        "King's Gambit, Kieseritzky",
    ),
    // Middlegames from main lines.
    (
        "r4rk1/2qbbppp/2np1n2/1p2p3/p2PP3/4BN1P/PPBN1PP1/R2QR1K1 w - - 2 17",
        "Ruy Lopez Chigorin middlegame",
    ),
    (
        "r2q1rk1/pp2ppbp/4b1p1/n7/3PP3/3BBP2/P3N1PP/R2Q1RK1 w - - 1 14",
        "Gruenfeld exchange",
    ),
    (
        "2rq1rk1/pp1bppb1/3p1np1/4n2p/3NP2P/1BN1BP2/PPPQ2P1/2KR3R w - - 0 13",
        "Sicilian Dragon, Yugoslav attack",
    ),
    (
        "r1bqr1k1/pp2bppp/2p1n3/3p3n/3P3B/2NBPP2/PPQ1N1PP/R4RK1 w - - 3 13",
        "QGD Carlsbad",
    ),
    (
        "r1b1k2r/ppq3pp/2nbpn2/3p4/3P4/3B1N2/PP2NPPP/R1BQ1RK1 w kq - 4 12",
        "French Tarrasch IQP",
    ),
    (
        "r1b1k2r/ppp1nppp/3p2q1/2b1n3/3NPP2/2P1B3/PP2B1PP/RN1Q1RK1 b kq - 0 10",
        "Scotch",
    ),
    (
        "r2q1rk1/p2nbppp/bpp1p3/3p4/2PP4/1PB3P1/P2NPPBP/R2Q1RK1 b - - 3 12",
        "Queen's Indian",
    ),
    // Tactics: sacrifices, pins, mates in one, attacks on the king.
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "Kiwipete",
    ),
    (
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        "WAC.001, queen sacrifice",
    ),
    (
        "r1b1kb1r/2pp1ppp/1np1q3/p3P3/2P5/1P6/PB1NQPPP/R3KB1R b KQkq - 0 1",
        "tactical, pinned e-pawn",
    ),
    (
        "r1bqk2r/pppp1ppp/2n2n2/2b1p1N1/2B1P3/8/PPPP1PPP/RNBQK2R b KQkq - 5 4",
        "Fried liver threat",
    ),
    (
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "Scholar's mate in one",
    ),
    (
        "r2q1rk1/ppp2ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPP2PPP/R2Q1RK1 w - - 6 8",
        "symmetric Italian, pins",
    ),
    (
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "back-rank mate in one",
    ),
    (
        "r1bq2r1/b4pk1/p1pp1p2/1p2pP2/1P2P1PB/3P4/1PPQ2P1/R3K2R w - - 0 1",
        "attack on the king, opposite castling",
    ),
    (
        "3r1rk1/1pp2ppp/p1n5/4q3/2B1P3/2P2Q2/P4PPP/R4RK1 w - - 0 1",
        "open middlegame, bishop vs knight",
    ),
    (
        "r4rk1/1b2qppp/p1n1p3/1p6/3PN3/P2B4/1P2QPPP/R4RK1 w - - 0 1",
        "isolated queen pawn",
    ),
    (
        "2kr3r/ppp2ppp/2n5/2bqp3/8/2NP1N2/PPP2PPP/R2QKB1R w KQ - 0 1",
        "development lead, black centralised",
    ),
    // Endgames: pawn endings (opposition, zugzwang, races), rook, minor-piece and queen endings,
    // mating material, and positions with few pieces where the search goes deep.
    (
        "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
        "king and pawn, opposition",
    ),
    (
        "8/2k5/8/1p1p4/1P1P4/2K5/8/8 w - - 0 1",
        "pawn ending, blocked, triangulation",
    ),
    (
        "8/8/1p1k4/1P6/2PK4/8/8/8 w - - 0 1",
        "pawn ending, outside passer",
    ),
    (
        "8/pp3k2/2p5/3p1p2/3P1P2/2P3K1/PP6/8 w - - 0 1",
        "pawn ending, symmetrical",
    ),
    ("8/5pk1/6p1/8/8/6P1/5PK1/8 w - - 0 1", "pawn ending, 2 vs 2"),
    ("8/8/4k3/8/2K5/8/5P2/8 b - - 0 1", "king chases passed pawn"),
    ("7k/8/8/8/8/8/8/R3K3 w Q - 0 1", "rook mate, castling right"),
    (
        "8/8/8/8/8/4k3/8/2KQ4 w - - 0 1",
        "king and queen against king",
    ),
    ("8/8/8/3k4/8/8/8/4KBN1 w - - 0 1", "bishop and knight mate"),
    ("6k1/5p2/6p1/8/7P/6P1/r4PK1/1R6 w - - 0 1", "rook ending"),
    (
        "8/3k4/3p4/3P4/1R6/8/2r5/4K3 b - - 0 1",
        "rook ending, active rook",
    ),
    (
        "1R6/8/5k2/8/5PK1/8/r7/8 w - - 0 1",
        "Lucena-like, rook behind",
    ),
    ("8/8/3k4/3p4/3P4/3B4/8/2b1K3 w - - 0 1", "opposite bishops"),
    (
        "8/5k2/8/3N4/8/5n2/5K2/8 w - - 0 1",
        "knight ending, no pawns",
    ),
    (
        "8/4kp2/4p3/4P3/2B3K1/8/5n2/8 w - - 0 1",
        "bishop against knight",
    ),
    (
        "8/1p3k2/p7/P7/1P6/8/5K2/8 w - - 0 1",
        "pawn ending, queenside",
    ),
    (
        "4k3/8/8/8/8/8/3PPP2/4K3 w - - 0 1",
        "three pawns against king",
    ),
    (
        "2k5/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        "two rooks, both castling rights",
    ),
    (
        "8/8/p7/1p6/1P2k3/P3p3/4K3/8 w - - 0 1",
        "pawn race / zugzwang",
    ),
    ("8/8/8/8/1k6/8/K7/3q4 w - - 0 1", "lone king against queen"),
    ("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1", "queen against queen"),
    (
        "7k/8/5K1p/8/6P1/8/8/8 w - - 0 1",
        "pawn ending, stalemate traps",
    ),
    ("8/P7/8/8/8/8/6k1/K5r1 w - - 0 1", "promotion under fire"),
    (
        "k7/8/1K6/8/8/8/8/6Q1 w - - 0 1",
        "queen mate in one or stalemate",
    ),
];

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Search depth in plies for every position.
    #[arg(value_parser = parse_bench_depth, default_value_t = DEFAULT_DEPTH)]
    pub depth: u32,

    /// Only the first N positions (`kogge benchsmp --positions bench --count N` takes the same).
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub count: Option<usize>,

    /// Also measure the tree's span under Young Brothers Wait: the critical path with unlimited
    /// workers, and nodes over span, the workers a split search could keep busy, by iteration.
    /// The node count is unchanged.
    #[arg(long)]
    pub span: bool,

    /// With --span: the least depth at which a node may split (the GPU's YBWC: 2).
    #[arg(
        long,
        value_name = "PLIES",
        requires = "span",
        default_value_t = GPU_SPLIT_MIN_DEPTH,
        value_parser = clap::value_parser!(i32).range(1..=MAX_DEPTH as i64)
    )]
    pub split_min_depth: i32,

    /// With --span: the most split points a worker holds open at once (the GPU's YBWC: 4);
    /// without it, no limit.
    #[arg(
        long,
        value_name = "N",
        requires = "span",
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub split_limit: Option<u32>,

    /// With --span: nodes expected to be all-nodes, of at least this depth, split before their
    /// first move is searched, as a speculative split search would (the work it wastes where
    /// they cut is not counted).
    #[arg(
        long,
        value_name = "PLIES",
        requires = "span",
        value_parser = clap::value_parser!(i32).range(1..=MAX_DEPTH as i64)
    )]
    pub speculate_from: Option<i32>,
}

fn parse_count(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=POSITIONS.len()).contains(&n) => Ok(n),
        _ => Err(format!("expected a count from 1 to {}", POSITIONS.len())),
    }
}

/// What one bench run searched, all positions together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchTotals {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchTotals {
    /// Nodes per second over the whole run (0 when too fast to time).
    pub fn nps(&self) -> u64 {
        (u128::from(self.nodes) * 1_000_000)
            .checked_div(self.elapsed.as_micros())
            .map_or(0, |nps| nps as u64)
    }
}

pub fn run(args: &BenchArgs) -> Result<ExitCode> {
    let mut out = io::stdout().lock();
    let options = BenchOptions {
        count: args.count.unwrap_or(POSITIONS.len()),
        span: args.span.then_some(SpanConfig {
            min_split_depth: args.split_min_depth,
            split_limit: args.split_limit,
            speculate_from: args.speculate_from,
        }),
    };
    let (_, spans) = run_bench_with(Some(args.depth), &options, &mut out)?;
    if let Some(config) = options.span {
        write_span_table(&spans, &config, &mut out)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// What `kogge bench` searches besides the depth.
pub struct BenchOptions {
    /// The first `count` positions of [`POSITIONS`].
    pub count: usize,
    /// Measure the span of this split search (`kogge_search_cpu::span`).
    pub span: Option<SpanConfig>,
}

/// The span table: each iteration depth's nodes and span summed over the positions, their
/// ratio, and the quiescence search's share of each; then all iterations together (each a
/// barrier, as the GPU's host makes them).
fn write_span_table(
    spans: &[IterationSpan],
    config: &SpanConfig,
    out: &mut dyn Write,
) -> Result<()> {
    let held = config
        .split_limit
        .map_or("any number of".to_string(), |k| format!("at most {k}"));
    let waits = config
        .speculate_from
        .map_or("after the first move".to_string(), |d| {
            format!("expected all-nodes of depth {d} or more at once")
        });
    writeln!(
        out,
        "Young Brothers Wait, nodes split from depth {} ({waits}), {held} split points \
         open a worker, unlimited workers:",
        config.min_split_depth
    )?;
    writeln!(
        out,
        "{:>6} {:>14} {:>12} {:>11} {:>9} {:>8} {:>10} {:>12}",
        "depth", "nodes", "span", "nodes/span", "qs nodes", "qs span", "ply 1 span", "span chains"
    )?;
    let percent = |part: u64, all: u64| 100.0 * part as f64 / all.max(1) as f64;
    let row = |label: String, r: &IterationSpan, out: &mut dyn Write| {
        writeln!(
            out,
            "{:>6} {:>14} {:>12} {:>11.1} {:>8.1}% {:>7.1}% {:>9.1}% {:>12}",
            label,
            r.work.nodes,
            r.span.nodes,
            r.parallelism(),
            percent(r.work.quiescence, r.work.nodes),
            percent(r.span.quiescence, r.span.nodes),
            percent(r.span.frontier, r.span.nodes),
            r.span.chains
        )
    };
    let deepest = spans.iter().map(|s| s.depth).max().unwrap_or(0);
    let mut total = IterationSpan::default();
    for depth in 1..=deepest {
        let mut sum = IterationSpan {
            depth,
            ..IterationSpan::default()
        };
        for s in spans.iter().filter(|s| s.depth == depth) {
            sum.work += s.work;
            sum.span += s.span;
        }
        total.work += sum.work;
        total.span += sum.span;
        row(depth.to_string(), &sum, out)?;
    }
    row("all".to_string(), &total, out)?;
    if config.speculate_from.is_some() {
        let speculated: u64 = spans.iter().map(|s| s.speculated).sum();
        let mispredicted: u64 = spans.iter().map(|s| s.mispredicted).sum();
        writeln!(
            out,
            "expected all-nodes split at once: {speculated}, of which cut by their first move: \
             {mispredicted} ({:.1}%)",
            percent(mispredicted, speculated)
        )?;
    }
    out.flush()?;
    Ok(())
}

fn parse_bench_depth(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(d) if (1..=MAX_DEPTH).contains(&d) => Ok(d),
        _ => Err(format!("expected a depth from 1 to {MAX_DEPTH}")),
    }
}

/// Searches every position of [`POSITIONS`] to `depth` (default [`DEFAULT_DEPTH`]), writing one
/// short line per position to stderr and the totals to `out`:
///
/// ```text
/// ===========================
/// Total time (ms) : 4321
/// Nodes searched  : 9876543
/// Nodes/second    : 2285707
/// 9876543 nodes 2285707 nps
/// ```
pub fn run_bench(depth: Option<u32>, out: &mut dyn Write) -> Result<BenchTotals> {
    let options = BenchOptions {
        count: POSITIONS.len(),
        span: None,
    };
    Ok(run_bench_with(depth, &options, out)?.0)
}

/// [`run_bench`] over the first `options.count` positions, with the span of every iteration of
/// every position where `options` asks for it.
pub fn run_bench_with(
    depth: Option<u32>,
    options: &BenchOptions,
    out: &mut dyn Write,
) -> Result<(BenchTotals, Vec<IterationSpan>)> {
    let depth = depth.unwrap_or(DEFAULT_DEPTH);
    if !(1..=MAX_DEPTH).contains(&depth) {
        bail!("bench depth {depth} is outside 1 to {MAX_DEPTH}");
    }
    let mut search = CpuSearch::new(HASH_MB, 1);
    search.measure_span(options.span);
    let mut spans = Vec::new();
    let positions = &POSITIONS[..options.count.clamp(1, POSITIONS.len())];
    let control = SearchControl::new();
    let limits = Limits::depth(depth);
    let mut nodes = 0u64;
    let mut elapsed = Duration::ZERO;
    let mut err = io::stderr().lock();
    for (i, &(fen, name)) in positions.iter().enumerate() {
        // The list is checked by the tests; a broken entry here is a bug, not bad input, but
        // it still deserves an error rather than a panic inside a UCI session.
        let board = Board::from_fen(fen)
            .map_err(|e| anyhow::anyhow!("bench position {} '{fen}': {e}", i + 1))?;
        // A fresh table and fresh histories for every position: each count depends on its
        // position alone, whatever ran before (an earlier UCI search, an earlier bench).
        search.clear();
        control.reset(false);
        // The clock runs around the search alone, not the clearing.
        let start = Instant::now();
        let result = search.search(&GamePosition::new(board), &limits, &control, &());
        elapsed += start.elapsed();
        nodes += result.nodes;
        let span: u64 = search.last_span().iter().map(|s| s.span.nodes).sum();
        spans.extend_from_slice(search.last_span());
        let span_note = if options.span.is_some() {
            format!(
                "  span {span:>9} ({:.1} workers)",
                result.nodes as f64 / span.max(1) as f64
            )
        } else {
            String::new()
        };
        // Progress for people; stderr, so that stdout stays the totals. A closed stderr must
        // not end the bench.
        let _ = writeln!(
            err,
            "position {:>2}/{}: {:>10} nodes{span_note}  {name}",
            i + 1,
            positions.len(),
            result.nodes
        );
    }
    let totals = BenchTotals { nodes, elapsed };
    writeln!(out, "===========================")?;
    writeln!(out, "Total time (ms) : {}", elapsed.as_millis())?;
    writeln!(out, "Nodes searched  : {nodes}")?;
    writeln!(out, "Nodes/second    : {}", totals.nps())?;
    writeln!(out, "{nodes} nodes {} nps", totals.nps())?;
    out.flush()?;
    Ok((totals, spans))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_is_legal_and_has_a_move() {
        assert!(POSITIONS.len() >= 50);
        for &(fen, name) in POSITIONS {
            let board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(!board.legal_moves().is_empty(), "{name}: no legal move");
            assert!(!board.has_chess960_castling(), "{name}: Chess960 castling");
            // The FEN round-trips, so the list holds no typo that the parser silently fixed.
            assert_eq!(board.to_fen(), fen, "{name}");
        }
    }

    #[test]
    fn no_position_twice() {
        let mut fens: Vec<&str> = POSITIONS.iter().map(|p| p.0).collect();
        fens.sort_unstable();
        fens.dedup();
        assert_eq!(fens.len(), POSITIONS.len());
    }

    #[test]
    fn same_nodes_twice_and_the_stockfish_lines() {
        let mut first = Vec::new();
        let a = run_bench(Some(3), &mut first).expect("bench runs");
        let mut second = Vec::new();
        let b = run_bench(Some(3), &mut second).expect("bench runs");
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 0);
        let text = String::from_utf8(first).expect("UTF-8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5, "{text}");
        assert_eq!(lines[0], "===========================");
        assert_eq!(lines[2], format!("Nodes searched  : {}", a.nodes));
        assert!(
            lines[4].starts_with(&format!("{} nodes ", a.nodes)),
            "{text}"
        );
        assert!(lines[4].ends_with(" nps"), "{text}");
    }

    #[test]
    fn depth_zero_is_refused() {
        assert!(run_bench(Some(0), &mut Vec::new()).is_err());
    }
}
