//! `GpuBackend`: the GPU search behind the same [`SearchBackend`] interface as the CPU search.
//! The host runs iterative deepening, aspiration windows and the clock; each iteration runs on
//! the device ([`GpuSearch::iterate`]); MultiPV and `searchmoves` limit the root moves the
//! kernel searches. Whenever the GPU cannot serve — no device, a build or launch failure — it
//! says so in an `info string` and the CPU search answers instead, so a game never stops on it.

use crate::driver::{GpuSearch, GpuSearchOptions, Outcome};
use crate::layout::{Finisher, ParallelMode};
use kogge_chess::{Board, Move};
use kogge_gpu::{DeviceInfo, GpuError};
use kogge_search::{
    Bound, DEFAULT_MOVE_OVERHEAD, DEFAULT_SLOW_MOVER, GamePosition, Info, InfoSink, Limits, MATE,
    Report, SearchBackend, SearchControl, SearchResult, TimeManager, Value,
};
use kogge_search_cpu::CpuSearch;
use kogge_search_cpu::params::{ASPIRATION_MIN_DEPTH, ASPIRATION_WINDOW};
use std::time::{Duration, Instant};

/// Deepest iteration the GPU runs (its stack holds `GPU_MAX_PLY` plies, and extensions and
/// quiescence need room beyond the nominal depth).
const MAX_GPU_DEPTH: u32 = 48;

/// Iterations a best move must hold for the clock's rule to count it settled (the soft limit
/// scaled by 0.7, the least).
const SETTLED_ITERATIONS: u32 = 5;
/// The clock's soft limit scaled by the iterations the best move has held (0 to
/// `SETTLED_ITERATIONS`).
const STABILITY_SCALE: [f64; SETTLED_ITERATIONS as usize + 1] = [2.0, 1.4, 1.1, 0.9, 0.8, 0.7];

/// Under `GPU Finisher closing`, the share of the clock's soft limit (scaled as the last
/// iteration left it) after which an iteration is taken for the search's last and `checked` ends
/// it. An iteration takes about as long as all before it, and a checked one longer, so one that
/// starts past about 0.45 of the limit mostly ends past it. A first guess, to be tuned in games.
const CLOSING_FROM: f64 = 0.4;

/// The GPU's soft limit in percent of the clock's (the shared [`TimeManager`]'s), before UCI
/// `Slow Mover` scales it further. The GPU's iterations come in lumps (a depth takes 1.7 times the
/// one before, median, the CPU's 1.5), so at the shared limit its moves took 1.7-1.8 times the
/// soft limit in moves 1-40 where 16 threads' took 1.3-1.4, and the time went to the opening
/// moves a game can least spare it for. At 75 its moves take 1.3-1.4 times the unscaled limit, as
/// the CPU's, and it played the default (100) GPU against GPU at 3 s + 0.03 s 69/186/47 in 302
/// games, +25 Elo [+1, +50], and 16 threads at 10 s + 0.1 s +3.7 points a game better, paired
/// on the same openings (sixty-seventh and sixty-eighth sessions, docs/STRENGTH.md).
const GPU_SOFT_LIMIT_PERCENT: u32 = 75;

/// A search that starts at its root entry's depth and has completed no depth once this share of
/// the scaled soft limit has passed gives that iteration up and searches `ENTRY_RETREAT` plies
/// shallower: the entry's depth came from helpers searching ahead, another path or a line that
/// went through cheap repetitions, and in games on the H200 (10 s + 0.1 s against 16 threads)
/// 4% of the GPU's searches completed their first depth past twice the soft limit or never (run
/// to the hard limit, playing the entry's move unchecked). With the guard 0.4% did, and it played
/// the same openings 5.9 points a game better, paired, [-5.6, +17.4] in 17 games, at the same
/// mean depth against 16 threads' (seventy-sixth session, docs/STRENGTH.md). It is not free: it
/// fired in 15% of the searches (the first depth at this point would mostly have completed within
/// twice the limit), and 102 of those 174 ended at the retreat's depth; after an unexpected reply
/// more searches ended at depth 16 or less. Where it should fire is not measured.
const ENTRY_GUARD: f64 = 1.0;
/// Plies below the entry's depth that a guarded search starts again at (see `ENTRY_GUARD`).
const ENTRY_RETREAT: u32 = 3;

