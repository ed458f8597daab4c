//! What every Kogge search backend (CPU threads today, GPU workers later) shares with the
//! protocol front ends: the [`Limits`] of one search, the [`Value`] scale with its mate scores,
//! the [`TimeManager`] that turns a clock into soft and hard limits, the [`Report`]s a search
//! sends while it runs, the [`SearchControl`] flags a front end uses to stop or ponder-hit it,
//! and the narrow [`SearchBackend`] trait.

mod backend;
mod control;
mod limits;
mod report;
mod timeman;
mod value;

pub use backend::{GamePosition, SearchBackend, SearchResult};
pub use control::SearchControl;
pub use limits::{Clock, Limits};
pub use report::{Bound, Info, InfoSink, Report, nodes_per_second};
pub use timeman::{DEFAULT_MOVE_OVERHEAD, DEFAULT_SLOW_MOVER, TimeManager};
pub use value::{DisplayValue, MATE, MAX_PLY, Value, mate_in, mated_in};
