//! `SearchControl`: the flags a front end shares with a running search. The protocol thread
//! sets them and returns at once; the search polls them (every few thousand nodes on the CPU,
//! at each poll of the device on the GPU), so `stop`, `ponderhit` and `quit` never wait for the
//! search.

use crate::limits::Limits;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// When `ponderhit` arrived: the clock the time manager counts from from then on.
    ponderhit_at: Mutex<Option<Instant>>,
}

impl SearchControl {
    pub fn new() -> SearchControl {
        SearchControl::default()
    }

    /// Resets the flags for a new search; `ponder` starts it as a ponder search.
    pub fn reset(&self, ponder: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(ponder, Ordering::SeqCst);
        *self.ponderhit_at.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// Asks the search to stop as soon as it can and report its best move.
    pub fn stop(&self) {
        // A stopped ponder search is no longer pondering: it must answer now.
        self.pondering.store(false, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the ponder search becomes a normal search whose
    /// time counts from now.
    pub fn ponderhit(&self) {
        *self.ponderhit_at.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Whether the search is still a ponder search (no time limit applies).
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Blocks while the protocol still expects the search to be running, even though it is
    /// done: an infinite search until `stop`, a ponder search until `stop` or `ponderhit` (UCI
    /// sends no `bestmove` before then). Every backend calls this before returning.
    pub fn wait_while_held(&self, limits: &Limits) {
        while !self.is_stopped() && (limits.infinite || self.is_pondering()) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// When `ponderhit` arrived, if it has.
    pub fn ponderhit_at(&self) -> Option<Instant> {
        *self.ponderhit_at.lock().unwrap_or_else(|e| e.into_inner())
    }
}
