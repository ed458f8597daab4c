/* see.h: static exchange evaluation on the device, crates/search-cpu/src/see.rs step for step
 * (the search prunes by it, so the two must agree; crates/search-gpu/tests/see.rs compares them
 * on every legal move of the suites). Does move m win at least `threshold` material once every
 * piece attacking its target square has captured there, least valuable first, each side free to
 * stop when going on would lose? Needs board.h, line_attacks.h (its table `t`) and the generated
 * SEE_VALUE before it. Every lane of a worker calls it with the same arguments. */

/* Every piece of either colour attacking `sq` with `occ` as the blockers. */
DEVICE_FN u64 attackers_to(const Board *b, const GLOBAL u64 *t, u32 sq, u64 occ) {
    u64 diag = b->pieces[BISHOP] | b->pieces[QUEEN], orth = b->pieces[ROOK] | b->pieces[QUEEN];
    return (pawn_from(t, WHITE, sq) & b->pieces[PAWN] & b->colors[BLACK]) |
           (pawn_from(t, BLACK, sq) & b->pieces[PAWN] & b->colors[WHITE]) |
           (knight_from(t, sq) & b->pieces[KNIGHT]) | (king_from(t, sq) & b->pieces[KING]) |
           (bishop_from(t, sq, occ) & diag) | (rook_from(t, sq, occ) & orth);
}

NOINLINE_FN int see_ge(const Board *b, const GLOBAL u64 *t, Move m, i32 threshold) {
    u32 from = m & 63u, to = (m >> 6) & 63u, kind = (m >> 12) & 3u;
    /* Castling, en passant and promotions count as even exchanges, as on the CPU. */
    if (kind != MOVE_NORMAL) return threshold <= 0;
    u64 occupied = b->colors[WHITE] | b->colors[BLACK];
    i32 victim = (occupied & bit(to)) ? SEE_VALUE[piece_type_on(b, bit(to))] : 0;
    i32 swap = victim - threshold;
    if (swap < 0) return 0;
    swap = SEE_VALUE[piece_type_on(b, bit(from))] - swap;
    if (swap <= 0) return 1;

    u64 occ = occupied & ~bit(from) & ~bit(to);
    u64 diag = b->pieces[BISHOP] | b->pieces[QUEEN], orth = b->pieces[ROOK] | b->pieces[QUEEN];
    u32 side = b->side;
    u64 attackers = attackers_to(b, t, to, occ);
    int result = 1; /* 1 while the side that made the last capture is winning the exchange */
    for (;;) {
        side ^= 1u;
        attackers &= occ;
        u64 ours = attackers & color_set(b, side);
        if (!ours) break;
        result = !result;
        /* The least valuable attacker captures (selects over constant indices keep the board
         * in registers); a slider leaving may uncover another behind it. */
        u32 pt = KING;
        u64 set = ours & b->pieces[KING];
        if (ours & b->pieces[QUEEN]) { pt = QUEEN; set = ours & b->pieces[QUEEN]; }
        if (ours & b->pieces[ROOK]) { pt = ROOK; set = ours & b->pieces[ROOK]; }
        if (ours & b->pieces[BISHOP]) { pt = BISHOP; set = ours & b->pieces[BISHOP]; }
        if (ours & b->pieces[KNIGHT]) { pt = KNIGHT; set = ours & b->pieces[KNIGHT]; }
        if (ours & b->pieces[PAWN]) { pt = PAWN; set = ours & b->pieces[PAWN]; }
        if (pt == KING) {
            /* The king may capture only if the other side has nothing left to recapture with. */
            return (attackers & color_set(b, side ^ 1u)) ? !result : result;
        }
        swap = SEE_VALUE[pt] - swap;
        if (swap < result) break;
        occ &= ~(set & (0UL - set));
        if (pt == PAWN || pt == BISHOP || pt == QUEEN) attackers |= bishop_from(t, to, occ) & diag;
        if (pt == ROOK || pt == QUEEN) attackers |= rook_from(t, to, occ) & orth;
    }
    return result;
}