/// The UCI options that shape the GPU search's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockOptions {
    /// UCI `Move Overhead`: time kept back each move for the link and the GUI.
    pub move_overhead: Duration,
    /// UCI `Slow Mover`: the GPU's soft limit in percent (see `GPU_SOFT_LIMIT_PERCENT`).
    pub slow_mover: u32,
}

impl ClockOptions {
    /// For searches to a depth or a node count, which no clock ends: no overhead, no scaling.
    pub const UNTIMED: ClockOptions = ClockOptions {
        move_overhead: Duration::ZERO,
        slow_mover: DEFAULT_SLOW_MOVER,
    };
}

impl Default for ClockOptions {
    /// The UCI options' defaults.
    fn default() -> ClockOptions {
        ClockOptions {
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            slow_mover: DEFAULT_SLOW_MOVER,
        }
    }
}

const INFINITE: Value = MATE + 1;
const MATE_BOUND: Value = MATE - 2 * crate::layout::GPU_MAX_PLY as Value;

pub struct GpuBackend {
    gpu: Option<GpuSearch>,
    /// The device the GPU search was opened on (reopened on `Hash`/`Workers` changes).
    info: Option<DeviceInfo>,
    options: GpuSearchOptions,
    /// The search when the GPU's is not there or fails.
    cpu: CpuSearch,
    /// The table (MiB) the CPU search gets once the GPU's is gone. A table is written in full
    /// when made (up to 1 GiB of host memory here), so not while the GPU search serves.
    cpu_hash_mb: Option<usize>,
    clock: ClockOptions,
    /// Said at the next search: why the GPU is not used.
    note: Option<String>,
    multipv: usize,
}

impl GpuBackend {
    /// The GPU search on `info` with `options`, or — if it cannot be opened — the CPU search,
    /// with the reason kept for the first `info string`. `cpu_threads` sizes the fallback.
    pub fn open(
        info: Option<DeviceInfo>,
        options: GpuSearchOptions,
        cpu_threads: usize,
    ) -> GpuBackend {
        let mut b = GpuBackend {
            gpu: None,
            info,
            cpu: CpuSearch::new(1, cpu_threads.max(1)),
            cpu_hash_mb: Some(options.hash_mb.clamp(1, 1024)),
            options,
            clock: ClockOptions::default(),
            note: None,
            multipv: 1,
        };
        b.reopen();
        b
    }

    /// (Re)builds the GPU search with the current options.
    fn reopen(&mut self) {
        self.gpu = None;
        match &self.info {
            None => self.note = Some("no GPU device found; searching on the CPU".into()),
            Some(info) => match GpuSearch::open(info, self.options.clone()) {
                Ok(gpu) => {
                    self.gpu = Some(gpu);
                    self.note = None;
                }
                Err(e) => {
                    self.note = Some(format!(
                        "GPU search unavailable ({e}); searching on the CPU"
                    ))
                }
            },
        }
        if self.gpu.is_none() {
            self.size_cpu_table();
        }
    }

    /// Gives the CPU search its table, once it is the search: outside any search's clock where
    /// the GPU's is lost between searches.
    fn size_cpu_table(&mut self) {
        if let Some(mb) = self.cpu_hash_mb.take() {
            self.cpu.set_hash_mb(mb);
        }
    }

    /// Whether the GPU search is in use.
    pub fn on_gpu(&self) -> bool {
        self.gpu.is_some()
    }

    pub fn set_workers(&mut self, workers: usize) {
        if workers != self.options.workers && workers > 0 {
            self.options.workers = workers;
            self.reopen();
        }
    }

    pub fn set_mode(&mut self, mode: ParallelMode) {
        if mode != self.options.mode {
            self.options.mode = mode;
            self.reopen();
        }
    }

