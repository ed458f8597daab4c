/* search.cl: the GPU search. One worker is one work-group of WORKER_LANES (32) work-items, the
 * lanes of one warp, cooperating on one node at a time: move generation (one piece per lane, a
 * prefix sum placing each lane's moves), move ordering (each lane scores its own moves, then a
 * rank sort), and the evaluation (eval.h). The alpha-beta itself is iterative: an explicit stack
 * of frames in local (shared) memory, walked by a state machine with the same numbered steps as
 * crates/search-cpu/src/pvs.rs.
 *
 * Needs, before it: board.h, movegen.h, line_attacks.h (whose table the host passes as `lines`),
 * the generated tables (ZOBRIST_*, LMR, search constants, evaluation weights), eval.h and see.h.
 *
 * # Uniform control
 * Every lane runs the same control code on the same values: the frame being searched, the board,
 * the key are private copies, identical in every lane, so branches never diverge and every
 * BARRIER() is reached by the whole work-group. Shared state follows one rule, so that it is also
 * correct where the lanes of a group run one after another between barriers (PoCL on a CPU):
 * only lane 0 writes it, between two barriers, and the others read it after the second one.
 * Values read from global memory that other workers change (the transposition table, the flags)
 * are read by lane 0 and broadcast the same way, so every lane sees the same value.
 *
 * # Slices
 * A launch runs the workers for `slice_nodes` nodes each (on average when there are several:
 * see CONTROL_SLICE); a worker then copies its stack to global memory and the next launch
 * resumes it. The host looks at the clock and the stop flag
 * between launches: no host-device traffic during a launch, kernels short enough for any driver
 * watchdog, and the same code path on every backend. */

#define INF 32001
#define MATE 32000
#define MATE_BOUND (MATE - 2 * GPU_MAX_PLY)
#define MAX_MOVES 256

/* ABDADA: the most moves of one node put off to its second pass (the others are searched at once
 * even when busy). At most 16: the frame keeps a byte per move, in one word up to 8 and two above
 * (the larger frame cost one worker 1.2% on the H100, thirteenth session). */
#ifndef MAX_DEFERRED
#define MAX_DEFERRED 8u
#endif
#if MAX_DEFERRED > 16
#error "MAX_DEFERRED is at most 16"
#endif

/* ---- Frames -----------------------------------------------------------------------------------
 * One node being searched. The current node's frame lives in private memory (registers); its
 * ancestors' frames are spilled to the shared stack on the way down. */
typedef struct {
    i32 alpha, beta, depth, best;
    i32 alpha_orig, static_eval;
    u32 best_move, tt_move;
    u32 n_moves, next, legal;
    u32 flags;
    u32 move;       /* the child being searched */
    u32 step;       /* which search of that child is running (STEP_*) */
    i32 child_depth; /* the child's depth before reduction, for re-searches */
    u32 halfmove;   /* plies since the last capture or pawn move */
    u32 pv_len;
    u32 quiets;     /* quiet moves searched, for late-move pruning */
    u32 deferred_count, deferred_done; /* ABDADA: moves put off, and taken up again */
    u64 deferred;   /* their list indices, a byte each */
#if MAX_DEFERRED > 8
    u64 deferred_more; /* and the 9th to 16th */
#endif
} Frame;

#define FLAG_PV 1u
#define FLAG_IN_CHECK 2u  /* the side to move is in check: set by the parent, which tested it when
                          * it made the move (the root tests its own; a null move never checks) */
#define FLAG_NULL 4u      /* reached by a null move: no second one in a row */
#define FLAG_QS 8u        /* a quiescence node */
#define FLAG_CLAIMED 16u  /* ABDADA: this node is marked busy in the table, by this worker */
#define FLAG_TT_FIRST 32u /* the table's move is being tried before the others are generated */
#define FLAG_CUT 64u      /* an expected cut node (the CPU search's `cut_node`) */
#define FLAG_IMPROVING 128u /* the static evaluation is above the one two plies up */
#define FLAG_FIFTY 256u   /* in check with the fifty moves run out: mate or a draw */
#define FLAG_ETC 512u     /* the children's table entries have been looked at (ETC) */

#define STEP_FULL 0u      /* the first move, full window */
#define STEP_REDUCED 1u   /* null window, reduced depth */
#define STEP_ZW 2u        /* null window, full depth */
#define STEP_PV 3u        /* the re-search of a PV node's move with the full window */
#define STEP_NULL 4u      /* the null-move search */

/* ---- Transposition table ----------------------------------------------------------------------
 * Buckets of four 16-byte entries, shared by every worker, written without locks: `check` is
 * key ^ data, so a torn entry (two workers writing at once) fails the check and reads as a miss.
 * data: move 0..15 | score 16..31 | static eval 32..47 | depth 48..55 | bound 56..57 |
 * generation 58..63. */
typedef struct {
    u64 check;
    u64 data;
} TTEntry;

#define TT_BUCKET 4u
#define BOUND_UPPER 1u
#define BOUND_LOWER 2u
#define BOUND_EXACT 3u

/* ---- Host interface (mirrored in crates/search-gpu/src/layout.rs) ---------------------------- */
typedef struct {
    PackedBoard root;
    u64 root_key;
    i32 alpha, beta, depth;
    u32 root_halfmove;
    u32 history_len;  /* game keys before the root, oldest first */
    u32 slice_nodes;  /* node budget per worker per launch (on average, with several workers) */
    u32 start;        /* 1: every worker starts at the root; 0: resume */
    u32 generation;   /* transposition table age, 0..63 */
    u32 tt_buckets_log2;
    u32 workers;
    u32 mode;         /* MODE_* */
    u32 any_finisher; /* 1: the first worker to finish ends the iteration; 0: worker 0 only */
} SearchParams;

#define MODE_LAZY 0u
#define MODE_RMO 1u
#define MODE_ABDADA 2u
#define MODE_ABDADA_RMO 3u /* both: helpers order quiet moves with noise and defer busy nodes */

/* ABDADA: positions being searched, by key (`busy[key & (BUSY_ENTRIES - 1)] == key`), so that
 * another worker reaching one as a younger brother (outside an expected cut node: CUT_DEFER)
 * puts it off and searches its other moves first. Only nodes this deep are marked: the table
 * traffic would cost more than it saves below. */
#define BUSY_ENTRIES 65536u
#ifndef ABDADA_MIN_DEPTH
#define ABDADA_MIN_DEPTH 3
#endif
/* Which first moves may be put off too (a younger brother may be, but at an expected cut node).
 * At an expected all-node every move has to be searched and the first is no better a guess than
 * the others, so a helper that finds it busy takes the next: the eldest-brother wait would
 * otherwise send every worker entering the node down the same move. Worker 0 keeps the
 * sequential order, and at PV and expected cut nodes the first move stays everybody's (putting
 * it off there cost 2 to 54%: PERFORMANCE.md, twelfth session). 0: never; 1: at expected
 * all-nodes, every worker; 2: at expected all-nodes, helpers (the default: 4 to 12% less time
 * to depth 13 than 0 with 132 to 528 workers on the H100, thirteenth session); 3: at every node
 * outside the PV, helpers (36 to 42% more time than 2: a cut node's first move is the one that
 * cuts). */
#ifndef FIRST_DEFER
#define FIRST_DEFER 2
#endif
/* Whether a busy younger brother may be put off at an expected cut node too (1), or is searched
 * at once by every worker that reaches it (0, the default). A cut node's later moves are searched
 * only because the first failed to cut, and the next often does: workers spread over its moves
 * search siblings that the one that cuts makes useless. With 0 the nodes the workers visit, and
 * the time to depth 13, went down most at 528 workers (-10%, two sets of four runs; -3% and -2%
 * at 132 and 264; fourteenth session). */
#ifndef CUT_DEFER
#define CUT_DEFER 0
#endif

typedef struct {
    u32 status;       /* STATUS_* */
    i32 score;
    u32 best_move;
    u32 depth;        /* the depth this worker searched */
    u64 nodes;        /* nodes searched since the search started */
    u32 seldepth;
    u32 pv_len;
    u16 pv[GPU_MAX_PLY];
    u32 partial_move; /* this iteration's best root move so far (one that raised alpha), or 0 */
    i32 partial_score;
    u64 tt_cutoffs;   /* nodes of this iteration that ended on the table's bound at entry */
    u64 etc_cutoffs;  /* nodes of this iteration cut by a child's bound (ETC) */
} WorkerResult;

