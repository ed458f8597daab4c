//! GPU perft under the table (`PerftOptions::hash_bytes`): each ply a list of distinct positions
//! with their number of paths from the root, merged key range by key range in a table in device
//! memory (kernels/perft_dedup.cl), and the host's planning of the ranges, the lists' room and
//! the table's size.

use crate::{GROUP, GpuPerft, Source, WORDS, groups, to_u32};
use kogge_gpu::{Arg, Buffer, GpuError};
use std::time::Instant;

/// 64-bit words per table slot (perft.cl's SLOT_WORDS).
pub(crate) const SLOT_WORDS: usize = 6;

/// The share of a table's slots a key range is planned to fill (linear probing slows down as the
/// table fills).
const TABLE_LOAD: f64 = 0.7;

/// The share of a range's slots a list of distinct positions holds at least: a range with more
/// is split and redone.
const LIST_LOAD: f64 = 0.75;

/// The share of the device's memory the table and the lists of distinct positions may take
/// together (the rest is for the tail's partial sums, the driver and other programs).
const LIST_MEMORY: f64 = 0.9;

/// Words of perft_dedup.cl's counters.
pub(crate) const COUNTERS: usize = 5;

/// How merging one key range of a ply ended.
#[derive(Debug)]
enum Merged {
    /// It holds this many distinct positions (listed, or left in the table).
    Distinct(usize),
    /// The table ran full: split the range.
    TableFull,
    /// The list for the ply ran out of room.
    ListFull,
}

impl GpuPerft {
    /// Under the table: the leaves `depth` plies below the `n` distinct positions of weighted
    /// ply `p`, each counted times its weight. Two plies from the end the staged tail takes over;
    /// above, the children are merged into ply `p + 1` (see kernels/perft_dedup.cl), in as many
    /// key ranges as the table needs. The ranges are listed one after another into one list
    /// for ply `p + 1` while device memory holds it, so that ply `p + 2` merges transpositions
    /// across them; a full list is counted on and started afresh.
    pub(crate) fn merged_ply(&mut self, p: usize, n: usize, depth: u32) -> Result<u64, GpuError> {
        if n == 0 {
            return Ok(0);
        }
        if depth <= 2 {
            let ply = &self.weighted[p];
            return self.tail(Source::Weighted(&ply.boards, &ply.weights), p, n, depth);
        }
        let children = {
            let ply = &self.weighted[p];
            self.tail(Source::List(&ply.boards), p, n, 1)?
        };
        if children == 0 {
            return Ok(0);
        }
        // How many distinct children to expect: as many per child as the last time this ply was
        // merged, or the ply above, with a margin; too few only cost a range that runs full and
        // is split and redone.
        let expected = children as f64 * (self.ratio(p) * 1.15).min(1.0);
        // Three plies from the end the merged ply is not listed: the staged tail reads the table.
        let listed = depth > 3;
        // The list for ply p + 1 starts at what the ply is expected to need, with a margin for
        // the estimate and for positions that take two slots (no more: a small ply's list would
        // take memory from the larger plies below it), and grows when one range does not fit,
        // up to `most`: what memory allows, yet at least one range's worth. The table makes room
        // for a whole ply if it must.
        let want = (expected * 1.5) as usize;
        if listed && !self.table_dirty {
            self.make_list_room(p + 1, (expected * 1.05) as usize)?;
        }
        let most = {
            let room = self.list_room(p + 1);
            let range = (self.slots as f64 * LIST_LOAD) as usize;
            room.min(self.options.list_positions.unwrap_or(room))
                .max(range.min(want))
                .clamp(1, children.min(1 << 40) as usize)
        };
        let mut cap = 0;
        if listed {
            cap = want.clamp(1, most);
            self.ensure_weighted(p + 1, cap)?;
        }
        // Key ranges are taken in order, each as wide as keeps the table's load near TABLE_LOAD
        // at the density of distinct positions per key: estimated for the first, then measured.
        // What is left is split evenly (no thin last range: every range costs a pass over all
        // the parents), and a range uses no more of the table than it needs (the fewer slots,
        // the less to list or count over).
        const KEYS: u64 = 1 << 32;
        let mut density = expected / KEYS as f64;
        let mut lo = 0u64;
        let mut nodes = 0u64;
        // Positions of ply p + 1 listed so far.
        let mut filled = 0usize;
        while lo < KEYS {
            // Positions one range may hold: a table's worth, and a list's when listed.
            let mut room = self.slots as f64 * TABLE_LOAD;
            if listed {
                room = room.min(cap as f64 / 1.15);
            }
            let left = KEYS - lo;
            let ranges_left = ((left as f64 * density / room).ceil() as u64).max(1);
            let width = left.div_ceil(ranges_left);
            let hi = lo + width - 1;
            let wanted = (width as f64 * density * 1.15 / TABLE_LOAD) as usize + GROUP;
            let slots = self.slots.min(wanted).max(GROUP);
            let clock = Instant::now();
            let list = listed.then_some((filled, cap));
            let merged = self.merge_range(p, n, slots, list, lo as u32, hi as u32)?;
            if self.trace {
                eprintln!(
                    "trace: ply {}: {children} children of {n}, keys {lo:#x}..={hi:#x} \
                     ({ranges_left} ranges left), {slots} slots: {merged:?}, {:.3} s",
                    p + 1,
                    clock.elapsed().as_secs_f64()
                );
            }
            match merged {
                Merged::Distinct(distinct) => {
                    density = (distinct.max(1) as f64 / width as f64).max(density / 4.0);
                    let share = width as f64 / KEYS as f64;
                    self.set_ratio(p, distinct as f64 / (children as f64 * share).max(1.0));
                    lo = hi + 1;
                    if listed {
                        filled += distinct;
                        continue;
                    }
                    let clock = Instant::now();
                    let below = self.tail(Source::Table, p + 1, slots, 2)?;
                    self.table_dirty = false;
                    if self.trace {
                        eprintln!(
                            "trace: ply {}: tail of 2 below {distinct} positions: {below} nodes, \
                             {:.3} s",
                            p + 1,
                            clock.elapsed().as_secs_f64()
                        );
                    }
                    nodes += below;
                }
                Merged::ListFull if filled > 0 => {
                    // Count on from what the list holds, then redo the range into an empty list.
                    nodes += self.merged_ply(p + 1, filled, depth - 1)?;
                    filled = 0;
                }
                Merged::ListFull if cap < most => {
                    cap = (cap * 2).min(most);
                    self.ensure_weighted(p + 1, cap)?;
                }
                // Too many positions for the table (or for a list that cannot grow): take half
                // the keys.
                Merged::TableFull | Merged::ListFull if width > 1 => {
                    density = density.max(room / (width / 2) as f64);
                }
                Merged::TableFull | Merged::ListFull => {
                    return Err(GpuError::BadLaunch(format!(
                        "the perft table ({} slots) cannot hold one key's positions; give --hash more",
                        self.slots
                    )));
                }
            }
        }
        if filled > 0 {
            nodes += self.merged_ply(p + 1, filled, depth - 1)?;
        }
        Ok(nodes)
    }

