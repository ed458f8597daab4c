#!/usr/bin/env bash
# A/B test of GPU search builds on the device: time to depth and nodes per second of two or more
# variants, run interleaved (A B C A B C ...) so that a drift of the machine (clocks, other work)
# falls on every variant alike, then one table of means, each change against the first variant
# with a 95% interval from the runs paired by repetition (bench/ab_table.py). A variant is an
# engine binary, or the same binary with extra kernel build options, given to OpenCL and to NVRTC
# alike (kernel knobs are `#ifndef` defaults, so `-DNAME=VALUE`, written without a space,
# overrides one without a rebuild), or the same binary in another parallel mode (`kogge benchsmp
# --mode`) or with another rule for who ends an iteration (`--finish`).
#
# Each variant first runs `kogge selftest` (GPU move generation, evaluation and search against
# the CPU) unless SELFTEST=0: a faster variant that is wrong is worth nothing.
#
# Usage: VARIANTS="old=.dev/kogge-old; new=.dev/kogge" bash bench/gpu-search-ab.sh
#        BACKEND=opencl VARIANTS="base=.dev/kogge; etc3=.dev/kogge|-DETC_MIN_DEPTH=3" \
#            bash bench/gpu-search-ab.sh
#        VARIANTS="abdada=.dev/kogge; ybwc=.dev/kogge||ybwc; nopv=.dev/kogge|-DSPLIT_PV=0|ybwc" \
#            bash bench/gpu-search-ab.sh
#        VARIANTS="any=.dev/kogge; main=.dev/kogge|||main; pure=.dev/kogge||abdada|main" \
#            bash bench/gpu-search-ab.sh
#   VARIANTS   NAME=BINARY[|BUILD OPTIONS[|MODE[|FINISH]]], separated by ';'   (required; MODE
#              as `kogge benchsmp --mode`, FINISH as its `--finish`, each default its default)
#   BACKEND    cuda or opencl                                  (default cuda)
#   WORKERS    worker counts, each measured on its own          (default "1 264")
#   DEPTH, COUNT    depth and number of `kogge bench` positions (default 12, 4)
#   REPS       interleaved runs per variant and worker count   (default 3)
#   SELFTEST   1: selftest each variant first                   (default 1)
#   SELFTEST_NODES  selftest's perft limit                      (default 1000000)
#   DATA       the test data folder for selftest               (default: the engine's)
#   ROWS       a file the runs' rows are appended to, kept      (default: a temporary file)
# The runs of several calls (several GPUs or device calls, in any order of the variants) pool with
# `python3 bench/ab_table.py --pool BASE,OTHER,... LOGS...`, the logs or the ROWS files. The log
# cuts each row at 160 characters, which drops each position's time (`position_seconds`, for
# ab_table's table by position): name ROWS (e.g. under $OUT on the device) to keep them.
# Nodes and seconds are the sums over the positions, as `kogge benchsmp` reports them. With one
# worker the search is deterministic: every run of a variant must give the same node count, and
# the script says so where it does not.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "${BASH_SOURCE[0]}")/.."

: "${VARIANTS:?set VARIANTS, e.g. VARIANTS=\"old=path/kogge-old; new=path/kogge\"}"
BACKEND=${BACKEND:-cuda}
WORKERS=${WORKERS:-1 264}
DEPTH=${DEPTH:-12}
COUNT=${COUNT:-4}
REPS=${REPS:-3}
SELFTEST=${SELFTEST:-1}
SELFTEST_NODES=${SELFTEST_NODES:-1000000}
data=()
if [[ -n "${DATA:-}" ]]; then
    data=(--data "$DATA")
fi

# shellcheck source=bench/ab-common.sh
source bench/ab-common.sh
read_variants
# This call's rows (NAME REP JSON, one run a line) for its table; also appended to the file ROWS
# names, if any, where `bench/ab_table.py --pool` can pool them with other calls'.
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
keep=()
if [[ -n "${ROWS:-}" ]]; then
    keep=("$ROWS")
fi

# Runs `kogge ARGS...` as variant $1 (its binary and OpenCL options).
kogge_as() {
    local spec=${1#*=} && shift
    local binary=${spec%%|*} options=""
    [[ "$spec" == *"|"* ]] && options=${spec#*|} && options=${options%%|*}
    KOGGE_OPENCL_OPTIONS="$options" KOGGE_CUDA_OPTIONS="$options" "$binary" "$@"
}

# The `--mode` and `--finish` arguments of variant $1 (none for an empty or missing field).
parallel_args_of() {
    local spec=${1#*=}
    local fields
    IFS='|' read -r -a fields <<<"$spec"
    if [[ ${#fields[@]} -ge 3 && -n "${fields[2]}" ]]; then
        echo -n "--mode ${fields[2]} "
    fi
    if [[ ${#fields[@]} -ge 4 && -n "${fields[3]}" ]]; then
        echo -n "--finish ${fields[3]}"
    fi
    echo
}

# A variant whose kernel does not build (a knob's value its `#error` refuses, a typo) is dropped
# with its compiler's message, so that it does not cost the others their runs (the sixty-fourth
# session lost a whole table to one); the first variant is the base of every comparison, so it
# must build.
usable=()
for v in "${variants[@]}"; do
    name=${v%%=*}
    if [[ "$SELFTEST" == 1 ]]; then
        echo "== selftest, $name ($BACKEND)"
        # The total, and a failure's details (its check and position), which the total alone
        # hid when one variant failed once in the forty-fourth session.
        log=$(mktemp)
        status=0
        kogge_as "$v" selftest --backend "$BACKEND" --max-nodes "$SELFTEST_NODES" "${data[@]}" >"$log" 2>&1 || status=$?
        grep -B1 -A4 "FAIL" "$log" | grep -v "^[0-9]* passed, [0-9]* failed$" || true
        tail -1 "$log"
        rm -f "$log"
        [[ $status == 0 ]] || exit "$status"
    fi
    # Compiles the kernels (cached), so that no timed run pays for it.
    status=0
    # shellcheck disable=SC2046 # the mode's and the finisher's words
    kogge_as "$v" benchsmp --backend "$BACKEND" --positions bench --count 1 --depth 4 --workers 1 \
        $(parallel_args_of "$v") >/dev/null || status=$?
    if [[ $status != 0 ]]; then
        if [[ ${#usable[@]} == 0 ]]; then
            echo "== $name, the first variant, did not run (above): nothing to compare against" >&2
            exit "$status"
        fi
        echo "== $name dropped: it did not run (above)" >&2
        continue
    fi
    usable+=("$v")
done
variants=("${usable[@]}")

for w in $WORKERS; do
    echo "== $w workers, $COUNT bench positions, depth $DEPTH"
    for rep in $(seq "$REPS"); do
        for v in "${variants[@]}"; do
            name=${v%%=*}
            # shellcheck disable=SC2046
            line=$(kogge_as "$v" benchsmp --backend "$BACKEND" --positions bench --count "$COUNT" \
                --depth "$DEPTH" --workers "$w" $(parallel_args_of "$v") --json | tail -1)
            echo "$name $rep $line" | tee -a "$rows" "${keep[@]}" | cut -c1-160
        done
    done
done

# The table, with a 95% interval on each variant's change against the first from the runs paired
# by repetition (bench/ab_table.py).
python3 bench/ab_table.py "$rows" "${variants[@]%%=*}"
