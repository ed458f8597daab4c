/* perft_dedup.cl: perft with the table (`--hash`) merges transpositions ply by ply. Perft is
 * linear: the leaves below a ply are the sum, over the distinct positions P of that ply, of
 * (paths from the root to P) x perft(P, remaining depth). So each ply is kept as a list of
 * distinct positions with a weight (their number of paths), and the next ply is built by
 * inserting every child, with its parent's weight, into a table that adds up the weights of equal
 * positions. The tail (perft.cl's perft_staged2 and perft_leaf) multiplies by the weights.
 * Needs perft.cl (staging, group_scan) before it.
 *
 * The table is open addressing with linear probing over any number of slots (the start slot is
 * the hash's low 32 bits scaled to the table). Slot = SLOT_WORDS (perft.cl) = 6 words:
 * [0] fingerprint (0: empty), [1] the summed weight, [2..5] the position. No thread ever waits on
 * another, and every comparison of positions reads slots completed by an earlier kernel:
 *   pass 0 (claim): each child walks from its start slot; at an empty slot it claims it
 *     (compare-and-swap of the fingerprint) and writes the position; at a slot with its
 *     fingerprint it stops (most likely an equal position, compared in pass 1);
 *   pass 1 (match): each child walks again and adds its weight to the first slot holding an equal
 *     position: the one claimed in pass 0, since a walk stops at the first slot with its
 *     fingerprint and no slot is ever emptied. A child that finds none (its fingerprint collided
 *     with another position's, which stopped it in pass 0) goes to the overflow list;
 *   dedup_overflow: the overflow list claims fresh slots without comparing, so a position may
 *     then hold two slots. That only costs time: the weights still add up exactly.
 * Every child's weight thus lands exactly once in a slot holding its own position, and the count
 * stays exact whatever the fingerprints do (tests truncate them to force collisions).
 *
 * A ply too large for the table is split by range_key (a hash of the occupancy) into ranges
 * [lo, hi] of 32-bit keys, each deduplicated and counted on its own (transpositions across ranges
 * are impossible: equal positions have equal keys). The ranges of one ply are listed one after
 * another into one list while it has room, so that the next ply merges transpositions across
 * them too. The last ply merged is not listed: the tail reads the table itself (perft.cl's
 * SOURCE_TABLE). counters: [0] set when the table overflowed (the host splits the range and
 * redoes it), [1] overflow-list entries, [2] positions compacted, [3] slots claimed, [4] set
 * when the list ran out of room (the host counts on from what is listed, then redoes the range). */

/* Longest walk before a table counts as full. */
#define MAX_PROBES 4096u
#define COUNTER_FULL 0
#define COUNTER_OVERFLOW 1
#define COUNTER_COMPACTED 2
#define COUNTER_CLAIMED 3
#define COUNTER_LIST_FULL 4

/* The slot a walk starts from: the hash's low 32 bits scaled to the table's size. */
DEVICE_FN u64 start_slot(u64 h, u64 slots) { return ((h & U64_C(0xffffffff)) * slots) >> 32; }

DEVICE_FN u64 position_hash(PerftBoard p) {
    u64 h = mix64(p.quad[0]);
    h = mix64(h ^ p.quad[1]);
    h = mix64(h ^ p.quad[2]);
    return mix64(h ^ p.quad[3]);
}

DEVICE_FN int slot_holds(volatile GLOBAL u64 *s, PerftBoard p) {
    return s[2] == p.quad[0] && s[3] == p.quad[1] && s[4] == p.quad[2] && s[5] == p.quad[3];
}

/* Pass 0 (see above): returns 1 if it claimed a slot. `compare` = 0 is the overflow list's
 * claim-only walk, which sets its weight at once (no pass 1 follows it). */
