/* movegen.h: legal move generation in a kernel, the same rules as crates/chess/src/movegen.rs,
 * table-free. One pass over the eight directions from the king finds the checkers, the check
 * mask (squares that capture or block a single check) and the pin rays; enemy attacks with the
 * king lifted give the king's safe squares. Two consumers share that preparation:
 * count_moves() bulk-counts set-wise (the leaf ply of perft) and gen_moves() lists moves. */

typedef struct {
    u64 us, them, occ, empty;
    u64 king;      /* our king, one bit */
    u64 checkmask; /* all squares when not in check */
    u64 pin_hv;    /* rays (king to pinner, inclusive) of orthogonal pins */
    u64 pin_diag;  /* the same for diagonal pins */
    u64 king_to;   /* safe king destinations */
    u64 danger;    /* squares the enemy attacks with our king lifted, if has_danger */
    u32 has_danger;
    u32 checks;    /* number of checkers, 0 to 2 */
} Masks;

/* The sides' sets and our king: the start of prepare() (lookup.h's prepare_sets makes the same
 * from its PieceSets). */
DEVICE_FN void masks_sides(const Board *b, Masks *m) {
    m->us = color_set(b, b->side);
    m->them = color_set(b, b->side ^ 1u);
    m->occ = m->us | m->them;
    m->empty = ~m->occ;
    m->king = b->pieces[KING] & m->us;
}

/* The end of prepare() and prepare_lines(): the king's safe squares among `around`, the squares
 * next to it. The enemy's attack map (eight fills) matters only if the king has a square to go
 * to; a king boxed in by its own pieces, common before the endgame, skips it. */
DEVICE_FN void masks_king_to(const Board *b, Masks *m, u64 around) {
    u64 candidates = around & ~m->us;
    m->has_danger = candidates != 0;
    m->danger = m->has_danger ? attacked_squares(b, b->side ^ 1u, m->occ ^ m->king) : 0;
    m->king_to = candidates & ~m->danger;
}

HEAVY_FN void prepare(const Board *b, Masks *m) {
    u32 side = b->side;
    masks_sides(b, m);
    u64 orth = (b->pieces[ROOK] | b->pieces[QUEEN]) & m->them;
    u64 diag = (b->pieces[BISHOP] | b->pieces[QUEEN]) & m->them;

    u64 checkers = (knight_attacks(m->king) & b->pieces[KNIGHT] & m->them) |
                   (pawn_attacks(side, m->king) & b->pieces[PAWN] & m->them);
    u64 checkmask = checkers;
    m->pin_hv = 0;
    m->pin_diag = 0;
    u32 ksq = lsb(m->king);
    for (u32 d = 0; d < 8; d++) {
        u64 sliders = d < 4 ? orth : diag;
        /* No enemy slider of this kind anywhere along the line: no check, no pin from here. */
        if (!(ray_empty(d, ksq) & sliders)) continue;
        u64 ray = fill_dir(d, m->king, m->empty);
        u64 blocker = ray & m->occ;
        if (blocker & sliders) {
            checkers |= blocker;
            checkmask |= ray;
        } else if (blocker & m->us) {
            u64 beyond = fill_dir(d, blocker, m->empty);
            if (beyond & sliders) {
                if (d < 4) m->pin_hv |= ray | beyond;
                else m->pin_diag |= ray | beyond;
            }
        }
    }
    m->checks = popc(checkers);
    m->checkmask = m->checks ? checkmask : ~0UL;
    masks_king_to(b, m, king_attacks(m->king));
}

/* Whether the squares the king and the rook of castling `slot` cross are free (the two
 * themselves apart); no right, no path. */