#define STATUS_RUNNING 0u /* suspended at the end of a slice, resumes at the next launch */
#define STATUS_DONE 1u    /* finished the iteration: score, best move and PV are valid */
#define STATUS_IDLE 2u    /* stopped because another worker finished the iteration */

/* control[0]: set by the first worker to finish the iteration; the others stop. */
#define CONTROL_DONE 0
/* control[1]: nodes entered in this launch by all workers, zeroed by the host before each launch.
 * With several workers a launch ends when they have entered `slice_nodes` nodes each on average,
 * not when each has: workers differ in what their nodes cost (one whose nodes end on the table
 * goes faster), and with a budget of their own the fast ones, the finisher among them, waited
 * at the end of every slice for the slowest (time to depth 13 went down 6 to 16% with 132 to 528
 * workers on the H100, thirteenth session). Each still enters a quarter of its share (one node at
 * least), so that workers beyond those resident at once (a second wave) are not starved, and
 * none enters more than four shares, so that a slice stays short when workers have finished and
 * left the rest to fewer (worker 0 ending iterations alone). One worker keeps its own count: the
 * atomic would cost it 2%. */
#define CONTROL_SLICE 1

/* Diagnostics (the host defines DIAG_UNIQUE=N where KOGGE_SEARCH_DIAG=N is set): every node a
 * worker enters and does not put off counts as new or as seen before, by its key and depth, in a
 * table of 2^N keys after the control words, kept for the whole search. Across workers it tells
 * work done twice (the same node and depth) from work a single worker would not have done. Each
 * key carries the tag of the run that entered it (1 to 3, set by the host): a node a run before
 * this one entered counts as `earlier` (once; it then takes this run's tag), so that a search by
 * many workers after one by a single worker, on the same table, splits its nodes into those of
 * the single worker's tree and those outside it. */
#define CONTROL_DIAG_NEW 2
#define CONTROL_DIAG_SEEN 3
#define CONTROL_DIAG_LOST 4 /* the table's 16 slots after the key's were taken */
#define CONTROL_DIAG_EARLIER 5
#define CONTROL_DIAG_TAG 6
#define CONTROL_DIAG_TABLE 8 /* the table's first word (a u32 index; 8-byte aligned) */
#ifdef DIAG_UNIQUE
DEVICE_FN void diag_count(GLOBAL u32 *control, u64 key, i32 depth) {
    GLOBAL u64 *table = (GLOBAL u64 *)(control + CONTROL_DIAG_TABLE);
#ifdef DIAG_KEY_ONLY
    u64 h = key; /* positions, whatever the depth */
#else
    u64 h = key ^ ((u64)(u32)(depth + 64) * U64_C(0x9E3779B97F4A7C15));
#endif
    u64 tag = (u64)(control[CONTROL_DIAG_TAG] & 3u);
    h = (h & ~(u64)3) | tag; /* never 0, an empty slot: the host's tags are 1 to 3 */
    u64 mask = ((u64)1 << DIAG_UNIQUE) - 1u;
    for (u32 probe = 0; probe < 16u; probe++) {
        GLOBAL u64 *slot = table + (((h >> 20) + probe) & mask);
        u64 old = ATOMIC_CAS_U64(slot, 0u, h);
        if (old == 0u) {
            ATOMIC_ADD_U32(&control[CONTROL_DIAG_NEW], 1u);
            return;
        }
        if ((old >> 2) == (h >> 2)) {
            /* Retagged by whoever gets there first: later entries count as seen. */
            u32 earlier = old != h && ATOMIC_CAS_U64(slot, old, h) == old;
            ATOMIC_ADD_U32(&control[earlier ? CONTROL_DIAG_EARLIER : CONTROL_DIAG_SEEN], 1u);
            return;
        }
    }
    ATOMIC_ADD_U32(&control[CONTROL_DIAG_LOST], 1u);
}
#endif

/* ---- The shared stack of one worker ------------------------------------------------------------
 * Boards are kept unpacked (88 bytes a ply, not a PackedBoard's 40): every node packed its board
 * on entry and every return unpacked its parent's. The kernel is 96 instructions shorter, and on
 * the H100 264 and 528 workers searched 4% more nodes per second (time to depth 13: -10% and -4%;
 * 132 workers -2%), one worker 1.4% fewer (sixteenth session); the stack is 3 KB larger per
 * worker (12.4 KB), which twelve workers per multiprocessor still fit. */
typedef struct {
    Frame frames[GPU_MAX_PLY];      /* ancestors' frames */
    Board boards[GPU_MAX_PLY];      /* the position at each ply */
    u64 keys[GPU_MAX_PLY];          /* its Zobrist key */
    u32 killers[2 * GPU_MAX_PLY];
    Frame current;                  /* the node about to be entered, across a slice boundary */
    u32 ply;
    u32 seldepth;
    u64 nodes;
    u64 tt_cutoffs;
    u64 etc_cutoffs;
} WorkerStack;

/* Each worker's saved stack starts on a 256-byte boundary. PoCL 3.1 needs it: with the stacks
 * packed at their size (then 9,320 bytes, a multiple of 8 only), the stacks of workers other than 0
 * came back corrupted from suspension now and then, and their results missed mates (moving with
 * unrelated code changes); GPUs read it better aligned too. */
#define STACK_STRIDE_WORDS (((u32)(sizeof(WorkerStack) / 4) + 63u) & ~63u)

/* What lane 0 read from global memory, for every lane. */
typedef struct {
    u64 tt_data;
    u32 tt_hit;
    u32 done;
    u32 busy;         /* ABDADA: another worker is searching this node */
    u32 slice_used;   /* nodes entered in this launch by all workers before this one (several workers) */
} Broadcast;

/* ---- Enhanced transposition cutoff ---------------------------------------------------------------
 * Before a node outside the PV searches its list, the lanes make its first WORKER_LANES moves and
 * probe their children's table entries together: a child bounded at or below -beta by an entry
 * deep enough cuts the node at once, before any move is searched. A round is one move made and one
 * probe per lane, side by side; on a CPU each probe is a cache miss of its own, and engines that
 * use ETC at all keep it to the deeper nodes. */
#ifndef ETC_MIN_DEPTH
#define ETC_MIN_DEPTH 1
#endif

/* ---- Votes ------------------------------------------------------------------------------------
 * The lanes for which p holds, as a mask every lane gets: a ballot through shared memory, for the
 * rounds in which each lane tests one move (NEED_SCAN, NEED_ETC). `word` only grows, by each
 * voting lane's bit, so no round resets it: the mask is its growth since `*seen`, what every lane
 * read after the round before. The barrier after the read keeps the next round's votes from
 * reaching a lane still reading this one (PoCL runs the lanes one after another). What a lane
 * wrote to shared memory before voting, every lane can read after. */
DEVICE_FN u32 lanes_voting(LOCAL_PTR u32 *word, u32 *seen, u32 lane, u32 p) {
    if (p) ATOMIC_ADD_U32(word, 1u << lane);
    BARRIER();
    u32 now = *word, mask = now - *seen;
    BARRIER();
    *seen = now;
    return mask;
}

/* ---- Keys ------------------------------------------------------------------------------------ */
DEVICE_FN u64 piece_key(u32 color, u32 type, u32 sq) { return ZOBRIST_PIECES[(color * 6u + type) * 64u + sq]; }

/* The key change between two sets of castling rights: only the slots that changed are looked
 * up (most moves change none; Nsight Compute had both sets' eight lookups at 6% of the search's
 * instructions). */
DEVICE_FN u64 castling_key_change(const Board *before, const Board *after) {
    u64 k = 0;
    for (u32 slot = 0; slot < 4; slot++) {
        u32 was = before->castle[slot], now = after->castle[slot];
        if (was == now) continue;
        if (was != NO_FILE) k ^= ZOBRIST_CASTLING[(slot >> 1) * 8u + was];
        if (now != NO_FILE) k ^= ZOBRIST_CASTLING[(slot >> 1) * 8u + now];
    }
    return k;
}

/* The key of `after` = `before` with move m played, from before's key: the pieces that moved,
 * the castling rights and en-passant square that changed, the side. As Board::play does.
 * `moving`: the type of the piece on m's from-square. */
