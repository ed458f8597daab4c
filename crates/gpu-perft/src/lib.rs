//! GPU perft: the host drives a breadth-first expansion ply by ply on the device — count every
//! position's legal moves, prefix-sum the counts on the device to place each child, write the
//! children contiguously — and the last two plies run fused in one kernel: each work-group
//! stages its positions' children in local memory, every thread takes an equal share of them and
//! bulk-counts their moves. (One to three plies depth-first per thread is the other tail, used
//! under the table.) Positions travel in 32 bytes: the quad-bitboard of `kogge_chess::packed`
//! with the state hidden in codes it leaves unused (kernels/perft_board.h). A ply that would not fit in the per-ply buffers is split
//! into chunks of parents whose children fit, so depth is limited by time, not memory.
//!
//! With `hash_bytes`, a lossless transposition table in device memory answers the depth-first
//! tail for positions seen before (transpositions), verified against the whole position.
//!
//! The kernels are `crates/gpu/kernels/{board.h, movegen.h, perft.cl}`, one source for CUDA and
//! OpenCL.

use kogge_chess::types::Square;
use kogge_chess::{Board, Move, attacks, packed, tables};
use kogge_gpu::{Arg, Buffer, Device, GpuError, Kernel, Module};

/// The kernel source, in the order the files depend on each other.
pub const SOURCE: &str = concat!(
    include_str!("../../gpu/kernels/board.h"),
    include_str!("../../gpu/kernels/movegen.h"),
    include_str!("../../gpu/kernels/lookup.h"),
    include_str!("../../gpu/kernels/perft_board.h"),
    include_str!("../../gpu/kernels/perft.cl"),
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
    /// Bytes of device memory for the transposition table of the depth-first tail (`--hash`);
    /// 0 for none. Rounded down to a power of two of 64-byte entries.
    pub hash_bytes: usize,
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
        }
    }
}

/// One ply's device buffers: positions and their child counts (scanned in place to offsets).
struct Ply {
    boards: Buffer<u64>,
    counts: Buffer<u64>,
}

/// A GPU perft engine bound to one device: kernels built once, buffers allocated on first use
/// and kept between runs.
pub struct GpuPerft {
    device: Device,
    _module: Module,
    count_children: Kernel,
    scan_blocks: Kernel,
    scan_add: Kernel,
    expand: Kernel,
    perft_leaf: Kernel,
    perft_staged2: Kernel,
    tt_lookup: Kernel,
    gather_misses: Kernel,
    perft_misses: Kernel,
    /// The dense list of table misses (indices into a ply), allocated on first use.
    misses: Option<Buffer<u32>>,
    options: PerftOptions,
    plies: Vec<Ply>,
    /// The lossless transposition table (see perft.cl), kept between runs: its entries hold
    /// whole positions and depths, so they stay valid for any later position.
    tt: Buffer<u64>,
    tt_mask: u64,
    /// The attack tables of lookup.h (see `lookup_tables`).
    lookup_params: Buffer<u64>,
    lookup_attacks: Buffer<u64>,
}

/// 64-bit words per transposition-table entry (perft.cl's TT_WORDS).
const TT_WORDS: usize = 8;

/// Positions of the last ply looked up and counted at a time when there is a table: enough to
/// fill the GPU, few enough that many sub-batches profit from the entries earlier ones stored.
const TABLE_BATCH: usize = 1 << 20;

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
/// the knight and king attacks) and the attack blocks (rooks, then bishops, whose offsets are moved
/// past the rooks).
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
    debug_assert_eq!(params.len(), LOOKUP_WORDS);
    let mut table = Vec::with_capacity(rook_len + tables::BISHOP_MAGIC_TABLE.len());
    table.extend_from_slice(&tables::ROOK_MAGIC_TABLE[..]);
    table.extend_from_slice(&tables::BISHOP_MAGIC_TABLE[..]);
    (params, table)
}

