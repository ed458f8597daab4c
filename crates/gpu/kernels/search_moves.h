/* search_moves.h: a node's moves. Cooperative generation (one piece per lane, a prefix sum,
 * a rank sort), the ordering scores, the shallow-depth pruning test, the history tables the
 * workers share and the helpers' noise. After search_position.h, before search_table.h. */

/* ---- Cooperative move generation --------------------------------------------------------------
 * Lane i (< 16) takes our i-th piece (in square order) and finds its legal destinations with the
 * masks of movegen.h; a prefix sum over the lanes' counts places every lane's moves; each lane
 * scores its own moves; a rank sort writes the list best first to `out`. Returns the number of
 * moves, the same in every lane. In quiescence (`captures_only`) only captures and queen
 * promotions are generated, unless in check: then every evasion. */

#define SCORE_TT 32767
#define SCORE_PROMOTION 26000
#define SCORE_CAPTURE 20000
#define SCORE_KILLER1 19000
#define SCORE_KILLER2 18999
#define SCORE_COUNTER 18998
#define SCORE_BAD_CAPTURE (-20000) /* below every quiet move: history / 2 stays within +-8192 */
#define SCORE_UNDERPROMOTION (-30000)

/* CLEAN_RANK 1: a helper reduces (LMR) and prunes by move count (LMP) by a move's place in the
 * order it would have without the noise (its list entry's bits 16-23: the moves before it; bits
 * 24-31: the quiet moves before it), not by its place in its own noisy order; 2: reduces only, 3:
 * prunes only. Worker 0's rule (the moves searched so far) is unchanged. It asks whether the
 * helpers' early finishes keep the old root move (twenty-sixth session) because the noise decides
 * which of an all-node's moves are reduced and pruned. At depth 11 it made the helpers' results
 * better, at 50% more time to depth, and lost at 3 s + 0.03 s (twenty-seventh session,
 * docs/STRENGTH.md): off by default. */
/* `GPU Finisher clean` (FINISH_CLEAN, search_state.h): only every CLEAN_EVERY-th helper (worker %
 * k == 0) is clean: it orders its moves as worker 0 does, without noise, and only those and
 * worker 0 may end an iteration; the other helpers keep their noise and only fill the table.
 * Worker 0's walk on such a table plays as well as the CPU at a depth (`main`, fifty-sixth
 * session) and a noisy helper's does not (CLEAN_RANK, fifty-eighth); a clean helper's walk is
 * worker 0's tree, parted from it and from the other clean helpers' walks only by ABDADA's
 * put-off moves (FIRST_DEFER), and the first to finish ends the iteration. Sixty-second session
 * (docs/STRENGTH.md), k = 32 at 264 workers (eight clean helpers): 14% more time to depth 14 than
 * `any` (k = 8, 16: 19%, 13%), +34 [+5, +65] in 223 games against it at 3 s + 0.03 s, 0.4 to 0.9
 * plies shallower. */
#ifndef CLEAN_EVERY
#define CLEAN_EVERY 32u
#endif
#if CLEAN_EVERY < 1
#error "CLEAN_EVERY: every k-th helper is clean, k at least 1"
#endif
/* CLEAN_WORKERS N (0: off): under FINISH_CLEAN the clean helpers' spacing follows the worker
 * count, every max(1, workers / N)-th worker clean, at most every CLEAN_EVERY-th: about N clean
 * workers at any count. With CLEAN_EVERY alone a device of fewer than 33 workers (PoCL, a GPU of
 * up to 16 multiprocessors) has worker 0 as its only finisher, and its time to depth is `main`'s
 * (H200, sixty-third session: 16 workers 3.53 times one worker's speed against `any`'s 6.17).
 * N = 8 keeps the 264 workers of a 132-multiprocessor GPU at 32 (the same clean helpers
 * there), and spaces 16 workers every 2nd, 32 every 4th, 64 every 8th, 132 every 16th.
 * Sixty-fifth session (H200, 3 s + 0.03 s against CLEAN_EVERY alone, docs/STRENGTH.md): 32
 * workers +106 [+40, +181] in 54 games, 64 workers +21 [-45, +90] in 49; time to depth 14 -49%
 * (32), -17% (64), +1.5% (132): the default since. */
