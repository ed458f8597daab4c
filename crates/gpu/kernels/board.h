/* board.h: the chess position inside a kernel, unpacked from the 40-byte PackedBoard that
 * crates/chess/src/packed.rs defines (four quad-bitboard words + one state word), and the
 * table-free attack functions (Kogge-Stone fills and shifts) every chess kernel uses.
 *
 * Squares a1 = 0 .. h8 = 63, bit i of a bitboard = square i, as on the CPU. Moves are the CPU's
 * 16-bit encoding: from | to << 6 | kind << 12 | promotion << 14, kind 0 normal, 1 promotion,
 * 2 en passant, 3 castling (to = the castling rook's square); promotion 0..3 = N, B, R, Q.
 * Written in the portable dialect of prelude_*.h: no backend #ifdefs here. */

#define PAWN 0
#define KNIGHT 1
#define BISHOP 2
#define ROOK 3
#define QUEEN 4
#define KING 5
#define NO_SQUARE 64u
#define NO_FILE 8u

#define NOT_A 0xfefefefefefefefeUL
#define NOT_H 0x7f7f7f7f7f7f7f7fUL
#define RANK_1 0x00000000000000ffUL
#define RANK_2 0x000000000000ff00UL
#define RANK_3 0x0000000000ff0000UL
#define RANK_6 0x0000ff0000000000UL
#define RANK_7 0x00ff000000000000UL
#define RANK_8 0xff00000000000000UL

/* The packed form, as crates/chess/src/packed.rs writes it. */
typedef struct {
    u64 quad[4];
    u64 state;
} PackedBoard;

#define STATE_SIDE_SHIFT 0
#define STATE_CASTLING_SHIFT 1
#define STATE_EP_SHIFT 17
#define NIBBLE_PRESENT 8u

typedef struct {
    u64 pieces[6]; /* by piece type, both colours */
    u64 colors[2]; /* white, black */
    u32 side;      /* 0 white, 1 black */
    u32 ep;        /* en-passant square, or NO_SQUARE */
    u32 castle[4]; /* rook file per slot 2 * colour + wing (0 king side, 1 queen side), or NO_FILE */
} Board;

typedef u16 Move;
#define MOVE_NORMAL 0u
#define MOVE_PROMOTION 1u
#define MOVE_EN_PASSANT 2u
#define MOVE_CASTLING 3u
#define MOVE(from, to, kind, promo) ((Move)((from) | ((to) << 6) | ((kind) << 12) | ((promo) << 14)))

/* HEAVY_FN marks the larger helpers. Inlined by default (perft wants every call inlined); a
 * big kernel whose code would overflow the instruction cache (the search) defines it as
 * NOINLINE_FN before this file, keeping one copy of each. */
#ifndef HEAVY_FN
#define HEAVY_FN DEVICE_FN
#endif
/* SLIDER_FN marks the slider fills of whole sets (rook_attacks, bishop_attacks, fill_dir): four
 * to eight fills of some twenty instructions each, inlined wherever they are called. The search
 * makes them NOINLINE_FN too: with sixteen warps per multiprocessor at different places in its
 * code, most of its stalls were waits for instructions (Nsight Compute, 2,112 workers: 63% of
 * the samples), and one copy of each fill took nodes/s from 58 M to 63 M. */
#ifndef SLIDER_FN
#define SLIDER_FN DEVICE_FN
#endif

DEVICE_FN u64 bit(u32 sq) { return 1UL << sq; }
/* The lowest square of a non-empty set, scanned as one 32-bit word: the low word, or the high
 * one when the low is empty. Picking the word first keeps it to one CTZ32 (one population
 * count, on the H100's quarter-rate unit); scanning both words and picking the result took
 * two. For an empty set it is meaningless (as CTZ64's is): every caller passes a king, or a
 * set its loop has checked. */
DEVICE_FN u32 lsb(u64 b) {
    u32 lo = (u32)b;
    u32 scan = CTZ32(lo ? lo : (u32)(b >> 32));
    return lo ? scan : scan + 32u;
}
DEVICE_FN u32 popc(u64 b) { return (u32)POPCOUNT64(b); }