DEVICE_FN int dedup_claim(GLOBAL u64 *table, u64 slots, u64 h, u64 fp, PerftBoard p, u64 weight,
                          int compare, GLOBAL u64 *counters) {
    u64 slot = start_slot(h, slots);
    for (u32 probe = 0; probe < MAX_PROBES; probe++) {
        GLOBAL u64 *s = table + slot * SLOT_WORDS;
        u64 old = ATOMIC_CAS_U64(s, U64_C(0), fp);
        if (old == 0) {
            s[2] = p.quad[0];
            s[3] = p.quad[1];
            s[4] = p.quad[2];
            s[5] = p.quad[3];
            if (!compare) s[1] = weight;
            return 1;
        }
        if (compare && old == fp) return 0;
        if (++slot == slots) slot = 0;
    }
    counters[COUNTER_FULL] = 1;
    return 0;
}

/* Pass 1 (see above). */
DEVICE_FN void dedup_match(GLOBAL u64 *table, u64 slots, u64 h, u64 fp, PerftBoard p, u64 weight,
                           GLOBAL u64 *overflow, u64 overflow_cap, GLOBAL u64 *counters) {
    u64 slot = start_slot(h, slots);
    for (u32 probe = 0; probe < MAX_PROBES; probe++) {
        volatile GLOBAL u64 *s = table + slot * SLOT_WORDS;
        u64 f = s[0];
        if (f == 0) break;
        if (f == fp && slot_holds(s, p)) {
            ATOMIC_ADD_U64((GLOBAL u64 *)&s[1], weight);
            return;
        }
        if (++slot == slots) slot = 0;
    }
    u64 k = ATOMIC_ADD_U64(&counters[COUNTER_OVERFLOW], U64_C(1));
    if (k >= overflow_cap) {
        counters[COUNTER_FULL] = 1;
        return;
    }
    GLOBAL u64 *o = overflow + k * 5;
    o[0] = p.quad[0];
    o[1] = p.quad[1];
    o[2] = p.quad[2];
    o[3] = p.quad[3];
    o[4] = weight;
}

/* The occupancy after move m from a position with occupancy `occ` (castling: king on `from`,
 * rook on `to`), without making the move. */
DEVICE_FN u64 occupancy_after(u64 occ, Move m, u32 side) {
    u32 from = m & 63u, to = (m >> 6) & 63u, kind = (m >> 12) & 3u;
    if (kind == MOVE_CASTLING) {
        u32 base = side ? 56u : 0u;
        u32 king_side = to > from;
        return (occ & ~bit(from) & ~bit(to)) | bit(base + (king_side ? 6u : 2u)) |
               bit(base + (king_side ? 5u : 3u));
    }
    occ = (occ & ~bit(from)) | bit(to);
    return kind == MOVE_EN_PASSANT ? occ & ~bit(to ^ 8u) : occ;
}

/* The key that splits a ply into ranges: a hash of the occupancy alone. Equal positions have
 * equal occupancies, so they land in one range, and a child's key comes from its parent and the
 * move without making it: a pass keeps only the moves into its range before staging, so the
 * children it makes are all ones it inserts. */
DEVICE_FN u32 range_key(u64 occ) { return (u32)(mix64(occ) >> 32); }

/* Keeps the moves of `list` whose child's range key is in [lo, hi]; returns how many. */
DEVICE_FN u32 keep_in_range(const Board *b, Move *list, u32 count, u32 lo, u32 hi) {
    u64 occ = b->colors[0] | b->colors[1];
    u32 kept = 0;
    for (u32 j = 0; j < count; j++) {
        u32 key = range_key(occupancy_after(occ, list[j], b->side));
        if (key >= lo && key <= hi) list[kept++] = list[j];
    }
    return kept;
}

/* One pass (0: claim, 1: match) over the children of positions 0 .. n - 1 (weights[i] paths
 * each) whose key falls in [lo, hi]. The children are staged as in perft.cl's expand, so every
 * lane makes the same number of them. fp_mask keeps the fingerprint's low bits (all but in
 * tests). Claims are counted per work-group in local memory, then once in counters. */
