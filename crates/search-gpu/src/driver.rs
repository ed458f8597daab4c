//! `GpuSearch`: the host side of one iteration of the GPU search. It owns the device, the built
//! kernel and every buffer (allocated once, kept between searches: per-move set-up is a few
//! small copies), and runs an iteration as a series of short launches ("slices"), looking at
//! the caller's stop condition between two of them.

mod diagnostics;
mod finish;

use diagnostics::{CONTROL_DIAG_TAG, control_diag_table};
pub use diagnostics::{CyclePart, NodeCounts};
use finish::{FinishPick, Finished, helper_may_end, iteration_over, pick_finisher};

use crate::game_keys::{GAME_FILTER_WORDS, GAME_KEYS, game_keys_buffer};
use crate::kernel_source::{search_defines, search_source};
use crate::layout::{
    BUSY_ENTRIES, Finisher, GPU_MAX_PLY, HISTORY_WORDS, MAX_MOVES, MAX_ROOT_MOVES, PARTIAL_CLEAN,
    ParallelMode, ROOT_MARGIN, SPLITS_PER_WORKER, START_ALL, START_KEEP, STATUS_BROKEN,
    STATUS_DONE, STATUS_HELPED, STATUS_IDLE, STATUS_RUNNING, SearchParams, TT_BUCKET,
    TT_ENTRY_BYTES, WORKER_LANES, WorkerResult,
};
use crate::line_table::line_table;
use kogge_chess::{Board, Move};
use kogge_gpu::{Arg, Buffer, Device, DeviceInfo, GpuError, Kernel, Module};
use kogge_search::Bound;
use std::time::{Duration, Instant};

/// A slice aims at this long on the device: long enough that launch overhead is small, short
/// enough that `stop` and the clock are answered quickly.
const SLICE_TARGET: Duration = Duration::from_millis(4);

/// The most nodes per worker in one slice (on average over the workers: the kernel ends a launch
/// when they have entered this many each together), whatever the last slices took: a budget grown on
/// cheap endgame nodes must not turn into a slice of seconds when the nodes get dear again (a
/// game at 10 s + 0.1 s lost on time that way). A worker does 30 to 100 thousand nodes a
/// second on the H100, so this is 10 to 35 ms.
const MAX_SLICE_NODES: u32 = 1024;

/// The fewest nodes per worker a slice asks for once launches run long. A worker ends its launch
/// only after a quarter of its share (at least one node, resumed where it was), so a launch is at
/// least `workers * MIN_SLICE_NODES / 4` nodes: where a device is slow for its worker count (a
/// CPU through PoCL, with thousands of workers) that floor is what `stop` waits for.
const MIN_SLICE_NODES: u32 = 4;

/// The root move with the highest value among `results`' best moves so far (`partial_move`, its
/// flag above the move dropped), with that value; `None` where none has one.
fn best_partial<'a>(results: impl Iterator<Item = &'a WorkerResult>) -> Option<(Move, i32)> {
    results
        .filter(|r| r.partial_move != 0)
        .max_by_key(|r| r.partial_score)
        .map(|r| (Move::from_raw(r.partial_move as u16), r.partial_score))
}

/// The node budget of the slice after one of `nodes` that took `took`: doubled when it took under
/// half of [`SLICE_TARGET`], halved when over twice, within [`MIN_SLICE_NODES`] and
/// [`MAX_SLICE_NODES`].
fn next_slice_nodes(nodes: u32, took: Duration) -> u32 {
    if took < SLICE_TARGET / 2 && nodes < MAX_SLICE_NODES {
        nodes * 2
    } else if took > SLICE_TARGET * 2 && nodes > MIN_SLICE_NODES {
        nodes / 2
    } else {
        nodes
    }
}

/// What a GPU search is made of.
#[derive(Clone, Debug)]
pub struct GpuSearchOptions {
    /// Workers (work-groups of one warp each).
    pub workers: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    pub mode: ParallelMode,
    /// Who ends an iteration: any worker (Zeta's rule), a helper only where its result agrees
    /// with the others', or worker 0 alone. Every worker's result is a full search of the root:
    /// the `helper_mates` example checks that they prove the CPU's mates.
    pub finisher: Finisher,
}

impl GpuSearchOptions {
    /// A default for `info`: two workers per multiprocessor (one per core on a CPU device such
    /// as PoCL), ABDADA over RMO, and the default finisher ([`Finisher::Clean`]: worker 0 or a
    /// helper in its order ends an iteration). More workers add nodes per second but mostly
    /// search what the others search (docs/PERFORMANCE.md).
    pub fn for_device(info: &DeviceInfo) -> GpuSearchOptions {
        let units = info.compute_units.max(1) as usize;
        GpuSearchOptions {
            workers: if info.is_cpu { units } else { 2 * units },
            hash_mb: 256,
            mode: ParallelMode::AbdadaRmo,
            finisher: Finisher::default(),
        }
    }
}

