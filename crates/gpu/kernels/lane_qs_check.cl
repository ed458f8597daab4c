/* lane_qs_check.cl: lane_qs.h's quiescence search over a batch of positions, for crates/search-gpu's
 * LaneQs, which compares the values and node counts with the CPU's
 * (kogge_search_gpu::lane_qs::reference) and times it. `windows` holds alpha and beta for each
 * position; `out` gets its value and node count.
 *
 * The searches run in rounds, as a lane-parallel search at the horizon would run them: each
 * work-group of WORKER_LANES takes 32 consecutive positions at a time (a node's children, in
 * horizon_jobs' order), its lanes search one each, and with `wait` the next round starts when the
 * slowest lane is done (without, a lane goes on to its next position at once: the bound for lanes
 * kept busy). Groups take rounds `NUM_GROUPS()` apart, so that a launch of W groups times W warps
 * at work. */
KERNEL void lane_qs_rounds(const GLOBAL PackedBoard *boards, const GLOBAL i32 *windows, u32 n, u32 ply,
                           GLOBAL i32 *out, const GLOBAL u64 *lines, u32 wait) {
    u32 lane = LOCAL_ID();
    u32 rounds = (n + WORKER_LANES - 1u) / WORKER_LANES;
    for (u32 r = GROUP_ID(); r < rounds; r += NUM_GROUPS()) {
        u32 i = r * WORKER_LANES + lane;
        if (i < n) {
            Board b;
            unpack_board(&boards[i], &b);
            LaneQsResult q = lane_qs(&b, windows[2u * i], windows[2u * i + 1u], ply, lines);
            out[2u * i] = q.value;
            out[2u * i + 1u] = (i32)q.nodes;
        }
        if (wait) BARRIER();
    }
}
