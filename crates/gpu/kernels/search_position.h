/* search_position.h: the GPU search's position helpers. Zobrist keys updated by a move, the
 * check test, material and fifty-move tests, and the checkers, pins and safe king squares that
 * move generation starts from (prepare_lines). After search_state.h, before search_moves.h. */

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
 * is a slider the king sees once our first blockers are lifted. All but the king's safe squares
 * (prepare_lines adds prepare()'s; the search's generation finds the enemy's attack map a piece a
 * lane, search_moves.h). */
HEAVY_FN void prepare_checks_pins(const Board *b, const GLOBAL u64 *t, Masks *m) {
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
}

/* prepare() by lookups: prepare_checks_pins, then the king's safe squares. */
DEVICE_FN void prepare_lines(const Board *b, const GLOBAL u64 *t, Masks *m) {
    prepare_checks_pins(b, t, m);
    masks_king_to(b, m, king_from(t, lsb(m->king)));
}
