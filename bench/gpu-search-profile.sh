#!/usr/bin/env bash
# Nsight Compute profile of the GPU search kernel (search_slice) on the device: one launch in
# the middle of a `kogge benchsmp` run, full metric set, then tools/sass-profile.py's breakdown of
# its instructions and stall samples by kernel function and source line. Writes, under OUT:
#   search.ncu-rep   the report
#   details.txt      the sections (speed of light, occupancy, warp states, ...)
#   sass.csv         per-SASS-instruction counts and stall samples
#   dump/            the module NVRTC compiled (KOGGE_CUDA_DUMP), which sass-profile.py reads
#   breakdown.txt    the breakdown, also printed
#
# Usage: OUT=dir KOGGE=path/kogge bash bench/gpu-search-profile.sh
#   WORKERS  workers of the run                           (default 1)
#   MODE     parallel mode, as `kogge benchsmp --mode`     (default abdada-rmo, the default mode)
#   KOGGE_CUDA_OPTIONS  kernel knobs, passed on to the engine; e.g. -DNOISE_BY_SM=0 beside the
#            default at WORKERS=528: the stalls waiting for an instruction were 54% of the samples
#            against 16% (PERFORMANCE.md, thirtieth session)
#   DEPTH, COUNT  depth and number of bench positions     (default 11, 2)
#   SKIP     launches of search_slice to skip first        (default 30: past the shallow iterations)
#   NVDISASM CUDA's disassembler                           (default /usr/local/cuda/bin/nvdisasm)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

OUT=${OUT:-search-profile}
KOGGE=${KOGGE:-target/release/kogge}
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
NVDISASM=${NVDISASM:-/usr/local/cuda/bin/nvdisasm}
WORKERS=${WORKERS:-1}
MODE=${MODE:-abdada-rmo}
DEPTH=${DEPTH:-11}
COUNT=${COUNT:-2}
SKIP=${SKIP:-30}
mkdir -p "$OUT"
export KOGGE_CUDA_DUMP="$OUT/dump"

"$NCU" --kernel-name regex:search_slice --launch-skip "$SKIP" --launch-count 1 --set full --import-source yes -f \
    -o "$OUT/search" "$KOGGE" benchsmp --backend cuda --depth "$DEPTH" --workers "$WORKERS" \
    --mode "$MODE" --positions bench --count "$COUNT" >"$OUT/run.txt" 2>&1 || { tail -20 "$OUT/run.txt"; exit 1; }
# A run of fewer launches than SKIP profiles nothing, and ncu still exits 0 (the eighty-sixth
# session's runs of the first bench position alone: fewer than 90 launches to depth 17 at 2,112
# workers, fewer than 200 to depth 19 at 264).
if grep -q "No kernels were profiled" "$OUT/run.txt"; then
    echo "no search_slice launch after the first $SKIP: the run had fewer; lower SKIP or raise COUNT" >&2
    exit 1
fi
"$NCU" -i "$OUT/search.ncu-rep" --page details >"$OUT/details.txt" 2>&1
"$NCU" -i "$OUT/search.ncu-rep" --page source --csv --print-source sass >"$OUT/sass.csv" 2>&1
# Achieved active warps: a launch where many workers have left (an iteration's end) shows fewer
# than the workers an SM, and its cycles an instruction are not those of a full launch (the
# eighty-seventh session's lean launch 401).
grep -E "Duration|Executed Ipc Active|Registers Per|Warp Cycles Per Issued|Avg. Active Threads Per Warp|Executed Instructions  |Achieved Active Warps Per SM" \
    "$OUT/details.txt" | head -9 || true

# The module holding search_slice (the dump numbers modules as they were compiled).
source_file=$(grep -l "search_slice" "$OUT"/dump/*.cu | head -1)
python3 tools/sass-profile.py --csv "$OUT/sass.csv" --cubin "${source_file%.cu}.cubin" \
    --source "$source_file" --kernel search_slice --nvdisasm "$NVDISASM" --top 60 \
    | tee "$OUT/breakdown.txt"
