// Kogge kernel prelude, CUDA flavour (compiled by NVRTC). kogge-gpu prepends it, then the
// `#define NAME VALUE` lines given to `Device::build`, to every kernel source. Its OpenCL twin,
// prelude_opencl.h, defines the same names, so one kernel source builds on both backends and
// needs no #ifdef (the hashcat way: the prelude absorbs the dialects, the kernels stay plain).
//
// Every name below has the same meaning and the same result type in both preludes. Keep the two
// files in step: tests/device.rs builds a kernel that uses each of them on every device.

#define KOGGE_CUDA 1

// ---- Integer types ------------------------------------------------------------------------------
typedef unsigned long long u64;
typedef long long i64;
typedef unsigned int u32;
typedef int i32;
typedef unsigned short u16;
typedef short i16;
typedef unsigned char u8;

// A 64-bit unsigned constant: U64_C(0x8100000000000081).
#define U64_C(c) (c##ULL)

// ---- Qualifiers ---------------------------------------------------------------------------------
// A kernel entry point: `KERNEL void perft_leaf(GLOBAL const u64* in, u32 n)`.
#define KERNEL extern "C" __global__
// After `KERNEL void`: the kernel is launched with at most `threads` per work-group and should fit
// `blocks` work-groups per multiprocessor, which caps its registers (per kernel, where NVRTC's
// --maxrregcount caps the whole module). `KERNEL void LAUNCH_BOUNDS(128, 6) perft_staged2(...)`.
#define LAUNCH_BOUNDS(threads, blocks) __launch_bounds__(threads, blocks)
// Pointer to device (global) memory, in kernel parameters and helpers.
#define GLOBAL
// A shared-memory array declared at the top level of a kernel body: `LOCAL u64 stack[64];`.
#define LOCAL __shared__
// Pointer to shared memory in a helper's parameter list: `DEVICE_FN void f(LOCAL_PTR u64* s)`.
#define LOCAL_PTR
// A file-scope constant table: `CONSTANT_ARRAY u64 KNIGHT[64] = { ... };` (64 KiB in all).
// (`-DCONSTANT_ARRAY=__device__` puts them in global memory instead, for experiments.)
#ifndef CONSTANT_ARRAY
#define CONSTANT_ARRAY __constant__
#endif
// A file-scope table in global memory, read through the L1 cache. The tables that the lanes of
// a warp read each at its own index live there: constant memory serves one address at a time,
// global memory a whole cache line. The evaluation's weights (each lane's piece) and SEE's values
// (each lane's move) so took one worker 2.6% less time to depth 12 on the H100 (forty-third
// session; the Zobrist keys too, whose reads are mostly alike on every lane, no better). OpenCL
// 1.2 has no file-scope global arrays: there they stay constant.
#define GLOBAL_TABLE const __device__
#ifndef EVAL_ARRAY
#define EVAL_ARRAY GLOBAL_TABLE
#endif
#ifndef SEE_ARRAY
#define SEE_ARRAY GLOBAL_TABLE
#endif
// Pointer to such a table in a helper's parameter list.
#define CONSTANT_PTR
// A helper function, always inlined.
#define DEVICE_FN __device__ __forceinline__
// A helper function kept out of line: one copy of a large body called from several places, so
// that a big kernel's code fits the instruction cache. Costs a call and, for pointer arguments
// to private data, stack traffic. Never with a LOCAL_PTR parameter: under OpenCL, PoCL 3.1
// compiles such a function so that it does not see what the work-group wrote to that local
// memory (crates/gpu/tests/kernel_source_rules.rs checks the rule and says how it was found).
#define NOINLINE_FN __device__ __noinline__

// Before a loop: compile it as a loop, not unrolled. For cold loops with a constant trip count
// that the compiler would otherwise unroll into hundreds of instructions of a big kernel.
#define NO_UNROLL _Pragma("unroll 1")

// ---- Thread indices (1-D launches only), all u32 ------------------------------------------------
#define GLOBAL_ID() ((u32)(blockIdx.x * blockDim.x + threadIdx.x))
#define LOCAL_ID() ((u32)threadIdx.x)
#define LOCAL_SIZE() ((u32)blockDim.x)
#define GROUP_ID() ((u32)blockIdx.x)
#define NUM_GROUPS() ((u32)gridDim.x)
// The multiprocessor this thread runs on (PTX's %smid): the search seeds its helpers' noise by it
// (NOISE_BY_SM); see prelude_opencl.h for the fallback elsewhere.
DEVICE_FN u32 kogge_sm_id() {
    u32 sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    return sm;
}
#define SM_ID() kogge_sm_id()
// The multiprocessor's cycle counter (PTX's %clock64), for diagnostics that time a kernel's
// parts (the search's DIAG_CYCLES); 0 where no counter is known (prelude_opencl.h).
#define CYCLES() ((u64)clock64())

// Every thread of the work-group waits here; shared and global memory writes made before it are
// visible to the whole group after it. Must be reached by all threads of the group.
#define BARRIER() __syncthreads()

// Orders this thread's global-memory accesses: those before it are visible device-wide before
// those after it. For hand-made locks around data in global memory (reached per thread, unlike
// BARRIER).
#define MEMORY_FENCE() __threadfence()

