//! The structs the host and `search.cl` exchange, mirrored field for field (`#[repr(C)]`). Their
//! sizes are asserted here and checked against the compiled kernel's own `sizeof` when a search
//! is opened (the `layout_sizes` kernel), so a change on one side only fails loudly.

use kogge_chess::PackedBoard;
use kogge_gpu::Pod;

/// Longest line the kernel searches (its stack depth); `GPU_MAX_PLY` in the kernel.
pub const GPU_MAX_PLY: usize = 64;

/// Lanes per worker: one warp.
pub const WORKER_LANES: usize = 32;

/// Moves one ply's list holds (`MAX_MOVES`).
pub const MAX_MOVES: usize = 256;

/// Words of move-ordering history per worker (`HISTORY_WORDS`): the butterfly history (side,
/// from, to), then a counter move per previous piece (colour, type) and target square.
pub const HISTORY_WORDS: usize = 2 * 64 * 64 + 12 * 64;

/// How the workers share the search (`MODE_*` in the kernel).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ParallelMode {
    /// Lazy SMP: every worker searches the same root; every other one a ply deeper.
    Lazy,
    /// Randomized move order (Zeta's RMO): helpers shuffle their quiet moves.
    Rmo,
    /// ABDADA: a worker that reaches a node another is searching puts it off and searches its
    /// siblings first.
    Abdada,
    /// ABDADA, with the helpers' quiet moves ordered by history plus noise, a milder RMO. The
    /// default: the best time to depth on the H100.
    #[default]
    AbdadaRmo,
    /// Young Brothers Wait: worker 0 searches the root; a node whose first move is searched
    /// becomes a split point whose other moves idle workers take (`search_split.h`).
    Ybwc,
}

/// How far above worker 0's value of its first root move a helper may value that move and still
/// end an iteration with [`Finisher::Checked`] (`ROOT_MARGIN`, given to the kernel). With 0, 5 and
/// 10 a simulation on the traces of 116 iterations kept worker 0's move in 108, 105 and 105, the
/// first finisher without the check in 97 (twenty-sixth session).
pub const ROOT_MARGIN: i32 = 0;

/// Who ends an iteration of the GPU search (`FINISH_*` in the kernel).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Finisher {
    /// The first worker to finish it, its result used as it is (Zeta's rule): the soonest to a
    /// depth, though a helper that finishes first has mostly kept the last iteration's move where
    /// worker 0 changed it (docs/STRENGTH.md, twenty-sixth session). The default until the
    /// sixty-third session.
    Any,
    /// A helper only once worker 0 has searched its first root move, and only with a result
    /// that agrees with what the others found (`helper_ends` in search_state.h).
    Checked,
    /// Worker 0 alone, the one in the sequential order.
    Main,
    /// [`Finisher::Any`] for the search's early iterations and [`Finisher::Checked`] for those
    /// likely to be its last, whose move is the one played (`closing_iteration` in backend.rs):
    /// `checked`'s better result of a depth where it decides the move, `any`'s speed elsewhere.
    Closing,
    /// Worker 0, or the first clean helper to finish: every max(1, workers / 8)-th helper, at
    /// most every 32nd (`CLEAN_WORKERS`, `CLEAN_EVERY`), orders its moves as worker 0 does,
    /// without noise, and only those and worker 0 end iterations, while the other helpers keep
    /// their noise and only fill the table (`FINISH_CLEAN`; search_moves.h says why). About
    /// worker 0's quality at a depth for 14% more time to it than `any`, and +34 [+5, +65] Elo
    /// against `any` in 223 games at 3 s + 0.03 s (docs/STRENGTH.md, sixty-second session): the
    /// default.
    #[default]
    Clean,
}

/// The names of an option enum's values, `$ty::ALL` mapped by its `const fn name`, at compile
/// time (a `for` loop and `map` are not allowed in a constant).
macro_rules! option_names {
    ($ty:ident) => {{
        let mut names = [""; $ty::ALL.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = $ty::ALL[i].name();
            i += 1;
        }
        names
    }};
}