/* The piece and colour sets of a quad-bitboard (codes 1..6; anything else is no piece, and the
 * colour bit counts only on pieces). Shared by both packed forms. */
DEVICE_FN void sets_from_quad(u64 q0, u64 q1, u64 q2, u64 q3, Board *b) {
    u64 occ = q0 | q1 | q2;
    b->pieces[PAWN] = q0 & ~q1 & ~q2;
    b->pieces[KNIGHT] = ~q0 & q1 & ~q2;
    b->pieces[BISHOP] = q0 & q1 & ~q2;
    b->pieces[ROOK] = ~q0 & ~q1 & q2;
    b->pieces[QUEEN] = q0 & ~q1 & q2;
    b->pieces[KING] = ~q0 & q1 & q2;
    b->colors[1] = q3 & occ;
    b->colors[0] = occ & ~q3;
}

/* The three piece-code words of a quad-bitboard (the fourth is the black pieces). */
DEVICE_FN void quad_from_sets(const Board *b, u64 *q0, u64 *q1, u64 *q2) {
    u64 a = 0, c = 0, d = 0;
    for (u32 t = 0; t < 6; t++) {
        u64 code = t + 1;
        if (code & 1) a |= b->pieces[t];
        if (code & 2) c |= b->pieces[t];
        if (code & 4) d |= b->pieces[t];
    }
    *q0 = a;
    *q1 = c;
    *q2 = d;
}

/* Unpacks a packed position held in private memory (any address space: copy it first). */
DEVICE_FN void unpack_value(PackedBoard p, Board *b) {
    u64 s = p.state;
    sets_from_quad(p.quad[0], p.quad[1], p.quad[2], p.quad[3], b);
    b->side = (u32)(s >> STATE_SIDE_SHIFT) & 1u;
    for (u32 slot = 0; slot < 4; slot++) {
        u32 nibble = (u32)(s >> (STATE_CASTLING_SHIFT + 4 * slot)) & 15u;
        b->castle[slot] = (nibble & NIBBLE_PRESENT) ? (nibble & 7u) : NO_FILE;
    }
    u32 ep = (u32)(s >> STATE_EP_SHIFT) & 15u;
    b->ep = (ep & NIBBLE_PRESENT) ? ((ep & 7u) + (b->side == 0 ? 40u : 16u)) : NO_SQUARE;
}

DEVICE_FN void unpack_board(const GLOBAL PackedBoard *p, Board *b) { unpack_value(*p, b); }

/* Children written by the kernels carry no clocks (perft does not need them): half-move 0,
 * full-move 1. */
DEVICE_FN PackedBoard pack_value(const Board *b) {
    PackedBoard p;
    quad_from_sets(b, &p.quad[0], &p.quad[1], &p.quad[2]);
    u64 s = (u64)b->side << STATE_SIDE_SHIFT;
    for (u32 slot = 0; slot < 4; slot++)
        if (b->castle[slot] != NO_FILE)
            s |= (u64)(NIBBLE_PRESENT | b->castle[slot]) << (STATE_CASTLING_SHIFT + 4 * slot);
    if (b->ep != NO_SQUARE) s |= (u64)(NIBBLE_PRESENT | (b->ep & 7u)) << STATE_EP_SHIFT;
    s |= 1UL << 37; /* full-move number 1 */
    p.quad[3] = b->colors[1];
    p.state = s;
    return p;
}

DEVICE_FN void pack_board(const Board *b, GLOBAL PackedBoard *p) { *p = pack_value(b); }

/* ---- Attacks without tables ------------------------------------------------------------------
 * Kogge-Stone occluded fills: the squares reached from the set `g` sliding one way through the
 * `e`mpty squares, up to and including the first blocker. Three doubling steps per direction. */
