/* perft_board.h: the 32-byte position perft's plies travel in (needs board.h). The 40-byte
 * PackedBoard spends a whole word on the state; here the state hides in codes the quad-bitboard
 * leaves unused, so a position is four words, a power of two that loads and stores aligned:
 *
 *   code 7 (type bits 111)            a rook that still has its castling right (Chess960 too: the
 *                                     wing follows from the rook's file against its king's);
 *   colour bit on an empty square    on rank 3 or 6: the en-passant square;
 *                                     elsewhere (the lowest empty square off ranks 3 and 6, of
 *                                     which there are always at least 16): black to move.
 *
 * Clocks are not kept: perft does not need them. crates/gpu-perft/src/lib.rs (perft_words) writes
 * the root in this form, quad_board.h's perft_of_quad the children. */

typedef struct {
    u64 quad[4];
} PerftBoard;

#define EP_RANKS (RANK_3 | RANK_6)

DEVICE_FN void unpack_perft(PerftBoard p, Board *b) {
    u64 q0 = p.quad[0], q1 = p.quad[1], q2 = p.quad[2], q3 = p.quad[3];
    u64 occ = q0 | q1 | q2;
    u64 castle_rooks = q0 & q1 & q2;
    sets_from_quad(q0, q1, q2, q3, b);
    b->pieces[ROOK] |= castle_rooks;
    u64 marks = q3 & ~occ;
    b->side = (marks & ~EP_RANKS) != 0;
    u64 ep = marks & EP_RANKS;
    b->ep = ep ? lsb(ep) : NO_SQUARE;
    for (u32 slot = 0; slot < 4; slot++) b->castle[slot] = NO_FILE;
    /* Colour by colour (constant indices: the Board stays in registers), at most two rooks. */
    for (u32 c = 0; c < 2; c++) {
        u64 rooks = castle_rooks & b->colors[c];
        u32 king_file = lsb(b->pieces[KING] & b->colors[c]) & 7u;
        for (; rooks; rooks &= rooks - 1) {
            u32 file = lsb(rooks) & 7u;
            if (file > king_file) b->castle[2 * c] = file;
            else b->castle[2 * c + 1] = file;
        }
    }
}
