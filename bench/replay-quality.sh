#!/usr/bin/env bash
# Move quality at equal time, position by position (docs/STRENGTH.md, thirty-fourth session on):
# every engine replays the same games, both sides, its table kept from move to move and the same
# clock handed over at every move, so that its time manager decides as in a game
# (bench/game-depths.py --clock); one JSON an engine. Where JUDGE names a stronger UCI engine,
# bench/move-quality.py then values every position and every move played, and prints each
# engine's mean loss and each engine against the first on the positions both searched.
# A few hundred positions resolve about ±3 cp a position, where a match of the same device time
# gives an Elo interval of ±100 (docs/STRENGTH.md).
#
# On the device the replays, here the judging (Stockfish needs no GPU), e.g. the thirty-sixth
# session's 132 workers against the default and 16 CPU threads:
#   ENGINES="gpu=$K --backend cuda; w132=$K --backend cuda|Workers=132; cpu16=$K --backend cpu|Threads=16" \
#       PGN=.dev/data/m17.pgn SECONDS_EACH=160 RESULTS=$OUT bash bench/replay-quality.sh
#   JUDGE=/usr/games/stockfish RESULTS=<the files> ... (the same ENGINES) REPLAY=0 bash bench/replay-quality.sh
#
# Usage: ENGINES=... PGN=... bash bench/replay-quality.sh
#   ENGINES       NAME=COMMAND[|OPTION=VALUE...], separated by ';' (kernel knobs in the command:
#                 "env KOGGE_CUDA_OPTIONS=-DNAME=VALUE kogge --backend cuda")   (required)
#   PGN           the games replayed                                            (required)
#   GAMES         its first games replayed                                      (default 17)
#   CLOCK         BASE+INC seconds, handed over at every move                   (default 3+0.03)
#   DEPTH         instead of the clock, each search to this depth (what a depth is worth: run
#                 once a depth into the same RESULTS, then REPLAY=0 with every NAME to judge)
#   MOVETIME      instead of the clock, each search for this many seconds
#   SIDE          white, black or both: whose positions are searched             (default both)
#   FROM_MOVE, TO_MOVE   only the positions of these moves (the table is built from FROM_MOVE)
#   HASH          MiB of table for each engine; empty: not set                  (default 1024)
#   SECONDS_EACH  stop each engine's replay after this many seconds, keeping the games it
#                 finished (every engine stops within the same games' positions)  (default: none)
#   REPLAY        0: only judge the JSONs already in RESULTS                    (default 1)
#   JUDGE         a UCI engine to judge with; none: no judging                  (default none)
#   JUDGE_DEPTH, JOBS, CACHE   bench/move-quality.py's --depth (16), --jobs (2), --cache
#   RESULTS       folder for NAME.json, and NAME.stderr: the engine's stderr (with
#                 KOGGE_SEARCH_TRACE=1 in its command, what bench/helper-ahead.py reads)
#                                                          (default replay-quality-results)
#   PYTHON        python with python-chess                 (default python3)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

: "${ENGINES:?ENGINES=NAME=COMMAND[|OPTION=VALUE...];... is required}"
GAMES=${GAMES:-17}
CLOCK=${CLOCK:-3+0.03}
HASH=${HASH-1024}
SIDE=${SIDE:-both}
RESULTS=${RESULTS:-replay-quality-results}
PYTHON=${PYTHON:-python3}
mkdir -p "$RESULTS"

files=()
IFS=';' read -ra specs <<<"$ENGINES"
for spec in "${specs[@]}"; do
    spec=$(echo "$spec" | sed 's/^ *//; s/ *$//')
    [[ -n "$spec" ]] || continue
    if [[ "$spec" != *=* ]]; then
        echo "an engine is NAME=COMMAND[|OPTION=VALUE...], not '$spec'" >&2
        exit 2
    fi
    name=${spec%%=*}
    IFS='|' read -ra parts <<<"${spec#*=}"
    files+=("$RESULTS/$name.json")
    [[ "${REPLAY:-1}" == 0 ]] && continue
    : "${PGN:?PGN (the games replayed) is required}"
    options=()
    [[ -n "$HASH" ]] && options+=(--option "$name:Hash=$HASH")
    for option in "${parts[@]:1}"; do
        options+=(--option "$name:$option")
    done
    stop=()
    [[ -n "${SECONDS_EACH:-}" ]] && stop=(timeout "$SECONDS_EACH")
    limit=(--clock "$CLOCK")
    [[ -n "${DEPTH:-}" ]] && limit=(--depth "$DEPTH")
    [[ -n "${MOVETIME:-}" ]] && limit=(--movetime "$MOVETIME")
    [[ -n "${FROM_MOVE:-}" ]] && limit+=(--from-move "$FROM_MOVE")
    [[ -n "${TO_MOVE:-}" ]] && limit+=(--to-move "$TO_MOVE")
    # A replay stopped by its time keeps the games it finished (game-depths.py saves after each);
    # any other failure ends the script.
    status=0
    "${stop[@]}" "$PYTHON" bench/game-depths.py --pgn "$PGN" --games "$GAMES" --side "$SIDE" \
        "${limit[@]}" --engine "$name=${parts[0]}" "${options[@]}" --json "$RESULTS/$name.json" \
        --stderr "$RESULTS" || status=$?
    if ((status != 0 && status != 124)); then
        echo "$name's replay failed (exit status $status)" >&2
        exit 1
    fi
    if [[ ! -s "$RESULTS/$name.json" ]]; then
        echo "$name finished no game in its time: nothing to judge" >&2
        exit 1
    fi
done

if [[ -n "${JUDGE:-}" ]]; then
    "$PYTHON" bench/move-quality.py "${files[@]}" --judge "$JUDGE" --depth "${JUDGE_DEPTH:-16}" \
        --jobs "${JOBS:-2}" ${CACHE:+--cache "$CACHE"}
fi
