#!/usr/bin/env bash
# CPU perft speed, one thread: kogge against Stockfish 15.1 (Debian's `stockfish` package) on the
# start position (depth 6) and kiwipete (depth 5). Both programs must report the same node
# counts. Each time is the best of RUNS wall-clock runs of the whole process (start-up included,
# for both programs alike); the start-up cost alone (perft 1) is printed under the table.
#
# Usage: bash bench/cpu-perft.sh        (RUNS=5 for more runs; KOGGE=/path/kogge and
#        STOCKFISH=/path/stockfish to use given binaries)
set -euo pipefail
# Failures inside $(...) stop the script too, so that a crashed run is never timed.
shopt -s inherit_errexit
cd "$(dirname "${BASH_SOURCE[0]}")/.."

RUNS=${RUNS:-3}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
KIWIPETE="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

# KOGGE=path uses a prebuilt binary (e.g. on a machine without cargo); otherwise build one.
if [ -z "${KOGGE:-}" ]; then
    echo "building kogge (release)" >&2
    cargo build --release --quiet -p kogge
    KOGGE="${CARGO_TARGET_DIR:-target}/release/kogge"
fi

if [ ! -x "$STOCKFISH" ]; then
    echo "installing Debian's stockfish package" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq stockfish >/dev/null
fi

now_ns() {
    date +%s%N
}

# kogge_once DEPTH [FEN]: prints "NODES NANOSECONDS".
kogge_once() {
    local depth=$1 fen=${2:-} start end out
    local args=(perft "$depth" --threads 1)
    [ -n "$fen" ] && args+=(--fen "$fen")
    start=$(now_ns)
    out=$("$KOGGE" "${args[@]}")
    end=$(now_ns)
    echo "$(awk '$1 == "nodes" { n = $2 } END { print n }' <<<"$out") $((end - start))"
}

# stockfish_once DEPTH [FEN]: prints "NODES NANOSECONDS". `quit` right after `go perft` is safe:
# Stockfish finishes the running search before it exits.
stockfish_once() {
    local depth=$1 fen=${2:-} start end out position
    if [ -n "$fen" ]; then position="fen $fen"; else position="startpos"; fi
    start=$(now_ns)
    out=$(printf 'uci\nsetoption name Threads value 1\nposition %s\ngo perft %s\nquit\n' \
        "$position" "$depth" | "$STOCKFISH")
    end=$(now_ns)
    echo "$(awk '/^Nodes searched:/ { n = $3 } END { print n }' <<<"$out") $((end - start))"
}

# best PROGRAM DEPTH [FEN]: the fastest of RUNS runs, as "NODES NANOSECONDS". Fails loudly if the
# runs disagree on the node count or print none.
best() {
    local program=$1 nodes="" best_ns="" n ns run
    shift
    for ((i = 0; i < RUNS; i++)); do
        run=$("${program}_once" "$@")
        read -r n ns <<<"$run"
        if [ -z "$n" ] || { [ -n "$nodes" ] && [ "$n" != "$nodes" ]; }; then
            echo "FAIL: $program perft $* printed node counts '$nodes' and '$n'" >&2
            exit 1
        fi
        nodes=$n
        if [ -z "$best_ns" ] || ((ns < best_ns)); then best_ns=$ns; fi
    done
    echo "$nodes $best_ns"
}

echo "kogge: $("$KOGGE" --version), sliders $("$KOGGE" perft 1 --json | sed 's/.*"sliders":"\([a-z]*\)".*/\1/')" >&2
echo "stockfish: $(echo quit | "$STOCKFISH" | awk 'NR == 1')" >&2
echo "cpu: $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)" >&2
echo "best of $RUNS runs, 1 thread" >&2
echo

row_format="%-10s %5s %12s %9s %11s %12s %14s %7s\n"
# shellcheck disable=SC2059 # the format is a constant
printf "$row_format" position depth nodes "kogge s" "kogge Mnps" "stockfish s" "stockfish Mnps" ratio
for job in "startpos|6|" "kiwipete|5|$KIWIPETE"; do
    IFS='|' read -r name depth fen <<<"$job"
    k=$(best kogge "$depth" "$fen")
    s=$(best stockfish "$depth" "$fen")
    read -r k_nodes k_ns <<<"$k"
    read -r s_nodes s_ns <<<"$s"
    if [ "$k_nodes" != "$s_nodes" ]; then
        echo "FAIL: $name perft $depth: kogge counts $k_nodes nodes, Stockfish $s_nodes" >&2
        exit 1
    fi
    # ratio = Stockfish's time / kogge's time: above 1, kogge is faster.
    # shellcheck disable=SC2059
    awk -v name="$name" -v d="$depth" -v n="$k_nodes" -v k="$k_ns" -v s="$s_ns" -v f="$row_format" \
        'BEGIN { printf f, name, d, n, sprintf("%.3f", k / 1e9), sprintf("%.1f", n / k * 1e3),
                 sprintf("%.3f", s / 1e9), sprintf("%.1f", n / s * 1e3), sprintf("%.2f", s / k) }'
done

k=$(best kogge 1)
s=$(best stockfish 1)
read -r _ k_start <<<"$k"
read -r _ s_start <<<"$s"
echo
awk -v k="$k_start" -v s="$s_start" \
    'BEGIN { printf "start-up (perft 1, included above): kogge %.3f s, stockfish %.3f s\n", k / 1e9, s / 1e9 }'