#ifndef CLEAN_WORKERS
#define CLEAN_WORKERS 8
#endif
#if CLEAN_WORKERS < 0
#error "CLEAN_WORKERS: about N clean workers, N at least 1 (0: off)"
#endif

/* Every how many workers one is clean under FINISH_CLEAN (worker % spacing == 0), for `workers`
 * in all: CLEAN_EVERY, or as CLEAN_WORKERS scales it. */
DEVICE_FN u32 clean_spacing(u32 workers) {
#if CLEAN_WORKERS
    u32 k = workers / (u32)CLEAN_WORKERS;
    if (k < 1u) k = 1u;
    return k < CLEAN_EVERY ? k : CLEAN_EVERY;
#else
    (void)workers;
    return CLEAN_EVERY;
#endif
}
/* CLEAN_DEEPER N (an experiment, 0: off): under FINISH_CLEAN every N-th clean helper (worker /
 * clean_spacing % N == N - 1: with N = 2, workers 32, 96, 160 and 224 of 264) searches the
 * iteration one ply deeper, in worker 0's order, and may end it there (AHEAD_ENDS). The helpers
 * searching ahead (DEEPER_HELPERS, search_state.h) won +67 Elo under `any`, where the first of
 * them to finish ends an iteration a ply deeper and the host goes on past it; under `clean` they
 * are noisy and end nothing, so that part of their gain is lost unless clean helpers search
 * ahead too. */
#ifndef CLEAN_DEEPER
#define CLEAN_DEEPER 0
#endif
#ifndef CLEAN_RANK
#define CLEAN_RANK 0
#endif
/* Three more forms, measured and taken out (docs/GPU-SEARCH-TRIED.md): clean helpers that order
 * with noise and reduce and prune by the noise-free places (CLEAN_EVERY with CLEAN_RANK, sixtieth
 * and sixty-second sessions: 36% more time to depth 14, +9 [-29, +47] in 117 games at 3 s),
 * CLEAN_AHEAD, the helpers searching ahead finishing as well (sixty-first session), and
 * CLEAN_RANK_MIN_DEPTH, the noise-free places only near the root (sixtieth). */

/* The moves a node orders first, besides captures: from the table, the killers of its ply and
 * the counter to the move before; and how an RMO helper orders its quiet moves. */
typedef struct {
    u32 tt_move, killer1, killer2, counter;
    u32 noise; /* RMO helpers: history plus a random number in +-noise; 0: at random (RMO alone) */
} OrderHints;

DEVICE_FN u32 xorshift32(u32 x) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
}

/* A move that changes no material: not a capture, en passant or promotion. */
DEVICE_FN u32 is_quiet(const Board *b, Move m) {
    u32 to = (m >> 6) & 63u, kind = (m >> 12) & 3u;
    if (kind == MOVE_PROMOTION || kind == MOVE_EN_PASSANT) return 0;
    return kind == MOVE_CASTLING || !(b->colors[b->side ^ 1u] & bit(to));
}

/* Quiescence outside check, with static evaluation `stand`: whether capture or promotion m is
 * dropped, being a capture that cannot reach alpha even winning its victim (delta pruning) or that
 * loses material by exchange. Promotions are kept. Shared with lane_qs.h. */
DEVICE_FN u32 quiescence_drops(const Board *b, const GLOBAL u64 *lines, Move m, i32 stand, i32 alpha) {
    u32 kind = (m >> 12) & 3u;
    if (kind == MOVE_PROMOTION) return 0;
    u32 victim = kind == MOVE_EN_PASSANT ? PAWN : piece_type_on(b, bit((m >> 6) & 63u));
    return stand + order_value(victim) + DELTA_MARGIN <= alpha || !see_ge(b, lines, m, 0);
}

/* Step 11's test for move m (`quiet`: is_quiet) of node f at `ply`: whether it is pruned, unless
 * it gives check. Shallow-depth pruning follows the CPU search's conditions: not at the root, once
 * a move has saved the node from a mate, with a piece besides pawns; move-count pruning counts
 * `quiets_before`, the quiet moves before m (f->quiets, or m's noise-free count: CLEAN_RANK);
 * quiescence prunes by delta and drops captures that lose material by exchange. The answer reads what changes only when a
 * move is searched (alpha, the best value, the quiet moves counted), so it holds for every move
 * from f.next on until the next one is searched: the lanes test those together (NEED_SCAN). */