NOINLINE_FN u64 key_after(const Board *before, const Board *after, u64 key, Move m, u32 moving) {
    u32 from = m & 63u, to = (m >> 6) & 63u, kind = (m >> 12) & 3u;
    u32 us = before->side, them = us ^ 1u;
    if (before->ep != NO_SQUARE) key ^= ZOBRIST_EP[before->ep & 7u];
    if (after->ep != NO_SQUARE) key ^= ZOBRIST_EP[after->ep & 7u];
    key ^= castling_key_change(before, after);
    key ^= ZOBRIST_SIDE;
    if (kind == MOVE_CASTLING) {
        u32 base = us ? 56u : 0u;
        u32 king_side = to > from;
        key ^= piece_key(us, KING, from) ^ piece_key(us, KING, base + (king_side ? 6u : 2u));
        key ^= piece_key(us, ROOK, to) ^ piece_key(us, ROOK, base + (king_side ? 5u : 3u));
        return key;
    }
    if (kind == MOVE_EN_PASSANT) {
        key ^= piece_key(them, PAWN, to ^ 8u);
    } else if (before->colors[them] & bit(to)) {
        key ^= piece_key(them, piece_type_on(before, bit(to)), to);
    }
    u32 placed = kind == MOVE_PROMOTION ? 1u + ((m >> 14) & 3u) : moving;
    return key ^ piece_key(us, moving, from) ^ piece_key(us, placed, to);
}

/* ---- Small chess helpers --------------------------------------------------------------------- */
NOINLINE_FN int king_in_check(const Board *b, const GLOBAL u64 *lines) {
    u32 us = b->side, them = us ^ 1u;
    u64 king = b->pieces[KING] & b->colors[us];
    u64 occ = b->colors[0] | b->colors[1];
    u64 t = b->colors[them];
    u64 orth = (b->pieces[ROOK] | b->pieces[QUEEN]) & t;
    u64 diag = (b->pieces[BISHOP] | b->pieces[QUEEN]) & t;
    u32 ksq = lsb(king);
    if ((knight_from(lines, ksq) & b->pieces[KNIGHT] & t) | (pawn_from(lines, us, ksq) & b->pieces[PAWN] & t))
        return 1;
    /* A lookup per kind of line only when an enemy slider of that kind shares a line with the
     * king on the empty board (a few operations): most of the time none does. */
    if ((orth & orthogonals_at(ksq)) && (rook_from(lines, ksq, occ) & orth)) return 1;
    return (diag & diagonals_at(lines, ksq)) && (bishop_from(lines, ksq, occ) & diag);
}

DEVICE_FN int has_non_pawn_material(const Board *b) {
    u64 us = b->colors[b->side];
    return ((b->pieces[KNIGHT] | b->pieces[BISHOP] | b->pieces[ROOK] | b->pieces[QUEEN]) & us) != 0;
}

/* No side can mate: bare kings, or one minor piece on the board. As kogge_search_cpu's
 * insufficient_material. */
DEVICE_FN int insufficient_material(const Board *b) {
    if (b->pieces[PAWN] | b->pieces[ROOK] | b->pieces[QUEEN]) return 0;
    return popc(b->pieces[KNIGHT] | b->pieces[BISHOP]) <= 1;
}

/* The fifty-move counter after move m: reset by a capture or a pawn move. */
DEVICE_FN u32 halfmove_after(const Board *b, Move m, u32 halfmove) {
    u32 from = m & 63u, to = (m >> 6) & 63u, kind = (m >> 12) & 3u;
    u32 capture = kind == MOVE_EN_PASSANT || (kind != MOVE_CASTLING && (b->colors[b->side ^ 1u] & bit(to)));
    return (capture || (b->pieces[PAWN] & bit(from))) ? 0u : halfmove + 1u;
}

/* Piece values for move ordering (MVV-LVA) and delta pruning. */
DEVICE_FN i32 order_value(u32 type) {
    switch (type) {
    case PAWN: return 100;
    case KNIGHT: return 320;
    case BISHOP: return 330;
    case ROOK: return 500;
    case QUEEN: return 900;
    default: return 0;
    }
}

/* Whether move m gives check: made only when gives_check.h cannot rule it out. */
DEVICE_FN u32 move_gives_check(const Board *b, const GLOBAL u64 *lines, Move m) {
    if (!may_give_check(b, lines, m)) return 0;
    Board child = *b;
    make_move(&child, m);
    return (u32)king_in_check(&child, lines);
}

/* prepare() with the checkers and pins found by lookups from the king instead of fills along
 * eight directions (the same Masks): a slider checks if the king, as that slider, sees it; the
 * squares between two squares of one line are where their attack sets along it meet; a pinner
 * is a slider the king sees once our first blockers are lifted. The enemy's attack map is
 * prepare()'s. */
HEAVY_FN void prepare_lines(const Board *b, const GLOBAL u64 *t, Masks *m) {
    masks_sides(b, m);
    u64 orth = (b->pieces[ROOK] | b->pieces[QUEEN]) & m->them;
    u64 diag = (b->pieces[BISHOP] | b->pieces[QUEEN]) & m->them;
    u32 ksq = lsb(m->king);
    u64 rk = rook_from(t, ksq, m->occ), bk = bishop_from(t, ksq, m->occ);
    u64 checkers = (knight_from(t, ksq) & b->pieces[KNIGHT] & m->them) |
                   (pawn_from(t, b->side, ksq) & b->pieces[PAWN] & m->them) | (rk & orth) | (bk & diag);
    m->checks = popc(checkers);
    m->checkmask = ~0UL;
    if (m->checks == 1) {
        u32 c = lsb(checkers);
        m->checkmask = checkers;
        if (checkers & rk & orth) m->checkmask |= rk & rook_from(t, c, m->occ);
        else if (checkers & bk & diag) m->checkmask |= bk & bishop_from(t, c, m->occ);
    }
    m->pin_hv = 0;
    m->pin_diag = 0;
    /* Only when an enemy slider of the kind shares a line with the king on the empty board. */
    if (orthogonals_at(ksq) & orth) {
        u64 occ_x = m->occ ^ (rk & m->us);
        u64 xr = rook_from(t, ksq, occ_x);
        for (u64 p = xr & ~rk & orth; p; p &= p - 1) {
            u32 sq = lsb(p);
            m->pin_hv |= (xr & rook_from(t, sq, occ_x)) | bit(sq);
        }
    }
    if (diagonals_at(t, ksq) & diag) {
        u64 occ_x = m->occ ^ (bk & m->us);
        u64 xb = bishop_from(t, ksq, occ_x);
        for (u64 p = xb & ~bk & diag; p; p &= p - 1) {
            u32 sq = lsb(p);
            m->pin_diag |= (xb & bishop_from(t, sq, occ_x)) | bit(sq);
        }
    }
    u64 candidates = king_from(t, ksq) & ~m->us;
    m->has_danger = candidates != 0;
    m->danger = m->has_danger ? attacked_squares(b, b->side ^ 1u, m->occ ^ m->king) : 0;
    m->king_to = candidates & ~m->danger;
}

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

/* Step 11's test for move m (`quiet`: is_quiet) of node f at `ply`: whether it is pruned, unless
 * it gives check. Shallow-depth pruning follows the CPU search's conditions: not at the root, once
 * a move has saved the node from a mate, with a piece besides pawns; quiescence prunes by delta
 * and drops captures that lose material by exchange. The answer reads what changes only when a
 * move is searched (alpha, the best value, the quiet moves counted), so it holds for every move
 * from f.next on until the next one is searched: the lanes test those together (NEED_SCAN). */
