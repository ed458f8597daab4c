/* search_state.h: what the GPU search keeps and shares. Its limits and the ABDADA knobs; a
 * node's frame; the transposition table's entry; what the host passes and reads back
 * (SearchParams, WorkerResult, the control words; mirrored in crates/search-gpu/src/layout.rs);
 * the node-count diagnostic; a worker's stack in shared memory and what lane 0 broadcasts; the
 * lanes' ballot. Part of the search module, before search_position.h (kernel_source.rs joins the
 * parts in order; search.cl describes the whole). */

#define INF 32001
#define MATE 32000
#define MATE_BOUND (MATE - 2 * GPU_MAX_PLY)
#define MAX_MOVES 256

/* ABDADA: the most moves of one node put off to its second pass (the others are searched at once
 * even when busy). At most 16: the frame keeps a byte per move, in one word up to 8 and two above
 * (the larger frame cost one worker 1.2% on the H100, thirteenth session). */
#ifndef MAX_DEFERRED
#define MAX_DEFERRED 8u
#endif
#if MAX_DEFERRED > 16
#error "MAX_DEFERRED is at most 16"
#endif

/* Children settled from their parent (thirty-seventh session; on by default since the
 * thirty-ninth). On a table the game has warmed, 29-57% of the nodes an iteration's finisher
 * enters end on their table entry at once (docs/PERFORMANCE.md), and each costs a whole turn of
 * the state machine: the sync with its barriers and global reads, the entry's draw tests, the
 * return. ETC's round already probes a node's first WORKER_LANES children; with TT_SETTLE it also
 * marks each child whose entry would end it with a value at or below the node's alpha (Frame's
 * `settle`), and keeps that entry's depth and value in the move list's spare words (SETTLE_SLOTS).
 * When the node reaches such a move and the kept depth covers the depth and window the child
 * would get, the node takes the value as the child's return without entering it. A settled child
 * still counts as one node. On the H100 it cost one worker 1.4% of its speed from an empty table,
 * and in games replayed at 0.1 s a move the search reached 0.33 +- 0.18 plies deeper from move 41
 * on (0.16 +- 0.09 over all moves; thirty-eighth session, with a second read of the entry at the
 * move's turn). TT_SETTLE=0 leaves it out; TT_SETTLE=2 also counts the settled children as ETC
 * cutoffs. The kept word also says whether the child gives check (SETTLE_CHECK), so that a
 * settled child is never made nor keyed (forty-second session: 264 workers 4% more nodes a
 * second, 0.22 +- 0.11 plies deeper on a warm table).
 *
 * The entry is not read again at the move's turn: that took lane 0's probe between two barriers
 * inside the move loop, and barriers under a branch are what PoCL's kernel compiler replicates
 * code for (its compile of the search kernel took 415 s against 238 s without the knob on the
 * development machine, 275 s without those two barriers; thirty-ninth session). */
#ifndef TT_SETTLE
#define TT_SETTLE 1
#endif
/* TT_SETTLE_PV (thirty-eighth session, on wherever TT_SETTLE is): PV nodes run ETC's round too,
 * to settle their later children (searched with the null window, each one more turn of the
 * finisher's walk along the PV); they take no cutoff from it, and never settle their first
 * move. One worker's tree was the same and no slower; in games replayed at 0.1 s a move the
 * search went 0.28 +- 0.09 plies deeper than with TT_SETTLE alone (0.44 +- 0.17 from move 41 on). */
#ifndef TT_SETTLE_PV
#define TT_SETTLE_PV 1
#endif
/* SETTLE_AGAIN (thirty-ninth session, on wherever TT_SETTLE is): a node that searches past the
 * WORKER_LANES moves its round looked at runs the round again on the next ones, to settle them
 * only (no cutoff, so that one worker's tree stays the same). On the H100: one worker 0.4%
 * slower (the same tree), 264 workers -5.1% [-13.4%, +5.2%] to depth 15; in games replayed at
 * 0.1 s a move all six parts (three of the game, each side) went deeper, by 0.04 to 0.23 plies. */
#ifndef SETTLE_AGAIN
#define SETTLE_AGAIN 1
#endif
/* Where ETC's round keeps the entries of the children it marks: a ply's list words from
 * SETTLE_SLOTS on, one per lane, which no list reaches (a position has at most 218 legal moves;
 * a node with more than SETTLE_SLOTS settles none). */
#define SETTLE_SLOTS (MAX_MOVES - WORKER_LANES)

/* ---- Frames -----------------------------------------------------------------------------------
 * One node being searched. The current node's frame lives in private memory (registers); its
 * ancestors' frames are spilled to the shared stack on the way down. */
