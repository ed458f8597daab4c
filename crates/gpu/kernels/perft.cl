/* perft.cl: GPU perft. The host drives a breadth-first expansion ply by ply:
 *   count_children  -> the number of legal moves of every position of the current ply,
 *   scan_*          -> an exclusive prefix sum of those counts (where each position's children go),
 *   expand          -> every child written contiguously as the next ply,
 * and the last plies run fused: two in perft_staged2 (children staged per work-group, the last
 * ply bulk-counted), or 1 to 3 depth-first per thread in perft_leaf. Positions travel in the
 * 32-byte form of perft_board.h. Needs board.h, movegen.h, lookup.h and perft_board.h before it;
 * SCAN_GROUP (the work-group size of every kernel here, a power of two), STAGE_PER_THREAD and
 * TAIL_BLOCKS come from the host as defines. Kernels that work on a slice of a ply take `first`
 * and `n` (positions first .. first + n - 1), so that the host can split a ply that would not fit
 * in memory into chunks. */

KERNEL void count_children(const GLOBAL PerftBoard *boards, u32 n, GLOBAL u64 *counts) {
    u32 i = GLOBAL_ID();
    if (i >= n) return;
    Board b;
    unpack_perft(boards[i], &b);
    counts[i] = count_moves(&b);
}

/* Splits parents 0 .. n - 1, whose children begin at offsets[] (an exclusive prefix sum; `total`
 * children in all), into chunks for the host to expand one after another: chunk j begins at the
 * first parent whose children begin at or past j * step, so a chunk holds fewer than step + 218
 * children (a position has at most 218 moves). bounds[2j] = chunk j's first parent, bounds[2j +
 * 1] = where its children begin; chunks past the last parent begin at n, at total (up to
 * `chunks`). A chunk that begins where the next does is empty. The host reads these few words
 * instead of every offset (reading the offsets of a 33 M-position ply took a third of position
 * 3's perft 10). */
KERNEL void chunk_bounds(const GLOBAL u64 *offsets, u32 n, u64 total, u64 step, u32 chunks,
                         GLOBAL u64 *bounds) {
    u32 i = GLOBAL_ID();
    if (i >= n) return;
    u64 at = offsets[i];
    u64 first = i == 0 ? 0 : offsets[i - 1] / step + 1; /* chunks that began before this parent */
    for (u64 j = first; j <= at / step; j++) {
        bounds[2 * j] = i;
        bounds[2 * j + 1] = at;
    }
    if (i == n - 1)
        for (u64 j = at / step + 1; j < chunks; j++) {
            bounds[2 * j] = n;
            bounds[2 * j + 1] = total;
        }
}

/* Exclusive prefix sum of `x` over the work-group (Hillis-Steele in local memory; all threads
 * must call it); the group's total goes to *total. `tmp` holds SCAN_GROUP values and is free
 * again on return. */
DEVICE_FN u64 group_scan(LOCAL_PTR u64 *tmp, u64 x, u64 *total) {
    u32 lid = LOCAL_ID();
    tmp[lid] = x;
    BARRIER();
    for (u32 step = 1; step < SCAN_GROUP; step <<= 1) {
        u64 add = lid >= step ? tmp[lid - step] : 0;
        BARRIER();
        tmp[lid] += add;
        BARRIER();
    }
    u64 inclusive = tmp[lid];
    *total = tmp[SCAN_GROUP - 1];
    BARRIER();
    return inclusive - x;
}

/* Exclusive scan of one SCAN_GROUP-element block per work-group; the block's total goes to
 * block_sums[group]. */
KERNEL void scan_blocks(GLOBAL u64 *data, u32 n, GLOBAL u64 *block_sums) {
    LOCAL u64 tmp[SCAN_GROUP];
    u32 i = GLOBAL_ID();
    u64 total;
    u64 offset = group_scan(tmp, i < n ? data[i] : 0, &total);
    if (i < n) data[i] = offset;
    if (LOCAL_ID() == 0) block_sums[GROUP_ID()] = total;
}

