#!/usr/bin/env python3
"""What a kernel change costs or saves a node in replayed games: two runs of `bench/game-depths.py
--depth N --json` over the same games, one worker each (so each search's tree is fixed by the
kernel's rules, and a change that keeps them searches exactly the same nodes), compared search by
search. Prints whether the trees were the same, the total time's change, and the mean change of a
search's time (the log of the ratio, with a 95% interval) by the root's fifty-move count, where
the game's history that a repetition test reads is long or short (fifty-second session):

    bench/game-depths.py --pgn docs/data/long-endgames.pgn --games 6 --depth 11 --side both \\
        --from-move 41 --engine base="env KOGGE_CUDA_OPTIONS= kogge --backend cuda" \\
        --option base:Workers=1 --json base.json        (and new.json with the change)
    bench/replay-time.py base.json new.json

Each run's first search is left out: it includes the kernel's build.

The searches are also split by whether the first run reached the position on the principal
variation of its search before (`after_pv`, recorded by game-depths.py) or off it, where the
root's table entry is most likely a bound over a cold tree. Two runs that differ in the number of
workers (`--option NAME:Workers=N`) then give the parallel search's speedup at warm and at cold
roots of real games: the sixty-seventh and sixty-eighth sessions found the GPU search's depth
falling short of 16 threads' mostly after a reply it did not expect.
"""

from __future__ import annotations

import math
import statistics
import sys

from uci_specs import load_runs, replayed_position

# Bands of the root's fifty-move count (halfmoves since a capture or pawn move).
BANDS = ((0, 9), (10, 29), (30, 100))


def halfmove(record: dict) -> int:
    return int(record["fen"].split()[4])


def pair(first: list[dict], second: list[dict]) -> list[tuple[dict, dict]]:
    """The searches both runs made (the same position: uci_specs.replayed_position), first search
    of each run left out."""
    before = {replayed_position(r): r for r in first[1:]}
    return [(before[replayed_position(r)], r) for r in second[1:] if replayed_position(r) in before]


def change(pairs: list[tuple[dict, dict]]) -> dict:
    """Searches, the first run's seconds, the total's change and the mean change of a search's
    time with its 95% half-width (percent)."""
    ratios = [math.log(b["seconds"] / a["seconds"]) for a, b in pairs if a["seconds"] > 0 and b["seconds"] > 0]
    mean = statistics.fmean(ratios) if ratios else 0.0
    half = 1.96 * statistics.stdev(ratios) / math.sqrt(len(ratios)) if len(ratios) > 1 else float("nan")
    total_a = sum(a["seconds"] for a, _ in pairs)
    total_b = sum(b["seconds"] for _, b in pairs)
    return {
        "searches": len(pairs),
        "seconds": total_a,
        "total": 100 * (total_b / total_a - 1) if total_a > 0 else 0.0,
        "per_search": 100 * (math.exp(mean) - 1),
        "half_width": 100 * half,
    }


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    pairs = pair(*load_runs(argv[1:]))
    if not pairs:
        print("no search in both runs", file=sys.stderr)
        return 1
    differ = sum(a["nodes"] != b["nodes"] for a, b in pairs)
    print(f"{len(pairs)} searches in both; nodes differ in {differ}"
          + (" (the trees are not the same: the times compare different work)" if differ else " (the same trees)"))
    rows = [("all", change(pairs))]
    for lo, hi in BANDS:
        band = [(a, b) for a, b in pairs if lo <= halfmove(a) <= hi]
        if band:
            rows.append((f"fifty-move count {lo}-{hi}", change(band)))
    for line, name in ((True, "on the expected line"), (False, "off it")):
        some = [(a, b) for a, b in pairs if a.get("after_pv") is line]
        if some:
            rows.append((name, change(some)))
    print(f"{'searches':<26} {'n':>5} {'first s':>9} {'total':>8} {'a search':>9} {'95%':>6}")
    for name, row in rows:
        print(f"{name:<26} {row['searches']:>5} {row['seconds']:>9.2f} {row['total']:>+7.1f}% "
              f"{row['per_search']:>+8.1f}% {row['half_width']:>5.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
