/* search_table.h: the transposition table's probe and store (lane 0 only), repetitions, and
 * ETC's test of a child's entry. After search_moves.h, before search.cl. */

/* ---- Transposition table --------------------------------------------------------------------- */
DEVICE_FN i32 score_to_tt(i32 s, u32 ply) {
    if (s >= MATE_BOUND) return s + (i32)ply;
    if (s <= -MATE_BOUND) return s - (i32)ply;
    return s;
}

DEVICE_FN i32 score_from_tt(i32 s, u32 ply) {
    if (s >= MATE_BOUND) return s - (i32)ply;
    if (s <= -MATE_BOUND) return s + (i32)ply;
    return s;
}

DEVICE_FN u32 tt_move_of(u64 d) { return (u32)(d & 0xffffu); }
DEVICE_FN i32 tt_score_of(u64 d) { return (i32)(i16)(u16)(d >> 16); }
DEVICE_FN i32 tt_eval_of(u64 d) { return (i32)(i16)(u16)(d >> 32); }
DEVICE_FN i32 tt_depth_of(u64 d) { return (i32)((d >> 48) & 0xffu); }
DEVICE_FN u32 tt_bound_of(u64 d) { return (u32)((d >> 56) & 3u); }

/* Lane 0 only (and every lane in ETC's round, each for its own child). The whole bucket is read
 * before any entry is compared, so that its loads do not wait on each other's compares. */
DEVICE_FN u32 tt_probe(const GLOBAL TTEntry *tt, u32 log2, u64 key, u64 *data) {
    const GLOBAL TTEntry *bucket = tt + ((key & ((1UL << log2) - 1)) * TT_BUCKET);
    u64 c[TT_BUCKET], d[TT_BUCKET];
    for (u32 i = 0; i < TT_BUCKET; i++) {
        c[i] = bucket[i].check;
        d[i] = bucket[i].data;
    }
    u32 hit = 0;
    for (u32 i = 0; i < TT_BUCKET; i++) {
        if (!hit && (c[i] ^ d[i]) == key && d[i] != 0) {
            *data = d[i];
            hit = 1;
        }
    }
    return hit;
}

/* Lane 0 only. Replaces the entry of the same position, else the one least worth keeping
 * (shallow, or from an older search). (Reading the bucket whole before the compares, without
 * the early exit, so that its loads go out together, made no difference: PERFORMANCE.md,
 * fifty-second session.) */
NOINLINE_FN void tt_store(GLOBAL TTEntry *tt, u32 log2, u64 key, u32 move, i32 score, i32 eval, i32 depth, u32 bound,
                        u32 generation) {
    GLOBAL TTEntry *bucket = tt + ((key & ((1UL << log2) - 1)) * TT_BUCKET);
    u32 slot = 0;
    i32 worst = 1 << 30;
    for (u32 i = 0; i < TT_BUCKET; i++) {
        u64 c = bucket[i].check, d = bucket[i].data;
        if ((c ^ d) == key) {
            if (move == 0) move = tt_move_of(d);
            if (bound != BOUND_EXACT && depth + 2 < tt_depth_of(d) && (u32)(d >> 58) == generation) return;
            slot = i;
            break;
        }
        i32 value = tt_depth_of(d) - (((u32)(d >> 58) == generation) ? 0 : 64);
        if (d == 0) value = -1000;
        if (value < worst) {
            worst = value;
            slot = i;
        }
    }
    if (depth < 0) depth = 0;
    if (depth > 255) depth = 255;
    u64 d = (u64)(move & 0xffffu) | ((u64)(u16)(i16)score << 16) | ((u64)(u16)(i16)eval << 32) |
            ((u64)depth << 48) | ((u64)bound << 56) | ((u64)(generation & 63u) << 58);
    bucket[slot].data = d;
    bucket[slot].check = key ^ d;
}

/* ---- Draws ------------------------------------------------------------------------------------ */
/* A repetition of an earlier position since the last irreversible move. One in the search (keys
 * of the shared stack) counts: the side that could avoid it would have, if it were better. One
 * from the game before the root needs a second, as the threefold rule says (the CPU search's
 * draw.rs). (Without the early exit, the game's part unrolled so that its loads go out together,
 * one worker replaying endgames was 0.7% faster: PERFORMANCE.md, fifty-second session.)
 * REPETITION_FILTER 1: the game's part only where the key's bit is set in the filter after the
 * game's keys (game_keys.rs), which says for most nodes that no game position has their key. One
 * H200 worker replaying endgames to depth 11 (the same trees): 12% less time where the root's
 * fifty-move count was 30 or more, 4.6% at 10 to 29, none below; 3.1% in all, the bench
 * positions (no history) unchanged (PERFORMANCE.md, fifty-second session). 0: the old test. */
#ifndef REPETITION_FILTER
#define REPETITION_FILTER 1
#endif
#if !defined(GAME_KEYS) || !defined(GAME_FILTER_WORD_SHIFT) || !defined(GAME_FILTER_BIT_SHIFT)
#error "GAME_KEYS and the filter's shifts come from the host (game_keys.rs, search_defines)"
#endif
/* Whether the filter after the GAME_KEYS keys has `key`'s bit: game_keys.rs's game_filter_slot. */
DEVICE_FN u32 game_filter_has(const GLOBAL u64 *game_keys, u64 key) {
    u64 word = game_keys[GAME_KEYS + (u32)(key >> GAME_FILTER_WORD_SHIFT)];
    return (u32)(word >> ((key >> GAME_FILTER_BIT_SHIFT) & 63UL)) & 1u;
}
DEVICE_FN int is_repetition(LOCAL_PTR WorkerStack *s, u32 ply, u64 key, u32 halfmove, const GLOBAL u64 *game_keys,
                            u32 history_len) {
    u32 seen_in_game = 0;
#if REPETITION_FILTER
    if (halfmove > ply && !game_filter_has(game_keys, key)) halfmove = ply;
#endif
    for (u32 d = 4; d <= halfmove; d += 2) {
        if (d <= ply) {
            if (s->keys[ply - d] == key) return 1;
        } else {
            u32 back = d - ply; /* 1 = the position just before the root */
            if (back > history_len) return 0;
            if (game_keys[history_len - back] == key && ++seen_in_game >= 2) return 1;
        }
    }
    return 0;
}

