//! One search thread: its per-search state and the iterative-deepening loop. The alpha-beta
//! functions themselves are in `pvs.rs` and `qsearch.rs`.

use crate::history::{History, PieceTo};
use crate::params::*;
use crate::span::SpanMeter;
use crate::tt::TranspositionTable;
use kogge_chess::{Board, Move};
use kogge_search::{
    Bound, Info, InfoSink, Limits, MATE, MAX_PLY, Report, SearchControl, TimeManager, Value,
};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Larger than any value a search returns.
pub const INFINITE: Value = MATE + 1;
/// Values beyond this are mate scores.
pub const MATE_BOUND: Value = MATE - MAX_PLY as Value;

/// What a thread keeps between searches of one game.
#[derive(Default)]
pub struct ThreadData {
    pub history: History,
}

/// A node counter on its own cache line, so that threads publishing their counts do not slow
/// each other down.
#[repr(align(64))]
#[derive(Default)]
pub struct NodeCounter(pub AtomicU64);

/// What the threads of one search share.
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    pub time: TimeManager,
    pub limits: &'a Limits,
    /// Set by the main thread when the search must end; every thread polls it.
    pub stop: AtomicBool,
    /// Node counts of each thread, published every [`CHECK_INTERVAL`] nodes.
    pub nodes: Vec<NodeCounter>,
    pub multipv: usize,
}

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.0.load(Ordering::Relaxed)).sum()
    }
}

/// One ply of the search stack.
#[derive(Clone, Copy)]
pub struct StackEntry {
    /// The static evaluation (`None` in check).
    pub eval: Option<Value>,
    pub killers: [Move; 2],
    /// The piece moved and its target, from this ply to the next (NONE for a null move).
    pub moved: PieceTo,
    pub null_move: bool,
}

impl Default for StackEntry {
    fn default() -> Self {
        StackEntry {
            eval: None,
            killers: [Move::NONE; 2],
            moved: PieceTo::NONE,
            null_move: false,
        }
    }
}

/// A completed principal variation.
#[derive(Clone, Debug, Default)]
pub struct Line {
    pub value: Value,
    pub pv: Vec<Move>,
}

pub struct Worker<'a, 'b> {
    pub id: usize,
    pub shared: &'b Shared<'a>,
    pub history: &'b mut History,
    pub nodes: u64,
    /// Of `nodes`, those of the quiescence search.
    pub qs_nodes: u64,
    /// With the span meter: of `nodes`, those of the main search one ply from the horizon.
    pub frontier_nodes: u64,
    pub seldepth: usize,
    /// Keys of the game history then the search path, for repetitions.
    pub keys: Vec<u64>,
    pub search_start: usize,
    pub stack: Vec<StackEntry>,
    pub pv: Vec<[Move; MAX_PLY + 1]>,
    pub pv_len: [usize; MAX_PLY + 1],
    /// Root moves the current line may play (searchmoves, less the lines already found).
    pub root_moves: Vec<Move>,
    pub lmr: Box<[[i32; 64]; 64]>,
    /// Null-move verification: no null move before this ply.
    pub nmp_min_ply: usize,
    pub stopped: bool,
    /// The depth of the iteration in progress.
    pub root_depth: i32,
    /// The value of the root move that last raised alpha: the first move of `pv[0]`.
    pub root_value: Value,
    pub sink: &'b dyn InfoSink,
    /// `kogge bench --span`: the critical path of a split search over this thread's tree.
    pub span: Option<Box<SpanMeter>>,
}

impl<'a, 'b> Worker<'a, 'b> {
    pub fn new(
        id: usize,
        shared: &'b Shared<'a>,
        data: &'b mut ThreadData,
        history_keys: &[u64],
        sink: &'b dyn InfoSink,
    ) -> Self {
        let mut lmr = Box::new([[0i32; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR) as i32;
            }
        }
        Worker {
            id,
            shared,
            history: &mut data.history,
            nodes: 0,
            qs_nodes: 0,
            frontier_nodes: 0,
            seldepth: 0,
            keys: history_keys.to_vec(),
            search_start: history_keys.len(),
            stack: vec![StackEntry::default(); MAX_PLY + 8],
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_moves: Vec::new(),
            lmr,
            nmp_min_ply: 0,
            stopped: false,
            root_depth: 0,
            root_value: 0,
            sink,
            span: None,
        }
    }