impl Finisher {
    pub fn code(self) -> u32 {
        match self {
            Finisher::Main => 0,
            Finisher::Any => 1,
            Finisher::Checked => 2,
            // Each iteration takes Any's or Checked's code (GpuSearch::iteration_finisher).
            Finisher::Closing => 1,
            Finisher::Clean => 3,
        }
    }

    /// Whether its kernel needs `checked`'s code (`FINISH_CHECKED_CODE`).
    pub fn needs_checked_code(self) -> bool {
        matches!(self, Finisher::Checked | Finisher::Closing)
    }

    /// The name the options use: `any`, `checked`, `main`, `closing`, `clean`.
    pub const fn name(self) -> &'static str {
        match self {
            Finisher::Any => "any",
            Finisher::Checked => "checked",
            Finisher::Main => "main",
            Finisher::Closing => "closing",
            Finisher::Clean => "clean",
        }
    }

    pub const ALL: [Finisher; 5] = [
        Finisher::Any,
        Finisher::Checked,
        Finisher::Main,
        Finisher::Closing,
        Finisher::Clean,
    ];

    /// Every name, in [`Finisher::ALL`]'s order: the one list the UCI option and `kogge
    /// benchsmp --finish` offer.
    pub const NAMES: [&'static str; Self::ALL.len()] = option_names!(Finisher);

    pub fn from_name(name: &str) -> Option<Finisher> {
        Self::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name))
    }
}

impl ParallelMode {
    pub fn code(self) -> u32 {
        match self {
            ParallelMode::Lazy => 0,
            ParallelMode::Rmo => 1,
            ParallelMode::Abdada => 2,
            ParallelMode::AbdadaRmo => 3,
            ParallelMode::Ybwc => 4,
        }
    }

    /// The name the options use: `lazy`, `rmo`, `abdada`, `abdada-rmo`, `ybwc`.
    pub const fn name(self) -> &'static str {
        match self {
            ParallelMode::Lazy => "lazy",
            ParallelMode::Rmo => "rmo",
            ParallelMode::Abdada => "abdada",
            ParallelMode::AbdadaRmo => "abdada-rmo",
            ParallelMode::Ybwc => "ybwc",
        }
    }

    pub const ALL: [ParallelMode; 5] = [
        ParallelMode::Lazy,
        ParallelMode::Rmo,
        ParallelMode::Abdada,
        ParallelMode::AbdadaRmo,
        ParallelMode::Ybwc,
    ];

    /// Every name, in [`ParallelMode::ALL`]'s order: the one list the UCI option and `kogge
    /// benchsmp --mode` offer.
    pub const NAMES: [&'static str; Self::ALL.len()] = option_names!(ParallelMode);

    pub fn from_name(name: &str) -> Option<ParallelMode> {
        Self::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(name))
    }
}

/// `SearchParams`: what one iteration searches, written before each launch.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct SearchParams {
    pub root: PackedBoard,
    pub root_key: u64,
    pub alpha: i32,
    pub beta: i32,
    pub depth: i32,
    pub root_halfmove: u32,
    pub history_len: u32,
    pub slice_nodes: u32,
    pub start: u32,
    pub generation: u32,
    pub tt_buckets_log2: u32,
    pub workers: u32,
    pub mode: u32,
    /// Who ends an iteration: [`Finisher::code`].
    pub finisher: u32,
    /// `go searchmoves` and MultiPV: the root searches only `root_moves[..root_move_count]`
    /// (raw moves); 0 searches every legal move.
    pub root_move_count: u32,
    pub root_moves: [u16; MAX_ROOT_MOVES],
    /// The deepest a helper searching ahead of the iteration (Lazy SMP's, or `DEEPER_HELPERS`
    /// in the kernel) may search the root: the search's last depth, so that `go depth N` ends
    /// at depth N.
    pub depth_limit: i32,
}

