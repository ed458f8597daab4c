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
#   FENS, MOVETIME  instead of benchsmp: a file of FENs, each searched by the engine (UCI, each
#              of WORKERS' counts in turn, `Hash` 1024, a new game for each position)
#              with `go movetime MOVETIME` (ms), as a game's clock ends iterations; "ahead"
#              then counts the iterations a helper searching ahead ended at its deeper depth
# On the device: KOGGE=.dev/kogge bash bench/gpu-search-iterations.sh (PERFORMANCE.md, twenty-
# third session: 332 of 337 iterations ended by a helper at 264 workers). On a clock, e.g. game
# positions one a line in fens.txt: FENS=fens.txt MOVETIME=300 KOGGE=.dev/kogge bash
# bench/gpu-search-iterations.sh (on PoCL, BACKEND=opencl WORKERS=4: 42 iterations of two
# middlegame positions at 3 s, none ended ahead, thirty-ninth session).
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

printf "%8s %11s %7s %9s %8s %6s %14s %16s %13s\n" workers iterations depths worker0 helpers ahead "mean time ms" \
    "finisher nodes" "of them table"
for w in $WORKERS; do
    if [[ -n "${FENS:-}" ]]; then
        # One UCI session; each `go` waits for its bestmove before the next position is sent.
        trace=$(python3 - "$KOGGE" "$BACKEND" "$w" "$FENS" "${MOVETIME:-300}" "${MODE:-}" <<'PY' 2>&1 | grep "^iteration depth" || true
import os, subprocess, sys
kogge, backend, workers, fens, movetime, mode = sys.argv[1:]
env = dict(os.environ, KOGGE_SEARCH_TRACE="1")
p = subprocess.Popen([kogge], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
def send(line):
    p.stdin.write(line + "\n")
    p.stdin.flush()
def wait_for(prefix):
    for out in p.stdout:
        if out.startswith(prefix):
            return
send("uci")
wait_for("uciok")
for name, value in [("Backend", backend), ("Workers", workers), ("Hash", "1024")] + (
        [("GPU Parallel", mode)] if mode else []):
    send(f"setoption name {name} value {value}")
for fen in open(fens).read().split("\n"):
    if fen.strip():
        send("ucinewgame")
        send(f"position fen {fen.strip()}")
        send(f"go movetime {movetime}")
        wait_for("bestmove")
send("quit")
p.wait()
PY
        )
        DEPTH=0 # no fixed depth: the depths column is left empty
    else
        trace=$(KOGGE_SEARCH_TRACE=1 "$KOGGE" benchsmp --backend "$BACKEND" --depth "$DEPTH" --workers "$w" \
            --positions bench --count "$COUNT" "${mode[@]}" 2>&1 >/dev/null | grep "^iteration depth" || true)
    fi
    if [[ -z "$trace" ]]; then
        echo "workers $w: no iteration traced (is $KOGGE a build with KOGGE_SEARCH_TRACE?)" >&2
        exit 1
    fi
    # Fields: "iteration depth D window A..B: T ms, launches L; finisher worker W: N nodes, C table
    # cutoffs, ...", or "finisher worker W at depth E: N nodes, ..." where a helper searching
    # ahead of the iteration ended it ("ahead"). One position's depths are 1..DEPTH, each
    # searched once or more.
    awk -v w="$w" -v positions="$COUNT" -v depth="$DEPTH" '
        {
            n++
            t += $6
            k = 13
            if ($13 == "at") { ahead++; k = 16 }
            if ($12 == "0:" || $12 == "0") zero++; else helpers++
            nodes += $k
            table += $(k + 2)
        }
        END {
            printf "%8d %11d %7s %9d %8d %6d %14.3f %16.0f %12.1f%%\n", w, n,
                depth ? positions * depth : "-", zero, helpers, ahead, t / n, nodes / n, 100 * table / nodes
        }' <<<"$trace"
done
