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
#   MOVETIME   seconds a search instead of DEPTH; each run is then compared with the first by
#              the depth it reached (game-depths.py --paired), not by time   (default: none)
#   SIDE       whose positions: white, black or both                        (default both)
#   TO_MOVE    the last move replayed                                       (default: all)
#   TRACE      1: every run traced (KOGGE_SEARCH_TRACE=1, its stderr kept in OUT) and its
#              first aspiration windows counted at the end (bench/gpu-first-windows.py: how
#              often they fail on and off the last search's line)          (default 0)
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
SIDE=${SIDE:-both}
TRACE=${TRACE:-0}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"

# shellcheck source=bench/ab-common.sh
source bench/ab-common.sh
read_variants

worker_option=()
[[ "$BACKEND" != cpu ]] && worker_option=(--option "engine:Workers=$WORKERS")
[[ "$BACKEND" != cpu && -n "${FINISHER:-}" ]] && worker_option+=(--option "engine:GPU Finisher=$FINISHER")

limit=(--depth "$DEPTH")
[[ -n "${MOVETIME:-}" ]] && limit=(--movetime "$MOVETIME")
moves=(--from-move "$FROM_MOVE")
[[ -n "${TO_MOVE:-}" ]] && moves+=(--to-move "$TO_MOVE")
trace_env=""
[[ "$TRACE" == 1 ]] && trace_env="KOGGE_SEARCH_TRACE=1"

first=""
traced=()
for rep in $(seq "$REPS"); do
    for v in "${variants[@]}"; do
        split_variant "$v"
        name=$variant_name binary=$variant_first options=$variant_rest
        json="$out/$name-$rep.json"
        kept=()
        if [[ "$TRACE" == 1 ]]; then
            kept=(--stderr "$out/$name-$rep")
            traced+=("$name-$rep=$json,$out/$name-$rep/engine.stderr")
        fi
        # The engine is named `engine` in every run, so that one option list serves them all.
        python3 bench/game-depths.py --pgn "$PGN" --games "$GAMES" "${limit[@]}" --side "$SIDE" \
            "${moves[@]}" "${kept[@]}" \
            --engine "engine=env $trace_env KOGGE_CUDA_OPTIONS='$options' KOGGE_OPENCL_OPTIONS='$options' $binary --backend $BACKEND" \
            "${worker_option[@]}" --option "engine:Hash=$HASH" --json "$json" | grep "^engine:" | sed "s/^engine/$name $rep/"
        if [[ -z "$first" ]]; then
            first=$json
        elif [[ -n "${MOVETIME:-}" ]]; then
            echo "== $name $rep against ${variants[0]%%=*} 1 (depth)"
            python3 bench/game-depths.py --paired "$first" "$json"
        else
            echo "== $name $rep against ${variants[0]%%=*} 1"
            python3 bench/replay-time.py "$first" "$json"
        fi
    done
done
if [[ "$TRACE" == 1 ]]; then
    echo "== first aspiration windows"
    python3 bench/gpu-first-windows.py "${traced[@]}"
fi