typedef struct {
    i32 alpha, beta, depth, best;
    i32 alpha_orig, static_eval;
    u32 best_move, tt_move;
    u32 n_moves, next, legal;
    u32 flags;
    u32 move;       /* the child being searched */
    u32 step;       /* which search of that child is running (STEP_*) */
    i32 child_depth; /* the child's depth before reduction, for re-searches */
    u32 halfmove;   /* plies since the last capture or pawn move */
    u32 pv_len;
    u32 quiets;     /* quiet moves searched, for late-move pruning */
    u32 deferred_count, deferred_done; /* ABDADA: moves put off, and taken up again */
    u64 deferred;   /* their list indices, a byte each */
#if MAX_DEFERRED > 8
    u64 deferred_more; /* and the 9th to 16th */
#endif
#if TT_SETTLE
    u32 settle;       /* ETC's round: the children, from list index settle_first on, to settle */
    u32 settle_first;
#endif
} Frame;

#define FLAG_PV 1u
#define FLAG_IN_CHECK 2u  /* the side to move is in check: set by the parent, which tested it when
                          * it made the move (the root tests its own; a null move never checks) */
#define FLAG_NULL 4u      /* reached by a null move: no second one in a row */
#define FLAG_QS 8u        /* a quiescence node */
#define FLAG_CLAIMED 16u  /* ABDADA: this node is marked busy in the table, by this worker */
#define FLAG_TT_FIRST 32u /* the table's move is being tried before the others are generated */
#define FLAG_CUT 64u      /* an expected cut node (the CPU search's `cut_node`) */
#define FLAG_IMPROVING 128u /* the static evaluation is above the one two plies up */
#define FLAG_FIFTY 256u   /* in check with the fifty moves run out: mate or a draw */
#define FLAG_ETC 512u     /* the children's table entries have been looked at (ETC) */
#define FLAG_NO_SPLIT 1024u /* YBWC: publishing this node failed (no free split point): not again */
/* The nodes that skip ETC's round: PV nodes, unless the round settles their children. */
#define ETC_SKIP_FLAGS ((TT_SETTLE && TT_SETTLE_PV) ? 0u : FLAG_PV)

#define STEP_FULL 0u      /* the first move, full window */
#define STEP_REDUCED 1u   /* null window, reduced depth */
#define STEP_ZW 2u        /* null window, full depth */
#define STEP_PV 3u        /* the re-search of a PV node's move with the full window */
#define STEP_NULL 4u      /* the null-move search */
#define STEP_RAZOR 5u     /* razoring: this position's quiescence search at alpha (a child of the same side) */
#define STEP_VERIFY 6u    /* NMP_VERIFY: the null move's verification (a child of the same side) */

/* NMP_VERIFY 1: the CPU search's null-move verification. Where a null move fails high at depth
 * NMP_VERIFY_DEPTH or more, the node is searched again, reduced as the null move was, without
 * null moves for the next plies, and the null move's cutoff stands only if that search holds
 * beta too; zugzwang, which fools a null move, is an endgame's. As razoring, the search is a
 * child of the same side on the same board, one ply down (the CPU searches it at the node's own
 * ply): a mate in it counts a ply longer, the positions before the node are not looked at for
 * repetitions (their sides are one ply out of step), and it claims the node's own busy slot.
 * Off by default until played on the device (thirty-fourth session: at equal time the GPU's moves
 * lose most against 16 CPU threads' from move 41 on). */
#ifndef NMP_VERIFY
#define NMP_VERIFY 0
#endif

/* ---- Transposition table ----------------------------------------------------------------------
 * Buckets of four 16-byte entries, shared by every worker, written without locks: `check` is
 * key ^ data, so a torn entry (two workers writing at once) fails the check and reads as a miss.
 * data: move 0..15 | score 16..31 | static eval 32..47 | depth 48..55 | bound 56..57 |
 * generation 58..63. */
typedef struct {
    u64 check;
    u64 data;
} TTEntry;

#define TT_BUCKET 4u
#define BOUND_UPPER 1u
#define BOUND_LOWER 2u
#define BOUND_EXACT 3u

/* ---- Host interface (mirrored in crates/search-gpu/src/layout.rs) ---------------------------- */
/* The most root moves the host may name (a position has at most 218 legal moves). */
#define MAX_ROOT_MOVES 256u