/* Adds each block's offset (the scanned block sums) to its elements. */
KERNEL void scan_add(GLOBAL u64 *data, u32 n, const GLOBAL u64 *block_offsets) {
    u32 i = GLOBAL_ID();
    if (i < n) data[i] += block_offsets[GROUP_ID()];
}

/* Adds `value` over the work-group (SCAN_GROUP threads, all of which must call this) in the local
 * array `sums`, and writes the total to group_sums[group]. */
DEVICE_FN void group_sum(LOCAL_PTR u64 *sums, u64 value, GLOBAL u64 *group_sums) {
    u32 lid = LOCAL_ID();
    sums[lid] = value;
    BARRIER();
    for (u32 s = SCAN_GROUP / 2; s > 0; s >>= 1) {
        if (lid < s) sums[lid] += sums[lid + s];
        BARRIER();
    }
    if (lid == 0) group_sums[GROUP_ID()] = sums[0];
}

/* ---- Work-group staging: a load-balanced mapping from children to parents --------------------
 * One thread per parent would leave most lanes of a warp idle behind the parent with the most
 * moves. Instead the threads of a work-group each take one parent, list its moves privately and
 * prefix-sum the counts in local memory; the moves are then copied, one window of STAGE_CAP at a
 * time, into a local array beside the index of their parent, and thread t takes the window's
 * children t, t + SCAN_GROUP, ...: every lane gets the same work to within one child. */
#define STAGE_CAP (SCAN_GROUP * STAGE_PER_THREAD)

/* The second half of stage_parent, for a caller that made (or filtered) the list itself: keeps
 * the parent `p` (if present) in parents[] as a quad-bitboard, on which the children are made
 * (quad_board.h), and prefix-sums the group's counts; returns the group's total of moves and
 * sets *off to where this thread's moves start among them. */
DEVICE_FN u32 stage_listed(int present, PerftBoard p, LOCAL_PTR QuadBoard *parents,
                           LOCAL_PTR u64 *scan, u32 count, u32 *off) {
    if (present) {
        QuadBoard q;
        quad_of_perft(p, &q);
        parents[LOCAL_ID()] = q;
    }
    u64 total;
    *off = (u32)group_scan(scan, count, &total);
    return (u32)total;
}

/* The moves of parent `p` in `list`, tagged by `g` unless it is null (movegen.h's MoveTags),
 * and where they went (none if there is no parent). */
DEVICE_FN MoveCursor list_parent(int present, PerftBoard p, const Lookup *t, Move *list, const MoveTags *g) {
    MoveCursor c = {0, 0};
    if (!present) return c;
    Board b;
    unpack_perft(p, &b);
    return list_moves_lookup(&b, t, list, g);
}

/* Each thread takes parent `p` (if present), lists its moves in `list` (*count of them) and
 * stages it (stage_listed). */
DEVICE_FN u32 stage_parent(int present, PerftBoard p, const Lookup *t, Move *list,
                           LOCAL_PTR QuadBoard *parents, LOCAL_PTR u64 *scan, u32 *count, u32 *off) {
    *count = list_parent(present, p, t, list, 0).front;
    return stage_listed(present, p, parents, scan, *count, off);
}

/* Copies the part of this thread's `count` moves (group offset `off`) that falls into the window
 * base .. base + STAGE_CAP - 1 to moves[], with the thread's index as their owner. */
DEVICE_FN void stage_window(const Move *list, u32 count, u32 off, u32 base, LOCAL_PTR u16 *moves,
                            LOCAL_PTR u8 *owner) {
    if (off >= base + STAGE_CAP || off + count <= base) return;
    u32 lo = off < base ? base - off : 0;
    u32 hi = off + count > base + STAGE_CAP ? base + STAGE_CAP - off : count;
    u8 lid = (u8)LOCAL_ID();
    for (u32 j = lo; j < hi; j++) {
        moves[off + j - base] = list[j];
        owner[off + j - base] = lid;
    }
}

