/* quad_board.h: the position as perft's last ply works on it, a quad-bitboard (Zeta's form),
 * with its move-making and its move count by lookup. Needs board.h, movegen.h, lookup.h and
 * perft_board.h before it.
 *
 * Why a second position form: the staged tail makes a child and counts its moves billions of
 * times a second, and on a Board making a move is mostly bookkeeping: finding the moving piece's
 * type and toggling one of six sets by a run-time index (a select per set, three times), and
 * clearing castling rights file by file. Nsight Compute put that at 16-19% of the tail's
 * instructions. On three code planes a move is the same few logic operations whatever the piece:
 * clear the two squares on every plane, write the mover's code at the destination. The castling
 * rights are rooks of their own code, 7, as in the 32-byte PerftBoard, so they follow the rooks
 * (a rook that moves or is taken loses its right with it) and a king move clears its side's. */

typedef struct {
    u64 q0, q1, q2; /* bit 0, 1, 2 of each square's piece code: 1 P, 2 N, 3 B, 4 R, 5 Q, 6 K,
                       7 a rook with its castling right; 0 empty */
    u64 black;      /* the black pieces (occupied squares only) */
    u32 side;       /* 0 white, 1 black */
    u32 ep;         /* en-passant square (only when a pawn can take there), or NO_SQUARE */
} QuadBoard;

#define CODE_ROOK 4u
#define CODE_CASTLE_ROOK 7u

/* The 32-byte form's position as a QuadBoard (perft_board.h says where side and en passant
 * hide). */
DEVICE_FN void quad_of_perft(PerftBoard p, QuadBoard *b) {
    b->q0 = p.quad[0];
    b->q1 = p.quad[1];
    b->q2 = p.quad[2];
    u64 occ = p.quad[0] | p.quad[1] | p.quad[2];
    b->black = p.quad[3] & occ;
    u64 marks = p.quad[3] & ~occ;
    b->side = (marks & ~EP_RANKS) != 0;
    u64 ep = marks & EP_RANKS;
    b->ep = ep ? lsb(ep) : NO_SQUARE;
}

/* The 32-byte form of a QuadBoard: the black pieces plus the en-passant and side marks on empty
 * squares, as perft_board.h describes. */
DEVICE_FN PerftBoard perft_of_quad(const QuadBoard *b) {
    PerftBoard p;
    p.quad[0] = b->q0;
    p.quad[1] = b->q1;
    p.quad[2] = b->q2;
    u64 marks = b->ep != NO_SQUARE ? bit(b->ep) : 0;
    if (b->side) {
        u64 spare = ~(b->q0 | b->q1 | b->q2) & ~EP_RANKS;
        marks |= spare & (0 - spare);
    }
    p.quad[3] = b->black | marks;
    return p;
}

/* The piece sets of a QuadBoard, from its codes, with `side` (b->side) to move. The callers in
 * the staged tail pass a constant: every position of a ply has the same side to move, so the
 * tail is compiled once per side (perft.cl), and the selects and branches on the side fold
 * away. */
DEVICE_FN void sets_of_quad(const QuadBoard *b, u32 side, PieceSets *s) {
    u64 q0 = b->q0, q1 = b->q1, q2 = b->q2;
    u64 occ = q0 | q1 | q2;
    s->pawns = q0 & ~q1 & ~q2;
    s->knights = ~q0 & q1 & ~q2;
    s->diag = q0 & (q1 ^ q2);     /* 3 bishop, 5 queen */
    s->orth = q2 & (q0 | ~q1);    /* 4 rook, 5 queen, 7 rook with castling right */
    s->kings = ~q0 & q1 & q2;
    s->us = side ? b->black : occ & ~b->black;
    s->them = occ & ~s->us;
    s->side = side;
}

/* Writes piece code `code` on the (empty) squares `at`. */
DEVICE_FN void put_code(QuadBoard *b, u32 code, u64 at) {
    b->q0 |= (code & 1u) ? at : 0;
    b->q1 |= (code & 2u) ? at : 0;
    b->q2 |= (code & 4u) ? at : 0;
}