KERNEL void dedup_pass(const GLOBAL PerftBoard *boards, const GLOBAL u64 *weights, u32 n, u32 pass,
                       GLOBAL u64 *table, u64 slots, u64 fp_mask, u32 lo, u32 hi,
                       GLOBAL u64 *overflow, u64 overflow_cap, GLOBAL u64 *counters) {
    LOCAL Board parents[SCAN_GROUP];
    LOCAL u64 parent_weights[SCAN_GROUP];
    LOCAL u64 scan[SCAN_GROUP];
    LOCAL u16 moves[STAGE_CAP];
    LOCAL u8 owner[STAGE_CAP];
    LOCAL u32 claimed;
    u32 lid = LOCAL_ID();
    u32 i = GLOBAL_ID();
    Move list[256];
    u32 count, off;
    if (lid == 0) claimed = 0;
    Board b;
    count = 0;
    if (i < n) {
        unpack_perft(boards[i], &b);
        count = gen_moves(&b, list);
        /* The whole key space: nothing to filter (a ply that fits in one range). */
        if (lo != 0 || hi != 0xffffffffu) count = keep_in_range(&b, list, count, lo, hi);
    }
    u32 total = stage_listed(i < n, &b, parents, scan, count, &off);
    parent_weights[lid] = i < n ? weights[i] : 0;
    for (u32 window = 0; window < total; window += STAGE_CAP) {
        stage_window(list, count, off, window, moves, owner);
        BARRIER();
        u32 m = total - window < STAGE_CAP ? total - window : STAGE_CAP;
        for (u32 k = lid; k < m; k += SCAN_GROUP) {
            Board c = parents[owner[k]];
            make_move(&c, moves[k]);
            PerftBoard p = pack_perft(&c);
            u64 h = position_hash(p);
            u64 fp = (h & fp_mask) | 1;
            u64 w = parent_weights[owner[k]];
            if (pass == 1) dedup_match(table, slots, h, fp, p, w, overflow, overflow_cap, counters);
            else if (dedup_claim(table, slots, h, fp, p, w, 1, counters))
                ATOMIC_ADD_U32(&claimed, 1u);
        }
        BARRIER();
    }
    if (lid == 0 && claimed) ATOMIC_ADD_U64(&counters[COUNTER_CLAIMED], (u64)claimed);
}

/* The overflow list's entries each claim a fresh slot (no comparison). Launched on `cap`
 * threads (the list's capacity), so that the host need not read the list's length first. */
KERNEL void dedup_overflow(const GLOBAL u64 *overflow, u32 cap, GLOBAL u64 *table, u64 slots,
                           u64 fp_mask, GLOBAL u64 *counters) {
    u32 k = GLOBAL_ID();
    if (k >= cap || k >= counters[COUNTER_OVERFLOW]) return;
    const GLOBAL u64 *o = overflow + (u64)k * 5;
    PerftBoard p;
    p.quad[0] = o[0];
    p.quad[1] = o[1];
    p.quad[2] = o[2];
    p.quad[3] = o[3];
    u64 h = position_hash(p);
    if (dedup_claim(table, slots, h, (h & fp_mask) | 1, p, o[4], 0, counters))
        ATOMIC_ADD_U64(&counters[COUNTER_CLAIMED], U64_C(1));
}

/* Lists the occupied slots among slots 0 .. n - 1 as positions and weights at out[first ..]
 * (below cap; more sets the list-full flag), one atomic per work-group, and empties them for the
 * next use. */
KERNEL void dedup_compact(GLOBAL u64 *table, u32 n, GLOBAL PerftBoard *out, GLOBAL u64 *out_weights,
                          u64 first, u64 cap, GLOBAL u64 *counters) {
    LOCAL u64 scan[SCAN_GROUP];
    LOCAL u64 base;
    u32 i = GLOBAL_ID();
    GLOBAL u64 *s = table + (u64)i * SLOT_WORDS;
    u32 used = i < n && s[0] != 0;
    u64 total;
    u64 off = group_scan(scan, used, &total);
    if (LOCAL_ID() == 0) base = ATOMIC_ADD_U64(&counters[COUNTER_COMPACTED], total);
    BARRIER();
    if (!used) return;
    u64 k = first + base + off;
    if (k < cap) {
        PerftBoard p;
        p.quad[0] = s[2];
        p.quad[1] = s[3];
        p.quad[2] = s[4];
        p.quad[3] = s[5];
        out[k] = p;
        out_weights[k] = s[1];
    } else {
        counters[COUNTER_LIST_FULL] = 1;
    }
    s[0] = 0;
    s[1] = 0;
}