// ---- Bit operations, u32 results ----------------------------------------------------------------
DEVICE_FN u32 kogge_popcount64(u64 x) { return (u32)__popcll(x); }
// Index of the lowest set bit; x must not be 0 (gives 0xFFFFFFFF then, on both backends).
DEVICE_FN u32 kogge_ctz64(u64 x) { return (u32)(__ffsll((long long)x) - 1); }
#define POPCOUNT64(x) kogge_popcount64((u64)(x))
// One population count where POPCOUNT64 takes two: for sets known to lie in one 32-bit word.
#define POPCOUNT32(x) ((u32)__popc((u32)(x)))
#define CTZ64(x) kogge_ctz64((u64)(x))
// The same for 32 bits: the bits below the lowest set one, counted (subtract, and-not, one
// population count; CTZ64 takes about nine). Bit reverse and leading zeros is two instructions
// but two trips to the multi-cycle unit, whose results the perft tail waited on: 1.6-1.9% slower
// on the H100 (isolating the bit and counting leading zeros, 3-5% slower).
DEVICE_FN u32 kogge_ctz32(u32 x) { return (u32)__popc(~x & (x - 1u)); }
#define CTZ32(x) kogge_ctz32((u32)(x))

// ---- Warp votes ----------------------------------------------------------------------------------
// ALL_IN_WARP(p): whether p holds on every lane of the warp (OpenCL: sub-group) running the call
// together. Where the backend has no vote, WARP_VOTES is 0 and ALL_IN_WARP(p) is the lane's own p:
// a kernel that votes to keep a warp on one of two correct paths stays correct there, but its
// lanes may split between the paths (test WARP_VOTES to keep the path that serves every lane).
#define WARP_VOTES 1
#define ALL_IN_WARP(p) __all_sync(__activemask(), (p))

// ---- Warp collectives (a work-group of one warp) -------------------------------------------------
// The lanes of one warp exchanging values in registers, where the kernels would otherwise go
// through shared memory and barriers: for kernels whose work-groups are exactly one warp of 32
// lanes (the search's workers). WARP_COLLECTIVES is 1 on CUDA and 0 under OpenCL
// (prelude_opencl.h says why), where a kernel keeps its shared memory path under
// `#if WARP_COLLECTIVES`; `-DWARP_COLLECTIVES=0` takes the shared memory paths
// on CUDA too, to compare the two. Every one is called by all 32 lanes together, converged (as
// BARRIER() is reached by the whole group), and gives every lane the same result but PREFIX's.
// The search's votes, evaluation sums, king's danger map and move list offsets so took one worker
// 1.7% less time to depth 12 (H200, forty-eighth session; 18,065 -> 17,725 cycles a node).
//   WARP_BALLOT(p)       the lanes where p holds: bit i for lane i (u32)
//   WARP_SUM_I32(x)      the sum of x over the 32 lanes
//   WARP_OR_U32(x)       the OR of x over the 32 lanes
//   WARP_PREFIX_U32(x)   the sum of x over lanes 0 to this one (inclusive)
//   WARP_LAST_U32(x)     lane 31's x
//   WARP_SYNC()          the warp's barrier: its lanes wait for each other, and the shared and
//                        global memory writes made before it are visible to all of them after it
//                        (for a group of one warp, what BARRIER() does, and no faster: the search
//                        with every BARRIER() a WARP_SYNC() measured the same)
#ifndef WARP_COLLECTIVES
#define WARP_COLLECTIVES 1
#endif
#define WARP_ALL_LANES 0xffffffffu
#define WARP_BALLOT(p) ((u32)__ballot_sync(WARP_ALL_LANES, (p) ? 1 : 0))
DEVICE_FN i32 kogge_warp_sum_i32(i32 x) {
    for (u32 d = 16; d > 0; d >>= 1) x += __shfl_xor_sync(WARP_ALL_LANES, x, d);
    return x;
}
#define WARP_SUM_I32(x) kogge_warp_sum_i32((i32)(x))
DEVICE_FN u32 kogge_warp_or_u32(u32 x) {
    for (u32 d = 16; d > 0; d >>= 1) x |= __shfl_xor_sync(WARP_ALL_LANES, x, d);
    return x;
}
#define WARP_OR_U32(x) kogge_warp_or_u32((u32)(x))
DEVICE_FN u32 kogge_warp_prefix_u32(u32 x) {
    u32 lane = threadIdx.x & 31u;
    for (u32 d = 1; d < 32u; d <<= 1) {
        u32 below = __shfl_up_sync(WARP_ALL_LANES, x, d);
        if (lane >= d) x += below;
    }
    return x;
}
#define WARP_PREFIX_U32(x) kogge_warp_prefix_u32((u32)(x))
#define WARP_LAST_U32(x) ((u32)__shfl_sync(WARP_ALL_LANES, (u32)(x), 31))
#define WARP_SYNC() __syncwarp()

// ---- Atomics: add v to *p, return the previous value (u64 / u32) -------------------------------
// p may point to global or shared memory.
#define ATOMIC_ADD_U64(p, v) ((u64)atomicAdd((unsigned long long*)(p), (unsigned long long)(v)))
#define ATOMIC_ADD_U32(p, v) ((u32)atomicAdd((unsigned int*)(p), (unsigned int)(v)))
// Compare-and-swap: *p = v if *p == cmp; returns the previous value.
#define ATOMIC_CAS_U64(p, cmp, v) \
    ((u64)atomicCAS((unsigned long long*)(p), (unsigned long long)(cmp), (unsigned long long)(v)))
#define ATOMIC_CAS_U32(p, cmp, v) ((u32)atomicCAS((unsigned int*)(p), (unsigned int)(cmp), (unsigned int)(v)))
// *p = max(*p, v), signed; returns the previous value.
#define ATOMIC_MAX_I32(p, v) ((i32)atomicMax((int*)(p), (int)(v)))
// The same, unsigned.
#define ATOMIC_MAX_U32(p, v) ((u32)atomicMax((unsigned int*)(p), (unsigned int)(v)))