DEVICE_FN u32 is_prunable(const Board *b, const GLOBAL u64 *lines, const Frame *f, u32 ply, Move m, u32 quiet,
                          u32 quiets_before) {
    if (f->flags & FLAG_QS) {
        if (f->flags & FLAG_IN_CHECK) return 0;
        return quiescence_drops(b, lines, m, f->static_eval, f->alpha);
    }
    if (ply == 0 || f->best <= -MATE_BOUND || !has_non_pawn_material(b)) return 0;
    if (quiet) {
        i32 late = (LMP_BASE + f->depth * f->depth) / ((f->flags & FLAG_IMPROVING) ? 1 : 2);
        if (f->depth <= LMP_MAX_DEPTH && (i32)quiets_before >= late) return 1;
        if (f->static_eval != -INF && f->depth <= FUTILITY_MAX_DEPTH &&
            f->static_eval + FUTILITY_BASE + FUTILITY_PER_PLY * f->depth <= f->alpha)
            return 1;
    }
    /* Moves that lose material by exchange, quiet or capture (a winning capture passes anyway). */
    return f->depth <= SEE_PRUNE_MAX_DEPTH &&
           !see_ge(b, lines, m, (quiet ? SEE_QUIET_MARGIN : SEE_CAPTURE_MARGIN) * f->depth);
}

/* ---- History --------------------------------------------------------------------------------
 * Each worker's words (HISTORY_WORDS): the butterfly history, (side, from, to), then the counter
 * moves by the previous move's piece and target square. */
#define COUNTER_BASE (2u * 64u * 64u)

/* How many consecutive workers share one history table; by default all of them. Each worker with
 * its own table, 132 workers visited 5.4 times the positions of one worker to depth 13 (8 bench
 * positions, KOGGE_SEARCH_DIAG; fourteenth session): a helper's history, trained on its own
 * corner of the tree, orders the rest badly. One table, trained by all, halved that at 528
 * workers, and with helpers ordering by it plus RMO_NOISE it took 6 to 13% off the time to
 * depth 13 at 132 to 528 workers (groups of 8 or 32: 4 to 10%; fifteenth session). Its updates
 * race without atomics, which a heuristic can afford: an update lost or read stale changes an
 * order, never a value. */
#ifndef HISTORY_SHARE
#define HISTORY_SHARE 0xFFFFFFFFu
#endif
#define COUNTER_NONE 768u

DEVICE_FN u32 butterfly_index(u32 side, Move m) { return (side * 64u + (m & 63u)) * 64u + ((m >> 6) & 63u); }

/* The bonus of a cutoff at `depth`: the CPU search's history::bonus. */
DEVICE_FN i32 history_bonus(i32 depth) {
    i32 b = depth * depth * 16 + depth * 32;
    return b < 1600 ? b : 1600;
}

/* Moves the entry toward the sign of `bonus`, saturating at +-HISTORY_MAX (the CPU's gravity
 * update). */
DEVICE_FN void history_update(GLOBAL i32 *entry, i32 bonus) {
    i32 e = *entry, magnitude = bonus < 0 ? -bonus : bonus;
    *entry = e + bonus - e * magnitude / HISTORY_MAX;
}

/* The counter-move slot of `prev`, the move that led to `b`: its piece (the king for a castling,
 * the pawn for a promotion, as the CPU search keys it) and target square. COUNTER_NONE at the
 * root and after a null move. */
DEVICE_FN u32 counter_slot(const Board *b, u32 prev) {
    if (prev == 0) return COUNTER_NONE;
    u32 to = (prev >> 6) & 63u, kind = (prev >> 12) & 3u;
    u32 type = kind == MOVE_CASTLING ? KING : kind == MOVE_PROMOTION ? PAWN : piece_type_on(b, bit(to));
    return ((b->side ^ 1u) * 6u + type) * 64u + to;
}

