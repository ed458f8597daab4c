#!/usr/bin/env python3
"""How many workers finish an iteration of the GPU search together, and whether they agree.

Reads the stderr of a traced search (`KOGGE_SEARCH_TRACE=1`), e.g. replayed games:

    python3 bench/game-depths.py --pgn games.pgn --games 4 --depth 12 --side both \\
        --engine "e=env KOGGE_SEARCH_TRACE=1 kogge --backend cuda" --stderr out
    python3 bench/gpu-finishers.py out/e.stderr

Each `agreement` line (crates/search-gpu/src/driver/diagnostics.rs) lists, by the launch in which
they finished, the workers that had finished the iteration when it ended, and the root moves
other than the one taken. Over the iterations of depth MIN_DEPTH (8) and up it prints the mean
number of finishers, how often they all named the taken move, how often the taken move was not
named by more than half of them (where a vote among them could have played another: the
FINISH_QUORUM and FINISH_PICK kernel knobs), how often they finished over more than one launch,
and how often worker 0 was the one taken.
"""

import importlib.util
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("agreement", os.path.join(_here, "gpu-search-agreement.py"))
agreement = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(agreement)

MIN_DEPTH = agreement.MIN_DEPTH


def summarize(lines, min_depth=MIN_DEPTH):
    """The counts over the `agreement` lines of depth `min_depth` and up."""
    s = {"iterations": 0, "finishers": 0, "all_agree": 0, "not_majority": 0, "launches": 0, "worker_0": 0}
    for line in lines:
        m = agreement.LINE.match(line)
        if not m or int(m[1]) < min_depth:
            continue
        groups = [agreement.GROUP.match(g) for g in m[6].split("; ")] if m[6] else []
        groups = [g for g in groups if g]
        same = sum(int(g[2]) for g in groups)
        total = sum(int(g[3]) for g in groups)
        others = [o for g in groups for o in g[4].split(", ") if o]
        s["iterations"] += 1
        s["finishers"] += total
        s["all_agree"] += not others
        s["not_majority"] += 2 * same <= total
        s["launches"] += len(groups) > 1
        s["worker_0"] += m[2] == "0"
    return s


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gpu-finishers.py TRACE_STDERR")
    with open(sys.argv[1]) as f:
        s = summarize(f)
    n = s["iterations"]
    if n == 0:
        sys.exit(f"no agreement line of depth {MIN_DEPTH} or more (was KOGGE_SEARCH_TRACE=1 set?)")
    print(f"{n} iterations of depth {MIN_DEPTH} and up: {s['finishers'] / n:.2f} finishers each; "
          f"all named the move taken in {s['all_agree'] / n:.1%}; it was not named by more than half "
          f"of them in {s['not_majority'] / n:.1%}; they finished over more than one launch in "
          f"{s['launches'] / n:.1%}; worker 0's result taken in {s['worker_0'] / n:.1%}")


if __name__ == "__main__":
    main()