typedef struct {
    PackedBoard root;
    u64 root_key;
    i32 alpha, beta, depth;
    u32 root_halfmove;
    u32 history_len;  /* game keys before the root, oldest first */
    u32 slice_nodes;  /* node budget per worker per launch (on average, with several workers) */
    u32 start;        /* START_ALL or START_KEEP: every worker starts at the root (HELPERS_KEEP); 0: resume */
    u32 generation;   /* transposition table age, 0..63 */
    u32 tt_buckets_log2;
    u32 workers;
    u32 mode;         /* MODE_* */
    u32 finisher; /* who ends an iteration: FINISH_MAIN, FINISH_ANY, FINISH_CHECKED or FINISH_CLEAN */
    u32 root_move_count; /* searchmoves and MultiPV: the root searches only root_moves[..count]; 0: all */
    u16 root_moves[MAX_ROOT_MOVES];
    i32 depth_limit; /* the deepest a helper may search the root (the search's last depth) */
} SearchParams;

#define FINISH_MAIN 0u    /* worker 0 alone ends an iteration */
#define FINISH_ANY 1u     /* the first worker to finish it (Zeta's rule) */
#define FINISH_CHECKED 2u /* worker 0, or a helper that helper_ends allows */
#define FINISH_CLEAN 3u   /* worker 0, or the first clean helper to finish (CLEAN_EVERY, search_moves.h) */

#define MODE_LAZY 0u
/* Pipelined iterations: every DEEPER_HELPERS-th helper searches the iteration 1 to DEEPER_SPREAD
 * plies deeper (within the host's depth_limit) under RMO, ABDADA and both: not under Lazy SMP,
 * which has its own rule, nor YBWC, whose helpers search split points. On a table warm from the
 * game's earlier moves an iteration costs its finisher's path times a warp's latency per node
 * (docs/PERFORMANCE.md, thirty-second session), and the next iterations walk their paths over the
 * entries these helpers have left; where one of them finishes first it ends the iteration at its
 * depth, and the host goes on past it. Against the default without it, 3 s + 0.03 s, H100, 264
 * workers: 32/48/14, +67 [+19, +118] in 94 games; replayed games 0.3 to 0.4 plies deeper, 14% less
 * time to depth 15 from a fresh table (thirty-third session). Every 2nd helper instead scored -54
 * [-121, +9] against it (52 games). One ply at every 2nd or 4th helper, on a fresh table only, was
 * within the noise (sixth, eleventh and twentieth sessions). */
#ifndef DEEPER_HELPERS
#define DEEPER_HELPERS 4
#endif
#ifndef DEEPER_SPREAD
#define DEEPER_SPREAD 2
#endif
#define MODE_RMO 1u
#define MODE_ABDADA 2u
#define MODE_ABDADA_RMO 3u /* both: helpers order quiet moves with noise and defer busy nodes */
#define MODE_YBWC 4u       /* Young Brothers Wait: split points (search_split.h) */

/* ABDADA: positions being searched, by key (`busy[key & (BUSY_ENTRIES - 1)] == key`), so that
 * another worker reaching one as a younger brother (outside an expected cut node: CUT_DEFER)
 * puts it off and searches its other moves first. Only nodes this deep are marked: the table
 * traffic would cost more than it saves below. */
#define BUSY_ENTRIES 65536u
#ifndef ABDADA_MIN_DEPTH
#define ABDADA_MIN_DEPTH 3
#endif
/* Which first moves may be put off too (a younger brother may be, but at an expected cut node).
 * At an expected all-node every move has to be searched and the first is no better a guess than
 * the others, so a helper that finds it busy takes the next: the eldest-brother wait would
 * otherwise send every worker entering the node down the same move. Worker 0 keeps the
 * sequential order, and at PV and expected cut nodes the first move stays everybody's (putting
 * it off there cost 2 to 54%: PERFORMANCE.md, twelfth session). 0: never; 1: at expected
 * all-nodes, every worker; 2: at expected all-nodes, helpers (the default: 4 to 12% less time
 * to depth 13 than 0 with 132 to 528 workers on the H100, thirteenth session); 3: at every node
 * outside the PV, helpers (36 to 42% more time than 2: a cut node's first move is the one that
 * cuts). */
#ifndef FIRST_DEFER
#define FIRST_DEFER 2
#endif
/* Whether a busy younger brother may be put off at an expected cut node too (1), or is searched
 * at once by every worker that reaches it (0, the default). A cut node's later moves are searched
 * only because the first failed to cut, and the next often does: workers spread over its moves
 * search siblings that the one that cuts makes useless. With 0 the nodes the workers visit, and
 * the time to depth 13, went down most at 528 workers (-10%, two sets of four runs; -3% and -2%
 * at 132 and 264; fourteenth session). */
