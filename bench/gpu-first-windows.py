#!/usr/bin/env python3
"""How the GPU search's first aspiration window fares in game sequences, by whether the game's
moves since the engine's last search were the start of that search's principal variation.

The seventy-fourth session (docs/PERFORMANCE.md) found the GPU's time to depth after an
unexpected reply lost almost wholly in a failed first window: the search starts at its root
entry's depth with a window of ±18 cp around the entry's value, off the last search's line half
those windows fail, and most failures are not borne out (the depth's exact value, once found,
lies inside the window that failed). This counts that per run, so that a change meant to make the
first window hold (a table or pruning rule, a host rule for the window) can be judged by it, not
only by the depth it reaches.

Reads the records of a `bench/game-depths.py --json` run and the stderr of the same run traced
(`KOGGE_SEARCH_TRACE=1`, `--stderr`), e.g.

    python3 bench/game-depths.py --pgn games.pgn --games 6 --movetime 0.25 --side white \\
        --engine "e=env KOGGE_SEARCH_TRACE=1 kogge --backend cuda" --json base.json --stderr base
    python3 bench/gpu-first-windows.py base=base.json,base/e.stderr [new=new.json,new/e.stderr]

For each search: its first iteration with a window (one not opened to the full range); whether
it failed; where it failed and the same depth was completed afterwards, whether that exact value
lay inside the window that failed (not borne out); and the time of that depth's iterations until
one held, from the trace's times. Prints, per run and kind of root (on the last search's line,
off it, not known), the searches with a first window, how many failed, how many of those were
not borne out, and the mean time to complete the first depth where its window held and where it
failed.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass

import search_trace

# crates/search-gpu/src/driver/diagnostics.rs: the lines of a finished iteration.
ITERATION = re.compile(r"iteration depth (\d+) window (-?\d+)\.\.(-?\d+): ([\d.]+) ms")
AGREEMENT = re.compile(r"agreement depth (\d+) finisher (\d+) best (\S+) score (-?\d+)")
# The window of an iteration without aspiration (crates/search-gpu: -INFINITE..INFINITE).
FULL = 32001
KINDS = ((True, "on the line"), (False, "off it"), (None, "not known"))


@dataclass(frozen=True)
class Iteration:
    depth: int
    alpha: int
    beta: int
    ms: float
    score: int

    def windowed(self) -> bool:
        return not (self.alpha <= -FULL and self.beta >= FULL)

    def failed(self) -> bool:
        return self.score <= self.alpha or self.score >= self.beta


def read_trace(lines) -> list[list[Iteration]]:
    """The iterations of each traced search, in order: each `iteration` line with the value of the
    `agreement` line after it."""
    searches = []
    for search in search_trace.split_searches(lines):
        iterations: list[Iteration] = []
        pending = None
        for line in search:
            if m := ITERATION.match(line):
                pending = m
            elif (a := AGREEMENT.match(line)) and pending is not None:
                iterations.append(Iteration(int(pending[1]), int(pending[2]), int(pending[3]),
                                            float(pending[4]), int(a[4])))
                pending = None
        searches.append(iterations)
    return searches


@dataclass(frozen=True)
class FirstWindow:
    failed: bool
    borne_out: bool | None  # None: held, or its depth not completed after
    ms: float | None  # the first depth's iterations until one held; None: never held


def first_window(iterations: list[Iteration]) -> FirstWindow | None:
    """The search's first windowed iteration and what became of it; None where it had none."""
    windowed = [i for i in iterations if i.windowed()]
    if not windowed:
        return None
    first = windowed[0]
    start = iterations.index(first)
    ms = 0.0
    for it in iterations[start:]:
        if it.depth != first.depth:
            break
        ms += it.ms
        if not it.failed():
            borne = None if it is first else not (first.alpha < it.score < first.beta)
            return FirstWindow(it is not first, borne, ms)
    return FirstWindow(first.failed(), None, None)


def pair(records: list[dict], searches: list[list[Iteration]]) -> list[tuple[bool | None, FirstWindow]]:
    """Each record's kind of root and its first window (ValueError where the trace has fewer
    searches than the records)."""
    out = []
    for record, iterations in zip(records, search_trace.of_records(records, searches)):
        window = first_window(iterations)
        if window is not None:
            out.append((record.get("after_pv"), window))
    return out


def mean(values: list[float]) -> str:
    return f"{sum(values) / len(values):.1f} ms" if values else "-"


def rows(name: str, windows: list[tuple[bool | None, FirstWindow]]) -> list[str]:
    out = []
    for kind, label in KINDS:
        mine = [w for k, w in windows if k is kind]
        if not mine:
            continue
        failed = [w for w in mine if w.failed]
        judged = [w for w in failed if w.borne_out is not None]
        spurious = sum(not w.borne_out for w in judged)
        held_ms = [w.ms for w in mine if not w.failed and w.ms is not None]
        failed_ms = [w.ms for w in failed if w.ms is not None]
        out.append(f"{name} {label}: {len(mine)} first windows, failed {len(failed)} "
                   f"({100 * len(failed) / len(mine):.0f}%), not borne out {spurious} of {len(judged)}; "
                   f"first depth held {mean(held_ms)}, failed {mean(failed_ms)}")
    return out


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        print("usage: gpu-first-windows.py NAME=RECORDS.json,TRACE.stderr ...", file=sys.stderr)
        return 2
    for spec in argv:
        name, sep, files = spec.partition("=")
        records_path, comma, trace_path = files.partition(",")
        if not sep or not comma:
            print(f"want NAME=RECORDS.json,TRACE.stderr, not {spec!r}", file=sys.stderr)
            return 2
        with open(records_path) as f:
            records = json.load(f)
        with open(trace_path, errors="replace") as f:
            searches = read_trace(f)
        try:
            windows = pair(records, searches)
        except ValueError as e:
            print(f"{name}: {e}", file=sys.stderr)
            return 1
        print("\n".join(rows(name, windows)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
