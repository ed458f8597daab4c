/* see_check.cl: see.h's see_ge for a batch of (position, move, threshold), one work-item each,
 * for crates/search-gpu/tests/see.rs, which compares the answers with the CPU's. Built after the
 * search's include order up to see.h (kernel_source.rs's see_check_source). */

KERNEL void see_check(const GLOBAL PackedBoard *boards, const GLOBAL u32 *moves, const GLOBAL i32 *thresholds,
                      u32 n, const GLOBAL u64 *lines, GLOBAL u32 *out) {
    u32 i = GLOBAL_ID();
    if (i >= n) return;
    Board b;
    unpack_board(&boards[i], &b);
    out[i] = (u32)see_ge(&b, lines, (Move)moves[i], thresholds[i]);
}