#ifndef CUT_DEFER
#define CUT_DEFER 0
#endif
/* How a put-off move is searched when its node comes back to it (an experiment; 0, the default:
 * as any move at that point). A put-off move was tested for pruning when first met and entered;
 * at 0 it is tested again at the end of the list, where late-move pruning's count (the quiet
 * moves before it, which counts the put-off quiet move twice) has grown, and may be dropped: the
 * finisher's tree then lacks moves worker 0's order would have searched. 1: taken up without a
 * second test, its quiet count undone when it is put off; 2: 1, and reduced by its place in the
 * list (index + 1) rather than by the moves searched before it (the thirteenth session measured
 * the rank it is taken up at as 17% cheaper under `any`, never what it costs a depth). */
#ifndef DEFERRED_AS_MET
#define DEFERRED_AS_MET 0
#endif

typedef struct {
    u32 status;       /* STATUS_* */
    i32 score;
    u32 best_move;
    u32 depth;        /* the depth this worker searched */
    u64 nodes;        /* nodes searched since the search started */
    u32 seldepth;
    u32 pv_len;
    u16 pv[GPU_MAX_PLY];
    u32 partial_move; /* this iteration's best root move so far (one that raised alpha), or 0 */
    i32 partial_score;
    u64 tt_cutoffs;   /* nodes of this iteration that ended on the table's bound at entry */
    u64 etc_cutoffs;  /* nodes of this iteration cut by a child's bound (ETC) */
} WorkerResult;

#define STATUS_RUNNING 0u /* suspended at the end of a slice, resumes at the next launch */
#define STATUS_DONE 1u    /* finished and ended the iteration: score, best move and PV are used */
#define STATUS_IDLE 2u    /* stopped because another worker finished the iteration */
#define STATUS_BROKEN 3u  /* found its own state inconsistent (a bug): the host gives the search up */
#define STATUS_HELPED 4u  /* finished the iteration without ending it: its result is not used */
/* WorkerResult.partial_move's flag above the move's 16 bits: set by a worker whose finished
 * result could end the iteration (under FINISH_CLEAN worker 0 and the clean helpers, under the
 * other finishers every worker), so that the host can tell a clean worker's best root move so far
 * from a noisy helper's when the clock stops an iteration. */
#define PARTIAL_CLEAN 0x10000u

/* control[0]: the workers that have finished the iteration and end it (worker 0 counts as
 * FINISH_QUORUM); the others stop once it reaches FINISH_QUORUM. The host clears it before each
 * launch, so it counts one launch's finishers: the host counts them over the launches (their
 * results keep STATUS_DONE) and ends the iteration at the end of the launch that makes the
 * quorum. */
#define CONTROL_DONE 0
/* FINISH_QUORUM k > 1 (an experiment, fifty-ninth session; 1, the default, is Zeta's rule): under
 * `GPU Finisher any` an iteration ends when k workers have finished it, or worker 0 has, and the
 * host takes one of their results as FINISH_PICK says. The first helper to finish brings back
 * worse moves than worker 0 at the same depth (docs/STRENGTH.md, fifty-sixth and fifty-eighth
 * sessions); if that is because the first is the walk whose noisy order pruned the most, and so
 * missed the most, the next few finishers are a check on it at little cost: they finish soon
 * after. A finished worker waits idle for the others. The host reads both knobs back from the
 * kernel (layout_sizes). Not under YBWC, whose helpers do not finish the root. Measured (H200,
 * 120 games a variant at depth 12 against 16 CPU threads, moves judged): a vote of three or five,
 * or the lowest of three, no better than the default, with the noise by SM or a seed each; and no
 * slower. Why: the default's iteration already ends on about seven finishers in one launch, all
 * reading the same table entries at the root, and they named the same move in every iteration
 * (docs/STRENGTH.md, fifty-ninth session). Off. */
#ifndef FINISH_QUORUM
#define FINISH_QUORUM 1u
#endif
/* Which finished result the host takes (search-gpu's driver, FinishPick): 0 the deepest, then the
 * lowest worker (the default); 1 the lowest value, the one least likely to have missed a
 * refutation; 2 the root move most finishers name, then the lowest value among them. Worker 0's
 * result, where it has one, under 1 and 2. */
#ifndef FINISH_PICK
#define FINISH_PICK 0u
#endif
/* SOLO_MAIN (an experiment, off): the workers that may end an iteration run alone on their
 * multiprocessor: a helper that finds itself beside one suspends for the launch, as a worker beside
 * another is slower (the instruction cache; at depth 19 a node costs a worker 1.14 to 1.21 times as
 * much with a second one on its multiprocessor, seventieth session). 1: worker 0 only, which alone
 * ends iterations under FINISH_MAIN; 2: under FINISH_CLEAN also the clean helpers (worker 0 and
 * about CLEAN_WORKERS more: at 264 workers nine, so nine noisy helpers suspended). Each such worker
 * counts itself in its multiprocessor's word (control[CONTROL_SOLO + SM_ID() % SOLO_SMS]) for
 * the launch, and a helper reads its own at every node's entry. Meaningful on NVIDIA only:
 * elsewhere SM_ID() is the work-group's own number. 1 was tried under FINISH_ANY in the
 * twenty-third session, where worker 0 almost never ends an iteration; H200, 528 workers,
 * FINISH_MAIN (fifty-sixth session): 42% less time to depth 14 from an empty table, none on
 * replayed games' tables (depth 15, 338 searches). 2 under FINISH_CLEAN, H200, bench x8
 * (seventy-first session): 264 workers +9.4% [-7.0, +25.8] time to depth 19 (14 runs), +12.8% to
 * 17, 528 workers +3.9% to 19; the finishers walked 20% faster and their walks were 54% longer:
 * a finisher is paced by the other workers' progress, not by its own speed. Off. */