/// One finished iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// The depth the reporting worker searched (helpers may search deeper than asked).
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub best: Move,
    /// The principal variation, checked legal move by move on the host.
    pub pv: Vec<Move>,
    /// Nodes of every worker in this iteration.
    pub nodes: u64,
    /// Of those, the nodes that ended on the table's bound as soon as they were entered.
    pub tt_cutoffs: u64,
    /// And the nodes cut by a child's bound in the table before searching a move (ETC).
    pub etc_cutoffs: u64,
    /// The worker whose result this is.
    pub worker: usize,
}

/// How an iteration ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Done(Iteration),
    /// Stopped by the caller; `nodes` were searched. `partial` is the best root move that some
    /// worker had searched in full at this depth (it raised that worker's alpha), with its
    /// value: the highest such value over the workers.
    Stopped {
        nodes: u64,
        partial: Option<(Move, i32)>,
    },
}

pub struct GpuSearch {
    device: Device,
    _module: Module,
    search: Kernel,
    options: GpuSearchOptions,
    params: Buffer<SearchParams>,
    stacks: Buffer<u8>,
    results: Buffer<WorkerResult>,
    lists: Buffer<u32>,
    histories: Buffer<i32>,
    pvs: Buffer<u16>,
    tt: Buffer<u64>,
    tt_log2: u32,
    game_keys: Buffer<u64>,
    history_len: u32,
    /// The root moves the next iterations search (`go searchmoves`, MultiPV's later lines);
    /// empty: all. Cleared by [`GpuSearch::new_search`].
    root_moves: Vec<Move>,
    /// The root (its key) and root moves of the last iteration, where it completed in this
    /// search with nothing changed since: the next iteration of the same root and moves starts
    /// with `START_KEEP`, which lets the kernel keep helpers going (`HELPERS_KEEP`).
    kept_from: Option<(u64, Vec<Move>)>,
    control: Buffer<u32>,
    busy: Buffer<u64>,
    /// YBWC: the split points (`SplitPoint` in search_split.h, SPLITS_PER_WORKER a worker).
    splits: Buffer<u8>,
    /// YBWC: the idle workers' count, then a word announcing each split point.
    announce: Buffer<u32>,
    /// line_attacks.h's table.
    lines: Buffer<u64>,
    generation: u32,
    /// The search's last depth, for helpers that search ahead of the iteration
    /// ([`GpuSearch::set_depth_limit`]).
    depth_limit: i32,
    /// Under [`Finisher::Closing`]: the next iterations are likely the search's last
    /// ([`GpuSearch::set_closing`]).
    closing: bool,
    slice_nodes: u32,
    /// A fixed slice budget (tests): no adaptation to the device's speed.
    fixed_slice: Option<u32>,
    /// The nodes the next iteration may search (`go nodes`), which caps its slices
    /// ([`GpuSearch::set_node_budget`]).
    node_budget: Option<u64>,
    /// Workers launched: at most `options.workers`, the number allocated.
    active_workers: usize,
    host_results: Vec<WorkerResult>,
    /// `KOGGE_SEARCH_TRACE` set: every finished iteration is described on stderr.
    trace: bool,
    /// `KOGGE_SEARCH_DIAG=N`: the kernel counts nodes new and seen before in a table of 2^N keys
    /// (`DIAG_UNIQUE` in search.cl), cleared by every new search; the trace prints the counts.
    diag_log2: Option<u32>,
    /// The node-count run's tag (1 to 3; 0 before the first).
    diag_tag: u32,
    /// `KOGGE_SEARCH_CYCLES` set: the kernel times the parts of its state machine (`DIAG_CYCLES`
    /// in search_state.h); the trace prints the totals.
    diag_cycles: bool,
    /// How many finished workers end an iteration (`FINISH_QUORUM` in the kernel, 1 by
    /// default); worker 0 ends it alone.
    finish_quorum: usize,
    /// Which of the finished workers' results the iteration takes (`FINISH_PICK`).
    finish_pick: FinishPick,
}

/// The words a helper's result is checked against (`CONTROL_ROOT`, `CONTROL_FIRST`).
const CONTROL_ROOT: usize = 2;
const CONTROL_FIRST: usize = 3;
/// `SOLO_MAIN`'s words, a multiprocessor each (`CONTROL_SOLO`, `SOLO_SMS` in search_state.h).
const CONTROL_SOLO: usize = 9;
const SOLO_SMS: usize = 256;

/// `control`'s length: the flag, the slice count, the two root words, the node counts' words,
/// from word 9 a word a multiprocessor for `SOLO_MAIN`, and with diagnostics the cycle counters
/// and the table of 2^log2 keys.
fn control_words(diag_log2: Option<u32>, cycles: bool) -> usize {
    let table = control_diag_table(cycles);
    diag_log2.map_or(
        if cycles {
            table
        } else {
            CONTROL_SOLO + SOLO_SMS
        },
        |n| table + (2usize << n),
    )
}

