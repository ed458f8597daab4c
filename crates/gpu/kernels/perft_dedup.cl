/* perft_dedup.cl: perft with the table (`--hash`) merges transpositions ply by ply. Perft is
 * linear: the leaves below a ply are the sum, over the distinct positions P of that ply, of
 * (paths from the root to P) x perft(P, remaining depth). So each ply is kept as a list of
 * distinct positions with a weight (their number of paths), and the next ply is built by
 * inserting every child, with its parent's weight, into a table that adds up the weights of equal
 * positions. The tail (perft.cl's perft_staged2 and perft_leaf) multiplies by the weights.
 * Needs perft.cl (staging, group_scan) and lookup.h before it.
 *
 * The table is open addressing with linear probing over any number of slots (the start slot is
 * the hash's low 32 bits scaled to the table). Slot = SLOT_WORDS (perft.cl) = 6 words:
 * [0] tag: 0 empty, SLOT_LOCKED while its claimer writes it, else the fingerprint; [1] the
 * summed weight (0 in an empty slot); [2..5] the position. Each child walks from its start slot:
 *   - at an empty slot it claims it (compare-and-swap to SLOT_LOCKED), writes the position, adds
 *     its weight and publishes the slot (its fingerprint, after a fence);
 *   - at a published slot with its fingerprint it compares the whole position, and if equal adds
 *     its weight there and stops; if not (a fingerprint collision) it walks on;
 *   - a locked slot it re-reads a few times (LOCKED_READS), then passes by: its position cannot
 *     be read yet. No thread waits on another without bound (PoCL runs a work-group's items one
 *     after another), at the price that a position may rarely hold two slots, each with part of
 *     its weight.
 * Every child's weight thus lands exactly once in a slot holding its own position, and the count
 * stays exact whatever the fingerprints do (tests truncate them to force collisions).
 *
 * A ply too large for the table is split by range_key (a hash of the occupancy) into ranges
 * [lo, hi] of 32-bit keys, each deduplicated and counted on its own (transpositions across ranges
 * are impossible: equal positions have equal keys). The ranges of one ply are listed one after
 * another into one list while it has room, so that the next ply merges transpositions across
 * them too. The last ply merged is not listed: the tail reads the table itself (perft.cl's
 * SOURCE_TABLE). counters: [0] set when the table ran full (the host splits the range and redoes
 * it), [1] positions compacted, [2] slots claimed, [3] set when the list ran out of room (the
 * host counts on from what is listed, then redoes the range), [4] locked slots passed by. */

/* Longest walk before a table counts as full. */
#define MAX_PROBES 4096u
#define COUNTER_FULL 0
#define COUNTER_COMPACTED 1
#define COUNTER_CLAIMED 2
#define COUNTER_LIST_FULL 3
#define COUNTER_PASSED 4
/* Reads of a locked slot before passing it by: a claimer publishes within a few memory round
 * trips, and a position that passes by takes a second slot. Bounded, so that no thread waits on
 * one that cannot run (PoCL runs a work-group's items one after another). */
#define LOCKED_READS 16u
/* The tag of a slot being written; fingerprints are never 0 or 1 (bit 1 is set). */
#define SLOT_LOCKED U64_C(1)

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

/* Inserts position p (hash h, fingerprint fp) with `weight` paths (see above); returns 1 if it
 * claimed a slot, and counts the locked slots it passed by in *passed. */