DEVICE_FN int castle_path_clear(const Board *b, const Masks *m, u32 slot) {
    u32 file = castle_file(b, slot);
    if (file == NO_FILE) return 0;
    u32 base = b->side ? 56u : 0u;
    u32 ksq = lsb(m->king), rsq = base + file;
    u32 king_side = (slot & 1u) == 0;
    u32 kdst = base + (king_side ? 6u : 2u), rdst = base + (king_side ? 5u : 3u);
    u64 path = between_on_rank(ksq, kdst) | bit(kdst) | between_on_rank(rsq, rdst) | bit(rdst);
    return (path & m->occ & ~m->king & ~bit(rsq)) == 0;
}

/* Whether the side to move may castle with the rook in `slot` (Chess960 rules; standard chess
 * is the special case). Not called in check. */
HEAVY_FN int can_castle(const Board *b, const Masks *m, u32 slot) {
    if (!castle_path_clear(b, m, slot)) return 0;
    u32 base = b->side ? 56u : 0u;
    u32 ksq = lsb(m->king), rsq = base + castle_file(b, slot);
    u32 kdst = base + ((slot & 1u) == 0 ? 6u : 2u);
    u64 king_path = between_on_rank(ksq, kdst) | bit(kdst);
    /* The rook is lifted: it may be what shields the king's path today. Lifting it changes the
     * enemy's attacks only if the enemy attacks its square, so the attack map prepare() made
     * (the king lifted too, which changes nothing when not in check) serves otherwise. */
    u64 danger = m->has_danger && !(m->danger & bit(rsq))
                     ? m->danger
                     : attacked_squares(b, b->side ^ 1u, m->occ ^ bit(rsq));
    return (king_path & danger) == 0;
}

/* Whether en passant from `from` leaves the king safe: both pawns leave their squares, so a
 * slider may now see the king (the rank pin), and a check must be answered. */
DEVICE_FN int ep_is_legal(const Board *b, const Masks *m, u32 from) {
    u32 cap = b->ep ^ 8u;
    if (!(m->checkmask & (bit(b->ep) | bit(cap)))) return 0;
    u64 occ = (m->occ ^ bit(from) ^ bit(cap)) | bit(b->ep);
    u64 empty = ~occ;
    u64 orth = (b->pieces[ROOK] | b->pieces[QUEEN]) & m->them;
    u64 diag = (b->pieces[BISHOP] | b->pieces[QUEEN]) & m->them;
    return ((rook_attacks(m->king, empty) & orth) | (bishop_attacks(m->king, empty) & diag)) == 0;
}

/* The legal pushes and captures (promotions four times) of our pawns `pawns`, en passant
 * apart, counted set-wise; shared by every move count. Not called in double check. */
DEVICE_FN u32 count_pawn_moves(u64 pawns, u32 side, const Masks *m) {
    u64 push_pawns = pawns & ~m->pin_diag;
    u64 take_pawns = pawns & ~m->pin_hv;
    u64 last = side ? RANK_1 : RANK_8;
    u64 single, dbl, west, east;
    /* A pinned pawn keeps to its pin ray: test the destination, mapped back per pawn. Pinned
     * pawns are rare, so the four masks are only made when there are some. */
    u64 pushes_pinned = push_pawns & m->pin_hv, takes_pinned = take_pawns & m->pin_diag;
    if (side == 0) {
        single = (push_pawns << 8) & m->empty;
        dbl = ((single & RANK_3) << 8) & m->empty;
        west = ((take_pawns & NOT_A) << 7) & m->them;
        east = ((take_pawns & NOT_H) << 9) & m->them;
        if (pushes_pinned | takes_pinned) {
            single &= ~(pushes_pinned << 8) | m->pin_hv;
            dbl &= ~(pushes_pinned << 16) | m->pin_hv;
            west &= ~((takes_pinned & NOT_A) << 7) | m->pin_diag;
            east &= ~((takes_pinned & NOT_H) << 9) | m->pin_diag;
        }
    } else {
        single = (push_pawns >> 8) & m->empty;
        dbl = ((single & RANK_6) >> 8) & m->empty;
        west = ((take_pawns & NOT_A) >> 9) & m->them;
        east = ((take_pawns & NOT_H) >> 7) & m->them;
        if (pushes_pinned | takes_pinned) {
            single &= ~(pushes_pinned >> 8) | m->pin_hv;
            dbl &= ~(pushes_pinned >> 16) | m->pin_hv;
            west &= ~((takes_pinned & NOT_A) >> 9) | m->pin_diag;
            east &= ~((takes_pinned & NOT_H) >> 7) | m->pin_diag;
        }
    }
    single &= m->checkmask;
    dbl &= m->checkmask;
    west &= m->checkmask;
    east &= m->checkmask;
    /* Every move once, promotions three times more. Double pushes end on one rank and
     * promotions on one, so those are counted in a 32-bit word each (the three promotion sets
     * as three bytes of one): 8 population counts instead of 14, which the perft tail, bound
     * by the multi-cycle unit's results, measures. */
    u32 shift = side ? 0u : 56u;
    u32 promotions = (u32)((single & last) >> shift) | ((u32)((west & last) >> shift) << 8) |
                     ((u32)((east & last) >> shift) << 16);
    u32 doubles = side ? (u32)(dbl >> 32) : (u32)dbl;
    return popc(single) + popc(west) + popc(east) + POPCOUNT32(doubles) + 3u * POPCOUNT32(promotions);
}

