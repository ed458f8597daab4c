/* eval.h: Kogge's evaluation on the device, the port of crates/eval term by term. It must give
 * exactly kogge_eval::evaluate on every position (crates/search-gpu checks it position by
 * position), so it is integer-only and every term reads like its Rust twin, in the same order:
 * material, piece_squares, mobility, pawn_structure, king_safety, bishop_pair, rook_files, tempo.
 *
 * Needs board.h and line_attacks.h before it (the sliders' attacks come from the latter's table,
 * which evaluate() takes as `lines`), and the weight tables after them: crates/search-gpu/src/
 * eval_source.rs generates them (EVAL_MATERIAL, EVAL_PST, ...) from kogge_eval::Weights, so the
 * tuned values reach the GPU by construction and none is copied here by hand.
 *
 * It is warp-cooperative: one worker of the GPU search is one work-group of WORKER_LANES = 32
 * lanes cooperating on one position, and evaluate() is called by all of them together.
 *   1. Every lane works out the same small context (occupancy, pawn attacks, king zones).
 *   2. Lane i takes the i-th piece in square order (i + 32 too, on boards with more than 32
 *      pieces, which no legal game reaches) and adds up the per-piece terms: piece-square,
 *      mobility, pawn structure for a pawn, rook files for a rook, and the piece's share of the
 *      attack on the enemy king. The slider lookups thus run once per lane rather than once per
 *      piece in a row.
 *   3. Two-stage sum in local memory of four numbers per lane: mg, eg, and the attack on each
 *      king (units and attackers, packed).
 *   4. Every lane, from the sums: the per-side terms (material, king danger and shield, bishop
 *      pair, tempo), the phase, the blend and the sign for the side to move. These are the
 *      non-linear parts (the king danger table lookup, the blend), and a few dozen operations:
 *      cheaper done by all lanes alike than spread out and summed again.
 * Four barriers in all: on entry, two for the sum, on exit.
 *
 * Written in the portable dialect of prelude_*.h: no backend #ifdefs here. Local arrays can only
 * be declared at kernel top level (OpenCL C 1.2), hence the caller's `scratch`. */

#define WORKER_LANES 32

/* Local memory evaluate() needs, in ints: four numbers per lane, then one partial sum per lane. */
#define EVAL_QUANTITIES 4
#define EVAL_SCRATCH_INTS (EVAL_QUANTITIES * WORKER_LANES + WORKER_LANES)

/* The two-stage sum below is laid out for 32 lanes and 4 quantities: each lane first adds 4
 * consecutive entries (so lanes 8q .. 8q + 7 hold the partials of quantity q). A compile error
 * here means WORKER_LANES changed without the sum. */
typedef char eval_needs_32_lanes[WORKER_LANES == 32 ? 1 : -1];

/* A king's attack, summed over lanes: units << EVAL_ATTACK_SHIFT | attackers. Attackers are at
 * most 62 (every square but the two kings'), so they never carry into the units. */
#define EVAL_ATTACK_SHIFT 8
#define EVAL_ATTACKERS_MASK ((1 << EVAL_ATTACK_SHIFT) - 1)

/* Light squares (b1, a2, ...): a bishop's square colour. crates/eval/src/terms.rs LIGHT_SQUARES. */
#define EVAL_LIGHT_SQUARES 0x55AA55AA55AA55AAUL
#define EVAL_FILE_A 0x0101010101010101UL

#define WHITE 0u
#define BLACK 1u

/* ---- Score: crates/eval/src/score.rs ------------------------------------------------------- */

/* A midgame/endgame pair of centipawns, like kogge_eval::Score. */
typedef struct {
    i32 mg;
    i32 eg;
} EvalScore;

DEVICE_FN EvalScore eval_score(i32 mg, i32 eg) {
    EvalScore s;
    s.mg = mg;
    s.eg = eg;
    return s;
}
DEVICE_FN EvalScore eval_add(EvalScore a, EvalScore b) { return eval_score(a.mg + b.mg, a.eg + b.eg); }
DEVICE_FN EvalScore eval_sub(EvalScore a, EvalScore b) { return eval_score(a.mg - b.mg, a.eg - b.eg); }
DEVICE_FN EvalScore eval_mul(EvalScore a, i32 n) { return eval_score(a.mg * n, a.eg * n); }