/// The `#define`s the kernels are built with (for tests that compile them elsewhere too).
/// `TAIL_BLOCKS` is the work-groups per multiprocessor the staged tail is compiled for (its
/// register budget on CUDA); `KOGGE_PERFT_TAIL_BLOCKS` overrides it, for benchmarks.
pub fn kernel_defines() -> [(&'static str, String); 2] {
    let tail_blocks = std::env::var("KOGGE_PERFT_TAIL_BLOCKS")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
        .unwrap_or(TAIL_BLOCKS);
    [
        ("SCAN_GROUP", GROUP.to_string()),
        ("TAIL_BLOCKS", tail_blocks.to_string()),
    ]
}

/// Work-groups per multiprocessor for the staged tail: 6 of 128 threads leave 80 registers a
/// thread, measured fastest on the H100 (docs/PERFORMANCE.md).
const TAIL_BLOCKS: u32 = 6;

/// Words of lookup.h's parameter array (its LOOKUP_WORDS).
const LOOKUP_WORDS: usize = 640;

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
        let module = device.build(SOURCE, &kernel_defines())?;
        // A power of two of entries, at least two (a mask of 0 means "no table"); without a
        // table the kernel still takes a buffer, so it gets a one-entry dummy.
        let entries = options.hash_bytes / (TT_WORDS * 8);
        let (tt_len, tt_mask) = if entries >= 2 {
            let entries = 1usize << entries.ilog2();
            (entries * TT_WORDS, entries as u64 - 1)
        } else {
            (TT_WORDS, 0)
        };
        let tt = device.alloc::<u64>(tt_len)?;
        let (params, attacks) = lookup_tables();
        let mut lookup_params = device.alloc::<u64>(params.len())?;
        device.write(&mut lookup_params, &params)?;
        let mut lookup_attacks = device.alloc::<u64>(attacks.len())?;
        device.write(&mut lookup_attacks, &attacks)?;
        Ok(GpuPerft {
            lookup_params,
            lookup_attacks,
            tt,
            tt_mask,
            count_children: module.kernel("count_children")?,
            scan_blocks: module.kernel("scan_blocks")?,
            scan_add: module.kernel("scan_add")?,
            expand: module.kernel("expand")?,
            perft_leaf: module.kernel("perft_leaf")?,
            perft_staged2: module.kernel("perft_staged2")?,
            tt_lookup: module.kernel("tt_lookup")?,
            gather_misses: module.kernel("gather_misses")?,
            perft_misses: module.kernel("perft_misses")?,
            misses: None,
            _module: module,
            device,
            options,
            plies: Vec::new(),
        })
    }

    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Transposition-table entries in use (0 without `hash_bytes`).
    pub fn hash_entries(&self) -> u64 {
        if self.tt_mask == 0 {
            0
        } else {
            self.tt_mask + 1
        }
    }

    /// The number of leaf nodes `depth` plies below `board`.
    pub fn perft(&mut self, board: &Board, depth: u32) -> Result<u64, GpuError> {
        if depth == 0 {
            return Ok(1);
        }
        let leaf = self.options.leaf_depth.min(depth);
        let expansions = (depth - leaf) as usize;
        self.ensure_plies(expansions + 1)?;
        let root = perft_words(board);
        self.device.write(&mut self.plies[0].boards, &root)?;
        self.run_ply(0, 1, expansions, leaf)
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
        let mut offsets = vec![0u64; n];
        self.device.read(&self.plies[p].counts, &mut offsets)?;
        // Where parent k's children begin; parents past the end begin at the total.
        let child_start = |k: usize| if k < n { offsets[k] } else { total };
        let mut nodes = 0;
        let mut start = 0;
        while start < n {
            let base = offsets[start];
            let mut end = start + 1;
            while end < n && child_start(end + 1) - base <= capacity {
                end += 1;
            }
            let children = child_start(end) - base;
            if children > capacity {
                // One parent has at most 218 children: only a tiny test capacity gets here.
                return Err(GpuError::BadLaunch(format!(
                    "positions_per_ply {capacity} is below one position's children ({children})"
                )));
            }
            self.expand_chunk(p, start, end - start, base)?;
            nodes += self.run_ply(p + 1, children as usize, expansions - 1, leaf)?;
            // Plies below p + 1 were reused by that chunk; ply p's offsets are untouched.
            start = end;
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
            ],
        )
    }

    /// The fused tail over positions `0 .. n` of ply `p`.
    fn leaves(&mut self, p: usize, n: usize, depth: u32) -> Result<u64, GpuError> {
        if self.tt_mask != 0 {
            return self.leaves_with_table(p, n, depth);
        }
        let g = groups(n);
        let sums: Buffer<u64> = self.device.alloc(g)?;
        if depth == 2 {
            self.device.launch(
                &self.perft_staged2,
                g * GROUP,
                GROUP,
                &[
                    Arg::buf(&self.plies[p].boards),
                    Arg::U32(to_u32(n, "positions")?),
                    Arg::buf(&self.lookup_params),
                    Arg::buf(&self.lookup_attacks),
                    Arg::buf(&sums),
                ],
            )?;
            return self.sum(&sums);
        }
        self.device.launch(
            &self.perft_leaf,
            g * GROUP,
            GROUP,
            &[
                Arg::buf(&self.plies[p].boards),
                Arg::U32(to_u32(n, "positions")?),
                Arg::U32(depth),
                Arg::buf(&sums),
            ],
        )?;
        self.sum(&sums)
    }

    /// The tail with the table, in sub-batches of [`TABLE_BATCH`] positions: look every position
    /// up (hits summed, misses flagged in the ply's counts buffer, free at the last ply),
    /// prefix-sum the flags, list the misses densely and count only those, so that no warp idles
    /// behind one lane's miss. Later sub-batches hit what earlier ones stored.
    fn leaves_with_table(&mut self, p: usize, n: usize, depth: u32) -> Result<u64, GpuError> {
        // An eighth of a ply buffer when that is smaller (small buffers in tests, so that they
        // run several sub-batches too).
        let batch = TABLE_BATCH
            .min(self.options.positions_per_ply / 8)
            .max(GROUP);
        let mut nodes = 0;
        let mut first = 0;
        while first < n {
            let count = batch.min(n - first);
            nodes += self.table_batch(p, first, count, depth)?;
            first += count;
        }
        Ok(nodes)
    }

    fn table_batch(
        &mut self,
        p: usize,
        first: usize,
        n: usize,
        depth: u32,
    ) -> Result<u64, GpuError> {
        let g = groups(n);
        let hit_sums: Buffer<u64> = self.device.alloc(g)?;
        let (first32, n32) = (to_u32(first, "first")?, to_u32(n, "positions")?);
        self.device.launch(
            &self.tt_lookup,
            g * GROUP,
            GROUP,
            &[
                Arg::buf(&self.plies[p].boards),
                Arg::U32(first32),
                Arg::U32(n32),
                Arg::U32(depth),
                Arg::buf(&self.tt),
                Arg::U64(self.tt_mask),
                Arg::buf(&self.plies[p].counts),
                Arg::buf(&hit_sums),
            ],
        )?;
        let hits = self.sum(&hit_sums)?;
        let missed = self.scan(p, n)?;
        if missed == 0 {
            return Ok(hits);
        }
        if self.misses.is_none() {
            self.misses = Some(self.device.alloc::<u32>(TABLE_BATCH)?);
        }
        let Some(list) = self.misses.as_ref() else {
            return Ok(hits);
        };
        self.device.launch(
            &self.gather_misses,
            g * GROUP,
            GROUP,
            &[
                Arg::buf(&self.plies[p].counts),
                Arg::U32(n32),
                Arg::U64(missed),
                Arg::buf(list),
            ],
        )?;
        let m = missed as usize;
        let miss_sums: Buffer<u64> = self.device.alloc(groups(m))?;
        self.device.launch(
            &self.perft_misses,
            groups(m) * GROUP,
            GROUP,
            &[
                Arg::buf(&self.plies[p].boards),
                Arg::U32(first32),
                Arg::buf(list),
                Arg::U32(to_u32(m, "misses")?),
                Arg::U32(depth),
                Arg::buf(&self.tt),
                Arg::U64(self.tt_mask),
                Arg::buf(&miss_sums),
            ],
        )?;
        Ok(hits + self.sum(&miss_sums)?)
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
