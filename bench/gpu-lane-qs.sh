#!/usr/bin/env bash
# Quiescence searched by lanes side by side (kernels/lane_qs.h), against the warp search's speed.
# The lane_qs_speed example runs the horizon's quiescence searches (every child of each position
# of WAC and openings-8ply.epd, a null window around the position's evaluation) by 1 ... 2,112
# warps in rounds of 32 children, each round as long as its slowest lane, checks every value and
# node count against the CPU, and prints nodes per second per warp; then `kogge benchsmp` gives
# the warp-cooperative search's nodes per second per worker (1 and 264 workers, bench ×4, depth
# 12) on the same device, for comparison.
#
# Usage: bash bench/gpu-lane-qs.sh
#   LANE_QS  the example's binary  (default target/release/examples/lane_qs_speed, built if missing)
#   KOGGE    kogge's binary         (default target/release/kogge)
#   DATA     the test data          (default ../shared/data)
#   WARPS    warp counts            (default 1,2,8,33,132,264,528,1056,2112)
#   REPEAT   copies of the job list (default 16: launches long enough to time)
#   BACKEND  for benchsmp           (default cuda); DEVICE picks the example's device (default 0)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

LANE_QS=${LANE_QS:-target/release/examples/lane_qs_speed}
KOGGE=${KOGGE:-target/release/kogge}
DATA=${DATA:-../shared/data}
WARPS=${WARPS:-1,2,8,33,132,264,528,1056,2112}
BACKEND=${BACKEND:-cuda}
if [[ ! -x "$LANE_QS" ]]; then
    cargo build --release -p kogge-search-gpu --example lane_qs_speed
fi
REPEAT=${REPEAT:-16} "$LANE_QS" "$WARPS" "$DATA/wac.epd" "$DATA/openings-8ply.epd"
echo
"$KOGGE" benchsmp --backend "$BACKEND" --depth 12 --workers 1,264 --positions bench --count 4