    /// Who ends an iteration: a launch parameter, so the open search takes it with its table
    /// kept (the kernel is rebuilt for `checked` and back: GpuSearch::set_finisher).
    pub fn set_finisher(&mut self, finisher: Finisher) {
        self.options.finisher = finisher;
        if let Some(gpu) = &mut self.gpu
            && let Err(e) = gpu.set_finisher(finisher)
        {
            self.gpu = None;
            self.note = Some(format!(
                "GPU search unavailable ({e}); searching on the CPU"
            ));
            self.size_cpu_table();
        }
    }

    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.clock.move_overhead = overhead;
        self.cpu.set_move_overhead(overhead);
    }

    /// The clock's soft limit in percent (UCI `Slow Mover`), for both searches: of the GPU's own
    /// (`GPU_SOFT_LIMIT_PERCENT` of the shared limit) and of the CPU fallback's.
    pub fn set_slow_mover(&mut self, percent: u32) {
        self.clock.slow_mover = percent;
        self.cpu.set_slow_mover(percent);
    }

    pub fn workers(&self) -> usize {
        self.options.workers
    }
}

/// Iterative deepening on the GPU: aspiration windows, the clock, `info` lines; each iteration
/// runs on the device. `Err` only for device failures (the caller falls back to the CPU).
/// `legal` are the root's legal moves (not empty). `multipv` lines, as the CPU search does them:
/// at each depth the first line searches every root move `limits.searchmoves` allows (all,
/// without it), each next line the moves the lines before it did not play, and the lines are
/// reported best first.
#[allow(clippy::too_many_arguments)]
pub fn iterative_deepening(
    gpu: &mut GpuSearch,
    position: &GamePosition,
    limits: &Limits,
    control: &SearchControl,
    sink: &dyn InfoSink,
    legal: &[Move],
    start: Instant,
    clock: ClockOptions,
    multipv: usize,
) -> Result<SearchResult, GpuError> {
    let time = gpu_time_manager(limits, start, clock);
    // Only the positions since the last capture or pawn move can repeat the root's
    // descendants: the rest would only fill the kernel's repetition filter (game_keys.rs).
    let window = position.board.halfmove_clock() as usize;
    gpu.new_search(&position.history[position.history.len().saturating_sub(window)..])?;
    let root = position.board;
    let max_depth = limits
        .depth
        .map_or(MAX_GPU_DEPTH, |d| d.clamp(1, MAX_GPU_DEPTH));
    gpu.set_depth_limit(helpers_ahead_limit(limits, max_depth) as i32);
    // The root moves the search may play: `searchmoves` (the legal ones among them), or all.
    let mut allowed: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
        .collect();
    if allowed.is_empty() {
        allowed = legal.to_vec();
    }
    let lines_wanted = multipv.clamp(1, allowed.len());
    let mut result = SearchResult {
        best: allowed.first().copied(),
        ponder: None,
        value: 0,
        depth: 0,
        nodes: 0,
    };
    // The last completed depth's lines, best first.
    let mut completed: Vec<crate::Iteration> = Vec::new();
    let mut total_nodes = 0u64;
    let mut previous_best = Move::NONE;
    let mut stable = 0u32;
    let mut previous_value: Value = 0;

    // Where an earlier search of this game left the root in the table (two plies ago, on its
    // principal variation, or the same position analysed again), start at that entry's depth.
    // The shallow iterations a CPU search runs almost free on a warm table each cost the GPU
    // the finisher's nodes times 6 to 7 microseconds of latency. Replaying games at 0.1 s a move
    // (`bench/game-depths.py`, thirty-second session), depths three and more below the last were
    // 46% of the completed iterations' time from move 41 on; starting here the mean depth there
    // went from 16.5 to 18.3 (13.9 to 14.5 in moves 21-40). Until an iteration completes, the
    // entry's move is the one to play.
    let start_entry = if lines_wanted == 1 {
        gpu.table_entry(root.hash())?
            .filter(|e| allowed.contains(&e.best))
    } else {
        None
    };
    let first_depth = start_entry.map_or(1, |e| (e.depth.max(1) as u32).min(max_depth));
    if let Some(entry) = start_entry {
        result.best = Some(entry.best);
        result.value = entry.score;
        // The clock's stability rule as deepening from depth 1 would have it by now: the
        // entry's move settled over the iterations skipped (the last search's), its value the
        // one to fall from. Counted from nothing, the first iterations here stretched the soft
        // limit up to 2x, and the moves of a game's first 20 took a third longer (median) than
        // the CPU's (16 threads, 10 s + 0.1 s).
        previous_best = entry.best;
        previous_value = entry.score;
        stable = SETTLED_ITERATIONS;
    }

    // The next depth to search: past the last completed one, which is deeper than asked where a
    // helper searching ahead of the iteration ended it.
    let mut next_depth = first_depth;
    // The clock's scale of the soft limit after the last completed iteration (see below).
    let mut time_scale = STABILITY_SCALE[stable.min(SETTLED_ITERATIONS) as usize];
    // Whether `ENTRY_GUARD` may still end the first iteration: once, and only one started at the
    // entry's depth (a clock's soft limit: `go depth`, `nodes` and `movetime` have none).
    let mut guard_armed = start_entry.is_some() && first_depth > 1;
    let mut depths = first_depth..=max_depth;
    'deepening: while let Some(depth) = depths.next() {
        if depth < next_depth {
            continue;
        }
        // Under `GPU Finisher closing`, `checked` ends the iterations likely to be the last: the
        // depth asked for, or on a clock one started past CLOSING_FROM of the scaled soft limit
        // (a fixed time a move has no soft limit: its iterations stay `any`'s).
        gpu.set_closing(
            (limits.depth.is_some() && depth == max_depth)
                || time.soft_limit_passed(control, CLOSING_FROM * time_scale),
        );
        let mut lines: Vec<crate::Iteration> = Vec::new();
        for line_index in 0..lines_wanted {
            let root_moves: Vec<Move> = allowed
                .iter()
                .copied()
                .filter(|m| !lines.iter().any(|l| l.best == *m))
                .collect();
            // All legal moves: no list for the kernel to check.
            gpu.set_root_moves(if root_moves.len() == legal.len() {
                &[]
            } else {
                &root_moves
            })?;
            let mut delta = ASPIRATION_WINDOW;
            let guess = completed.get(line_index).map_or(result.value, |l| l.score);
            let (mut alpha, mut beta) = if depth as i32 >= ASPIRATION_MIN_DEPTH {
                (
                    (guess - delta).max(-INFINITE),
                    (guess + delta).min(INFINITE),
                )
            } else {
                (-INFINITE, INFINITE)
            };
            // A fail high's move beat the best of the last iteration by a margin: if the clock
            // runs out before the wider window settles, it is the better move to play.
            let mut fail_high: Option<(Move, Value)> = None;
            // The depth this line is searched to: the loop's, or deeper once a helper searching
            // ahead failed high or low at its own depth, so that the window is widened where the
            // deeper result was found and the depths reported never fall.
            let mut search_depth = depth;
            let iteration = loop {
                let nodes_before = total_nodes;
                let guard_due = || {
                    guard_armed
                        && depth == first_depth
                        && completed.is_empty()
                        && time.soft_limit_passed(control, ENTRY_GUARD * time_scale)
                };
                // Depth 1 always completes, as on a clock, so that `go nodes 1` plays a move
                // it searched (the CPU search's poll comes after 1,024 nodes, past depth 1).
                let node_limit = limits.nodes.filter(|_| depth > 1);
                let mut stop = |nodes: u64| {
                    control.is_stopped()
                        || (depth > 1 && time.hard_limit_passed(control))
                        || node_limit.is_some_and(|n| nodes_before + nodes >= n)
                        || guard_due()
                };
                gpu.set_node_budget(node_limit.map(|n| n.saturating_sub(nodes_before)));
                match gpu.iterate(&root, search_depth as i32, alpha, beta, &mut stop)? {
                    Outcome::Stopped { nodes, .. }
                        if guard_due()
                            && !control.is_stopped()
                            && !time.hard_limit_passed(control) =>
                    {
                        total_nodes += nodes;
                        guard_armed = false;
                        let shallower = depth.saturating_sub(ENTRY_RETREAT).max(1);
                        sink.report(Report::Message(format!(
                            "depth {depth} from the table's entry not done by {ENTRY_GUARD}x \
                             the soft limit: searching depth {shallower} instead"
                        )));
                        next_depth = shallower;
                        depths = shallower..=max_depth;
                        continue 'deepening;
                    }
                    Outcome::Stopped { nodes, partial } => {
                        total_nodes += nodes;
                        // As the CPU search: a root move searched in full at this depth that
                        // beat the others searched before it (the previous best among them,
                        // tried first) is better informed than the last completed iteration.
                        // With several lines it stands in only when no depth completed.
                        if let Some((mv, value)) = partial.or(fail_high)
                            && line_index == 0
                            && (lines_wanted == 1 || completed.is_empty())
                            && root_moves.contains(&mv)
                            && depth > 1
                        {
                            // Shown, so that the last line a GUI sees is the move played: a
                            // new move, or the entry's with no completed depth behind it (no line
                            // said it yet).
                            if result.best != Some(mv) || completed.is_empty() {
                                let line = (search_depth, value, mv, Bound::Exact);
                                report_move(sink, gpu, line, total_nodes, start);
                                result.ponder = None;
                            }
                            result.best = Some(mv);
                            result.value = value;
                        } else if completed.is_empty()
                            && let Some(entry) = start_entry
                            && result.best == Some(entry.best)
                        {
                            // Stopped in the first iteration with no better-informed move: the
                            // entry's is played, and said, so that the GUI sees a line for it.
                            let depth = entry.depth.max(1) as u32;
                            let line = (depth, entry.score, entry.best, entry.bound);
                            report_move(sink, gpu, line, total_nodes, start);
                        }
                        break 'deepening;
                    }
                    Outcome::Done(it) => {
                        total_nodes += it.nodes;
                        let bound = if it.score <= alpha {
                            Bound::Upper
                        } else if it.score >= beta {
                            Bound::Lower
                        } else {
                            Bound::Exact
                        };
                        if bound == Bound::Exact {
                            break it;
                        }
                        let hashfull = gpu.hashfull().unwrap_or(0);
                        report(
                            sink,
                            &it,
                            line_index + 1,
                            bound,
                            total_nodes,
                            start,
                            hashfull,
                        );
                        if bound == Bound::Lower {
                            fail_high = Some((it.best, it.score));
                        }
                        search_depth = search_depth.max(it.depth);
                        if bound == Bound::Upper {
                            beta = (alpha + beta) / 2;
                            alpha = (it.score - delta).max(-INFINITE);
                        } else {
                            beta = (it.score + delta).min(INFINITE);
                        }
                        delta += delta / 2;
                    }
                }
            };
            // A move the device got wrong would lose the game: only a move of this line's
            // root is taken.
            if !root_moves.contains(&iteration.best) {
                sink.report(Report::Message(format!(
                    "GPU search returned a root move it was not given, {}; ignored",
                    iteration.best
                )));
                break;
            }
            lines.push(iteration);
        }
        if lines.is_empty() {
            continue;
        }
        // Each line searched the moves the lines before it left, so a later line may score
        // higher than an earlier one (a deeper look, another window): best first.
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        let hashfull = gpu.hashfull().unwrap_or(0);
        for (i, line) in lines.iter().enumerate() {
            report(
                sink,
                line,
                i + 1,
                Bound::Exact,
                total_nodes,
                start,
                hashfull,
            );
        }
        let best = &lines[0];
        result.best = Some(best.best);
        result.ponder = best.pv.get(1).copied();
        result.value = best.score;
        result.depth = set_depth(&lines);
        next_depth = result.depth + 1;

        stable = if best.best == previous_best {
            stable + 1
        } else {
            0
        };
        let falling = (previous_value - best.score).clamp(0, 100) as f64 / 100.0;
        previous_best = best.best;
        previous_value = best.score;
        let best_score = best.score;
        completed = lines;
        if let Some(mate) = limits.mate
            && best_score >= MATE - 2 * mate as Value
        {
            break;
        }
        if limits.clock.is_some() && allowed.len() == 1 && depth >= 4 {
            break;
        }
        if best_score.abs() >= MATE_BOUND
            && depth as Value >= 2 * (MATE - best_score.abs()) + 6
            && !limits.infinite
        {
            break;
        }
        // A stable best move ends the search early (not a fixed time per move: see
        // `soft_limit_passed`).
        let stability = STABILITY_SCALE[stable.min(SETTLED_ITERATIONS) as usize];
        time_scale = stability * (1.0 + falling);
        if time.soft_limit_passed(control, time_scale) {
            break;
        }
        // `go nodes`: no new depth once they are spent (the CPU search's own test of them
        // comes at its next poll, 1,024 nodes on).
        if limits.nodes.is_some_and(|n| total_nodes >= n) {
            break;
        }
    }
    gpu.set_node_budget(None);
    if result.ponder.is_none()
        && let Some(best) = result.best
    {
        result.ponder = ponder_from_table(gpu, &root, best);
    }
    control.wait_while_held(limits);
    result.nodes = total_nodes;
    Ok(result)
}

