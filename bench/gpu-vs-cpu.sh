#!/usr/bin/env bash
# The question the GPU search exists for: Kogge on the GPU against Kogge on every CPU core of the
# same machine, same evaluation, one game at a time (the GPU engine gets the whole GPU, the CPU
# engine every core). Ends with the harness's result line (W/D/L from the GPU's side, Elo ± 95%).
#
# Usage: bash bench/gpu-vs-cpu.sh
#   KOGGE     the engine binary                    (default target/release/kogge)
#   TC        time control, BASE+INC in seconds    (default 10+0.1)
#   GAMES     games                                (default 20)
#   THREADS   CPU engine threads                   (default: every core)
#   HASH      MiB of table for each engine         (default 1024)
#   GPU_OPTS  extra harness options for the GPU engine, e.g. "--opt1 Workers=528"
#   RESULTS   folder for the PGN and JSON          (default gpu-vs-cpu-results)
#   PYTHON    python with python-chess             (default python3)
#   OPENINGS  the openings file                    (default: the harness's, ../shared/data)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

KOGGE=${KOGGE:-target/release/kogge}
TC=${TC:-10+0.1}
GAMES=${GAMES:-20}
THREADS=${THREADS:-$(nproc)}
HASH=${HASH:-1024}
RESULTS=${RESULTS:-gpu-vs-cpu-results}
PYTHON=${PYTHON:-python3}
mkdir -p "$RESULTS"
openings=()
if [[ -n "${OPENINGS:-}" ]]; then
    openings=(--openings "$OPENINGS")
fi

# shellcheck disable=SC2086 # GPU_OPTS is a list of options
"$PYTHON" tools/match/match.py \
    --engine1 "$KOGGE --backend cuda" --name1 kogge-gpu --opt1 "Hash=$HASH" ${GPU_OPTS:-} \
    --engine2 "$KOGGE --backend cpu" --name2 "kogge-cpu-$THREADS" \
    --opt2 "Threads=$THREADS" --opt2 "Hash=$HASH" \
    --tc "$TC" --games "$GAMES" --concurrency 1 "${openings[@]}" \
    --pgn "$RESULTS/games.pgn" --json "$RESULTS/result.json"