/// The most root moves [`SearchParams`] can name (`MAX_ROOT_MOVES` in the kernel); a position
/// has at most 218 legal moves.
pub const MAX_ROOT_MOVES: usize = 256;

// SAFETY: repr(C); PackedBoard is five u64 (40 bytes), then one u64 and thirteen 4-byte
// integers (100 bytes so far), 256 u16 (612) and a last i32: 616 bytes, a multiple of 8, with no
// padding; every bit pattern is a valid value.
unsafe impl Pod for SearchParams {}
const _: () = assert!(std::mem::size_of::<SearchParams>() == 616);

/// `WorkerResult`: one worker's state after a launch.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct WorkerResult {
    pub status: u32,
    pub score: i32,
    pub best_move: u32,
    pub depth: u32,
    pub nodes: u64,
    pub seldepth: u32,
    pub pv_len: u32,
    pub pv: [u16; GPU_MAX_PLY],
    /// This iteration's best root move so far (one that raised alpha), or 0; with
    /// [`PARTIAL_CLEAN`] set where the worker's result could end the iteration.
    pub partial_move: u32,
    pub partial_score: i32,
    /// Nodes of this iteration that ended on the table's bound as soon as they were entered.
    pub tt_cutoffs: u64,
    /// Nodes of this iteration cut by a child's bound in the table (ETC).
    pub etc_cutoffs: u64,
}

// SAFETY: repr(C), integers only: 4 × 4 + 8 + 2 × 4 + 64 × 2 + 2 × 4 + 2 × 8 = 184 bytes, no
// padding (the u64s sit at offsets 16, 168 and 176); every bit pattern is valid.
unsafe impl Pod for WorkerResult {}
const _: () = assert!(std::mem::size_of::<WorkerResult>() == 184);
const _: () = assert!(std::mem::offset_of!(WorkerResult, nodes) == 16);
const _: () = assert!(std::mem::offset_of!(WorkerResult, tt_cutoffs) == 168);

impl Default for WorkerResult {
    fn default() -> Self {
        WorkerResult {
            status: 0,
            score: 0,
            best_move: 0,
            depth: 0,
            nodes: 0,
            seldepth: 0,
            pv_len: 0,
            pv: [0; GPU_MAX_PLY],
            partial_move: 0,
            partial_score: 0,
            tt_cutoffs: 0,
            etc_cutoffs: 0,
        }
    }
}

/// `WorkerResult::status` values.
pub const STATUS_RUNNING: u32 = 0;
pub const STATUS_DONE: u32 = 1;
pub const STATUS_IDLE: u32 = 2;
/// A worker found its own state inconsistent (a kernel bug): the search is given up.
pub const STATUS_BROKEN: u32 = 3;
/// A worker finished the iteration without ending it: its result is not used.
pub const STATUS_HELPED: u32 = 4;

/// `WorkerResult::partial_move`'s flag above the move: set by a worker whose finished result
/// could end the iteration (under [`Finisher::Clean`] worker 0 and the clean helpers, under the
/// others every worker).
pub const PARTIAL_CLEAN: u32 = 1 << 16;

/// `SearchParams::start` of an iteration's first launch: every worker starts at the root, or
/// (`START_KEEP`, the iteration after a completed one of the same root and root moves) the
/// kernel may keep helpers going that have reached the depth they would start at
/// (`HELPERS_KEEP` in search_state.h). Later launches resume (0).
pub const START_ALL: u32 = 1;
pub const START_KEEP: u32 = 2;

/// Bytes of one transposition-table entry and entries per bucket.
pub const TT_ENTRY_BYTES: usize = 16;
pub const TT_BUCKET: usize = 4;

/// Entries of the ABDADA table of nodes being searched (`BUSY_ENTRIES` in the kernel).
pub const BUSY_ENTRIES: usize = 65536;

/// Split points a worker may hold at once (`SPLITS_PER_WORKER`, YBWC).
pub const SPLITS_PER_WORKER: usize = 4;