/// The reply to `best` that the table holds, for `bestmove ... ponder` where no completed line
/// gave one: a move from a stopped iteration, the root entry's, or a line that ended in the
/// table. The CPU search asks its table the same; in games the GPU's `bestmove` lacked a ponder
/// move in 29 of 1,122 searches (seventy-sixth session). `None` where the table has no legal one.
fn ponder_from_table(gpu: &GpuSearch, root: &Board, best: Move) -> Option<Move> {
    let mut after = *root;
    after.play(best);
    let entry = gpu.table_entry(after.hash()).ok().flatten()?;
    after.is_legal(entry.best).then_some(entry.best)
}

/// The GPU search's clock: the shared time manager's limits, the soft one scaled by
/// `GPU_SOFT_LIMIT_PERCENT` and by `Slow Mover`, the hard one as it is. A fixed time a move is
/// used in full, as on the CPU.
fn gpu_time_manager(limits: &Limits, start: Instant, clock: ClockOptions) -> TimeManager {
    let scale = f64::from(clock.slow_mover) / 100.0 * f64::from(GPU_SOFT_LIMIT_PERCENT) / 100.0;
    TimeManager::new(limits, clock.move_overhead, start).with_soft_scale(scale)
}

/// The deepest a helper searching ahead of an iteration (`DEEPER_HELPERS`) may search the root: a
/// ply short of a depth asked for (`go depth`), which is then searched by an iteration of its
/// own, every worker at it, after the one before; the search's last depth otherwise. A helper
/// that jumped to the depth asked from two plies back, noisy and on a table that knew less, could
/// end the search there: on the H200 the mate in 2 of WAC's
/// r1bq1r1k/1pp1Np1p/p2p2pQ/4R3/n7/8/PPPP1PPP/R1B3K1 w (1.Rh5) went unseen at depth 7 in 15 of
/// 4,000 searches by 264 workers, 2 of 4,000 with this limit, none of 2,000 with no helper ahead.
/// (The driver never lets the limit fall below the iteration's own depth.)
fn helpers_ahead_limit(limits: &Limits, max_depth: u32) -> u32 {
    if limits.depth.is_some() {
        max_depth.saturating_sub(1).max(1)
    } else {
        max_depth
    }
}

