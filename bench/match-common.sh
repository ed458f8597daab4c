# Pieces shared by the GPU match scripts (bench/gpu-vs-cpu.sh, bench/gpu-ab-match.sh); sourced,
# not run. Each sets an array from the environment described in those scripts' headers.

# openings=(...): the harness's --openings for OPENINGS, or for its lines FIRST to LAST (written
# to RESULTS/openings.epd); none (the harness's default file) if neither is set.
set_openings() {
    openings=()
    local file=${OPENINGS:-../shared/data/openings-8ply.epd}
    if [[ -n "${FIRST:-}${LAST:-}" ]]; then
        sed -n "${FIRST:-1},${LAST:-\$}p" "$file" >"$RESULTS/openings.epd"
        openings=(--openings "$RESULTS/openings.epd")
    elif [[ -n "${OPENINGS:-}" ]]; then
        openings=(--openings "$OPENINGS")
    fi
}

# adjudication=(...): with ADJUDICATE=1 (the default given as $1), resignation at 800 cp for 3
# moves and a draw within 10 cp for 8 moves from move 40, as the sessions' GPU matches used.
set_adjudication() {
    adjudication=()
    if [[ "${ADJUDICATE:-$1}" == 1 ]]; then
        adjudication=(--resign-adjudication 3 800 --draw-adjudication 40 8 10)
    fi
}

# The command line of binary $1 on the CUDA backend with kernel knobs $2 (KOGGE_CUDA_OPTIONS, e.g.
# "-DCLEAN_RANK=1"), quoted for the harness, which splits it as a shell would.
gpu_engine_command() {
    if [[ -n "$2" ]]; then
        printf 'env %q %s --backend cuda' "KOGGE_CUDA_OPTIONS=$2" "$1"
    else
        printf '%s --backend cuda' "$1"
    fi
}

# uci_options=(...): the harness's --opt$1 for each NAME=VALUE of $2, separated by ';' (UCI
# option names have spaces: "GPU Finisher=checked;Workers=528").
set_uci_options() {
    uci_options=()
    local item
    local -a items
    IFS=';' read -r -a items <<<"$2"
    for item in "${items[@]}"; do
        [[ -n "$item" ]] && uci_options+=("--opt$1" "$item")
    done
    return 0
}

# Runs the harness with arguments "$@", then prints each engine's depth and time a move from the
# games played (tools/match/depths.py on RESULTS/games.pgn), also after an interrupted match
# (`timeout -s INT`), and returns the harness's exit status.
run_match_with_depths() {
    local status=0
    "$PYTHON" tools/match/match.py "$@" || status=$?
    if [[ -s "$RESULTS/games.pgn" ]]; then
        "$PYTHON" tools/match/depths.py "$RESULTS/games.pgn" || true
    fi
    return "$status"
}