/* ABDADA over RMO: a helper's quiet moves are ordered by history plus a random number in
 * +-RMO_NOISE, its own for each move and node (history / 2 is within +-8192). Helpers then differ
 * where history cannot tell moves apart and keep its order where it can; ABDADA spreads them
 * anyway. Ordering them at random, Zeta's RMO and still the rule of RMO alone (where the order is
 * all that sets the helpers apart), took 8 to 13% more time to depth 13 with 132 to 528 workers
 * on the H100 with each worker's own history and a noise of 1,024 (fourteenth session). With one
 * history for all (HISTORY_SHARE), a helper needs more noise to stay apart from the others:
 * with 8,192 the shared table took 6 to 13% off the time to depth 13 with 132 to 528 workers,
 * with 1,024 it added up to 7% (fifteenth session). More would mix quiet moves with the killers
 * and the bad captures. */
#ifndef RMO_NOISE
#define RMO_NOISE 8192
#endif
#if RMO_NOISE > 8192
#error "RMO_NOISE: a quiet move's score must stay between SCORE_BAD_CAPTURE and SCORE_COUNTER"
#endif

/* A promotion's or capture's place in the order, in *score: a queen's promotion by its victim, an
 * under-promotion last, a capture (en passant too) by most valuable victim then least valuable
 * attacker, as one that does not lose material. Returns 0, *score untouched, for other moves.
 * Shared with lane_qs.h. */
DEVICE_FN u32 noisy_score(const Board *b, Move m, i32 *score) {
    u32 from = m & 63u, to = (m >> 6) & 63u, kind = (m >> 12) & 3u;
    u32 them = b->side ^ 1u;
    if (kind == MOVE_PROMOTION) {
        u32 victim = (b->colors[them] & bit(to)) ? piece_type_on(b, bit(to)) : 0u;
        *score = ((m >> 14) & 3u) == 3u ? SCORE_PROMOTION + order_value(victim) / 10 : SCORE_UNDERPROMOTION;
        return 1;
    }
    if (kind == MOVE_EN_PASSANT) {
        *score = SCORE_CAPTURE + 100 - PAWN;
        return 1;
    }
    if (kind != MOVE_CASTLING && (b->colors[them] & bit(to))) {
        *score = SCORE_CAPTURE + order_value(piece_type_on(b, bit(to))) - (i32)piece_type_on(b, bit(from));
        return 1;
    }
    return 0;
}

/* A helper's score for a quiet move outside the killers and the counter move, whose history score
 * is `h`: h plus its noise, or at random under RMO alone (hints->noise 0). */
DEVICE_FN i32 quiet_noise(Move m, const OrderHints *hints, u32 randomize, i32 h) {
    u32 r = xorshift32(randomize ^ (m * 2654435761u));
    if (hints->noise == 0) return (i32)(r & 8191u) - 4096;
    return h + (i32)(r % (2u * hints->noise + 1u)) - (i32)hints->noise;
}

/* History scores (history / 2) lie within this; a helper's noise is added to those only. */
#define HISTORY_SCORE_MAX 8192

/* gen_sorted's sort keys: a move's score (offset to be positive) in the high half, the move in the
 * low, so that keys order by score and are distinct. */
DEVICE_FN u32 sort_key(i32 score, Move m) { return ((u32)(score + 32768) << 16) | m; }
DEVICE_FN i32 sort_key_score(u32 key) { return (i32)(key >> 16) - 32768; }

/* The place of `key` among the n keys, best first. */
DEVICE_FN u32 sort_rank(const LOCAL_PTR u32 *keys, u32 n, u32 key) {
    u32 rank = 0;
    for (u32 j = 0; j < n; j++) rank += keys[j] > key;
    return rank;
}

/* Whether a move of sort score `score` (noise or not) is quiet: the killers, the counter move, the
 * history's moves, and the table's move when it is (`tt_quiet`). */
DEVICE_FN u32 score_is_quiet(i32 score, u32 tt_quiet) {
    if (score == SCORE_TT) return tt_quiet;
    return score > SCORE_BAD_CAPTURE + 1000 && score < SCORE_CAPTURE;
}

/* The CPU search's order: the table move; queen promotions; captures that do not lose material
 * by exchange, most valuable victim first; the killers; the counter move; the other quiet moves
 * by history (an RMO helper's with noise, or at random); captures that lose material;
 * under-promotions.
 * In quiescence (`captures_only`) every capture counts as good: the losing ones are pruned there
 * anyway. */