DEVICE_FN u32 is_prunable(const Board *b, const GLOBAL u64 *lines, const Frame *f, u32 ply, Move m, u32 quiet) {
    u32 kind = (m >> 12) & 3u;
    if (f->flags & FLAG_QS) {
        if ((f->flags & FLAG_IN_CHECK) || kind == MOVE_PROMOTION) return 0;
        u32 victim = kind == MOVE_EN_PASSANT ? PAWN : piece_type_on(b, bit((m >> 6) & 63u));
        return f->static_eval + order_value(victim) + DELTA_MARGIN <= f->alpha || !see_ge(b, lines, m, 0);
    }
    if (ply == 0 || f->best <= -MATE_BOUND || !has_non_pawn_material(b)) return 0;
    if (quiet) {
        i32 late = (LMP_BASE + f->depth * f->depth) / ((f->flags & FLAG_IMPROVING) ? 1 : 2);
        if (f->depth <= LMP_MAX_DEPTH && (i32)f->quiets >= late) return 1;
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

/* The CPU search's order: the table move; queen promotions; captures that do not lose material
 * by exchange, most valuable victim first; the killers; the counter move; the other quiet moves
 * by history (an RMO helper's with noise, or at random); captures that lose material;
 * under-promotions.
 * In quiescence (`captures_only`) every capture counts as good: the losing ones are pruned there
 * anyway. */
NOINLINE_FN i32 score_move(const Board *b, const GLOBAL u64 *lines, Move m, const OrderHints *hints,
                           const GLOBAL i32 *history, u32 randomize, int captures_only) {
    if (m == hints->tt_move) return SCORE_TT;
    u32 from = m & 63u, to = (m >> 6) & 63u, kind = (m >> 12) & 3u;
    u32 them = b->side ^ 1u;
    if (kind == MOVE_PROMOTION) {
        if (((m >> 14) & 3u) != 3u) return SCORE_UNDERPROMOTION;
        u32 victim = (b->colors[them] & bit(to)) ? piece_type_on(b, bit(to)) : 0u;
        return SCORE_PROMOTION + order_value(victim) / 10;
    }
    if (kind == MOVE_EN_PASSANT) return SCORE_CAPTURE + 100 - PAWN;
    if (kind != MOVE_CASTLING && (b->colors[them] & bit(to))) {
        u32 victim = piece_type_on(b, bit(to)), attacker = piece_type_on(b, bit(from));
        i32 base = order_value(victim) - (i32)attacker;
        return (captures_only || see_ge(b, lines, m, 0) ? SCORE_CAPTURE : SCORE_BAD_CAPTURE) + base;
    }
    if (m == hints->killer1) return SCORE_KILLER1;
    if (m == hints->killer2) return SCORE_KILLER2;
    if (m == hints->counter) return SCORE_COUNTER;
    i32 h = history[butterfly_index(b->side, m)] / 2;
    if (!randomize) return h;
    u32 r = xorshift32(randomize ^ (m * 2654435761u));
    if (hints->noise == 0) return (i32)(r & 8191u) - 4096;
    return h + (i32)(r % (2u * hints->noise + 1u)) - (i32)hints->noise;
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

DEVICE_FN u32 gen_sorted(const Board *b, const GLOBAL u64 *lines, u32 lane, int captures_only,
                         const OrderHints *hints, const GLOBAL i32 *history, u32 randomize, LOCAL_PTR u32 *keys,
                         LOCAL_PTR u32 *lane_counts, GLOBAL u32 *out) {
    Masks m;
    prepare_lines(b, lines, &m);
    if (m.checks) captures_only = 0;
    u64 target = ~m.us & m.checkmask;
    if (captures_only) target &= m.them;
    u64 last = b->side ? RANK_1 : RANK_8;

    /* This lane's piece: the lane-th of ours in square order (a binary search on popcounts, not
     * `lane` steps of clearing the lowest bit). */
    u64 mine = lane < popc(m.us) ? m.us : 0;
    u32 from = mine ? eval_nth_square(mine, lane) : 64u;
    u64 fb = mine ? bit(from) : 0;
    u32 type = mine ? piece_type_on(b, fb) : 6u;
    u64 to = 0;       /* ordinary destinations */
    u64 promo_to = 0; /* pawn destinations on the last rank */
    u32 ep = 0, castles = 0;
    if (lane >= 16u || !mine) {
    } else if (type == KING) {
        to = m.king_to & (captures_only ? m.them : ~0UL);
        if (m.checks == 0 && !captures_only) {
            u32 slot = 2u * b->side;
            castles = (u32)can_castle(b, &m, slot) | ((u32)can_castle(b, &m, slot + 1u) << 1);
        }
    } else if (m.checks > 1) {
    } else if (type == KNIGHT) {
        if (!(fb & (m.pin_hv | m.pin_diag))) to = knight_from(lines, from) & target;
    } else if (type == PAWN) {
        u64 t = pawn_targets(b, &m, fb);
        promo_to = t & last;
        to = t & ~last;
        if (captures_only) to &= m.them;
        if (b->ep != NO_SQUARE && (pawn_attacks(b->side, fb) & bit(b->ep))) ep = (u32)ep_is_legal(b, &m, from);
    } else {
        u64 t = 0;
        if (type != BISHOP && !(fb & m.pin_diag)) {
            u64 r = rook_from(lines, from, m.occ) & target;
            if (fb & m.pin_hv) r &= m.pin_hv;
            t |= r;
        }
        if (type != ROOK && !(fb & m.pin_hv)) {
            u64 d = bishop_from(lines, from, m.occ) & target;
            if (fb & m.pin_diag) d &= m.pin_diag;
            t |= d;
        }
        to = t;
    }
    u32 per_promo = captures_only ? 1u : 4u;
    u32 count = popc(to) + per_promo * popc(promo_to) + ep + popc((u64)castles);

    /* Each lane reserves room for its moves (the counter is zero on entry: see the end) and
     * writes them unscored. Where they land does not matter: the rank sort orders them. */
    u32 at = ATOMIC_ADD_U32(&lane_counts[0], count);
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
    u32 total = lane_counts[0];
    /* Scores, spread over the lanes rather than by piece: a queen's 27 history reads would
     * otherwise wait for each other on one lane. Sort keys: score high, move low. */
    for (u32 i = lane; i < total; i += WORKER_LANES) {
        Move mv = (Move)keys[i];
        keys[i] = ((u32)(score_move(b, lines, mv, hints, history, randomize, captures_only) + 32768) << 16) | mv;
    }
    BARRIER();
    /* Rank sort, best first: keys are distinct (the moves are), so ranks are too. */
    for (u32 i = lane; i < total; i += WORKER_LANES) {
        u32 k = keys[i], rank = 0;
        for (u32 j = 0; j < total; j++) rank += keys[j] > k;
        out[rank] = k;
    }
    BARRIER();
    /* The next generation's counter. Between this and the next use there is always a barrier
     * (a generation belongs to a node, and entering a node synchronises). */
    if (lane == 0) lane_counts[0] = 0;
    return total;
}

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

/* Lane 0 only. */
DEVICE_FN u32 tt_probe(const GLOBAL TTEntry *tt, u32 log2, u64 key, u64 *data) {
    const GLOBAL TTEntry *bucket = tt + ((key & ((1UL << log2) - 1)) * TT_BUCKET);
    for (u32 i = 0; i < TT_BUCKET; i++) {
        u64 c = bucket[i].check, d = bucket[i].data;
        if ((c ^ d) == key && d != 0) {
            *data = d;
            return 1;
        }
    }
    return 0;
}

/* Lane 0 only. Replaces the entry of the same position, else the one least worth keeping
 * (shallow, or from an older search). */
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
 * draw.rs). */
DEVICE_FN int is_repetition(LOCAL_PTR WorkerStack *s, u32 ply, u64 key, u32 halfmove, const GLOBAL u64 *game_keys,
                            u32 history_len) {
    u32 seen_in_game = 0;
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

/* ---- The search --------------------------------------------------------------------------------
 * States of the machine. */
#define STATE_ENTER 0u   /* a new node: frame, board and key set, the table probed */
#define STATE_EVAL 1u    /* the static evaluation is in `eval_result` */
#define STATE_MOVES 2u   /* start on the moves: the table's first, or generate them all */
#define STATE_NEXT 3u    /* try the next move */
#define STATE_RETURN 4u  /* the node is done with value `ret` */

/* What the next cooperative step of the loop is. */
#define NEED_NONE 0u
#define NEED_SYNC 1u     /* write the shared stack, probe the table, read the flags */
#define NEED_EVAL 2u
#define NEED_GEN 3u
#define NEED_SCAN 4u     /* step 11 for the moves ahead, one per lane: the next one to search */
#define NEED_ETC 5u      /* the children's table entries, one per lane: does one cut the node? */

DEVICE_FN Frame child_frame(i32 alpha, i32 beta, i32 depth, u32 flags, u32 halfmove) {
    Frame c;
    c.alpha = alpha;
    c.beta = beta;
    c.depth = depth;
    c.best = -INF;
    c.alpha_orig = alpha;
    c.static_eval = -INF;
    c.best_move = 0;
    c.tt_move = 0;
    c.n_moves = 0;
    c.next = 0;
    c.legal = 0;
    c.flags = flags;
    c.move = 0;
    c.step = STEP_FULL;
    c.child_depth = 0;
    c.halfmove = halfmove;
    c.pv_len = 0;
    c.quiets = 0;
    c.deferred_count = 0;
    c.deferred_done = 0;
    c.deferred = 0;
#if MAX_DEFERRED > 8
    c.deferred_more = 0;
#endif
    return c;
}

/* The search's own register budget on CUDA. NVRTC compiles every module with a cap of 128
 * registers a thread (set for GPU perft's occupancy); held to it, this kernel spilled (648 bytes
 * of stack against 536), and one worker ran 11% slower. Bounds of 12 workers per multiprocessor
 * allow 170 registers: the kernel takes 164, all it asks for uncapped (166), while the default
 * 264 workers (two per SM on an H100) stay far below. A larger Workers still runs, in two waves
 * where more than 12 per SM are launched. OpenCL has no per-kernel bound (NVIDIA's driver does
 * not cap this program). */
#ifndef SEARCH_BLOCKS_PER_SM
#define SEARCH_BLOCKS_PER_SM 12
#endif
KERNEL void LAUNCH_BOUNDS(WORKER_LANES, SEARCH_BLOCKS_PER_SM)
    search_slice(const GLOBAL SearchParams *params, GLOBAL u32 *saved, GLOBAL WorkerResult *results,
                 GLOBAL u32 *lists, GLOBAL i32 *histories, GLOBAL u16 *pvs, GLOBAL TTEntry *tt,
                 const GLOBAL u64 *game_keys, GLOBAL u32 *control, GLOBAL u64 *busy, const GLOBAL u64 *lines) {
    LOCAL WorkerStack s;
    LOCAL u32 gen_keys[MAX_MOVES];
    LOCAL u32 lane_counts[WORKER_LANES];
    LOCAL i32 eval_scratch[EVAL_SCRATCH_INTS];
    LOCAL Broadcast bc;
    LOCAL i32 etc_values[WORKER_LANES]; /* NEED_ETC: lane i's child's bound, as the node's value */

    const u32 lane = LOCAL_ID();
    const u32 worker = GROUP_ID();
    const u32 log2 = params->tt_buckets_log2;
    const u32 generation = params->generation;
    GLOBAL WorkerResult *result = results + worker;
    GLOBAL u32 *my_lists = lists + (u64)worker * GPU_MAX_PLY * MAX_MOVES;
    GLOBAL i32 *history = histories + (u64)(worker / HISTORY_SHARE) * HISTORY_WORDS;
    GLOBAL u16 *pv = pvs + (u64)worker * GPU_MAX_PLY * GPU_MAX_PLY;
    GLOBAL u32 *words_saved = saved + (u64)worker * STACK_STRIDE_WORDS;
    LOCAL_PTR u32 *words_local = (LOCAL_PTR u32 *)&s;
    const u32 stack_words = (u32)(sizeof(WorkerStack) / 4);

    /* Lazy SMP: every other helper searches one ply deeper. RMO: helpers perturb their quiet moves. */
    i32 root_depth = params->depth;
    u32 randomize_seed = 0;
    if (params->mode == MODE_LAZY) root_depth += (worker & 1u) && worker > 0 ? 1 : 0;
    if ((params->mode == MODE_RMO || params->mode == MODE_ABDADA_RMO) && worker > 0)
        randomize_seed = (worker + 1u) * 0x9E3779B9u;
    /* How a helper's quiet moves are ordered (OrderHints.noise): at random under RMO alone. */
    const u32 rmo_noise = params->mode == MODE_RMO ? 0u : RMO_NOISE;

    if (result->status != STATUS_RUNNING && !params->start) return;

    Frame f;
    Board cur;
    u64 key;
    u32 ply;
    u64 nodes_at_start;
    if (params->start) {
        if (lane == 0) {
            s.ply = 0;
            s.seldepth = 0;
            s.nodes = 0;
            s.tt_cutoffs = 0;
            s.etc_cutoffs = 0;
            result->partial_move = 0;
        }
        /* Killers from an earlier iteration are as good a guess as any, but shared memory starts
         * with whatever the last work-group left: start from none, so a search is repeatable. */
        for (u32 i = lane; i < 2 * GPU_MAX_PLY; i += WORKER_LANES) s.killers[i] = 0;
        if (lane == 0) lane_counts[0] = lane_counts[1] = 0;
        BARRIER();
        ply = 0;
        unpack_value(params->root, &cur);
        key = params->root_key;
        f = child_frame(params->alpha, params->beta, root_depth, FLAG_PV, params->root_halfmove);
    } else {
        /* This copy and the one back at the end run once a launch: not unrolled (NO_UNROLL), they
         * take 30 instructions instead of 630 of the kernel's 8,056. No change of speed was
         * measured (H100, 1 to 528 workers, sixteenth session): they lay outside the hot loop. */
        NO_UNROLL for (u32 i = lane; i < stack_words; i += WORKER_LANES) words_local[i] = words_saved[i];
        if (lane == 0) lane_counts[0] = lane_counts[1] = 0;
        BARRIER();
        ply = s.ply;
        f = s.current;
        cur = s.boards[ply];
        key = s.keys[ply];
    }
    nodes_at_start = s.nodes;
    u64 nodes = s.nodes;
    u32 seldepth = s.seldepth;

    u32 state = STATE_ENTER;
    u32 need = NEED_SYNC;
    u32 save_parent = 0; /* the sync writes the parent's frame (a push) */
    Frame parent;
    i32 ret = 0;
    i32 eval_result = 0;
    u32 child_pv_len = 0;
    u32 idle = 0, finished = 0;
    const u32 abdada = params->mode == MODE_ABDADA || params->mode == MODE_ABDADA_RMO;
    /* ABDADA: the node being entered may be put off if another worker is on it (a younger
     * brother, in the first pass over its parent's moves); the child returned put off. */
    u32 deferrable = 0, deferred_ret = 0;
    /* The votes of NEED_SCAN and NEED_ETC (lanes_voting) go to lane_counts[1]: what it read after
     * the last round. NEED_SCAN: the move at f.next was kept by the scan (step 11 need not test
     * it again). NEED_ETC: the lanes whose child cuts the node, from list index etc_first on. */
    u32 vote_seen = 0, scan_kept = 0;
    u32 etc_cuts = 0, etc_first = 0;

    for (;;) {
        /* ---- The cooperative part of the step ---- */
        if (need == NEED_SYNC) {
            BARRIER();
            if (lane == 0) {
                if (save_parent) s.frames[ply - 1] = parent;
                s.boards[ply] = cur;
                s.keys[ply] = key;
                u64 d = 0;
                bc.tt_hit = tt_probe(tt, log2, key, &d);
                bc.tt_data = d;
                bc.done = ((volatile GLOBAL u32 *)control)[CONTROL_DONE];
                if (params->workers > 1) bc.slice_used = ATOMIC_ADD_U32(&control[CONTROL_SLICE], 1u);
                bc.busy = 0;
                if (abdada && f.depth >= ABDADA_MIN_DEPTH) {
                    volatile GLOBAL u64 *slot = (volatile GLOBAL u64 *)busy + (key & (BUSY_ENTRIES - 1));
                    if (deferrable && *slot == key) bc.busy = 1;
                    else *slot = key;
                }
#ifdef DIAG_UNIQUE
                if (!bc.busy) diag_count(control, key, f.depth);
#endif
            }
            BARRIER();
            save_parent = 0;
        } else if (need == NEED_EVAL) {
            eval_result = evaluate(&cur, lines, lane, eval_scratch);
        } else if (need == NEED_GEN) {
            OrderHints hints;
            hints.tt_move = f.tt_move;
            hints.noise = rmo_noise;
            hints.killer1 = s.killers[2 * ply];
            hints.killer2 = s.killers[2 * ply + 1];
            u32 slot = counter_slot(&cur, ply > 0 ? s.frames[ply - 1].move : 0u);
            hints.counter = slot != COUNTER_NONE ? (u32)history[COUNTER_BASE + slot] : 0u;
            u32 qs = (f.flags & FLAG_QS) != 0;
            u32 rnd = randomize_seed ? randomize_seed ^ (u32)key : 0u;
            f.n_moves = gen_sorted(&cur, lines, lane, qs, &hints, history, rnd, gen_keys, lane_counts,
                                   my_lists + ply * MAX_MOVES);
        } else if (need == NEED_ETC) {
            u32 j = f.next + lane, cuts = 0;
            i32 value = 0;
            if (j < f.n_moves) {
                Move mj = (Move)(my_lists[ply * MAX_MOVES + j] & 0xffffu);
                u32 moving = piece_type_on(&cur, bit(mj & 63u));
                Board child = cur;
                make_move_of(&child, mj, moving);
                u64 ck = key_after(&cur, &child, key, mj, moving), d = 0;
                tt_probe(tt, log2, ck, &d);
                cuts = child_entry_cuts(&cur, &f, ply, mj, ck, d, &s, game_keys, params->history_len, &value);
            }
            /* Read only right after this round; the node's children are entered (a sync, with its
             * barriers) before any other node's round writes them again. */
            if (cuts) etc_values[lane] = value;
            etc_cuts = lanes_voting(&lane_counts[1], &vote_seen, lane, cuts);
            etc_first = f.next;
        } else if (need == NEED_SCAN) {
            /* A move was just dropped (pruned, no check): lane i tests the move f.next + i, and
             * f.next moves on to the first one kept, 32 moves a round. */
            for (;;) {
                u32 j = f.next + lane, keep = 0;
                if (j < f.n_moves) {
                    Move mj = (Move)(my_lists[ply * MAX_MOVES + j] & 0xffffu);
                    keep = !is_prunable(&cur, lines, &f, ply, mj, is_quiet(&cur, mj)) ||
                           move_gives_check(&cur, lines, mj);
                }
                u32 kept = lanes_voting(&lane_counts[1], &vote_seen, lane, keep);
                if (kept) {
                    f.next += CTZ32(kept);
                    scan_kept = 1;
                    break;
                }
                f.next = f.next + WORKER_LANES < f.n_moves ? f.next + WORKER_LANES : f.n_moves;
                if (f.next == f.n_moves) break;
            }
        }
        need = NEED_NONE;

        /* ---- The control part: private, the same in every lane ---- */
        if (state == STATE_ENTER) {
            /* Step 1. Between slices, and when another worker has finished the iteration. */
            if (bc.done) {
                idle = 1;
                break;
            }
            if (bc.busy) {
                deferrable = 0;
                deferred_ret = 1;
                state = STATE_RETURN;
                continue;
            }
            if (abdada && f.depth >= ABDADA_MIN_DEPTH) f.flags |= FLAG_CLAIMED;
            deferrable = 0;
            u32 own = (u32)(nodes - nodes_at_start), share = params->slice_nodes;
            u32 slice_over = params->workers == 1 ? own >= share
                                                  : (bc.slice_used >= share * params->workers && 4u * own >= share) ||
                                                        own >= 4u * share;
            if (slice_over) break;
            nodes++;
            if (ply > seldepth) seldepth = ply;
            f.pv_len = 0;
            u32 in_check = ply == 0 ? (u32)king_in_check(&cur, lines) : (f.flags & FLAG_IN_CHECK) != 0;
            if (in_check) f.flags |= FLAG_IN_CHECK;

            if (ply > 0) {
                /* Step 2. Draws, the ply limit, mate distance. */
                if ((f.halfmove >= 100 && !in_check) || insufficient_material(&cur) ||
                    is_repetition(&s, ply, key, f.halfmove, game_keys, params->history_len) ||
                    (ply >= GPU_MAX_PLY - 1 && in_check)) {
                    ret = 0;
                    state = STATE_RETURN;
                    continue;
                }
                if (f.halfmove >= 100) {
                    /* In check at the fiftieth move: a draw, unless it is mate (as the CPU
                     * search). The evasions are generated and none is searched (STATE_NEXT). */
                    f.flags |= FLAG_FIFTY;
                    f.tt_move = 0;
                    need = NEED_GEN;
                    state = STATE_NEXT;
                    continue;
                }
                if (ply >= GPU_MAX_PLY - 1) {
                    /* The stack is full: the static evaluation (a draw in check, above, as the
                     * CPU search does at its limit). */
                    f.flags |= FLAG_QS;
                    f.depth = -1000;
                    need = NEED_EVAL;
                    state = STATE_EVAL;
                    continue;
                }
                i32 a = f.alpha > -MATE + (i32)ply ? f.alpha : -MATE + (i32)ply;
                i32 b = f.beta < MATE - (i32)ply - 1 ? f.beta : MATE - (i32)ply - 1;
                if (a >= b) {
                    ret = a;
                    state = STATE_RETURN;
                    continue;
                }
                f.alpha = a;
                f.beta = b;
                f.alpha_orig = a;
            }
            if (f.depth <= 0) f.flags |= FLAG_QS;

            /* Step 3. The transposition table. */
            u32 pv_node = (f.flags & FLAG_PV) != 0;
            if (bc.tt_hit) {
                u64 d = bc.tt_data;
                f.tt_move = tt_move_of(d);
                i32 ts = score_from_tt(tt_score_of(d), ply);
                u32 bound = tt_bound_of(d);
                i32 need_depth = f.depth > 0 ? f.depth : 0;
                if (!pv_node && ply > 0 && tt_depth_of(d) >= need_depth &&
                    ((bound == BOUND_EXACT) || (bound == BOUND_LOWER && ts >= f.beta) ||
                     (bound == BOUND_UPPER && ts <= f.alpha))) {
                    /* Counted in shared memory: in a register live through the whole loop the
                     * count cost one worker 2% of its speed on the H100, here 0.4%. */
                    if (lane == 0) s.tt_cutoffs++;
                    ret = ts;
                    state = STATE_RETURN;
                    continue;
                }
            }
            /* The killers two plies down start empty: they are for this node's grandchildren,
             * siblings of each other (as the CPU search keeps them). */
            if (!(f.flags & FLAG_QS) && lane == 0 && ply + 2 < GPU_MAX_PLY) {
                s.killers[2 * (ply + 2)] = 0;
                s.killers[2 * (ply + 2) + 1] = 0;
            }
            if (in_check) {
                /* No static evaluation in check: every evasion is searched. */
                f.static_eval = -INF;
                if (f.flags & FLAG_QS) f.best = -MATE + (i32)ply;
                state = STATE_MOVES;
                continue;
            }
            /* The static evaluation the table keeps (-INF: the node was in check, or never
             * evaluated) is this position's: the evaluation is a function of the position
             * alone. As the CPU search, take it rather than evaluate again. */
            if (bc.tt_hit && tt_eval_of(bc.tt_data) != -INF) {
                eval_result = tt_eval_of(bc.tt_data);
            } else {
                need = NEED_EVAL;
            }
            state = STATE_EVAL;
            continue;
        }

        if (state == STATE_EVAL) {
            i32 e = eval_result;
            f.static_eval = e;
            if (f.flags & FLAG_QS) {
                /* Quiescence: stand pat. */
                if (ply >= GPU_MAX_PLY - 1 || e >= f.beta) {
                    ret = e;
                    state = STATE_RETURN;
                    continue;
                }
                if (e > f.alpha) f.alpha = e;
                f.best = e;
                state = STATE_MOVES;
                continue;
            }
            u32 pv_node = (f.flags & FLAG_PV) != 0;
            /* Improving: better than two plies ago, when this side last moved (an ancestor in
             * check has no evaluation: counts as improving, as in the CPU search). */
            i32 before = ply >= 2 ? s.frames[ply - 2].static_eval : -INF;
            u32 improving = before == -INF || e > before;
            if (improving) f.flags |= FLAG_IMPROVING;
            /* Unlike the CPU search, pruning reads the static evaluation as it is, not sharpened
             * by the table's value: with a lower bound from a shallower search lifting it, reverse
             * futility pruning cut the reply to a quiet rook sacrifice and the GPU missed WAC's
             * mate in 2 r1bq1r1k/1pp1Np1p/p2p2pQ/4R3/n7/8/PPPP1PPP/R1B3K1 w (Rh5 gxh5 Qf6#). */
            /* Step 4. Reverse futility pruning. */
            if (!pv_node && f.depth <= RFP_MAX_DEPTH && e - RFP_MARGIN * (f.depth - (i32)improving) >= f.beta &&
                e < MATE_BOUND && e > -MATE_BOUND) {
                ret = e;
                state = STATE_RETURN;
                continue;
            }
            /* Step 5. Null move: give the opponent a free move; still at least beta: cut. */
            if (!pv_node && !(f.flags & FLAG_NULL) && f.depth >= NMP_MIN_DEPTH && e >= f.beta &&
                f.beta > -MATE_BOUND && f.beta < MATE_BOUND && has_non_pawn_material(&cur)) {
                i32 r = NMP_BASE + f.depth / NMP_DEPTH_DIV;
                i32 extra = (e - f.beta) / 200;
                r += extra < 3 ? extra : 3;
                f.step = STEP_NULL;
                f.move = 0;
                parent = f;
                Frame c = child_frame(-f.beta, -f.beta + 1, f.depth - r, FLAG_NULL | ((f.flags & FLAG_CUT) ? 0u : FLAG_CUT),
                                      0);
                u64 k = key ^ ZOBRIST_SIDE;
                if (cur.ep != NO_SQUARE) k ^= ZOBRIST_EP[cur.ep & 7u];
                cur.ep = NO_SQUARE;
                cur.side ^= 1u;
                key = k;
                f = c;
                ply++;
                save_parent = 1;
                need = NEED_SYNC;
                state = STATE_ENTER;
                continue;
            }
            state = STATE_MOVES;
            continue;
        }

        if (state == STATE_MOVES) {
            /* Step 6. Internal iterative reduction: without a table move the ordering is poor;
             * where a good one matters (PV and expected cut nodes), a ply less finds one
             * cheaper. */
            if (!(f.flags & FLAG_QS) && f.tt_move == 0 && f.depth >= IIR_MIN_DEPTH && (f.flags & (FLAG_PV | FLAG_CUT)))
                f.depth--;
            f.next = 0;
            f.legal = 0;
            if (!(f.flags & FLAG_QS)) f.best = -INF;
            /* The table's move comes first in the sorted list anyway: tried on its own first, a
             * cutoff by it (the usual case at a cut node) saves generating, scoring and sorting
             * the others. Otherwise it is index 0 of the list made next, which f.next passes. */
            u32 captures_only = (f.flags & FLAG_QS) && !(f.flags & FLAG_IN_CHECK);
            if (tt_move_first(&cur, f.tt_move, captures_only)) {
                f.flags |= FLAG_TT_FIRST;
                f.n_moves = 1;
            } else {
                need = NEED_GEN;
            }
            state = STATE_NEXT;
            continue;
        }

        if (state == STATE_NEXT) {
            u32 qs = (f.flags & FLAG_QS) != 0;
            u32 in_check = (f.flags & FLAG_IN_CHECK) != 0;
            u32 pv_node = (f.flags & FLAG_PV) != 0;
            u32 index = f.next;
            u32 second_pass = f.next >= f.n_moves;
            if (f.flags & FLAG_FIFTY) {
                ret = f.n_moves > 0 ? 0 : -MATE + (i32)ply;
                state = STATE_RETURN;
                continue;
            }
            if (second_pass && (f.flags & FLAG_TT_FIRST)) {
                /* The table's move did not cut: now the list, from its second move. */
                f.flags &= ~FLAG_TT_FIRST;
                need = NEED_GEN;
                continue;
            }
            if (second_pass && f.deferred_done < f.deferred_count) {
#if MAX_DEFERRED > 8
                u64 word = f.deferred_done < 8u ? f.deferred : f.deferred_more;
#else
                u64 word = f.deferred;
#endif
                index = (u32)(word >> (8u * (f.deferred_done & 7u))) & 255u;
                f.deferred_done++;
            } else if (second_pass) {
                /* Step 14. No move left: mate, stalemate, or the best found. */
                if (f.legal == 0 && f.n_moves == 0 && !qs) {
                    ret = in_check ? -MATE + (i32)ply : 0;
                } else if (f.legal == 0 && qs && in_check) {
                    ret = -MATE + (i32)ply;
                } else {
                    ret = f.best;
                }
                /* Step 15. Store. */
                if (lane == 0) {
                    u32 bound = ret >= f.beta ? BOUND_LOWER : (ret > f.alpha_orig ? BOUND_EXACT : BOUND_UPPER);
                    tt_store(tt, log2, key, f.best_move, score_to_tt(ret, ply), f.static_eval,
                             qs ? 0 : f.depth, bound, generation);
                }
                state = STATE_RETURN;
                continue;
            }
            u32 entry = (f.flags & FLAG_TT_FIRST) ? f.tt_move : my_lists[ply * MAX_MOVES + index];
            u32 scan = !second_pass && !(f.flags & FLAG_TT_FIRST);
            if (scan && !(f.flags & (FLAG_ETC | FLAG_PV | FLAG_QS)) && f.depth >= ETC_MIN_DEPTH &&
                ply + 2 < GPU_MAX_PLY) {
                /* The list's first move, outside the PV: the children's entries first. */
                f.flags |= FLAG_ETC;
                need = NEED_ETC;
                continue;
            }
            if (etc_cuts) {
                /* A child's bound cuts the node: its move is the best, the bound the value. */
                u32 k = CTZ32(etc_cuts);
                etc_cuts = 0;
                ret = etc_values[k];
                if (lane == 0) {
                    s.etc_cutoffs++;
                    tt_store(tt, log2, key, my_lists[ply * MAX_MOVES + etc_first + k] & 0xffffu,
                             score_to_tt(ret, ply), f.static_eval, f.depth, BOUND_LOWER, generation);
                }
                state = STATE_RETURN;
                continue;
            }
            if (!second_pass) f.next++;
            Move m = (Move)(entry & 0xffffu);
            u32 quiet = is_quiet(&cur, m);

            /* Step 11. Shallow-depth pruning. Moves that give check are never pruned: quiet
             * checks are how mates at the horizon are found, and a sacrifice with check is how a
             * mate begins (WAC's 5rk1/n1p1R1bp/... mate in 3 was lost to SEE pruning with checks
             * included; the CPU search prunes those). A move the scan kept needs no test. */
            u32 prunable = scan_kept ? 0u : is_prunable(&cur, lines, &f, ply, m, quiet);
            scan_kept = 0;
            /* A move to prune unless it gives check: most surely give none (gives_check.h), and
             * are dropped without being made. Where one is dropped, more usually follow (late
             * quiet moves, once late-move pruning starts): the lanes look for the next move to
             * search together. */
            if (prunable && !may_give_check(&cur, lines, m)) {
                if (scan) need = NEED_SCAN;
                continue;
            }

            /* Step 10. Make the move. */
            u32 moving = piece_type_on(&cur, bit(m & 63u));
            Board child = cur;
            make_move_of(&child, m, moving);
            u32 gives_check = (u32)king_in_check(&child, lines);
            u32 child_check = gives_check ? FLAG_IN_CHECK : 0u;
            if (prunable && !gives_check) {
                if (scan) need = NEED_SCAN;
                continue;
            }
            u64 child_key = key_after(&cur, &child, key, m, moving);
            u32 child_halfmove = halfmove_after(&cur, m, f.halfmove);
            f.legal++;
            if (quiet) f.quiets++;
            f.move = m;

            if (qs) {
                parent = f;
                parent.step = STEP_FULL;
                f = child_frame(-f.beta, -f.alpha, 0, FLAG_QS | (f.flags & FLAG_PV) | child_check, child_halfmove);
                /* Checks in quiescence are answered by evasions at depth 0 (still quiescence). */
            } else {
                /* Step 12. Extensions (checks, within reason) and late-move reductions, as the
                 * CPU search's: more where the position is not improving and at expected cut
                 * nodes, less for checks, killers and moves with a good history. */
                u32 cut_node = (f.flags & FLAG_CUT) != 0, improving = (f.flags & FLAG_IMPROVING) != 0;
                i32 new_depth = f.depth - 1 + ((gives_check && (i32)ply < 2 * root_depth) ? 1 : 0);
                u32 reduce = f.depth >= LMR_MIN_DEPTH && f.legal >= LMR_MIN_MOVE + pv_node && quiet;
                i32 r = 0;
                if (reduce) {
                    u32 di = f.depth < 63 ? (u32)f.depth : 63u, mi = f.legal < 63 ? f.legal : 63u;
                    r = LMR[di * 64u + mi];
                    r -= (i32)pv_node;
                    r += (i32)!improving;
                    r += (i32)cut_node;
                    r -= (i32)gives_check;
                    if (m == s.killers[2 * ply] || m == s.killers[2 * ply + 1]) r--;
                    r -= history[butterfly_index(cur.side, m)] / LMR_HISTORY_DIV;
                    if (r < 0) r = 0;
                    if (r > new_depth - 1) r = new_depth - 1 > 0 ? new_depth - 1 : 0;
                }
                f.child_depth = new_depth;
                parent = f;
                if (f.legal == 1) {
                    /* The first move: a PV node's with the full window; elsewhere the null
                     * window, which makes the child an expected cut node if this one is not. */
                    u32 child_kind = pv_node ? FLAG_PV : (cut_node ? 0u : FLAG_CUT);
                    parent.step = STEP_FULL;
                    f = child_frame(-f.beta, -f.alpha, new_depth, child_kind | child_check, child_halfmove);
                } else {
                    /* A reduced search's child is expected to cut (it is a late move, expected
                     * to fail low here); a full-depth null-window one alternates. */
                    u32 child_kind = (reduce || !cut_node) ? FLAG_CUT : 0u;
                    parent.step = r > 0 ? STEP_REDUCED : STEP_ZW;
                    f = child_frame(-f.alpha - 1, -f.alpha, new_depth - r, child_kind | child_check, child_halfmove);
                }
            }
            cur = child;
            key = child_key;
            ply++;
            save_parent = 1;
            u32 outside_pv = !(parent.flags & FLAG_PV), all_node = outside_pv && !(parent.flags & FLAG_CUT);
            u32 first_deferrable = FIRST_DEFER == 1   ? all_node
                                   : FIRST_DEFER == 2 ? all_node && worker > 0
                                   : FIRST_DEFER == 3 ? outside_pv && worker > 0
                                                      : 0u;
            u32 younger_deferrable = parent.legal > 1 && (CUT_DEFER || !(parent.flags & FLAG_CUT));
            deferrable = abdada && !second_pass && (younger_deferrable || first_deferrable) &&
                         parent.deferred_count < MAX_DEFERRED;
            need = NEED_SYNC;
            state = STATE_ENTER;
            continue;
        }

        if (state == STATE_RETURN) {
            if (ply == 0) {
                finished = 1;
                break;
            }
            /* Step 13. Back in the parent: re-search, or take the value. */
            if ((f.flags & FLAG_CLAIMED) && lane == 0) {
                volatile GLOBAL u64 *slot = (volatile GLOBAL u64 *)busy + (key & (BUSY_ENTRIES - 1));
                if (*slot == key) *slot = 0;
            }
            child_pv_len = f.pv_len;
            ply--;
            f = s.frames[ply];
            /* Only a PV search of the child leaves a line worth copying. */
            if (!(f.flags & FLAG_PV) || (f.step != STEP_FULL && f.step != STEP_PV)) child_pv_len = 0;
            cur = s.boards[ply];
            key = s.keys[ply];
            if (deferred_ret) {
                /* Another worker is on this move: come back to it after the others. */
                deferred_ret = 0;
                u64 byte = (u64)(f.next - 1u) << (8u * (f.deferred_count & 7u));
#if MAX_DEFERRED > 8
                if (f.deferred_count >= 8u) f.deferred_more |= byte;
                else
#endif
                    f.deferred |= byte;
                f.deferred_count++;
                f.legal--;
                state = STATE_NEXT;
                continue;
            }
            i32 v = -ret;
            Move m = (Move)f.move;

            if (f.step == STEP_NULL) {
                if (v >= f.beta) {
                    ret = v >= MATE_BOUND ? f.beta : v;
                    state = STATE_RETURN;
                    continue;
                }
                state = STATE_MOVES;
                continue;
            }
            u32 research = 0;
            Frame c;
            if (f.step == STEP_REDUCED && v > f.alpha) {
                research = 1;
                f.step = STEP_ZW;
                c = child_frame(-f.alpha - 1, -f.alpha, f.child_depth, (f.flags & FLAG_CUT) ? 0u : FLAG_CUT, 0);
            } else if ((f.step == STEP_ZW || f.step == STEP_REDUCED) && v > f.alpha && v < f.beta &&
                       (f.flags & FLAG_PV)) {
                research = 1;
                f.step = STEP_PV;
                c = child_frame(-f.beta, -f.alpha, f.child_depth, FLAG_PV, 0);
            }
            if (research) {
                u32 moving = piece_type_on(&cur, bit(m & 63u));
                Board child = cur;
                make_move_of(&child, m, moving);
                if (king_in_check(&child, lines)) c.flags |= FLAG_IN_CHECK;
                c.halfmove = halfmove_after(&cur, m, f.halfmove);
                key = key_after(&cur, &child, key, m, moving);
                cur = child;
                parent = f;
                f = c;
                ply++;
                save_parent = 1;
                need = NEED_SYNC;
                state = STATE_ENTER;
                continue;
            }
            if (v > f.best) {
                f.best = v;
                if (v > f.alpha) {
                    f.best_move = m;
                    f.alpha = v;
                    /* At the root, a move that beat alpha was searched in full at this depth:
                     * if the iteration is stopped, the host plays it (as the CPU search does). */
                    if (ply == 0 && lane == 0) {
                        result->partial_move = m;
                        result->partial_score = v;
                    }
                    if ((f.flags & FLAG_PV) && lane == 0) {
                        /* The triangular PV: this move, then the child's line. Lane 0 alone
                         * reads and writes it. */
                        GLOBAL u16 *line = pv + ply * GPU_MAX_PLY;
                        const GLOBAL u16 *below = pv + (ply + 1) * GPU_MAX_PLY;
                        line[0] = (u16)m;
                        for (u32 i = 0; i < child_pv_len && i + 1 < GPU_MAX_PLY; i++) line[i + 1] = below[i];
                    }
                    if (f.flags & FLAG_PV) f.pv_len = child_pv_len + 1 < GPU_MAX_PLY ? child_pv_len + 1 : GPU_MAX_PLY;
                    if (v >= f.beta) {
                        /* A cutoff by a quiet move: it becomes a killer and the counter to the
                         * move before, its history rises and that of the quiet moves tried
                         * before it falls (all moves the list placed before it: unlike the CPU
                         * search's, this includes those pruned). */
                        if (is_quiet(&cur, m) && !(f.flags & FLAG_QS)) {
                            i32 bonus = history_bonus(f.depth);
                            if (lane == 0) {
                                if (s.killers[2 * ply] != m) {
                                    s.killers[2 * ply + 1] = s.killers[2 * ply];
                                    s.killers[2 * ply] = m;
                                }
                                u32 slot = counter_slot(&cur, ply > 0 ? s.frames[ply - 1].move : 0u);
                                if (slot != COUNTER_NONE) history[COUNTER_BASE + slot] = (i32)m;
                                history_update(history + butterfly_index(cur.side, m), bonus);
                            }
                            if (!(f.flags & FLAG_TT_FIRST)) {
                                const GLOBAL u32 *tried = my_lists + ply * MAX_MOVES;
                                for (u32 i = lane; i < f.next; i += WORKER_LANES) {
                                    Move q = (Move)(tried[i] & 0xffffu);
                                    if (q != m && is_quiet(&cur, q))
                                        history_update(history + butterfly_index(cur.side, q), -bonus);
                                }
                            }
                            /* Every lane's updates done before any lane reads the history again
                             * (where the lanes of a group run one after another, PoCL, a lane
                             * would otherwise read what the next has not yet written). */
                            BARRIER();
                        }
                        if (lane == 0)
                            tt_store(tt, log2, key, m, score_to_tt(v, ply), f.static_eval,
                                     (f.flags & FLAG_QS) ? 0 : f.depth, BOUND_LOWER, generation);
                        ret = v;
                        state = STATE_RETURN;
                        continue;
                    }
                }
            }
            if (ply == 0 && f.best_move == 0) f.best_move = m;
            state = STATE_NEXT;
            continue;
        }
    }

    /* ---- Leaving the launch ---- */
    if (finished) {
        /* The root is done: publish the result. Worker 0's ends the iteration for everyone, and
         * with `any_finisher` any worker's does (Zeta's rule). */
        if (lane == 0) {
            result->score = ret;
            result->best_move = f.best_move;
            result->depth = (u32)root_depth;
            result->seldepth = seldepth;
            result->pv_len = f.pv_len;
            for (u32 i = 0; i < f.pv_len; i++) result->pv[i] = pv[i];
            result->nodes = nodes;
            result->tt_cutoffs = s.tt_cutoffs;
            result->etc_cutoffs = s.etc_cutoffs;
            result->status = STATUS_DONE;
            if (worker == 0 || params->any_finisher) ATOMIC_ADD_U32(&control[CONTROL_DONE], 1u);
        }
        return;
    }
    if (idle) {
        if (lane == 0) {
            result->nodes = nodes;
            result->tt_cutoffs = s.tt_cutoffs;
            result->etc_cutoffs = s.etc_cutoffs;
            result->status = STATUS_IDLE;
        }
        return;
    }
    /* Suspended: save the stack; the next launch resumes at this node's entry. */
    BARRIER();
    if (lane == 0) {
        s.current = f;
        s.ply = ply;
        s.seldepth = seldepth;
        s.nodes = nodes;
        result->nodes = nodes;
        result->tt_cutoffs = s.tt_cutoffs;
        result->etc_cutoffs = s.etc_cutoffs;
        result->status = STATUS_RUNNING;
    }
    BARRIER();
    NO_UNROLL for (u32 i = lane; i < stack_words; i += WORKER_LANES) words_saved[i] = words_local[i];
}

/* The sizes the host must agree with: it allocates the stacks by the first and checks its
 * mirrors of the others. */
KERNEL void layout_sizes(GLOBAL u32 *out) {
    if (GLOBAL_ID() != 0) return;
    out[0] = STACK_STRIDE_WORDS * 4u;
    out[1] = (u32)sizeof(WorkerResult);
    out[2] = (u32)sizeof(SearchParams);
    out[3] = (u32)sizeof(TTEntry);
}