DEVICE_FN int dedup_insert(GLOBAL u64 *table, u64 slots, u64 h, u64 fp, PerftBoard p, u64 weight,
                           GLOBAL u64 *counters, LOCAL_PTR u32 *passed) {
    u64 slot = start_slot(h, slots);
    for (u32 probe = 0; probe < MAX_PROBES; probe++) {
        GLOBAL u64 *s = table + slot * SLOT_WORDS;
        u64 tag = ((volatile GLOBAL u64 *)s)[0];
        if (tag == 0) {
            tag = ATOMIC_CAS_U64(s, U64_C(0), SLOT_LOCKED);
            if (tag == 0) {
                s[2] = p.quad[0];
                s[3] = p.quad[1];
                s[4] = p.quad[2];
                s[5] = p.quad[3];
                ATOMIC_ADD_U64(&s[1], weight);
                /* The position before the tag: whoever sees the fingerprint reads it whole. */
                MEMORY_FENCE();
                ATOMIC_CAS_U64(s, SLOT_LOCKED, fp);
                return 1;
            }
            /* Claimed under our feet: `tag` is what the claimer put there. */
        }
        for (u32 read = 0; tag == SLOT_LOCKED && read < LOCKED_READS; read++)
            tag = ((volatile GLOBAL u64 *)s)[0];
        if (tag == SLOT_LOCKED) ATOMIC_ADD_U32(passed, 1u);
        if (tag == fp) {
            MEMORY_FENCE();
            if (slot_holds((volatile GLOBAL u64 *)s, p)) {
                ATOMIC_ADD_U64(&s[1], weight);
                return 0;
            }
        }
        if (++slot == slots) slot = 0;
    }
    counters[COUNTER_FULL] = 1;
    return 0;
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

/* Inserts the children of positions 0 .. n - 1 (weights[i] paths each) whose key falls in
 * [lo, hi]. The moves out of range are dropped before staging (keep_in_range), and the rest are
 * staged as in perft.cl's expand, so every lane makes and inserts the same number of children.
 * fp_mask keeps the fingerprint's low bits (all but in tests). Claims are counted per work-group
 * in local memory, then once in counters. */
KERNEL void dedup_pass(const GLOBAL PerftBoard *boards, const GLOBAL u64 *weights, u32 n,
                       GLOBAL u64 *table, u64 slots, u64 fp_mask, u32 lo, u32 hi,
                       GLOBAL u64 *counters, const GLOBAL u64 *lookup_params,
                       const GLOBAL u64 *lookup_attacks) {
    LOCAL QuadBoard parents[SCAN_GROUP];
    LOCAL u64 parent_weights[SCAN_GROUP];
    LOCAL u64 scan[SCAN_GROUP];
    LOCAL u16 moves[STAGE_CAP];
    LOCAL u8 owner[STAGE_CAP];
    LOCAL u32 claimed, passed;
    LOCAL u64 params[LOOKUP_WORDS];
    lookup_load(params, lookup_params);
    Lookup t;
    t.params = params;
    t.attacks = lookup_attacks;
    u32 lid = LOCAL_ID();
    u32 i = GLOBAL_ID();
    Move list[MOVE_LIST_SIZE];
    u32 count, off;
    if (lid == 0) {
        claimed = 0;
        passed = 0;
    }
    PerftBoard p = {{0, 0, 0, 0}};
    count = 0;
    if (i < n) {
        Board b;
        p = boards[i];
        unpack_perft(p, &b);
        count = gen_moves_lookup(&b, &t, list);
        /* The whole key space: nothing to filter (a ply that fits in one range). */
        if (lo != 0 || hi != 0xffffffffu) count = keep_in_range(&b, list, count, lo, hi);
    }
    u32 total = stage_listed(i < n, p, parents, scan, count, &off);
    parent_weights[lid] = i < n ? weights[i] : 0;
    for (u32 window = 0; window < total; window += STAGE_CAP) {
        stage_window(list, count, off, window, moves, owner);
        BARRIER();
        u32 m = total - window < STAGE_CAP ? total - window : STAGE_CAP;
        for (u32 k = lid; k < m; k += SCAN_GROUP) {
            QuadBoard c = parents[owner[k]];
            make_quad_move(&c, moves[k], c.side, &t);
            PerftBoard child = perft_of_quad(&c);
            u64 h = position_hash(child);
            u64 fp = (h & fp_mask) | 2;
            if (dedup_insert(table, slots, h, fp, child, parent_weights[owner[k]], counters, &passed))
                ATOMIC_ADD_U32(&claimed, 1u);
        }
        BARRIER();
    }
    if (lid == 0 && claimed) ATOMIC_ADD_U64(&counters[COUNTER_CLAIMED], (u64)claimed);
    if (lid == 0 && passed) ATOMIC_ADD_U64(&counters[COUNTER_PASSED], (u64)passed);
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
