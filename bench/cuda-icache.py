#!/usr/bin/env python3
"""How an NVIDIA GPU's instruction caches treat a large kernel: cycles per instruction of
straight-line code against the code's size, for one warp on a multiprocessor and for two or four
warps on one (each on its own sub-partition, as the hardware places one-warp blocks), running the
same code or different code.

Why: the GPU search kernel is about 120 KB of SASS, and with two workers a multiprocessor its
warps wait for instructions in a third of Nsight Compute's stall samples, where one worker alone
waits in about a tenth; its L1 data cache hits 98% (docs/PERFORMANCE.md). Where the time per
instruction jumps tells what code size each cache holds, and so whether a smaller hot path would
pay.

The program writes a CUDA source with two bodies per size, A and B, each N statements of eight
independent chains (x = x * y + K, y from the kernel's arguments and K a constant of its own, so
that nothing can be folded or hoisted: one IMAD each, 16 bytes), compiles it with nvcc and runs
it. Block b runs body A when (b / SMs) is even and B otherwise; the block scheduler puts block b
on SM b mod SMs, so an SM's warps run different code where the table says "A+B".

Usage (on the device): python3 bench/cuda-icache.py [--sizes 256,512,...] [--keep DIR]
"""
import argparse
import os
import subprocess
import tempfile

HEADER = r"""
#include <cstdio>
#include <cuda_runtime.h>
typedef unsigned u32;
"""


def body(name, n, seed):
    """A device function of n multiply-adds over eight chains (marked __noinline__, but the
    compilers inline it into its one caller all the same)."""
    lines = [f"__device__ __noinline__ u32 {name}(u32 a0, u32 y, int reps) {{"]
    lines.append("    u32 " + ", ".join(f"x{j} = a0 + {j}u" for j in range(8)) + ";")
    lines.append("    for (int r = 0; r < reps; r++) {")
    for i in range(n):
        j = i % 8
        # The added constant differs between bodies and statements: distinct code, no folding.
        lines.append(f"        x{j} = x{j} * y + {(seed * 7919 + i * 104729) & 0xffffff}u;")
    lines.append("    }")
    lines.append("    return " + " ^ ".join(f"x{j}" for j in range(8)) + ";")
    lines.append("}")
    return "\n".join(lines)


def kernel(n):
    return f"""
__global__ void run_{n}(unsigned long long *cycles, u32 *sink, u32 y, int reps, int sms, int split) {{
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    int use_b = split && ((blockIdx.x / sms) & 1);
    long long t0 = clock64();
    u32 v = use_b ? body_b_{n}(threadIdx.x, y, reps) : body_a_{n}(threadIdx.x, y, reps);
    long long t1 = clock64();
    if (threadIdx.x == 0) {{ cycles[blockIdx.x] = (unsigned long long)(t1 - t0); sink[blockIdx.x] = v ^ (sm << 20); }}
}}
"""


MAIN = r"""
static double measure(void (*launch)(unsigned long long *, u32 *, int, int, int), int blocks, int reps,
                      int sms, int split) {
    unsigned long long *cycles;
    u32 *sink;
    cudaMalloc(&cycles, blocks * sizeof(unsigned long long));
    cudaMalloc(&sink, blocks * sizeof(u32));
    launch(cycles, sink, blocks, 1, split); // warm-up: loads the code
    launch(cycles, sink, blocks, reps, split);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("error: %s\n", cudaGetErrorString(e)); return -1; }
    unsigned long long h[4096];
    cudaMemcpy(h, cycles, blocks * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
    double sum = 0;
    for (int i = 0; i < blocks; i++) sum += (double)h[i];
    cudaFree(cycles);
    cudaFree(sink);
    return sum / blocks;
}
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="256,512,1024,2048,3072,4096,6144,8192,12288")
    ap.add_argument("--keep", default=None)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    src = [HEADER]
    for n in sizes:
        src.append(body(f"body_a_{n}", n, 1))
        src.append(body(f"body_b_{n}", n, 2))
        src.append(kernel(n))
    src.append(MAIN)
    for n in sizes:
        src.append(f"""
static void launch_{n}(unsigned long long *c, u32 *s, int blocks, int reps, int split) {{
    int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    run_{n}<<<blocks, 32>>>(c, s, 2654435761u, reps, sms, split);
}}""")
    src.append("int main() {\n    int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);")
    src.append('    printf("| statements a body | 1 warp an SM | 2, same code | 2, A+B | 4, same code | 4, A+B |\\n|---|---|---|---|---|---|\\n");')
    for n in sizes:
        reps = max(2, 262144 // n)
        src.append(f"""    {{
        double d = (double){n} * {reps};
        double a = measure(launch_{n}, sms, {reps}, sms, 0) / d;
        double b = measure(launch_{n}, 2 * sms, {reps}, sms, 0) / d;
        double c = measure(launch_{n}, 2 * sms, {reps}, sms, 1) / d;
        double e = measure(launch_{n}, 4 * sms, {reps}, sms, 0) / d;
        double f = measure(launch_{n}, 4 * sms, {reps}, sms, 1) / d;
        printf("| {n} | %.2f | %.2f | %.2f | %.2f | %.2f |\\n", a, b, c, e, f);
    }}""")
    src.append("    return 0;\n}")
    work = args.keep or tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    cu = os.path.join(work, "icache.cu")
    with open(cu, "w") as f:
        f.write("\n".join(src))
    exe = os.path.join(work, "icache")
    subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-o", exe, cu], check=True)
    # Code size of each body, from the SASS.
    sass = subprocess.run(["cuobjdump", "-sass", exe], capture_output=True, text=True, check=False).stdout
    current, counts = None, {}
    for line in sass.splitlines():
        if "Function :" in line:
            current = line.split("Function :")[1].strip()
            counts[current] = 0
        elif current and line.strip().startswith("/*") and "*/" in line and ";" in line:
            counts[current] += 1
    # nvcc inlines the bodies into their kernel: each kernel holds A and B, about 2N instructions.
    for name in sorted(counts, key=lambda n: counts[n]):
        print(f"{name}: {counts[name]} instructions ({counts[name] * 16 / 1024:.1f} KiB), bodies A and B")
    if not counts:
        print("(no SASS listing from cuobjdump: body sizes not shown)")
    print("cycles per statement (one multiply-add, about one instruction) for each warp:\n", flush=True)
    subprocess.run([exe], check=True)


if __name__ == "__main__":
    main()