/* A weight pair of the generated tables: EVAL_MATERIAL[pt] is {mg, eg}. */
DEVICE_FN EvalScore eval_weight(CONSTANT_PTR const i32 *pair) { return eval_score(pair[0], pair[1]); }
/* A scalar weight of the generated #defines: EVAL_SCORE_OF(EVAL_TEMPO). */
#define EVAL_SCORE_OF(NAME) eval_score(NAME##_MG, NAME##_EG)

/* Score::blend: (mg * phase + eg * (24 - phase)) / 24. C's division truncates toward zero, like
 * Rust's, so negative scores round the same way on both sides. */
DEVICE_FN i32 eval_blend(EvalScore s, i32 phase) {
    return (s.mg * phase + s.eg * (EVAL_MAX_PHASE - phase)) / EVAL_MAX_PHASE;
}

/* ---- Masks: crates/eval/src/masks.rs ------------------------------------------------------- */

DEVICE_FN u64 eval_file_of(u32 sq) { return EVAL_FILE_A << (sq & 7u); }

DEVICE_FN u64 eval_adjacent_files(u32 sq) {
    u64 f = eval_file_of(sq);
    return ((f & NOT_A) >> 1) | ((f & NOT_H) << 1);
}

/* Every square on a rank strictly in front of `sq` as `color` sees it. */
DEVICE_FN u64 eval_forward_ranks(u32 color, u32 sq) {
    u32 r = sq >> 3;
    if (color == WHITE) return r == 7u ? 0UL : ~0UL << (8u * (r + 1u));
    return (1UL << (8u * r)) - 1UL;
}

DEVICE_FN u64 eval_rank(u32 r) { return RANK_1 << (8u * r); }

/* ---- What every lane needs to know --------------------------------------------------------- */

typedef struct {
    u64 occupied;
    u64 pawns[2];         /* by colour */
    u64 pawn_attacks[2];  /* squares attacked by each colour's pawns */
    u64 mobility_area[2]; /* mobility's safe squares: not own pieces, not attacked by enemy pawns */
    u64 king_zone[2];     /* each king's square and the squares it attacks */
} EvalContext;

/* `pair[color]`, written as a select: a private array indexed by a run-time value is put in
 * slow per-thread memory by GPU compilers, constant indices stay in registers. */
DEVICE_FN u64 eval_pick(const u64 *pair, u32 color) { return color == WHITE ? pair[WHITE] : pair[BLACK]; }

HEAVY_FN void eval_prepare(const Board *b, EvalContext *x) {
    x->occupied = b->colors[WHITE] | b->colors[BLACK];
    for (u32 c = 0; c < 2u; c++) {
        u64 king = b->pieces[KING] & b->colors[c];
        x->pawns[c] = b->pieces[PAWN] & b->colors[c];
        x->pawn_attacks[c] = pawn_attacks(c, x->pawns[c]);
        x->king_zone[c] = king_attacks(king) | king;
    }
    for (u32 c = 0; c < 2u; c++) x->mobility_area[c] = ~(b->colors[c] | x->pawn_attacks[c ^ 1u]);
}

/* The squares a knight, bishop, rook or queen on `sq` attacks (0 for pawns and kings), as
 * kogge_chess::attacks gives them: sliders stop at the first piece, whatever its colour. Both
 * slider lookups are made on every lane and kept by the piece type (line_attacks.h's table `t`),
 * so that the lanes of a warp, each with its own piece, run the same instructions. */
DEVICE_FN u64 eval_reach(const GLOBAL u64 *t, u32 pt, u32 sq, u64 occupied) {
    u64 knight = pt == KNIGHT ? knight_from(t, sq) : 0UL;
    u64 diagonal = (pt == BISHOP || pt == QUEEN) ? bishop_from(t, sq, occupied) : 0UL;
    u64 orthogonal = (pt == ROOK || pt == QUEEN) ? rook_from(t, sq, occupied) : 0UL;
    return knight | diagonal | orthogonal;
}

