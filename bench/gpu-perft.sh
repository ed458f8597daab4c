#!/usr/bin/env bash
# GPU perft speed on the device: builds (or takes KOGGE=path), then times each row on every GPU
# backend (CUDA and OpenCL) in one run, checks every count against the known value, and prints
# a table with the backends side by side. Rows (issue 4): start position perft 8 and 9, Kiwipete
# perft 6 and 7, position 3 perft 10; with hash: start position perft 10 and 11.
#
# Usage: bash bench/gpu-perft.sh            (KOGGE=/path/kogge to use a prebuilt binary;
#        BACKENDS="cuda opencl", TIMEOUT=seconds per run and HASH_MB=table size for the
#        hash rows to change the defaults; ONLY=regex keeps the rows whose "name depth" matches,
#        e.g. ONLY='^(start 9|kiwipete 7|position 3 10)$')
# OpenCL needs an ICD loader and vendor file on the machine (see ../shared/gpu/DEVICE.md).
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BACKENDS=${BACKENDS:-cuda opencl}
TIMEOUT=${TIMEOUT:-150}
HASH_MB=${HASH_MB:-24576}
if [ -z "${KOGGE:-}" ]; then
    cargo build --release --quiet -p kogge
    KOGGE=target/release/kogge
fi

START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POS3="8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"

# name|fen|depth|expected nodes|extra arguments
ROWS=(
    "start|$START|8|84998978956|"
    "start|$START|9|2439530234167|"
    "kiwipete|$KIWIPETE|6|8031647685|"
    "kiwipete|$KIWIPETE|7|374190009323|"
    "position 3|$POS3|10|860322602309|"
    "start (hash)|$START|10|69352859712417|--hash $HASH_MB"
    "start (hash)|$START|11|2097651003696806|--hash $HASH_MB"
)

if [ -n "${ONLY:-}" ]; then
    kept=()
    for row in "${ROWS[@]}"; do
        IFS='|' read -r name _ depth _ <<<"$row"
        if [[ "$name $depth" =~ $ONLY ]]; then kept+=("$row"); fi
    done
    ROWS=("${kept[@]}")
fi

"$KOGGE" devices
echo

# run BACKEND FEN DEPTH EXTRA: prints "NODES MS" or "timeout" / "error: ..." / "n/a ...".
run() {
    local backend=$1 fen=$2 depth=$3 extra=$4 out rc
    if [ -n "$extra" ] && ! "$KOGGE" perft --help | grep -q -- "${extra%% *}"; then
        echo "n/a (no $extra)"
        return
    fi
    set +e
    # shellcheck disable=SC2086
    out=$(timeout "$TIMEOUT" "$KOGGE" perft "$depth" --fen "$fen" --backend "$backend" --json $extra 2>&1)
    rc=$?
    set -e
    if [ $rc -eq 124 ]; then
        echo "timeout (>${TIMEOUT} s)"
    elif [ $rc -ne 0 ]; then
        echo "error: $(tail -1 <<<"$out")"
    else
        python3 -c 'import json,sys; v=json.loads(sys.argv[1]); print(v["nodes"], v["time_ms"])' "$out"
    fi
}

declare -A RESULT
failed=0
for row in "${ROWS[@]}"; do
    IFS='|' read -r name fen depth expected extra <<<"$row"
    for backend in $BACKENDS; do
        r=$(run "$backend" "$fen" "$depth" "$extra")
        RESULT["$name/$depth/$backend"]=$r
        read -r nodes ms <<<"$r"
        if [[ "$nodes" =~ ^[0-9]+$ ]] && [ -n "$expected" ] && [ "$nodes" != "$expected" ]; then
            echo "WRONG COUNT: $name perft $depth on $backend: $nodes, expected $expected" >&2
            failed=1
        fi
        echo "$name perft $depth $backend: $r" >&2
    done
done

# The table: one row per position and depth, the backends side by side.
TABLE='
import sys
rows, backends = {}, []
for line in sys.stdin:
    name, depth, expected, backend, result = line.rstrip("\n").split("\t")
    if backend not in backends:
        backends.append(backend)
    rows.setdefault((name, depth, expected), {})[backend] = result
head = "%-13s %5s %18s" % ("position", "depth", "nodes")
for b in backends:
    head += " %10s %12s" % (b + " s", b + " Gn/s")
print()
print(head)
for (name, depth, expected), results in rows.items():
    line = "%-13s %5s %18s" % (name, depth, expected)
    for b in backends:
        parts = results.get(b, "").split()
        if len(parts) == 2 and parts[0].isdigit():
            nodes, ms = int(parts[0]), max(int(parts[1]), 1)
            mark = " " if expected == "?" or int(expected) == nodes else "!"
            line += " %10.3f %11.1f%s" % (ms / 1000, nodes / ms / 1e6, mark)
        else:
            line += " %23s" % results.get(b, "")[:23]
    print(line)
'
{
    for row in "${ROWS[@]}"; do
        IFS='|' read -r name fen depth expected extra <<<"$row"
        for backend in $BACKENDS; do
            printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$depth" "${expected:-?}" "$backend" "${RESULT["$name/$depth/$backend"]}"
        done
    done
} | python3 -c "$TABLE"
exit $failed