/// The depth a set of lines completed: its shallowest line's. A helper searching ahead may end one
/// line's iteration deeper than the others (line 1 at depth 5, lines 2 and 3 at depth 4); the
/// next iteration must still search those to depth 5, or `go depth 5` would end with lines at
/// depth 4 (the CUDA selftest's MultiPV check failed so in 5 of 40 runs on the H200).
fn set_depth(lines: &[crate::Iteration]) -> u32 {
    lines.iter().map(|l| l.depth).min().unwrap_or(0)
}

/// A line of one move, `(depth, score, move, bound)`, for a move played without a completed
/// iteration behind it (a stopped iteration's best so far, the table's move).
fn report_move(
    sink: &dyn InfoSink,
    gpu: &GpuSearch,
    (depth, score, best, bound): (u32, Value, Move, Bound),
    nodes: u64,
    start: Instant,
) {
    let it = crate::Iteration {
        depth,
        seldepth: depth,
        score,
        best,
        pv: vec![best],
        nodes,
        tt_cutoffs: 0,
        etc_cutoffs: 0,
        worker: 0,
    };
    let hashfull = gpu.hashfull().unwrap_or(0);
    report(sink, &it, 1, bound, nodes, start, hashfull);
}

fn report(
    sink: &dyn InfoSink,
    it: &crate::Iteration,
    multipv: usize,
    bound: Bound,
    nodes: u64,
    start: Instant,
    hashfull: u32,
) {
    let pv = if it.pv.first() == Some(&it.best) {
        it.pv.clone()
    } else {
        vec![it.best]
    };
    sink.report(Report::Pv(Info {
        depth: it.depth,
        seldepth: it.seldepth.max(it.depth),
        multipv: multipv as u32,
        value: it.score,
        bound,
        nodes,
        time: start.elapsed(),
        hashfull,
        pv,
    }));
}

