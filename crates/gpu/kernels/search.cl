/* search.cl: the GPU search. One worker is one work-group of WORKER_LANES (32) work-items, the
 * lanes of one warp, cooperating on one node at a time: move generation (one piece per lane, a
 * prefix sum placing each lane's moves), move ordering (each lane scores its own moves, then a
 * rank sort), and the evaluation (eval.h). The alpha-beta itself is iterative: an explicit stack
 * of frames in local (shared) memory, walked by a state machine with the same numbered steps as
 * crates/search-cpu/src/pvs.rs.
 *
 * Needs, before it: board.h, movegen.h, line_attacks.h (whose table the host passes as `lines`),
 * the generated tables (ZOBRIST_*, LMR, search constants, evaluation weights), eval.h, see.h,
 * gives_check.h, and the search's own parts, in this order: search_state.h (frames, table
 * entries, what the host shares, the worker's stack, the ABDADA knobs), search_position.h (keys
 * and position tests), search_moves.h (generation, ordering, pruning test, history),
 * search_table.h (the table, repetitions, ETC's test) and search_split.h (YBWC's split points).
 * This file is the state machine and the kernel. Kernel knobs are `#ifndef` defaults in these files.
 *
 * # Uniform control
 * Every lane runs the same control code on the same values: the frame being searched, the board,
 * the key are private copies, identical in every lane, so branches never diverge and every
 * BARRIER() is reached by the whole work-group. Shared state follows one rule, so that it is also
 * correct where the lanes of a group run one after another between barriers (PoCL on a CPU):
 * only lane 0 writes it, between two barriers, and the others read it after the second one.
 * Values read from global memory that other workers change (the transposition table, the flags)
 * are read by lane 0 and broadcast the same way, so every lane sees the same value.
 *
 * # Slices
 * A launch runs the workers for `slice_nodes` nodes each (on average when there are several:
 * see CONTROL_SLICE); a worker then copies its stack to global memory and the next launch
 * resumes it. The host looks at the clock and the stop flag
 * between launches: no host-device traffic during a launch, kernels short enough for any driver
 * watchdog, and the same code path on every backend. */

/* YBWC's split points (search_split.h) are compiled in only where the host asks for them
 * (MODE_YBWC): the other modes keep the smaller kernel (7,456 instructions for sm_90 without
 * them, 10,600 with). */
#ifndef YBWC
#define YBWC 0
#endif
/* A node that ends on its static evaluation keeps it in the table where the table had nothing,
 * as a lower bound at depth 0 (sound for quiescence, whose value is at least the stand pat):
 * 1, quiescence's stand pat; 2 (the default), reverse futility's cutoffs too. Dropped, it was
 * evaluated again by the next iteration's depth-1 node on that position and by every other
 * worker's visit. One worker's tree is the same (a later visit ends on the entry with the same
 * value, or takes the evaluation from it), 0.8% faster; 264 workers 3% more nodes a second and
 * 4-9% less time to depths 13 and 14, on a warm table 0.6 plies deeper from move 41 on
 * (forty-fourth session, docs/PERFORMANCE.md). The CPU search does not (yet). */
#ifndef STORE_EVAL
#define STORE_EVAL 2
#endif
/* 1: a null move's cutoff keeps its value in the table, a lower bound at the node's depth (no
 * move), as a cutoff by a move does; otherwise the next visit to the position searches the null
 * move again. 264 workers, bench x8 to depth 17: time -4.3% [-7.4, -1.0], tree -4.2% (seventy-
 * second session, docs/PERFORMANCE.md). Off: GPU against GPU at 3 s + 0.03 s it searched deeper
 * and scored -21.6 [-63.3, +19.6] in 113 games, its moves no better judged (seventy-third,
 * docs/STRENGTH.md). The CPU search does not store them either. */
#ifndef NULL_STORE
#define NULL_STORE 0
#endif
/* N > 0: a worker reports itself broken at its Nth node of an iteration (STATUS_BROKEN), for the
 * tests of what the host does when the kernel fails; never in a real build. */
#ifndef FAULT_AFTER_NODES
#define FAULT_AFTER_NODES 0
#endif
/* 1: razoring, as the CPU search's step 7. */
#ifndef RAZOR
#define RAZOR 1
#endif

/* ---- The search --------------------------------------------------------------------------------
 * States of the machine. */
#define STATE_ENTER 0u   /* a new node: frame, board and key set, the table probed */
#define STATE_EVAL 1u    /* the static evaluation is in `eval_result` */
#define STATE_MOVES 2u   /* start on the moves: the table's first, or generate them all */
#define STATE_NEXT 3u    /* try the next move */
#define STATE_RETURN 4u  /* the node is done with value `ret` */
#define STATE_IDLE 5u    /* YBWC: a helper looking for a split point to join */
#define STATE_SPLIT_END 6u /* YBWC: an owner closing its split point, its moves all taken */

/* What the next cooperative step of the loop is. */
#define NEED_NONE 0u
#define NEED_SYNC 1u     /* write the shared stack, probe the table, read the flags */
#define NEED_EVAL 2u
#define NEED_GEN 3u
#define NEED_SCAN 4u     /* step 11 for the moves ahead, one per lane: the next one to search */
#define NEED_ETC 5u      /* the children's table entries, one per lane: does one cut the node? */
/* YBWC (search_split.h): lane 0 works on split points between two barriers. */
#define NEED_PUBLISH 6u  /* make this node a split point */
#define NEED_TAKE 7u     /* take the next move of this ply's split point */
#define NEED_CLOSE 8u    /* close this ply's own split point if no helper is left */
#define NEED_FIND 9u     /* look for a split point to join (an idle helper) */
#define NEED_ADOPT 10u   /* copy the split point joined into the stack */
#define NEED_LEAVE 11u   /* leave the split point helped at (LEAVE_*) */
#define NEED_UNWIND 12u  /* give up the own split points below ply `unwind_to` */
#define NEED_MERGE 13u   /* a PV split point's move raised alpha: its value and line to the split point */

#define LEAVE_DONE 0u    /* its moves ran out: the best value goes to the split point */
#define LEAVE_CUT 1u     /* a move cut it: the move and value go to the split point */
#define LEAVE_STOPPED 2u /* it was stopped: nothing to give */

/* Whether this worker's launch is over, having entered `own` nodes (and with YBWC waited or
 * looked for work as many rounds) of its share, the workers together `used`. */
DEVICE_FN u32 slice_is_over(u32 own, const GLOBAL SearchParams *params, u32 used) {
    u32 share = params->slice_nodes;
    return params->workers == 1 ? own >= share : (used >= share * params->workers && 4u * own >= share) || own >= 4u * share;
}

/* searchmoves and MultiPV (the host names the root moves to search): whether root move `m` is
 * one of them. */
DEVICE_FN u32 root_move_allowed(const GLOBAL SearchParams *params, u32 m) {
    if (params->root_move_count == 0u) return 1;
    NO_UNROLL for (u32 i = 0; i < params->root_move_count; i++)
        if (params->root_moves[i] == (u16)m) return 1;
    return 0;
}

/* Drops from the root's sorted list the moves the host did not name, keeping the order; returns
 * how many are left. Every lane calls it, with the list it just generated. */
DEVICE_FN u32 root_list_filter(const GLOBAL SearchParams *params, GLOBAL u32 *list, u32 n, u32 lane) {
    u32 kept = 0;
    NO_UNROLL for (u32 i = 0; i < n; i++) kept += root_move_allowed(params, list[i] & 0xffffu);
    BARRIER();
    if (lane == 0) {
        u32 k = 0;
        NO_UNROLL for (u32 i = 0; i < n; i++) {
            u32 entry = list[i];
            if (root_move_allowed(params, entry & 0xffffu)) list[k++] = entry;
        }
    }
    BARRIER();
    return kept;
}

/* The null move's reduction (the CPU search's): deeper nodes and evaluations further above beta
 * reduce more. */
DEVICE_FN i32 null_reduction(i32 depth, i32 eval, i32 beta) {
    i32 extra = (eval - beta) / 200;
    return NMP_BASE + depth / NMP_DEPTH_DIV + (extra < 3 ? extra : 3);
}

DEVICE_FN Frame child_frame(i32 alpha, i32 beta, i32 depth, u32 flags, u32 halfmove) {
    Frame c;
    c.alpha = alpha;
    c.beta = beta;
    c.depth = depth;
    c.best = -INF;
    c.alpha_orig = alpha;
    c.static_eval = -INF;
    c.best_move = 0;
    c.tt_move = 0;
    c.n_moves = 0;
    c.next = 0;
    c.legal = 0;
    c.flags = flags;
    c.move = 0;
    c.step = STEP_FULL;
    c.child_depth = 0;
    c.halfmove = halfmove;
    c.pv_len = 0;
    c.quiets = 0;
    c.deferred_count = 0;
    c.deferred_done = 0;
    c.deferred = 0;
#if MAX_DEFERRED > 8
    c.deferred_more = 0;
#endif
    return c;
}

/* Helpers on the same multiprocessor share their noise (the seed by SM_ID(), not by worker), so
 * that they order their moves alike, as ABDADA alone's workers all do, while the multiprocessors
 * keep RMO's diversity between them. Workers on one SM that follow the same paths run the same
 * code at once, which its instruction cache then serves to all of them (it holds about one
 * worker's node, docs/DESIGN.md). With 528 workers the stalls waiting for an instruction fell
 * from 54% to 16% (Nsight Compute; the L1 hit rate moved from 94% to 96%), the finishers walked
 * at 106 K nodes/s against 69 K with a seed each, one worker's speed alone; time to depth 15 fell
 * 10% (264 workers) to 17% (1,056), and the games came out even (docs/PERFORMANCE.md,
 * docs/STRENGTH.md; thirtieth session). The seed is taken at each launch: a worker placed on
 * another SM by a later launch orders its new nodes by that SM's noise. SM_ID() is the worker's
 * own index where the multiprocessor is not known (PoCL), where this is the old rule. A control,
 * the same noise for groups of four consecutive workers (which run on four different SMs), was no
 * faster, and was removed after the measurement: it is where the paths run that matters.
 * RMO alone (`GPU Parallel rmo`) has no put-off moves to part a multiprocessor's helpers, yet a
 * seed each there took 14% more time to depth 14 than a seed by SM (264 workers, thirty-first
 * session), so the rule holds in every mode.
 * 0: a seed each (the default until the thirtieth session). */
#ifndef NOISE_BY_SM
#define NOISE_BY_SM 1
#endif

/* An experiment (thirty-first session; 8 and 32 orders reached depth 15 no sooner than the
 * default on the H100 in the thirty-fifth session, docs/PERFORMANCE.md): fewer noise orders than
 * multiprocessors. With NOISE_SEEDS k > 0 the seed is taken from the SM's number modulo k (or the
 * worker's, with NOISE_BY_SM 0), so k orders are shared among all helpers: k = 1 gives every
 * helper the same noisy order, between ABDADA alone (no noise, slower to a depth) and the
 * default's 132. By SM the helpers' first finisher also brought back better moves at depth 11
 * than with a seed each (docs/STRENGTH.md), so the number of orders may matter as well as where
 * they run. 0: no folding (the default). */
#ifndef NOISE_SEEDS
#define NOISE_SEEDS 0u
#endif

