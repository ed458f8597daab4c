//! Kogge's CPU search: the default where there is no GPU, and the reference the GPU search is
//! checked against.
//!
//! Principal variation search with aspiration windows, quiescence, a shared lockless
//! transposition table, and Lazy SMP: every thread searches the same root, and they help each
//! other only through the table. With one thread and a fixed depth the search is deterministic.

mod draw;
mod history;
mod movepick;
pub mod params;
mod pvs;
mod qsearch;
mod see;
pub mod span;
mod tt;
mod worker;

pub use draw::{insufficient_material, is_repetition};
pub use see::{SEE_VALUE, see_ge};

use kogge_chess::Move;
use kogge_search::{
    DEFAULT_MOVE_OVERHEAD, DEFAULT_SLOW_MOVER, GamePosition, InfoSink, Limits, SearchBackend,
    SearchControl, SearchResult, TimeManager,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tt::TranspositionTable;
use worker::{Line, NodeCounter, Shared, ThreadData, Worker};

/// The most threads `Threads` accepts.
pub const MAX_THREADS: usize = 1024;
/// Stack of each search thread: a ply of the main search keeps about 3 KB (move lists, a board
/// copy), and quiescence adds its own plies; 64 MiB leaves a wide margin over MAX_PLY.
const SEARCH_STACK_BYTES: usize = 64 << 20;
/// The largest table `Hash` accepts, in MiB.
pub const MAX_HASH_MB: usize = 1 << 20;

pub struct CpuSearch {
    tt: TranspositionTable,
    threads: Vec<ThreadData>,
    multipv: usize,
    move_overhead: Duration,
    /// UCI `Slow Mover`: the clock's soft limit in percent of the time manager's.
    slow_mover: u32,
    /// Said at the next search: the table could not have the size asked for.
    hash_note: Option<String>,
    /// `kogge bench --span`: the split search whose span the main thread measures (`span.rs`).
    span_config: Option<span::SpanConfig>,
    /// The last search's iterations as the span meter saw them.
    last_span: Vec<span::IterationSpan>,
}

impl Default for CpuSearch {
    fn default() -> Self {
        CpuSearch::new(16, 1)
    }
}

impl CpuSearch {
    /// A search with a table of `hash_mb` MiB and `threads` threads.
    pub fn new(hash_mb: usize, threads: usize) -> CpuSearch {
        let mut s = CpuSearch {
            tt: TranspositionTable::new(hash_mb.clamp(1, MAX_HASH_MB)),
            threads: Vec::new(),
            multipv: 1,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            slow_mover: DEFAULT_SLOW_MOVER,
            hash_note: None,
            span_config: None,
            last_span: Vec::new(),
        };
        s.set_threads(threads);
        s
    }

    /// The size of the search's table in MiB.
    pub fn table_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// The latency to allow for between the engine and the clock (UCI `Move Overhead`).
    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.move_overhead = overhead;
    }

    /// The clock's soft limit in percent (UCI `Slow Mover`, 100 by default; see
    /// [`TimeManager::with_slow_mover`]).
    pub fn set_slow_mover(&mut self, percent: u32) {
        self.slow_mover = percent;
    }

    /// Measures the main thread's span as the split search `config` describes would see it
    /// (`span.rs`), or stops measuring (`None`). The search itself is unchanged.
    pub fn measure_span(&mut self, config: Option<span::SpanConfig>) {
        self.span_config = config;
    }

    /// The last search's iterations, with their nodes and span, where the span was measured.
    pub fn last_span(&self) -> &[span::IterationSpan] {
        &self.last_span
    }
}

impl SearchBackend for CpuSearch {
    fn name(&self) -> String {
        format!(
            "cpu, {} thread{}",
            self.threads.len(),
            if self.threads.len() == 1 { "" } else { "s" }
        )
    }

    fn set_hash_mb(&mut self, mb: usize) {
        let wanted = mb.clamp(1, MAX_HASH_MB);
        // Free the old table first, so that its memory can serve the new one.
        self.tt = TranspositionTable::new(1);
        let (tt, got) = TranspositionTable::with_fallback(wanted);
        self.tt = tt;
        self.hash_note = (got < wanted)
            .then(|| format!("Hash: {wanted} MB could not be allocated; using {got} MB"));
    }