/* ETC's test for the child of node f's move m (the child: key `ckey`, table entry d): whether its
 * bound cuts f, and the value it gives f. The entry must be as deep as the child's search at
 * depth f.depth - 1 (the reductions, extensions and pruning ahead are not known yet), hold a
 * bound from above (exact or upper), not a mate score, and the child be no draw by repetition or
 * by the fifty-move rule (its entry would not say). */
DEVICE_FN u32 child_entry_cuts(const Board *b, const Frame *f, u32 ply, Move m, u64 ckey, u64 d,
                               LOCAL_PTR WorkerStack *s, const GLOBAL u64 *game_keys, u32 history_len, i32 *value) {
    if (d == 0 || tt_bound_of(d) == BOUND_LOWER || tt_depth_of(d) < f->depth - 1) return 0;
    i32 ts = score_from_tt(tt_score_of(d), ply + 1);
    if (-ts < f->beta || ts <= -MATE_BOUND || ts >= MATE_BOUND) return 0;
    u32 hm = halfmove_after(b, m, f->halfmove);
    if (hm >= 100 || is_repetition(s, ply + 1, ckey, hm, game_keys, history_len)) return 0;
    *value = -ts;
    return 1;
}

/* The kept word of a child that gives check carries it (bit 25), set by ETC's round, which made
 * the child: the move's turn decides on extension, reduction and settling before it makes the
 * move, and makes none for a child that settles (forty-second session). Outside `#if TT_SETTLE`:
 * the move step's code that reads it is compiled either way. */
#define SETTLE_CHECK (1u << 25)
DEVICE_FN u32 settle_gives_check(u32 w) { return (w & SETTLE_CHECK) != 0u; }

/* KEEP_CHILDREN (forty-second session): ETC's round keeps every child's word (SETTLE_KEPT, with
 * SETTLE_CHECK) and key, not only the settling ones', so that the move step takes the check and
 * the key the round found instead of finding them again (about 1,800 of its 3,200 cycles). The
 * keys go in a ply's list words from KEEP_SLOTS on, two a lane, below the settle words: only a
 * list of at most KEEP_SLOTS moves keeps them. */
#ifndef KEEP_CHILDREN
#define KEEP_CHILDREN 1
#endif
#define SETTLE_KEPT (1u << 26)
#define KEEP_SLOTS (SETTLE_SLOTS - 2u * WORKER_LANES)
DEVICE_FN u64 kept_key(const GLOBAL u32 *list, u32 k) {
    return (u64)list[KEEP_SLOTS + 2u * k] | ((u64)list[KEEP_SLOTS + 2u * k + 1u] << 32);
}

#if TT_SETTLE
/* TT_SETTLE (search_state.h): a child's entry as ETC's round keeps it for the move's turn, its
 * depth in the high half and its value from the child's side in the low half; 0 where the entry
 * could settle no child (none, an upper bound, a mate score). */
DEVICE_FN u32 settle_word(u64 d, u32 child_ply) {
    if (d == 0 || tt_bound_of(d) == BOUND_UPPER) return 0u;
    i32 ts = score_from_tt(tt_score_of(d), child_ply);
    if (ts >= MATE_BOUND || ts <= -MATE_BOUND) return 0u;
    return (u32)tt_depth_of(d) << 16 | ((u32)ts & 0xffffu) | 1u << 24;
}

/* Whether a child whose kept entry is `w` (settle_word), searched to `depth` with the null window
 * (-alpha - 1, -alpha), ends on it at its entry (search.cl, step 3) with a value at or below
 * alpha for its parent; that value, from the parent's side, in *value. Not with an alpha in the
 * mate range (a PV node's alpha rises as it searches, TT_SETTLE_PV): there mate distance moves
 * the child's window first. */
DEVICE_FN u32 child_settles(u32 w, i32 depth, i32 alpha, i32 *value) {
    if (w == 0u || (i32)((w >> 16) & 0xffu) < (depth > 0 ? depth : 0)) return 0;
    if (alpha <= -MATE_BOUND || alpha >= MATE_BOUND) return 0;
    i32 ts = (i32)(i16)(u16)(w & 0xffffu);
    if (ts < -alpha) return 0;
    *value = -ts;
    return 1;
}

/* In ETC's round: whether the child of node f's move m (board `child`, key `ckey`, kept entry w)
 * may settle at its turn, whatever depth it gets there (the turn checks that): the entry's value
 * as child_settles tests it, the child no draw (the entry would not say), and f a null-window
 * node or a PV node (TT_SETTLE_PV), whose later children get the null window. */
DEVICE_FN u32 child_entry_settles(const Board *b, const Board *child, const Frame *f, u32 ply, Move m, u64 ckey,
                                  u32 w, LOCAL_PTR WorkerStack *s, const GLOBAL u64 *game_keys, u32 history_len) {
    i32 value = 0;
    if ((f->beta != f->alpha + 1 && !(f->flags & FLAG_PV)) || !child_settles(w, 0, f->alpha, &value)) return 0;
    u32 hm = halfmove_after(b, m, f->halfmove);
    return hm < 100 && !insufficient_material(child) && !is_repetition(s, ply + 1, ckey, hm, game_keys, history_len);
}
#endif