NOINLINE_FN i32 score_move(const Board *b, const GLOBAL u64 *lines, Move m, const OrderHints *hints,
                           const GLOBAL i32 *history, u32 randomize, int captures_only) {
    if (m == hints->tt_move) return SCORE_TT;
    i32 noisy;
    if (noisy_score(b, m, &noisy)) {
        /* A capture (not en passant, not a promotion) that loses material by exchange. */
        u32 losing = !captures_only && ((m >> 12) & 3u) == MOVE_NORMAL && !see_ge(b, lines, m, 0);
        return noisy + (losing ? SCORE_BAD_CAPTURE - SCORE_CAPTURE : 0);
    }
    if (m == hints->killer1) return SCORE_KILLER1;
    if (m == hints->killer2) return SCORE_KILLER2;
    if (m == hints->counter) return SCORE_COUNTER;
    i32 h = history[butterfly_index(b->side, m)] / 2;
    if (!randomize) return h;
    return quiet_noise(m, hints, randomize, h);
}

/* Whether the table's move may be tried before the moves are generated: one that quiescence
 * would generate (captures, en passant, queen promotions, unless in check: `captures_only`),
 * and that can be a move here at all (our piece on its from-square, none of ours on its
 * to-square but a castling's rook): the table's moves were legal in a position of the same
 * 64-bit key, so only a key collision could bring another. */
DEVICE_FN u32 tt_move_first(const Board *b, u32 m, u32 captures_only) {
    if (m == 0) return 0;
    u32 from = m & 63u, to = (m >> 6) & 63u, kind = (m >> 12) & 3u;
    u64 ours = color_set(b, b->side), theirs = color_set(b, b->side ^ 1u);
    if (!(ours & bit(from)) || (kind != MOVE_CASTLING && (ours & bit(to)))) return 0;
    if (!captures_only) return 1;
    if (kind == MOVE_PROMOTION) return ((m >> 14) & 3u) == 3u;
    return kind == MOVE_EN_PASSANT || (kind != MOVE_CASTLING && (theirs & bit(to)));
}

/* What one of our pieces may do, as sets: its ordinary destinations, its pawn destinations on the
 * last rank, and whether it takes en passant or castles (a bit per wing). */
typedef struct {
    u64 to, promo_to;
    u32 ep, castles;
} PieceMoves;

/* The legal moves of our piece of `type` on `from` (the masks `m` of prepare_lines), only captures
 * and promotions with `captures_only` (then at most one promotion per square is listed: the
 * queen's). Shared by gen_sorted, a piece per lane, and lane_qs.h, every piece on one lane.
 * `type` 6 (no piece; `from` then 64) has none.
 *
 * Every lane makes the knight's, the rook's and the bishop's lookups and the pawn's shifts, and
 * keeps those of its piece's type, so that the lanes of a warp, each with its own piece, run the
 * same instructions (as eval_reach does); the king's castlings and en passant, rare, stay
 * branches. */
DEVICE_FN PieceMoves piece_moves(const Board *b, const GLOBAL u64 *lines, const Masks *m, u32 from, u32 type,
                                 int captures_only) {
    u64 target = ~m->us & m->checkmask;
    if (captures_only) target &= m->them;
    u64 last = b->side ? RANK_1 : RANK_8;
    u64 fb = from < 64u ? bit(from) : 0;
    PieceMoves p;
    p.to = 0;
    p.promo_to = 0;
    p.ep = 0;
    p.castles = 0;
    u32 sq = from & 63u;
    u64 orth = rook_from(lines, sq, m->occ), diag = bishop_from(lines, sq, m->occ);
    if (fb & m->pin_hv) orth &= m->pin_hv;
    if (fb & m->pin_diag) diag &= m->pin_diag;
    u64 reach = 0;
    if (type == KNIGHT && !(fb & (m->pin_hv | m->pin_diag))) reach = knight_from(lines, sq);
    if ((type == ROOK || type == QUEEN) && !(fb & m->pin_diag)) reach |= orth;
    if ((type == BISHOP || type == QUEEN) && !(fb & m->pin_hv)) reach |= diag;
    u64 pawn = pawn_targets(b, m, type == PAWN ? fb : 0UL);
    p.to = type == PAWN ? pawn & ~last & (captures_only ? m->them : ~0UL) : reach & target;
    p.promo_to = pawn & last;
    if (m->checks > 1) {
        p.to = 0;
        p.promo_to = 0;
    }
    if (type == KING) p.to = m->king_to & (captures_only ? m->them : ~0UL);
    if (type == PAWN && m->checks <= 1 && b->ep != NO_SQUARE && (pawn_attacks(b->side, fb) & bit(b->ep)))
        p.ep = (u32)ep_is_legal(b, m, from);
    if (type == KING && m->checks == 0 && !captures_only) {
        u32 slot = 2u * b->side;
        p.castles = (u32)can_castle(b, m, slot) | ((u32)can_castle(b, m, slot + 1u) << 1);
    }
    return p;
}

