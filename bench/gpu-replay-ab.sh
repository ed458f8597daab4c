#!/usr/bin/env bash
# A/B test of GPU search builds on replayed games: each variant replays the same games to a
# fixed depth (bench/game-depths.py: the game's keys as history, the table kept from move to
# move), interleaved (A B A B ...), and bench/replay-time.py compares each run with the first
# variant's first run search by search, by the root's fifty-move count. With one worker (the
# default) a kernel change that keeps the search's rules searches the same nodes, which the
# comparison checks, so the time difference is the node's cost where the bench positions cannot
# show it: the bench positions have no game history and few endgames (the repetition filter,
# fifty-second session: 12% on long reversible histories, nothing on the bench positions).
#
# Usage: VARIANTS="base=.dev/kogge; new=.dev/kogge|-DKNOB=1" bash bench/gpu-replay-ab.sh
#   VARIANTS   NAME=BINARY[|BUILD OPTIONS], separated by ';' (options go to NVRTC and OpenCL
#              alike, as in bench/gpu-search-ab.sh)                         (required)
#   PGN        the games                      (default docs/data/long-endgames.pgn)
#   GAMES      how many of them               (default 6)
#   DEPTH      each search's depth            (default 11)
#   FROM_MOVE  the first move replayed        (default 41)
#   BACKEND    cuda, opencl or cpu            (default cuda)
#   WORKERS    the UCI option Workers         (default 1; 0 for the device's default)
#   FINISHER   the UCI option GPU Finisher    (default: the engine's)
#   HASH       the UCI option Hash, MiB       (default 256)
#   REPS       interleaved runs per variant   (default 2)
#   OUT        a folder for the runs' JSON    (default a temporary one)
# Needs python-chess (PYTHONPATH).
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "${BASH_SOURCE[0]}")/.."

: "${VARIANTS:?set VARIANTS, e.g. VARIANTS=\"base=.dev/kogge; new=.dev/kogge|-DKNOB=1\"}"
PGN=${PGN:-docs/data/long-endgames.pgn}
GAMES=${GAMES:-6}
DEPTH=${DEPTH:-11}
FROM_MOVE=${FROM_MOVE:-41}
BACKEND=${BACKEND:-cuda}
WORKERS=${WORKERS:-1}
HASH=${HASH:-256}
REPS=${REPS:-2}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"

# shellcheck source=bench/ab-common.sh
source bench/ab-common.sh
read_variants

worker_option=()
[[ "$BACKEND" != cpu ]] && worker_option=(--option "engine:Workers=$WORKERS")
[[ "$BACKEND" != cpu && -n "${FINISHER:-}" ]] && worker_option+=(--option "engine:GPU Finisher=$FINISHER")

first=""
for rep in $(seq "$REPS"); do
    for v in "${variants[@]}"; do
        split_variant "$v"
        name=$variant_name binary=$variant_first options=$variant_rest
        json="$out/$name-$rep.json"
        # The engine is named `engine` in every run, so that one option list serves them all.
        python3 bench/game-depths.py --pgn "$PGN" --games "$GAMES" --depth "$DEPTH" --side both \
            --from-move "$FROM_MOVE" \
            --engine "engine=env KOGGE_CUDA_OPTIONS='$options' KOGGE_OPENCL_OPTIONS='$options' $binary --backend $BACKEND" \
            "${worker_option[@]}" --option "engine:Hash=$HASH" --json "$json" | tail -1 | sed "s/^engine/$name $rep/"
        if [[ -z "$first" ]]; then
            first=$json
        else
            echo "== $name $rep against ${variants[0]%%=*} 1"
            python3 bench/replay-time.py "$first" "$json"
        fi
    done
done