/* An experiment (thirty-fifth session; off, since on the H100 it scored -32 [-88, +22] Elo in 43
 * games against the default, thirty-sixth session): a helper orders its quiet
 * moves with noise only at nodes of at least NOISE_MIN_DEPTH plies to go, and below that as
 * worker 0 does. The first helper to finish an iteration brings back a worse result than worker
 * 0's search of the same depth, because it reduced and pruned by its noisy order (twenty-seventh
 * session); taking the noise out of the pruning everywhere (CLEAN_RANK) gave better moves at a
 * depth and cost 55% more nodes. Most pruning by move count and most reductions are near the
 * leaves, while the helpers' diversity (ABDADA spreads them anyway) matters most near the root:
 * clean near the leaves and noisy above is between the two. 0: noise at every node (the
 * default; the test compiled out). */
#ifndef NOISE_MIN_DEPTH
#define NOISE_MIN_DEPTH 0
#endif

/* Whether a helper orders its quiet moves with noise at expected cut nodes too (1, the rule until
 * the eighty-first session) or as worker 0 does there (0, the default). Where neither engine
 * expected the reply, 264 workers' tree is about 11.5 times one worker's, where both did about 2.5
 * times (replays, docs/PERFORMANCE.md). On a cold tree the helpers' noisy orders at a cut node
 * start different quiet moves, and every refutation but the first found is searched for nothing;
 * ordered alike they go into the same child and spread over that all-node's moves, where every
 * move is searched anyway and the noise still spreads them. Measured on the H200 (264 workers,
 * replays of twelve games, eighty-first session): nodes to a depth where neither had expected the
 * reply 0.91 and 0.85 times the old rule's (two runs; the old rule against itself a call apart
 * 1.01), +0.19/-0.02 and +0.31/+0.16 plies; in games level with it (+6 Elo +-64 in 54 GPU
 * against GPU; against 16 threads -2.6 points a game +-20 on 19 paired openings). */
#ifndef NOISE_AT_CUT
#define NOISE_AT_CUT 0
#endif

/* The search's own register budget on CUDA. NVRTC compiles every module with a cap of 128
 * registers a thread (set for GPU perft's occupancy); held to it, this kernel spilled (648 bytes
 * of stack against 536), and one worker ran 11% slower. Bounds of 12 workers per multiprocessor
 * allow 170 registers: the kernel takes 164, all it asks for uncapped (166), while the default
 * 264 workers (two per SM on an H100) stay far below. A larger Workers still runs, in two waves
 * where more than 12 per SM are launched. OpenCL has no per-kernel bound (NVIDIA's driver does
 * not cap this program). */