fn bad(what: String) -> GpuError {
    GpuError::BadArgument(what)
}

/// The search kernel's `#define`s for a search with `options`, built for `finisher`.
fn kernel_defines(
    options: &GpuSearchOptions,
    diag_log2: Option<u32>,
    diag_cycles: bool,
    finisher: Finisher,
) -> Vec<(&'static str, String)> {
    let mut defines = search_defines();
    if let Some(n) = diag_log2 {
        defines.push(("DIAG_UNIQUE", n.to_string()));
    }
    if diag_cycles {
        defines.push(("DIAG_CYCLES", "1".to_string()));
    }
    // The split points' code and `GPU Finisher checked`'s, only in the kernel that uses them:
    // built into every kernel, the second cost the default search 1.5% (search_state.h).
    if options.mode == ParallelMode::Ybwc {
        defines.push(("YBWC", "1".to_string()));
    }
    if finisher.needs_checked_code() {
        defines.push(("FINISH_CHECKED_CODE", "1".to_string()));
    }
    defines
}

fn fault(what: String) -> GpuError {
    GpuError::KernelFault(what)
}

impl GpuSearch {
    /// Opens `info`, builds the search kernel and allocates every buffer.
    pub fn open(info: &DeviceInfo, options: GpuSearchOptions) -> Result<GpuSearch, GpuError> {
        let device = Device::open(info)?;
        Self::with_device(device, options)
    }

    pub fn with_device(device: Device, options: GpuSearchOptions) -> Result<GpuSearch, GpuError> {
        if options.workers == 0 {
            return Err(bad("the GPU search needs at least one worker".into()));
        }
        let diag_log2 = std::env::var("KOGGE_SEARCH_DIAG")
            .ok()
            .and_then(|v| v.parse::<u32>().ok())
            .map(|n| n.clamp(10, 28));
        let diag_cycles = std::env::var_os("KOGGE_SEARCH_CYCLES").is_some();
        let module = device.build(
            &search_source(),
            &kernel_defines(&options, diag_log2, diag_cycles, options.finisher),
        )?;
        let search = module.kernel("search_slice")?;
        let sizes_kernel = module.kernel("layout_sizes")?;
        let sizes = device.alloc::<u32>(7)?;
        device.launch(&sizes_kernel, 1, 1, &[Arg::buf(&sizes)])?;
        let mut words = [0u32; 7];
        device.read(&sizes, &mut words)?;
        let got = &words[..5];
        let expected = [
            got[0],
            std::mem::size_of::<WorkerResult>() as u32,
            std::mem::size_of::<SearchParams>() as u32,
            TT_ENTRY_BYTES as u32,
            got[4],
        ];
        if got != expected {
            return Err(fault(format!(
                "the search kernel's struct sizes {got:?} differ from the host's {expected:?}"
            )));
        }
        // The finish knobs the kernel was built with (FINISH_QUORUM, FINISH_PICK).
        let finish_quorum = words[5] as usize;
        if finish_quorum == 0 {
            // Every worker would stop at its first node: no iteration could end.
            return Err(bad(
                "the search kernel's FINISH_QUORUM is 0: it must be 1 or more".into(),
            ));
        }
        let Some(finish_pick) = FinishPick::from_code(words[6]) else {
            return Err(bad(format!(
                "the search kernel's FINISH_PICK {} is not one of 0, 1, 2",
                words[6]
            )));
        };
        // The stride between two workers' saved stacks (their size, rounded up).
        let stack_bytes = got[0] as usize;
        let w = options.workers;
        // YBWC's split points (their size is the kernel's alone: the host never reads them)
        // and their announcements; one word each for the other modes.
        let ybwc = options.mode == ParallelMode::Ybwc;
        let split_bytes = if ybwc {
            w * SPLITS_PER_WORKER * got[4] as usize
        } else {
            8
        };
        let announce_words = if ybwc { 1 + w * SPLITS_PER_WORKER } else { 1 };
        let (tt, tt_log2) = alloc_tt(&device, options.hash_mb)?;
        let lines = device.upload(&line_table())?;
        let mut gpu = GpuSearch {
            params: device.alloc(1)?,
            stacks: device.alloc(w * stack_bytes)?,
            results: device.alloc(w)?,
            lists: device.alloc(w * GPU_MAX_PLY * MAX_MOVES)?,
            histories: device.alloc(w * HISTORY_WORDS)?,
            pvs: device.alloc(w * GPU_MAX_PLY * GPU_MAX_PLY)?,
            tt,
            tt_log2,
            game_keys: device.alloc(GAME_KEYS + GAME_FILTER_WORDS)?,
            history_len: 0,
            root_moves: Vec::new(),
            kept_from: None,
            control: device.alloc(control_words(diag_log2, diag_cycles))?,
            busy: device.alloc(BUSY_ENTRIES)?,
            splits: device.alloc(split_bytes)?,
            announce: device.alloc(announce_words)?,
            lines,
            generation: 0,
            depth_limit: i32::MAX,
            closing: false,
            slice_nodes: 256,
            fixed_slice: None,
            node_budget: None,
            active_workers: w,
            host_results: vec![WorkerResult::default(); w],
            trace: std::env::var_os("KOGGE_SEARCH_TRACE").is_some(),
            diag_log2,
            diag_tag: 0,
            diag_cycles,
            finish_quorum,
            finish_pick,
            _module: module,
            search,
            options,
            device,
        };
        gpu.warm_up()?;
        Ok(gpu)
    }

