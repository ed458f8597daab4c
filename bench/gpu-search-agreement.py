#!/usr/bin/env python3
"""How often the helpers that finish an iteration first agree with worker 0.

Reads the stderr of a traced search with worker 0 as the only finisher, e.g.

    KOGGE_SEARCH_TRACE=1 kogge benchsmp --backend cuda --depth 14 --workers 264 \\
        --finish main --positions bench --count 16 2> trace.err
    python3 bench/gpu-search-agreement.py trace.err

and counts, over the `agreement` lines of iterations of depth MIN_DEPTH (8) and up: where worker
0's best move differs from its previous iteration's (a changed move), how often the workers that
finished in the earliest launch had none of the new move, and how often one of them had the old
one; where worker 0 kept its move, how often none of them had it. A new position starts where the
depth falls. Aspiration re-searches are iterations of their own.
"""

import re
import sys

MIN_DEPTH = 8
LINE = re.compile(
    r"agreement depth (\d+) finisher (\d+) best (\S+) score (\S+); "
    r"worker 0's first move ([^;]*); (.*)"
)
GROUP = re.compile(r"launch (\d+): (\d+)/(\d+) same \[(.*)\]")


def count(lines):
    changed = kept_old = none_new = kept = none_kept = 0
    previous, previous_depth = None, 0
    for line in lines:
        m = LINE.match(line)
        if not m:
            continue
        depth, best, groups = int(m[1]), m[3], m[6]
        if depth < previous_depth:
            previous = None
        previous_depth = depth
        first = GROUP.match(groups.split("; ")[0]) if groups else None
        if depth >= MIN_DEPTH and previous is not None and first:
            same, others = int(first[2]), first[4]
            if best != previous:
                changed += 1
                none_new += same == 0
                kept_old += bool(re.search(r"(^|, )" + re.escape(previous) + " ", others))
            else:
                kept += 1
                none_kept += same == 0
        previous = best
    return changed, none_new, kept_old, kept, none_kept


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gpu-search-agreement.py TRACE_STDERR")
    with open(sys.argv[1]) as f:
        changed, none_new, kept_old, kept, none_kept = count(f)
    print(f"worker 0 changed its move in {changed} iterations: the first finishers had none of "
          f"the new move in {none_new} and the old move in {kept_old}; it kept its move in "
          f"{kept}: the first finishers had none of it in {none_kept}")


if __name__ == "__main__":
    main()
