#!/usr/bin/env bash
# A/B of GPU perft's staged tail (perft_staged2_white/_black) between builds, on the device:
# for each binary, Nsight Compute's kernel time (clocks locked at base, so that runs repeat
# within about 0.1%, where wall times vary by about 5%) and instructions executed, summed over
# every tail launch of start perft 7, Kiwipete perft 6, position 3 perft 9 and Kiwipete
# perft 7. Each count is checked against the known value. Kernel changes are kept or dropped
# on these figures.
#
# Usage: bash bench/gpu-perft-tail.sh BIN...   (REPS=n repeats the set; default 1;
#        KOGGE_PERFT_TAIL_BLOCKS / KOGGE_PERFT_STAGE pass through to the binaries)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
NCU=${NCU:-ncu}
START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POS3="8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
# name|fen|depth|expected nodes
# (Kiwipete perft 7's tail parents have the other side to move from perft 6's, and share
# differently: both rows.)
ROWS=("start 7|$START|7|3195901860" "kiwipete 6|$KIWIPETE|6|8031647685" "position 3 9|$POS3|9|50086749815"
      "kiwipete 7|$KIWIPETE|7|374190009323")

summary() { # ncu CSV on stdin -> "ms Ginst launches nodes"
    python3 -c '
import csv, re, sys
ms = inst = 0.0
launches = 0
nodes = "?"
for r in csv.reader(sys.stdin):
    if len(r) > 5 and r[-3] == "gpu__time_duration.sum":
        ms += float(r[-1].replace(",", "")) / 1e6
        launches += 1
    elif len(r) > 5 and r[-3] == "smsp__inst_executed.sum":
        inst += float(r[-1].replace(",", ""))
    elif len(r) == 1:
        m = re.match(r"nodes (\d+)", r[0])
        if m:
            nodes = m.group(1)
print(f"{ms:.3f} {inst / 1e9:.3f} {launches} {nodes}")'
}

printf '%-24s' binary
for row in "${ROWS[@]}"; do printf '%28s' "${row%%|*}: ms / Ginst"; done
echo
for _ in $(seq "${REPS:-1}"); do
    for bin in "$@"; do
        printf '%-24s' "$(basename "$bin")"
        for row in "${ROWS[@]}"; do
            IFS='|' read -r name fen depth expected <<<"$row"
            read -r ms inst launches nodes < <("$NCU" --kernel-name regex:perft_staged2 \
                --metrics gpu__time_duration.sum,smsp__inst_executed.sum --csv \
                "$bin" perft "$depth" --fen "$fen" --backend cuda 2>/dev/null | summary)
            [ "$nodes" = "$expected" ] || { echo; echo "$name: $nodes nodes, expected $expected" >&2; exit 1; }
            printf '%28s' "$ms / $inst ($launches)"
        done
        echo
    done
done