    /// A search of the start position to depth 1, then forgotten. Some OpenCL implementations
    /// (PoCL) make a kernel's machine code only at its first launch, which takes minutes for
    /// this one on a CPU: better spent while the engine opens the search (`isready` waits for
    /// it) than in the first move of a game, whose clock is running. One worker searches, so
    /// that this costs the same at any worker count.
    ///
    /// PoCL also makes a second version of the machine code for a grid of 65,536 lanes or more
    /// (2,048 workers; it names the smaller one "smallgrid"), again at its first launch. So
    /// every worker is then launched once more with nothing to do (at any count: the threshold
    /// is PoCL's own), and the second version too is made here, not in the first `go` (over two
    /// minutes with 2,048 workers on a 2-core CPU, `stop` and the clock unheard). On a GPU this
    /// costs one empty launch.
    fn warm_up(&mut self) -> Result<(), GpuError> {
        let workers = self.active_workers;
        self.set_active_workers(1);
        self.new_search(&[])?;
        let full = kogge_search::MATE + 1;
        let searched = self.iterate(&Board::startpos(), 1, -full, full, &mut |_| false);
        self.set_active_workers(workers);
        searched?;
        if workers > 1 {
            self.launch_idle()?;
        }
        self.clear()
    }

    /// Launches every active worker with nothing to do: a launch that does not start a search
    /// resumes only the workers whose status is `STATUS_RUNNING`, and here none is.
    fn launch_idle(&mut self) -> Result<(), GpuError> {
        let idle = WorkerResult {
            status: STATUS_IDLE,
            ..WorkerResult::default()
        };
        self.device
            .write(&mut self.results, &vec![idle; self.active_workers])?;
        let full = kogge_search::MATE + 1;
        let mut params = self.search_params(&Board::startpos(), 1, -full, full);
        params.start = 0;
        self.device.write(&mut self.params, &[params])?;
        self.launch(self.active_workers * WORKER_LANES)?;
        self.device.read(&self.results, &mut self.host_results)?;
        match self
            .host_results
            .iter()
            .position(|r| r.status != STATUS_IDLE)
        {
            Some(w) => Err(fault(format!(
                "GPU search worker {w} ran in a launch that gave it nothing to do (status {})",
                self.host_results[w].status
            ))),
            None => Ok(()),
        }
    }

    pub fn device(&self) -> &Device {
        &self.device
    }

    pub fn options(&self) -> &GpuSearchOptions {
        &self.options
    }

    /// Launches only the first `workers` workers (1 to the number allocated) from the next
    /// iteration on: scaling measurements without rebuilding anything.
    pub fn set_active_workers(&mut self, workers: usize) {
        self.active_workers = workers.clamp(1, self.options.workers);
        self.kept_from = None;
        self.host_results.truncate(self.active_workers);
        self.host_results
            .resize(self.active_workers, WorkerResult::default());
    }

    /// Who ends an iteration ([`Finisher`]), from the next iteration on. Only the kernel of a
    /// search with [`Finisher::Checked`] or [`Finisher::Closing`] holds `checked`'s code, so a
    /// change between those and the others rebuilds the kernel (the buffers and the table are
    /// kept); an error leaves the search as it was.
    pub fn set_finisher(&mut self, finisher: Finisher) -> Result<(), GpuError> {
        if finisher.needs_checked_code() != self.options.finisher.needs_checked_code() {
            let defines = kernel_defines(&self.options, self.diag_log2, self.diag_cycles, finisher);
            let module = self.device.build(&search_source(), &defines)?;
            self.search = module.kernel("search_slice")?;
            self._module = module;
        }
        self.options.finisher = finisher;
        self.kept_from = None;
        Ok(())
    }

    /// Under [`Finisher::Closing`], whether the next iterations are likely the search's last
    /// (`checked` ends them) or not (`any`); the host says so before each depth. Other rules
    /// ignore it.
    pub fn set_closing(&mut self, closing: bool) {
        self.closing = closing;
    }

    /// The rule that ends the next iteration: the option's, or under [`Finisher::Closing`]
    /// `checked` or `any` as [`GpuSearch::set_closing`] last said.
    pub fn iteration_finisher(&self) -> Finisher {
        match self.options.finisher {
            Finisher::Closing if self.closing => Finisher::Checked,
            Finisher::Closing => Finisher::Any,
            finisher => finisher,
        }
    }

