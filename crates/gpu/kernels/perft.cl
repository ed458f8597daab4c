/* perft.cl: GPU perft. The host drives a breadth-first expansion ply by ply:
 *   count_children  -> the number of legal moves of every position of the current ply,
 *   scan_*          -> an exclusive prefix sum of those counts (where each position's children go),
 *   expand          -> every child written contiguously as the next ply,
 * and the last plies (1 to 3) run depth-first, one thread per position, in perft_leaf, with the
 * last ply bulk-counted. Needs board.h and movegen.h before it; SCAN_GROUP (the work-group size
 * of every kernel here, a power of two) comes from the host as a define. Kernels that work on a
 * slice of a ply take `first` and `n` (positions first .. first + n - 1), so that the host can
 * split a ply that would not fit in memory into chunks. */

KERNEL void count_children(const GLOBAL PackedBoard *boards, u32 n, GLOBAL u64 *counts) {
    u32 i = GLOBAL_ID();
    if (i >= n) return;
    Board b;
    unpack_board(&boards[i], &b);
    counts[i] = count_moves(&b);
}

/* Exclusive scan of one SCAN_GROUP-element block per work-group (Hillis-Steele in local memory);
 * the block's total goes to block_sums[group]. */
KERNEL void scan_blocks(GLOBAL u64 *data, u32 n, GLOBAL u64 *block_sums) {
    LOCAL u64 tmp[SCAN_GROUP];
    u32 lid = LOCAL_ID(), i = GLOBAL_ID();
    u64 x = i < n ? data[i] : 0;
    tmp[lid] = x;
    BARRIER();
    for (u32 step = 1; step < SCAN_GROUP; step <<= 1) {
        u64 add = lid >= step ? tmp[lid - step] : 0;
        BARRIER();
        tmp[lid] += add;
        BARRIER();
    }
    if (i < n) data[i] = tmp[lid] - x;
    if (lid == SCAN_GROUP - 1) block_sums[GROUP_ID()] = tmp[lid];
}

/* Adds each block's offset (the scanned block sums) to its elements. */
KERNEL void scan_add(GLOBAL u64 *data, u32 n, const GLOBAL u64 *block_offsets) {
    u32 i = GLOBAL_ID();
    if (i < n) data[i] += block_offsets[GROUP_ID()];
}

/* Writes the children of positions first .. first + n - 1 contiguously, those of position i at
 * offsets[i] - base onward (base = offsets[first], so the chunk's children start at 0). */
KERNEL void expand(const GLOBAL PackedBoard *boards, u32 first, u32 n, const GLOBAL u64 *offsets,
                   u64 base, GLOBAL PackedBoard *children) {
    u32 i = GLOBAL_ID();
    if (i >= n) return;
    i += first;
    Board b;
    unpack_board(&boards[i], &b);
    Move list[256];
    u32 count = gen_moves(&b, list);
    u64 at = offsets[i] - base;
    for (u32 k = 0; k < count; k++) {
        Board c = b;
        make_move(&c, list[k]);
        pack_board(&c, &children[at + k]);
    }
}

DEVICE_FN u64 perft2(const Board *b) {
    Move list[256];
    u32 count = gen_moves(b, list);
    u64 nodes = 0;
    for (u32 k = 0; k < count; k++) {
        Board c = *b;
        make_move(&c, list[k]);
        nodes += count_moves(&c);
    }
    return nodes;
}

DEVICE_FN u64 perft3(const Board *b) {
    Move list[256];
    u32 count = gen_moves(b, list);
    u64 nodes = 0;
    for (u32 k = 0; k < count; k++) {
        Board c = *b;
        make_move(&c, list[k]);
        nodes += perft2(&c);
    }
    return nodes;
}

/* The last `depth` plies (1 to 3) below each of positions first .. first + n - 1, depth-first;
 * one partial sum per work-group (reduced in local memory), so the host adds a few numbers
 * instead of one per position. */
KERNEL void perft_leaf(const GLOBAL PackedBoard *boards, u32 first, u32 n, u32 depth,
                       GLOBAL u64 *group_sums) {
    LOCAL u64 sums[SCAN_GROUP];
    u32 i = GLOBAL_ID(), lid = LOCAL_ID();
    u64 nodes = 0;
    if (i < n) {
        Board b;
        unpack_board(&boards[first + i], &b);
        /* `depth` is the same for every thread: no divergence. */
        if (depth == 1) nodes = count_moves(&b);
        else if (depth == 2) nodes = perft2(&b);
        else nodes = perft3(&b);
    }
    sums[lid] = nodes;
    BARRIER();
    for (u32 s = SCAN_GROUP / 2; s > 0; s >>= 1) {
        if (lid < s) sums[lid] += sums[lid + s];
        BARRIER();
    }
    if (lid == 0) group_sums[GROUP_ID()] = sums[0];
}