/* Writes the children of positions first .. first + n - 1 contiguously, those of position i at
 * offsets[i] - base onward (base = offsets[first], so the chunk's children start at 0). Staged:
 * consecutive threads make and write consecutive children, so the writes coalesce too. */
KERNEL void expand(const GLOBAL PerftBoard *boards, u32 first, u32 n, const GLOBAL u64 *offsets,
                   u64 base, GLOBAL PerftBoard *children, const GLOBAL u64 *lookup_params,
                   const GLOBAL u64 *lookup_attacks) {
    LOCAL QuadBoard parents[SCAN_GROUP];
    LOCAL u64 scan[SCAN_GROUP];
    LOCAL u16 moves[STAGE_CAP];
    LOCAL u8 owner[STAGE_CAP];
    LOCAL u64 params[LOOKUP_WORDS];
    lookup_load(params, lookup_params);
    Lookup t;
    t.params = params;
    t.attacks = lookup_attacks;
    u32 lid = LOCAL_ID();
    u32 i = GLOBAL_ID();
    Move list[MOVE_LIST_SIZE];
    u32 count, off;
    PerftBoard p = {{0, 0, 0, 0}};
    if (i < n) p = boards[first + i];
    u32 total = stage_parent(i < n, p, &t, list, parents, scan, &count, &off);
    /* Where this group's first parent puts its children: the group's children follow on. */
    u64 out = offsets[first + GROUP_ID() * SCAN_GROUP] - base;
    for (u32 window = 0; window < total; window += STAGE_CAP) {
        stage_window(list, count, off, window, moves, owner);
        BARRIER();
        u32 m = total - window < STAGE_CAP ? total - window : STAGE_CAP;
        for (u32 k = lid; k < m; k += SCAN_GROUP) {
            QuadBoard c = parents[owner[k]];
            make_quad_move(&c, moves[k], c.side, &t);
            children[out + window + k] = perft_of_quad(&c);
        }
        BARRIER();
    }
}

/* Words of a slot of perft_dedup.cl's table: [0] tag (0: empty, else the fingerprint once the
 * kernel that filled it has ended), [1] path count, [2..5] the position. */
#define SLOT_WORDS 6u

/* Where a tail's positions come from. */
#define SOURCE_LIST 0u     /* a list of PerftBoards, one path each */
#define SOURCE_WEIGHTED 1u /* a list of PerftBoards, weights[i] paths each */
#define SOURCE_TABLE 2u    /* perft_dedup.cl's table, whose slots the tail empties as it reads */

/* Position i (< n) of a tail's source into *p and its paths into *w; 0 if there is none. */
DEVICE_FN int tail_entry(GLOBAL u64 *entries, const GLOBAL u64 *weights, u32 source, u32 i, u32 n,
                         PerftBoard *p, u64 *w) {
    if (i >= n) return 0;
    if (source == SOURCE_TABLE) {
        GLOBAL u64 *s = entries + (u64)i * SLOT_WORDS;
        if (s[0] == 0) return 0;
        for (u32 k = 0; k < 4; k++) p->quad[k] = s[2 + k];
        *w = s[1];
        s[0] = 0;
        s[1] = 0;
    } else {
        for (u32 k = 0; k < 4; k++) p->quad[k] = entries[(u64)i * 4 + k];
        *w = source == SOURCE_WEIGHTED ? weights[i] : 1;
    }
    return 1;
}

/* The last two plies below positions 0 .. n - 1 of a source (above), all with `us` to move:
 * the children are staged as above, with the parents kept as quad-bitboards (quad_board.h),
 * and each thread makes its children on those and bulk-counts their moves by lookup, times the
 * parent's paths. Each parent first works out what its children share, then lists its moves
 * tagged by class and sorts them (child_share.h); the group stages the classes one after
 * another, so that a warp's 32 children take one path but at the two seams. Without sharing, a
 * group none of whose parents holds a knight, bishop or queen or can promote to one (*minors
 * stays 0) counts with count_quad_moves' rook-ending copy. One partial sum per work-group (in
 * `scan`, free again after staging). Two kernels run it, one per side to move (every position
 * of a ply has the same), so that `us` is a constant and every test and select on the side
 * folds away. (One kernel branching on a side argument around the counting counted nothing
 * under PoCL 3.1.) Compiled for TAIL_BLOCKS work-groups of 128 per multiprocessor (7: 72
 * registers a thread; crates/gpu-perft's TAIL_BLOCKS says why). */
