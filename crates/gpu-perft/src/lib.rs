//! GPU perft: the host drives a breadth-first expansion ply by ply on the device — count every
//! position's legal moves, prefix-sum the counts on the device to place each child, write the
//! children contiguously — and the last two plies run fused in one kernel: each work-group
//! stages its positions' children in local memory, every thread takes an equal share of them and
//! bulk-counts their moves. (One to three plies depth-first per thread is the other tail, used
//! under the table.) Positions travel in 32 bytes: the quad-bitboard of `kogge_chess::packed`
//! with the state hidden in codes it leaves unused (kernels/perft_board.h). A ply that would not fit in the per-ply buffers is split
//! into chunks of parents whose children fit, so depth is limited by time, not memory.
//!
//! With `hash_bytes`, a table in device memory merges transpositions ply by ply instead
//! (kernels/perft_dedup.cl, driven by `dedup.rs`): every ply is a list of distinct positions,
//! each with its number of paths from the root, and the tail multiplies by those. Positions are
//! compared whole, so the count is exact whatever the hashes do.
//!
//! The kernels are `crates/gpu/kernels/{board.h, movegen.h, lookup.h, perft_board.h,
//! quad_board.h, child_share.h, perft.cl, perft_dedup.cl}`, one source for CUDA and OpenCL.

mod dedup;

use dedup::{COUNTERS, SLOT_WORDS};
use kogge_chess::types::{Color, Square};
use kogge_chess::{Bitboard, Board, Move, attacks, packed, tables};
use kogge_gpu::{Arg, Buffer, Device, GpuError, Kernel, Module};
use std::time::Instant;

/// The kernel source, in the order the files depend on each other.
pub const SOURCE: &str = concat!(
    include_str!("../../gpu/kernels/board.h"),
    include_str!("../../gpu/kernels/movegen.h"),
    include_str!("../../gpu/kernels/lookup.h"),
    include_str!("../../gpu/kernels/perft_board.h"),
    include_str!("../../gpu/kernels/quad_board.h"),
    include_str!("../../gpu/kernels/child_share.h"),
    include_str!("../../gpu/kernels/perft.cl"),
    include_str!("../../gpu/kernels/perft_dedup.cl"),
);

/// Work-group size of every perft kernel (a power of two; the scan and the reductions rely on
/// it; at most 256, since a staged child's parent index is a byte).
const GROUP: usize = 128;

/// 64-bit words per position in the ply buffers (kernels/perft_board.h's 32-byte form).
const WORDS: usize = 4;

/// Tuning knobs. The defaults suit a large GPU; tests use small buffers to exercise chunking.
#[derive(Clone, Debug)]
pub struct PerftOptions {
    /// Plies fused at the end (1 to 3): 2 runs the staged kernel, 1 and 3 (and every depth
    /// under the table) run depth-first per thread.
    pub leaf_depth: u32,
    /// Positions each ply's buffer holds; a ply with more children is split into chunks.
    pub positions_per_ply: usize,
    /// Bytes of device memory for the table that merges transpositions (`--hash`); 0 for
    /// none. Any size, in 48-byte slots, up to the device's largest allocation. The lists of
    /// distinct positions take more beside it, up to 90% of the device's memory in all.
    pub hash_bytes: usize,
    /// At most this many positions in a list of distinct positions (`None`: as many as memory
    /// allows), yet always one key range's worth. Tests take few, to split plies between lists.
    pub list_positions: Option<usize>,
    /// Bytes the table and the lists may take together (`None`: 90% of the device's memory).
    /// Tests take little, so that the table must give up room to a list.
    pub memory_limit: Option<u64>,
    /// Fingerprint bits the table keeps (64 but in tests, which take fewer to force collisions).
    pub fingerprint_bits: u32,
    /// Whether the staged tail has each parent work out what its children share
    /// (kernels/child_share.h). `None`: when the root has at least `SHARE_MIN_SLIDER_LOOKUPS`
    /// (see `shares_children`); tests force each way.
    pub share_children: Option<bool>,
}