#ifndef SOLO_MAIN
#define SOLO_MAIN 0
#endif
#if SOLO_MAIN < 0 || SOLO_MAIN > 2
#error "SOLO_MAIN: 0 off, 1 worker 0 alone, 2 every worker that may end an iteration alone"
#endif
#define CONTROL_SOLO 9
#define SOLO_SMS 256u
/* control[1]: nodes entered in this launch by all workers, zeroed by the host before each launch.
 * With several workers a launch ends when they have entered `slice_nodes` nodes each on average,
 * not when each has: workers differ in what their nodes cost (one whose nodes end on the table
 * goes faster), and with a budget of their own the fast ones, the finisher among them, waited
 * at the end of every slice for the slowest (time to depth 13 went down 6 to 16% with 132 to 528
 * workers on the H100, thirteenth session). Each still enters a quarter of its share (one node at
 * least), so that workers beyond those resident at once (a second wave) are not starved, and
 * none enters more than four shares, so that a slice stays short when workers have finished and
 * left the rest to fewer (worker 0 ending iterations alone). One worker keeps its own count: the
 * atomic would cost it 2%. */
#define CONTROL_SLICE 1
/* control[2] and [3]: what a helper's result is checked against before it may end the iteration
 * (FINISH_CHECKED), both packed by root_pack (0: none yet) and cleared by the host when the
 * iteration starts. [2]: the best root move any worker has found at this iteration's depth; [3]:
 * worker 0's value of its first root move.
 * Why (H100, 264 workers, 16 bench positions to depth 14, twenty-sixth session): with worker 0
 * alone ending iterations, the helpers that finished first had kept the last iteration's move
 * in 19 to 24 of the 23 to 25 iterations where worker 0 changed its mind. They finish first
 * because they pruned most: a helper whose search of the first move came out higher than worker
 * 0's searched the other moves against that higher alpha (d1c2 at 55 to 57 against worker 0's
 * 51, which then found d1b3 at 57), and one that had not found the new move had no re-search to
 * do. So under FINISH_CHECKED a helper may end the iteration only once worker 0 has searched its
 * first move, not with a higher value for that move (ROOT_MARGIN), and not if another worker
 * found a better root move. At depth 11 against one CPU thread that took the GPU search from
 * -44 to +33 Elo (worker 0 alone: +104), for 44% more time to depth 14; at 3 s + 0.03 s it
 * lost 35 Elo to FINISH_ANY in 111 games (docs/STRENGTH.md), so it is not the default. */
#define CONTROL_ROOT 2
#define CONTROL_FIRST 3
#ifndef ROOT_MARGIN
#error "ROOT_MARGIN comes from the host (layout.rs, search_defines)"
#endif
/* FINISH_CHECKED's code in the kernel (the root claims of the move step, helper_ends' checks) is
 * built only into the kernel of a search that uses it: the host defines FINISH_CHECKED_CODE 1 for
 * it, and rebuilds the kernel when the finisher changes to or from FINISH_CHECKED. Built into
 * every kernel it cost the default search 1.5% of one worker's speed (H100, bench x4 to depth 12:
 * 4.406 s against 4.340 s without it; twenty-eighth session), though the default never runs it. A
 * kernel without it treats FINISH_CHECKED as FINISH_MAIN. */
#ifndef FINISH_CHECKED_CODE
#define FINISH_CHECKED_CODE 0
#endif

/* A root move's value at full depth (a lower bound or exact) as one word ordered by the value:
 * the value offset to be positive in the high half, the move in the low. */
DEVICE_FN u32 root_pack(i32 value, u32 move) { return ((u32)(value + 32768) << 16) | (move & 0xffffu); }
DEVICE_FN i32 root_unpack_value(u32 packed) { return (i32)(packed >> 16) - 32768; }