    pub fn active_workers(&self) -> usize {
        self.active_workers
    }

    /// Each worker's nodes since the search started, as the last launch left them: who did
    /// the work (YBWC's helpers search only what split points hand them).
    pub fn worker_nodes(&self) -> Vec<u64> {
        self.host_results.iter().map(|r| r.nodes).collect()
    }

    /// The workers that finished the last iteration and counted towards ending it
    /// (`FINISH_QUORUM`), as the last launch left them.
    pub fn finished_workers(&self) -> usize {
        self.host_results
            .iter()
            .filter(|r| r.status == STATUS_DONE)
            .count()
    }

    /// The deepest the helpers that search ahead of an iteration (Lazy SMP's, `DEEPER_HELPERS`
    /// in the kernel) may search the root: the search's last depth. Until set, they search up
    /// to two plies past each iteration.
    pub fn set_depth_limit(&mut self, limit: i32) {
        self.depth_limit = limit;
    }

    /// Starts a new search from a game position: uploads the game's keys (for repetitions)
    /// and ages the table. What an earlier search set for its iterations ends here: its root
    /// moves, its closing flag, and its node budget (a `go nodes` search that failed on the
    /// device returns before it can clear the budget itself).
    pub fn new_search(&mut self, history: &[u64]) -> Result<(), GpuError> {
        let (words, len) = game_keys_buffer(history);
        self.device.write(&mut self.game_keys, &words)?;
        self.history_len = len;
        self.generation = (self.generation + 1) & 63;
        self.root_moves.clear();
        self.kept_from = None;
        self.closing = false;
        self.node_budget = None;
        if self.trace {
            // Where a search's iterations begin: since searches start at the depth of the
            // root's table entry, a new search's first depth need not be lower than the last's.
            eprintln!("search new");
        }
        if self.diag_log2.is_some() {
            // A fresh, zeroed table and counters for this search, and the first run's tag.
            self.control = self.device.alloc(0)?;
            self.control = self
                .device
                .alloc(control_words(self.diag_log2, self.diag_cycles))?;
            self.diag_tag = 0;
            self.next_node_count_run()?;
        }
        Ok(())
    }

    /// Limits the root of the next iterations to `moves` (legal moves of the root, at least one;
    /// `go searchmoves`, or MultiPV's lines after the first); empty: every legal move. Holds
    /// until changed or until [`GpuSearch::new_search`].
    pub fn set_root_moves(&mut self, moves: &[Move]) -> Result<(), GpuError> {
        if moves.len() > MAX_ROOT_MOVES {
            return Err(bad(format!(
                "{} root moves named, at most {MAX_ROOT_MOVES}",
                moves.len()
            )));
        }
        self.root_moves = moves.to_vec();
        Ok(())
    }

    /// With `KOGGE_SEARCH_DIAG`: starts a new run of the node counts on the same table (counts
    /// from zero, the next tag), so that the nodes a run enters that the runs before it entered
    /// count as `earlier` in [`NodeCounts`]. E.g. one worker to depth d, the table cleared
    /// ([`GpuSearch::clear`]), then many workers to depth d: which of their nodes are in one
    /// worker's tree. Nothing without it.
    pub fn next_node_count_run(&mut self) -> Result<(), GpuError> {
        if self.diag_log2.is_none() {
            return Ok(());
        }
        self.diag_tag = self.diag_tag % 3 + 1;
        let mut words = [0u32; CONTROL_DIAG_TAG + 1];
        words[CONTROL_DIAG_TAG] = self.diag_tag;
        self.device.write(&mut self.control, &words)
    }

    /// Forgets the table and the move-ordering history.
    pub fn clear(&mut self) -> Result<(), GpuError> {
        self.clear_table()?;
        let hist = self.histories.len();
        self.histories = self.device.alloc(0)?;
        self.histories = self.device.alloc(hist)?;
        Ok(())
    }

    /// Forgets the table only: the workers keep their move-ordering history (a diagnostic's
    /// control, one search's tree against the same search ordered by a history already trained).
    pub fn clear_table(&mut self) -> Result<(), GpuError> {
        self.kept_from = None;
        let tt_words = self.tt.len();
        self.tt = self.device.alloc(0)?;
        self.tt = self.device.alloc(tt_words)?;
        Ok(())
    }

    /// The parameters of a launch that starts searching `root` to `depth` in `alpha..beta`.
    fn search_params(&self, root: &Board, depth: i32, alpha: i32, beta: i32) -> SearchParams {
        let mut params = SearchParams {
            root: root.pack(),
            root_key: root.hash(),
            alpha,
            beta,
            depth,
            root_halfmove: u32::from(root.halfmove_clock()),
            history_len: self.history_len,
            slice_nodes: self.slice_nodes,
            start: START_ALL,
            generation: self.generation,
            tt_buckets_log2: self.tt_log2,
            workers: self.active_workers as u32,
            mode: self.options.mode.code(),
            finisher: self.iteration_finisher().code(),
            root_move_count: self.root_moves.len() as u32,
            root_moves: [0; MAX_ROOT_MOVES],
            depth_limit: self.depth_limit.max(depth),
        };
        for (slot, m) in params.root_moves.iter_mut().zip(&self.root_moves) {
            *slot = m.raw();
        }
        params
    }

