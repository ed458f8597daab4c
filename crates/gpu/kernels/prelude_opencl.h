// Kogge kernel prelude, OpenCL flavour (OpenCL C 1.2: programs are built with -cl-std=CL1.2).
// kogge-gpu prepends it, then the `#define NAME VALUE` lines given to `Device::build`, to every
// kernel source. Its CUDA twin, prelude_cuda.h, defines the same names with the same meaning and
// the same result types; see there for what each one is for. Keep the two files in step.

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

#define KOGGE_OPENCL 1

// ---- Integer types ------------------------------------------------------------------------------
typedef ulong u64;
typedef long i64;
typedef uint u32;
typedef int i32;
typedef ushort u16;
typedef short i16;
typedef uchar u8;

// OpenCL's long is 64 bits; C99's ULL suffix is not part of OpenCL C.
#define U64_C(c) (c##UL)

// ---- Qualifiers ---------------------------------------------------------------------------------
#define KERNEL __kernel
// A register budget is a CUDA hint (see prelude_cuda.h); OpenCL compilers choose their own.
#define LAUNCH_BOUNDS(threads, blocks)
#define GLOBAL __global
// __local arrays may only be declared at the top level of a kernel body, not in helpers.
#define LOCAL __local
#define LOCAL_PTR __local
#define CONSTANT_ARRAY __constant
#define CONSTANT_PTR __constant
// `static`: plain C99 `inline` leaves no out-of-line definition, which fails to link wherever the
// compiler decides not to inline.
#define DEVICE_FN static inline
// Kept out of line (see prelude_cuda.h). A Clang attribute, which the OpenCL compilers Kogge
// runs on (PoCL, NVIDIA's) accept.
#define NOINLINE_FN static __attribute__((noinline))

// A loop compiled as a loop, not unrolled (see prelude_cuda.h); PoCL and NVIDIA take the pragma.
#define NO_UNROLL _Pragma("unroll 1")

// ---- Thread indices (1-D launches only), all u32 ------------------------------------------------
#define GLOBAL_ID() ((u32)get_global_id(0))
#define LOCAL_ID() ((u32)get_local_id(0))
#define LOCAL_SIZE() ((u32)get_local_size(0))
#define GROUP_ID() ((u32)get_group_id(0))
#define NUM_GROUPS() ((u32)get_num_groups(0))
// The multiprocessor this work-item runs on: PTX's %smid on NVIDIA (inline PTX, as the votes
// below); elsewhere no such thing is known, and each work-group counts as its own.
#ifdef KOGGE_OPENCL_NVIDIA
DEVICE_FN u32 kogge_sm_id(void) {
    u32 sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    return sm;
}
#define SM_ID() kogge_sm_id()
#else
#define SM_ID() GROUP_ID()
#endif
// The multiprocessor's cycle counter, for diagnostics that time a kernel's parts (the search's
// DIAG_CYCLES): PTX's %clock64 on NVIDIA; elsewhere OpenCL has none, and it reads 0.
#ifdef KOGGE_OPENCL_NVIDIA
DEVICE_FN u64 kogge_cycles(void) {
    u64 c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c));
    return c;
}
#define CYCLES() kogge_cycles()
#else
#define CYCLES() ((u64)0)
#endif

// Both fences, like CUDA's __syncthreads(): global memory written before the barrier is visible
// to the group after it too.
#define BARRIER() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)

// Orders this work-item's global-memory accesses (see prelude_cuda.h). OpenCL C 1.2 promises
// the ordering only; NVIDIA's driver emits a device-wide fence for it and PoCL's memory is
// coherent, the two OpenCL targets Kogge runs on.
#define MEMORY_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)

// ---- Bit operations, u32 results ----------------------------------------------------------------
DEVICE_FN u32 kogge_popcount64(u64 x) { return (u32)popcount(x); }
// ctz() is OpenCL C 2.0; isolate the lowest bit and count the zeros above it instead.
DEVICE_FN u32 kogge_ctz64(u64 x) { return (u32)(63 - clz(x & (0 - x))); }
#define POPCOUNT64(x) kogge_popcount64((u64)(x))
#define POPCOUNT32(x) ((u32)popcount((u32)(x)))
#define CTZ64(x) kogge_ctz64((u64)(x))
// Index of the lowest set bit of a 32-bit word; x must not be 0. The bits below the lowest set
// one, counted, as in prelude_cuda.h: three operations where isolating the bit and counting the
// zeros above it takes four (NVIDIA's OpenCL, start perft 9: 3.79 -> 3.57 s).
DEVICE_FN u32 kogge_ctz32(u32 x) { return (u32)popcount(~x & (x - 1u)); }
#define CTZ32(x) kogge_ctz32((u32)(x))

// ---- Warp votes (see prelude_cuda.h) --------------------------------------------------------------
// OpenCL 1.2 has no sub-group votes. NVIDIA's compiler takes inline PTX (the host defines
// KOGGE_OPENCL_NVIDIA there), so the vote is PTX's, among the lanes running it (activemask);
// elsewhere each work-item decides alone.
#ifdef KOGGE_OPENCL_NVIDIA
#define WARP_VOTES 1
DEVICE_FN int kogge_all_in_warp(int p) {
    int all;
    asm volatile("{ .reg .pred p, q; .reg .b32 m; activemask.b32 m; setp.ne.s32 p, %1, 0; "
                 "vote.sync.all.pred q, p, m; selp.s32 %0, 1, 0, q; }"
                 : "=r"(all)
                 : "r"(p));
    return all;
}
#define ALL_IN_WARP(p) kogge_all_in_warp((p) ? 1 : 0)
#else
#define WARP_VOTES 0
#define ALL_IN_WARP(p) (p)
#endif

// ---- Warp collectives (see prelude_cuda.h) ---------------------------------------------------------
// OpenCL 1.2 has no sub-group functions. NVIDIA's compiler takes PTX's ballot and shuffles inline,
// but the search with them there took 7% more time for one worker than with shared memory (H200,
// forty-eighth session: its `asm volatile` blocks keep the compiler from moving code across
// them), so OpenCL keeps the shared memory paths everywhere.
#undef WARP_COLLECTIVES
#define WARP_COLLECTIVES 0

// ---- Atomics: add v to *p, return the previous value (u64 / u32) -------------------------------
#define ATOMIC_ADD_U64(p, v) ((u64)atom_add((p), (u64)(v)))
#define ATOMIC_ADD_U32(p, v) ((u32)atomic_add((p), (u32)(v)))
// Compare-and-swap: *p = v if *p == cmp; returns the previous value.
#define ATOMIC_CAS_U64(p, cmp, v) ((u64)atom_cmpxchg((p), (u64)(cmp), (u64)(v)))
#define ATOMIC_CAS_U32(p, cmp, v) ((u32)atomic_cmpxchg((p), (u32)(cmp), (u32)(v)))
// *p = max(*p, v), signed; returns the previous value.
#define ATOMIC_MAX_I32(p, v) ((i32)atomic_max((p), (i32)(v)))
// The same, unsigned.
#define ATOMIC_MAX_U32(p, v) ((u32)atomic_max((p), (u32)(v)))