    pub fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Called at every node: every [`CHECK_INTERVAL`] nodes, publishes the node count and (on
    /// the main thread) looks at the clock, the node limit and the protocol's stop flag.
    #[inline]
    pub fn poll(&mut self) {
        if self.nodes % CHECK_INTERVAL != 0 {
            return;
        }
        self.shared.nodes[self.id]
            .0
            .store(self.nodes, Ordering::Relaxed);
        if self.is_main() {
            let s = self.shared;
            // The first iteration always finishes, so that there is a move to play, unless the
            // protocol says stop.
            let out_of_time = self.root_depth > 1 && s.time.hard_limit_passed(s.control);
            let out_of_nodes = s.limits.nodes.is_some_and(|n| s.total_nodes() >= n);
            if s.control.is_stopped() || out_of_time || out_of_nodes {
                s.stop.store(true, Ordering::Relaxed);
            }
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
    }

    /// Copies the child's principal variation behind `mv`.
    #[inline]
    pub fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = mv;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    fn root_pv(&self) -> Vec<Move> {
        self.pv[0][..self.pv_len[0]].to_vec()
    }

    /// Iterative deepening with aspiration windows, over every MultiPV line. Returns the lines
    /// of the last completed iteration and its depth.
    pub fn iterate(&mut self, root: &Board, legal_root_moves: &[Move]) -> (Vec<Line>, u32) {
        let limits = self.shared.limits;
        let max_depth = limits.depth.map_or(MAX_PLY as i32 - 4, |d| {
            (d as i32).clamp(1, MAX_PLY as i32 - 4)
        });
        let allowed: Vec<Move> = if limits.searchmoves.is_empty() {
            legal_root_moves.to_vec()
        } else {
            legal_root_moves
                .iter()
                .copied()
                .filter(|m| limits.searchmoves.contains(m))
                .collect()
        };
        let lines_wanted = self.shared.multipv.clamp(1, allowed.len().max(1));
        let mut completed: Vec<Line> = Vec::new();
        let mut completed_depth = 0;
        let mut stable_iterations = 0u32;
        let mut previous_best = Move::NONE;
        let mut previous_value = 0;

        // Helper threads start one ply further on every other thread, so that they spread
        // over two depths and fill the table ahead of the main thread.
        let first_depth = 1 + (self.id % 2) as i32;
        for depth in first_depth..=max_depth {
            self.root_depth = depth;
            let mut lines: Vec<Line> = Vec::new();
            for line_index in 0..lines_wanted {
                self.root_moves = allowed
                    .iter()
                    .copied()
                    .filter(|m| !lines.iter().any(|l| l.pv.first() == Some(m)))
                    .collect();
                let guess = completed.get(line_index).map_or(0, |l| l.value);
                let Some(line) = self.aspiration(root, depth, guess, line_index) else {
                    break;
                };
                lines.push(line);
            }
            if self.stopped {
                // A stopped iteration's first line is a move searched in full at this depth that
                // beat every move searched before it, the previous best among them (the root
                // tries it first): better informed than the last completed iteration. With
                // several lines, it stands in only when nothing completed.
                if let Some(first) = lines.first()
                    && (completed.is_empty() || lines_wanted == 1)
                {
                    // Shown when it changes the move, so that the last line a GUI sees is the
                    // move played.
                    let changed = completed.first().and_then(|l| l.pv.first()) != first.pv.first();
                    if changed && self.is_main() {
                        self.report_line(depth, 0, first);
                    }
                    completed = vec![first.clone()];
                }
                break;
            }
            lines.sort_by_key(|l| std::cmp::Reverse(l.value));
            if let Some(meter) = self.span.as_deref_mut() {
                meter.end_iteration(depth);
            }
            completed = lines;
            completed_depth = depth as u32;

            if !self.is_main() {
                continue;
            }
            for (i, line) in completed.iter().enumerate() {
                self.report_line(depth, i, line);
            }
            // Stop conditions between iterations.
            let best = &completed[0];
            let best_move = best.pv.first().copied().unwrap_or(Move::NONE);
            stable_iterations = if best_move == previous_best {
                stable_iterations + 1
            } else {
                0
            };
            let falling = (previous_value - best.value).clamp(0, 100) as f64 / 100.0;
            previous_best = best_move;
            previous_value = best.value;
            if let Some(mate) = limits.mate
                && best.value >= MATE - 2 * mate as Value
            {
                break;
            }
            // One legal move, or a forced mate found well inside the depth: nothing to gain.
            if limits.clock.is_some() && allowed.len() == 1 && depth >= 4 {
                break;
            }
            if best.value.abs() >= MATE_BOUND
                && depth as Value >= 2 * (MATE - best.value.abs()) + 6
                && !limits.infinite
            {
                break;
            }
            // A stable best move ends the search early (not a fixed time per move: see
            // `soft_limit_passed`).
            let stability = [2.0, 1.4, 1.1, 0.9, 0.8, 0.7][stable_iterations.min(5) as usize];
            let scale = stability * (1.0 + falling);
            if self
                .shared
                .time
                .soft_limit_passed(self.shared.control, scale)
            {
                break;
            }
        }
        (completed, completed_depth)
    }

    /// One root search of `line_index` at `depth`, widening the window until the value falls
    /// inside it. `None` when stopped before the line's first move was searched.
    fn aspiration(
        &mut self,
        root: &Board,
        depth: i32,
        guess: Value,
        line_index: usize,
    ) -> Option<Line> {
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH {
            (
                (guess - delta).max(-INFINITE),
                (guess + delta).min(INFINITE),
            )
        } else {
            (-INFINITE, INFINITE)
        };
        let mut last: Option<Line> = None;
        loop {
            self.seldepth = 0;
            self.pv_len[0] = 0;
            let value = self.search::<true>(root, alpha, beta, depth, 0, false);
            if self.stopped {
                // The value returned means nothing, but a root move that raised alpha before the
                // stop was searched in full: its line and value stand.
                if self.pv_len[0] > 0 {
                    last = Some(Line {
                        value: self.root_value,
                        pv: self.root_pv(),
                    });
                }
                return last;
            }
            if self.pv_len[0] > 0 {
                // A fail-low PV is not better than the previous line's: keep the old move.
                if value > alpha || last.is_none() {
                    last = Some(Line {
                        value,
                        pv: self.root_pv(),
                    });
                }
            }
            if value <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (value - delta).max(-INFINITE);
                self.report_bound(depth, line_index, value, Bound::Upper);
            } else if value >= beta {
                beta = (value + delta).min(INFINITE);
                self.report_bound(depth, line_index, value, Bound::Lower);
            } else {
                return Some(Line {
                    value,
                    pv: self.root_pv(),
                });
            }
            delta += delta / 2;
        }
    }

    fn info(
        &self,
        depth: i32,
        line_index: usize,
        value: Value,
        bound: Bound,
        pv: Vec<Move>,
    ) -> Info {
        let s = self.shared;
        s.nodes[self.id].0.store(self.nodes, Ordering::Relaxed);
        Info {
            depth: depth as u32,
            seldepth: self.seldepth.max(depth as usize) as u32,
            multipv: line_index as u32 + 1,
            value,
            bound,
            nodes: s.total_nodes(),
            time: s.time.elapsed(),
            hashfull: s.tt.hashfull(),
            pv,
        }
    }

    fn report_line(&self, depth: i32, line_index: usize, line: &Line) {
        self.sink.report(Report::Pv(self.info(
            depth,
            line_index,
            line.value,
            Bound::Exact,
            line.pv.clone(),
        )));
    }

    /// Every aspiration failure of the main thread is reported, as the GPU search reports its
    /// own: the two engines' logs then show their windows alike, and `tools/match/iterations.py`
    /// compares how often each fails in games. (Until the eighty-fourth session only failures
    /// after the first second were, so that a GUI would not be shown many short-lived bounds; a
    /// game's searches of a fifth of a second then showed none.) A helper's failures are not the
    /// search's.
    fn report_bound(&self, depth: i32, line_index: usize, value: Value, bound: Bound) {
        if self.is_main() {
            let pv = self.root_pv();
            self.sink
                .report(Report::Pv(self.info(depth, line_index, value, bound, pv)));
        }
    }
}