DEVICE_FN u64 fill_n(u64 g, u64 e) { g |= e & (g << 8); e &= e << 8; g |= e & (g << 16); e &= e << 16; g |= e & (g << 32); return g << 8; }
DEVICE_FN u64 fill_s(u64 g, u64 e) { g |= e & (g >> 8); e &= e >> 8; g |= e & (g >> 16); e &= e >> 16; g |= e & (g >> 32); return g >> 8; }
DEVICE_FN u64 fill_e(u64 g, u64 e) { e &= NOT_A; g |= e & (g << 1); e &= e << 1; g |= e & (g << 2); e &= e << 2; g |= e & (g << 4); return (g << 1) & NOT_A; }
DEVICE_FN u64 fill_w(u64 g, u64 e) { e &= NOT_H; g |= e & (g >> 1); e &= e >> 1; g |= e & (g >> 2); e &= e >> 2; g |= e & (g >> 4); return (g >> 1) & NOT_H; }
DEVICE_FN u64 fill_ne(u64 g, u64 e) { e &= NOT_A; g |= e & (g << 9); e &= e << 9; g |= e & (g << 18); e &= e << 18; g |= e & (g << 36); return (g << 9) & NOT_A; }
DEVICE_FN u64 fill_nw(u64 g, u64 e) { e &= NOT_H; g |= e & (g << 7); e &= e << 7; g |= e & (g << 14); e &= e << 14; g |= e & (g << 28); return (g << 7) & NOT_H; }
DEVICE_FN u64 fill_se(u64 g, u64 e) { e &= NOT_A; g |= e & (g >> 7); e &= e >> 7; g |= e & (g >> 14); e &= e >> 14; g |= e & (g >> 28); return (g >> 7) & NOT_A; }
DEVICE_FN u64 fill_sw(u64 g, u64 e) { e &= NOT_H; g |= e & (g >> 9); e &= e >> 9; g |= e & (g >> 18); e &= e >> 18; g |= e & (g >> 36); return (g >> 9) & NOT_H; }

/* Direction d: 0..3 orthogonal (n, s, e, w), 4..7 diagonal (ne, nw, se, sw). */
SLIDER_FN u64 fill_dir(u32 d, u64 g, u64 e) {
    switch (d) {
    case 0: return fill_n(g, e);
    case 1: return fill_s(g, e);
    case 2: return fill_e(g, e);
    case 3: return fill_w(g, e);
    case 4: return fill_ne(g, e);
    case 5: return fill_nw(g, e);
    case 6: return fill_se(g, e);
    default: return fill_sw(g, e);
    }
}

/* The diagonal (a1-h8 direction) and the anti-diagonal (h1-a8) through `sq`, `sq` included. */
DEVICE_FN u64 diagonal_of(u32 sq) {
    i32 dd = (i32)(sq & 7u) - (i32)(sq >> 3);
    return dd >= 0 ? 0x8040201008040201UL >> (8 * dd) : 0x8040201008040201UL << (-8 * dd);
}
DEVICE_FN u64 antidiagonal_of(u32 sq) {
    i32 da = 7 - (i32)(sq & 7u) - (i32)(sq >> 3);
    return da >= 0 ? 0x0102040810204080UL >> (8 * da) : 0x0102040810204080UL << (-8 * da);
}

/* The whole ray from `sq` in direction d on an empty board, from shifts of constant lines: a
 * few operations, against some fifteen for a fill. Used to skip directions with nothing in them. */
DEVICE_FN u64 ray_empty(u32 d, u32 sq) {
    u64 above = ~((2UL << sq) - 1), below = (1UL << sq) - 1;
    u64 rank = 0xffUL << (sq & 56u);
    u64 diag = diagonal_of(sq);
    u64 anti = antidiagonal_of(sq);
    switch (d) {
    case 0: return 0x0101010101010100UL << sq;
    case 1: return 0x0080808080808080UL >> (sq ^ 63u);
    case 2: return rank & above;
    case 3: return rank & below;
    case 4: return diag & above;
    case 5: return anti & above;
    case 6: return anti & below;
    default: return diag & below;
    }
}