    fn set_threads(&mut self, threads: usize) {
        let n = threads.clamp(1, MAX_THREADS);
        self.threads.resize_with(n, ThreadData::default);
    }

    fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines.max(1);
    }

    fn clear(&mut self) {
        self.tt.clear();
        for t in &mut self.threads {
            t.history.clear();
        }
    }

    fn search(
        &mut self,
        position: &GamePosition,
        limits: &Limits,
        control: &SearchControl,
        sink: &dyn InfoSink,
    ) -> SearchResult {
        let start = Instant::now();
        self.last_span.clear();
        let root = position.board;
        let legal: Vec<Move> = root.legal_moves().iter().copied().collect();
        if legal.is_empty() {
            control.wait_while_held(limits);
            return SearchResult {
                best: None,
                ponder: None,
                value: 0,
                depth: 0,
                nodes: 0,
            };
        }
        if let Some(note) = self.hash_note.take() {
            sink.report(kogge_search::Report::Message(note));
        }
        self.tt.new_search();
        let shared = Shared {
            tt: &self.tt,
            control,
            time: TimeManager::new(limits, self.move_overhead, start)
                .with_slow_mover(self.slow_mover),
            limits,
            stop: AtomicBool::new(false),
            nodes: (0..self.threads.len())
                .map(|_| NodeCounter::default())
                .collect(),
            multipv: self.multipv,
        };
        // Every worker, the main one too, runs on a thread of its own with a stack sized for
        // the deepest search (each ply keeps a move list and a board copy), whatever thread
        // the caller is on.
        let shared = &shared;
        let legal = &legal;
        let span_config = self.span_config;
        let outcome = std::thread::scope(|scope| {
            let mut main = None;
            for (id, data) in self.threads.iter_mut().enumerate() {
                let sink: &dyn InfoSink = if id == 0 { sink } else { &() };
                let spawned = std::thread::Builder::new()
                    .name(format!("search-{id}"))
                    .stack_size(SEARCH_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mut w = Worker::new(id, shared, data, &position.history, sink);
                        if id == 0 {
                            w.span = span_config.map(|c| Box::new(span::SpanMeter::new(c)));
                        }
                        let result = w.iterate(&root, legal);
                        shared.nodes[id].0.store(w.nodes, Ordering::Relaxed);
                        let spans = w.span.map(|m| m.iterations().to_vec()).unwrap_or_default();
                        if id == 0 {
                            // UCI: in an infinite or ponder search, the best move waits for
                            // `stop` (or `ponderhit`), even when the search itself is done.
                            control.wait_while_held(limits);
                            shared.stop.store(true, Ordering::Relaxed);
                        }
                        (result, spans)
                    });
                match spawned {
                    Ok(handle) if id == 0 => main = Some(handle),
                    Ok(_) => {}
                    Err(e) => {
                        // Fewer helpers than asked for still give a correct search.
                        sink.report(kogge_search::Report::Message(format!(
                            "could not start search thread {id}: {e}"
                        )));
                        break;
                    }
                }
            }
            let result = main.map(|m| m.join());
            shared.stop.store(true, Ordering::Relaxed);
            result
        });
        let (lines, depth) = match outcome {
            Some(Ok((result, spans))) => {
                self.last_span = spans;
                result
            }
            // The main thread could not start or died: answer with a legal move all the same.
            _ => {
                sink.report(kogge_search::Report::Message(
                    "search thread failed".to_string(),
                ));
                self.last_span.clear();
                (Vec::new(), 0)
            }
        };
        let best_line = lines.into_iter().next().unwrap_or(Line {
            value: 0,
            pv: Vec::new(),
        });
        let best = best_line
            .pv
            .first()
            .copied()
            .filter(|m| legal.contains(m))
            .unwrap_or(legal[0]);
        let ponder = best_line.pv.get(1).copied().or_else(|| {
            // No second move in the line (it ended in the table): ask the table.
            let mut after = root;
            after.play(best);
            self.tt
                .probe(after.hash(), 0)
                .map(|e| e.mv)
                .filter(|&m| !m.is_none() && after.is_legal(m))
        });
        SearchResult {
            best: Some(best),
            ponder,
            value: best_line.value,
            depth,
            nodes: shared.total_nodes(),
        }
    }
}

#[cfg(test)]
mod tests;
