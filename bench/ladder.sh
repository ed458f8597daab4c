#!/usr/bin/env bash
# The strength ladder: Kogge against Debian's engines through tools/match/match.py, several games
# at a time, ending with one table (games, W/D/L, score, Elo ± 95% interval, Kogge's faults).
# Meant for a machine with many cores (the H100 host has 16): only the side to move thinks, so
# CONCURRENCY games at once keep about that many cores busy.
#
# Usage: bash bench/ladder.sh [OPPONENT...]   (default: every opponent below)
#   KOGGE        the engine binary                  (default target/release/kogge)
#   TC           time control, BASE+INC in seconds  (default 1+0.01)
#   GAMES        games per opponent                 (default 72)
#   CONCURRENCY  games at once                      (default: cores - 2)
#   RESULTS      folder for the PGN and JSON files  (default ladder-results)
#   OPENINGS     the openings file                  (default: the harness's, ../shared/data)
#   DEBS         where to take the engines from when they are not installed and apt cannot be
#                used (a folder of .deb files, unpacked into /): the device machine has no network
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

KOGGE=${KOGGE:-target/release/kogge}
TC=${TC:-1+0.01}
GAMES=${GAMES:-72}
CONCURRENCY=${CONCURRENCY:-$(($(nproc) > 3 ? $(nproc) - 2 : 1))}
RESULTS=${RESULTS:-ladder-results}
mkdir -p "$RESULTS"
openings=()
if [[ -n "${OPENINGS:-}" ]]; then
    openings=(--openings "$OPENINGS")
fi

# name | command | protocol | harness options
opponents=(
    "sf2000|/usr/games/stockfish|uci|--opt2 UCI_LimitStrength=true --opt2 UCI_Elo=2000"
    "sf2400|/usr/games/stockfish|uci|--opt2 UCI_LimitStrength=true --opt2 UCI_Elo=2400"
    "sf2800|/usr/games/stockfish|uci|--opt2 UCI_LimitStrength=true --opt2 UCI_Elo=2800"
    "ethereal|/usr/games/ethereal-chess|uci|"
    "toga2|/usr/games/toga2|uci|"
    "glaurung|/usr/games/glaurung|uci|"
    "gnuchess|/usr/games/gnuchess --uci|uci|"
    "phalanx|/usr/games/phalanx|xboard|"
    "sjeng|/usr/games/sjeng|xboard|"
    "hoichess|/usr/games/hoichess|xboard|"
    "fairymax|python3 tools/opponents/setboard_shim.py /usr/games/fairymax|xboard|--openings-from-start"
)

if [[ -n "${DEBS:-}" ]]; then
    for deb in "$DEBS"/*.deb; do
        dpkg -x "$deb" /
    done
fi

selected=("$@")
table="$RESULTS/table.txt"
printf '%-10s %-8s %6s %12s %7s %24s %s\n' opponent tc games W/D/L score "Elo (95%)" "Kogge faults" > "$table"
for entry in "${opponents[@]}"; do
    IFS='|' read -r name command protocol options <<<"$entry"
    if ((${#selected[@]} > 0)) && [[ ! " ${selected[*]} " == *" $name "* ]]; then
        continue
    fi
    echo "== $name: $GAMES games at $TC, $CONCURRENCY at once"
    # shellcheck disable=SC2086 # the options are several words on purpose
    python3 tools/match/match.py --engine1 "$KOGGE" --name1 Kogge \
        --engine2 "$command" --proto2 "$protocol" --name2 "$name" $options \
        --tc "$TC" --games "$GAMES" --concurrency "$CONCURRENCY" "${openings[@]}" \
        --pgn "$RESULTS/$name.pgn" --json "$RESULTS/$name.json" | tail -4 || true
    python3 - "$RESULTS/$name.json" "$name" "$TC" >> "$table" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
def fmt(x): return "inf" if x is None else f"{x:+.0f}"
elo = f"{fmt(s['elo'])} [{fmt(s['elo_low'])}, {fmt(s['elo_high'])}]"
faults = s["faults"]["engine1"]
bad = ", ".join(f"{k} {v}" for k, v in faults.items() if v) or "none"
wdl = f"{s['wins']}/{s['draws']}/{s['losses']}"
print(f"{sys.argv[2]:<10} {sys.argv[3]:<8} {s['games']:>6} {wdl:>12} {100 * s['score']:6.1f}% {elo:>24} {bad}")
PY
done
echo
cat "$table"
