#!/usr/bin/env python3
"""How much straight-line code warps run from the instruction caches, 1 to 16 warps an SM.

bench/cuda-icache.py (twenty-eighth session) found the caches with one to four warps a
multiprocessor in one or two different bodies: about 32 KB at full speed and 128 KB behind it,
both shared by the multiprocessor. The search at game depths runs 264 to 2,112 workers (2 to 16
warps a multiprocessor) each at its own place in the same code, and the code that makes up 90% of
its executed instructions is 57-60 KiB at every depth (PERFORMANCE.md, eighty-sixth session).
This probe times that case: kernels of one loop each over N KiB of independent integer
instructions (eight interleaved chains, so that no instruction waits on another), run by 1 to
16 warps a multiprocessor that either enter the loop together (they share what is fetched) or
spread evenly over it (each warp enters a pass's time over the warps after the one before), and
prints the cycles each warp took an instruction.

Usage (on the device): python3 bench/gpu-icache-probe.py
  NVCC      CUDA's compiler (default /usr/local/cuda/bin/nvcc)
  --emit F  only write the CUDA source to F (to compile its kernels elsewhere, e.g. with NVRTC)
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

# Loop bodies in KiB of SASS (two 16-byte instructions a statement).
SIZES_KIB = [2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256]
WARPS_PER_SM = [1, 2, 4, 8, 16]
CHAINS = 8
BYTES_PER_STATEMENT = 32


def kernel_source(kib: int) -> str:
    statements = kib * 1024 // BYTES_PER_STATEMENT
    lines = [
        f'extern "C" __global__ void probe_{kib}(unsigned *out, unsigned long long *cycles,',
        "                                    unsigned b, int reps, int warps_per_sm, long long delay) {",
        "    // Blocks go to the multiprocessors in turn, so blockIdx.x / multiprocessors is this",
        "    // warp's rank on its multiprocessor: each rank enters the loop `delay` cycles after the",
        "    // one before, so that with `delay` a pass's time over the warps they run it spread",
        "    // evenly over its code (entering it in the middle would make the loop irreducible).",
        "    int sms = gridDim.x / warps_per_sm;",
        "    long long wait = (long long)(blockIdx.x / sms) * delay;",
        "    long long entered = clock64();",
        "    while (clock64() - entered < wait) {}",
        "    unsigned " + ", ".join(f"a{k} = threadIdx.x + {k}u" for k in range(CHAINS)) + ";",
        "    int r = reps;",
        "    long long start = clock64();",
        "    do {",
    ]
    for i in range(statements):
        k = i % CHAINS
        # The constants differ and `b` is known only at run time: nothing folds.
        const = (i * 2654435761 + 12345) & 0xFFFFFFFF
        lines.append(f"        a{k} = (a{k} + 0x{const:08x}u) ^ b;")
    lines += [
        "    } while (--r > 0);",
        "    long long took = clock64() - start;",
        "    if (threadIdx.x == 0) cycles[blockIdx.x] = took;",
        "    out[blockIdx.x * 32 + threadIdx.x] = " + " ^ ".join(f"a{k}" for k in range(CHAINS)) + ";",
        "}",
        "",
    ]
    return "\n".join(lines)


HOST = r"""
#ifndef __CUDACC_RTC__
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

typedef void (*Probe)(unsigned *, unsigned long long *, unsigned, int, int, long long);

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

