// Uses every name of the kernel prelude once or more; tests/device.rs runs it on each device and
// compares every output with the same computation on the CPU. GROUP (the work-group size) and
// SALT come from the host's #defines.

// A file-scope constant table, read through a CONSTANT_PTR parameter.
CONSTANT_ARRAY u64 MASKS[4] = {
    U64_C(0xFFFFFFFFFFFFFFFF),
    U64_C(0x00000000FFFFFFFF),
    U64_C(0xFFFFFFFF00000000),
    U64_C(0x8100000000000081),
};

DEVICE_FN u64 masked(CONSTANT_PTR const u64* masks, u32 i, u64 v) {
    return v & masks[i % 4];
}

// Sums a work-group's values in shared memory, halving the active threads each step.
DEVICE_FN u64 group_sum(LOCAL_PTR u64* scratch, u32 lid, u64 v) {
    scratch[lid] = v;
    BARRIER();
    NO_UNROLL for (u32 stride = LOCAL_SIZE() / 2; stride > 0; stride /= 2) {
        if (lid < stride) {
            scratch[lid] += scratch[lid + stride];
        }
        BARRIER();
    }
    return scratch[0];
}

KERNEL void LAUNCH_BOUNDS(GROUP, 2) prelude_check(
    GLOBAL const u64* values,   // one per thread
    u32 n,                      // threads with a value; the rest of the launch idles
    u64 salt,                   // a u64 argument
    i32 offset,                 // an i32 argument
    GLOBAL u32* bits,           // per thread: popcount, ctz, popcount(masked), 2 tickets
    GLOBAL u32* ids,            // per thread: global, local, group, groups, local size, votes
                                // (WARP_VOTES, then ALL_IN_WARP of a test)
    GLOBAL u64* sums,           // per group: the group's sum of values ^ salt
    GLOBAL u64* total64,        // [0]: sum of all values (wraps); [1]: ticket counter
    GLOBAL u32* total32,        // [0]: sum of popcounts; [1]: ticket counter
    GLOBAL i32* misc)           // sizes of the integer types, the i32 argument, SALT, atomics
{
    LOCAL u64 scratch[GROUP];
    u32 gid = GLOBAL_ID();
    u32 lid = LOCAL_ID();
    u64 v = gid < n ? values[gid] ^ salt : 0;

    u64 sum = group_sum(scratch, lid, v);
    if (lid == 0) {
        sums[GROUP_ID()] = sum;
    }
    ids[gid * 7 + 0] = GLOBAL_ID();
    ids[gid * 7 + 1] = LOCAL_ID();
    ids[gid * 7 + 2] = GROUP_ID();
    ids[gid * 7 + 3] = NUM_GROUPS();
    ids[gid * 7 + 4] = LOCAL_SIZE();
    // A vote that holds on every lane of the even-numbered 32-thread blocks and fails on lane 5
    // of the odd ones (before any thread returns, so that whole warps vote).
    ids[gid * 7 + 5] = WARP_VOTES;
    ids[gid * 7 + 6] = ALL_IN_WARP((gid / 32) % 2 == 0 || gid % 32 != 5) ? 1u : 0u;
    if (gid >= n) {
        return;
    }
    u32 pop = POPCOUNT64(v);
    bits[gid * 5 + 0] = pop;
    // CTZ64 in the low byte, CTZ32 of the high word (32 if zero) above it, POPCOUNT32 of the
    // low word above that.
    u32 high = (u32)(v >> 32);
    bits[gid * 5 + 1] = (v != 0 ? CTZ64(v) : 64) | ((high != 0 ? CTZ32(high) : 32) << 8) |
                        (POPCOUNT32(v) << 16);
    bits[gid * 5 + 2] = POPCOUNT64(masked(MASKS, gid, v));
    ATOMIC_ADD_U64(&total64[0], v);
    ATOMIC_ADD_U32(&total32[0], pop);
    // The atomics return the previous value: the tickets drawn are 0..n in some order. The u64
    // counter steps by 2^40 so that the carry into the high word is exercised.
    bits[gid * 5 + 3] = ATOMIC_ADD_U32(&total32[1], 1u);
    bits[gid * 5 + 4] = (u32)(ATOMIC_ADD_U64(&total64[1], U64_C(1) << 40) >> 40);
    if (gid == 0) {
        misc[0] = (i32)sizeof(u64);
        misc[1] = (i32)sizeof(i64);
        misc[2] = (i32)sizeof(u32);
        misc[3] = (i32)sizeof(i32);
        misc[4] = (i32)sizeof(u16);
        misc[5] = (i32)sizeof(u8);
        misc[6] = offset - 1;
        misc[7] = SALT_CHECK;
        misc[8] = (i32)(((i64)offset * 3) >> 1);
    }
    // misc[9]: the largest of the threads' signed values (v & 0xffff) - 30000; misc[10]: the
    // thread (+ 1) whose compare-and-swap found 0 there; misc[11]: how many did (one).
    ATOMIC_MAX_I32(&misc[9], (i32)(v & 0xffffu) - 30000);
    if (ATOMIC_CAS_U32((GLOBAL u32*)&misc[10], 0u, gid + 1u) == 0u) ATOMIC_ADD_U32((GLOBAL u32*)&misc[11], 1u);
}

// The warp collectives (launched in work-groups of one warp, 32 threads): per thread, whether
// the prelude has them (WARP_COLLECTIVES), then its warp's ballot of the odd values, sum of
// value - 1000, OR of 1 << (value % 32), prefix sum of the values up to this lane, and lane 31's
// value. Where the prelude has none, only the first word is written (0).
KERNEL void warp_check(GLOBAL const u32* values, GLOBAL u32* out) {
    u32 gid = GLOBAL_ID();
#if WARP_COLLECTIVES
    u32 v = values[gid];
    out[gid * 6 + 0] = 1u;
    out[gid * 6 + 1] = WARP_BALLOT(v & 1u);
    out[gid * 6 + 2] = (u32)WARP_SUM_I32((i32)v - 1000);
    out[gid * 6 + 3] = WARP_OR_U32(1u << (v % 32u));
    WARP_SYNC();
    out[gid * 6 + 4] = WARP_PREFIX_U32(v);
    out[gid * 6 + 5] = WARP_LAST_U32(v);
#else
    out[gid * 6 + 0] = 0u;
#endif
}
