//! What `kogge analyze` and `kogge epd` share: parsing the search options given on the command
//! line and turning them into the engine's search (`kogge --backend`) and its [`Limits`].

use crate::engine_backend::{EngineBackend, EngineSettings};
use crate::session::Backend;
use clap::Args;
use kogge_search::{Limits, MAX_PLY, SearchBackend};
use kogge_search_cpu::{MAX_HASH_MB, MAX_THREADS};
use std::time::Duration;

/// The deepest search accepted: what the search itself allows.
pub const MAX_SEARCH_DEPTH: u32 = MAX_PLY as u32 - 4;

/// The longest `--movetime` accepted, in milliseconds: a day. Anything longer is a typo.
const MAX_MOVETIME_MS: u64 = 24 * 60 * 60 * 1000;

pub fn parse_search_depth(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(d) if (1..=MAX_SEARCH_DEPTH).contains(&d) => Ok(d),
        _ => Err(format!("expected a depth from 1 to {MAX_SEARCH_DEPTH}")),
    }
}

pub fn parse_movetime(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(ms) if (1..=MAX_MOVETIME_MS).contains(&ms) => Ok(ms),
        _ => Err(format!(
            "expected a time in milliseconds from 1 to {MAX_MOVETIME_MS}"
        )),
    }
}

pub fn parse_nodes(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("expected a number of nodes of at least 1".to_string()),
    }
}

pub fn parse_hash_mb(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(mb) if (1..=MAX_HASH_MB).contains(&mb) => Ok(mb),
        _ => Err(format!(
            "expected a table size in MiB from 1 to {MAX_HASH_MB}"
        )),
    }
}

pub fn parse_search_threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a number of threads from 1 to {MAX_THREADS}"
        )),
    }
}

/// The limits of one search: the depth, the time and the node count given, all that are
/// (whichever comes first ends it), and `default_ms` of thinking when none is.
pub fn limits(
    movetime_ms: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    default_ms: u64,
) -> Limits {
    let movetime = match (movetime_ms, depth, nodes) {
        (Some(ms), _, _) => Some(ms),
        (None, None, None) => Some(default_ms),
        (None, _, _) => None,
    };
    Limits {
        depth,
        nodes,
        movetime: movetime.map(Duration::from_millis),
        ..Limits::default()
    }
}

/// The search options `analyze` and `epd` both take (each adds its own `--movetime`, whose
/// default differs).
#[derive(Args, Debug)]
pub struct SearchArgs {
    /// Stop after this many plies of iterative deepening (with --movetime too: whichever comes
    /// first).
    #[arg(long, value_name = "D", value_parser = parse_search_depth)]
    pub depth: Option<u32>,

    /// Stop after this many nodes (all threads together; with --movetime or --depth too:
    /// whichever comes first). With one thread, a search to a fixed node count gives the same
    /// result on any machine and under any load.
    #[arg(long, value_name = "N", value_parser = parse_nodes)]
    pub nodes: Option<u64>,

    /// Search threads.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_search_threads)]
    pub threads: usize,

    /// Transposition table size in MiB.
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = parse_hash_mb)]
    pub hash: usize,
}

impl SearchArgs {
    /// The limits for `--movetime` (or `default_ms`), `--depth` and `--nodes`; see [`limits`].
    pub fn limits(&self, movetime_ms: Option<u64>, default_ms: u64) -> Limits {
        limits(movetime_ms, self.depth, self.nodes, default_ms)
    }

    /// The search `engine` chooses (`kogge --backend …`: the CPU search unless a GPU is asked
    /// for) with these options, ready to search: a GPU's kernel is built before this returns.
    pub fn engine_search(&self, engine: EngineSettings, multipv: usize) -> EngineBackend {
        let mut search = EngineBackend::new(engine, self.hash, self.threads);
        search.set_multipv(multipv);
        // A command-line search has no clock and no GUI in between: all of `--movetime` is for
        // thinking. (This also waits for a GPU's set-up.)
        search.set_move_overhead(Duration::ZERO);
        search
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_default_to_the_time_unless_a_depth_or_nodes_are_given() {
        let l = limits(None, None, None, 3000);
        assert_eq!((l.depth, l.movetime), (None, Some(Duration::from_secs(3))));
        let l = limits(None, Some(9), None, 3000);
        assert_eq!((l.depth, l.movetime), (Some(9), None));
        let l = limits(Some(500), Some(9), None, 3000);
        assert_eq!(
            (l.depth, l.movetime),
            (Some(9), Some(Duration::from_millis(500)))
        );
        let l = limits(None, None, Some(50_000), 3000);
        assert_eq!((l.depth, l.nodes, l.movetime), (None, Some(50_000), None));
        let l = limits(Some(500), None, Some(50_000), 3000);
        assert_eq!(
            (l.nodes, l.movetime),
            (Some(50_000), Some(Duration::from_millis(500)))
        );
    }

    #[test]
    fn parsers_refuse_nonsense() {
        assert!(parse_search_depth("0").is_err());
        assert!(parse_search_depth("12").is_ok());
        assert!(parse_movetime("0").is_err());
        assert!(parse_movetime("abc").is_err());
        assert!(parse_hash_mb("0").is_err());
        assert!(parse_nodes("0").is_err());
        assert!(parse_nodes("1000000").is_ok());
        assert!(parse_search_threads("0").is_err());
    }
}