int main() {
    const int sizes[] = {SIZES};
    const Probe probes[] = {PROBES};
    const int warps[] = {WARPS};
    const int nsizes = sizeof(sizes) / sizeof(sizes[0]);
    const int nwarps = sizeof(warps) / sizeof(warps[0]);
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int sms = prop.multiProcessorCount;
    printf("%s, %d multiprocessors\n", prop.name, sms);
    int max_blocks = sms * warps[nwarps - 1];
    unsigned *out;
    unsigned long long *cycles;
    CHECK(cudaMalloc(&out, max_blocks * 32 * sizeof(unsigned)));
    CHECK(cudaMalloc(&cycles, max_blocks * sizeof(unsigned long long)));
    std::vector<unsigned long long> host(max_blocks);
    std::vector<double> same(nsizes * nwarps), spread(nsizes * nwarps);
    for (int s = 0; s < nsizes; s++) {
        long long instructions = (long long)sizes[s] * 1024 / 16;
        int reps = (int)(4000000 / instructions) + 1;
        for (int w = 0; w < nwarps; w++) {
            int blocks = sms * warps[w];
            long long delay = 0;
            for (int pass = 0; pass < 2; pass++) {  // entering together, then spread
                for (int run = 0; run < 2; run++) {  // the first warms the caches and clocks
                    probes[s]<<<blocks, 32>>>(out, cycles, 0x9e3779b9u, reps, warps[w], delay);
                    CHECK(cudaGetLastError());
                    CHECK(cudaDeviceSynchronize());
                }
                CHECK(cudaMemcpy(host.data(), cycles, blocks * sizeof(unsigned long long),
                                 cudaMemcpyDeviceToHost));
                double sum = 0;
                for (int i = 0; i < blocks; i++) sum += (double)host[i];
                double per_warp = sum / blocks;
                (pass ? spread : same)[s * nwarps + w] = per_warp / ((double)instructions * reps);
                delay = (long long)(per_warp / reps / warps[w]);
            }
        }
    }
    for (int pass = 0; pass < 2; pass++) {
        printf("\ncycles a warp took an instruction, warps %s\n",
               pass ? "spread evenly over the loop" : "entering at the same instruction");
        printf("  loop KiB");
        for (int w = 0; w < nwarps; w++) printf("  %2d/SM", warps[w]);
        printf("\n");
        for (int s = 0; s < nsizes; s++) {
            printf("  %8d", sizes[s]);
            for (int w = 0; w < nwarps; w++) printf("  %5.2f", (pass ? spread : same)[s * nwarps + w]);
            printf("\n");
        }
    }
    return 0;
}
#endif
"""


def source() -> str:
    kernels = "".join(kernel_source(k) for k in SIZES_KIB)
    host = (
        HOST.replace("{SIZES}", "{" + ", ".join(map(str, SIZES_KIB)) + "}")
        .replace("{PROBES}", "{" + ", ".join(f"probe_{k}" for k in SIZES_KIB) + "}")
        .replace("{WARPS}", "{" + ", ".join(map(str, WARPS_PER_SM)) + "}")
    )
    return kernels + host


def sass_sizes(nvcc: str, binary: str) -> dict:
    """Instructions in each probe kernel, from cuobjdump's disassembly."""
    cuobjdump = os.path.join(os.path.dirname(nvcc), "cuobjdump")
    text = subprocess.run([cuobjdump, "-sass", binary], capture_output=True, text=True).stdout
    sizes, current = {}, None
    for line in text.splitlines():
        m = re.search(r"Function : (probe_\d+)", line)
        if m:
            current = m.group(1)
            sizes[current] = 0
        elif current and re.match(r"\s+/\*[0-9a-f]{4,}\*/", line):
            sizes[current] += 1
    return sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--emit", help="write the CUDA source here and stop")
    args = parser.parse_args()
    text = source()
    if args.emit:
        with open(args.emit, "w") as f:
            f.write(text)
        return 0
    nvcc = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
    with tempfile.TemporaryDirectory() as tmp:
        cu, binary = os.path.join(tmp, "probe.cu"), os.path.join(tmp, "probe")
        with open(cu, "w") as f:
            f.write(text)
        subprocess.run([nvcc, "-O3", "-arch=sm_90", "-o", binary, cu], check=True)
        sizes = sass_sizes(nvcc, binary)
        print("SASS instructions: " + ", ".join(
            f"{k} KiB {sizes.get(f'probe_{k}', 0)} ({sizes.get(f'probe_{k}', 0) * 16 / 1024:.1f} KiB)"
            for k in SIZES_KIB))
        sys.stdout.flush()
        subprocess.run([binary], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