impl PerftOptions {
    /// Defaults for `device`: the two-ply staged tail, and ply buffers that use at most a
    /// quarter of the device's memory over eight plies. `KOGGE_PERFT_LEAF` (1 to 3) overrides
    /// the tail, for benchmarks.
    pub fn for_device(device: &Device) -> PerftOptions {
        let bytes_per_position = (WORDS * 8 + 8) as u64;
        let budget = device.info().memory_bytes / 4 / 8;
        let positions = (budget / bytes_per_position).clamp(1 << 12, 1 << 25) as usize;
        let leaf_depth = std::env::var("KOGGE_PERFT_LEAF")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(2);
        PerftOptions {
            leaf_depth,
            positions_per_ply: positions,
            hash_bytes: 0,
            list_positions: None,
            memory_limit: None,
            fingerprint_bits: 64,
            share_children: match std::env::var("KOGGE_PERFT_SHARE").as_deref() {
                Ok("0") => Some(false),
                Ok("1") => Some(true),
                _ => None,
            },
        }
    }
}

/// Slider lookups (rooks, bishops, a queen twice, both sides) from which the staged tail shares
/// a parent's work with its children by default. Sharing saves the children's lookups but costs
/// each parent its own, the sorting of its moves and a larger kernel. Tail kernel times on the
/// H100 (docs/PERFORMANCE.md, 2026-11-24), sharing against not: 4 to 8 lookups 2-18% slower
/// (position 3, with 2, 21%), 10 lookups 9% and 25% faster, 12 (the start position, Kiwipete
/// and two others) 3-27% faster. Material only falls below the root, so the root decides for
/// the run.
pub const SHARE_MIN_SLIDER_LOOKUPS: u32 = 10;

/// Whether a perft from `board` shares parents' work with their children (see
/// `SHARE_MIN_SLIDER_LOOKUPS`).
pub fn shares_children(board: &Board) -> bool {
    let lookups = board.orthogonal_sliders(Color::White).count()
        + board.orthogonal_sliders(Color::Black).count()
        + board.diagonal_sliders(Color::White).count()
        + board.diagonal_sliders(Color::Black).count();
    lookups >= SHARE_MIN_SLIDER_LOOKUPS
}

/// One ply's device buffers: positions and their child counts (scanned in place to offsets).
struct Ply {
    boards: Buffer<u64>,
    counts: Buffer<u64>,
}

/// Where a tail's positions come from (perft.cl's SOURCE_*).
enum Source<'a> {
    /// A list of positions, one path each.
    List(&'a Buffer<u64>),
    /// A list of positions and their path counts.
    Weighted(&'a Buffer<u64>, &'a Buffer<u64>),
    /// The table of perft_dedup.cl, which the tail empties as it reads (depth 2 only).
    Table,
}

/// A distinct-position list of one ply under the table: positions and their path counts.
struct WeightedPly {
    boards: Buffer<u64>,
    weights: Buffer<u64>,
}

/// A GPU perft engine bound to one device: kernels built once, buffers allocated on first use
/// and kept between runs.
pub struct GpuPerft {
    device: Device,
    _module: Module,
    count_children: Kernel,
    chunk_bounds: Kernel,
    scan_blocks: Kernel,
    scan_add: Kernel,
    expand: Kernel,
    perft_leaf: Kernel,
    /// The staged tail under positions with white, and with black, to move; without ([0]) and
    /// with ([1]) the work parents share with their children.
    perft_staged2: [[Kernel; 2]; 2],
    dedup_pass: Kernel,
    dedup_compact: Kernel,
    options: PerftOptions,
    plies: Vec<Ply>,
    /// Under the table: the distinct positions of each ply.
    weighted: Vec<WeightedPly>,
    /// The table of perft_dedup.cl (`SLOT_WORDS` words a slot; a one-slot dummy without
    /// `hash_bytes`), empty between uses: dedup_compact clears what it lists.
    table: Buffer<u64>,
    /// Slots in the table (a power of two; 0 without one).
    slots: usize,
    /// Set while a ply is in the table, so that a run cut short by an error is cleared up first.
    table_dirty: bool,
    /// perft_dedup.cl's counters, and a one-word stand-in for the weights of unweighted tails.
    counters: Buffer<u64>,
    no_weights: Buffer<u64>,
    /// Per ply, distinct positions over children when its children were last merged: guesses
    /// how many key ranges the next merge needs.
    distinct_ratio: Vec<f64>,
    /// The attack tables of lookup.h (see `lookup_tables`).
    lookup_params: Buffer<u64>,
    lookup_attacks: Buffer<u64>,
    /// `KOGGE_PERFT_TRACE` set: each merged ply and tail is timed and reported on stderr.
    trace: bool,
    /// Under `trace`, without the table: seconds spent allocating ply buffers, in tails (launch
    /// to partial sums read), and planning the chunks of split plies; and tail launches.
    spent: std::cell::Cell<Spent>,
    /// The side to move at the root of the perft under way (0 white, 1 black): that of ply `p`
    /// is this one flipped `p` times, which picks the staged tail (compiled per side).
    root_side: u32,
    /// Whether the perft under way shares parents' work with their children (its root's
    /// material, or `PerftOptions::share_children`).
    root_shares: bool,
}