DEVICE_FN void clear_squares(QuadBoard *b, u64 at) {
    b->q0 &= ~at;
    b->q1 &= ~at;
    b->q2 &= ~at;
    b->black &= ~at;
}

/* Our rooks with castling rights become plain rooks (code 7 to 4: clear bits 0 and 1). */
DEVICE_FN void drop_castling(QuadBoard *b, u64 us) {
    u64 rights = b->q0 & b->q1 & b->q2 & us;
    b->q0 &= ~rights;
    b->q1 &= ~rights;
}

/* make_move() on a QuadBoard whose side to move is `us` (b->side; a constant in the staged
 * tail, as for sets_of_quad): the same position as make_move() on the equivalent Board. */
DEVICE_FN void make_quad_move(QuadBoard *b, Move m, u32 us, const Lookup *t) {
    u32 from = m & 63u, to = (m >> 6) & 63u, kind = (m >> 12) & 3u;
    u64 fb = bit(from), tb = bit(to);
    u64 occ = b->q0 | b->q1 | b->q2;
    u64 own = us ? b->black : occ & ~b->black;
    u64 black_bit = us ? ~0UL : 0UL;
    b->ep = NO_SQUARE;
    if (kind == MOVE_CASTLING) {
        /* From the king on `from` and the rook on `to` to their squares (in Chess960 either may
         * end where it started). */
        u32 base = us ? 56u : 0u;
        u32 king_side = to > from;
        u64 kdst = bit(base + (king_side ? 6u : 2u)), rdst = bit(base + (king_side ? 5u : 3u));
        clear_squares(b, fb | tb);
        drop_castling(b, own);
        put_code(b, KING + 1u, kdst);
        put_code(b, CODE_ROOK, rdst);
        b->black |= (kdst | rdst) & black_bit;
    } else {
        u32 code = (u32)((b->q0 >> from) & 1u) | ((u32)((b->q1 >> from) & 1u) << 1) |
                   ((u32)((b->q2 >> from) & 1u) << 2);
        /* The mover's code where it lands: a promotion's piece (N, B, R, Q = codes 2..5), a rook
         * without its castling right, or what it was. */
        u32 lands = kind == MOVE_PROMOTION ? 2u + ((m >> 14) & 3u) : (code == CODE_CASTLE_ROOK ? CODE_ROOK : code);
        /* En passant takes the pawn behind the destination; any other capture is on it. */
        u64 taken = kind == MOVE_EN_PASSANT ? bit(to ^ 8u) : 0;
        clear_squares(b, fb | tb | taken);
        if (code == KING + 1u) drop_castling(b, own);
        put_code(b, lands, tb);
        b->black |= tb & black_bit;
        if (code == PAWN + 1u && (from ^ to) == 16u) {
            u32 ep = (from + to) >> 1;
            u64 their_pawns = b->q0 & ~b->q1 & ~b->q2 & (us ? ~b->black : b->black);
            if (pawn_at(t, us, ep) & their_pawns) b->ep = ep;
        }
    }
    b->side = us ^ 1u;
}

/* Whether our pawn on `from` may take en passant: the check it answers (if any) and the king's
 * safety once both pawns have left their squares, by two lookups from the king. */
DEVICE_FN int quad_ep_is_legal(const QuadBoard *b, const PieceSets *s, const Lookup *t, const Masks *m,
                               u32 from) {
    u32 cap = b->ep ^ 8u;
    if (!(m->checkmask & (bit(b->ep) | bit(cap)))) return 0;
    u64 occ = (m->occ ^ bit(from) ^ bit(cap)) | bit(b->ep);
    u32 ksq = lsb(m->king);
    return ((rook_at(t, ksq, occ) & s->orth & m->them) | (bishop_at(t, ksq, occ) & s->diag & m->them)) == 0;
}