#ifndef SEARCH_BLOCKS_PER_SM
#define SEARCH_BLOCKS_PER_SM 12
#endif
KERNEL void LAUNCH_BOUNDS(WORKER_LANES, SEARCH_BLOCKS_PER_SM)
    search_slice(const GLOBAL SearchParams *params, GLOBAL u32 *saved, GLOBAL WorkerResult *results,
                 GLOBAL u32 *lists, GLOBAL i32 *histories, GLOBAL u16 *pvs, GLOBAL TTEntry *tt,
                 const GLOBAL u64 *game_keys, GLOBAL u32 *control, GLOBAL u64 *busy, const GLOBAL u64 *lines,
                 GLOBAL SplitPoint *splits, GLOBAL u32 *announce) {
    LOCAL WorkerStack s;
    LOCAL u32 gen_keys[MAX_MOVES];
    LOCAL u32 lane_counts[WORKER_LANES];
    LOCAL i32 eval_scratch[EVAL_SCRATCH_INTS];
    LOCAL Broadcast bc;
    LOCAL i32 etc_values[WORKER_LANES]; /* NEED_ETC: lane i's child's bound, as the node's value */
#if DIAG_CYCLES
    LOCAL u64 diag_cycles[2 * DIAG_PARTS]; /* lane 0's: cycles and turns by part (search_state.h) */
#endif

    const u32 lane = LOCAL_ID();
    const u32 worker = GROUP_ID();
    const u32 log2 = params->tt_buckets_log2;
    const u32 generation = params->generation;
    GLOBAL WorkerResult *result = results + worker;
    GLOBAL u32 *my_lists = lists + (u64)worker * GPU_MAX_PLY * MAX_MOVES;
    GLOBAL i32 *history = histories + (u64)(worker / HISTORY_SHARE) * HISTORY_WORDS;
    GLOBAL u16 *pv = pvs + (u64)worker * GPU_MAX_PLY * GPU_MAX_PLY;
    GLOBAL u32 *words_saved = saved + (u64)worker * STACK_STRIDE_WORDS;
    LOCAL_PTR u32 *words_local = (LOCAL_PTR u32 *)&s;
    const u32 stack_words = (u32)(sizeof(WorkerStack) / 4);

    /* Helpers that search the iteration deeper: Lazy SMP's every other helper one ply; under the
     * other modes but YBWC (whose helpers search only the split points handed to them) every
     * DEEPER_HELPERS-th helper 1 to DEEPER_SPREAD plies (search_state.h). Neither goes past the
     * search's last depth (the host's depth_limit, never below the iteration's). RMO: helpers
     * perturb their quiet moves. */
    i32 root_depth = params->depth;
    u32 randomize_seed = 0;
    const u32 clean_every = clean_spacing(params->workers); /* FINISH_CLEAN's (search_moves.h) */
    if (worker > 0) {
        if (params->mode == MODE_LAZY) root_depth += (i32)(worker & 1u);
#if DEEPER_HELPERS
        else if (params->mode != MODE_YBWC && worker % DEEPER_HELPERS == DEEPER_HELPERS - 1)
            root_depth += 1 + (i32)((worker / DEEPER_HELPERS) % DEEPER_SPREAD);
#endif
#if CLEAN_DEEPER
        /* Under FINISH_CLEAN every CLEAN_DEEPER-th clean helper one ply deeper (search_moves.h). */
        if (params->finisher == FINISH_CLEAN && params->mode != MODE_YBWC && params->mode != MODE_LAZY &&
            worker % clean_every == 0u && (worker / clean_every) % CLEAN_DEEPER == CLEAN_DEEPER - 1u)
            root_depth += 1;
#endif
        if (root_depth > params->depth_limit) root_depth = params->depth_limit;
    }
#if NOISE_BY_SM
    u32 noise_id = SM_ID();
#else
    u32 noise_id = worker;
#endif
#if NOISE_SEEDS
    noise_id %= NOISE_SEEDS;
#endif
    if ((params->mode == MODE_RMO || params->mode == MODE_ABDADA_RMO) && worker > 0)
        randomize_seed = (noise_id + 1u) * 0x9E3779B9u;
    /* How a helper's quiet moves are ordered (OrderHints.noise): at random under RMO alone. */
    const u32 rmo_noise = params->mode == MODE_RMO ? 0u : RMO_NOISE;
    /* `GPU Finisher clean` (FINISH_CLEAN): only every clean_every-th helper is clean, orders as
     * worker 0 does and may end an iteration (search_moves.h); the others keep their noise and
     * only fill the table. Under the other finishers every worker is clean in this sense. */
    const u32 clean_worker = params->finisher != FINISH_CLEAN || worker % clean_every == 0u;
    if (params->finisher == FINISH_CLEAN && clean_worker) randomize_seed = 0u;
    /* A helper with noise prunes by move count (1, 3) and reduces (1, 2) by its moves' noise-free
     * places (CLEAN_RANK). */
    /* Tested by the preprocessor: OpenCL compilers warn of a constant operand of || or &&. */
#if CLEAN_RANK == 1 || CLEAN_RANK == 3
    const u32 by_clean_rank = randomize_seed != 0u;
#else
    const u32 by_clean_rank = 0u;
#endif
#if CLEAN_RANK == 1 || CLEAN_RANK == 2
    const u32 by_clean_order = randomize_seed != 0u;
#else
    const u32 by_clean_order = 0u;
#endif
    const u32 ybwc = YBWC && params->mode == MODE_YBWC;
    /* searchmoves or MultiPV: the host names the root's moves (root_list_filter). */
    const u32 root_limited = params->root_move_count != 0u;

    if (result->status != STATUS_RUNNING && !params->start) return;
#if SOLO_MAIN
    /* The workers that may end an iteration count themselves on their multiprocessor for the
     * launch; a helper beside one suspends (search_state.h). */
#if SOLO_MAIN == 2
    const u32 solo_self = worker == 0u || (params->finisher == FINISH_CLEAN && clean_worker);
#else
    const u32 solo_self = worker == 0u;
#endif
    GLOBAL u32 *solo_word = control + CONTROL_SOLO + SM_ID() % SOLO_SMS;
    if (solo_self && lane == 0) ATOMIC_ADD_U32(solo_word, 1u);
#endif

    /* A fresh start at the root, or the saved stack resumed. */
    u32 fresh = params->start != 0u;
#if HELPERS_KEEP
    /* A helper whose result ends no iteration (any under FINISH_MAIN, a noisy one under
     * FINISH_CLEAN; HELPERS_KEEP, search_state.h) deepens on its own and is not restarted by a
     * new iteration whose depth it has reached: it goes on (`kept`), its nodes counted from the
     * iteration's start. */
    const u32 keeps = worker > 0 && params->mode != MODE_YBWC &&
                      (params->finisher == FINISH_MAIN || !clean_worker);
    u32 kept = 0;
    u32 deepened = 0; /* restarted at the next depth in this launch: its counts go on */
    if (keeps && params->start == START_KEEP && result->status == STATUS_RUNNING &&
        ((const GLOBAL WorkerStack *)words_saved)->root_depth >= root_depth) {
        fresh = 0;
        kept = 1;
    }
#endif

    Frame f;
    Board cur;
    u64 key;
    u32 ply;
    u64 nodes_at_start;
#if HELPERS_KEEP
restart:
#endif
    if (fresh) {
        if (lane == 0) {
#if HELPERS_KEEP
            s.root_depth = root_depth;
#endif
            s.ply = 0;
            s.seldepth = 0;
#if HELPERS_KEEP
            if (!deepened)
#endif
            {
                s.nodes = 0;
                s.tt_cutoffs = 0;
                s.etc_cutoffs = 0;
            }
            if (FINISH_CHECKED_CODE) s.root_claim = 0;
#if NMP_VERIFY
            s.nmp_min_ply = 0;
#endif
            result->partial_move = 0;
        }
        /* Killers from an earlier iteration are as good a guess as any, but shared memory starts
         * with whatever the last work-group left: start from none, so a search is repeatable. */
        for (u32 i = lane; i < 2 * GPU_MAX_PLY; i += WORKER_LANES) s.killers[i] = 0;
#if YBWC
        for (u32 i = lane; i < GPU_MAX_PLY; i += WORKER_LANES) s.split_at[i] = 0;
#endif
        if (lane == 0) {
            lane_counts[0] = lane_counts[1] = 0;
#if YBWC
            s.split_busy = s.split_live = s.split_seq = 0;
            s.chain = s.help = SPLIT_NONE;
            s.resume = ybwc && worker > 0 ? STATE_IDLE : STATE_ENTER;
            bc.idle = 0; /* until a node entry reads it (SPLIT_CHECK_EVERY) */
            if (ybwc) {
                /* No helper can be on them: the host cleared the announcements. */
                for (u32 k = 0; k < SPLITS_PER_WORKER; k++)
                    *(volatile GLOBAL u32 *)&splits[worker * SPLITS_PER_WORKER + k].workers = 0u;
                if (worker > 0) ATOMIC_ADD_U32(&announce[ANNOUNCE_IDLE], 1u);
            }
#endif
        }
        BARRIER();
        ply = 0;
        unpack_value(params->root, &cur);
        key = params->root_key;
        f = child_frame(params->alpha, params->beta, root_depth, FLAG_PV, params->root_halfmove);
    } else {
        /* This copy and the one back at the end run once a launch: not unrolled (NO_UNROLL), they
         * take 30 instructions instead of 630 of the kernel's 8,056. No change of speed was
         * measured (H100, 1 to 528 workers, sixteenth session): they lay outside the hot loop. */
        NO_UNROLL for (u32 i = lane; i < stack_words; i += WORKER_LANES) words_local[i] = words_saved[i];
        if (lane == 0) {
            lane_counts[0] = lane_counts[1] = 0;
#if YBWC
            bc.idle = 0; /* until a node entry reads it (SPLIT_CHECK_EVERY) */
#endif
#if HELPERS_KEEP
            if (kept) {
                s.nodes = 0;
                s.tt_cutoffs = 0;
                s.etc_cutoffs = 0;
            }
#endif
        }
        BARRIER();
#if HELPERS_KEEP
        root_depth = s.root_depth;
#endif
        ply = s.ply;
        f = s.current;
        cur = s.boards[ply];
        key = s.keys[ply];
    }
#if HELPERS_KEEP
    if (!deepened)
#endif
        nodes_at_start = s.nodes;
    u64 nodes = s.nodes;
    u32 seldepth = s.seldepth;
#if NMP_VERIFY
    u32 nmp_min_ply = s.nmp_min_ply;
#endif

    /* Where the launch goes on: a new node's entry, a split node's next move (its owner taking or
     * waiting), or an idle helper's search for work. */
#if YBWC
    u32 state = s.resume;
    u32 need = state == STATE_ENTER ? NEED_SYNC : state == STATE_IDLE ? NEED_FIND : NEED_NONE;
#else
    u32 state = STATE_ENTER;
    u32 need = NEED_SYNC;
#endif
    /* YBWC: idle and waiting rounds, which count towards the slice as nodes do; a move index
     * taken from a split point (TAKE_NONE, TAKE_STOP) or SPLIT_NONE; the state to resume at;
     * what NEED_LEAVE, NEED_UNWIND and NEED_CLOSE are to do. */
    u32 spins = 0;
#if YBWC
    u32 taken = SPLIT_NONE, resume_at = STATE_ENTER;
    u32 leave_kind = LEAVE_STOPPED, leave_move = 0, unwind_to = 0, own_cut = 0;
    i32 leave_value = 0;
#endif
    u32 save_parent = 0; /* the sync writes the parent's frame (a push) */
    Frame parent;
    i32 ret = 0;
    i32 eval_result = 0;
    u32 child_pv_len = 0;
    u32 idle = 0, finished = 0, broken = 0;
    const u32 abdada = params->mode == MODE_ABDADA || params->mode == MODE_ABDADA_RMO;
    /* ABDADA: the node being entered may be put off if another worker is on it (a younger
     * brother, in the first pass over its parent's moves); the child returned put off. */
    u32 deferrable = 0, deferred_ret = 0;
    /* The votes of NEED_SCAN and NEED_ETC (lanes_voting) go to lane_counts[1]: what it read after
     * the last round. NEED_SCAN: the move at f.next was kept by the scan (step 11 need not test
     * it again). NEED_ETC: the lanes whose child cuts the node, from list index etc_first on. */
    u32 vote_seen = 0, scan_kept = 0;
    u32 etc_cuts = 0, etc_first = 0;
    u32 etc_again = 0; /* NEED_ETC: a later round of the node (SETTLE_AGAIN), which only settles */
#if DIAG_CYCLES
    if (lane == 0)
        for (u32 i = 0; i < 2 * DIAG_PARTS; i++) diag_cycles[i] = 0;
    u64 diag_at = 0;
    u32 diag_state = DIAG_PARTS; /* none yet */
#endif

    for (;;) {
#if DIAG_CYCLES
        /* The control part of the turn before ends here, every `continue` included. */
        u64 diag_now = CYCLES();
        if (lane == 0 && diag_state < DIAG_PARTS) {
            diag_cycles[2 * diag_state] += diag_now - diag_at;
            diag_cycles[2 * diag_state + 1]++;
        }
        u32 diag_need = need < DIAG_STATE_BASE ? need : DIAG_STATE_BASE - 1u;
        if ((need == NEED_GEN || need == NEED_EVAL) && ((f.flags & FLAG_QS) || f.depth <= 0))
            diag_need = need == NEED_GEN ? DIAG_NEED_GEN_QS : DIAG_NEED_EVAL_QS;
        diag_at = diag_now;
#endif
        /* ---- The cooperative part of the step ---- */
        if (need == NEED_SYNC) {
            BARRIER();
            if (lane == 0) {
                /* The entry's global reads go out together, before the table's bucket is compared:
                 * each waits at its first use, not one after another (one worker 0.8% faster with
                 * the bucket read whole, search_table.h; twenty-third session). */
                u32 done = ((volatile GLOBAL u32 *)control)[CONTROL_DONE];
                u32 used = params->workers > 1 ? ATOMIC_ADD_U32(&control[CONTROL_SLICE], 1u) : 0u;
                u32 watch = abdada && f.depth >= ABDADA_MIN_DEPTH;
                volatile GLOBAL u64 *slot = (volatile GLOBAL u64 *)busy + (key & (BUSY_ENTRIES - 1));
                u64 on_slot = watch && deferrable ? *slot : 0u;
                if (save_parent) s.frames[ply - 1] = parent;
                s.boards[ply] = cur;
                s.keys[ply] = key;
                u64 d = 0;
                bc.tt_hit = tt_probe(tt, log2, key, &d);
                bc.tt_data = d;
                bc.done = done >= FINISH_QUORUM;
#if SOLO_MAIN
                bc.solo_yield = !solo_self && *(volatile GLOBAL u32 *)solo_word != 0u;
#endif
                if (params->workers > 1) bc.slice_used = used;
                bc.busy = watch && deferrable && on_slot == key;
                if (watch && !bc.busy) *slot = key;
#if YBWC
                bc.abort = SPLIT_NONE;
                if (ybwc && (nodes & (SPLIT_CHECK_EVERY - 1u)) == 0u) {
                    bc.idle = split_read(&announce[ANNOUNCE_IDLE]);
                    bc.abort = split_stopped_in_chain(splits, s.chain);
                }
#endif
            }
            BARRIER();
            save_parent = 0;
        } else if (need == NEED_EVAL) {
            eval_result = evaluate(&cur, lines, lane, eval_scratch);
        } else if (need == NEED_GEN) {
            OrderHints hints;
            hints.tt_move = f.tt_move;
            hints.noise = rmo_noise;
            hints.killer1 = s.killers[2 * ply];
            hints.killer2 = s.killers[2 * ply + 1];
            u32 slot = counter_slot(&cur, ply > 0 ? s.frames[ply - 1].move : 0u);
            hints.counter = slot != COUNTER_NONE ? (u32)history[COUNTER_BASE + slot] : 0u;
            u32 qs = (f.flags & FLAG_QS) != 0;
            u32 rnd = randomize_seed ? randomize_seed ^ (u32)key : 0u;
#if NOISE_MIN_DEPTH
            if (f.depth < NOISE_MIN_DEPTH) rnd = 0u;
#endif
#if !NOISE_AT_CUT
            if (f.flags & FLAG_CUT) rnd = 0u;
#endif
            f.n_moves = gen_sorted(&cur, lines, lane, qs, &hints, history, rnd, gen_keys, lane_counts,
                                   (LOCAL_PTR u32 *)eval_scratch, my_lists + ply * MAX_MOVES);
            if (ply == 0 && root_limited)
                f.n_moves = root_list_filter(params, my_lists, f.n_moves, lane);
        } else if (need == NEED_ETC) {
            u32 j = f.next + lane, cuts = 0;
#if TT_SETTLE
            u32 settles = 0;
#endif
            i32 value = 0;
            if (j < f.n_moves) {
                Move mj = (Move)(my_lists[ply * MAX_MOVES + j] & 0xffffu);
                u32 moving = piece_type_on(&cur, bit(mj & 63u));
                Board child = cur;
                make_move_of(&child, mj, moving);
                u64 ck = key_after(&cur, &child, key, mj, moving), d = 0;
                tt_probe(tt, log2, ck, &d);
                /* A PV node's round (TT_SETTLE_PV) and a later round (SETTLE_AGAIN) only settle
                 * children: no cutoff in the PV, nor from a move's entry before the moves ahead
                 * of it were searched. */
                cuts = !etc_again && !(f.flags & FLAG_PV) &&
                       child_entry_cuts(&cur, &f, ply, mj, ck, d, &s, game_keys, params->history_len, &value);
#if TT_SETTLE
                u32 w = settle_word(d, ply + 1);
                settles = !cuts && f.n_moves <= SETTLE_SLOTS &&
                          child_entry_settles(&cur, &child, &f, ply, mj, ck, w, &s, game_keys, params->history_len);
                /* Seen by every lane at the move's turn: the vote's barriers come between. With
                 * KEEP_CHILDREN every child of a list short enough has its word and key kept, for
                 * the move step to take rather than find again (search_table.h). */
                u32 keep = KEEP_CHILDREN && f.n_moves <= KEEP_SLOTS;
                if (settles || keep)
                    my_lists[ply * MAX_MOVES + SETTLE_SLOTS + lane] = (settles ? w : 0u) |
                                                                      (keep ? SETTLE_KEPT : 0u) |
                                                                      (king_in_check(&child, lines) ? SETTLE_CHECK : 0u);
                if (keep) {
                    my_lists[ply * MAX_MOVES + KEEP_SLOTS + 2u * lane] = (u32)ck;
                    my_lists[ply * MAX_MOVES + KEEP_SLOTS + 2u * lane + 1u] = (u32)(ck >> 32);
                }
#endif
            }
            /* Read only right after this round; the node's children are entered (a sync, with its
             * barriers) before any other node's round writes them again. */
            if (cuts) etc_values[lane] = value;
            etc_cuts = lanes_voting(&lane_counts[1], &vote_seen, lane, cuts);
            etc_first = f.next;
#if TT_SETTLE
            f.settle = lanes_voting(&lane_counts[1], &vote_seen, lane, settles);
            f.settle_first = f.next;
#endif
        } else if (need == NEED_SCAN) {
            /* A move was just dropped (pruned, no check): lane i tests the move f.next + i, and
             * f.next moves on to the first one kept, 32 moves a round. */
            for (;;) {
                u32 j = f.next + lane, keep = 0;
                if (j < f.n_moves) {
                    u32 ej = my_lists[ply * MAX_MOVES + j];
                    Move mj = (Move)(ej & 0xffffu);
                    keep = !is_prunable(&cur, lines, &f, ply, mj, is_quiet(&cur, mj), by_clean_rank ? ej >> 24 : f.quiets) ||
                           move_gives_check(&cur, lines, mj);
                }
                u32 kept = lanes_voting(&lane_counts[1], &vote_seen, lane, keep);
                if (kept) {
                    f.next += CTZ32(kept);
                    scan_kept = 1;
                    break;
                }
                f.next = f.next + WORKER_LANES < f.n_moves ? f.next + WORKER_LANES : f.n_moves;
                if (f.next == f.n_moves) break;
            }
#if YBWC
        } else if (need >= NEED_PUBLISH) {
            /* The split points' steps (NEED_PUBLISH to NEED_MERGE), one branch with the same four
             * barriers for all of them, each step doing its part between them: the lanes
             * together, then lane 0 on the split point (its words are read and written by one
             * lane, atomically where other workers may race), then the lanes again. With a
             * branch and two to four barriers for each step, PoCL took 24 minutes to build the
             * YBWC kernel on a CPU, the rest of the kernel 2; this way, 6 (forty-seventh session).
             * Its compiler makes barriers under a branch unconditional by copying the code after
             * them, which seems to be what grew with the branches. */
            u32 slot = SPLIT_NONE, p = 0;
            GLOBAL SplitPoint *sp = splits;
            /* Part 1, the lanes: the announcements looked at together (FIND); the split point
             * joined copied into the stack up to its ply, word by word through volatile pointers,
             * since this multiprocessor's L1 may hold an earlier publication of the slot
             * (ADOPT). */
            if (need == NEED_FIND) {
                u32 k = split_nearest_announced(announce, params->workers * SPLITS_PER_WORKER, lane, worker);
                etc_values[lane] = (i32)k;
            } else if (need == NEED_ADOPT) {
                sp = splits + s.help;
                p = split_read(&sp->ply);
                const volatile GLOBAL u32 *from = (const volatile GLOBAL u32 *)sp->keys;
                LOCAL_PTR u32 *to = (LOCAL_PTR u32 *)s.keys;
                for (u32 i = lane; i < 2u * (p + 1u); i += WORKER_LANES) to[i] = from[i];
                from = (const volatile GLOBAL u32 *)&sp->frame;
                to = (LOCAL_PTR u32 *)&s.frames[p];
                for (u32 i = lane; i < (u32)(sizeof(Frame) / 4); i += WORKER_LANES) to[i] = from[i];
                from = (const volatile GLOBAL u32 *)&sp->board;
                to = (LOCAL_PTR u32 *)&s.boards[p];
                for (u32 i = lane; i < (u32)(sizeof(Board) / 4); i += WORKER_LANES) to[i] = from[i];
                for (u32 i = lane; i < GPU_MAX_PLY; i += WORKER_LANES) s.split_at[i] = 0;
                if (lane == 0 && p > 0)
                    s.frames[p - 1u].static_eval = (i32)split_read((const GLOBAL u32 *)&sp->grandparent_eval);
            }
            BARRIER();
            /* Part 2: lane 0 on the split point; ADOPT's and LEAVE's lanes on the stack. */
            if (need == NEED_TAKE) {
                if (lane == 0) {
                    u32 at = s.split_at[ply];
                    u32 x = at == SPLIT_AT_HELPING ? s.help : worker * SPLITS_PER_WORKER + at - 1u;
                    bc.take = split_take(splits + x, f.n_moves);
                    bc.split_alpha = (i32)split_read((const GLOBAL u32 *)&splits[x].alpha);
                }
            } else if (need == NEED_PUBLISH) {
                /* A free slot, closing those given up whose helpers have left. */
                if (lane == 0) {
                    u32 free_slot = SPLIT_NONE;
                    for (u32 k = 0; k < SPLITS_PER_WORKER; k++) {
                        u32 b = 1u << k;
                        if ((s.split_busy & ~s.split_live & b) && split_close(splits + worker * SPLITS_PER_WORKER + k))
                            s.split_busy &= ~b;
                        if (!(s.split_busy & b) && free_slot == SPLIT_NONE) free_slot = k;
                    }
                    bc.take = free_slot;
                }
            } else if (need == NEED_CLOSE) {
                if (lane == 0) {
                    u32 own = s.split_at[ply] - 1u, x = worker * SPLITS_PER_WORKER + own;
                    GLOBAL SplitPoint *closing = splits + x;
                    if (own_cut) ATOMIC_CAS_U32(&closing->stop, 0u, SPLIT_STOPPED_BY_OWNER);
                    bc.take = split_close(closing);
                    if (bc.take) {
                        bc.stop = split_read(&closing->stop);
                        bc.cut_move = split_read(&closing->cut_move);
                        bc.cut_value = (i32)split_read((const GLOBAL u32 *)&closing->cut_value);
                        bc.best = (i32)split_read((const GLOBAL u32 *)&closing->best);
                        bc.best_move = split_read(&closing->best_move);
                        bc.pv_len = split_read(&closing->pv_len);
                        if ((f.flags & FLAG_PV) && bc.stop != SPLIT_CUT_BY_HELPER && bc.best > f.best) {
                            /* A helper's line is the node's: copied while the slot is closed. */
                            const volatile GLOBAL u16 *from = (const volatile GLOBAL u16 *)closing->pv;
                            for (u32 i = 0; i < bc.pv_len; i++) pv[ply * GPU_MAX_PLY + i] = from[i];
                        }
                        *(volatile GLOBAL u32 *)&announce[1u + x] = 0u;
                        s.split_at[ply] = 0;
                        s.split_busy &= ~(1u << own);
                        s.split_live &= ~(1u << own);
                        s.chain = split_read(&closing->parent);
                    }
                    bc.done = ((volatile GLOBAL u32 *)control)[CONTROL_DONE];
                    bc.slice_used = split_slice_round(control, spins);
                }
            } else if (need == NEED_FIND) {
                /* Lane 0 joins the announced split point nearest the root. */
                if (lane == 0) {
                    u32 nearest = 0xffffffffu;
                    for (u32 i = 0; i < WORKER_LANES; i++) nearest = (u32)etc_values[i] < nearest ? (u32)etc_values[i] : nearest;
                    bc.take = TAKE_NONE;
                    if (nearest != 0xffffffffu) {
                        u32 x = nearest & 0xffffffu;
                        GLOBAL SplitPoint *joined = splits + x;
                        u32 word = split_read(&announce[1u + x]);
                        if (split_join(joined)) {
                            u32 t = split_take(joined, split_read(&joined->frame.n_moves));
                            if (t < TAKE_STOP) {
                                bc.take = t;
                                /* The window this first move is searched with, as NEED_TAKE reads
                                 * it for the next ones. (Left unset, the helper took whatever an
                                 * earlier take had left in shared memory, of another node or
                                 * launch, as its alpha: at a null-window node above beta, which
                                 * mate-distance pruning one ply down turned into a mate score. The
                                 * start position came out "mate in 1" at depth 15 on the H100,
                                 * eighteenth session.) */
                                bc.split_alpha = (i32)split_read((const GLOBAL u32 *)&joined->alpha);
                                s.help = x;
                                ATOMIC_ADD_U32(&announce[ANNOUNCE_IDLE], 0xffffffffu);
                            } else {
                                /* Nothing left to take: no one else need look at it. */
                                if (word != 0u) ATOMIC_CAS_U32(&announce[1u + x], word, 0u);
                                split_leave(joined);
                            }
                        } else if (word != 0u) {
                            ATOMIC_CAS_U32(&announce[1u + x], word, 0u); /* closed or stopped */
                        }
                    }
                    bc.done = ((volatile GLOBAL u32 *)control)[CONTROL_DONE];
                    bc.slice_used = split_slice_round(control, spins);
                }
            } else if (need == NEED_ADOPT) {
                u32 n = s.frames[p].n_moves;
                const volatile GLOBAL u32 *from = (const volatile GLOBAL u32 *)sp->moves;
                for (u32 i = lane; i < n; i += WORKER_LANES) my_lists[p * MAX_MOVES + i] = from[i];
                if (lane == 0) {
                    s.split_at[p] = SPLIT_AT_HELPING;
                    s.chain = s.help;
                    s.split_live = 0;
                }
            } else if (need == NEED_LEAVE) {
                if (lane == 0) {
                    /* Its own split points below are given up with it. */
                    for (u32 k = 0; k < SPLITS_PER_WORKER; k++)
                        if (s.split_live & (1u << k)) split_give_up(splits, announce, worker * SPLITS_PER_WORKER + k);
                    s.split_live = 0;
                    if (s.help != SPLIT_NONE) {
                        GLOBAL SplitPoint *helped = splits + s.help;
                        if (leave_kind == LEAVE_DONE) ATOMIC_MAX_I32(&helped->best, leave_value);
                        if (leave_kind == LEAVE_CUT) split_cut(helped, leave_move, leave_value);
                        split_leave(helped);
                        ATOMIC_ADD_U32(&announce[ANNOUNCE_IDLE], 1u);
                    }
                    s.help = SPLIT_NONE;
                    s.chain = SPLIT_NONE;
                }
                for (u32 i = lane; i < GPU_MAX_PLY; i += WORKER_LANES) s.split_at[i] = 0;
            } else if (need == NEED_UNWIND) {
                if (lane == 0) {
                    for (u32 q = unwind_to + 1u; q <= ply; q++) {
                        u32 at = s.split_at[q];
                        if (at == 0 || at == SPLIT_AT_HELPING) continue;
                        split_give_up(splits, announce, worker * SPLITS_PER_WORKER + at - 1u);
                        s.split_live &= ~(1u << (at - 1u));
                        s.split_at[q] = 0;
                    }
                    s.chain = worker * SPLITS_PER_WORKER + s.split_at[unwind_to] - 1u;
                }
            } else if (need == NEED_MERGE) {
                if (lane == 0) {
                    u32 at = s.split_at[ply];
                    u32 x = at == SPLIT_AT_HELPING ? s.help : worker * SPLITS_PER_WORKER + at - 1u;
                    split_merge(splits + x, leave_move, leave_value, pv + ply * GPU_MAX_PLY, f.pv_len);
                }
            }
            BARRIER();
            /* Part 3, the lanes: what lane 0 found taken in; PUBLISH's node copied into the free
             * slot (its words a lane's, its scalars lane 0's), to be opened in part 4 once every
             * lane's writes are out. */
            if (need == NEED_TAKE || need == NEED_FIND) {
                taken = bc.take;
            } else if (need == NEED_PUBLISH) {
                slot = bc.take;
                if (slot == SPLIT_NONE) {
                    f.flags |= FLAG_NO_SPLIT;
                } else {
                    sp = splits + worker * SPLITS_PER_WORKER + slot;
                    for (u32 i = lane; i <= ply; i += WORKER_LANES) sp->keys[i] = s.keys[i];
                    for (u32 i = lane; i < f.n_moves; i += WORKER_LANES) sp->moves[i] = my_lists[ply * MAX_MOVES + i];
                    if (lane == 0) {
                        sp->board = cur;
                        sp->frame = f;
                        sp->grandparent_eval = ply > 0 ? s.frames[ply - 1].static_eval : -INF;
                        sp->ply = ply;
                        sp->parent = s.chain;
                        sp->next = f.next;
                        sp->stop = 0;
                        sp->best = f.best;
                        sp->lock = 0;
                        sp->alpha = f.alpha;
                        sp->best_move = f.best_move;
                        sp->pv_len = f.pv_len;
                    }
                    if (f.flags & FLAG_PV)
                        for (u32 i = lane; i < f.pv_len; i += WORKER_LANES) sp->pv[i] = pv[ply * GPU_MAX_PLY + i];
                    MEMORY_FENCE();
                }
            } else if (need == NEED_ADOPT) {
                ply = p;
                f = s.frames[p];
                cur = s.boards[p];
                key = s.keys[p];
            } else if (need == NEED_UNWIND) {
                ply = unwind_to;
                f = s.frames[ply];
                cur = s.boards[ply];
                key = s.keys[ply];
            }
            BARRIER();
            /* Part 4: PUBLISH's split point opened and announced. */
            if (need == NEED_PUBLISH && slot != SPLIT_NONE && lane == 0) {
                u32 x = worker * SPLITS_PER_WORKER + slot;
                MEMORY_FENCE();
                *(volatile GLOBAL u32 *)&sp->workers = SPLIT_OPEN;
                s.split_seq++;
                *(volatile GLOBAL u32 *)&announce[1u + x] = (s.split_seq << 8) | (ply + 1u);
                s.split_at[ply] = (u8)(slot + 1u);
                s.split_ply[slot] = ply;
                s.split_busy |= 1u << slot;
                s.split_live |= 1u << slot;
                s.chain = x;
            }
            BARRIER();
#endif
        }
        need = NEED_NONE;
#if DIAG_CYCLES
        diag_now = CYCLES();
        if (lane == 0) {
            diag_cycles[2 * diag_need] += diag_now - diag_at;
            diag_cycles[2 * diag_need + 1]++;
        }
        diag_at = diag_now;
        diag_state = DIAG_STATE_BASE + (state < DIAG_STATE_BASE ? state : DIAG_STATE_BASE - 1u);
        if (state <= STATE_RETURN && ((f.flags & FLAG_QS) || f.depth <= 0)) diag_state = DIAG_STATE_QS + state;
#endif

        /* ---- The control part: private, the same in every lane ---- */
        if (state == STATE_ENTER) {
            /* Step 1. Between slices, and when another worker has finished the iteration. */
            if (bc.done) {
#if HELPERS_KEEP
                /* Suspended rather than idle: the next iteration may keep it going. */
                if (keeps) break;
#endif
                idle = 1;
                break;
            }
#if SOLO_MAIN
            if (bc.solo_yield) break; /* suspended until the next launch */
#endif
#if YBWC
            if (bc.abort != SPLIT_NONE) {
                /* A split point above this node was stopped. This worker's own: back to it, whose
                 * next take sees the stop. Else the one it helps at, or one above that: all is
                 * given up. */
                u32 x = bc.abort, slot = x % SPLITS_PER_WORKER;
                if (x / SPLITS_PER_WORKER == worker && (s.split_live & (1u << slot))) {
                    unwind_to = s.split_ply[slot];
                    need = NEED_UNWIND;
                    state = STATE_NEXT;
                    taken = SPLIT_NONE;
                } else {
                    leave_kind = LEAVE_STOPPED;
                    need = NEED_LEAVE;
                    state = STATE_IDLE;
                }
                continue;
            }
#endif
            if (bc.busy) {
                deferrable = 0;
                deferred_ret = 1;
                state = STATE_RETURN;
                continue;
            }
            if (abdada && f.depth >= ABDADA_MIN_DEPTH) f.flags |= FLAG_CLAIMED;
            deferrable = 0;
            if (slice_is_over((u32)(nodes - nodes_at_start) + spins, params, bc.slice_used)) break;
            nodes++;
#ifdef DIAG_UNIQUE
            /* Counted here, where the node is counted as entered: a node whose entry the slice's
             * end cut off is counted once, when the next launch enters it, and one the iteration's
             * end cut off not at all (counted at the entry's table read, before the slice's check,
             * one was counted twice: CI, stop 56). */
            if (lane == 0) diag_count(control, key, f.depth);
#endif
#if FAULT_AFTER_NODES
            /* A test's fault: the worker reports its state broken, as the kernel's own checks do
             * when they catch a bug, so that the host's way back to the CPU search is tested. */
            if (nodes >= FAULT_AFTER_NODES) {
                broken = 1;
                break;
            }
#endif
            if (ply > seldepth) seldepth = ply;
            f.pv_len = 0;
            u32 in_check = ply == 0 ? (u32)king_in_check(&cur, lines) : (f.flags & FLAG_IN_CHECK) != 0;
            if (in_check) f.flags |= FLAG_IN_CHECK;

            if (ply > 0) {
                /* Step 2. Draws, the ply limit, mate distance. */
                if ((f.halfmove >= 100 && !in_check) || insufficient_material(&cur) ||
                    is_repetition(&s, ply, key, f.halfmove, game_keys, params->history_len) ||
                    (ply >= GPU_MAX_PLY - 1 && in_check)) {
                    ret = 0;
                    state = STATE_RETURN;
                    continue;
                }
                if (f.halfmove >= 100) {
                    /* In check at the fiftieth move: a draw, unless it is mate (as the CPU
                     * search). The evasions are generated and none is searched (STATE_NEXT). */
                    f.flags |= FLAG_FIFTY;
                    f.tt_move = 0;
                    need = NEED_GEN;
                    state = STATE_NEXT;
                    continue;
                }
                if (ply >= GPU_MAX_PLY - 1) {
                    /* The stack is full: the static evaluation (a draw in check, above, as the
                     * CPU search does at its limit). */
                    f.flags |= FLAG_QS;
                    f.depth = -1000;
                    need = NEED_EVAL;
                    state = STATE_EVAL;
                    continue;
                }
                i32 a = f.alpha > -MATE + (i32)ply ? f.alpha : -MATE + (i32)ply;
                i32 b = f.beta < MATE - (i32)ply - 1 ? f.beta : MATE - (i32)ply - 1;
                if (a >= b) {
                    ret = a;
                    state = STATE_RETURN;
                    continue;
                }
                f.alpha = a;
                f.beta = b;
                f.alpha_orig = a;
            }
            if (f.depth <= 0) f.flags |= FLAG_QS;

            /* Step 3. The transposition table. */
            u32 pv_node = (f.flags & FLAG_PV) != 0;
            if (bc.tt_hit) {
                u64 d = bc.tt_data;
                f.tt_move = tt_move_of(d);
                i32 ts = score_from_tt(tt_score_of(d), ply);
                u32 bound = tt_bound_of(d);
                i32 need_depth = f.depth > 0 ? f.depth : 0;
                if (!pv_node && ply > 0 && tt_depth_of(d) >= need_depth &&
                    ((bound == BOUND_EXACT) || (bound == BOUND_LOWER && ts >= f.beta) ||
                     (bound == BOUND_UPPER && ts <= f.alpha))) {
                    /* Counted in shared memory: in a register live through the whole loop the
                     * count cost one worker 2% of its speed on the H100, here 0.4%. */
                    if (lane == 0) s.tt_cutoffs++;
                    ret = ts;
                    state = STATE_RETURN;
                    continue;
                }
            }
            /* The killers two plies down start empty: they are for this node's grandchildren,
             * siblings of each other (as the CPU search keeps them). */
            if (!(f.flags & FLAG_QS) && lane == 0 && ply + 2 < GPU_MAX_PLY) {
                s.killers[2 * (ply + 2)] = 0;
                s.killers[2 * (ply + 2) + 1] = 0;
            }
            if (in_check) {
                /* No static evaluation in check: every evasion is searched. */
                f.static_eval = -INF;
                if (f.flags & FLAG_QS) f.best = -MATE + (i32)ply;
                state = STATE_MOVES;
                continue;
            }
            /* The static evaluation the table keeps (-INF: the node was in check, or never
             * evaluated) is this position's: the evaluation is a function of the position
             * alone. As the CPU search, take it rather than evaluate again. */
            if (bc.tt_hit && tt_eval_of(bc.tt_data) != -INF) {
                eval_result = tt_eval_of(bc.tt_data);
            } else {
                need = NEED_EVAL;
            }
            state = STATE_EVAL;
            continue;
        }

        if (state == STATE_EVAL) {
            i32 e = eval_result;
            f.static_eval = e;
            if (f.flags & FLAG_QS) {
                /* Quiescence: stand pat. */
                if (ply >= GPU_MAX_PLY - 1 || e >= f.beta) {
#if STORE_EVAL
                    if (lane == 0 && !bc.tt_hit && ply < GPU_MAX_PLY - 1)
                        tt_store(tt, log2, key, 0u, score_to_tt(e, ply), e, 0, BOUND_LOWER, generation);
#endif
                    ret = e;
                    state = STATE_RETURN;
                    continue;
                }
                if (e > f.alpha) f.alpha = e;
                f.best = e;
                state = STATE_MOVES;
                continue;
            }
            u32 pv_node = (f.flags & FLAG_PV) != 0;
            /* Improving: better than two plies ago, when this side last moved (an ancestor in
             * check has no evaluation: counts as improving, as in the CPU search). */
            i32 before = ply >= 2 ? s.frames[ply - 2].static_eval : -INF;
            u32 improving = before == -INF || e > before;
            if (improving) f.flags |= FLAG_IMPROVING;
            /* Unlike the CPU search, pruning reads the static evaluation as it is, not sharpened
             * by the table's value: with a lower bound from a shallower search lifting it, reverse
             * futility pruning cut the reply to a quiet rook sacrifice and the GPU missed WAC's
             * mate in 2 r1bq1r1k/1pp1Np1p/p2p2pQ/4R3/n7/8/PPPP1PPP/R1B3K1 w (Rh5 gxh5 Qf6#).
             * Ported again in the twenty-fourth session (for reverse futility, razoring and the
             * null move): the mate was lost again, and 264 and 528 workers reached depth 13 no
             * sooner (docs/PERFORMANCE.md). */
            /* Step 4. Reverse futility pruning. */
            if (!pv_node && f.depth <= RFP_MAX_DEPTH && e - RFP_MARGIN * (f.depth - (i32)improving) >= f.beta &&
                e < MATE_BOUND && e > -MATE_BOUND) {
#if STORE_EVAL > 1
                if (lane == 0 && !bc.tt_hit) tt_store(tt, log2, key, 0u, score_to_tt(e, ply), e, 0, BOUND_LOWER, generation);
#endif
                ret = e;
                state = STATE_RETURN;
                continue;
            }
            /* Razoring (the CPU search's step 7): far below alpha at depth 1, this position's
             * quiescence search with the null window at alpha, pushed as a child of the same side
             * on the same board. At or below alpha, its value is the node's (STATE_RETURN). */
            if (RAZOR && !pv_node && f.depth <= RAZOR_MAX_DEPTH && e + RAZOR_MARGIN * f.depth < f.alpha) {
                f.step = STEP_RAZOR;
                f.move = 0;
                parent = f;
                f = child_frame(f.alpha, f.alpha + 1, 0, FLAG_QS, f.halfmove);
                ply++;
                save_parent = 1;
                need = NEED_SYNC;
                state = STATE_ENTER;
                continue;
            }
            /* Step 5. Null move: give the opponent a free move; still at least beta: cut. */
            if (!pv_node && !(f.flags & FLAG_NULL) && f.depth >= NMP_MIN_DEPTH && e >= f.beta &&
                f.beta > -MATE_BOUND && f.beta < MATE_BOUND && has_non_pawn_material(&cur)
#if NMP_VERIFY
                && ply >= nmp_min_ply
#endif
            ) {
                i32 r = null_reduction(f.depth, e, f.beta);
                f.step = STEP_NULL;
                f.move = 0;
                parent = f;
                Frame c = child_frame(-f.beta, -f.beta + 1, f.depth - r, FLAG_NULL | ((f.flags & FLAG_CUT) ? 0u : FLAG_CUT),
                                      0);
                u64 k = key ^ ZOBRIST_SIDE;
                if (cur.ep != NO_SQUARE) k ^= ZOBRIST_EP[cur.ep & 7u];
                cur.ep = NO_SQUARE;
                cur.side ^= 1u;
                key = k;
                f = c;
                ply++;
                save_parent = 1;
                need = NEED_SYNC;
                state = STATE_ENTER;
                continue;
            }
            state = STATE_MOVES;
            continue;
        }

        if (state == STATE_MOVES) {
            /* Step 6. Internal iterative reduction: without a table move the ordering is poor;
             * where a good one matters (PV and expected cut nodes), a ply less finds one
             * cheaper. */
            if (!(f.flags & FLAG_QS) && f.tt_move == 0 && f.depth >= IIR_MIN_DEPTH && (f.flags & (FLAG_PV | FLAG_CUT)))
                f.depth--;
            f.next = 0;
            f.legal = 0;
            if (!(f.flags & FLAG_QS)) f.best = -INF;
            /* The table's move comes first in the sorted list anyway: tried on its own first, a
             * cutoff by it (the usual case at a cut node) saves generating, scoring and sorting
             * the others. Otherwise it is index 0 of the list made next, which f.next passes. */
            u32 captures_only = (f.flags & FLAG_QS) && !(f.flags & FLAG_IN_CHECK);
            /* A root limited by the host (root_list_filter) generates its list at once: the
             * table's move may not be one of its moves, and the root, a PV node, searches the
             * list after it anyway. (Written as a select: as a second condition of the `if`, it
             * and the filter cost one worker 2.5% on the H100, twentieth session.) */
            if (tt_move_first(&cur, ply == 0 && root_limited ? 0u : f.tt_move, captures_only)) {
                f.flags |= FLAG_TT_FIRST;
                f.n_moves = 1;
            } else {
                need = NEED_GEN;
            }
            state = STATE_NEXT;
            continue;
        }

        if (state == STATE_NEXT) {
            u32 qs = (f.flags & FLAG_QS) != 0;
            u32 in_check = (f.flags & FLAG_IN_CHECK) != 0;
            u32 pv_node = (f.flags & FLAG_PV) != 0;
            u32 index = f.next;
            u32 second_pass = f.next >= f.n_moves;
            if (f.flags & FLAG_FIFTY) {
                ret = f.n_moves > 0 ? 0 : -MATE + (i32)ply;
                state = STATE_RETURN;
                continue;
            }
            if (second_pass && (f.flags & FLAG_TT_FIRST)) {
                /* The table's move did not cut: now the list, from its second move. */
                f.flags &= ~FLAG_TT_FIRST;
                need = NEED_GEN;
                continue;
            }
#if YBWC
            u32 split = ybwc ? (u32)s.split_at[ply] : 0u;
            if (ybwc && !split && !second_pass && f.depth >= SPLIT_MIN_DEPTH && f.legal >= 1u && f.next + 1u < f.n_moves &&
                !(f.flags & (FLAG_QS | FLAG_TT_FIRST | FLAG_NO_SPLIT | (SPLIT_PV ? 0u : FLAG_PV))) &&
                bc.idle > 0u) {
                /* YBWC: the first move is searched and did not cut, and workers are idle: the
                 * node becomes a split point. Where its moves were when it did goes with it. */
                f.deferred = (u64)f.next | ((u64)f.legal << 16) | ((u64)f.quiets << 32);
                need = NEED_PUBLISH;
                continue;
            }
            if (split) {
                if (taken == SPLIT_NONE) {
                    need = NEED_TAKE;
                    continue;
                }
                u32 t = taken;
                taken = SPLIT_NONE;
                if (t >= TAKE_STOP) {
                    if (split == SPLIT_AT_HELPING) {
                        leave_kind = t == TAKE_NONE ? LEAVE_DONE : LEAVE_STOPPED;
                        leave_value = f.best;
                        need = NEED_LEAVE;
                        state = STATE_IDLE;
                    } else {
                        need = NEED_CLOSE;
                        state = STATE_SPLIT_END;
                    }
                    continue;
                }
                /* The moves before it count as searched here, by whichever worker: reductions
                 * and pruning go by the list's order, as without a split. */
                u32 base_next = (u32)(f.deferred & 0xffffu), base_legal = (u32)((f.deferred >> 16) & 0xffffu);
                u32 base_quiets = (u32)(f.deferred >> 32);
                f.legal = base_legal + (t - base_next);
                f.quiets = base_quiets + (t - base_next);
                f.next = t;
                index = t;
                second_pass = 0;
                /* At a PV node, the window of the moves taken narrows as any worker raises alpha. */
                if (bc.split_alpha > f.alpha) f.alpha = bc.split_alpha;
                if (f.alpha >= f.beta) {
                    /* Merges raise a split point's alpha below its beta only: a window this
                     * empty was read from elsewhere. */
                    broken = 1;
                    break;
                }
            }
#else
            u32 split = 0; /* not const: OpenCL compilers warn of a constant operand of && below */
#endif
            if (second_pass && f.deferred_done < f.deferred_count) {
#if MAX_DEFERRED > 8
                u64 word = f.deferred_done < 8u ? f.deferred : f.deferred_more;
#else
                u64 word = f.deferred;
#endif
                index = (u32)(word >> (8u * (f.deferred_done & 7u))) & 255u;
                f.deferred_done++;
            } else if (second_pass) {
                /* Step 14. No move left: mate, stalemate, or the best found. */
                if (f.legal == 0 && f.n_moves == 0 && !qs) {
                    ret = in_check ? -MATE + (i32)ply : 0;
                } else if (f.legal == 0 && qs && in_check) {
                    ret = -MATE + (i32)ply;
                } else {
                    ret = f.best;
                }
                /* Step 15. Store. */
                if (lane == 0) {
                    u32 bound = ret >= f.beta ? BOUND_LOWER : (ret > f.alpha_orig ? BOUND_EXACT : BOUND_UPPER);
                    tt_store(tt, log2, key, f.best_move, score_to_tt(ret, ply), f.static_eval,
                             qs ? 0 : f.depth, bound, generation);
                }
                state = STATE_RETURN;
                continue;
            }
            u32 entry = (f.flags & FLAG_TT_FIRST) ? f.tt_move : my_lists[ply * MAX_MOVES + index];
            u32 scan = !second_pass && !(f.flags & FLAG_TT_FIRST) && !split;
#if TT_SETTLE && SETTLE_AGAIN
            u32 etc_due = !(f.flags & FLAG_ETC) || f.next >= f.settle_first + WORKER_LANES;
#else
            u32 etc_due = !(f.flags & FLAG_ETC);
#endif
            if (scan && etc_due && !(f.flags & (FLAG_QS | ETC_SKIP_FLAGS)) && f.depth >= ETC_MIN_DEPTH &&
                ply + 2 < GPU_MAX_PLY) {
                /* The list's first move, outside the PV (and with TT_SETTLE_PV in it): the
                 * children's entries first. With SETTLE_AGAIN, again once the node is past the
                 * moves the last round looked at, to settle the next ones. */
                etc_again = (f.flags & FLAG_ETC) != 0u;
                f.flags |= FLAG_ETC;
                need = NEED_ETC;
                continue;
            }
            if (etc_cuts) {
                /* A child's bound cuts the node: its move is the best, the bound the value. */
                u32 k = CTZ32(etc_cuts);
                etc_cuts = 0;
                ret = etc_values[k];
                if (lane == 0) {
                    s.etc_cutoffs++;
                    tt_store(tt, log2, key, my_lists[ply * MAX_MOVES + etc_first + k] & 0xffffu,
                             score_to_tt(ret, ply), f.static_eval, f.depth, BOUND_LOWER, generation);
                }
                state = STATE_RETURN;
                continue;
            }
            if (!second_pass) f.next++;
            Move m = (Move)(entry & 0xffffu);
            u32 quiet = is_quiet(&cur, m);

            /* Step 11. Shallow-depth pruning. Moves that give check are never pruned: quiet
             * checks are how mates at the horizon are found, and a sacrifice with check is how a
             * mate begins (WAC's 5rk1/n1p1R1bp/... mate in 3 was lost to SEE pruning with checks
             * included; the CPU search prunes those). A move the scan kept needs no test. */
            /* A put-off move was tested when first met (DEFERRED_AS_MET, search_state.h). */
#if DEFERRED_AS_MET
            u32 tested = scan_kept | second_pass;
#else
            u32 tested = scan_kept;
#endif
            u32 prunable =
                tested ? 0u : is_prunable(&cur, lines, &f, ply, m, quiet, by_clean_rank ? entry >> 24 : f.quiets);
            scan_kept = 0;
            /* A move to prune unless it gives check: most surely give none (gives_check.h), and
             * are dropped without being made. Where one is dropped, more usually follow (late
             * quiet moves, once late-move pruning starts): the lanes look for the next move to
             * search together. */
            if (prunable && !may_give_check(&cur, lines, m)) {
                if (scan) need = NEED_SCAN;
                continue;
            }

            /* Step 10. Make the move, unless ETC's round kept its child's word (TT_SETTLE): it
             * says whether the move gives check, which is all the turn needs before the settling
             * test. A settled child is never made nor keyed; one the round kept with its key
             * (KEEP_CHILDREN) is made only when it is entered. */
#if TT_SETTLE
            u32 settle_k = index - f.settle_first;
            u32 settle_w = 0u, kept_w = 0u;
            if (!qs && (f.flags & FLAG_ETC) && !split && index >= f.settle_first && settle_k < WORKER_LANES) {
                u32 marked = (f.settle >> settle_k) & 1u;
                if (marked || (KEEP_CHILDREN && f.n_moves <= KEEP_SLOTS))
                    kept_w = my_lists[ply * MAX_MOVES + SETTLE_SLOTS + settle_k];
                if (marked) settle_w = kept_w;
            }
#else
            u32 settle_k = 0u, settle_w = 0u, kept_w = 0u;
#endif
            u32 moving = piece_type_on(&cur, bit(m & 63u));
            Board child = cur;
            u32 gives_check;
            if (kept_w) {
                gives_check = settle_gives_check(kept_w);
            } else {
                make_move_of(&child, m, moving);
                gives_check = (u32)king_in_check(&child, lines);
            }
            u32 child_check = gives_check ? FLAG_IN_CHECK : 0u;
            if (prunable && !gives_check) {
                if (scan) need = NEED_SCAN;
                continue;
            }
            f.legal++;
            if (quiet) f.quiets++;
            f.move = m;

            /* The key waits: a child the round kept has it, and a settled one needs none. */
            u64 child_key;
            u32 child_halfmove = halfmove_after(&cur, m, f.halfmove);
            if (qs) {
                child_key = key_after(&cur, &child, key, m, moving);
                parent = f;
                parent.step = STEP_FULL;
                f = child_frame(-f.beta, -f.alpha, 0, FLAG_QS | (f.flags & FLAG_PV) | child_check, child_halfmove);
                /* Checks in quiescence are answered by evasions at depth 0 (still quiescence). */
            } else {
                /* Step 12. Extensions (checks, within reason) and late-move reductions, as the
                 * CPU search's: more where the position is not improving and at expected cut
                 * nodes, less for checks, killers and moves with a good history. */
                u32 cut_node = (f.flags & FLAG_CUT) != 0, improving = (f.flags & FLAG_IMPROVING) != 0;
                i32 new_depth = f.depth - 1 + ((gives_check && (i32)ply < 2 * root_depth) ? 1 : 0);
#if DEFERRED_AS_MET >= 2
                u32 by_place = second_pass;
#else
                u32 by_place = 0u;
#endif
                u32 order = by_clean_order ? ((entry >> 16) & 255u) + 1u : by_place ? index + 1u : f.legal;
                u32 reduce = f.depth >= LMR_MIN_DEPTH && order >= LMR_MIN_MOVE + pv_node && quiet;
                i32 r = 0;
                if (reduce) {
                    u32 di = f.depth < 63 ? (u32)f.depth : 63u, mi = order < 63 ? order : 63u;
                    r = LMR[di * 64u + mi];
                    r -= (i32)pv_node;
                    r += (i32)!improving;
                    r += (i32)cut_node;
                    r -= (i32)gives_check;
                    if (m == s.killers[2 * ply] || m == s.killers[2 * ply + 1]) r--;
                    /* A history table shared with other workers changes while the lanes read it:
                     * lane 0 reads it for all, or they could disagree on the reduction and part
                     * ways. On PoCL, where the lanes run one after another, they did (with 264
                     * workers, bench positions to depth 13, nineteenth session). */
                    i32 h = history[butterfly_index(cur.side, m)];
#if HISTORY_SHARE > 1
                    if (params->workers > 1) {
                        BARRIER();
                        if (lane == 0) bc.history = h;
                        BARRIER();
                        h = bc.history;
                    }
#endif
                    r -= h / LMR_HISTORY_DIV;
                    if (r < 0) r = 0;
                    if (r > new_depth - 1) r = new_depth - 1 > 0 ? new_depth - 1 : 0;
                }
                f.child_depth = new_depth;
#if TT_SETTLE
                /* A child ETC's round marked (search_state.h): its entry, as the round read it,
                 * ends it at the depth it is given here at or below alpha, so it is settled
                 * without being entered: one node, a table cutoff, its value taken as a child's
                 * that failed low (step 13: no re-search, no new best move). Never a PV node's
                 * first move, which is searched with the full window for its line. The kept word
                 * is the same for every lane (no barrier: see search_state.h). */
                i32 v = 0;
                if (settle_w && !(pv_node && f.legal == 1) &&
                    child_settles(settle_w, f.legal == 1 ? new_depth : new_depth - r, f.alpha, &v)) {
                    nodes++;
                    if (ply + 1 > seldepth) seldepth = ply + 1;
                    if (lane == 0) s.tt_cutoffs++;
#if TT_SETTLE > 1
                    /* TT_SETTLE=2: counted in the ETC cutoffs too, so that the trace's ETC column
                     * shows how many children were settled (less the default's). */
                    if (lane == 0) s.etc_cutoffs++;
#endif
                    if (v > f.best) f.best = v;
                    continue;
                }
                /* Not settled after all (the depth it gets here is deeper than its entry's), or
                 * kept with its key: made now. */
                if (kept_w) make_move_of(&child, m, moving);
#endif
                child_key = (kept_w & SETTLE_KEPT) ? kept_key(my_lists + ply * MAX_MOVES, settle_k)
                                                   : key_after(&cur, &child, key, m, moving);
                parent = f;
                if (f.legal == 1) {
                    /* The first move: a PV node's with the full window; elsewhere the null
                     * window, which makes the child an expected cut node if this one is not. */
                    u32 child_kind = pv_node ? FLAG_PV : (cut_node ? 0u : FLAG_CUT);
                    parent.step = STEP_FULL;
                    f = child_frame(-f.beta, -f.alpha, new_depth, child_kind | child_check, child_halfmove);
                } else {
                    /* A reduced search's child is expected to cut (it is a late move, expected
                     * to fail low here); a full-depth null-window one alternates. */
                    u32 child_kind = (reduce || !cut_node) ? FLAG_CUT : 0u;
                    parent.step = r > 0 ? STEP_REDUCED : STEP_ZW;
                    f = child_frame(-f.alpha - 1, -f.alpha, new_depth - r, child_kind | child_check, child_halfmove);
                }
            }
            cur = child;
            key = child_key;
            ply++;
            save_parent = 1;
            u32 outside_pv = !(parent.flags & FLAG_PV), all_node = outside_pv && !(parent.flags & FLAG_CUT);
            u32 first_deferrable = FIRST_DEFER == 1   ? all_node
                                   : FIRST_DEFER == 2 ? all_node && worker > 0
                                   : FIRST_DEFER == 3 ? outside_pv && worker > 0
                                                      : 0u;
            u32 younger_deferrable = parent.legal > 1 && (CUT_DEFER || !(parent.flags & FLAG_CUT));
            deferrable = abdada && !second_pass && (younger_deferrable || first_deferrable) &&
                         parent.deferred_count < MAX_DEFERRED;
            need = NEED_SYNC;
            state = STATE_ENTER;
            continue;
        }

        if (state == STATE_RETURN) {
#if YBWC
            if (s.split_at[ply]) {
                /* A node returns only once its split point is closed (its owner) or left (a
                 * helper, which never returns from it): a split point left behind would hand its
                 * value to whatever node comes next at this ply. */
                broken = 1;
                break;
            }
#endif
            if (ply == 0) {
                finished = 1;
                break;
            }
            /* Step 13. Back in the parent: re-search, or take the value. */
            if ((f.flags & FLAG_CLAIMED) && lane == 0) {
                volatile GLOBAL u64 *slot = (volatile GLOBAL u64 *)busy + (key & (BUSY_ENTRIES - 1));
                if (*slot == key) *slot = 0;
            }
            child_pv_len = f.pv_len;
            ply--;
            f = s.frames[ply];
            /* Only a PV search of the child leaves a line worth copying. */
            if (!(f.flags & FLAG_PV) || (f.step != STEP_FULL && f.step != STEP_PV)) child_pv_len = 0;
            cur = s.boards[ply];
            key = s.keys[ply];
            if (deferred_ret) {
                /* Another worker is on this move: come back to it after the others. */
                deferred_ret = 0;
                u64 byte = (u64)(f.next - 1u) << (8u * (f.deferred_count & 7u));
#if MAX_DEFERRED > 8
                if (f.deferred_count >= 8u) f.deferred_more |= byte;
                else
#endif
                    f.deferred |= byte;
                f.deferred_count++;
                f.legal--;
#if DEFERRED_AS_MET
                if (is_quiet(&cur, f.move)) f.quiets--;
#endif
                state = STATE_NEXT;
                continue;
            }
#if NMP_VERIFY
            if (f.step == STEP_VERIFY) {
                /* The same side's search: not negated. At beta or above, the null move's cutoff
                 * (its value in f.best) stands; below, the moves are searched after all. */
                nmp_min_ply = 0u;
                if (ret >= f.beta) {
                    ret = f.best;
                    state = STATE_RETURN;
                    continue;
                }
                state = STATE_MOVES;
                continue;
            }
#endif
            if (RAZOR && f.step == STEP_RAZOR) {
                /* The same side's search: its value is not negated. Above alpha, the moves are
                 * searched after all (the null move cannot apply: the evaluation is below alpha). */
                if (ret <= f.alpha) {
                    state = STATE_RETURN;
                    continue;
                }
                state = STATE_MOVES;
                continue;
            }
            i32 v = -ret;
            Move m = (Move)f.move;

            if (f.step == STEP_NULL) {
                if (v >= f.beta) {
                    ret = v >= MATE_BOUND ? f.beta : v;
#if NMP_VERIFY
                    if (f.depth >= NMP_VERIFY_DEPTH && nmp_min_ply == 0u) {
                        /* The verification (NMP_VERIFY): the same reduced search, the same side
                         * on the same board, without null moves for the next plies as the CPU's
                         * (its ply counted from the child's); the null move's value is kept in
                         * f.best until it returns (STATE_MOVES starts f.best anew). */
                        i32 r = null_reduction(f.depth, f.static_eval, f.beta);
                        nmp_min_ply = ply + 1u + (u32)(3 * (f.depth - r) / 4);
                        f.best = ret;
                        f.step = STEP_VERIFY;
                        f.move = 0;
                        parent = f;
                        f = child_frame(f.beta - 1, f.beta, f.depth - r, FLAG_NO_SPLIT, f.halfmove);
                        ply++;
                        save_parent = 1;
                        need = NEED_SYNC;
                        state = STATE_ENTER;
                        continue;
                    }
#endif
#if NULL_STORE
                    if (lane == 0)
                        tt_store(tt, log2, key, 0u, score_to_tt(ret, ply), f.static_eval, f.depth, BOUND_LOWER, generation);
#endif
                    state = STATE_RETURN;
                    continue;
                }
                state = STATE_MOVES;
                continue;
            }
            /* A root move above alpha at full depth, a lower bound (a null window's fail high,
             * re-searched next) or exact: every worker sees the best of them (CONTROL_ROOT). A
             * fail high's claim is replaced by its re-search's value, or withdrawn if that failed
             * low, unless a better claim replaced it already. Lane 0 alone keeps the claim. Only
             * FINISH_CHECKED reads them. */
            if (FINISH_CHECKED_CODE && ply == 0 && params->finisher == FINISH_CHECKED && root_depth == params->depth &&
                lane == 0) {
                if (worker == 0 && f.step == STEP_FULL)
                    ((volatile GLOBAL u32 *)control)[CONTROL_FIRST] = root_pack(v, m);
                if (f.step == STEP_PV && s.root_claim != 0u) {
                    ATOMIC_CAS_U32(&control[CONTROL_ROOT], s.root_claim, v > f.alpha ? root_pack(v, m) : 0u);
                    s.root_claim = 0u;
                }
                if (v > f.alpha && f.step != STEP_REDUCED) {
                    u32 claim = root_pack(v, m);
                    ATOMIC_MAX_U32(&control[CONTROL_ROOT], claim);
                    if (f.step == STEP_ZW) s.root_claim = claim;
                }
            }
            u32 research = 0;
            Frame c;
            if (f.step == STEP_REDUCED && v > f.alpha) {
                research = 1;
                f.step = STEP_ZW;
                c = child_frame(-f.alpha - 1, -f.alpha, f.child_depth, (f.flags & FLAG_CUT) ? 0u : FLAG_CUT, 0);
            } else if ((f.step == STEP_ZW || f.step == STEP_REDUCED) && v > f.alpha && v < f.beta &&
                       (f.flags & FLAG_PV)) {
                research = 1;
                f.step = STEP_PV;
                c = child_frame(-f.beta, -f.alpha, f.child_depth, FLAG_PV, 0);
            }
            if (research) {
                u32 moving = piece_type_on(&cur, bit(m & 63u));
                Board child = cur;
                make_move_of(&child, m, moving);
                if (king_in_check(&child, lines)) c.flags |= FLAG_IN_CHECK;
                c.halfmove = halfmove_after(&cur, m, f.halfmove);
                key = key_after(&cur, &child, key, m, moving);
                cur = child;
                parent = f;
                f = c;
                ply++;
                save_parent = 1;
                need = NEED_SYNC;
                state = STATE_ENTER;
                continue;
            }
            if (v > f.best) {
                f.best = v;
                if (v > f.alpha) {
                    f.best_move = m;
                    f.alpha = v;
                    /* At the root, a move that beat alpha was searched in full at this depth:
                     * if the iteration is stopped, the host plays it (as the CPU search does). */
                    if (ply == 0 && lane == 0) {
                        result->partial_move = m | (clean_worker ? PARTIAL_CLEAN : 0u);
                        result->partial_score = v;
                    }
                    if ((f.flags & FLAG_PV) && lane == 0) {
                        /* The triangular PV: this move, then the child's line. Lane 0 alone
                         * reads and writes it. */
                        GLOBAL u16 *line = pv + ply * GPU_MAX_PLY;
                        const GLOBAL u16 *below = pv + (ply + 1) * GPU_MAX_PLY;
                        line[0] = (u16)m;
                        for (u32 i = 0; i < child_pv_len && i + 1 < GPU_MAX_PLY; i++) line[i + 1] = below[i];
                    }
                    if (f.flags & FLAG_PV) f.pv_len = child_pv_len + 1 < GPU_MAX_PLY ? child_pv_len + 1 : GPU_MAX_PLY;
#if YBWC
                    if (ybwc && s.split_at[ply] && v < f.beta) {
                        /* A split point's new best (a PV node's: elsewhere v > alpha cuts). */
                        leave_move = m;
                        leave_value = v;
                        need = NEED_MERGE;
                        state = STATE_NEXT;
                        continue;
                    }
#endif
                    if (v >= f.beta) {
                        /* A cutoff by a quiet move: it becomes a killer and the counter to the
                         * move before, its history rises and that of the quiet moves tried
                         * before it falls (all moves the list placed before it: unlike the CPU
                         * search's, this includes those pruned). */
                        if (is_quiet(&cur, m) && !(f.flags & FLAG_QS)) {
                            i32 bonus = history_bonus(f.depth);
                            if (lane == 0) {
                                if (s.killers[2 * ply] != m) {
                                    s.killers[2 * ply + 1] = s.killers[2 * ply];
                                    s.killers[2 * ply] = m;
                                }
                                u32 slot = counter_slot(&cur, ply > 0 ? s.frames[ply - 1].move : 0u);
                                if (slot != COUNTER_NONE) history[COUNTER_BASE + slot] = (i32)m;
                                history_update(history + butterfly_index(cur.side, m), bonus);
                            }
                            if (!(f.flags & FLAG_TT_FIRST)) {
                                const GLOBAL u32 *tried = my_lists + ply * MAX_MOVES;
                                for (u32 i = lane; i < f.next; i += WORKER_LANES) {
                                    Move q = (Move)(tried[i] & 0xffffu);
                                    if (q != m && is_quiet(&cur, q))
                                        history_update(history + butterfly_index(cur.side, q), -bonus);
                                }
                            }
                            /* Every lane's updates done before any lane reads the history again
                             * (where the lanes of a group run one after another, PoCL, a lane
                             * would otherwise read what the next has not yet written). */
                            BARRIER();
                        }
#if YBWC
                        if (ybwc && s.split_at[ply]) {
                            /* At a split point: a helper hands the cutoff to it and leaves; the
                             * owner stops it, waits for its helpers and returns. */
                            if (s.split_at[ply] == SPLIT_AT_HELPING) {
                                leave_kind = LEAVE_CUT;
                                leave_move = m;
                                leave_value = v;
                                need = NEED_LEAVE;
                                state = STATE_IDLE;
                            } else {
                                own_cut = 1;
                                need = NEED_CLOSE;
                                state = STATE_SPLIT_END;
                            }
                            continue;
                        }
#endif
                        if (lane == 0)
                            tt_store(tt, log2, key, m, score_to_tt(v, ply), f.static_eval,
                                     (f.flags & FLAG_QS) ? 0 : f.depth, BOUND_LOWER, generation);
                        ret = v;
                        state = STATE_RETURN;
                        continue;
                    }
                }
            }
            if (ply == 0 && f.best_move == 0) f.best_move = m;
            state = STATE_NEXT;
            continue;
        }

#if YBWC
        if (state == STATE_SPLIT_END) {
            if (!bc.take) {
                /* Helpers are still at work below: their values are the node's. */
                if (bc.done) {
                    idle = 1;
                    break;
                }
                spins++;
                if (slice_is_over((u32)(nodes - nodes_at_start) + spins, params, bc.slice_used)) {
                    resume_at = STATE_NEXT;
                    break;
                }
                need = NEED_CLOSE;
                continue;
            }
            /* Closed: the helpers' best, or the cutoff one of them found, is the node's. */
            own_cut = 0;
            i32 v = bc.stop == SPLIT_CUT_BY_HELPER ? bc.cut_value : bc.best;
            if (v > f.best) {
                f.best = v;
                if (f.best > f.alpha) f.alpha = f.best;
                f.best_move = bc.stop == SPLIT_CUT_BY_HELPER ? bc.cut_move : bc.best_move;
                if (f.flags & FLAG_PV) {
                    /* The line came with the best value (NEED_CLOSE); a cutoff's is its move. */
                    f.pv_len = bc.stop == SPLIT_CUT_BY_HELPER ? 1u : bc.pv_len;
                    if (bc.stop == SPLIT_CUT_BY_HELPER && lane == 0) pv[ply * GPU_MAX_PLY] = (u16)f.best_move;
                }
                if (ply == 0 && lane == 0 && f.best < f.beta) {
                    result->partial_move = f.best_move | (clean_worker ? PARTIAL_CLEAN : 0u);
                    result->partial_score = f.best;
                }
            }
            if (f.best >= f.beta) {
                ret = f.best;
                if (lane == 0)
                    tt_store(tt, log2, key, f.best_move, score_to_tt(ret, ply), f.static_eval, f.depth, BOUND_LOWER,
                             generation);
                state = STATE_RETURN;
                continue;
            }
            f.next = f.n_moves; /* Step 14 */
            state = STATE_NEXT;
            continue;
        }

        if (state == STATE_IDLE) {
            if (bc.done) {
                idle = 1;
                break;
            }
            if (taken < TAKE_STOP) {
                /* Joined, with a move taken: search it from the split point's node. */
                need = NEED_ADOPT;
                state = STATE_NEXT;
                continue;
            }
            spins++;
            if (slice_is_over((u32)(nodes - nodes_at_start) + spins, params, bc.slice_used)) {
                resume_at = STATE_IDLE;
                break;
            }
            need = NEED_FIND;
            continue;
        }
#endif
    }

#if DIAG_CYCLES
    u32 diag_adds = lane == 0;
#ifdef DIAG_CYCLES_WORKER
    diag_adds = diag_adds && worker == (u32)(DIAG_CYCLES_WORKER);
#endif
    if (diag_adds) {
        GLOBAL u64 *totals = (GLOBAL u64 *)(control + CONTROL_CYCLES);
        for (u32 i = 0; i < 2 * DIAG_PARTS; i++)
            if (diag_cycles[i] != 0u) ATOMIC_ADD_U64(&totals[i], diag_cycles[i]);
    }
#endif
    /* ---- Leaving the launch ---- */
#if SOLO_MAIN
    if (solo_self && lane == 0) ATOMIC_ADD_U32(solo_word, 0xFFFFFFFFu);
#endif
    if (finished) {
#if HELPERS_KEEP
        /* A helper of FINISH_MAIN, whose result ends nothing, searches the next depth at once
         * (Lazy SMP's helpers on a CPU), up to HELPERS_KEEP plies past the iteration and within
         * the search's last depth, rather than wait idle for worker 0 to end the iteration. */
        if (keeps && root_depth < params->depth_limit && root_depth < params->depth + HELPERS_KEEP) {
            root_depth++;
            fresh = 1;
            deepened = 1;
            BARRIER();
            if (lane == 0) s.nodes = nodes;
            goto restart;
        }
#endif
        /* The root is done: publish the result. Worker 0's ends the iteration for everyone, and
         * a helper's as `finisher` says (helper_ends). */
        if (lane == 0) {
            u32 ends = worker == 0 || (clean_worker && helper_ends(params, control, root_depth, ret, f.best_move));
            result->score = ret;
            result->best_move = f.best_move;
            result->depth = (u32)root_depth;
            result->seldepth = seldepth;
            result->pv_len = f.pv_len;
            for (u32 i = 0; i < f.pv_len; i++) result->pv[i] = pv[i];
            result->nodes = nodes;
            result->tt_cutoffs = s.tt_cutoffs;
            result->etc_cutoffs = s.etc_cutoffs;
            result->status = ends ? STATUS_DONE : STATUS_HELPED;
            if (ends) ATOMIC_ADD_U32(&control[CONTROL_DONE], worker == 0 ? FINISH_QUORUM : 1u);
        }
        return;
    }
    if (idle || broken) {
        if (lane == 0) {
            result->nodes = nodes;
            result->tt_cutoffs = s.tt_cutoffs;
            result->etc_cutoffs = s.etc_cutoffs;
            result->status = broken ? STATUS_BROKEN : STATUS_IDLE;
        }
        return;
    }
    /* Suspended: save the stack; the next launch resumes at this node's entry. */
    BARRIER();
    if (lane == 0) {
        s.current = f;
#if YBWC
        s.resume = resume_at;
#endif
        s.ply = ply;
        s.seldepth = seldepth;
#if NMP_VERIFY
        s.nmp_min_ply = nmp_min_ply;
#endif
        s.nodes = nodes;
        result->nodes = nodes;
        result->tt_cutoffs = s.tt_cutoffs;
        result->etc_cutoffs = s.etc_cutoffs;
        result->status = STATUS_RUNNING;
    }
    BARRIER();
    NO_UNROLL for (u32 i = lane; i < stack_words; i += WORKER_LANES) words_saved[i] = words_local[i];
}

/* The sizes the host must agree with: it allocates the stacks by the first and checks its
 * mirrors of the others; then the finish knobs it reads back (FINISH_QUORUM, FINISH_PICK). */
KERNEL void layout_sizes(GLOBAL u32 *out) {
    if (GLOBAL_ID() != 0) return;
    out[0] = STACK_STRIDE_WORDS * 4u;
    out[1] = (u32)sizeof(WorkerResult);
    out[2] = (u32)sizeof(SearchParams);
    out[3] = (u32)sizeof(TTEntry);
    out[4] = (u32)sizeof(SplitPoint);
    out[5] = FINISH_QUORUM;
    out[6] = FINISH_PICK;
}
