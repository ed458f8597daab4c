#!/usr/bin/env bash
# Nsight Compute profile of GPU perft's staged tail (perft_staged2) on the device, for finding
# where its instructions and stalls go. For each position it runs one `kogge perft` under ncu
# (first launch of the tail only, full metric set) and writes, under OUT:
#   NAME.ncu-rep        the report
#   NAME-details.txt    the sections (speed of light, occupancy, warp states, pipes, ...)
#   NAME-sass.csv       per-SASS-instruction counts and stall samples
# and the module NVRTC compiled (KOGGE_CUDA_DUMP: kernel-N.cu/.ptx/.cubin) under OUT/dump, so
# that tools/sass-profile.py can add the per-instruction counts up by kernel source line.
#
# Usage: OUT=dir KOGGE=path/kogge bash bench/gpu-perft-profile.sh
#        (POSITIONS="name|fen|depth;..." to profile other positions)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

OUT=${OUT:-profile}
KOGGE=${KOGGE:-target/release/kogge}
NCU=${NCU:-ncu}
mkdir -p "$OUT"
export KOGGE_CUDA_DUMP="$OUT/dump"

START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POS3="8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITIONS=${POSITIONS:-"start|$START|7;kiwipete|$KIWIPETE|5;pos3|$POS3|8"}

IFS=';' read -r -a rows <<<"$POSITIONS"
for row in "${rows[@]}"; do
    IFS='|' read -r name fen depth <<<"$row"
    echo "== $name perft $depth"
    "$NCU" --kernel-name regex:perft_staged2 --launch-count 1 --set full -f -o "$OUT/$name" \
        "$KOGGE" perft "$depth" --fen "$fen" --backend cuda >"$OUT/$name-run.txt" 2>&1 ||
        { tail -20 "$OUT/$name-run.txt"; continue; }
    "$NCU" -i "$OUT/$name.ncu-rep" --page details >"$OUT/$name-details.txt" 2>&1 || true
    "$NCU" -i "$OUT/$name.ncu-rep" --page source --csv --print-source sass \
        >"$OUT/$name-sass.csv" 2>&1 || true
    grep -E "Duration|Executed Ipc Active|Issue Slots Busy|Registers Per|Achieved Occupancy|Avg. Active Threads Per Warp|Executed Instructions  " \
        "$OUT/$name-details.txt" | head -12 || true
done