    /// Searches `root` to `depth` with the window `alpha..beta`. Between slices, `stop(nodes)`
    /// is asked whether to give up (time, node limit, `stop`); `nodes` counts this iteration.
    pub fn iterate(
        &mut self,
        root: &Board,
        depth: i32,
        alpha: i32,
        beta: i32,
        stop: &mut dyn FnMut(u64) -> bool,
    ) -> Result<Outcome, GpuError> {
        let mut params = self.search_params(root, depth, alpha, beta);
        let this_root = (root.hash(), self.root_moves.clone());
        if self.kept_from.take().as_ref() == Some(&this_root) {
            params.start = START_KEEP;
        }
        if matches!(
            self.options.mode,
            ParallelMode::Abdada | ParallelMode::AbdadaRmo
        ) {
            // Marks left by workers that stopped when the last iteration ended.
            self.device
                .write(&mut self.busy, &vec![0u64; BUSY_ENTRIES])?;
        }
        if self.options.mode == ParallelMode::Ybwc {
            // No split point announced, no worker idle: the first launch counts the helpers.
            let words = self.announce.len();
            self.device.write(&mut self.announce, &vec![0u32; words])?;
        }
        let global = self.active_workers * WORKER_LANES;
        let iteration_started = Instant::now();
        let mut launches = 0u32;
        // With the trace: the launch in which each worker first finished the iteration.
        let mut done_at = vec![0u32; if self.trace { self.active_workers } else { 0 }];
        // And the launch in which worker 0 first had a best root move, with that move and value
        // (its first move's unless it found a better one in the same launch).
        let mut first_of_0: Option<(u32, u16, i32)> = None;
        let mut nodes_so_far = 0u64;
        loop {
            launches += 1;
            params.slice_nodes = self.capped_slice(nodes_so_far);
            self.device.write(&mut self.params, &[params])?;
            // Before every launch, the first included: the finish flag clear (after the first
            // launch it still is, or the iteration would be over) and the launch's shared node
            // count from zero; before the first, no root move found yet (`CONTROL_ROOT`).
            let words: &[u32] = if launches == 1 {
                &[0; CONTROL_FIRST + 1]
            } else {
                &[0, 0]
            };
            self.device.write(&mut self.control, words)?;
            let started = Instant::now();
            self.launch(global)?;
            self.device.read(&self.results, &mut self.host_results)?;
            self.adapt_slice(started.elapsed());
            params.start = 0;
            if let Some(w) = self
                .host_results
                .iter()
                .position(|r| r.status == STATUS_BROKEN)
            {
                return Err(fault(format!(
                    "GPU search worker {w} found its state inconsistent (a kernel bug): \
                     the search is given up"
                )));
            }
            for (at, r) in done_at.iter_mut().zip(&self.host_results) {
                if *at == 0 && (r.status == STATUS_DONE || r.status == STATUS_HELPED) {
                    *at = launches;
                }
            }
            if self.trace && first_of_0.is_none() && self.host_results[0].partial_move != 0 {
                let r = &self.host_results[0];
                first_of_0 = Some((launches, r.partial_move as u16, r.partial_score));
            }
            let nodes: u64 = self.host_results.iter().map(|r| r.nodes).sum();
            nodes_so_far = nodes;
            if let Some(done) = self.finished(root, nodes, params.depth)? {
                if self.trace {
                    self.trace_iteration(&params, &done, iteration_started.elapsed(), launches);
                    self.trace_agreement(&done, &done_at, first_of_0);
                }
                self.kept_from = Some(this_root);
                return Ok(Outcome::Done(done));
            }
            if !self.host_results.iter().any(|r| r.status == STATUS_RUNNING) {
                return Err(fault(
                    "the GPU search stopped without a result (no worker finished the iteration)"
                        .into(),
                ));
            }
            if stop(nodes) {
                if self.trace {
                    self.trace_stopped(params.depth);
                }
                let partial = best_partial(self.host_results.iter());
                return Ok(Outcome::Stopped { nodes, partial });
            }
        }
    }

    /// After an iteration was stopped: the best root move so far among the workers whose result
    /// could have ended it ([`PARTIAL_CLEAN`]: under [`Finisher::Clean`] worker 0 and the clean
    /// helpers, under the others every worker), with its value. The host plays the best over all
    /// workers (`Outcome::Stopped`); this is the rule that would leave the noisy helpers' moves
    /// out, traced beside it (`bench/gpu-stop-moves.py`) to be judged.
    pub fn clean_partial(&self) -> Option<(Move, i32)> {
        best_partial(
            self.host_results
                .iter()
                .filter(|r| r.partial_move & PARTIAL_CLEAN != 0),
        )
    }