    /// Positions a list for weighted ply `q` may hold: what is left of `LIST_MEMORY` of the
    /// device's memory beside the table and the lists of the other plies, in one allocation.
    fn list_room(&self, q: usize) -> usize {
        let bytes = |b: &Buffer<u64>| (b.len() * 8) as u64;
        let used: u64 = bytes(&self.table)
            + self
                .weighted
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != q)
                .map(|(_, w)| bytes(&w.boards) + bytes(&w.weights))
                .sum::<u64>();
        let budget = self
            .options
            .memory_limit
            .unwrap_or((self.device.info().memory_bytes as f64 * LIST_MEMORY) as u64);
        let room = (budget.saturating_sub(used) / ((WORDS + 1) * 8) as u64) as usize;
        room.min(self.max_list())
    }

    /// Positions one list can hold: its positions are one allocation.
    fn max_list(&self) -> usize {
        (self.device.info().max_alloc_bytes / (WORDS * 8) as u64) as usize
    }

    /// Shrinks the table, if that is what it takes, so that a list of `positions` for weighted
    /// ply `q` fits beside it: one list for a whole ply saves counting the plies below it twice,
    /// which costs more than a somewhat smaller table's extra key ranges. At most half the table
    /// goes, and it stays that size (lists of earlier runs may still hold what it gave up).
    fn make_list_room(&mut self, q: usize, positions: usize) -> Result<(), GpuError> {
        let positions = positions.min(self.max_list());
        let room = self.list_room(q);
        if room >= positions {
            return Ok(());
        }
        let deficit = ((positions - room) * (WORDS + 1) * 8) as u64;
        let table = (self.slots * SLOT_WORDS * 8) as u64;
        if deficit > table / 2 {
            return Ok(());
        }
        let slots = ((table - deficit) / (SLOT_WORDS * 8) as u64) as usize;
        if self.trace {
            eprintln!(
                "trace: the table shrinks from {} to {slots} slots, for a list of {positions}",
                self.slots
            );
        }
        // Free the old table before allocating the new one (no table meanwhile, should that
        // fail).
        self.slots = 0;
        self.table = self.device.alloc::<u64>(SLOT_WORDS)?;
        self.table = self.device.alloc::<u64>(slots * SLOT_WORDS)?;
        self.slots = slots;
        Ok(())
    }

    /// Distinct children per child when ply `p` was last merged (or the nearest ply above).
    fn ratio(&self, p: usize) -> f64 {
        self.distinct_ratio[..self.distinct_ratio.len().min(p + 1)]
            .iter()
            .rev()
            .copied()
            .find(|r| *r > 0.0)
            .unwrap_or(0.5)
    }

    fn set_ratio(&mut self, p: usize, ratio: f64) {
        if self.distinct_ratio.len() <= p {
            self.distinct_ratio.resize(p + 1, 0.0);
        }
        self.distinct_ratio[p] = ratio;
    }

    /// Merges the children of weighted ply `p`'s `n` positions whose key is in `lo ..= hi` in
    /// the first `slots` slots of the table and, with `list = Some((first, cap))`, lists them as
    /// ply `p + 1` from position `first` on (below `cap`), which empties the table; without, the
    /// table keeps them for the tail (`Source::Table`).
    fn merge_range(
        &mut self,
        p: usize,
        n: usize,
        slots: usize,
        list: Option<(usize, usize)>,
        lo: u32,
        hi: u32,
    ) -> Result<Merged, GpuError> {
        if self.table_dirty {
            // An earlier run stopped half-way: list nothing, which empties every slot.
            let slots = self.slots;
            self.device.write(&mut self.counters, &[0; COUNTERS])?;
            self.compact(None, slots)?;
        }
        self.device.write(&mut self.counters, &[0; COUNTERS])?;
        self.table_dirty = true;
        let bits = self.options.fingerprint_bits;
        let fp_mask = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let n32 = to_u32(n, "positions")?;
        let ply = &self.weighted[p];
        self.device.launch(
            &self.dedup_pass,
            groups(n) * GROUP,
            GROUP,
            &[
                Arg::buf(&ply.boards),
                Arg::buf(&ply.weights),
                Arg::U32(n32),
                Arg::buf(&self.table),
                Arg::U64(slots as u64),
                Arg::U64(fp_mask),
                Arg::U32(lo),
                Arg::U32(hi),
                Arg::buf(&self.counters),
                Arg::buf(&self.lookup_params),
                Arg::buf(&self.lookup_attacks),
            ],
        )?;
        let mut counters = [0u64; COUNTERS];
        if let Some((first, cap)) = list {
            self.compact(Some((p + 1, first, cap)), slots)?;
            self.table_dirty = false;
            self.device.read(&self.counters, &mut counters)?;
        } else {
            self.device.read(&self.counters, &mut counters)?;
            if counters[0] != 0 {
                // Ran full: empty the table for the range's halves.
                self.compact(None, slots)?;
                self.table_dirty = false;
            }
        }
        if self.trace && counters[4] != 0 {
            eprintln!("trace: {} children passed a locked slot by", counters[4]);
        }
        Ok(if counters[0] != 0 {
            Merged::TableFull
        } else if counters[3] != 0 {
            Merged::ListFull
        } else {
            Merged::Distinct(counters[2] as usize)
        })
    }

    /// dedup_compact over the first `slots` slots: into weighted ply `q` from `first` on (below
    /// `cap`) for `Some((q, first, cap))`; `None` only empties them.
    fn compact(&self, out: Option<(usize, usize, usize)>, slots: usize) -> Result<(), GpuError> {
        let (boards, weights, first, cap) = match out {
            Some((q, first, cap)) => (
                &self.weighted[q].boards,
                &self.weighted[q].weights,
                first,
                cap,
            ),
            None => (&self.no_weights, &self.no_weights, 0, 0),
        };
        self.device.launch(
            &self.dedup_compact,
            groups(slots) * GROUP,
            GROUP,
            &[
                Arg::buf(&self.table),
                Arg::U32(to_u32(slots, "slots")?),
                Arg::buf(boards),
                Arg::buf(weights),
                Arg::U64(first as u64),
                Arg::U64(cap as u64),
                Arg::buf(&self.counters),
            ],
        )
    }
}
