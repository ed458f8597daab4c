/* child_share.h: the part of a child's move count that its parent can do once for all its
 * children, in perft's staged tail. Needs board.h, movegen.h, lookup.h and quad_board.h before
 * it.
 *
 * Why: the tail makes each child of a parent and counts its moves from scratch, yet most of a
 * child's count does not depend on the move that made it. The child side's king stands where it
 * stood, and a move changes the board on two squares (`from` and `to`): the king's lines, its
 * pins, the enemy's slider attacks on the king's squares and each of the child side's slider
 * attack sets change only if one of those sets contains one of the two squares. So the parent
 * works them out once, from the child side's point of view (share_children), and its move lister
 * tags each move with the class of its child, by what the move leaves alone (movegen.h's
 * MoveTags):
 *   CHILD_SHARES_ALL  : the king's data (pins, the enemy's slider attacks on the king's squares)
 *                       and the child side's knight and slider moves; no capture, no check.
 *                       The child's count needs no slider lookup but an en-passant test's.
 *   CHILD_SHARES_KING : the king's data only; the child's pieces are counted by lookup.
 *   CHILD_SHARES_NONE : everything from scratch (count_quad_moves): castling, en passant,
 *                       promotions, checks, moves on the king's lines, and moves that may change
 *                       the mover's slider attacks on the king's zone (share_children).
 * A decision skipped by some lanes of a warp costs the warp as much as by none, so the tail does
 * not branch per child: it stages each class apart, and a warp takes 32 children of one class
 * (perft.cl's staged2). Counted on the GPU, the classes hold 72 / 10 / 18% of the children in
 * the start position's perft 7 and 47 / 29 / 24% in Kiwipete's perft 6; sampled on the CPU
 * (random descents), 42 / 38 / 20% in Kiwipete's perft 7. (Position 3, which runs the plain
 * tail by default, had 32 / 6 / 62% at depth 7 under the earlier, wider zone.) */

/* What the children of one parent share (the child side's, with the parent's occupancy). */
typedef struct {
    u64 pin_hv, pin_diag; /* the child side's pins (Masks' fields) */
    u64 danger;           /* the king's zone squares (share_children) the mover's sliders attack */
    u64 mobility;         /* the child side's legal knight, rook, bishop and queen moves */
} ChildShare;

/* Works out what the children of parent `q` (with `us` to move) share (*sh), and the squares
 * by which its move lister tags each move with the class of its child (*g: movegen.h's
 * MoveTags). */
DEVICE_FN void share_children(const QuadBoard *q, u32 us, const Lookup *t, ChildShare *sh, MoveTags *g) {
    u32 side = us ^ 1u; /* the children's side to move */
    PieceSets s;
    Masks m;
    sets_of_quad(q, side, &s);
    prepare_sets(&s, t, &m);
    u32 ksq = lsb(m.king);
    u64 occ = m.occ;

    /* The king's lines up to the second piece (through the child side's first pieces): where
     * its checks and pins are decided. */
    u64 rk = rook_at(t, ksq, occ), bk = bishop_at(t, ksq, occ);
    u64 hot_king = rook_at(t, ksq, occ ^ (rk & m.us)) | bishop_at(t, ksq, occ ^ (bk & m.us));

    /* The king's zone: the squares it may step to and the king's paths of the castlings that
     * a child may make. A castling whose squares hold a piece of the child side's (not its king
     * or rook) stays barred in every child, for the mover's move leaves that square taken. */
    u64 rights = q->q0 & q->q1 & q->q2 & m.us;
    u64 zone = m.king_to;
    u32 base = side ? 56u : 0u;
    u32 own_rank = (u32)(m.us >> base) & 0xffu;
    u64 orth = s.orth & m.them, diag = s.diag & m.them;
    /* A castling lifts its rook (Chess960: the rook may shield the king's path). That opens
     * only the back rank, and only toward the king's path from the files beyond the rook: those
     * files are hot, and a mover's rook or queen there sends every child the full way. */
    int rook_shields = 0;
    for (u64 r = rights; r; r &= r - 1) {
        u32 kfile = ksq & 7u, rfile = lsb(r) & 7u;
        u32 paths = castle_paths_at(t, kfile, rfile);
        if ((paths >> 8) & own_rank) continue;
        zone |= (u64)(paths & 0xffu) << base;
        u64 beyond = (u64)(rfile < kfile ? (1u << rfile) - 1u : 0xffu & ~((2u << rfile) - 1u)) << base;
        hot_king |= beyond;
        rook_shields |= (beyond & orth) != 0;
    }
    u64 occ_k = occ ^ m.king;
    u64 danger = 0, zone_rook = 0, zone_bishop = 0;
    FOR_EACH_SQUARE(sq, zone, {
        u64 ra = rook_at(t, sq, occ_k);
        u64 ba = bishop_at(t, sq, occ_k);
        zone_rook |= ra;
        zone_bishop |= ba;
        danger |= ((ra & orth) | (ba & diag)) ? bit(sq) : 0;
    })
    /* A mover's slider's attack on a zone square runs along a line the zone square sees, over
     * squares the slider sees: only a piece that leaves or enters such a square (seen from
     * both) can block or open it, and only a slider on such a line (or one that comes onto it:
     * MoveTags' lines_rook and lines_bishop) attacks along it. Other squares the zone sees are
     * not hot. */
    u64 sees_orth = orth, sees_diag = diag;
    FOR_EACH_SQUARE(sq, orth, sees_orth |= rook_at(t, sq, occ_k);)
    FOR_EACH_SQUARE(sq, diag, sees_diag |= bishop_at(t, sq, occ_k);)
    hot_king |= (zone_rook & sees_orth) | (zone_bishop & sees_diag);
    /* A castling rook on its king's path that the mover's sliders attack may shield the rest of
     * the path (count_quad_moves lifts it; the shared path does not); and a child side in check
     * (only in a position that is not legal) has no shared data: all such children go the full
     * way. */
    if ((danger & rights) || rook_shields || m.checks) hot_king = ~0UL;

    u64 seen;
    sh->mobility = count_piece_moves_seen(&s, t, &m, &seen);
    sh->pin_hv = m.pin_hv;
    sh->pin_diag = m.pin_diag;
    sh->danger = danger;
    g->hot_king = hot_king;
    g->hot_pieces = hot_king | seen;
    g->captures = m.us;
    g->checks_n = knight_at(t, ksq);
    g->checks_p = pawn_at(t, side, ksq);
    g->lines_rook = zone_rook;
    g->lines_bishop = zone_bishop;
}