DEVICE_FN void staged2(GLOBAL u64 *entries, const GLOBAL u64 *weights, u32 source, u32 n,
                       const GLOBAL u64 *lookup_params, const GLOBAL u64 *lookup_attacks,
                       GLOBAL u64 *group_sums, LOCAL_PTR QuadBoard *parents, LOCAL_PTR u64 *parent_weights,
                       LOCAL_PTR ChildShare *shares, LOCAL_PTR u64 *scan, LOCAL_PTR u16 *moves,
                       LOCAL_PTR u8 *owner, LOCAL_PTR u64 *params, LOCAL_PTR u32 *minors, u32 us,
                       int share) {
    if (LOCAL_ID() == 0) *minors = 0;
    lookup_load(params, lookup_params); /* its barrier orders the store above too */
    Lookup t;
    t.params = params;
    t.attacks = lookup_attacks;
    u32 lid = LOCAL_ID();
    Move list[MOVE_LIST_SIZE];
    PerftBoard p = {{0, 0, 0, 0}};
    u64 w = 0;
    int present = tail_entry(entries, weights, source, GLOBAL_ID(), n, &p, &w);
    /* stage_parent, but for the classes: worked out before listing, sorted and counted before
     * scanning. */
    MoveTags tags;
    if (present) {
        QuadBoard q;
        quad_of_perft(p, &q);
        parents[lid] = q;
        if (share) {
            ChildShare sh;
            share_children(&q, us, &t, &sh, &tags);
            shares[lid] = sh;
        } else if (!quad_rooks_only(&q, us)) {
            *minors = 1; /* any lane that sees one: the same value from every writer */
        }
    }
    MoveCursor listed = list_parent(present, p, &t, list, share ? &tags : 0);
    u64 classes = share ? sort_children(list, listed) : listed.front;
    parent_weights[lid] = w;
    u64 totals;
    u64 offs = group_scan(scan, classes, &totals);
    /* The group's children of class CHILD_SHARES_ALL come first, then CHILD_SHARES_KING's,
     * then CHILD_SHARES_NONE's; within each, this thread's begin at its offset among the class
     * (sort_children packs the counts). Without `share` the counts of the first two are
     * constants 0, and the shared count's code drops out of that kernel. */
    u32 mask = (1u << 21) - 1u;
    u32 all = share ? (u32)(totals >> 21) & mask : 0u, king = share ? (u32)(totals >> 42) : 0u;
    u32 none = (u32)totals & mask;
    u32 total = all + king + none;
    u32 mine_all = share ? (u32)(classes >> 21) & mask : 0u, mine_king = share ? (u32)(classes >> 42) : 0u;
    u32 mine_none = (u32)classes & mask;
    /* Where the moves of the last two classes begin: sharing, the lister put them at the back
     * (sort_children); else every move is at the front, and counts as CHILD_SHARES_NONE. */
    const Move *back = share ? list + MOVE_LIST_SIZE - mine_king - mine_none : list;
    /* Read after group_scan's barriers. Without `share` a group whose parents hold no knight,
     * bishop or queen, nor can promote to one, counts with the copy of the count that has
     * none: the choice is the group's, so no warp splits between the two. */
    int rooks_only = !share && *minors == 0;
    u64 nodes = 0;
    for (u32 window = 0; window < total; window += STAGE_CAP) {
        stage_window(list, mine_all, (u32)(offs >> 21) & mask, window, moves, owner);
        stage_window(back, mine_king, all + (u32)(offs >> 42), window, moves, owner);
        stage_window(back + mine_king, mine_none, all + king + ((u32)offs & mask), window, moves, owner);
        BARRIER();
        u32 m = total - window < STAGE_CAP ? total - window : STAGE_CAP;
        for (u32 k = lid; k < m; k += SCAN_GROUP) {
            u32 o = owner[k];
            u32 g = window + k;
            QuadBoard c = parents[o];
            make_quad_move(&c, moves[k], us, &t);
            u32 count = g < all + king ? count_quad_moves_shared(&c, &t, us ^ 1u, shares + o, g < all)
                                       : rooks_only ? count_quad_moves(&c, &t, us ^ 1u, 1)
                                                    : count_quad_moves(&c, &t, us ^ 1u, 0);
            nodes += parent_weights[o] * count;
        }
        BARRIER();
    }
    group_sum(scan, nodes, group_sums);
}