    /// One launch of the search kernel over `global` lanes (`WORKER_LANES` a worker).
    fn launch(&self, global: usize) -> Result<(), GpuError> {
        self.device.launch(
            &self.search,
            global,
            WORKER_LANES,
            &[
                Arg::buf(&self.params),
                Arg::buf(&self.stacks),
                Arg::buf(&self.results),
                Arg::buf(&self.lists),
                Arg::buf(&self.histories),
                Arg::buf(&self.pvs),
                Arg::buf(&self.tt),
                Arg::buf(&self.game_keys),
                Arg::buf(&self.control),
                Arg::buf(&self.busy),
                Arg::buf(&self.lines),
                Arg::buf(&self.splits),
                Arg::buf(&self.announce),
            ],
        )
    }

    /// Fixes the node budget of every slice (at least 1), or with `None` lets it follow the
    /// device's speed again. A search's result must not depend on it: tests cut searches into
    /// tiny slices to check that suspending and resuming a worker changes nothing.
    pub fn set_slice_nodes(&mut self, nodes: Option<u32>) {
        self.fixed_slice = nodes.map(|n| n.max(1));
        if let Some(n) = self.fixed_slice {
            self.slice_nodes = n;
        }
    }

    /// The nodes the next iterations may search, `None` for no limit: a `go nodes` search sets
    /// what is left of its limit before each. A launch is the workers' slices together (264
    /// workers of 256 to 1,024 nodes on the H200), so without this cap a search of a few
    /// thousand nodes ran several times that (8 workers on PoCL: 13,735 nodes for `go nodes
    /// 5000`, 17,155 for `go nodes 1`).
    pub fn set_node_budget(&mut self, nodes: Option<u64>) {
        self.node_budget = nodes;
    }

    /// The node budget the next iterations' launches are capped by ([`GpuSearch::set_node_budget`]).
    pub fn node_budget(&self) -> Option<u64> {
        self.node_budget
    }

    /// The slice of the next launch of an iteration that has searched `searched` nodes: the
    /// device's, but no more than the node budget left shared over the workers (at least a node
    /// each; a worker ends its launch after a quarter of its share at the soonest).
    fn capped_slice(&self, searched: u64) -> u32 {
        match self.node_budget {
            Some(budget) => {
                let left = budget.saturating_sub(searched);
                let share = left.div_ceil(self.active_workers.max(1) as u64).max(1);
                self.slice_nodes
                    .min(u32::try_from(share).unwrap_or(u32::MAX))
            }
            None => self.slice_nodes,
        }
    }

    /// Grows or shrinks the node budget of a slice towards [`SLICE_TARGET`].
    fn adapt_slice(&mut self, took: Duration) {
        if self.fixed_slice.is_none() {
            self.slice_nodes = next_slice_nodes(self.slice_nodes, took);
        }
    }

    /// The result of the worker that ended the iteration, if one did: once `finish_quorum`
    /// workers have finished it, or worker 0 has, or no worker is left running, the one
    /// `finish_pick` takes (by default the deepest if several did in the same slice). With
    /// [`Finisher::Checked`] a helper ends it only as `helper_may_end` allows, and one it did
    /// not allow when it finished (`STATUS_HELPED`) may be allowed now: worker 0 has finished
    /// its first move since.
    fn finished(
        &self,
        root: &Board,
        nodes: u64,
        depth: i32,
    ) -> Result<Option<Iteration>, GpuError> {
        let done: Vec<Finished> = self
            .host_results
            .iter()
            .enumerate()
            .filter(|(_, r)| r.status == STATUS_DONE)
            .map(|(worker, r)| Finished {
                worker,
                depth: r.depth,
                score: r.score,
                best: r.best_move,
            })
            .collect();
        let running = self.host_results.iter().any(|r| r.status == STATUS_RUNNING);
        let ended = if iteration_over(&done, self.finish_quorum, running) {
            pick_finisher(&done, self.finish_pick)
        } else {
            None
        };
        let (worker, r) = match ended {
            Some(found) => (found.worker, &self.host_results[found.worker]),
            None if !done.is_empty() => return Ok(None),
            None => match self.helper_allowed_now(depth)? {
                Some(w) => (w, &self.host_results[w]),
                None => return Ok(None),
            },
        };
        let best = Move::from_raw(r.best_move as u16);
        let pv = legal_line(root, &r.pv[..(r.pv_len as usize).min(GPU_MAX_PLY)]);
        Ok(Some(Iteration {
            depth: r.depth,
            seldepth: r.seldepth,
            score: r.score,
            best,
            pv,
            nodes,
            tt_cutoffs: self.host_results.iter().map(|r| r.tt_cutoffs).sum(),
            etc_cutoffs: self.host_results.iter().map(|r| r.etc_cutoffs).sum(),
            worker,
        }))
    }

