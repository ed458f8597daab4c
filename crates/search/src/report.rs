//! What a search tells the front end while it runs. The front end formats these for UCI
//! (`info …`), xboard (thinking lines) or people (`kogge analyze`).

use crate::value::Value;
use kogge_chess::Move;
use std::time::Duration;

/// Whether a value is exact or only a bound (an aspiration window failed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least this (fail high).
    Lower,
    /// The true value is at most this (fail low).
    Upper,
}

/// One line of the principal variation at the end of an iteration (or on an aspiration
/// failure).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based line number when several lines are searched (MultiPV).
    pub multipv: u32,
    pub value: Value,
    pub bound: Bound,
    pub nodes: u64,
    pub time: Duration,
    /// Per mille of the transposition table in use.
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

impl Info {
    /// Nodes per second over the search so far.
    pub fn nps(&self) -> u64 {
        nodes_per_second(self.nodes, self.time)
    }
}

/// `nodes` over `time` as a rate a second (a zero time counts as a microsecond).
pub fn nodes_per_second(nodes: u64, time: Duration) -> u64 {
    let micros = time.as_micros().max(1);
    (nodes as u128 * 1_000_000 / micros) as u64
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// A principal variation.
    Pv(Info),
    /// The root move being searched now (UCI `currmove`), 1-based number.
    CurrentMove { depth: u32, mv: Move, number: u32 },
    /// A message for the user (UCI `info string`, xboard `#` comment).
    Message(String),
}

/// Receives reports from a running search. Implementations print; they must be cheap, because
/// the search calls them from its own thread.
pub trait InfoSink: Send + Sync {
    fn report(&self, report: Report);
}

/// Ignores every report (benchmarks, tests).
impl InfoSink for () {
    fn report(&self, _report: Report) {}
}

impl<F: Fn(Report) + Send + Sync> InfoSink for F {
    fn report(&self, report: Report) {
        self(report)
    }
}