/* The legal pawn moves (promotions four times), en-passant captures and castlings, counted
 * set-wise: the part of a move count both slider methods share. Not called in double check. */
DEVICE_FN u32 count_pawns_and_specials(const Board *b, const Masks *m) {
    u64 pawns = b->pieces[PAWN] & m->us;
    u32 n = count_pawn_moves(pawns, b->side, m);

    if (b->ep != NO_SQUARE)
        for (u64 c = pawn_attacks(b->side ^ 1u, bit(b->ep)) & pawns; c; c &= c - 1)
            n += ep_is_legal(b, m, lsb(c));

    if (m->checks == 0) {
        u32 slot = 2 * b->side;
        n += can_castle(b, m, slot) + can_castle(b, m, slot + 1);
    }
    return n;
}

/* The number of legal moves, counted set-wise without building one. Sliders are filled one
 * direction at a time for the whole set: along one direction two of our pieces never reach the
 * same square (the nearer blocks the farther), so popcounts add up exactly. */
DEVICE_FN u32 count_moves(const Board *b) {
    Masks m;
    prepare(b, &m);
    u32 n = popc(m.king_to);
    if (m.checks > 1) return n;
    u64 target = ~m.us & m.checkmask;
    u64 pinned = m.pin_hv | m.pin_diag;

    for (u64 k = b->pieces[KNIGHT] & m.us & ~pinned; k; k &= k - 1)
        n += popc(knight_attacks(bit(lsb(k))) & target);

    u64 orth = (b->pieces[ROOK] | b->pieces[QUEEN]) & m.us & ~m.pin_diag;
    u64 diag = (b->pieces[BISHOP] | b->pieces[QUEEN]) & m.us & ~m.pin_hv;
    u64 orth_free = orth & ~m.pin_hv, orth_pinned = orth & m.pin_hv;
    u64 diag_free = diag & ~m.pin_diag, diag_pinned = diag & m.pin_diag;
    for (u32 d = 0; d < 4; d++) {
        n += popc(fill_dir(d, orth_free, m.empty) & target);
        n += popc(fill_dir(d + 4, diag_free, m.empty) & target);
    }
    /* Pinned sliders are rare: skip their eight fills unless there are some. */
    if (orth_pinned | diag_pinned)
        for (u32 d = 0; d < 4; d++) {
            n += popc(fill_dir(d, orth_pinned, m.empty) & target & m.pin_hv);
            n += popc(fill_dir(d + 4, diag_pinned, m.empty) & target & m.pin_diag);
        }

    return n + count_pawns_and_specials(b, &m);
}

/* How many moves a list holds: a position has at most 218. */
#define MOVE_LIST_SIZE 256u

