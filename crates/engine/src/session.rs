//! `Session`: what the UCI and xboard front ends share — the search backend, and the one search
//! thread that runs at a time.
//!
//! The protocol thread must never block on a search: `isready` and `ping` are answered at once,
//! `stop`, `ponderhit`, `?` and `quit` take effect at once. So every search runs on its own
//! thread, which owns the backend (behind a mutex) while it searches and hands it back when done.
//! Option changes that arrive meanwhile (`setoption`, `memory`, `cores`) are queued and applied
//! before the next search, or as soon as the backend is free, in the order they came.

use crate::engine_backend::{EngineBackend, EngineSettings};
use crate::perft_backend::BackendChoice;
use kogge_search::{GamePosition, InfoSink, Limits, SearchBackend, SearchControl, SearchResult};
use kogge_search_cpu::CpuSearch;
use kogge_search_gpu::{Finisher, ParallelMode};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

/// A search backend as the front ends drive it: the narrow [`SearchBackend`] trait plus the
/// settings that are not in it yet.
// `set_move_overhead` belongs in `SearchBackend` once a second backend needs it; until then the
// front ends reach it through this local extension.
pub trait Backend: SearchBackend {
    /// The latency to allow for between the engine and the clock (UCI `Move Overhead`).
    fn set_move_overhead(&mut self, overhead: Duration);
    /// The clock's soft limit in percent of the time manager's (UCI `Slow Mover`).
    fn set_slow_mover(&mut self, percent: u32);
    /// Finishes any set-up still running (a GPU kernel being built): `isready` waits for it.
    fn prepare(&mut self) {}
    /// The UCI option `Backend`.
    fn set_backend_choice(&mut self, _choice: BackendChoice) {}
    /// The UCI option `Workers` (GPU workers; 0 = the device's default).
    fn set_workers(&mut self, _workers: usize) {}
    /// The UCI option `GPU Parallel`.
    fn set_parallel_mode(&mut self, _mode: ParallelMode) {}
    /// The UCI option `GPU Finisher`: who ends an iteration of the GPU search.
    fn set_finisher(&mut self, _finisher: Finisher) {}
}

impl Backend for CpuSearch {
    fn set_move_overhead(&mut self, overhead: Duration) {
        CpuSearch::set_move_overhead(self, overhead);
    }

    fn set_slow_mover(&mut self, percent: u32) {
        CpuSearch::set_slow_mover(self, percent);
    }
}

/// A change to the backend's settings, run when the backend is free.
type Change = Box<dyn FnOnce(&mut dyn Backend) + Send>;

/// Called on the search thread with the searched position and the result, once the search has
/// ended and the backend is free: the UCI front end prints `bestmove` here.
pub type OnDone = Box<dyn FnOnce(&GamePosition, &SearchResult) + Send>;

pub struct Session {
    backend: Arc<Mutex<Box<dyn Backend>>>,
    pending: Arc<Mutex<Vec<Change>>>,
    control: Arc<SearchControl>,
    search: Option<JoinHandle<SearchResult>>,
}