/* AHEAD_ENDS 0 (an experiment, off): a helper searching ahead of the iteration (DEEPER_HELPERS)
 * never ends it, under FINISH_ANY too (FINISH_CHECKED never lets one): it only leaves its entries
 * for the next iterations, and the iteration's own depth is the one reported and played. On a
 * clock the GPU's moves were worse than 16 CPU threads' at the same reported depth, where at a
 * fixed depth, whose last iteration no helper ahead can end, they were even (fifty-third session,
 * docs/STRENGTH.md; bench/helper-ahead.py splits a replay's searches by who ended them). */
#ifndef AHEAD_ENDS
#define AHEAD_ENDS 1
#endif

/* A new iteration's first launch (SearchParams.start): START_ALL starts every worker at the root;
 * START_KEEP, from the host where the iteration searches the root and moves of the one before,
 * lets a helper that HELPERS_KEEP keeps go on where it has reached the depth it would start at. */
#define START_ALL 1u
#define START_KEEP 2u

/* HELPERS_KEEP N (an experiment, 0: off): a helper whose result ends no iteration (every helper
 * under FINISH_MAIN, the noisy ones under FINISH_CLEAN) that finishes its root search goes on to
 * the next depth at once (up to N plies past the iteration worker 0 is on, and the search's last
 * depth) instead of idling until the iteration ends, and a helper already at or past the depth
 * a new iteration would start it at is not restarted (START_KEEP): each helper deepens on its
 * own, as Lazy SMP's threads do on a CPU, and worker 0's iterations walk over the entries they
 * leave. H200, 528
 * workers (fifty-sixth session): from an empty table 34% less time to depth 14 (bench positions,
 * two runs); on the tables of replayed games no faster to depth 15 (N = 2 and 64, 492 searches);
 * at 3 s + 0.03 s against the default -8 [-75, +59] in 45 games, as `main` alone. Under
 * FINISH_CLEAN (sixty-third session, 264 workers): 8-10% fewer nodes a second, not more, time to
 * depth 14 within the runs' spread, +6 [-57, +69] in 57 games at 3 s + 0.03 s. Off. */
#ifndef HELPERS_KEEP
#define HELPERS_KEEP 0
#endif

/* Whether a helper's finished root search, of `value` and best move `best`, ends the iteration
 * (the host applies the same rule again to those that did not: GpuSearch::finished). A Lazy SMP
 * helper a ply deeper is held to nothing. Under FINISH_CLEAN only a clean helper asks. */
DEVICE_FN u32 helper_ends(const GLOBAL SearchParams *params, GLOBAL u32 *control, i32 root_depth, i32 value,
                          u32 best) {
    if (!AHEAD_ENDS && root_depth != params->depth && params->mode != MODE_LAZY) return 0u;
    const u32 first_ends = params->finisher == FINISH_ANY || params->finisher == FINISH_CLEAN;
#if !FINISH_CHECKED_CODE
    return first_ends;
#else
    if (params->finisher != FINISH_CHECKED) return first_ends;
    if (root_depth != params->depth) return params->mode == MODE_LAZY;
    u32 first = ((volatile GLOBAL u32 *)control)[CONTROL_FIRST];
    u32 seen = ((volatile GLOBAL u32 *)control)[CONTROL_ROOT];
    if (first == 0u) return 0u;
    if ((first & 0xffffu) == (best & 0xffffu) && value > root_unpack_value(first) + ROOT_MARGIN) return 0u;
    return seen == 0u || (seen & 0xffffu) == (best & 0xffffu) || root_unpack_value(seen) <= value;
#endif
}

/* Diagnostics (the host defines DIAG_UNIQUE=N where KOGGE_SEARCH_DIAG=N is set): every node a
 * worker enters and does not put off counts as new or as seen before, by its key and depth, in a
 * table of 2^N keys after the control words, kept for the whole search. Across workers it tells
 * work done twice (the same node and depth) from work a single worker would not have done. Each
 * key carries the tag of the run that entered it (1 to 3, set by the host): a node a run before
 * this one entered counts as `earlier` (once; it then takes this run's tag), so that a search by
 * many workers after one by a single worker, on the same table, splits its nodes into those of
 * the single worker's tree and those outside it. */
#define CONTROL_DIAG_NEW 4
#define CONTROL_DIAG_SEEN 5
#define CONTROL_DIAG_LOST 6 /* the table's 16 slots after the key's were taken */
#define CONTROL_DIAG_EARLIER 7
#define CONTROL_DIAG_TAG 8
/* Diagnostics (the host defines DIAG_CYCLES=1 where KOGGE_SEARCH_CYCLES is set): where a worker's
 * cycles go. Each turn of the state machine's loop is two parts, the cooperative step `need` asks
 * for (NEED_*) and the control of `state` (STATE_*); lane 0 adds each part's cycles (CYCLES(), the
 * multiprocessor's counter) and a count of its turns to its worker's counters in shared memory,
 * and at the end of a launch to the search's totals: DIAG_PARTS u64 pairs (cycles, turns) after
 * the control words, the cooperative steps at 0..15 and the states at 16..31. Summed over the
 * workers; with one worker, what a node's latency is made of. The counting itself costs a shared
 * add a part. */
