#!/usr/bin/env bash
# GPU against GPU: build or kernel knob A (engine1) against B (engine2), one game at a time on
# the one GPU, as the sessions judged parallel-search changes at a time control. Ends with the
# harness's result line (W/D/L from A's side, Elo ± 95%) and each side's median depth
# (tools/match/depths.py). For example, the twenty-seventh
# session's helpers pruning by the noise-free order against the default:
#   CUDA_OPTIONS_A="-DCLEAN_RANK=1" bash bench/gpu-ab-match.sh
#
# Usage: bash bench/gpu-ab-match.sh
#   KOGGE_A, KOGGE_B  the two binaries                 (default target/release/kogge both)
#   CUDA_OPTIONS_A/_B kernel knobs of each (KOGGE_CUDA_OPTIONS)
#   UCI_A, UCI_B      UCI options of each, NAME=VALUE separated by ';', e.g. "GPU Finisher=checked"
#   NAME_A, NAME_B    names in the PGN                 (default a, b)
#   TC                time control, BASE+INC seconds   (default 3+0.03)
#   GAMES             games                            (default 100)
#   HASH              MiB of table for each            (default 256)
#   OPENINGS, FIRST, LAST, RESULTS, PYTHON: as bench/gpu-vs-cpu.sh
#   ADJUDICATE        1 (the default): resign at 800 cp for 3 moves, draw within 10 cp for 8 from move 40
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

KOGGE_A=${KOGGE_A:-target/release/kogge}
KOGGE_B=${KOGGE_B:-target/release/kogge}
TC=${TC:-3+0.03}
GAMES=${GAMES:-100}
HASH=${HASH:-256}
RESULTS=${RESULTS:-gpu-ab-results}
PYTHON=${PYTHON:-python3}
mkdir -p "$RESULTS"

# shellcheck source=bench/match-common.sh
source bench/match-common.sh
set_openings
set_adjudication 1

set_uci_options 1 "Hash=$HASH;${UCI_A:-}"
options_a=("${uci_options[@]}")
set_uci_options 2 "Hash=$HASH;${UCI_B:-}"
options_b=("${uci_options[@]}")

run_match_with_depths \
    --engine1 "$(gpu_engine_command "$KOGGE_A" "${CUDA_OPTIONS_A:-}")" --name1 "${NAME_A:-a}" "${options_a[@]}" \
    --engine2 "$(gpu_engine_command "$KOGGE_B" "${CUDA_OPTIONS_B:-}")" --name2 "${NAME_B:-b}" "${options_b[@]}" \
    --tc "$TC" --games "$GAMES" --concurrency 1 "${openings[@]}" "${adjudication[@]}" \
    --pgn "$RESULTS/games.pgn" --json "$RESULTS/result.json"
