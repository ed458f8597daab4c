#!/usr/bin/env bash
# Shows the OpenCL compiler fault behind crates/gpu/tests/kernel_source_rules.rs: a function kept
# out of line (`__attribute__((noinline))`) that reads local memory through a pointer argument.
# One work-group of 32 lanes writes a key a ply into a `__local` stack and asks, at each ply,
# whether the key was seen 4, 6, ... plies before (the search's repetition test), once through
# an inline function and once through the same function out of line. Prints where the two
# disagree and how often; on PoCL 3.1 (Debian 12, fifty-first session) the out-of-line one found
# none of the 192 repetitions the inline one found.
#
# Usage: bash bench/pocl-local-noinline.sh   (needs gcc, the OpenCL headers and the loader:
#        apt-get install opencl-headers ocl-icd-opencl-dev; runs on the first OpenCL device)
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/k.cl" <<'KERNEL'
typedef struct { ulong keys[64]; } Stack;

static __attribute__((noinline)) int seen_out_of_line(__local Stack *s, uint ply, ulong key) {
    for (uint d = 4; d <= ply; d += 2)
        if (s->keys[ply - d] == key) return 1;
    return 0;
}

static inline int seen_inline(__local Stack *s, uint ply, ulong key) {
    for (uint d = 4; d <= ply; d += 2)
        if (s->keys[ply - d] == key) return 1;
    return 0;
}

__kernel void k(__global const ulong *keys, __global int *out) {
    __local Stack s;
    uint lane = get_local_id(0);
    for (uint p = 0; p < 40; p++) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lane == 0) s.keys[p] = keys[p];
        barrier(CLK_LOCAL_MEM_FENCE);
        out[(p * 32 + lane) * 2] = seen_inline(&s, p, keys[p]);
        out[(p * 32 + lane) * 2 + 1] = seen_out_of_line(&s, p, keys[p]);
    }
}
KERNEL

cat >"$work/m.c" <<'HOST'
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

#define PLIES 40
#define LANES 32

int main(void) {
    cl_platform_id platform;
    cl_device_id device;
    clGetPlatformIDs(1, &platform, NULL);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, NULL);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, NULL);

    char source[4096];
    FILE *file = fopen("k.cl", "r");
    size_t length = fread(source, 1, sizeof source - 1, file);
    source[length] = 0;
    const char *text = source;
    cl_program program = clCreateProgramWithSource(context, 1, &text, NULL, NULL);
    if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
        char log[10000];
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        printf("build failed:\n%s\n", log);
        return 1;
    }
    cl_kernel kernel = clCreateKernel(program, "k", NULL);

    /* Key 7 every sixth ply: a repetition at distances 6, 12, ... */
    cl_ulong keys[PLIES];
    for (int i = 0; i < PLIES; i++) keys[i] = i % 6 == 0 ? 7 : 1000 + i;
    int out[PLIES * LANES * 2];
    cl_mem in_buffer = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof keys, keys, NULL);
    cl_mem out_buffer = clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof out, NULL, NULL);
    clSetKernelArg(kernel, 0, sizeof in_buffer, &in_buffer);
    clSetKernelArg(kernel, 1, sizeof out_buffer, &out_buffer);
    size_t global = LANES, local = LANES;
    clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL);
    clEnqueueReadBuffer(queue, out_buffer, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);

    int differ = 0, found = 0;
    for (int i = 0; i < PLIES * LANES; i++) {
        found += out[2 * i];
        if (out[2 * i] != out[2 * i + 1]) {
            if (differ < 3) printf("ply %d lane %d: inline %d, out of line %d\n", i / LANES, i % LANES, out[2 * i], out[2 * i + 1]);
            differ++;
        }
    }
    printf("inline found %d repetitions; out of line differs in %d\n", found, differ);
    return 0;
}
HOST

gcc "$work/m.c" -o "$work/m" -lOpenCL
cd "$work" && ./m