#ifndef DIAG_CYCLES
#define DIAG_CYCLES 0
#endif
/* With many workers the totals mix the finisher's path with the helpers' nodes: the build option
 * -DDIAG_CYCLES_WORKER=W (undefined by default) adds only worker W's counters (worker 0, the only
 * finisher under `GPU Finisher main`: its walk's latency on a warm table; fifty-seventh session). */
#define DIAG_PARTS 32u
#define DIAG_STATE_BASE 16u
/* Quiescence's parts apart (forty-second session): its generations and evaluations at
 * DIAG_NEED_GEN_QS and DIAG_NEED_EVAL_QS, its states enter to return at DIAG_STATE_QS + state,
 * so that the table tells the two searches' costs apart. A node is quiescence's once its depth is
 * 0 or less (its frame's FLAG_QS is set on entry). */
#define DIAG_NEED_GEN_QS 14u
#define DIAG_NEED_EVAL_QS 15u
#define DIAG_STATE_QS (DIAG_STATE_BASE + 7u)
/* The counters' first word (a u32 index; 8-byte aligned), after SOLO_MAIN's. */
#define CONTROL_CYCLES ((CONTROL_SOLO + SOLO_SMS + 1u) & ~1u)
#if DIAG_CYCLES
#define CONTROL_DIAG_TABLE (CONTROL_CYCLES + 4 * DIAG_PARTS) /* the table's first word (8-byte aligned) */
#else
#define CONTROL_DIAG_TABLE CONTROL_CYCLES /* the table's first word (a u32 index; 8-byte aligned) */
#endif
#ifdef DIAG_UNIQUE
DEVICE_FN void diag_count(GLOBAL u32 *control, u64 key, i32 depth) {
    GLOBAL u64 *table = (GLOBAL u64 *)(control + CONTROL_DIAG_TABLE);
#ifdef DIAG_KEY_ONLY
    u64 h = key; /* positions, whatever the depth */
#else
    u64 h = key ^ ((u64)(u32)(depth + 64) * U64_C(0x9E3779B97F4A7C15));
#endif
    u64 tag = (u64)(control[CONTROL_DIAG_TAG] & 3u);
    h = (h & ~(u64)3) | tag; /* never 0, an empty slot: the host's tags are 1 to 3 */
    u64 mask = ((u64)1 << DIAG_UNIQUE) - 1u;
    for (u32 probe = 0; probe < 16u; probe++) {
        GLOBAL u64 *slot = table + (((h >> 20) + probe) & mask);
        u64 old = ATOMIC_CAS_U64(slot, 0u, h);
        if (old == 0u) {
            ATOMIC_ADD_U32(&control[CONTROL_DIAG_NEW], 1u);
            return;
        }
        if ((old >> 2) == (h >> 2)) {
            /* Retagged by whoever gets there first: later entries count as seen. */
            u32 earlier = old != h && ATOMIC_CAS_U64(slot, old, h) == old;
            ATOMIC_ADD_U32(&control[earlier ? CONTROL_DIAG_EARLIER : CONTROL_DIAG_SEEN], 1u);
            return;
        }
    }
    ATOMIC_ADD_U32(&control[CONTROL_DIAG_LOST], 1u);
}
#endif

/* YBWC (search_split.h): the split points a worker may have open at once (nested along its path)
 * or given up and not yet closed. */
#define SPLITS_PER_WORKER 4u

/* ---- The shared stack of one worker ------------------------------------------------------------
 * Boards are kept unpacked (88 bytes a ply, not a PackedBoard's 40): every node packed its board
 * on entry and every return unpacked its parent's. The kernel is 96 instructions shorter, and on
 * the H100 264 and 528 workers searched 4% more nodes per second (time to depth 13: -10% and -4%;
 * 132 workers -2%), one worker 1.4% fewer (sixteenth session); the stack is 3 KB larger per
 * worker (12.4 KB), which twelve workers per multiprocessor still fit. */