fn lock<T: ?Sized>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panicking search thread aborts the process (release builds use panic = "abort"); in a
    // test build a poisoned lock still guards consistent data, since no change is half-applied
    // by a panic in the code below.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Session {
    pub fn new(backend: Box<dyn Backend>) -> Session {
        Session {
            backend: Arc::new(Mutex::new(backend)),
            pending: Arc::new(Mutex::new(Vec::new())),
            control: Arc::new(SearchControl::new()),
            search: None,
        }
    }

    /// The CPU search with a 16 MiB table and one thread.
    #[cfg(test)]
    pub fn cpu() -> Session {
        Session::new(Box::new(CpuSearch::new(16, 1)))
    }

    /// The engine as `settings` choose it (a GPU search, or the CPU's), with a 16 MiB table
    /// and one CPU thread.
    pub fn engine(settings: EngineSettings) -> Session {
        Session::new(Box::new(EngineBackend::new(settings, 16, 1)))
    }

    /// The flags of the current (or next) search, for sinks that want to know whether the
    /// search is still pondering.
    pub fn control(&self) -> Arc<SearchControl> {
        Arc::clone(&self.control)
    }

    /// Whether a search thread is running (it may be about to finish).
    pub fn is_searching(&self) -> bool {
        self.search.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Changes the backend's settings: now if no search runs, else before the next one.
    pub fn configure(&self, change: impl FnOnce(&mut dyn Backend) + Send + 'static) {
        lock(&self.pending).push(Box::new(change));
        self.apply_pending();
    }

    /// Applies the queued changes if the backend is free; `isready` calls this so that a large
    /// `Hash` is allocated before `readyok`, as UCI expects.
    pub fn apply_pending(&self) {
        if self.is_searching() {
            return;
        }
        // No search runs, so the lock is free (a finished thread has released it).
        let mut backend = lock(&self.backend);
        apply(&mut **backend, &self.pending);
    }

    /// Starts a search of `position`, first stopping and joining any search still running (its
    /// own `on_done` still runs). Returns at once.
    pub fn start(
        &mut self,
        position: GamePosition,
        limits: Limits,
        sink: Box<dyn InfoSink>,
        on_done: OnDone,
    ) {
        self.stop_and_join();
        // Reset here, not on the search thread: a `stop` read right after `go` must not be
        // undone by a reset that happens later.
        self.control.reset(limits.ponder);
        let backend = Arc::clone(&self.backend);
        let pending = Arc::clone(&self.pending);
        let control = Arc::clone(&self.control);
        self.search = Some(std::thread::spawn(move || {
            let result = {
                let mut backend = lock(&backend);
                apply(&mut **backend, &pending);
                backend.search(&position, &limits, &control, &*sink)
            };
            on_done(&position, &result);
            result
        }));
    }

    /// Asks the running search to stop; returns at once (its result comes through `on_done`).
    pub fn stop(&self) {
        self.control.stop();
    }

    /// The opponent played the move the ponder search expected: it becomes a normal search.
    pub fn ponderhit(&self) {
        self.control.ponderhit();
    }

    /// Waits for the running search, if any, and returns its result.
    pub fn join(&mut self) -> Option<SearchResult> {
        let handle = self.search.take()?;
        // The search thread cannot panic in a release build (panic = "abort"); in a test build
        // a panic there is a bug that the test should see, but not as a second panic here.
        handle.join().ok()
    }

    /// Stops the running search, if any, and waits for it.
    pub fn stop_and_join(&mut self) -> Option<SearchResult> {
        if self.search.is_some() {
            self.stop();
        }
        self.join()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop_and_join();
    }
}

fn apply(backend: &mut dyn Backend, pending: &Mutex<Vec<Change>>) {
    let changes: Vec<Change> = std::mem::take(&mut *lock(pending));
    for change in changes {
        change(backend);
    }
    backend.prepare();
}

#[cfg(test)]
mod tests {
    use super::*;
    use kogge_chess::Board;
    use std::sync::mpsc;
    use std::time::Instant;

    fn start_infinite(session: &mut Session) -> mpsc::Receiver<Option<String>> {
        let (tx, rx) = mpsc::channel();
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        session.start(
            GamePosition::new(Board::startpos()),
            limits,
            Box::new(()),
            Box::new(move |_, result| {
                let _ = tx.send(result.best.map(|m| m.to_string()));
            }),
        );
        rx
    }

    #[test]
    fn stop_ends_an_infinite_search_with_a_legal_move() {
        let mut session = Session::cpu();
        let done = start_infinite(&mut session);
        std::thread::sleep(Duration::from_millis(50));
        assert!(session.is_searching());
        let t = Instant::now();
        let result = session.stop_and_join().expect("a result");
        assert!(t.elapsed() < Duration::from_secs(2));
        let best = result.best.expect("a move");
        assert!(Board::startpos().is_legal(best));
        assert_eq!(done.recv().ok().flatten(), Some(best.to_string()));
        assert!(!session.is_searching());
    }

    #[test]
    fn changes_wait_for_the_search_and_keep_their_order() {
        let mut session = Session::cpu();
        let _done = start_infinite(&mut session);
        let log = Arc::new(Mutex::new(Vec::new()));
        for i in 0..3 {
            let log = Arc::clone(&log);
            session.configure(move |b| {
                b.set_multipv(1);
                lock(&log).push(i);
            });
        }
        assert!(lock(&log).is_empty(), "applied during the search");
        session.stop_and_join();
        session.apply_pending();
        assert_eq!(*lock(&log), vec![0, 1, 2]);
    }

    #[test]
    fn a_new_search_replaces_the_old_one() {
        let mut session = Session::cpu();
        let first = start_infinite(&mut session);
        let second = start_infinite(&mut session);
        // The first search was stopped and reported before the second began.
        assert!(first.recv_timeout(Duration::from_secs(1)).is_ok());
        session.stop();
        assert!(second.recv_timeout(Duration::from_secs(2)).is_ok());
    }
}
