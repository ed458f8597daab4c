//! The transposition table, shared by every search thread without locks.
//!
//! Racy by design: threads read and write entries concurrently with relaxed atomics. Each entry
//! is two words, `key ^ data` and `data`; a reader recomputes `key` from the pair and takes the
//! entry only if it matches, so an entry torn by two writers (one word from each) fails the check
//! and reads as a miss instead of giving another position's move and value. The move it returns
//! is still only a hint: the search checks it against the legal moves before playing it.

use kogge_chess::Move;
use kogge_search::{MATE, MAX_PLY, Value};
use std::alloc::Layout;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// What a bound says of the stored value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtBound {
    /// No entry (never stored).
    None = 0,
    /// The value is at most this (every move failed low).
    Upper = 1,
    /// The value is at least this (a move failed high).
    Lower = 2,
    Exact = 3,
}

/// One probed entry, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtData {
    pub mv: Move,
    /// The value, already adjusted to the probing node's ply (see [`value_from_tt`]).
    pub value: Value,
    /// The static evaluation of the position.
    pub eval: Value,
    pub depth: i32,
    pub bound: TtBound,
}

#[derive(Default)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

const ENTRIES_PER_CLUSTER: usize = 4;

/// Four entries on one 64-byte cache line: one memory access per probe.
#[repr(align(64))]
#[derive(Default)]
struct Cluster {
    entries: [Entry; ENTRIES_PER_CLUSTER],
}

// data layout: move 16 | value 16 | eval 16 | depth 8 | bound 2 | generation 6
fn pack(mv: Move, value: Value, eval: Value, depth: i32, bound: TtBound, generation: u8) -> u64 {
    mv.raw() as u64
        | (value as i16 as u16 as u64) << 16
        | (eval as i16 as u16 as u64) << 32
        | (depth.clamp(0, 255) as u64) << 48
        | (bound as u64) << 56
        | ((generation & 63) as u64) << 58
}

fn bound_of(data: u64) -> TtBound {
    match data >> 56 & 3 {
        1 => TtBound::Upper,
        2 => TtBound::Lower,
        3 => TtBound::Exact,
        _ => TtBound::None,
    }
}

fn depth_of(data: u64) -> i32 {
    (data >> 48 & 255) as i32
}

fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8
}

/// Mate values are stored relative to the node ("mate in 3 from here"), not to the root, so
/// that a transposition reached at another ply reads the right distance.
pub fn value_to_tt(v: Value, ply: usize) -> Value {
    if v >= MATE - MAX_PLY as Value {
        v + ply as Value
    } else if v <= -MATE + MAX_PLY as Value {
        v - ply as Value
    } else {
        v
    }
}

/// The inverse of [`value_to_tt`].
pub fn value_from_tt(v: Value, ply: usize) -> Value {
    if v >= MATE - MAX_PLY as Value {
        v - ply as Value
    } else if v <= -MATE + MAX_PLY as Value {
        v + ply as Value
    } else {
        v
    }
}

/// The table's memory: `count` clusters on 64-byte boundaries, allocated zeroed (an empty
/// cluster is all zero bits).
///
/// Not a `Vec<Cluster>`: the global allocator zeroes over-aligned blocks by writing them on one
/// thread, seconds of work for a table of gigabytes. A block of alignment 16 comes from `calloc`,
/// which takes fresh zero pages from the operating system without writing them; the clusters
/// start at the first 64-byte boundary inside it. The table then writes it once, on every thread
/// (`clear_in_parallel`), so that its pages are mapped before a search, not during one.
struct ClusterBuffer {
    base: NonNull<u8>,
    layout: Layout,
    clusters: NonNull<Cluster>,
    count: usize,
}

// SAFETY: the buffer owns its memory exclusively, and clusters are atomics, safe to share.
unsafe impl Send for ClusterBuffer {}
// SAFETY: as above; all access through `&Cluster` is atomic.
unsafe impl Sync for ClusterBuffer {}

impl ClusterBuffer {
    /// `count` empty clusters, or `None` if the memory cannot be had.
    fn zeroed(count: usize) -> Option<ClusterBuffer> {
        let bytes = count
            .checked_mul(size_of::<Cluster>())?
            .checked_add(align_of::<Cluster>())?;
        let layout = Layout::from_size_align(bytes, 16).ok()?;
        // SAFETY: the layout has a non-zero size.
        let base = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        let offset = base.as_ptr().align_offset(align_of::<Cluster>());
        // SAFETY: `offset` < 64 and the block has 64 spare bytes, so the clusters stay inside
        // it; the pointer is 64-byte aligned and non-null.
        let clusters = unsafe { NonNull::new_unchecked(base.as_ptr().add(offset) as *mut Cluster) };
        Some(ClusterBuffer {
            base,
            layout,
            clusters,
            count,
        })
    }
}