/* The class of the child a move makes, for perft's staged tail (child_share.h): what the child
 * can take over from its parent. A lister given MoveTags lists the moves of CHILD_SHARES_ALL
 * from the front of the list and the others from its back, and tags the latter for the tail to
 * sort. A move of kind MOVE_NORMAL carries its tag in bits 14-15 (a promotion's piece bits,
 * which nothing reads for other kinds); a castling, an en passant or a promotion is always
 * CHILD_SHARES_NONE. */
#define CHILD_SHARES_ALL 0u
#define CHILD_SHARES_KING 1u
#define CHILD_SHARES_NONE 2u

/* The squares that decide the class (share_children works them out). */
typedef struct {
    u64 hot_king;     /* a move from or to one of these: NONE */
    u64 hot_pieces;   /* else a move from or to one of these, or a capture: KING; else ALL */
    u64 captures;     /* the children's side's pieces */
    u64 checks_n;     /* also NONE: a knight's move to one of these, */
    u64 checks_p;     /* a pawn's, */
    u64 lines_rook;   /* a rook's or a queen's, */
    u64 lines_bishop; /* a bishop's or a queen's */
} MoveTags;

/* Where a lister has written: `front` moves from list[0] up and `back` moves from
 * list[MOVE_LIST_SIZE - 1] down (only with MoveTags). */
typedef struct {
    u32 front, back;
} MoveCursor;

/* The kind of piece a move list's caller moves (what its destination may alter: MoveTags). */
#define MOVER_KING 0u
#define MOVER_KNIGHT 1u
#define MOVER_PAWN 2u
#define MOVER_ROOK 3u
#define MOVER_BISHOP 4u
#define MOVER_QUEEN 5u

/* Lists a move at the front or (`back`) at the back. */
DEVICE_FN void put_move(Move *list, MoveCursor *c, Move mv, int back) {
    if (back) list[MOVE_LIST_SIZE - ++c->back] = mv;
    else list[c->front++] = mv;
}

/* The moves of a `mover` from `from` to the squares of `to`, tagged by `g` (none if null). The
 * classes are worked out once per piece, as sets; each move then takes its tag by two tests of
 * its own bit. (A test of each move against the masks cost the tail 8% of its instructions;
 * one loop per class made lanes wait on each other's loops: 2-5% slower than this.) */
DEVICE_FN void push_moves(Move *list, MoveCursor *c, u32 from, u64 to, const MoveTags *g, u32 mover) {
    if (!g) {
        for (; to; to &= to - 1) put_move(list, c, MOVE(from, lsb(to), MOVE_NORMAL, 0u), 0);
        return;
    }
    u64 fb = bit(from);
    u64 lands = mover == MOVER_KNIGHT ? g->checks_n : mover == MOVER_PAWN ? g->checks_p : 0;
    if (mover == MOVER_ROOK || mover == MOVER_QUEEN) lands |= g->lines_rook;
    if (mover == MOVER_BISHOP || mover == MOVER_QUEEN) lands |= g->lines_bishop;
    u64 none = (fb & g->hot_king) ? to : to & (g->hot_king | lands);
    u64 rest = to & ~none;
    u64 king = (fb & g->hot_pieces) ? rest : rest & (g->hot_pieces | g->captures);
    for (; to; to &= to - 1) {
        u64 tb = to & (0 - to);
        u32 tag = (tb & none) ? CHILD_SHARES_NONE : (tb & king) ? CHILD_SHARES_KING : CHILD_SHARES_ALL;
        put_move(list, c, MOVE(from, lsb(to), MOVE_NORMAL, tag), tag != CHILD_SHARES_ALL);
    }
}

/* The legal destinations of our pawn on `fb` (promotions included, en passant not): pushes
 * along an orthogonal pin ray, captures along a diagonal one, answering a single check. */
