/* gives_check.h: can a move give check? Answered without making it, so that the search can skip
 * making the moves it is about to prune: it prunes only moves that do not give check, and on the
 * GPU copying the board, making the move and testing the enemy king cost more than the rest of a
 * pruned move (Nsight Compute: make_move, king_in_check and the board copy were about a sixth of
 * the search's instructions). Needs board.h and line_attacks.h (its table `t`) before it.
 * crates/search-gpu/tests/gives_check.rs checks it against the CPU's board on every legal move of
 * the suites: it may say 1 for a move that gives no check, never 0 for one that does. */

/* 0 only if move m of the side to move surely gives no check.
 * - Direct checks are exact: the moved piece's attacks from its destination, looked up from the
 *   enemy king through the board as it is. The from-square cannot matter: were it between a
 *   slider's destination and the king, the slider would be moving along that line and would
 *   attack the king already, which the side to move cannot.
 * - A discovered check is assumed whenever the piece leaves the first square of a king's line with
 *   one of our sliders of that line's kind behind it (even if it stays on the line).
 * - Castling, en passant and promotions are always answered 1: they are rare, and each has its
 *   own way to check (the rook, a pawn leaving a rank, the new piece). */
NOINLINE_FN u32 may_give_check(const Board *b, const GLOBAL u64 *t, Move m) {
    u32 from = m & 63u, to = (m >> 6) & 63u, kind = (m >> 12) & 3u;
    if (kind != MOVE_NORMAL) return 1;
    u32 them = b->side ^ 1u;
    u64 ours = color_set(b, b->side);
    u64 occ = b->colors[0] | b->colors[1];
    u32 ksq = lsb(b->pieces[KING] & color_set(b, them));
    u64 fb = bit(from), tb = bit(to);
    /* The king's lines on the empty board: a slider is looked up only for a square on one. */
    u64 king_hv = orthogonals_at(ksq), king_diag = diagonals_at(t, ksq);
    u32 type = piece_type_on(b, fb);
    if (type == PAWN) {
        if (pawn_from(t, them, ksq) & tb) return 1;
    } else if (type == KNIGHT) {
        if (knight_from(t, ksq) & tb) return 1;
    } else if (type != KING) {
        if (type != BISHOP && (king_hv & tb) && (rook_from(t, ksq, occ) & tb)) return 1;
        if (type != ROOK && (king_diag & tb) && (bishop_from(t, ksq, occ) & tb)) return 1;
    }
    /* With the piece lifted, does a slider of ours see the king? None does now (it is our move).
     * Only a piece on one of the king's lines, with a slider of ours of that kind on it, can
     * uncover one. */
    u64 orth = (b->pieces[ROOK] | b->pieces[QUEEN]) & ours & ~fb;
    u64 diag = (b->pieces[BISHOP] | b->pieces[QUEEN]) & ours & ~fb;
    if ((king_hv & fb) && (orth & king_hv) && (rook_from(t, ksq, occ) & fb) && (rook_from(t, ksq, occ ^ fb) & orth))
        return 1;
    if ((king_diag & fb) && (diag & king_diag) && (bishop_from(t, ksq, occ) & fb) &&
        (bishop_from(t, ksq, occ ^ fb) & diag))
        return 1;
    return 0;
}