SLIDER_FN u64 rook_attacks(u64 g, u64 empty) {
    return fill_n(g, empty) | fill_s(g, empty) | fill_e(g, empty) | fill_w(g, empty);
}
SLIDER_FN u64 bishop_attacks(u64 g, u64 empty) {
    return fill_ne(g, empty) | fill_nw(g, empty) | fill_se(g, empty) | fill_sw(g, empty);
}
DEVICE_FN u64 knight_attacks(u64 b) {
    u64 l1 = (b >> 1) & 0x7f7f7f7f7f7f7f7fUL, l2 = (b >> 2) & 0x3f3f3f3f3f3f3f3fUL;
    u64 r1 = (b << 1) & 0xfefefefefefefefeUL, r2 = (b << 2) & 0xfcfcfcfcfcfcfcfcUL;
    u64 h1 = l1 | r1, h2 = l2 | r2;
    return (h1 << 16) | (h1 >> 16) | (h2 << 8) | (h2 >> 8);
}
DEVICE_FN u64 king_attacks(u64 b) {
    u64 a = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    u64 row = b | a;
    return a | (row << 8) | (row >> 8);
}
/* Squares attacked by pawns of colour `c` standing on `b`. */
DEVICE_FN u64 pawn_attacks(u32 c, u64 b) {
    return c == 0 ? (((b << 9) & NOT_A) | ((b << 7) & NOT_H)) : (((b >> 7) & NOT_A) | ((b >> 9) & NOT_H));
}

/* Every square colour `by` attacks, with `occ` as the blockers. */
HEAVY_FN u64 attacked_squares(const Board *b, u32 by, u64 occ) {
    u64 them = by ? b->colors[1] : b->colors[0];
    u64 empty = ~occ;
    u64 orth = (b->pieces[ROOK] | b->pieces[QUEEN]) & them;
    u64 diag = (b->pieces[BISHOP] | b->pieces[QUEEN]) & them;
    u64 a = pawn_attacks(by, b->pieces[PAWN] & them) | knight_attacks(b->pieces[KNIGHT] & them) |
            king_attacks(b->pieces[KING] & them);
    if (orth) a |= rook_attacks(orth, empty);
    if (diag) a |= bishop_attacks(diag, empty);
    return a;
}

/* PIECE_TYPE_FN: inlined by default; out of line (`-DPIECE_TYPE_FN=NOINLINE_FN`) it cost one
 * worker 4.7% at depth 12 (twentieth session), and with the slider lookups out of line too
 * (7,776 instructions) 264 workers searched 24.4 M nodes a second to depth 19 against the
 * default's 25.4 M (eighty-sixth session). */
#ifndef PIECE_TYPE_FN
#define PIECE_TYPE_FN DEVICE_FN
#endif

/* The type of the piece on sq_bit (PAWN for an empty square), a bit of it at a time: bit 0 is set
 * for knights, rooks and kings (1, 3, 5), bit 1 for bishops and rooks (2, 3), bit 2 for queens
 * and kings (4, 5). Three independent tests where a loop over the types took five dependent
 * ones (Nsight Compute had the loop at 4% of the search's instructions). */
PIECE_TYPE_FN u32 piece_type_on(const Board *b, u64 sq_bit) {
    u64 b0 = b->pieces[KNIGHT] | b->pieces[ROOK] | b->pieces[KING];
    u64 b1 = b->pieces[BISHOP] | b->pieces[ROOK];
    u64 b2 = b->pieces[QUEEN] | b->pieces[KING];
    return (u32)((b0 & sq_bit) != 0) | ((u32)((b1 & sq_bit) != 0) << 1) | ((u32)((b2 & sq_bit) != 0) << 2);
}

/* Squares strictly between two squares of one rank. */
DEVICE_FN u64 between_on_rank(u32 a, u32 c) {
    u32 lo = a < c ? a : c, hi = a < c ? c : a;
    return (bit(hi) - 1) & ~((bit(lo) << 1) - 1);
}

/* ---- Register-friendly access ------------------------------------------------------------------
 * An array of a private struct indexed by a run-time value makes the compiler keep the whole
 * struct in (slow, per-thread) local memory instead of registers. These helpers index by
 * selects over constant indices, so a Board stays in registers. */