impl Deref for ClusterBuffer {
    type Target = [Cluster];
    fn deref(&self) -> &[Cluster] {
        // SAFETY: `count` aligned clusters lie inside the block, all-zero bits are a valid
        // cluster, and the block lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.clusters.as_ptr(), self.count) }
    }
}

impl DerefMut for ClusterBuffer {
    fn deref_mut(&mut self) -> &mut [Cluster] {
        // SAFETY: as in `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.clusters.as_ptr(), self.count) }
    }
}

impl Drop for ClusterBuffer {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this layout.
        unsafe { std::alloc::dealloc(self.base.as_ptr(), self.layout) }
    }
}

/// Tables this large are cleared by all the machine's threads, smaller ones by the caller alone.
const PARALLEL_CLEAR_BYTES: usize = 64 << 20;

/// Writes every cluster empty, the machine's threads sharing a large table. Written here, its
/// pages are the process's before a search runs: a table handed over lazily (a fresh zeroed
/// block, as `clear` once made) maps each page at its first write, during the search. After
/// `ucinewgame` with `Hash` 1024 that made 16 threads' searches to depth 18 three times as long
/// (median a position; fortieth session, docs/PERFORMANCE.md).
fn clear_in_parallel(clusters: &mut [Cluster]) {
    let empty = |part: &mut [Cluster]| part.iter_mut().for_each(|c| *c = Cluster::default());
    let threads = if size_of_val(clusters) >= PARALLEL_CLEAR_BYTES {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        1
    };
    if threads == 1 {
        empty(clusters);
        return;
    }
    // Parts taken from a shared list by the caller and its helpers, so that a helper the system
    // refuses leaves its parts to the others: the table is emptied either way.
    let chunk = clusters.len().div_ceil(threads * 4).max(1);
    let parts = Mutex::new(clusters.chunks_mut(chunk).collect::<Vec<_>>());
    let work = || {
        loop {
            // The lock is let go before the part is written.
            let next = parts.lock().unwrap_or_else(|e| e.into_inner()).pop();
            match next {
                Some(part) => empty(part),
                None => break,
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            let _ = std::thread::Builder::new().spawn_scoped(scope, work);
        }
        work();
    });
}

pub struct TranspositionTable {
    clusters: ClusterBuffer,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `mb` mebibytes (at least one cluster).
    pub fn new(mb: usize) -> TranspositionTable {
        Self::with_fallback(mb).0
    }

    /// A table of `mb` MiB if the memory can be had, else of the largest power-of-two
    /// fraction of it that can (a GUI asking for more than the machine has must not crash the
    /// engine). Returns the table and its size in MiB.
    pub fn with_fallback(mb: usize) -> (TranspositionTable, usize) {
        let mut mb = mb.max(1);
        loop {
            let count = (mb.saturating_mul(1 << 20) / size_of::<Cluster>()).max(1);
            if let Some(mut clusters) = ClusterBuffer::zeroed(count) {
                // The block is zero but not yet the process's: its pages are mapped at their first
                // write. Written now, not by the first search (see `clear_in_parallel`).
                clear_in_parallel(&mut clusters);
                let table = TranspositionTable {
                    clusters,
                    generation: 0,
                };
                return (table, mb);
            }
            if mb == 1 {
                // Not even 1 MiB: the process is out of memory anyway.
                std::alloc::handle_alloc_error(Layout::new::<Cluster>());
            }
            mb /= 2;
        }
    }

    /// The table's size in MiB (rounded down).
    pub fn size_mb(&self) -> usize {
        size_of_val(&*self.clusters) >> 20
    }

    /// Empties the table by writing every cluster, where it is (`ucinewgame`: before `readyok`).
    pub fn clear(&mut self) {
        clear_in_parallel(&mut self.clusters);
        self.generation = 0;
    }

