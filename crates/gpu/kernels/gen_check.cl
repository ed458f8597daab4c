/* gen_check.cl: search_moves.h's gen_sorted over a batch of positions, a work-group of
 * WORKER_LANES each, for crates/search-gpu/tests/gen_sorted.rs, which compares the lists with the
 * CPU's legal moves (kernel_source.rs's gen_check_source). Each position is generated twice: every
 * move (list 2i) and quiescence's (list 2i + 1), MAX_MOVES words a list in `out`, the lengths in
 * `counts`. No table move, killers, counter move or noise; `history` is all zeros. */

KERNEL void gen_check(const GLOBAL PackedBoard *boards, u32 n, const GLOBAL u64 *lines, const GLOBAL i32 *history,
                      GLOBAL u32 *out, GLOBAL u32 *counts) {
    LOCAL u32 keys[MAX_MOVES];
    LOCAL u32 lane_counts[WORKER_LANES];
    LOCAL u32 scratch[2 * WORKER_LANES];
    u32 lane = LOCAL_ID();
    if (lane == 0) lane_counts[0] = 0;
    BARRIER();
    OrderHints hints;
    hints.tt_move = 0;
    hints.killer1 = 0;
    hints.killer2 = 0;
    hints.counter = 0;
    hints.noise = 0;
    for (u32 i = GROUP_ID(); i < n; i += NUM_GROUPS()) {
        Board b;
        unpack_board(&boards[i], &b);
        for (u32 qs = 0; qs < 2u; qs++) {
            u32 list = 2u * i + qs;
            u32 total = gen_sorted(&b, lines, lane, (int)qs, &hints, history, 0u, keys, lane_counts, scratch,
                                   out + (u64)list * MAX_MOVES);
            if (lane == 0) counts[list] = total;
        }
    }
}