/* The king's safe squares for generation (masks_king_to's, after prepare_checks_pins), by every
 * lane together: the enemy's attack map with our king lifted, lane i finding the attacks of the
 * enemy's i-th piece by lookups (the same instructions on every lane, kept by the piece's type)
 * and the lanes' sets ORed through `scratch` (2 * WORKER_LANES words of shared memory), where
 * prepare() fills along eight directions on every lane alike. In quiescence out of check
 * (`captures_only`) only the squares where the king would capture are asked about: the map is
 * made only when there are some. Every lane must call it (barriers). With piece_moves' lookups on
 * every lane, one worker's generation took 525 cycles a node less (H100, forty-third session:
 * 2.2% less time to depth 12; either change alone, nothing measurable). */
DEVICE_FN void king_to_by_lanes(const Board *b, const GLOBAL u64 *lines, Masks *m, u32 lane, int captures_only,
                                LOCAL_PTR u32 *scratch) {
    u64 around = king_from(lines, lsb(m->king));
    if (captures_only) around &= m->them;
    u64 candidates = around & ~m->us;
    m->has_danger = candidates != 0;
    u64 a = 0;
    u32 theirs = popc(m->them);
    if (m->has_danger && lane < theirs) {
        u32 sq = eval_nth_square(m->them, lane);
        u32 type = piece_type_on(b, bit(sq));
        a = eval_reach(lines, type, sq, m->occ ^ m->king);
        if (type == PAWN) a = pawn_from(lines, b->side ^ 1u, sq);
        if (type == KING) a = king_from(lines, sq);
    }
#if WARP_COLLECTIVES
    (void)scratch;
    u64 danger = (u64)WARP_OR_U32((u32)a) | ((u64)WARP_OR_U32((u32)(a >> 32)) << 32);
#else
    /* The barriers stay outside the branch (PoCL). */
    scratch[lane] = (u32)a;
    scratch[WORKER_LANES + lane] = (u32)(a >> 32);
    BARRIER();
    u64 danger = 0;
    /* A side has at most 16 pieces: the lanes from 16 on wrote empty sets. */
    for (u32 i = 0; i < 16u; i++) danger |= (u64)scratch[i] | ((u64)scratch[WORKER_LANES + i] << 32);
    BARRIER();
#endif
    m->danger = danger;
    m->king_to = candidates & ~danger;
}

