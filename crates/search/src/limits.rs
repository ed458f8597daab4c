//! `Limits`: what bounds one search — the `go` command's parameters in UCI terms, which the
//! xboard front end fills from `level`, `st`, `sd`, `time` and `otim` too.

use kogge_chess::Move;
use std::time::Duration;

/// The side to move's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub time: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the control is not sudden death.
    pub moves_to_go: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many plies of iterative deepening.
    pub depth: Option<u32>,
    /// Stop once this many nodes have been searched (all threads together).
    pub nodes: Option<u64>,
    /// Think exactly this long.
    pub movetime: Option<Duration>,
    /// Stop once a mate in this many moves (or fewer) is found.
    pub mate: Option<u32>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Start as a ponder search: no time limit applies until `ponderhit`.
    pub ponder: bool,
    /// Search only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// The clock, for a game with a time control.
    pub clock: Option<Clock>,
}

impl Limits {
    /// A search to a fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A search of a fixed time.
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    /// Whether the search must go on until it is stopped from outside (no depth, node, time or
    /// mate limit, or `infinite`).
    pub fn is_unbounded(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.movetime.is_none()
                && self.mate.is_none()
                && self.clock.is_none())
    }
}
