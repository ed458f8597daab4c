// Where one-warp blocks land on an NVIDIA GPU, and what sharing a sub-partition costs.
//
// The search kernel runs one worker per block of 32 threads. An SM has four sub-partitions
// (SMSPs), each with its own warp scheduler, issue slot and L0 instruction cache. This program
// asks whether two one-warp blocks placed on one SM share a sub-partition, against a block of two
// warps, whose warps the hardware spreads over the sub-partitions.
//
// Each warp records its SM (%smid) and hardware warp slot (%warpid; the sub-partition is the slot
// modulo 4 on Volta and later) and times a loop of four independent multiply-add chains, which
// keeps one sub-partition's issue slot nearly full: two warps sharing a sub-partition take about
// twice as long as one alone.
//
// Build and run on the device: nvcc -O3 -arch=sm_90 -o /tmp/place bench/cuda-warp-placement.cu
// && /tmp/place
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <map>
#include <set>
#include <cuda_runtime.h>

struct Record {
    unsigned sm, slot;
    long long cycles;
    unsigned sink;
};

__global__ void place(Record *out, int iterations) {
    unsigned sm, slot;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(slot));
    unsigned a = threadIdx.x, b = a + 1, c = a + 2, d = a + 3;
    long long start = clock64();
    for (int i = 0; i < iterations; i++) {
        a = a * 1664525u + 1013904223u;
        b = b * 22695477u + 1u;
        c = c * 1103515245u + 12345u;
        d = d * 134775813u + 1u;
    }
    long long cycles = clock64() - start;
    if ((threadIdx.x & 31) == 0) {
        unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
        out[w] = Record{sm, slot, cycles, a ^ b ^ c ^ d};
    }
}

static void run(int blocks, int threads, int iterations, int sms) {
    int warps = blocks * threads / 32;
    Record *dev;
    cudaMalloc(&dev, warps * sizeof(Record));
    place<<<blocks, threads>>>(dev, 1000); // warm-up
    cudaDeviceSynchronize();
    place<<<blocks, threads>>>(dev, iterations);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("launch failed: %s\n", cudaGetErrorString(err));
        exit(1);
    }
    std::vector<Record> r(warps);
    cudaMemcpy(r.data(), dev, warps * sizeof(Record), cudaMemcpyDeviceToHost);
    cudaFree(dev);
    std::map<unsigned, std::vector<unsigned>> by_sm;
    double cycles = 0;
    long long most = 0;
    for (auto &x : r) {
        by_sm[x.sm].push_back(x.slot);
        cycles += (double)x.cycles;
        if (x.cycles > most) most = x.cycles;
    }
    // An SM whose warps sit on fewer sub-partitions than they could.
    int crowded = 0, max_per_sm = 0;
    std::map<int, int> smsp_hist;
    for (auto &kv : by_sm) {
        std::set<unsigned> smsps;
        for (unsigned s : kv.second) smsps.insert(s % 4);
        int n = (int)kv.second.size();
        if (n > max_per_sm) max_per_sm = n;
        int could = n < 4 ? n : 4;
        if ((int)smsps.size() < could) crowded++;
        smsp_hist[(int)smsps.size()]++;
    }
    printf("| %5d x %3d | %5d | %4zu | %6d | %5d | ", blocks, threads, warps, by_sm.size(),
           max_per_sm, crowded);
    for (auto &kv : smsp_hist) printf("%d:%d ", kv.first, kv.second);
    printf("| %.0f | %lld | %.2f |\n", cycles / warps, most, cycles / warps / iterations);
    if (threads == 32 && warps >= 4) {
        // Whether consecutive blocks land on different SMs (the thirtieth session's control for
        // NOISE_BY_SM, four consecutive workers with one noise, assumed they do): groups of four
        // with two on one SM.
        int groups = warps / 4, sharing = 0;
        for (int g = 0; g < groups; g++) {
            std::set<unsigned> on;
            for (int k = 0; k < 4; k++) on.insert(r[4 * g + k].sm);
            if ((int)on.size() < 4) sharing++;
        }
        printf("    groups of 4 consecutive blocks with two on one SM: %d of %d\n", sharing, groups);
    }
    if (blocks <= 2 * sms && threads == 32) {
        // The slots of the first few SMs, to see the pattern.
        int shown = 0;
        for (auto &kv : by_sm) {
            printf("    sm %3u slots:", kv.first);
            for (unsigned s : kv.second) printf(" %u", s);
            printf("\n");
            if (++shown == 3) break;
        }
    }
}

int main() {
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    printf("%s, %d SMs\n\n", prop.name, sms);
    printf("| blocks x threads | warps | SMs used | most warps on an SM | SMs crowded | "
           "SMs by sub-partitions used | mean cycles | most cycles | cycles/iteration |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    const int it = 1 << 20;
    run(sms, 32, it, sms);
    run(2 * sms, 32, it, sms);
    run(sms, 64, it, sms);
    run(4 * sms, 32, it, sms);
    run(sms, 128, it, sms);
    run(8 * sms, 32, it, sms);
    run(2 * sms, 128, it, sms);
    run(16 * sms, 32, it, sms);
    run(4 * sms, 128, it, sms);
    return 0;
}