DEVICE_FN u64 color_set(const Board *b, u32 c) { return c ? b->colors[1] : b->colors[0]; }
DEVICE_FN void toggle_color(Board *b, u32 c, u64 x) {
    b->colors[0] ^= c ? 0 : x;
    b->colors[1] ^= c ? x : 0;
}
DEVICE_FN u32 castle_file(const Board *b, u32 slot) {
    u32 f = b->castle[0];
    f = slot == 1u ? b->castle[1] : f;
    f = slot == 2u ? b->castle[2] : f;
    return slot == 3u ? b->castle[3] : f;
}
DEVICE_FN void clear_castling_of(Board *b, u32 c) {
    for (u32 slot = 0; slot < 4; slot++)
        if ((slot >> 1) == c) b->castle[slot] = NO_FILE;
}

/* ---- Making a move (copy-make: callers copy the board first) ---------------------------------- */
DEVICE_FN void clear_castling_on(Board *b, u32 sq) {
    for (u32 slot = 0; slot < 4; slot++) {
        u32 rook_sq = b->castle[slot] + ((slot >> 1) ? 56u : 0u);
        if (b->castle[slot] != NO_FILE && rook_sq == sq) b->castle[slot] = NO_FILE;
    }
}

/* make_move() for a caller that knows the moving piece's type (`moving`: piece_type_on of the
 * from-square; not read for a castling). */
HEAVY_FN void make_move_of(Board *b, Move m, u32 moving) {
    u32 from = m & 63u, to = (m >> 6) & 63u, kind = (m >> 12) & 3u;
    u32 us = b->side, them = us ^ 1u;
    u64 fb = bit(from), tb = bit(to);
    b->ep = NO_SQUARE;
    if (kind == MOVE_CASTLING) {
        u32 base = us ? 56u : 0u;
        u32 king_side = to > from;
        u32 kdst = base + (king_side ? 6u : 2u), rdst = base + (king_side ? 5u : 3u);
        /* XOR, not OR: in Chess960 the king or rook may end where it started. */
        b->pieces[KING] ^= fb ^ bit(kdst);
        b->pieces[ROOK] ^= tb ^ bit(rdst);
        toggle_color(b, us, fb ^ tb ^ bit(kdst) ^ bit(rdst));
        clear_castling_of(b, us);
    } else {
        if (kind == MOVE_EN_PASSANT) {
            u64 cap = bit(to ^ 8u);
            b->pieces[PAWN] ^= cap;
            toggle_color(b, them, cap);
        } else if (color_set(b, them) & tb) {
            /* The captured piece leaves whichever set holds it: no need to find out which. */
            for (u32 i = 0; i < 6; i++) b->pieces[i] &= ~tb;
            toggle_color(b, them, tb);
            clear_castling_on(b, to);
        }
        /* One pass over the sets moves the piece (selects over constant indices: see above); a
         * promotion then swaps the pawn on the last rank for the piece it became. */
        u64 ft = fb ^ tb;
        for (u32 i = 0; i < 6; i++) b->pieces[i] ^= i == moving ? ft : 0;
        if (kind == MOVE_PROMOTION) {
            u32 placed = 1u + ((m >> 14) & 3u);
            b->pieces[PAWN] ^= tb;
            for (u32 i = KNIGHT; i <= QUEEN; i++) b->pieces[i] ^= i == placed ? tb : 0;
        }
        toggle_color(b, us, fb | tb);
        if (moving == PAWN) {
            if ((from ^ to) == 16u) {
                u32 ep = (from + to) >> 1;
                if (pawn_attacks(us, bit(ep)) & b->pieces[PAWN] & color_set(b, them)) b->ep = ep;
            }
        } else if (moving == KING) {
            clear_castling_of(b, us);
        } else {
            clear_castling_on(b, from);
        }
    }
    b->side = them;
}

HEAVY_FN void make_move(Board *b, Move m) { make_move_of(b, m, piece_type_on(b, bit(m & 63u))); }