/* perft_staged2 under positions with white (_white) or black (_black) to move, sharing a
 * parent's work with its children (_shared_) or not. */
#define STAGED2_KERNEL(name, us, share)                                                            \
    KERNEL void LAUNCH_BOUNDS(SCAN_GROUP, TAIL_BLOCKS)                                             \
        name(GLOBAL u64 *entries, const GLOBAL u64 *weights, u32 source, u32 n,                    \
             const GLOBAL u64 *lookup_params, const GLOBAL u64 *lookup_attacks, GLOBAL u64 *group_sums) { \
        LOCAL QuadBoard parents[SCAN_GROUP];                                                       \
        LOCAL u64 parent_weights[SCAN_GROUP];                                                      \
        LOCAL ChildShare shares[SCAN_GROUP];                                                       \
        LOCAL u64 scan[SCAN_GROUP];                                                                \
        LOCAL u16 moves[STAGE_CAP];                                                                \
        LOCAL u8 owner[STAGE_CAP];                                                                 \
        LOCAL u64 params[LOOKUP_WORDS];                                                            \
        LOCAL u32 minors;                                                                          \
        staged2(entries, weights, source, n, lookup_params, lookup_attacks, group_sums, parents,   \
                parent_weights, shares, scan, moves, owner, params, &minors, us, share);          \
    }
STAGED2_KERNEL(perft_staged2_white, 0u, 0)
STAGED2_KERNEL(perft_staged2_black, 1u, 0)
STAGED2_KERNEL(perft_staged2_shared_white, 0u, 1)
STAGED2_KERNEL(perft_staged2_shared_black, 1u, 1)

DEVICE_FN u64 perft2(const Board *b) {
    Move list[MOVE_LIST_SIZE];
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
    Move list[MOVE_LIST_SIZE];
    u32 count = gen_moves(b, list);
    u64 nodes = 0;
    for (u32 k = 0; k < count; k++) {
        Board c = *b;
        make_move(&c, list[k]);
        nodes += perft2(&c);
    }
    return nodes;
}

/* A 64-bit mixer (splitmix64's finaliser), for perft_dedup.cl's hashes. */
DEVICE_FN u64 mix64(u64 z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
    return z ^ (z >> 31);
}

DEVICE_FN u64 perft_tail(const GLOBAL PerftBoard *p, u32 depth) {
    Board b;
    unpack_perft(*p, &b);
    /* `depth` is the same for every thread: no divergence. */
    if (depth == 1) return count_moves(&b);
    if (depth == 2) return perft2(&b);
    return perft3(&b);
}

/* The last `depth` plies (1 to 3) below each of positions 0 .. n - 1, depth-first, times the
 * position's weight when `weighted` (perft_dedup.cl's lists; 1 otherwise); one partial sum per
 * work-group (reduced in local memory), so the host adds a few numbers instead of one per
 * position. */
KERNEL void perft_leaf(const GLOBAL PerftBoard *boards, const GLOBAL u64 *weights, u32 weighted,
                       u32 n, u32 depth, GLOBAL u64 *group_sums) {
    LOCAL u64 sums[SCAN_GROUP];
    u32 i = GLOBAL_ID();
    u64 nodes = 0;
    if (i < n) {
        nodes = perft_tail(&boards[i], depth);
        if (weighted) nodes *= weights[i];
    }
    group_sum(sums, nodes, group_sums);
}