/// Where a run without the table spent its time (see `GpuPerft::spent`).
#[derive(Clone, Copy, Default, Debug)]
struct Spent {
    allocating: f64,
    tails: f64,
    chunking: f64,
    launches: usize,
}

/// `board` in the 32-byte form of kernels/perft_board.h: the quad-bitboard of the packed form,
/// with the state hidden in codes it leaves unused (a castling rook gets type code 7; the colour
/// bit on an empty square marks the en-passant square on ranks 3 and 6, and black to move on
/// the lowest empty square elsewhere). Clocks are dropped.
fn perft_words(board: &Board) -> [u64; WORDS] {
    let p = board.pack();
    let [mut q0, mut q1, q2, mut q3] = p.quad;
    let state = p.state;
    for slot in 0..4 {
        let nibble = (state >> (packed::CASTLING_SHIFT + packed::CASTLING_SLOT_BITS * slot)) & 15;
        if nibble & packed::NIBBLE_PRESENT != 0 {
            let rank = if slot >= 2 { 56 } else { 0 };
            let rook = 1u64 << (rank + (nibble & packed::NIBBLE_FILE_MASK));
            q0 |= rook;
            q1 |= rook;
        }
    }
    let black = (state >> packed::SIDE_SHIFT) & 1 == 1;
    let ep = (state >> packed::EP_SHIFT) & 15;
    if ep & packed::NIBBLE_PRESENT != 0 {
        // The square behind the pawn that just moved two: rank 6 when white moves, 3 when black.
        let rank = if black { 16 } else { 40 };
        q3 |= 1u64 << (rank + (ep & packed::NIBBLE_FILE_MASK));
    }
    if black {
        let spare = !(q0 | q1 | q2) & !(RANK_3 | RANK_6);
        q3 |= spare & spare.wrapping_neg();
    }
    [q0, q1, q2, q3]
}

const RANK_3: u64 = 0xff << 16;
const RANK_6: u64 = 0xff << 40;

/// The tables of kernels/lookup.h, from the CPU's own (computed by crates/chess/build.rs): the
/// parameters (per rook square, then per bishop square: mask, magic, offset and shift, 0; then
/// the knight and king attacks, the empty-board rook and bishop rays, the pawn captures of
/// white and of black, and the castling paths) and the attack blocks (rooks, then bishops, whose
/// offsets are moved past the rooks).
fn lookup_tables() -> (Vec<u64>, Vec<u64>) {
    let mut params = Vec::with_capacity(LOOKUP_WORDS);
    let rook_len = tables::ROOK_MAGIC_TABLE.len();
    for (entries, base) in [
        (&tables::ROOK_MAGICS, 0),
        (&tables::BISHOP_MAGICS, rook_len),
    ] {
        for e in entries.iter() {
            // Every shift is at least 32 (at most 12 relevant bits per square): lookup.h keeps
            // the offset and the shift past 32 in one word.
            assert!(e.shift >= 32 && base + e.offset < 1 << 32);
            let place = (base + e.offset) as u64 | u64::from(e.shift - 32) << 32;
            params.extend([e.mask, e.magic, place, 0]);
        }
    }
    params.extend(Square::all().map(|sq| attacks::knight(sq).0));
    params.extend(Square::all().map(|sq| attacks::king(sq).0));
    params.extend(Square::all().map(|sq| attacks::rook(sq, Bitboard(0)).0));
    params.extend(Square::all().map(|sq| attacks::bishop(sq, Bitboard(0)).0));
    for color in [Color::White, Color::Black] {
        params.extend(Square::all().map(|sq| attacks::pawn(color, sq).0));
    }
    for king_file in 0..8 {
        params.extend((0..8).map(|rook_file| u64::from(castle_paths(king_file, rook_file))));
    }
    debug_assert_eq!(params.len(), LOOKUP_WORDS);
    let mut table = Vec::with_capacity(rook_len + tables::BISHOP_MAGIC_TABLE.len());
    table.extend_from_slice(&tables::ROOK_MAGIC_TABLE[..]);
    table.extend_from_slice(&tables::BISHOP_MAGIC_TABLE[..]);
    (params, table)
}

