#!/usr/bin/env python3
"""Looks for mate scores where there is no mate: a sanity check of a parallel GPU search.

Searches each position to a fixed depth through UCI, with the given backend, workers and
parallel mode, and prints every `info` line that reports a mate score. The positions are quiet
openings (the start position and `openings-8ply.epd`), none of them near a mate at the depths
this is run at, so any mate score is a search bug: the eighteenth session found YBWC's stale
split-point window this way ("mate 1" from the start position at depth 15 on the H100), which the
PoCL tests, with few workers, never showed. Exits with status 1 if it found one.

Usage: python3 bench/gpu-search-mate-scan.py [--kogge PATH] [--backend cuda] [--workers 528]
           [--mode ybwc] [--depth 15] [--count 8] [--data DIR]
"""
import argparse
import os
import subprocess
import sys
import time


def positions(data, count):
    """The start position, then the first balanced openings, as UCI `position` commands."""
    lines = ["position startpos"]
    with open(os.path.join(data, "openings-8ply.epd")) as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 4:
                lines.append("position fen " + " ".join(fields[:4]) + " 0 1")
    return lines[:count]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kogge", default=os.path.join(here, "..", "target", "release", "kogge"))
    ap.add_argument("--backend", default="cuda")
    ap.add_argument("--workers", type=int, default=528)
    ap.add_argument("--mode", default="ybwc", help="the UCI option `GPU Parallel`")
    ap.add_argument("--depth", type=int, default=15)
    ap.add_argument("--count", type=int, default=8)
    ap.add_argument("--data", default=os.path.join(here, "..", "..", "shared", "data"))
    args = ap.parse_args()

    engine = subprocess.Popen([args.kogge, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)

    def send(command):
        engine.stdin.write(command + "\n")
        engine.stdin.flush()

    def read():
        line = engine.stdout.readline()
        if not line:
            sys.exit("the engine exited")
        return line.strip()

    for name, value in [("Backend", args.backend), ("Workers", args.workers),
                        ("GPU Parallel", args.mode)]:
        send(f"setoption name {name} value {value}")
    send("isready")
    while read() != "readyok":
        pass
    mates = 0
    for i, position in enumerate(positions(args.data, args.count)):
        send("ucinewgame")
        send(position)
        send(f"go depth {args.depth}")
        started, last = time.time(), ""
        while True:
            line = read()
            if line.startswith("info string"):
                print(f"#{i} {line}")  # a fallback to the CPU, say: worth seeing
            elif line.startswith("info depth"):
                last = line
                if " score mate " in line:
                    mates += 1
                    print(f"#{i} MATE SCORE in {position}\n   {line[:200]}")
            elif line.startswith("bestmove"):
                break
        print(f"#{i} {time.time() - started:.1f} s: {last.split(' pv ')[0][:100]}", flush=True)
    send("quit")
    print(f"{args.mode}, {args.workers} workers, depth {args.depth}: {mates} mate scores")
    sys.exit(1 if mates else 0)


if __name__ == "__main__":
    main()
