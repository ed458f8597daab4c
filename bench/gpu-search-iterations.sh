#!/usr/bin/env bash
# Who ends the GPU search's iterations, and how many there are: runs `kogge benchsmp` with
# KOGGE_SEARCH_TRACE=1 (one line per finished iteration, aspiration re-searches included) and
# sums the lines up per worker count: iterations against depths searched (the rest are
# re-searches after a root fail high or low), how many worker 0 ended and how many a helper, the
# iteration time, and the finisher's nodes with the share of them that ended on the table.
#
# Usage: bash bench/gpu-search-iterations.sh
#   KOGGE      the engine binary                       (default target/release/kogge)
#   BACKEND    cuda or opencl                          (default cuda)
#   WORKERS    worker counts, each measured on its own (default "264")
#   DEPTH, COUNT    depth and number of `kogge bench` positions (default 13, 16)
#   MODE       parallel mode                           (default: the engine's)
# On the device: KOGGE=.dev/kogge bash bench/gpu-search-iterations.sh (PERFORMANCE.md, twenty-
# third session: 332 of 337 iterations ended by a helper at 264 workers).
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "${BASH_SOURCE[0]}")/.."

KOGGE=${KOGGE:-target/release/kogge}
BACKEND=${BACKEND:-cuda}
WORKERS=${WORKERS:-264}
DEPTH=${DEPTH:-13}
COUNT=${COUNT:-16}
mode=()
if [[ -n "${MODE:-}" ]]; then
    mode=(--mode "$MODE")
fi

printf "%8s %11s %7s %9s %8s %14s %16s %13s\n" workers iterations depths worker0 helpers "mean time ms" "finisher nodes" "of them table"
for w in $WORKERS; do
    trace=$(KOGGE_SEARCH_TRACE=1 "$KOGGE" benchsmp --backend "$BACKEND" --depth "$DEPTH" --workers "$w" \
        --positions bench --count "$COUNT" "${mode[@]}" 2>&1 >/dev/null | grep "^iteration depth" || true)
    if [[ -z "$trace" ]]; then
        echo "workers $w: no iteration traced (is $KOGGE a build with KOGGE_SEARCH_TRACE?)" >&2
        exit 1
    fi
    # Fields: "iteration depth D window A..B: T ms, launches L; finisher worker W: N nodes, C table
    # cutoffs, ...". One position's depths are 1..DEPTH, each searched once or more.
    awk -v w="$w" -v positions="$COUNT" -v depth="$DEPTH" '
        {
            n++
            t += $6
            if ($12 == "0:") zero++; else helpers++
            nodes += $13
            table += $15
        }
        END {
            printf "%8d %11d %7d %9d %8d %14.3f %16.0f %12.1f%%\n", w, n, positions * depth, zero, helpers,
                t / n, nodes / n, 100 * table / nodes
        }' <<<"$trace"
done