/// A castling's paths on the back rank, as lookup.h's castle_paths_at reads them: bits 0-7 the
/// files the king crosses and ends on, bits 8-15 the files that must be empty (all either piece
/// crosses or ends on, but their own). Chess960 rules: the king ends on the g or c file, the rook
/// on the f or d file, on the side the rook stands.
fn castle_paths(king_file: u32, rook_file: u32) -> u32 {
    let files = |a: u32, b: u32| (2u32 << a.max(b)) - (1u32 << a.min(b));
    let (king_to, rook_to) = if rook_file > king_file {
        (6, 5)
    } else {
        (2, 3)
    };
    let king_path = (files(king_file, king_to) & !(1 << king_file)) | 1 << king_to;
    let both = king_path | files(rook_file, rook_to);
    let must_be_empty = both & !(1 << king_file) & !(1 << rook_file);
    king_path | must_be_empty << 8
}

/// The `#define`s the kernels are built with (for tests that compile them elsewhere too).
/// `TAIL_BLOCKS` is the work-groups per multiprocessor the staged tail is compiled for (its
/// register budget on CUDA), `STAGE_PER_THREAD` the staged children per thread per window (local
/// memory: 3 bytes each); `KOGGE_PERFT_TAIL_BLOCKS` and `KOGGE_PERFT_STAGE` override them, for
/// benchmarks.
pub fn kernel_defines() -> [(&'static str, String); 3] {
    [
        ("SCAN_GROUP", GROUP.to_string()),
        ("TAIL_BLOCKS", tail_blocks().to_string()),
        (
            "STAGE_PER_THREAD",
            knob("KOGGE_PERFT_STAGE", STAGE_PER_THREAD)
                .clamp(1, 64)
                .to_string(),
        ),
    ]
}

/// The environment variable `name` as a number, or `default`.
fn knob(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
        .unwrap_or(default)
}

/// Work-groups per multiprocessor the staged tail is compiled for (`TAIL_BLOCKS`, or
/// `KOGGE_PERFT_TAIL_BLOCKS`).
fn tail_blocks() -> u32 {
    knob("KOGGE_PERFT_TAIL_BLOCKS", TAIL_BLOCKS)
}

/// Staged children per thread per window (see perft.cl's staging). With the quad-bitboard tail,
/// 16 gave the shortest tail kernel on the H100 (Nsight Compute at locked clocks, 7 work-groups
/// per multiprocessor: 1-2% under 8; docs/PERFORMANCE.md).
const STAGE_PER_THREAD: u32 = 16;

/// Work-groups per multiprocessor for the staged tail: 7 of 128 threads leave 72 registers a
/// thread (a few spills), which measured 2-4% faster on the H100 than 6 (80 registers) and 8 (64,
/// many spills) with the quad-bitboard tail (docs/PERFORMANCE.md).
const TAIL_BLOCKS: u32 = 7;

/// The most legal moves a chess position has (chunk planning: a chunk planned to start within
/// `step` children of the next never overflows `step + MAX_MOVES`).
const MAX_MOVES: u64 = 218;

/// Words of lookup.h's parameter array (its LOOKUP_WORDS).
const LOOKUP_WORDS: usize = 960;

fn groups(n: usize) -> usize {
    n.div_ceil(GROUP)
}

fn to_u32(n: usize, what: &str) -> Result<u32, GpuError> {
    u32::try_from(n).map_err(|_| GpuError::BadLaunch(format!("{what} {n} does not fit in 32 bits")))
}

impl GpuPerft {
    /// Builds the perft kernels for `device`.
    pub fn new(device: Device, options: PerftOptions) -> Result<GpuPerft, GpuError> {
        if !(1..=3).contains(&options.leaf_depth) {
            return Err(GpuError::BadLaunch(format!(
                "leaf depth {} is not 1, 2 or 3",
                options.leaf_depth
            )));
        }
        if !(1..=64).contains(&options.fingerprint_bits) {
            return Err(GpuError::BadLaunch(format!(
                "fingerprint bits {} is not 1 to 64",
                options.fingerprint_bits
            )));
        }
        let defines = kernel_defines();
        // The staged tail's register budget (TAIL_BLOCKS work-groups per multiprocessor), which
        // NVIDIA's OpenCL can only apply to the whole program: left to itself it gave the tail
        // 79-92 registers, and capped at 72 start perft 9 / Kiwipete perft 7 ran 3-4% faster
        // (docs/PERFORMANCE.md). The other kernels use fewer but perft_leaf (the depth-first
        // tail, not the default).
        let registers = (65536 / (tail_blocks().max(1) * GROUP as u32)).min(255) & !7;
        let module = device.build_with_register_cap(SOURCE, &defines, registers)?;
        // Any number of slots (the walks scale a 32-bit hash to it), so below 2^32, and one
        // allocation's worth (a quarter of the memory under NVIDIA's OpenCL).
        let bytes = options
            .hash_bytes
            .min(device.info().max_alloc_bytes as usize);
        let slots = (bytes / (SLOT_WORDS * 8)).min(u32::MAX as usize);
        let slots = if slots >= GROUP { slots } else { 0 };
        let table = device.alloc::<u64>(slots.max(1) * SLOT_WORDS)?;
        let (params, attacks) = lookup_tables();
        let mut lookup_params = device.alloc::<u64>(params.len())?;
        device.write(&mut lookup_params, &params)?;
        let mut lookup_attacks = device.alloc::<u64>(attacks.len())?;
        device.write(&mut lookup_attacks, &attacks)?;
        Ok(GpuPerft {
            lookup_params,
            lookup_attacks,
            table,
            slots,
            table_dirty: false,
            counters: device.alloc::<u64>(COUNTERS)?,
            no_weights: device.alloc::<u64>(1)?,
            distinct_ratio: Vec::new(),
            trace: std::env::var_os("KOGGE_PERFT_TRACE").is_some(),
            spent: Default::default(),
            root_side: 0,
            root_shares: false,
            count_children: module.kernel("count_children")?,
            chunk_bounds: module.kernel("chunk_bounds")?,
            scan_blocks: module.kernel("scan_blocks")?,
            scan_add: module.kernel("scan_add")?,
            expand: module.kernel("expand")?,
            perft_leaf: module.kernel("perft_leaf")?,
            perft_staged2: [
                [
                    module.kernel("perft_staged2_white")?,
                    module.kernel("perft_staged2_black")?,
                ],
                [
                    module.kernel("perft_staged2_shared_white")?,
                    module.kernel("perft_staged2_shared_black")?,
                ],
            ],
            dedup_pass: module.kernel("dedup_pass")?,
            dedup_compact: module.kernel("dedup_compact")?,
            _module: module,
            device,
            options,
            plies: Vec::new(),
            weighted: Vec::new(),
        })
    }

    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Slots in the table that merges transpositions (0 without `hash_bytes`).
    pub fn hash_entries(&self) -> u64 {
        self.slots as u64
    }

    /// The number of leaf nodes `depth` plies below `board`.
    pub fn perft(&mut self, board: &Board, depth: u32) -> Result<u64, GpuError> {
        if depth == 0 {
            return Ok(1);
        }
        let root = perft_words(board);
        self.root_side = board.side_to_move() as u32;
        self.root_shares = self
            .options
            .share_children
            .unwrap_or_else(|| shares_children(board));
        if self.slots > 0 {
            self.ensure_weighted(0, 1)?;
            let ply = &mut self.weighted[0];
            self.device.write(&mut ply.boards, &root)?;
            self.device.write(&mut ply.weights, &[1])?;
            return self.merged_ply(0, 1, depth);
        }
        let leaf = self.options.leaf_depth.min(depth);
        let expansions = (depth - leaf) as usize;
        let clock = Instant::now();
        self.spent.set(Spent::default());
        self.ensure_plies(expansions + 1)?;
        self.note(|s| s.allocating += clock.elapsed().as_secs_f64());
        self.device.write(&mut self.plies[0].boards, &root)?;
        let nodes = self.run_ply(0, 1, expansions, leaf)?;
        if self.trace {
            let s = self.spent.get();
            eprintln!(
                "trace: perft {depth}: {:.3} s in all: allocating ply buffers {:.3} s, {} tails \
                 {:.3} s, planning chunks {:.3} s",
                clock.elapsed().as_secs_f64(),
                s.allocating,
                s.launches,
                s.tails,
                s.chunking
            );
        }
        Ok(nodes)
    }

    /// Adds to the trace's time accounts (nothing without KOGGE_PERFT_TRACE).
    fn note(&self, add: impl FnOnce(&mut Spent)) {
        if self.trace {
            let mut s = self.spent.get();
            add(&mut s);
            self.spent.set(s);
        }
    }

    /// Perft under each root move, in generation order; `progress(done, total)` after each.
    pub fn divide(
        &mut self,
        board: &Board,
        depth: u32,
        progress: &dyn Fn(usize, usize),
    ) -> Result<Vec<(Move, u64)>, GpuError> {
        let moves = board.legal_moves();
        let mut out = Vec::with_capacity(moves.len());
        for (i, &mv) in moves.iter().enumerate() {
            let mut child = *board;
            child.play(mv);
            out.push((mv, self.perft(&child, depth.saturating_sub(1))?));
            progress(i + 1, moves.len());
        }
        Ok(out)
    }

    fn ensure_plies(&mut self, count: usize) -> Result<(), GpuError> {
        while self.plies.len() < count {
            let n = self.options.positions_per_ply;
            self.plies.push(Ply {
                boards: self.device.alloc::<u64>(n * WORDS)?,
                counts: self.device.alloc::<u64>(n)?,
            });
        }
        Ok(())
    }

    /// Makes weighted ply `p` hold at least `n` positions (reallocated, not copied).
    fn ensure_weighted(&mut self, p: usize, n: usize) -> Result<(), GpuError> {
        while self.weighted.len() <= p {
            self.weighted.push(WeightedPly {
                boards: self.device.alloc::<u64>(WORDS)?,
                weights: self.device.alloc::<u64>(1)?,
            });
        }
        if self.weighted[p].weights.len() < n {
            // Free the old buffers before allocating the larger ones.
            self.weighted[p] = WeightedPly {
                boards: self.device.alloc::<u64>(WORDS)?,
                weights: self.device.alloc::<u64>(1)?,
            };
            self.weighted[p] = WeightedPly {
                boards: self.device.alloc::<u64>(n * WORDS)?,
                weights: self.device.alloc::<u64>(n)?,
            };
        }
        Ok(())
    }

    /// Counts the leaves below positions `0 .. n` of ply `p`, expanding `expansions` more plies
    /// breadth-first and then `leaf` plies depth-first.
    fn run_ply(
        &mut self,
        p: usize,
        n: usize,
        expansions: usize,
        leaf: u32,
    ) -> Result<u64, GpuError> {
        if n == 0 {
            return Ok(0);
        }
        if expansions == 0 {
            return self.leaves(p, n, leaf);
        }
        // Step 1. Count the children of every parent in the slice (counts[0 .. n]).
        let ply = &self.plies[p];
        self.device.launch(
            &self.count_children,
            groups(n) * GROUP,
            GROUP,
            &[
                Arg::buf(&ply.boards),
                Arg::U32(to_u32(n, "positions")?),
                Arg::buf(&ply.counts),
            ],
        )?;
        // Step 2. Exclusive prefix sum on the device: counts become offsets.
        let total = self.scan(p, n)?;
        // Step 3. Write the children as ply p + 1, in chunks of parents whose children fit.
        let capacity = self.options.positions_per_ply as u64;
        if total <= capacity {
            self.expand_chunk(p, 0, n, 0)?;
            return self.run_ply(p + 1, total as usize, expansions - 1, leaf);
        }
        // Chunks of parents whose children fit, planned on the device (perft.cl's chunk_bounds):
        // only the chunks' bounds come back.
        let clock = Instant::now();
        let step = capacity.saturating_sub(MAX_MOVES).max(1);
        let chunks = (total / step + 2) as usize;
        let bounds: Buffer<u64> = self.device.alloc(2 * chunks)?;
        self.device.launch(
            &self.chunk_bounds,
            groups(n) * GROUP,
            GROUP,
            &[
                Arg::buf(&self.plies[p].counts),
                Arg::U32(to_u32(n, "positions")?),
                Arg::U64(total),
                Arg::U64(step),
                Arg::U32(to_u32(chunks, "chunks")?),
                Arg::buf(&bounds),
            ],
        )?;
        let mut host = vec![0u64; 2 * chunks];
        self.device.read(&bounds, &mut host)?;
        self.note(|s| s.chunking += clock.elapsed().as_secs_f64());
        let mut nodes = 0;
        for k in 0..chunks - 1 {
            let (start, base) = (host[2 * k] as usize, host[2 * k + 1]);
            let (end, next) = (host[2 * k + 2] as usize, host[2 * k + 3]);
            if end == start {
                continue;
            }
            let children = next - base;
            if children > capacity {
                // A chunk has fewer than step + MAX_MOVES children: only a test capacity under
                // one position's moves gets here.
                return Err(GpuError::BadLaunch(format!(
                    "positions_per_ply {capacity} is below one position's children ({children})"
                )));
            }
            self.expand_chunk(p, start, end - start, base)?;
            nodes += self.run_ply(p + 1, children as usize, expansions - 1, leaf)?;
            // Plies below p + 1 were reused by that chunk; ply p's offsets are untouched.
        }
        Ok(nodes)
    }

    /// Expands parents `start .. start + n` of ply `p` into ply `p + 1`.
    fn expand_chunk(
        &mut self,
        p: usize,
        start: usize,
        n: usize,
        base: u64,
    ) -> Result<(), GpuError> {
        let (parents, children) = self.plies.split_at_mut(p + 1);
        let parent = &parents[p];
        self.device.launch(
            &self.expand,
            groups(n) * GROUP,
            GROUP,
            &[
                Arg::buf(&parent.boards),
                Arg::U32(to_u32(start, "first")?),
                Arg::U32(to_u32(n, "positions")?),
                Arg::buf(&parent.counts),
                Arg::U64(base),
                Arg::buf(&children[0].boards),
                Arg::buf(&self.lookup_params),
                Arg::buf(&self.lookup_attacks),
            ],
        )
    }

    /// The fused tail over positions `0 .. n` of ply `p`.
    fn leaves(&mut self, p: usize, n: usize, depth: u32) -> Result<u64, GpuError> {
        let clock = Instant::now();
        let ply = &self.plies[p];
        let nodes = self.tail(Source::List(&ply.boards), p, n, depth)?;
        self.note(|s| {
            s.tails += clock.elapsed().as_secs_f64();
            s.launches += 1;
        });
        Ok(nodes)
    }

    /// `depth` (1 to 3) plies below the first `n` positions of `source`, which are of ply `p`,
    /// each times its paths; 2 runs the staged kernel, 1 and 3 depth-first per thread (not from
    /// the table).
    fn tail(&self, source: Source, p: usize, n: usize, depth: u32) -> Result<u64, GpuError> {
        let g = groups(n);
        let sums: Buffer<u64> = self.device.alloc(g)?;
        let (boards, weights, kind) = match source {
            Source::List(b) => (b, &self.no_weights, 0),
            Source::Weighted(b, w) => (b, w, 1),
            Source::Table => (&self.table, &self.no_weights, 2),
        };
        debug_assert!(depth == 2 || kind != 2);
        let n32 = to_u32(n, "positions")?;
        if depth == 2 {
            self.device.launch(
                &self.perft_staged2[self.root_shares as usize]
                    [(self.root_side ^ (p as u32 & 1)) as usize],
                g * GROUP,
                GROUP,
                &[
                    Arg::buf(boards),
                    Arg::buf(weights),
                    Arg::U32(kind),
                    Arg::U32(n32),
                    Arg::buf(&self.lookup_params),
                    Arg::buf(&self.lookup_attacks),
                    Arg::buf(&sums),
                ],
            )?;
        } else {
            self.device.launch(
                &self.perft_leaf,
                g * GROUP,
                GROUP,
                &[
                    Arg::buf(boards),
                    Arg::buf(weights),
                    Arg::U32(kind),
                    Arg::U32(n32),
                    Arg::U32(depth),
                    Arg::buf(&sums),
                ],
            )?;
        }
        self.sum(&sums)
    }

    /// Reads per-work-group partial sums back and adds them.
    fn sum(&self, sums: &Buffer<u64>) -> Result<u64, GpuError> {
        let mut host = vec![0u64; sums.len()];
        self.device.read(sums, &mut host)?;
        Ok(host.iter().sum())
    }

    /// Exclusive prefix sum of counts[0 .. n] of ply `p`, in place; returns the total.
    fn scan(&mut self, p: usize, n: usize) -> Result<u64, GpuError> {
        let device = &self.device;
        let (blocks, adds) = (&self.scan_blocks, &self.scan_add);
        scan_in_place(device, blocks, adds, &self.plies[p].counts, n)
    }
}

/// Scans `data[0 .. n]` in place (exclusive) with one level of block sums per recursion.
fn scan_in_place(
    device: &Device,
    scan_blocks: &Kernel,
    scan_add: &Kernel,
    data: &Buffer<u64>,
    n: usize,
) -> Result<u64, GpuError> {
    let g = groups(n);
    let block_sums: Buffer<u64> = device.alloc(g)?;
    // Both passes take (data, n, block sums): scan_blocks writes the sums, scan_add reads them
    // back once they are scanned themselves.
    let args = [
        Arg::buf(data),
        Arg::U32(to_u32(n, "positions")?),
        Arg::buf(&block_sums),
    ];
    device.launch(scan_blocks, g * GROUP, GROUP, &args)?;
    if g == 1 {
        let mut total = [0u64];
        device.read(&block_sums, &mut total)?;
        return Ok(total[0]);
    }
    let total = scan_in_place(device, scan_blocks, scan_add, &block_sums, g)?;
    device.launch(scan_add, g * GROUP, GROUP, &args)?;
    Ok(total)
}

#[cfg(test)]
mod tests {
    #[test]
    fn children_share_from_ten_slider_lookups() {
        use super::{Board, shares_children};
        let fen = |f: &str| Board::from_fen(f).unwrap();
        assert!(shares_children(&Board::startpos()));
        assert!(shares_children(&fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
        )));
        // Four rooks, three bishops and a queen (counted twice): 9 lookups; one more bishop: 10.
        assert!(!shares_children(&fen(
            "r1b1kb1r/8/8/8/8/8/8/R1BQK2R w KQkq - 0 1"
        )));
        assert!(shares_children(&fen(
            "r1b1kb1r/8/8/8/8/8/8/R1BQKB1R w KQkq - 0 1"
        )));
        assert!(!shares_children(&fen(
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
        )));
    }

    use super::castle_paths;

    #[test]
    fn castle_paths_of_standard_and_chess960_castlings() {
        // King e1, rook h1: the king crosses f1 and ends on g1; f1 and g1 must be empty.
        assert_eq!(castle_paths(4, 7), 0x60 | 0x60 << 8);
        // King e1, rook a1: the king crosses d1 to c1; b1, c1 and d1 must be empty.
        assert_eq!(castle_paths(4, 0), 0x0c | 0x0e << 8);
        // Chess960, king b1 and rook a1: the king goes to c1 (and the rook to d1).
        assert_eq!(castle_paths(1, 0), 0x04 | 0x0c << 8);
        // King g1 and rook h1: the king stays, the rook goes to f1.
        assert_eq!(castle_paths(6, 7), 0x40 | 0x20 << 8);
        // King f1, rook g1: the two swap over the squares they own.
        assert_eq!(castle_paths(5, 6), 0x40);
    }
}
