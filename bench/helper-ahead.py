#!/usr/bin/env python3
"""How often a timed GPU search's last completed iteration was ended by a helper searching ahead.

Under `DEEPER_HELPERS` every fourth helper searches each iteration one or two plies past it; the
first worker to finish ends the iteration, so on a clock the depth reported and the move played
may be such a helper's, searched with its noise on a table that knew less. At a fixed depth the
helpers stop a ply short of the depth asked, and all the workers search it. At 0.1 and 0.3 s a
move the GPU's moves were worse than 16 CPU threads' at the same reported depth, and even at a
fixed depth (fifty-third session, docs/STRENGTH.md): this splits a replay's searches by who ended
their last completed iteration, so that each part can be judged on its own.

Input: a `bench/game-depths.py --json` file of one GPU engine, and that engine's stderr with
`KOGGE_SEARCH_TRACE=1` (game-depths.py `--stderr DIR` keeps it as DIR/NAME.stderr). The trace
starts each search with `search new` and prints a line per completed iteration, with `finisher
worker W at depth D` when a helper ahead ended it at its own depth D (driver/diagnostics.rs).
The engine's warm-up searches come first, so the trace's last searches are the file's, in order.

    bench/helper-ahead.py gpu.json gpu.stderr [--split PREFIX]

prints the share of searches whose last completed iteration a helper ahead ended, with the mean
reported depth of each part; `--split` writes PREFIX-ahead.json and PREFIX-own.json (the same
records), for `bench/move-quality.py cpu16.json PREFIX-ahead.json PREFIX-own.json`.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys

import search_trace

ITERATION = re.compile(r"^iteration depth (\d+) .*?; finisher worker (\d+)(?: at depth (\d+))?:")


def searches_of(trace_lines: list[str]) -> list[list[tuple[int, int, int | None]]]:
    """Each search's completed iterations, in order: (iteration's depth, finisher, the depth a
    helper ahead ended it at, or None)."""
    searches = []
    for lines in search_trace.split_searches(trace_lines):
        iterations = []
        for line in lines:
            if m := ITERATION.match(line):
                ahead = int(m.group(3)) if m.group(3) else None
                iterations.append((int(m.group(1)), int(m.group(2)), ahead))
        searches.append(iterations)
    return searches


def label(records: list[dict], searches: list[list[tuple[int, int, int | None]]]) -> list[dict]:
    """The records with `ahead` (whether a helper ahead ended the last completed iteration; None
    without one) and `jumps` (iterations a helper ahead ended). The last len(records) searches of
    the trace are the records' (the warm-ups come first)."""
    mine = search_trace.of_records(records, searches)
    out = []
    for record, iterations in zip(records, mine):
        last = iterations[-1] if iterations else None
        out.append(dict(record, ahead=None if last is None else last[2] is not None,
                        jumps=sum(1 for it in iterations if it[2] is not None)))
    return out


def summary(labelled: list[dict]) -> list[str]:
    lines = []
    known = [r for r in labelled if r["ahead"] is not None]
    ahead = [r for r in known if r["ahead"]]
    lines.append(f"{len(labelled)} searches, {len(known)} with a completed iteration; the last one "
                 f"ended by a helper ahead in {len(ahead)} ({100 * len(ahead) / max(1, len(known)):.1f}%); "
                 f"{sum(r['jumps'] for r in labelled)} such iterations in all")
    for name, part in (("ahead", ahead), ("own", [r for r in known if not r["ahead"]])):
        depths = [r["depth"] for r in part if r.get("depth") is not None]
        if depths:
            lines.append(f"  {name}: {len(part)} searches, mean reported depth {statistics.mean(depths):.2f}")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json", help="bench/game-depths.py --json of one GPU engine")
    ap.add_argument("trace", help="that engine's stderr, with KOGGE_SEARCH_TRACE=1")
    ap.add_argument("--split", metavar="PREFIX", help="write PREFIX-ahead.json and PREFIX-own.json")
    args = ap.parse_args()
    with open(args.json) as f:
        records = json.load(f)
    engines = {r["engine"] for r in records}
    if len(engines) != 1:
        print(f"{args.json}: one engine's searches expected, found {sorted(engines)}", file=sys.stderr)
        return 2
    with open(args.trace) as f:
        searches = searches_of(f.read().splitlines())
    try:
        labelled = label(records, searches)
    except ValueError as e:
        print(f"{args.trace}: {e}", file=sys.stderr)
        return 1
    print("\n".join(summary(labelled)))
    if args.split:
        for name, keep in (("ahead", True), ("own", False)):
            with open(f"{args.split}-{name}.json", "w") as f:
                json.dump([r for r in labelled if r["ahead"] is keep], f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
