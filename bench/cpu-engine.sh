#!/usr/bin/env bash
# The CPU engine's benchmarks, in one run: `kogge bench` against Stockfish's `bench` (both one
# thread, one after the other on the same machine), then the WAC suite at 1 s a position, the
# positions split over JOBS single-threaded processes (each position still gets one thread and
# its full second). Prints one short table.
#
#   KOGGE      the engine binary                      (default target/release/kogge)
#   STOCKFISH  Stockfish 15.1 (Debian's package)      (default: stockfish on PATH, else /usr/games)
#   WAC        the suite                              (default ../shared/data/wac.epd)
#   MOVETIME   milliseconds a position                (default 1000)
#   JOBS       processes at once for the suite        (default: cores - 1)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

KOGGE=${KOGGE:-target/release/kogge}
STOCKFISH=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
WAC=${WAC:-../shared/data/wac.epd}
MOVETIME=${MOVETIME:-1000}
JOBS=${JOBS:-$(($(nproc) > 2 ? $(nproc) - 1 : 1))}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== kogge bench"
"$KOGGE" bench > "$work/kogge-bench.txt" 2>/dev/null
cat "$work/kogge-bench.txt"
echo "== stockfish bench"
"$STOCKFISH" bench > /dev/null 2> "$work/sf-bench.txt"
tail -4 "$work/sf-bench.txt"

echo "== WAC at $MOVETIME ms, $JOBS processes"
split -n "l/$JOBS" -d "$WAC" "$work/wac-part-"
for part in "$work"/wac-part-*; do
    "$KOGGE" epd "$part" --movetime "$MOVETIME" --threads 1 > "$part.out" 2>/dev/null &
done
wait
cat "$work"/wac-part-*.out | grep -E "FAIL" || true
passed=$(cat "$work"/wac-part-*.out | awk '/passed, .* failed/ {p += $1} END {print p}')
failed=$(cat "$work"/wac-part-*.out | awk '/passed, .* failed/ {f += $3} END {print f}')

kogge_nodes=$(awk '/Nodes searched/ {print $NF}' "$work/kogge-bench.txt")
kogge_nps=$(awk '/Nodes\/second/ {print $NF}' "$work/kogge-bench.txt")
sf_nodes=$(awk '/Nodes searched/ {print $NF}' "$work/sf-bench.txt")
sf_nps=$(awk '/Nodes\/second/ {print $NF}' "$work/sf-bench.txt")
echo
printf '%-28s %14s %14s\n' "" "nodes" "nodes/s"
printf '%-28s %14s %14s\n' "kogge bench (1 thread)" "$kogge_nodes" "$kogge_nps"
printf '%-28s %14s %14s\n' "stockfish bench (1 thread)" "$sf_nodes" "$sf_nps"
awk -v k="$kogge_nps" -v s="$sf_nps" 'BEGIN {printf "%-28s %29.2f\n", "ratio kogge / stockfish", k / s}'
echo "WAC at $MOVETIME ms: $passed passed, $failed failed"