impl SearchBackend for GpuBackend {
    fn name(&self) -> String {
        match (&self.gpu, &self.info) {
            (Some(g), _) => format!(
                "{}: {}, {} workers",
                g.device().info().backend,
                g.device().info().name,
                self.options.workers
            ),
            _ => self.cpu.name(),
        }
    }

    fn set_hash_mb(&mut self, mb: usize) {
        self.cpu_hash_mb = Some(mb.clamp(1, 1024));
        if mb != self.options.hash_mb {
            self.options.hash_mb = mb.max(1);
            self.reopen();
        }
        if self.gpu.is_none() {
            self.size_cpu_table();
        }
    }

    fn set_threads(&mut self, threads: usize) {
        // `Threads` sizes the CPU search; the GPU has `Workers`.
        self.cpu.set_threads(threads);
    }

    fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines.max(1);
        self.cpu.set_multipv(lines);
    }

    fn clear(&mut self) {
        self.cpu.clear();
        if let Some(gpu) = self.gpu.as_mut()
            && let Err(e) = gpu.clear()
        {
            self.note = Some(format!("GPU search failed ({e}); searching on the CPU"));
            self.gpu = None;
            self.size_cpu_table();
        }
    }

    fn search(
        &mut self,
        position: &GamePosition,
        limits: &Limits,
        control: &SearchControl,
        sink: &dyn InfoSink,
    ) -> SearchResult {
        if let Some(note) = self.note.take() {
            sink.report(Report::Message(note));
        }
        let legal: Vec<Move> = position.board.legal_moves().iter().copied().collect();
        if self.gpu.is_none() || legal.is_empty() {
            return self.cpu.search(position, limits, control, sink);
        }
        let start = Instant::now();
        let Some(gpu) = self.gpu.as_mut() else {
            return self.cpu.search(position, limits, control, sink);
        };
        match iterative_deepening(
            gpu,
            position,
            limits,
            control,
            sink,
            &legal,
            start,
            self.clock,
            self.multipv,
        ) {
            Ok(result) => result,
            Err(e) => {
                sink.report(Report::Message(format!(
                    "GPU search failed ({e}); searching on the CPU from now on"
                )));
                self.gpu = None;
                self.size_cpu_table();
                // The time the GPU used (and the table's making) is gone: the CPU search plans
                // its own on what is left of the clock (or of a fixed move time), as for any move.
                let used = start.elapsed();
                let mut rest = limits.clone();
                if let Some(clock) = rest.clock.as_mut() {
                    clock.time = clock.time.saturating_sub(used);
                }
                if let Some(movetime) = rest.movetime.as_mut() {
                    *movetime = movetime.saturating_sub(used).max(Duration::from_millis(10));
                }
                self.cpu.search(position, &rest, control, sink)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(depth: u32) -> crate::Iteration {
        crate::Iteration {
            depth,
            seldepth: depth,
            score: 0,
            best: Move::NONE,
            pv: Vec::new(),
            nodes: 0,
            tt_cutoffs: 0,
            etc_cutoffs: 0,
            worker: 0,
        }
    }

    #[test]
    fn a_set_of_lines_is_as_deep_as_its_shallowest_line() {
        // Line 1 ended a ply deeper by a helper searching ahead: the set is at depth 4, so the
        // next iteration searches every line to depth 5.
        assert_eq!(set_depth(&[line(5), line(4), line(4)]), 4);
        assert_eq!(set_depth(&[line(4), line(6)]), 4);
        assert_eq!(set_depth(&[line(7)]), 7);
    }

    #[test]
    fn helpers_search_ahead_to_a_ply_short_of_the_depth_asked() {
        assert_eq!(helpers_ahead_limit(&Limits::depth(7), 7), 6);
        assert_eq!(helpers_ahead_limit(&Limits::depth(1), 1), 1);
        // On a clock, or without a limit, up to the search's last depth.
        let clock = Limits::default();
        assert_eq!(helpers_ahead_limit(&clock, MAX_GPU_DEPTH), MAX_GPU_DEPTH);
    }

    #[test]
    fn the_gpu_stops_sooner_on_a_clock_and_uses_a_fixed_time_in_full() {
        let start = Instant::now();
        let overhead = Duration::from_millis(10);
        let clock = Limits {
            clock: Some(kogge_search::Clock {
                time: Duration::from_millis(10_000),
                increment: Duration::from_millis(100),
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let shared = TimeManager::new(&clock, overhead, start);
        let (soft, hard) = (shared.soft_limit().unwrap(), shared.hard_limit().unwrap());
        let options = ClockOptions {
            move_overhead: overhead,
            slow_mover: 100,
        };
        let gpu = gpu_time_manager(&clock, start, options);
        assert_eq!(
            gpu.soft_limit().unwrap(),
            soft.mul_f64(f64::from(GPU_SOFT_LIMIT_PERCENT) / 100.0)
        );
        assert_eq!(gpu.hard_limit().unwrap(), hard);
        // `Slow Mover` scales the GPU's own limit: 200 doubles it.
        let slow = gpu_time_manager(
            &clock,
            start,
            ClockOptions {
                slow_mover: 200,
                ..options
            },
        );
        assert_eq!(
            slow.soft_limit().unwrap(),
            soft.mul_f64(f64::from(2 * GPU_SOFT_LIMIT_PERCENT) / 100.0)
                .min(hard)
        );
        // Not rounded to a whole percent: `Slow Mover` 33 is 24.75% of the shared limit, not 24%.
        let odd = gpu_time_manager(
            &clock,
            start,
            ClockOptions {
                slow_mover: 33,
                ..options
            },
        );
        assert_eq!(
            odd.soft_limit().unwrap(),
            soft.mul_f64(33.0 / 100.0 * f64::from(GPU_SOFT_LIMIT_PERCENT) / 100.0)
        );
        // A fixed time a move: no soft limit ends the search, only the hard one (the time less
        // the overhead), as on the CPU.
        let fixed = gpu_time_manager(
            &Limits::movetime(Duration::from_millis(2)),
            Instant::now(),
            ClockOptions::UNTIMED,
        );
        let control = SearchControl::new();
        std::thread::sleep(Duration::from_millis(3));
        assert!(!fixed.soft_limit_passed(&control, 0.5));
        assert!(fixed.hard_limit_passed(&control));
    }

    #[test]
    fn without_a_gpu_the_cpu_search_gets_its_table_at_once() {
        let options = GpuSearchOptions {
            workers: 1,
            hash_mb: 64,
            mode: ParallelMode::default(),
            finisher: Finisher::default(),
        };
        // No device: the CPU search is the search from the start, with the table asked for.
        let mut backend = GpuBackend::open(None, options, 1);
        assert!(!backend.on_gpu());
        assert_eq!(backend.cpu.table_mb(), 64);
        backend.set_hash_mb(32);
        assert_eq!(backend.cpu.table_mb(), 32);
    }
}