/* The square of the n-th set bit (from 0, in square order) of `set`; n < popcount(set). A binary
 * search on popcounts: six steps whatever n is, so no lane waits for another. */
DEVICE_FN u32 eval_nth_square(u64 set, u32 n) {
    u32 sq = 0;
    for (u32 width = 32; width > 0; width >>= 1) {
        u32 low = popc(set & ((1UL << width) - 1UL));
        if (n >= low) {
            n -= low;
            set >>= width;
            sq += width;
        }
    }
    return sq;
}

/* ---- The terms, in the order of crates/eval ------------------------------------------------ */

/* terms.rs `material`, for one side: EVAL_MATERIAL per piece. */
DEVICE_FN EvalScore material(const Board *b, u32 color) {
    EvalScore s = eval_score(0, 0);
    for (u32 pt = 0; pt < 6u; pt++) {
        i32 n = (i32)popc(b->pieces[pt] & b->colors[color]);
        s = eval_add(s, eval_mul(eval_weight(EVAL_MATERIAL[pt]), n));
    }
    return s;
}

/* terms.rs `piece_squares`, for one piece: its table entry, the square read from its owner's side
 * (EVAL_PST is in square order, a1 = 0 for white and a8 = 0 for black, like Weights::pst). */
DEVICE_FN EvalScore piece_squares(u32 pt, u32 color, u32 sq) {
    u32 relative = color == WHITE ? sq : (sq ^ 56u);
    return eval_weight(EVAL_PST[pt][relative]);
}

/* terms.rs `mobility`, for one piece attacking `reach`: its safe squares against its type's
 * centre, times the weight. Knights, bishops, rooks and queens only. */
DEVICE_FN EvalScore mobility(const EvalContext *x, u32 pt, u32 color, u64 reach) {
    if (pt < KNIGHT || pt > QUEEN) return eval_score(0, 0);
    i32 n = (i32)popc(reach & eval_pick(x->mobility_area, color)) - EVAL_MOBILITY_CENTER[pt];
    return eval_mul(eval_weight(EVAL_MOBILITY[pt]), n);
}

/* pawns.rs `pawn_structure`, for one pawn of `color` on `sq`: doubled, passed, isolated and
 * backward, with the same definitions and the same order of tests. */
DEVICE_FN EvalScore pawn_structure(const EvalContext *x, u32 color, u32 sq) {
    u64 ours = eval_pick(x->pawns, color);
    u64 theirs = eval_pick(x->pawns, color ^ 1u);
    u64 their_attacks = eval_pick(x->pawn_attacks, color ^ 1u);
    u64 file = eval_file_of(sq);
    u64 adjacent = eval_adjacent_files(sq);
    u64 ahead = eval_forward_ranks(color, sq);
    EvalScore s = eval_score(0, 0);

    int doubled = (ours & file & ahead) != 0;
    if (doubled) s = eval_add(s, EVAL_SCORE_OF(EVAL_DOUBLED_PAWN));
    if (!doubled && (theirs & (file | adjacent) & ahead) == 0) {
        u32 rank = color == WHITE ? (sq >> 3) : 7u - (sq >> 3);
        s = eval_add(s, eval_weight(EVAL_PASSED_PAWN[rank]));
    }
    if ((ours & adjacent) == 0) {
        s = eval_add(s, EVAL_SCORE_OF(EVAL_ISOLATED_PAWN));
    } else if ((ours & adjacent & ~ahead) == 0) {
        /* The stop square, where it exists (Square::offset gives None off the board). */
        int has_stop = color == WHITE ? sq < 56u : sq >= 8u;
        u32 stop = color == WHITE ? sq + 8u : sq - 8u;
        if (has_stop && (their_attacks & bit(stop)) != 0) s = eval_add(s, EVAL_SCORE_OF(EVAL_BACKWARD_PAWN));
    }
    return s;
}

/* king.rs `king_safety`, its attack half, for one piece: what a knight, bishop, rook or queen
 * whose attacks meet the enemy king zone in `reach_in_zone` adds to that king's attack,
 * packed as units << EVAL_ATTACK_SHIFT | 1 attacker (0 when it does not reach the zone). */