/* Whether the king's path of a castling with the rook on `rook` is safe. The rook is lifted: it
 * may be what shields the path. That changes the enemy's attacks only if the enemy attacks the
 * rook's square; otherwise the map finish_king_moves made serves. */
DEVICE_FN u32 castle_is_safe(const PieceSets *s, const Lookup *t, const Masks *m, u64 king_path, u64 rook) {
    u64 danger = (m->danger & rook) ? enemy_attacks_lookup(s, t, m->occ ^ rook) : m->danger;
    return (king_path & danger) == 0;
}

/* Whether neither `b` nor any of its children has a knight, a bishop or a queen: none on the
 * board, and no pawn of `us` (b->side) one step from promoting. */
DEVICE_FN int quad_rooks_only(const QuadBoard *b, u32 us) {
    u64 knights = ~b->q0 & b->q1 & ~b->q2, diag = b->q0 & (b->q1 ^ b->q2);
    u64 pawns = b->q0 & ~b->q1 & ~b->q2 & (us ? b->black : ~b->black);
    return ((knights | diag) == 0) & ((pawns & (us ? RANK_2 : RANK_7)) == 0);
}

/* count_moves_lookup() on a QuadBoard with `side` (b->side) to move, with en passant and
 * castling by lookup too. With `rooks_only` (a constant at the call: the caller knows the
 * position has no knight, bishop or queen, quad_rooks_only) the piece sets say so, and every
 * lookup and loop for those pieces folds away: a second copy of the count for the rook and
 * pawn endings that position 3's perft is made of. */
DEVICE_FN u32 count_quad_moves(const QuadBoard *b, const Lookup *t, u32 side, int rooks_only) {
    PieceSets s;
    Masks m;
    sets_of_quad(b, side, &s);
    if (rooks_only) {
        s.knights = 0;
        s.diag = 0;
    }
    prepare_sets(&s, t, &m);

    /* Castlings whose squares are free (Chess960 rules: the king and the rook end on the g/c
     * and f/d files; the squares they cross must be empty but for the two of them); the king's
     * path is checked against the attack map below. At most one castling rook per wing. The
     * king and its rooks share the back rank, so the paths are a table's bits of that rank
     * (castle_paths_at). */
    u64 king_path0 = 0, rook0 = 0, king_path1 = 0, rook1 = 0; /* scalars: no private array */
    u32 castles = 0;
    u64 rights = b->q0 & b->q1 & b->q2 & s.us;
    if (m.checks == 0 && rights) {
        u32 base = side ? 56u : 0u;
        u32 kfile = lsb(m.king) & 7u;
        u32 rank = (u32)(m.occ >> base) & 0xffu;
        for (u64 r = rights; r; r &= r - 1) {
            u32 rfile = lsb(r) & 7u;
            u32 paths = castle_paths_at(t, kfile, rfile);
            if (((paths >> 8) & rank) == 0) {
                u64 king_path = (u64)(paths & 0xffu) << base, rook = (u64)(1u << rfile) << base;
                if (castles == 0) {
                    king_path0 = king_path;
                    rook0 = rook;
                } else {
                    king_path1 = king_path;
                    rook1 = rook;
                }
                castles++;
            }
        }
    }
    finish_king_moves_voted(&s, t, &m, castles != 0);
    u32 n = popc(m.king_to);
    if (m.checks > 1) return n;
    n += count_piece_moves_lookup(&s, t, &m) + count_pawn_moves(s.pawns & s.us, side, &m);

    if (b->ep != NO_SQUARE)
        for (u64 c = pawn_at(t, side ^ 1u, b->ep) & s.pawns & s.us; c; c &= c - 1)
            n += quad_ep_is_legal(b, &s, t, &m, lsb(c));

    if (castles > 0) n += castle_is_safe(&s, t, &m, king_path0, rook0);
    if (castles > 1) n += castle_is_safe(&s, t, &m, king_path1, rook1);
    return n;
}