    /// With [`Finisher::Checked`], the first helper of the asked `depth` that finished without
    /// ending the iteration and that `helper_may_end` now allows.
    fn helper_allowed_now(&self, depth: i32) -> Result<Option<usize>, GpuError> {
        let asked = |r: &WorkerResult| r.status == STATUS_HELPED && r.depth == depth as u32;
        if self.iteration_finisher() != Finisher::Checked || !self.host_results.iter().any(asked) {
            return Ok(None);
        }
        let mut words = [0u32; CONTROL_FIRST + 1];
        self.device.read(&self.control, &mut words)?;
        Ok(self.host_results.iter().position(|r| {
            asked(r)
                && helper_may_end(
                    words[CONTROL_FIRST],
                    words[CONTROL_ROOT],
                    r.score,
                    r.best_move as u16,
                    ROOT_MARGIN,
                )
        }))
    }

    /// Per mille of the table's sampled entries in use by this search (UCI `hashfull`).
    pub fn hashfull(&self) -> Result<u32, GpuError> {
        // The first thousand entries stand for the whole table, as UCI engines usually sample.
        let words = (1000 * TT_ENTRY_BYTES / 8).min(self.tt.len());
        if words == 0 {
            return Ok(0);
        }
        let mut sample = vec![0u64; words];
        self.device.read(&self.tt, &mut sample)?;
        let used = sample
            .chunks(2)
            .filter(|e| e[1] != 0 && (e[1] >> 58) as u32 == self.generation)
            .count();
        Ok((used * 1000 / (words / 2)) as u32)
    }

    /// The table's entry for the position of `key` (the root of the next search), as an earlier
    /// search left it: one bucket read from the device. `None` without one or without a move.
    pub fn table_entry(&self, key: u64) -> Result<Option<TableEntry>, GpuError> {
        let words_per_entry = TT_ENTRY_BYTES / 8;
        let bucket = (key & ((1u64 << self.tt_log2) - 1)) as usize;
        let mut words = [0u64; TT_BUCKET * TT_ENTRY_BYTES / 8];
        self.device
            .read_at(&self.tt, bucket * TT_BUCKET * words_per_entry, &mut words)?;
        Ok(words.chunks(words_per_entry).find_map(|e| {
            let (check, data) = (e[0], e[1]);
            let raw_move = (data & 0xffff) as u16;
            // `kernels/search_state.h`: BOUND_UPPER 1, BOUND_LOWER 2, BOUND_EXACT 3.
            let bound = match (data >> 56) & 3 {
                1 => Bound::Upper,
                2 => Bound::Lower,
                3 => Bound::Exact,
                _ => return None,
            };
            (check ^ data == key && raw_move != 0).then(|| TableEntry {
                best: Move::from_raw(raw_move),
                score: i32::from((data >> 16) as u16 as i16),
                depth: ((data >> 48) & 0xff) as i32,
                bound,
            })
        }))
    }
}

/// A table entry as the host reads it (`kernels/search_table.h` packs it): the root's, left by
/// an earlier search. Its score is the node's own (the root is ply 0, so no mate distance to
/// adjust).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableEntry {
    pub best: Move,
    pub score: i32,
    pub depth: i32,
    /// Whether `score` is exact or a bound.
    pub bound: Bound,
}

/// The longest prefix of `moves` that is legal from `root`.
fn legal_line(root: &Board, moves: &[u16]) -> Vec<Move> {
    let mut board = *root;
    let mut line = Vec::new();
    for &raw in moves {
        let m = Move::from_raw(raw);
        if board.try_play(m).is_err() {
            break;
        }
        line.push(m);
    }
    line
}

/// The transposition table: the largest power of two of 64-byte buckets within `hash_mb`.
fn alloc_tt(device: &Device, hash_mb: usize) -> Result<(Buffer<u64>, u32), GpuError> {
    let bucket_bytes = TT_BUCKET * TT_ENTRY_BYTES;
    let buckets = (hash_mb.max(1) << 20) / bucket_bytes;
    let log2 = usize::BITS - 1 - buckets.leading_zeros();
    let words = (1usize << log2) * bucket_bytes / 8;
    Ok((device.alloc(words)?, log2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_follow_the_device_between_their_bounds() {
        let fast = Duration::from_micros(100);
        let slow = Duration::from_secs(1);
        let mut n = 256;
        for _ in 0..20 {
            n = next_slice_nodes(n, slow);
        }
        // A device slow for its worker count gets slices of a node a worker (a quarter of 4):
        // what `stop` waits for is then one node of each worker.
        assert_eq!(n, MIN_SLICE_NODES);
        for _ in 0..20 {
            n = next_slice_nodes(n, fast);
        }
        assert_eq!(n, MAX_SLICE_NODES);
        assert_eq!(next_slice_nodes(64, SLICE_TARGET), 64);
    }
}