/* Sorts the moves a parent listed with its MoveTags (`c`): those of CHILD_SHARES_KING, among the
 * back ones, to the back part's start, before CHILD_SHARES_NONE's. Returns the three counts
 * packed 21 bits apart, CHILD_SHARES_NONE's lowest (so that a tail that shares nothing packs
 * its counts as they are), then CHILD_SHARES_ALL's, then CHILD_SHARES_KING's (at most 218 moves
 * a position, 128 positions a work-group: each sum over a group fits). */
DEVICE_FN u64 sort_children(Move *list, MoveCursor c) {
    /* Two-way partition in place: [first, i) the king's, [b, MOVE_LIST_SIZE) none. */
    u32 first = MOVE_LIST_SIZE - c.back, i = first, b = MOVE_LIST_SIZE;
    while (i < b) {
        Move mv = list[i];
        if (((mv >> 12) & 3u) != MOVE_NORMAL || (mv >> 14) == CHILD_SHARES_NONE) {
            list[i] = list[--b];
            list[b] = mv;
        } else {
            i++;
        }
    }
    return (u64)(MOVE_LIST_SIZE - b) | ((u64)c.front << 21) | ((u64)(b - first) << 42);
}

/* count_quad_moves() of a child of CHILD_SHARES_ALL (`all`) or CHILD_SHARES_KING, with `side`
 * (b->side) to move: not in check, its pins and the enemy's slider attacks on its king's zone
 * the parent's (sh), the enemy's leapers looked up here (the move may have been a leaper's), and
 * for CHILD_SHARES_ALL its pieces' moves the parent's too. (One function for all three classes,
 * branching on the class, executed 7-16% more instructions.) */
DEVICE_FN u32 count_quad_moves_shared(const QuadBoard *b, const Lookup *t, u32 side, LOCAL_PTR const ChildShare *sh,
                                      int all) {
    PieceSets s;
    Masks m;
    sets_of_quad(b, side, &s);
    m.us = s.us;
    m.them = s.them;
    m.occ = s.us | s.them;
    m.empty = ~m.occ;
    m.king = s.kings & s.us;
    m.checks = 0;
    m.checkmask = ~0UL;
    m.pin_hv = sh->pin_hv;
    m.pin_diag = sh->pin_diag;
    u32 ksq = lsb(m.king);
    u64 danger = sh->danger | pawn_attacks(side ^ 1u, s.pawns & s.them) | king_at(t, lsb(s.kings & s.them));
    FOR_EACH_SQUARE(sq, s.knights & s.them, danger |= knight_at(t, sq);)
    m.danger = danger;
    m.has_danger = 1;
    m.king_to = king_at(t, ksq) & ~m.us & ~danger;

    u32 n = popc(m.king_to) + count_pawn_moves(s.pawns & s.us, side, &m);
    n += all ? (u32)sh->mobility : count_piece_moves_lookup(&s, t, &m);
    if (b->ep != NO_SQUARE)
        for (u64 c = pawn_at(t, side ^ 1u, b->ep) & s.pawns & s.us; c; c &= c - 1)
            n += quad_ep_is_legal(b, &s, t, &m, lsb(c));

    /* Castlings: the right (the child's own: a capture may have taken a rook), the squares
     * between empty, the king's path safe (its squares are in the zone, and no rook of a
     * castling shields it: share_children). */
    u64 rights = b->q0 & b->q1 & b->q2 & s.us;
    u32 base = side ? 56u : 0u;
    u32 rank = (u32)(m.occ >> base) & 0xffu;
    for (u64 r = rights; r; r &= r - 1) {
        u32 paths = castle_paths_at(t, ksq & 7u, lsb(r) & 7u);
        u64 king_path = (u64)(paths & 0xffu) << base;
        n += ((paths >> 8) & rank) == 0 && (king_path & danger) == 0;
    }
    return n;
}