typedef struct {
    Frame frames[GPU_MAX_PLY];      /* ancestors' frames */
    Board boards[GPU_MAX_PLY];      /* the position at each ply */
    u64 keys[GPU_MAX_PLY];          /* its Zobrist key */
    u32 killers[2 * GPU_MAX_PLY];
    Frame current;                  /* the node about to be entered, across a slice boundary */
#if YBWC
    /* YBWC (search_split.h): at each ply, 0, this worker's own split point (slot + 1), or
     * SPLIT_AT_HELPING where it helps at `help`. */
    u8 split_at[GPU_MAX_PLY];
    u32 split_ply[SPLITS_PER_WORKER]; /* the ply of each own split point */
    u32 split_busy;                 /* own split points not closed yet, a bit a slot */
    u32 split_live;                 /* those of them on the current path (not given up) */
    u32 split_seq;                  /* publications so far (announce words) */
    u32 chain;                      /* the innermost split point above the current node */
    u32 help;                       /* the split point helped at, or SPLIT_NONE */
    u32 resume;                     /* the state a slice resumes at */
#endif
    u32 ply;
    u32 seldepth;
    u64 nodes;
    u64 tt_cutoffs;
    u64 etc_cutoffs;
    u32 root_claim;                 /* lane 0's: its fail high at the root being re-searched (CONTROL_ROOT) */
#if HELPERS_KEEP
    i32 root_depth;                 /* the depth this worker searches the root to (its own) */
#endif
#if NMP_VERIFY
    u32 nmp_min_ply;                /* no null move above this ply (a verification's), or 0 */
#endif
} WorkerStack;

/* Each worker's saved stack starts on a 256-byte boundary. PoCL 3.1 needs it: with the stacks
 * packed at their size (then 9,320 bytes, a multiple of 8 only), the stacks of workers other than 0
 * came back corrupted from suspension now and then, and their results missed mates (moving with
 * unrelated code changes); GPUs read it better aligned too. */
#define STACK_STRIDE_WORDS (((u32)(sizeof(WorkerStack) / 4) + 63u) & ~63u)

/* What lane 0 read from global memory, for every lane. */
typedef struct {
    u64 tt_data;
    u32 tt_hit;
    u32 done;
    u32 busy;         /* ABDADA: another worker is searching this node */
    u32 slice_used;   /* nodes entered in this launch by all workers before this one (several workers) */
    u32 idle;         /* YBWC: workers idle */
    u32 abort;        /* YBWC: the outermost stopped split point above this node, or SPLIT_NONE */
    u32 take;         /* YBWC: the move index taken, TAKE_NONE or TAKE_STOP; a split point's slot */
    u32 split;        /* YBWC: the split point found or closed */
    u32 stop;         /* YBWC: a closed split point's stop, cut move and value, best value */
    u32 cut_move;
    i32 cut_value;
    i32 best;
    i32 split_alpha;  /* YBWC: a PV split point's alpha when a move was taken */
    u32 best_move;    /* YBWC: a closed PV split point's best move and line length */
    u32 pv_len;
    i32 history;      /* the history of a move late-move reduction is reducing (a shared table) */
#if SOLO_MAIN
    u32 solo_yield;   /* SOLO_MAIN: this helper shares a finisher's multiprocessor */
#endif
} Broadcast;

/* ---- Enhanced transposition cutoff ---------------------------------------------------------------
 * Before a node outside the PV searches its list, the lanes make its first WORKER_LANES moves and
 * probe their children's table entries together: a child bounded at or below -beta by an entry
 * deep enough cuts the node at once, before any move is searched. A round is one move made and one
 * probe per lane, side by side; on a CPU each probe is a cache miss of its own, and engines that
 * use ETC at all keep it to the deeper nodes. */
#ifndef ETC_MIN_DEPTH
#define ETC_MIN_DEPTH 1
#endif

/* ---- Votes ------------------------------------------------------------------------------------
 * The lanes for which p holds, as a mask every lane gets: a ballot through shared memory, for the
 * rounds in which each lane tests one move (NEED_SCAN, NEED_ETC). `word` only grows, by each
 * voting lane's bit, so no round resets it: the mask is its growth since `*seen`, what every lane
 * read after the round before. The barrier after the read keeps the next round's votes from
 * reaching a lane still reading this one (PoCL runs the lanes one after another). What a lane
 * wrote to shared memory before voting, every lane can read after. Where the lanes have a warp's
 * ballot (WARP_COLLECTIVES) the vote is that, after a warp barrier that keeps the last promise:
 * 32 atomics on one shared word and two barriers fewer. */
DEVICE_FN u32 lanes_voting(LOCAL_PTR u32 *word, u32 *seen, u32 lane, u32 p) {
#if WARP_COLLECTIVES
    (void)word;
    (void)seen;
    (void)lane;
    WARP_SYNC();
    return WARP_BALLOT(p);
#else
    if (p) ATOMIC_ADD_U32(word, 1u << lane);
    BARRIER();
    u32 now = *word, mask = now - *seen;
    BARRIER();
    *seen = now;
    return mask;
#endif
}
