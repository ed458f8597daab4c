/* search_split.h: Young Brothers Wait (MODE_YBWC), work handed out through split points rather
 * than found through the shared table. Part of the search module, after search_table.h (the
 * state machine in search.cl drives it).
 *
 * Worker 0 searches the root alone; the other workers start idle. A worker that has searched the
 * first move of a node outside the quiescence search (and the PV, unless SPLIT_PV), at depth
 * SPLIT_MIN_DEPTH or more, without a cutoff, while some worker is idle, publishes the node as a
 * split point: its board, frame, path keys and sorted move list, copied to global memory. From
 * then on it takes the node's moves from the split point's counter, and so do the helpers that
 * join it: an idle worker picks the announced split point nearest the root, copies it into its
 * own stack and searches the moves it takes as if the node were its own, returning to the split
 * point after each. At a PV node a move above alpha (below beta) raises the split point's alpha
 * and leaves its line there (split_merge). A cutoff (at a null-window node, any move above
 * alpha) stops the split point: the workers below it see the stop at their next node entry, up
 * their chain of enclosing split points, and give their subtrees up. When the moves run out the
 * owner waits until the helpers have left, closes the split point and takes their best value,
 * move and line as its own.
 *
 * Only lane 0 calls these functions; what they return reaches the other lanes through the
 * Broadcast (search.cl's uniform control rule). Fields other workers change are read through
 * volatile pointers: their copies in this multiprocessor's L1 may be stale. */

/* The shallowest depth at which a node may be split. Time to depth 13 (bench x16, H100,
 * eighteenth session) at 132 workers: 1: 4.20 s, 2: 3.53 to 3.73 s, 3: 4.30 s, 4: 5.28 s,
 * 6: 9.50 s; at 528: 2: 4.56 s, 4: 5.37 s, 6: 8.24 s. */
#ifndef SPLIT_MIN_DEPTH
#define SPLIT_MIN_DEPTH 2
#endif
/* Whether PV nodes (the root among them) are split too (1), their moves after the first searched
 * with the null window of the split point's alpha, raised by whichever worker beats it, and
 * re-searched by the worker that found one above it; or only nodes outside the PV (0). On PoCL
 * (bench x8 at depth 9, 2 to 8 workers, two runs each; seventeenth session) the workers searched
 * 37 to 76% more nodes than one worker with 1, 0 to 15% more with 0 (ABDADA over RMO: 50 to
 * 88%): splitting the PV hands out more work, and more of it is wasted. Which reaches a depth
 * sooner is for the GPU to tell. */
#ifndef SPLIT_PV
#define SPLIT_PV 1
#endif
/* How often a worker reads the stop words of the split points above it, and the idle count:
 * at one node entry in SPLIT_CHECK_EVERY (a power of two). The chain is walked with dependent
 * global loads, a few hundred cycles each against a node's 9 us or so on the H100 (sixteenth
 * session), and a stop seen a few nodes late only costs those nodes: a worker that misses one
 * finishes its move, and the next take sees it. */
#ifndef SPLIT_CHECK_EVERY
#define SPLIT_CHECK_EVERY 4u
#endif
#define SPLIT_NONE 0xffffffffu
/* `workers`: helpers may join while this bit is set; the rest counts the helpers at work. 0 is
 * closed, so a pool of zeroes is all closed. */
#define SPLIT_OPEN 0x80000000u
/* `stop`: a helper's move cut the node (its move and value are in cut_move and cut_value), or
 * the owner stopped it (its own move cut, or it gave the node up). */
#define SPLIT_CUT_BY_HELPER 1u
#define SPLIT_STOPPED_BY_OWNER 2u
/* What a take returns besides a list index. */
#define TAKE_NONE 0xfffffffeu /* no move left */
#define TAKE_STOP 0xfffffffdu /* the split point was stopped */
/* WorkerStack.split_at: the split point this worker helps at (its own are slot + 1). */
#define SPLIT_AT_HELPING 255u

typedef struct {
    u64 keys[GPU_MAX_PLY]; /* the path's keys, root to the split node, for repetitions */
    u32 moves[MAX_MOVES];  /* the node's sorted list */
    Board board;
    Frame frame;           /* the owner's frame when it published the node */
    i32 grandparent_eval;  /* the static evaluation one ply up (the children's `improving`) */
    u32 ply;
    u32 parent;            /* the split point enclosing this one in its owner's search */
    u32 next;              /* the next list index to take */
    u32 workers;           /* SPLIT_OPEN | helpers at work, or 0 */
    u32 stop;              /* 0, SPLIT_CUT_BY_HELPER or SPLIT_STOPPED_BY_OWNER */
    i32 best;              /* the best value so far (the owner's when it published) */
    u32 cut_move;
    i32 cut_value;
    /* At a PV node, changed under `lock` (split_merge): the best move, alpha (the window the
     * next moves taken are searched with) and the principal variation. */
    u32 lock;
    i32 alpha;
    u32 best_move;
    u32 pv_len;
    u16 pv[GPU_MAX_PLY];
} SplitPoint;

/* `announce`: word 0 counts the idle workers; word 1 + i announces split point i (worker w's
 * are w * SPLITS_PER_WORKER to w * SPLITS_PER_WORKER + 3): 0, or the node's ply + 1 in the low
 * byte and the owner's publication count above it (a helper that found the point exhausted
 * clears the word it read, not a later publication of the same slot). */
#define ANNOUNCE_IDLE 0u

