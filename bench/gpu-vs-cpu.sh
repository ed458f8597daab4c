#!/usr/bin/env bash
# The question the GPU search exists for: Kogge on the GPU against Kogge on every CPU core of the
# same machine, same evaluation, one game at a time (the GPU engine gets the whole GPU, the CPU
# engine every core). Ends with the harness's result line (W/D/L from the GPU's side, Elo ± 95%)
# and each engine's median depth over the games' first 40 moves (tools/match/depths.py). Against
# fewer threads (THREADS=1, 2, 4) it places the GPU among the CPU's thread counts.
#
# The same script plays the equal-depth games of the twenty-fifth to twenty-seventh sessions
# (the GPU's result of a depth against one CPU thread's):
#   DEPTH=11 THREADS=1 HASH=64 CONCURRENCY=8 FIRST=49 LAST=96 GAMES=96 ADJUDICATE=1 bash bench/gpu-vs-cpu.sh
#
# Usage: bash bench/gpu-vs-cpu.sh
#   KOGGE        the engine binary                    (default target/release/kogge)
#   TC           time control, BASE+INC in seconds    (default 10+0.1)
#   DEPTH        play to this depth each move instead of a clock (TC is then not used)
#   MOVETIME     seconds a move, the same for every move, instead of a clock (no time
#                management: both sides search each move alike, stopped iterations included)
#   GAMES        games                                (default 20)
#   THREADS      CPU engine threads                   (default: every core)
#   HASH         MiB of table for each engine         (default 1024)
#   CONCURRENCY  games at once                        (default 1; only with DEPTH, where no clock
#                runs: GPU processes at once share the GPU by time slices)
#   GPU_OPTS     extra harness options for the GPU engine, e.g. "--opt1 Workers=528"
#   GPU_UCI      UCI options of the GPU engine, NAME=VALUE separated by ';' (names may have
#                spaces), e.g. "GPU Finisher=main;Workers=528"
#   CUDA_OPTIONS kernel knobs for the GPU engine (KOGGE_CUDA_OPTIONS), e.g. "-DCLEAN_RANK=1"
#   OPENINGS     the openings file                    (default: the harness's, ../shared/data)
#   FIRST, LAST  play only the openings on these lines of it (1-based, inclusive)
#   ADJUDICATE   1: resign at 800 cp for 3 moves, draw within 10 cp for 8 moves from move 40
#   RESULTS      folder for the PGN and JSON          (default gpu-vs-cpu-results)
#   PYTHON       python with python-chess             (default python3)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

KOGGE=${KOGGE:-target/release/kogge}
TC=${TC:-10+0.1}
GAMES=${GAMES:-20}
THREADS=${THREADS:-$(nproc)}
HASH=${HASH:-1024}
CONCURRENCY=${CONCURRENCY:-1}
RESULTS=${RESULTS:-gpu-vs-cpu-results}
PYTHON=${PYTHON:-python3}
mkdir -p "$RESULTS"

if [[ -n "${DEPTH:-}" ]]; then
    limit=(--depth "$DEPTH")
elif ((CONCURRENCY > 1)); then
    echo "CONCURRENCY above 1 needs DEPTH: games on a clock need the machine to themselves" >&2
    exit 2
elif [[ -n "${MOVETIME:-}" ]]; then
    limit=(--movetime "$MOVETIME")
else
    limit=(--tc "$TC")
fi

# shellcheck source=bench/match-common.sh
source bench/match-common.sh
set_openings
set_adjudication 0
gpu_engine=$(gpu_engine_command "$KOGGE" "${CUDA_OPTIONS:-}")
set_uci_options 1 "Hash=$HASH;${GPU_UCI:-}"

# shellcheck disable=SC2086 # GPU_OPTS is a list of options
run_match_with_depths \
    --engine1 "$gpu_engine" --name1 kogge-gpu "${uci_options[@]}" ${GPU_OPTS:-} \
    --engine2 "$KOGGE --backend cpu" --name2 "kogge-cpu-$THREADS" \
    --opt2 "Threads=$THREADS" --opt2 "Hash=$HASH" \
    "${limit[@]}" --games "$GAMES" --concurrency "$CONCURRENCY" "${openings[@]}" "${adjudication[@]}" \
    --pgn "$RESULTS/games.pgn" --json "$RESULTS/result.json"