DEVICE_FN i32 king_attack(u32 pt, u64 reach_in_zone) {
    if (pt < KNIGHT || pt > QUEEN || reach_in_zone == 0) return 0;
    i32 units = EVAL_KING_ATTACK_WEIGHT[pt] * (i32)popc(reach_in_zone);
    return (units << EVAL_ATTACK_SHIFT) | 1;
}

/* king.rs `king_safety`, for `color`'s king, given `attack`, the sum of king_attack over the
 * enemy pieces: the danger table once enough pieces attack, and the pawn shield of a king on its
 * back rank on a wing. */
DEVICE_FN EvalScore king_safety(const Board *b, const EvalContext *x, u32 color, i32 attack) {
    EvalScore s = eval_score(0, 0);
    i32 attackers = attack & EVAL_ATTACKERS_MASK;
    i32 units = attack >> EVAL_ATTACK_SHIFT;
    if (attackers >= EVAL_KING_ATTACKERS_MIN) {
        i32 danger = units < EVAL_KING_DANGER_LEN - 1 ? units : EVAL_KING_DANGER_LEN - 1;
        s = eval_add(s, eval_weight(EVAL_KING_DANGER[danger]));
    }

    u32 ksq = lsb(b->pieces[KING] & b->colors[color]);
    u32 rank = color == WHITE ? (ksq >> 3) : 7u - (ksq >> 3);
    u32 file = ksq & 7u;
    int on_back_rank = rank == 0u;
    int on_wing = file <= 2u || file >= 5u;
    if (on_back_rank && on_wing) {
        u64 shield = eval_pick(x->pawns, color) & (eval_file_of(ksq) | eval_adjacent_files(ksq));
        i32 close = (i32)popc(shield & eval_rank(color == WHITE ? 1u : 6u));
        i32 far = (i32)popc(shield & eval_rank(color == WHITE ? 2u : 5u));
        s = eval_add(s, eval_mul(EVAL_SCORE_OF(EVAL_PAWN_SHIELD_CLOSE), close));
        s = eval_add(s, eval_mul(EVAL_SCORE_OF(EVAL_PAWN_SHIELD_FAR), far));
    }
    return s;
}

/* terms.rs `bishop_pair`, for one side: bishops on both square colours. */
DEVICE_FN EvalScore bishop_pair(const Board *b, u32 color) {
    u64 bishops = b->pieces[BISHOP] & b->colors[color];
    if ((bishops & EVAL_LIGHT_SQUARES) != 0 && (bishops & ~EVAL_LIGHT_SQUARES) != 0)
        return EVAL_SCORE_OF(EVAL_BISHOP_PAIR);
    return eval_score(0, 0);
}

/* terms.rs `rook_files`, for one rook of `color` on `sq`: open or half-open file. */
DEVICE_FN EvalScore rook_files(const EvalContext *x, u32 color, u32 sq) {
    u64 file = eval_file_of(sq);
    if ((file & (x->pawns[WHITE] | x->pawns[BLACK])) == 0) return EVAL_SCORE_OF(EVAL_ROOK_OPEN_FILE);
    if ((file & eval_pick(x->pawns, color)) == 0) return EVAL_SCORE_OF(EVAL_ROOK_HALF_OPEN_FILE);
    return eval_score(0, 0);
}

/* terms.rs `tempo`, for one side: the bonus when it is to move. */
DEVICE_FN EvalScore tempo(const Board *b, u32 color) {
    return b->side == color ? EVAL_SCORE_OF(EVAL_TEMPO) : eval_score(0, 0);
}

/* lib.rs `phase`: non-pawn material, clamped to 0 ..= EVAL_MAX_PHASE. */
DEVICE_FN i32 phase(const Board *b) {
    i32 sum = 0;
    for (u32 pt = 0; pt < 6u; pt++) sum += EVAL_PHASE_WEIGHT[pt] * (i32)popc(b->pieces[pt]);
    return sum < 0 ? 0 : (sum > EVAL_MAX_PHASE ? EVAL_MAX_PHASE : sum);
}