DEVICE_FN u32 split_read(const GLOBAL u32 *p) { return *(volatile const GLOBAL u32 *)p; }

/* A round of an idle helper or a waiting owner (`spins` before it) counts towards the launch's
 * slice as a node does (CONTROL_SLICE): the workers' count, eight rounds added at once. Hundreds
 * of waiting warps adding one each round would crowd the atomic that every working warp adds its
 * nodes to. */
DEVICE_FN u32 split_slice_round(GLOBAL u32 *control, u32 spins) {
    if ((spins & 7u) == 7u) return ATOMIC_ADD_U32(&control[CONTROL_SLICE], 8u);
    return split_read(&control[CONTROL_SLICE]);
}

/* Joins split point `sp` if it is open: 1 if joined. */
DEVICE_FN u32 split_join(GLOBAL SplitPoint *sp) {
    u32 old = split_read(&sp->workers);
    for (u32 tries = 0; tries < 32u; tries++) {
        if (!(old & SPLIT_OPEN) || split_read(&sp->stop)) return 0;
        u32 seen = ATOMIC_CAS_U32(&sp->workers, old, old + 1u);
        if (seen == old) {
            MEMORY_FENCE();
            return 1;
        }
        old = seen;
    }
    return 0;
}

/* Leaves a split point joined: what this worker wrote to it is visible before the owner can
 * close it. */
DEVICE_FN void split_leave(GLOBAL SplitPoint *sp) {
    MEMORY_FENCE();
    ATOMIC_ADD_U32(&sp->workers, 0xffffffffu);
}

/* The owner closes its split point once no helper is at work on it: 1 if closed. */
DEVICE_FN u32 split_close(GLOBAL SplitPoint *sp) {
    u32 closed = ATOMIC_CAS_U32(&sp->workers, SPLIT_OPEN, 0u) == SPLIT_OPEN;
    if (closed) MEMORY_FENCE();
    return closed;
}

/* The next move of a split point: a list index, TAKE_NONE or TAKE_STOP. */
DEVICE_FN u32 split_take(GLOBAL SplitPoint *sp, u32 n_moves) {
    if (split_read(&sp->stop)) return TAKE_STOP;
    u32 i = ATOMIC_ADD_U32(&sp->next, 1u);
    return i < n_moves ? i : TAKE_NONE;
}

/* A helper's move cut the node: the first to say so leaves its move and value. */
DEVICE_FN void split_cut(GLOBAL SplitPoint *sp, u32 move, i32 value) {
    if (ATOMIC_CAS_U32(&sp->stop, 0u, SPLIT_CUT_BY_HELPER) == 0u) {
        sp->cut_move = move;
        sp->cut_value = value;
    }
}

/* The owner gives split point x up (it is leaving the node for one above): its helpers leave
 * at their next node, and no one else joins. It is closed later, when they have left. */
DEVICE_FN void split_give_up(GLOBAL SplitPoint *splits, GLOBAL u32 *announce, u32 x) {
    ATOMIC_CAS_U32(&splits[x].stop, 0u, SPLIT_STOPPED_BY_OWNER);
    *(volatile GLOBAL u32 *)&announce[1u + x] = 0u;
}

/* A move of a PV split point searched to value v above alpha (below beta), with its line
 * (`line`, `len` moves, the move first): the split point's best if it beats it. */
DEVICE_FN void split_merge(GLOBAL SplitPoint *sp, u32 move, i32 v, const GLOBAL u16 *line, u32 len) {
    while (ATOMIC_CAS_U32(&sp->lock, 0u, 1u) != 0u) {
    }
    MEMORY_FENCE();
    if (v > (i32)split_read((const GLOBAL u32 *)&sp->best)) {
        sp->best = v;
        sp->best_move = move;
        if (v > sp->alpha) sp->alpha = v;
        for (u32 i = 0; i < len; i++) sp->pv[i] = line[i];
        sp->pv_len = len;
    }
    MEMORY_FENCE();
    ATOMIC_CAS_U32(&sp->lock, 1u, 0u);
}

/* The innermost stopped split point of a chain (from the innermost, up the parents), or
 * SPLIT_NONE. The walk ends there: a stopped split point may be closed by now, and its slot
 * published again for another node, so its parent is no longer certain (an open one's is: a
 * split point closes only after those below it have). A worker that gives an inner one up and
 * goes on finds an outer one stopped at its next node entry. */
DEVICE_FN u32 split_stopped_in_chain(const GLOBAL SplitPoint *splits, u32 chain) {
    for (u32 i = 0; chain != SPLIT_NONE && i < GPU_MAX_PLY; i++) {
        const GLOBAL SplitPoint *sp = splits + chain;
        if (split_read(&sp->stop)) return chain;
        chain = split_read(&sp->parent);
    }
    return SPLIT_NONE;
}

/* Every lane: the announced split point nearest the root among those lane looks at (every
 * WORKER_LANES-th, from its own), as (ply + 1) << 24 | index, or 0xffffffff. Other workers'
 * only; the lanes' answers are reduced by the caller. */
DEVICE_FN u32 split_nearest_announced(const GLOBAL u32 *announce, u32 points, u32 lane, u32 worker) {
    u32 best = 0xffffffffu;
    for (u32 i = lane; i < points; i += WORKER_LANES) {
        u32 word = split_read(&announce[1u + i]);
        if (word == 0u || i / SPLITS_PER_WORKER == worker) continue;
        u32 k = ((word & 255u) << 24) | i;
        best = k < best ? k : best;
    }
    return best;
}