    /// Marks a new search: entries from older searches become the first to be replaced.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    fn cluster(&self, key: u64) -> &Cluster {
        // The high half of key × count spreads keys over any count, not just powers of two.
        let index = ((key as u128 * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[index]
    }

    /// Hints the processor to fetch the cluster of `key`, ahead of the probe.
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is only a hint; any address is allowed, and this one is valid.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(self.cluster(key) as *const Cluster as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, with its value adjusted to `ply`.
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtData> {
        for e in &self.cluster(key).entries {
            let data = e.data.load(Ordering::Relaxed);
            if e.key_xor_data.load(Ordering::Relaxed) ^ data == key
                && bound_of(data) != TtBound::None
            {
                return Some(TtData {
                    mv: Move::from_raw(data as u16),
                    value: value_from_tt((data >> 16) as u16 as i16 as Value, ply),
                    eval: (data >> 32) as u16 as i16 as Value,
                    depth: depth_of(data),
                    bound: bound_of(data),
                });
            }
        }
        None
    }

    /// Stores a search result for `key` found at `ply`.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Move,
        value: Value,
        eval: Value,
        depth: i32,
        bound: TtBound,
    ) {
        let cluster = self.cluster(key);
        // The slot: this position's own entry if present, else the least valuable one (shallow
        // and old).
        let mut slot = &cluster.entries[0];
        let mut slot_worth = i32::MAX;
        let mut old = 0u64;
        for e in &cluster.entries {
            let data = e.data.load(Ordering::Relaxed);
            if e.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                slot = e;
                old = data;
                slot_worth = i32::MIN;
                break;
            }
            let age = (self.generation.wrapping_sub(generation_of(data)) & 63) as i32;
            let worth = depth_of(data) - 8 * age;
            if bound_of(data) == TtBound::None || worth < slot_worth {
                slot = e;
                slot_worth = if bound_of(data) == TtBound::None {
                    i32::MIN + 1
                } else {
                    worth
                };
            }
        }
        let same_key = slot_worth == i32::MIN;
        // Keep the old move when the new result has none; keep a deeper result of this search
        // unless the new one is exact.
        let mv = if same_key && mv.is_none() {
            Move::from_raw(old as u16)
        } else {
            mv
        };
        if same_key
            && bound != TtBound::Exact
            && generation_of(old) == self.generation
            && depth + 3 < depth_of(old)
        {
            return;
        }
        let data = pack(
            mv,
            value_to_tt(value, ply),
            eval,
            depth,
            bound,
            self.generation,
        );
        slot.key_xor_data.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    /// Per mille of the entries written in the current search, sampled over the first thousand.
    pub fn hashfull(&self) -> u32 {
        let mut used = 0;
        let mut seen = 0;
        for c in self.clusters.iter().take(1000 / ENTRIES_PER_CLUSTER) {
            for e in &c.entries {
                let data = e.data.load(Ordering::Relaxed);
                seen += 1;
                if bound_of(data) != TtBound::None && generation_of(data) == self.generation {
                    used += 1;
                }
            }
        }
        used * 1000 / seen.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_with_mate_distances() {
        let tt = TranspositionTable::new(1);
        let mv = Move::from_raw(0x1234 & 0x0fff);
        tt.store(42, 3, mv, MATE - 10, -17, 9, TtBound::Exact);
        let d = tt.probe(42, 5).expect("stored");
        assert_eq!(d.mv, mv);
        assert_eq!(
            d.value,
            MATE - 12,
            "mate distance measured from the new ply"
        );
        assert_eq!((d.eval, d.depth, d.bound), (-17, 9, TtBound::Exact));
        assert!(tt.probe(43, 0).is_none());
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::new(1);
        tt.store(7, 0, Move::NONE, 5, 5, 1, TtBound::Lower);
        let e = &tt
            .cluster(7)
            .entries
            .iter()
            .find(|e| e.data.load(Ordering::Relaxed) != 0)
            .unwrap();
        e.data.fetch_xor(1 << 20, Ordering::Relaxed);
        assert!(tt.probe(7, 0).is_none());
    }

    #[test]
    fn clear_empties_every_part_of_a_table_the_threads_share() {
        // Large enough for the parallel clear: each thread's part must be emptied.
        let mb = PARALLEL_CLEAR_BYTES >> 20;
        let mut tt = TranspositionTable::new(mb);
        let keys: Vec<u64> = (1..=4096u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for &k in &keys {
            tt.store(k, 0, Move::NONE, 1, 1, 3, TtBound::Exact);
        }
        // Keys spread over the whole table: its first and last parts hold some.
        let index = |k: u64| ((k as u128 * tt.clusters.len() as u128) >> 64) as usize;
        assert!(keys.iter().any(|&k| index(k) < tt.clusters.len() / 8));
        assert!(keys.iter().any(|&k| index(k) > tt.clusters.len() * 7 / 8));
        assert!(keys.iter().all(|&k| tt.probe(k, 0).is_some()));
        tt.clear();
        assert!(keys.iter().all(|&k| tt.probe(k, 0).is_none()));
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn hashfull_counts_this_search() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for k in 0..100_000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                0,
                Move::NONE,
                0,
                0,
                1,
                TtBound::Exact,
            );
        }
        assert!(tt.hashfull() > 900);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }
}
