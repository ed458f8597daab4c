/* eval_check.cl: evaluates a batch of positions, one work-group of WORKER_LANES lanes per
 * position, for crates/search-gpu's GpuEvaluator, which compares the results with
 * kogge_eval::evaluate. Built after board.h, movegen.h, line_attacks.h, the generated weights and
 * eval.h (the GPU search's include order, so that a clash of names shows up here already);
 * `lines` is line_attacks.h's table.
 *
 * Every lane writes its own result, and the host checks that they are all equal (and equal to
 * the CPU's): the even lanes write what evaluate() returned to them (the same on every lane, as it
 * promises), the odd lanes what evaluate_alone() returns, one lane evaluating the whole position
 * by itself. */

KERNEL void eval_check(const GLOBAL PackedBoard *boards, u32 n, GLOBAL i32 *scores, const GLOBAL u64 *lines) {
    LOCAL i32 scratch[EVAL_SCRATCH_INTS];
    u32 lane = LOCAL_ID();
    u32 position = GROUP_ID();
    /* Garbage in scratch, and no barrier after it: evaluate() must neither rely on scratch being
     * clear nor let these writes race with its own (its entry barrier orders them). */
    for (u32 i = lane; i < EVAL_SCRATCH_INTS; i += WORKER_LANES) scratch[i] = (i32)(0x5A5A5A5Au ^ i);
    /* The host launches exactly n work-groups; a whole group leaves together, barriers and all. */
    if (position >= n) return;
    Board b;
    unpack_board(&boards[position], &b);
    i32 together = evaluate(&b, lines, lane, scratch);
    scores[position * WORKER_LANES + lane] = (lane & 1u) ? evaluate_alone(&b, lines) : together;
}