DEVICE_FN u64 pawn_targets(const Board *b, const Masks *m, u64 fb) {
    u64 t = 0;
    if (!(fb & m->pin_diag)) {
        u64 single = (b->side ? fb >> 8 : fb << 8) & m->empty;
        u64 dbl = (b->side ? (single & RANK_6) >> 8 : (single & RANK_3) << 8) & m->empty;
        t |= single | dbl;
        if (fb & m->pin_hv) t &= m->pin_hv;
    }
    if (!(fb & m->pin_hv)) {
        u64 takes = pawn_attacks(b->side, fb) & m->them;
        if (fb & m->pin_diag) takes &= m->pin_diag;
        t |= takes;
    }
    return t & m->checkmask;
}

/* The legal pawn moves (promotions four times), en-passant captures and castlings, added to
 * `list` at *c, tagged by `g` unless it is null (MoveTags). Not called in double check. */
DEVICE_FN void push_pawns_and_specials(const Board *b, const Masks *m, Move *list, MoveCursor *c,
                                       const MoveTags *g) {
    u64 pawns = b->pieces[PAWN] & m->us;
    u64 last = b->side ? RANK_1 : RANK_8;
    int back = g != 0; /* where the moves that are always CHILD_SHARES_NONE go */
    for (u64 p = pawns; p; p &= p - 1) {
        u32 f = lsb(p);
        u64 t = pawn_targets(b, m, bit(f));
        if (t & last) { /* a pawn's moves all promote or none does */
            for (; t; t &= t - 1)
                for (u32 q = 0; q < 4; q++) put_move(list, c, MOVE(f, lsb(t), MOVE_PROMOTION, 3u - q), back);
        } else {
            push_moves(list, c, f, t, g, MOVER_PAWN);
        }
    }
    if (b->ep != NO_SQUARE)
        for (u64 e = pawn_attacks(b->side ^ 1u, bit(b->ep)) & pawns; e; e &= e - 1)
            if (ep_is_legal(b, m, lsb(e))) put_move(list, c, MOVE(lsb(e), b->ep, MOVE_EN_PASSANT, 0u), back);

    if (m->checks == 0) {
        u32 base = b->side ? 56u : 0u;
        u32 ksq = lsb(m->king);
        for (u32 slot = 2 * b->side; slot < 2 * b->side + 2; slot++)
            if (can_castle(b, m, slot))
                put_move(list, c, MOVE(ksq, base + castle_file(b, slot), MOVE_CASTLING, 0u), back);
    }
}

/* Every legal move into `list` (room for MOVE_LIST_SIZE); returns how many. */
DEVICE_FN u32 gen_moves(const Board *b, Move *list) {
    Masks m;
    prepare(b, &m);
    MoveCursor c = {0, 0};
    push_moves(list, &c, lsb(m.king), m.king_to, 0, MOVER_KING);
    if (m.checks > 1) return c.front;
    u64 target = ~m.us & m.checkmask;
    u64 pinned = m.pin_hv | m.pin_diag;

    for (u64 k = b->pieces[KNIGHT] & m.us & ~pinned; k; k &= k - 1) {
        u32 f = lsb(k);
        push_moves(list, &c, f, knight_attacks(bit(f)) & target, 0, MOVER_KNIGHT);
    }
    u64 orth = (b->pieces[ROOK] | b->pieces[QUEEN]) & m.us & ~m.pin_diag;
    u64 diag = (b->pieces[BISHOP] | b->pieces[QUEEN]) & m.us & ~m.pin_hv;
    for (; orth; orth &= orth - 1) {
        u32 f = lsb(orth);
        u64 t = rook_attacks(bit(f), m.empty) & target;
        if (bit(f) & m.pin_hv) t &= m.pin_hv;
        push_moves(list, &c, f, t, 0, MOVER_ROOK);
    }
    for (; diag; diag &= diag - 1) {
        u32 f = lsb(diag);
        u64 t = bishop_attacks(bit(f), m.empty) & target;
        if (bit(f) & m.pin_diag) t &= m.pin_diag;
        push_moves(list, &c, f, t, 0, MOVER_BISHOP);
    }
    push_pawns_and_specials(b, &m, list, &c, 0);
    return c.front;
}
