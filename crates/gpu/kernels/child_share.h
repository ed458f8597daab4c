/* child_share.h: the part of a child's move count that its parent can do once for all its
 * children, in perft's staged tail. Needs board.h, movegen.h, lookup.h and quad_board.h before
 * it.
 *
 * Why: the tail makes each child of a parent and counts its moves from scratch, yet most of a
 * child's count does not depend on the move that made it. The child side's king stands where it
 * stood, and a move changes the board on two squares (`from` and `to`): the king's lines, its
 * pins, the enemy's slider attacks on the king's squares and each of the child side's slider
 * attack sets change only if one of those sets contains one of the two squares. So the parent
 * works them out once, from the child side's point of view (share_children), and sorts its moves
 * into three classes by what the move leaves alone:
 *   CHILD_SHARES_ALL  : the king's data (pins, the enemy's slider attacks on the king's squares)
 *                       and the child side's knight and slider moves; no capture, no check.
 *                       The child's count needs no slider lookup but an en-passant test's.
 *   CHILD_SHARES_KING : the king's data only; the child's pieces are counted by lookup.
 *   CHILD_SHARES_NONE : everything from scratch (count_quad_moves): castling, en passant, checks,
 *                       moves on the king's lines, and moves that may change the mover's slider
 *                       attacks on the king's zone (share_children).
 * A decision skipped by some lanes of a warp costs the warp as much as by none, so the tail does
 * not branch per child: it stages each class apart, and a warp takes 32 children of one class
 * (perft.cl's staged2). Sampled on the CPU (random descents), the classes hold about 71 / 4 /
 * 25% of the start position's children at depth 5, 47 / 27 / 25% of Kiwipete's at depth 4 and
 * 32 / 6 / 62% of position 3's at depth 7. */

#define CHILD_SHARES_ALL 0u
#define CHILD_SHARES_KING 1u
#define CHILD_SHARES_NONE 2u

/* What the children of one parent share (the child side's, with the parent's occupancy). */
typedef struct {
    u64 pin_hv, pin_diag; /* the child side's pins (Masks' fields) */
    u64 danger;           /* the king's zone squares (share_children) the mover's sliders attack */
    u64 mobility;         /* the child side's legal knight, rook, bishop and queen moves */
} ChildShare;

/* The class of a move by the parent's mover (share_children's masks): `hot_king` holds the
 * squares a change on which alters the child king's data, `hot_pieces` those that alter the
 * child side's slider moves too; `checks_n` and `checks_p` the squares from which a knight or
 * one of the mover's pawns would give check; `zone_rook` and `zone_bishop` the squares on the
 * king's zone's lines, from which one of the mover's sliders (`orth`, `diag`, or a promotion's
 * new piece) would attack a zone square. */
DEVICE_FN u32 child_class(Move mv, u64 hot_king, u64 hot_pieces, u64 child_us, u64 knights, u64 pawns,
                          u64 orth, u64 diag, u64 checks_n, u64 checks_p, u64 zone_rook, u64 zone_bishop) {
    u32 kind = (mv >> 12) & 3u;
    u64 fb = bit(mv & 63u), tb = bit((mv >> 6) & 63u);
    int promotion = kind == MOVE_PROMOTION;
    /* What the moved piece alters from its new square: a knight's (or a knight promotion's)
     * check, or a pawn's (the leapers' checks the shared path does not look for; a slider's
     * check needs a square of the king's lines); and a slider's attacks on the zone. */
    u64 to_hot = ((fb & knights) || (promotion && ((mv >> 14) & 3u) == 0)) ? checks_n
                 : ((fb & pawns) && !promotion)                   ? checks_p
                                                                  : 0;
    if (fb & orth) to_hot |= zone_rook;
    if (fb & diag) to_hot |= zone_bishop;
    /* A promotion's new piece may attack along a line through the square its pawn left: for
     * promotions (rare) the pawn's square counts too, whatever the new piece. */
    u64 lands = tb;
    if (promotion) {
        to_hot |= zone_rook | zone_bishop;
        lands |= fb;
    }
    if (kind == MOVE_CASTLING || kind == MOVE_EN_PASSANT || ((fb | tb) & hot_king) || (lands & to_hot))
        return CHILD_SHARES_NONE;
    return (((fb | tb) & hot_pieces) || (tb & child_us)) ? CHILD_SHARES_KING : CHILD_SHARES_ALL;
}

/* Works out what the children of parent `q` (with `us` to move) share (*sh), and sorts its
 * `count` moves in `list` by class: those of CHILD_SHARES_ALL first, then CHILD_SHARES_KING,
 * then CHILD_SHARES_NONE. Returns the three counts packed 21 bits apart, CHILD_SHARES_NONE's
 * lowest (so that a tail that shares nothing packs its counts as they are), then
 * CHILD_SHARES_ALL's, then CHILD_SHARES_KING's (at most 218 moves a position, 128 positions a
 * work-group: each sum over a group fits). */
DEVICE_FN u64 share_children(const QuadBoard *q, u32 us, const Lookup *t, Move *list, u32 count,
                             ChildShare *sh) {
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
     * child_class's `to_hot`) attacks along it. Other squares the zone sees are not hot. */
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
    u64 hot_pieces = hot_king | seen;
    u64 checks_n = knight_at(t, ksq), checks_p = pawn_at(t, side, ksq);
    u64 knights = s.knights & m.them, pawns = s.pawns & m.them;

    /* Three-way partition in place: [0, a) shares all, [a, b) the king's, [b, count) none. */
    u32 a = 0, i = 0, b = count;
    while (i < b) {
        Move mv = list[i];
        u32 c = child_class(mv, hot_king, hot_pieces, m.us, knights, pawns, orth, diag, checks_n, checks_p,
                            zone_rook, zone_bishop);
        if (c == CHILD_SHARES_ALL) {
            list[i++] = list[a];
            list[a++] = mv;
        } else if (c == CHILD_SHARES_NONE) {
            list[i] = list[--b];
            list[b] = mv;
        } else {
            i++;
        }
    }
    return (u64)(count - b) | ((u64)a << 21) | ((u64)(b - a) << 42);
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