/* ---- One lane's share ---------------------------------------------------------------------- */

/* The per-piece terms of the piece on `sq` (occupied), from white's view (a black piece counts
 * negative), and its share in the attack on the enemy king, added to *attack_on_white or
 * *attack_on_black (two scalars rather than an array indexed by colour, which a GPU compiler
 * would put in slow per-thread memory). */
HEAVY_FN EvalScore eval_piece(const Board *b, const GLOBAL u64 *t, const EvalContext *x, u32 sq,
                               i32 *attack_on_white, i32 *attack_on_black) {
    u64 from = bit(sq);
    u32 color = (b->colors[BLACK] & from) != 0 ? BLACK : WHITE;
    u32 pt = piece_type_on(b, from);
    u64 reach = eval_reach(t, pt, sq, x->occupied);

    EvalScore s = piece_squares(pt, color, sq);
    s = eval_add(s, mobility(x, pt, color, reach));
    if (pt == PAWN) s = eval_add(s, pawn_structure(x, color, sq));
    i32 attack = king_attack(pt, reach & eval_pick(x->king_zone, color ^ 1u));
    *attack_on_black += color == WHITE ? attack : 0;
    *attack_on_white += color == WHITE ? 0 : attack;
    if (pt == ROOK) s = eval_add(s, rook_files(x, color, sq));
    return color == WHITE ? s : eval_sub(eval_score(0, 0), s);
}

/* ---- The evaluation ------------------------------------------------------------------------ */

/* King and pawn against king, drawn by crates/eval's table (kpk.rs; its words at LINE_KPK of
 * line_attacks.h's table `t`): the position seen from the side with the pawn, files e to h
 * mirrored, and the bit of kogge_eval::kpk::index clear. The caller has counted the men: only three
 * come here. Out of line, and the count taken from evaluate()'s own, because the test inline in
 * every evaluation cost one worker 2.3% (bench x8, depth 12, H200); this form 0.6%
 * (PERFORMANCE.md, fifty-first session). */
NOINLINE_FN u32 kpk_draw(const Board *b, const GLOBAL u64 *t) {
    u64 pawns = b->pieces[PAWN];
    if (popc(pawns) != 1u) return 0u;
    u32 strong = (pawns & b->colors[BLACK]) ? BLACK : WHITE;
    u32 flip = strong == WHITE ? 0u : 56u;
    u32 p = lsb(pawns) ^ flip;
    u32 sk = lsb(b->pieces[KING] & b->colors[strong]) ^ flip;
    u32 wk = lsb(b->pieces[KING] & b->colors[strong ^ 1u]) ^ flip;
    if ((p & 7u) >= 4u) {
        p ^= 7u;
        sk ^= 7u;
        wk ^= 7u;
    }
    u32 i = (((b->side == strong ? 0u : 1u) * 64u + sk) * 64u + wk) * 24u + (p & 7u) * 6u + (p >> 3) - 1u;
    return ((t[LINE_KPK + (i >> 6)] >> (i & 63u)) & 1UL) == 0UL;
}

/* Steps 6 and 7 below, from the per-piece terms summed over every piece (`pieces`, white's view)
 * and the attack on each king: the per-side terms, white's minus black's, in the order of
 * crates/eval; the blend by the phase; the side to move's view; 0 for a drawn king and pawn
 * against king, as kogge_eval::evaluate (`men`: the pieces on the board, both kings included). */
DEVICE_FN i32 eval_finish(const Board *b, const GLOBAL u64 *lines, const EvalContext *x, EvalScore pieces, i32 on_white,
                          i32 on_black, u32 men) {
    EvalScore total = pieces;
    total = eval_add(total, eval_sub(material(b, WHITE), material(b, BLACK)));
    total = eval_add(total, eval_sub(king_safety(b, x, WHITE, on_white), king_safety(b, x, BLACK, on_black)));
    total = eval_add(total, eval_sub(bishop_pair(b, WHITE), bishop_pair(b, BLACK)));
    total = eval_add(total, eval_sub(tempo(b, WHITE), tempo(b, BLACK)));
    i32 white = eval_blend(total, phase(b));
    if (men == 3u && kpk_draw(b, lines)) return 0;
    return b->side == WHITE ? white : -white;
}

