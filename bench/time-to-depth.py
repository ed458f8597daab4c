#!/usr/bin/env python3
"""Time to a fixed depth over the positions of an EPD or FEN file, for any UCI engine command: the
GPU search (`kogge --backend cuda`) and the CPU search on N threads side by side, on positions the
bench set lacks (endgames, whose depths in games grow for the CPU and not for the GPU:
docs/STRENGTH.md, thirty-first session).

    PYTHONPATH=... bench/time-to-depth.py --positions endgames.epd --count 16 --depth 16 \\
        --engine gpu="kogge --backend cuda" --engine cpu16="kogge --backend cpu" \\
        --option cpu16:Threads=16

Each search starts after `ucinewgame`. Prints one line per engine: positions, total and median
seconds, nodes and nodes a second (as the engine reports them). Needs python-chess.

Builds of the CPU search before ebc5705 mapped their table's pages during the first searches after
`ucinewgame`: with a large `Hash` their times here include those page faults (16 threads, `Hash`
1024, depth 18: three times as long, docs/PERFORMANCE.md, fortieth session).
"""

import argparse
import statistics
import sys
import time

import chess
import chess.engine

from uci_specs import fen_of, open_ready, options_for


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", required=True)
    ap.add_argument("--count", type=int, default=16)
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--engine", action="append", required=True, help="NAME=COMMAND")
    ap.add_argument("--option", action="append", default=[], help="NAME:Option=Value")
    args = ap.parse_args()
    with open(args.positions) as f:
        fens = [fen_of(l) for l in f if l.strip() and not l.startswith("#")][: args.count]
    for spec in args.engine:
        name, command = spec.split("=", 1)
        engine = open_ready(command, options_for(name, args.option))
        try:
            seconds, nodes = [], 0
            for fen in fens:
                board = chess.Board(fen)
                start = time.monotonic()
                # A new `game` each time: python-chess sends `ucinewgame` first.
                info = engine.analyse(board, chess.engine.Limit(depth=args.depth), game=object())
                seconds.append(time.monotonic() - start)
                nodes += info.get("nodes", 0)
        finally:
            engine.quit()
        total = sum(seconds)
        print(f"{name}: {len(fens)} positions to depth {args.depth}: {total:.2f} s "
              f"(median {statistics.median(seconds):.3f} s), {nodes} nodes, "
              f"{nodes / total / 1e6:.2f} M nodes/s")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
