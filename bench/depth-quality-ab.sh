#!/usr/bin/env bash
# Which GPU build or option set plays better moves at one depth: every variant plays the same
# openings to the same fixed depth against the CPU search on every core (bench/gpu-vs-cpu.sh with
# DEPTH), one match after another in one call, and tools/match/paired.py compares each variant's
# games with the first variant's, game by game (same opening, same colours).
#
# Why the control is played in the same call: in the fifty-seventh session three kernel variants
# came out 4 to 8 points a game above a default played a session earlier on the same openings,
# and one of them -1.7 against a default played the same day on others (docs/STRENGTH.md). The GPU
# search with many workers does not repeat itself, so one run of a control is one draw.
#
# Usage: VARIANTS="base=; croot=-DCLEAN_ROOT=2; main=|GPU Finisher=main,Workers=528" \
#            bash bench/depth-quality-ab.sh
#   VARIANTS     NAME=KERNEL OPTIONS[|UCI OPTIONS], separated by ';'; the kernel options go to
#                KOGGE_CUDA_OPTIONS, the UCI options (NAME=VALUE separated by ',') to the GPU
#                engine; the first variant is the one the others are compared with   (required)
#   DEPTH        both engines' depth                          (default 12)
#   FIRST, LAST  the openings' lines, each played with both colours (default 1, 30)
#   CONCURRENCY  games at once                                (default 6)
#   THREADS      CPU engine threads                           (default: every core, or each
#                GPU's share of them with GPUS)
#   GPUS         play each variant on this many GPUs at once, the openings split between them
#                (bench/multi-gpu-match.py: each slice its GPU alone and an equal share of the
#                cores; a two-GPU machine plays a variant's games in half the time) (default 1)
#   HASH         MiB of table for each engine                 (default 256)
#   KOGGE, OPENINGS, PYTHON as for bench/gpu-vs-cpu.sh
#   MATCH_TIMEOUT  seconds a match may take before it is stopped (SIGINT: the games finished so far
#                count and are paired)                       (default: none)
#   OUT          a folder for each variant's games            (default depth-quality-results)
#   CONTROL_AGAIN  1: play the first variant once more after the others, as NAME-again, and pair
#                it with its first run: the call's own spread, and whether the order of the
#                matches counts                              (default 0)
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "${BASH_SOURCE[0]}")/.."

: "${VARIANTS:?set VARIANTS, e.g. VARIANTS=\"base=; new=-DKNOB=1\"}"
DEPTH=${DEPTH:-12}
FIRST=${FIRST:-1}
LAST=${LAST:-30}
CONCURRENCY=${CONCURRENCY:-6}
GPUS=${GPUS:-1}
((GPUS >= 1)) || { echo "GPUS must be 1 or more" >&2; exit 2; }
THREADS=${THREADS:-$(($(nproc) / GPUS))}
HASH=${HASH:-256}
PYTHON=${PYTHON:-python3}
OUT=${OUT:-depth-quality-results}
mkdir -p "$OUT"

# shellcheck source=bench/ab-common.sh
source bench/ab-common.sh
read_variants
# The fifty-eighth session's three controls, each played first in its call, scored 26.1% on
# average, its eleven variants 30.8% on the same openings: likely chance (1.7 standard errors;
# by the judged moves the third call's control was not low), possibly the order. A second run
# of the control at the end tells the two apart.
if [[ "${CONTROL_AGAIN:-0}" == 1 ]]; then
    first=${variants[0]}
    variants+=("${first%%=*}-again=${first#*=}")
fi

stop=()
[[ -n "${MATCH_TIMEOUT:-}" ]] && stop=(timeout -s INT "$MATCH_TIMEOUT")
names=()
for v in "${variants[@]}"; do
    split_variant "$v"
    name=$variant_name kernel=$variant_first uci=$variant_rest
    names+=("$name")
    echo "== $name: kernel options '${kernel}', UCI '${uci}'"
    # The match's own exit status (a stop by the timeout included) does not end the comparison.
    # On several GPUs the slices' own lines are left out: the pooled ones follow them, and the
    # pooled games are in the same place ($OUT/$name/games.pgn) as one GPU's.
    match=(bash bench/gpu-vs-cpu.sh)
    if ((GPUS > 1)); then
        match=("$PYTHON" bench/multi-gpu-match.py --gpus "$GPUS" --first "$FIRST" --last "$LAST"
            --results "$OUT/$name" -- "${match[@]}")
    fi
    CUDA_OPTIONS="$kernel" GPU_UCI="${uci//,/;}" DEPTH="$DEPTH" FIRST="$FIRST" LAST="$LAST" \
        GAMES=$((2 * (LAST - FIRST + 1))) CONCURRENCY="$CONCURRENCY" THREADS="$THREADS" HASH="$HASH" \
        ADJUDICATE=1 RESULTS="$OUT/$name" PYTHON="$PYTHON" \
        "${stop[@]}" "${match[@]}" | grep -E "^(W/D/L|Faults|kogge-gpu: median)" || true
done

for name in "${names[@]:1}"; do
    echo "== $name against ${names[0]}"
    "$PYTHON" tools/match/paired.py "$OUT/$name/games.pgn" "$OUT/${names[0]}/games.pgn" \
        --opponent "kogge-cpu-$THREADS" | tail -1
done