DEVICE_FN u32 gen_sorted(const Board *b, const GLOBAL u64 *lines, u32 lane, int captures_only,
                         const OrderHints *hints, const GLOBAL i32 *history, u32 randomize, LOCAL_PTR u32 *keys,
                         LOCAL_PTR u32 *lane_counts, LOCAL_PTR u32 *scratch, GLOBAL u32 *out) {
    /* Whether this list carries the noise-free places (CLEAN_RANK): a noisy helper's. */
#if CLEAN_RANK
    const u32 clean = randomize != 0u;
#else
    const u32 clean = 0u;
#endif
    Masks m;
    prepare_checks_pins(b, lines, &m);
    if (m.checks) captures_only = 0;
    king_to_by_lanes(b, lines, &m, lane, captures_only, scratch);

    /* This lane's piece: the lane-th of ours in square order (a binary search on popcounts, not
     * `lane` steps of clearing the lowest bit). */
    u64 mine = lane < popc(m.us) ? m.us : 0;
    u32 from = mine ? eval_nth_square(mine, lane) : 64u;
    u64 fb = mine ? bit(from) : 0;
    u32 type = mine ? piece_type_on(b, fb) : 6u;
    PieceMoves p = piece_moves(b, lines, &m, from, type, captures_only);
    u64 to = p.to;             /* ordinary destinations */
    u64 promo_to = p.promo_to; /* pawn destinations on the last rank */
    u32 ep = p.ep, castles = p.castles;
    u32 per_promo = captures_only ? 1u : 4u;
    u32 count = popc(to) + per_promo * popc(promo_to) + ep + popc((u64)castles);

    /* Each lane reserves room for its moves and writes them unscored: after the lanes before it,
     * by a prefix sum in registers where the warp can (WARP_COLLECTIVES), otherwise wherever an
     * atomic on the shared counter puts it (zero on entry: see the end). Where they land does not
     * matter: the rank sort orders them. */
#if WARP_COLLECTIVES
    (void)lane_counts;
    u32 through = WARP_PREFIX_U32(count), at = through - count;
    u32 total = WARP_LAST_U32(through);
#else
    u32 at = ATOMIC_ADD_U32(&lane_counts[0], count);
#endif
    for (u64 t = to; t; t &= t - 1) keys[at++] = MOVE(from, lsb(t), MOVE_NORMAL, 0u);
    for (u64 t = promo_to; t; t &= t - 1)
        for (u32 p = 0; p < per_promo; p++) keys[at++] = MOVE(from, lsb(t), MOVE_PROMOTION, 3u - p);
    if (ep) keys[at++] = MOVE(from, b->ep, MOVE_EN_PASSANT, 0u);
    for (u32 w = 0; w < 2; w++) {
        if (!(castles & (1u << w))) continue;
        u32 base = b->side ? 56u : 0u;
        keys[at++] = MOVE(from, base + b->castle[2u * b->side + w], MOVE_CASTLING, 0u);
    }
    BARRIER();
#if !WARP_COLLECTIVES
    u32 total = lane_counts[0];
#endif
    /* Scores, spread over the lanes rather than by piece: a queen's 27 history reads would
     * otherwise wait for each other on one lane. Sort keys: score high, move low. */
    for (u32 i = lane; i < total; i += WORKER_LANES) {
        Move mv = (Move)keys[i];
        keys[i] = sort_key(score_move(b, lines, mv, hints, history, clean ? 0u : randomize, captures_only), mv);
    }
    BARRIER();
#if CLEAN_RANK
    /* A helper's list also carries each move's place in the noise-free order (see CLEAN_RANK):
     * sorted without the noise first, then the noise is added in that order, so that a key's
     * index is its noise-free rank for the sort below. (The barriers stay outside the branches:
     * PoCL's kernels crashed with them inside.) */
    if (clean) {
        for (u32 i = lane; i < total; i += WORKER_LANES) out[sort_rank(keys, total, keys[i])] = keys[i];
    }
    BARRIER();
    if (clean) {
        for (u32 i = lane; i < total; i += WORKER_LANES) {
            Move mv = (Move)(out[i] & 0xffffu);
            i32 score = sort_key_score(out[i]);
            if (score >= -HISTORY_SCORE_MAX && score <= HISTORY_SCORE_MAX) score = quiet_noise(mv, hints, randomize, score);
            keys[i] = sort_key(score, mv);
        }
    }
    BARRIER();
    u32 tt_quiet = hints->tt_move != 0u && is_quiet(b, (Move)hints->tt_move);
#endif
    /* Rank sort, best first: keys are distinct (the moves are), so ranks are too. */
    for (u32 i = lane; i < total; i += WORKER_LANES) {
        u32 k = keys[i];
        u32 rank = sort_rank(keys, total, k);
#if CLEAN_RANK
        if (clean) {
            /* keys[] is in the noise-free order: i is the move's place, and the moves before it
             * that are not quiet give its place among the quiet moves. */
            u32 noisy_before = 0;
            for (u32 j = 0; j < i; j++) noisy_before += !score_is_quiet(sort_key_score(keys[j]), tt_quiet);
            k = (k & 0xffffu) | (i << 16) | ((i - noisy_before) << 24);
        }
#endif
        out[rank] = k;
    }
    BARRIER();
#if !WARP_COLLECTIVES
    /* The next generation's counter. Between this and the next use there is always a barrier
     * (a generation belongs to a node, and entering a node synchronises). */
    if (lane == 0) lane_counts[0] = 0;
#endif
    return total;
}
