/* lane_qs.h: quiescence search by one lane alone. Each lane of a warp searches a position of its
 * own, so that 32 quiescence searches run side by side where the warp-cooperative search
 * (search.cl) enters one node at a time. A measurement, not part of the search: crates/search-gpu's
 * LaneQs runs it (bench/gpu-lane-qs.sh). On the H100 a warp of these lanes got through 2.5 to 3.2
 * times the nodes per second of a search worker, but a node one ply above the horizon would wait
 * for the largest of its children's searches, and the search mostly needs only a few of them:
 * docs/PERFORMANCE.md, twenty-second session.
 *
 * The rules are the warp search's quiescence (search.cl, search_moves.h) without the table and
 * the game history:
 *   - a node with too little material to mate is a draw;
 *   - in check, every evasion is searched and none means mate; otherwise the static evaluation
 *     stands pat, and captures and queen promotions are searched, those that cannot reach alpha
 *     even winning the piece (delta pruning) or that lose material by exchange (SEE) dropped;
 *   - fail-soft alpha-beta, moves best first: promotions (a queen's by its victim), captures by
 *     most valuable victim then least valuable attacker, then the other evasions; ties by the
 *     move's number, highest first (the warp's sort keys, without its table move and history);
 *   - at LANE_QS_PLIES plies the static evaluation (a draw in check).
 * kogge_search_gpu::lane_qs::reference is the same search on the CPU, node for node.
 *
 * Everything is private to the lane: no barrier, no shared memory. Needs, before it, the search's
 * parts up to search_moves.h (board, move generation, evaluate_alone, SEE, order_value,
 * piece_moves, MATE). */

#ifndef LANE_QS_PLIES
#define LANE_QS_PLIES 16u
#endif
/* The lane's move stack, in sort keys, shared by its plies. A node generates only when MAX_MOVES
 * more fit (so never more than LANE_QS_MOVES - MAX_MOVES are in use below it): 48 captures a ply
 * on average over 16 plies, far more than quiescence meets. A node that finds no room stands pat
 * (the static evaluation, a draw in check), as at the ply limit. */
#define LANE_QS_MOVES 1024u

typedef struct {
    i32 value;
    u32 nodes;
} LaneQsResult;

typedef struct {
    i32 alpha, beta, best, stand; /* stand: the static evaluation, -INF in check */
    u32 first, count, next;      /* its moves: keys[first .. first + count), tried up to next */
} LaneQsFrame;

/* The sort key of move m in quiescence: score high, move low, as gen_sorted's (noisy_score;
 * the other evasions 0). */
DEVICE_FN u32 lane_qs_key(const Board *b, Move m) {
    i32 score = 0;
    noisy_score(b, m, &score);
    return sort_key(score, m);
}

/* The node's moves as sort keys into `keys`: captures and queen promotions, or every evasion in
 * check. Returns how many. */
DEVICE_FN u32 lane_qs_generate(const Board *b, const GLOBAL u64 *lines, u32 in_check, u32 *keys) {
    Masks m;
    prepare_lines(b, lines, &m);
    int captures_only = !in_check;
    u32 per_promo = captures_only ? 1u : 4u;
    u32 n = 0;
    for (u64 ours = m.us; ours; ours &= ours - 1UL) {
        u32 from = lsb(ours);
        PieceMoves p = piece_moves(b, lines, &m, from, piece_type_on(b, bit(from)), captures_only);
        for (u64 t = p.to; t; t &= t - 1UL) keys[n++] = lane_qs_key(b, MOVE(from, lsb(t), MOVE_NORMAL, 0u));
        for (u64 t = p.promo_to; t; t &= t - 1UL)
            for (u32 k = 0; k < per_promo; k++) keys[n++] = lane_qs_key(b, MOVE(from, lsb(t), MOVE_PROMOTION, 3u - k));
        if (p.ep) keys[n++] = lane_qs_key(b, MOVE(from, b->ep, MOVE_EN_PASSANT, 0u));
    }
    return n;
}

/* The quiescence value of `root` (side to move's view) within (alpha, beta), fail-soft, and the
 * nodes it took (the root included). `ply` is the root's distance from the search's root, for mate
 * scores.
 *
 * Lanes of a warp in searches of their own diverge: on the H100, 5.3 of 32 lanes were active per
 * instruction (Nsight Compute, twenty-second session). A form in which every lane entered one node
 * per turn of an outer loop and took the cheaper steps in an inner one, so that the lanes would
 * evaluate and generate together, did worse (4.4 lanes, 16-20% fewer nodes per second): most of
 * the divergence is between searches of different sizes, not between the steps. */
DEVICE_FN LaneQsResult lane_qs(const Board *root, i32 alpha, i32 beta, u32 ply, const GLOBAL u64 *lines) {
    Board boards[LANE_QS_PLIES];
    LaneQsFrame frames[LANE_QS_PLIES];
    u32 keys[LANE_QS_MOVES];
    LaneQsResult r;
    r.nodes = 0;
    boards[0] = *root;
    u32 d = 0, top = 0;
    i32 ret = 0;
    frames[0].alpha = alpha;
    frames[0].beta = beta;
    /* 1: enter frames[d]; 2: its next move; 3: back from a child with value -ret. */
    u32 step = 1;
    for (;;) {
        LaneQsFrame *f = &frames[d];
        const Board *b = &boards[d];
        if (step == 1) {
            r.nodes++;
            if (insufficient_material(b)) {
                ret = 0;
                step = 3;
            } else {
                u32 in_check = (u32)king_in_check(b, lines);
                if (d + 1u >= LANE_QS_PLIES || top + MAX_MOVES > LANE_QS_MOVES) {
                    ret = in_check ? 0 : evaluate_alone(b, lines);
                    step = 3;
                } else {
                    f->stand = in_check ? -INF : evaluate_alone(b, lines);
                    f->best = in_check ? -MATE + (i32)(ply + d) : f->stand;
                    if (f->stand >= f->beta) {
                        ret = f->stand;
                        step = 3;
                    } else {
                        if (f->stand > f->alpha) f->alpha = f->stand;
                        f->first = top;
                        f->count = lane_qs_generate(b, lines, in_check, keys + top);
                        f->next = 0;
                        top += f->count;
                        step = 2;
                    }
                }
            }
        } else if (step == 2) {
            if (f->next == f->count) {
                ret = f->best;
                top = f->first;
                step = 3;
                continue;
            }
            /* The best key left comes to f->next (selection: most nodes try one or two). */
            u32 at = f->first + f->next, best_at = at;
            for (u32 i = at + 1u; i < f->first + f->count; i++)
                if (keys[i] > keys[best_at]) best_at = i;
            u32 key = keys[best_at];
            keys[best_at] = keys[at];
            keys[at] = key;
            f->next++;
            Move m = (Move)(key & 0xffffu);
            if (f->stand != -INF && quiescence_drops(b, lines, m, f->stand, f->alpha)) continue;
            boards[d + 1u] = *b;
            make_move(&boards[d + 1u], m);
            frames[d + 1u].alpha = -f->beta;
            frames[d + 1u].beta = -f->alpha;
            d++;
            step = 1;
        } else {
            /* A node is done with value `ret`: back to its parent. */
            if (d == 0) break;
            d--;
            f = &frames[d];
            i32 v = -ret;
            if (v > f->best) {
                f->best = v;
                if (v >= f->beta) {
                    ret = v;
                    top = f->first;
                    continue; /* step 3 again, one ply up */
                }
                if (v > f->alpha) f->alpha = v;
            }
            step = 2;
        }
    }
    r.value = ret;
    return r;
}
