#!/usr/bin/env bash
# GPU search on the device: `kogge selftest` (move generation, evaluation and search checked
# against the CPU) and `kogge benchsmp` (nodes per second and time to depth against workers) on
# every GPU backend, in one run. The benchsmp rows go to RESULTS/<backend>-<positions>.jsonl for
# bench/plot-benchsmp.py, and are printed as tables, each with the span bound on its time-to-depth
# speedup (`kogge bench --span` on the same positions and depth, on the host's CPU).
#
# Usage: bash bench/gpu-search.sh
#   KOGGE      the engine binary                  (default: build target/release/kogge)
#   BACKENDS   GPU backends to run                (default "cuda opencl")
#   WORKERS    worker counts                      (default 1,2,4,...,2112)
#   DEPTH      depth of the start-position rows   (default 13)
#   BENCH_DEPTH, BENCH_COUNT  depth and number of `kogge bench` positions (default 12, 4)
#   RUNS       searches a row with several workers averages (`benchsmp --runs`; default 3: one
#              such search's time varies by up to 3 times from run to run)
#   MODE       parallel mode                      (default: the engine's)
#   FINISH     who ends an iteration: any, checked, main, closing, clean (default: the engine's)
#   MAX_NODES  selftest's perft limit             (default 10000000)
#   RESULTS    output folder                      (default gpu-search-results)
#   DATA       the test data folder for selftest  (default: ../shared/data beside the repository)
# OpenCL needs an ICD loader and vendor file on the machine (see ../shared/gpu/DEVICE.md).
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BACKENDS=${BACKENDS:-cuda opencl}
WORKERS=${WORKERS:-1,2,4,8,16,32,64,132,264,528,1056,2112}
DEPTH=${DEPTH:-13}
BENCH_DEPTH=${BENCH_DEPTH:-12}
BENCH_COUNT=${BENCH_COUNT:-4}
MAX_NODES=${MAX_NODES:-10000000}
RUNS=${RUNS:-3}
RESULTS=${RESULTS:-gpu-search-results}
mode=()
if [[ -n "${MODE:-}" ]]; then
    mode=(--mode "$MODE")
fi
if [[ -n "${FINISH:-}" ]]; then
    mode+=(--finish "$FINISH")
fi
if [[ -z "${KOGGE:-}" ]]; then
    cargo build --release --quiet -p kogge
    KOGGE=target/release/kogge
fi
mkdir -p "$RESULTS"
data=()
if [[ -n "${DATA:-}" ]]; then
    data=(--data "$DATA")
fi

"$KOGGE" devices
for backend in $BACKENDS; do
    echo
    echo "== selftest, $backend"
    "$KOGGE" selftest --backend "$backend" --max-nodes "$MAX_NODES" "${data[@]}" || echo "selftest on $backend FAILED"
done
for backend in $BACKENDS; do
    for set in "start $DEPTH 1" "bench $BENCH_DEPTH $BENCH_COUNT"; do
        read -r positions depth count <<<"$set"
        out="$RESULTS/$backend-$positions.jsonl"
        echo
        echo "== benchsmp, $backend, $positions positions ($count), depth $depth"
        "$KOGGE" benchsmp --backend "$backend" --positions "$positions" --count "$count" \
            --depth "$depth" --workers "$WORKERS" --runs "$RUNS" "${mode[@]}" --json >"$out"
        python3 - "$out" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
print(f"{'workers':>8} {'nodes':>13} {'seconds':>9} {'nodes/s':>13} {'nps x':>8} {'ttd x':>7} "
      f"{'runs':>5} {'min s':>8} {'max s':>8}")
for r in rows:
    # Rows saved before `--runs` existed are one run each.
    runs = r.get("runs", 1)
    low, high = r.get("seconds_min", r["seconds"]), r.get("seconds_max", r["seconds"])
    print(f"{r['workers']:>8} {r['nodes']:>13.0f} {r['seconds']:>9.3f} {r['nps']:>13.0f} "
          f"{r['nps_speedup']:>8.1f} {r['ttd_speedup']:>7.2f} {runs:>5} {low:>8.3f} {high:>8.3f}")
PY
        # The most a search that waits for first moves can gain over one worker here: the CPU
        # tree's nodes over its span (docs/PERFORMANCE.md, seventieth session). `kogge bench`'s
        # first position is the start position.
        bound=$("$KOGGE" bench "$depth" --count "$count" --span 2>/dev/null | awk '$1 == "all" {print $4}')
        echo "span bound (one thread's tree, kogge bench --span): ttd x at most ${bound:-?} without speculation"
    done
done
