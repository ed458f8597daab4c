#!/usr/bin/env python3
"""How well `GPU Finisher closing` names a search's last iteration.

Under `closing` the host has `checked` end the iterations it takes for the search's last (the
move played is the last completed iteration's) and `any` the others. This runs the engine over
positions in order, one table for all (`ucinewgame` once), each search with the same clock, with
`KOGGE_SEARCH_TRACE=1`, and reads each iteration's trace line (`...; rule any|checked`). Prints
the searches, in how many the last completed iteration was ended by `checked` (what the rule is
for), and the share of the iterations' time under `checked` (what it costs).

    bench/gpu-closing-probe.py --engine "kogge --backend opencl" --positions FILE [--count 40]
        [--clock 3+0.03] [--option Workers=8 ...]

FILE holds FEN or EPD lines. Needs nothing but the engine.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

from uci_specs import fen_of

ITERATION = re.compile(r"iteration depth \d+ window \S+: ([\d.]+) ms.*; rule (any|checked)")


def summarize(trace: str, last: int | None = None) -> dict:
    """From a trace: the searches with an iteration under a rule (the `last` of them, leaving out
    the engine's own warm-up searches before), how many ended on a `checked` iteration, and the
    ms of iterations under each rule."""
    searches = ended_checked = 0
    ms = {"any": 0.0, "checked": 0.0}
    chunks = [c for c in trace.split("search new")[1:] if ITERATION.search(c)]
    for chunk in chunks[-last:] if last else chunks:
        iterations = ITERATION.findall(chunk)
        searches += 1
        ended_checked += iterations[-1][1] == "checked"
        for took, rule in iterations:
            ms[rule] += float(took)
    return {"searches": searches, "ended_checked": ended_checked, "ms": ms}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", required=True, help="the engine's command")
    ap.add_argument("--positions", required=True, help="a file of FEN or EPD lines")
    ap.add_argument("--count", type=int, default=40, help="the file's first N positions")
    ap.add_argument("--clock", default="3+0.03", help="BASE+INC seconds, for every search")
    ap.add_argument("--option", action="append", default=[], help="Name=Value, a UCI option")
    args = ap.parse_args()

    with open(args.positions) as f:
        fens = [fen_of(line) for line in f if line.strip() and not line.startswith("#")]
    fens = fens[: args.count]
    base, _, inc = args.clock.partition("+")
    clock_ms, inc_ms = int(float(base) * 1000), int(float(inc or 0) * 1000)
    env = dict(os.environ, KOGGE_SEARCH_TRACE="1")
    with tempfile.TemporaryFile("w+") as err:
        engine = subprocess.Popen(shlex.split(args.engine), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=err, text=True, env=env)

        def send(line: str) -> None:
            engine.stdin.write(line + "\n")
            engine.stdin.flush()

        def wait_for(prefix: str) -> None:
            while True:
                line = engine.stdout.readline()
                if not line:
                    raise SystemExit(f"the engine ended before '{prefix}'")
                if line.startswith(prefix):
                    return

        send("uci")
        for option in ["GPU Finisher=closing"] + args.option:
            name, _, value = option.partition("=")
            send(f"setoption name {name} value {value}")
        send("isready")
        wait_for("readyok")
        send("ucinewgame")
        for fen in fens:
            send(f"position fen {fen}")
            send(f"go wtime {clock_ms} btime {clock_ms} winc {inc_ms} binc {inc_ms}")
            wait_for("bestmove")
        send("quit")
        engine.wait(timeout=60)
        err.seek(0)
        trace = err.read()
    s = summarize(trace, last=len(fens))
    total = s["ms"]["any"] + s["ms"]["checked"]
    if not s["searches"]:
        print("no iteration lines with a rule in the trace (is the engine's GPU search in use?)",
              file=sys.stderr)
        return 1
    print(f"{s['searches']} searches: the last completed iteration ended by checked in "
          f"{s['ended_checked']}; {100 * s['ms']['checked'] / total:.0f}% of the iterations' time "
          f"under checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
