/* gives_check_check.cl: gives_check.h's may_give_check for a batch of (position, move), one
 * work-item each, for crates/search-gpu/tests/gives_check.rs, which compares the answers with
 * the CPU's board (kernel_source.rs's gives_check_check_source). */

KERNEL void gives_check_check(const GLOBAL PackedBoard *boards, const GLOBAL u32 *moves, u32 n,
                              const GLOBAL u64 *lines, GLOBAL u32 *out) {
    u32 i = GLOBAL_ID();
    if (i >= n) return;
    Board b;
    unpack_board(&boards[i], &b);
    out[i] = may_give_check(&b, lines, (Move)moves[i]);
}