/* Called by all 32 lanes of the work-group together, each with the same board (private copy);
 * returns the same value on every lane: the evaluation in centipawns from the side to move's
 * view, equal to kogge_eval::evaluate. Uses BARRIER() internally (so every lane of the group
 * must call it) and `scratch` (EVAL_SCRATCH_INTS ints of LOCAL memory) for the reductions; it
 * begins and ends with a barrier so callers need not care about earlier or later uses of
 * scratch. `lines` is line_attacks.h's table. */
DEVICE_FN i32 evaluate(const Board *b, const GLOBAL u64 *lines, u32 lane, LOCAL_PTR i32 *scratch) {
    /* Step 1. Whoever used scratch before is done with it. */
    BARRIER();

    /* Step 2. The context, the same on every lane. */
    EvalContext x;
    eval_prepare(b, &x);

    /* Step 3. This lane's pieces: the lane-th in square order (and lane + 32, ...). */
    EvalScore sum = eval_score(0, 0);
    i32 attack_on_white = 0, attack_on_black = 0;
    u32 pieces = popc(x.occupied);
    for (u32 k = lane; k < pieces; k += WORKER_LANES) {
        u32 sq = eval_nth_square(x.occupied, k);
        sum = eval_add(sum, eval_piece(b, lines, &x, sq, &attack_on_white, &attack_on_black));
    }

    /* Step 4. Sum the four numbers over the lanes: in registers where the warp can
     * (WARP_COLLECTIVES); otherwise each lane adds four entries of one quantity, then every lane
     * adds the eight partials of each. */
#if WARP_COLLECTIVES
    i32 mg = WARP_SUM_I32(sum.mg), eg = WARP_SUM_I32(sum.eg);
    i32 on_white = WARP_SUM_I32(attack_on_white), on_black = WARP_SUM_I32(attack_on_black);
#else
    scratch[0 * WORKER_LANES + lane] = sum.mg;
    scratch[1 * WORKER_LANES + lane] = sum.eg;
    scratch[2 * WORKER_LANES + lane] = attack_on_white;
    scratch[3 * WORKER_LANES + lane] = attack_on_black;
    BARRIER();
    u32 first = EVAL_QUANTITIES * lane;
    scratch[EVAL_QUANTITIES * WORKER_LANES + lane] =
        scratch[first] + scratch[first + 1u] + scratch[first + 2u] + scratch[first + 3u];
    BARRIER();
    LOCAL_PTR const i32 *partial = scratch + EVAL_QUANTITIES * WORKER_LANES;
    i32 mg = 0, eg = 0, on_white = 0, on_black = 0;
    for (u32 p = 0; p < 8u; p++) {
        mg += partial[p];
        eg += partial[8u + p];
        on_white += partial[16u + p];
        on_black += partial[24u + p];
    }
#endif
    /* Step 5. Every lane has read the sums: scratch is free for the caller again. Steps 6 and 7:
     * eval_finish. */
    BARRIER();
    return eval_finish(b, lines, &x, eval_score(mg, eg), on_white, on_black, pieces);
}

/* The same evaluation by one lane alone, every piece in turn: for a search in which each lane
 * has a position of its own (the lanes then run the same instructions on different boards). No
 * barrier, no shared memory; equal to evaluate() and to kogge_eval::evaluate (eval_check.cl
 * checks both on every position). */
DEVICE_FN i32 evaluate_alone(const Board *b, const GLOBAL u64 *lines) {
    EvalContext x;
    eval_prepare(b, &x);
    EvalScore sum = eval_score(0, 0);
    i32 attack_on_white = 0, attack_on_black = 0;
    for (u64 rest = x.occupied; rest; rest &= rest - 1UL)
        sum = eval_add(sum, eval_piece(b, lines, &x, lsb(rest), &attack_on_white, &attack_on_black));
    return eval_finish(b, lines, &x, sum, attack_on_white, attack_on_black, popc(x.occupied));
}
