#!/usr/bin/env python3
"""How fast the workers that end the iterations walk, and how their nodes end, from a trace.

Reads the stderr of one or more traced searches, e.g.

    KOGGE_SEARCH_TRACE=1 kogge benchsmp --backend cuda --depth 14 --workers 528 \\
        --mode abdada --positions bench --count 8 2> abdada.err
    python3 bench/gpu-search-walks.py abdada.err default.err
    python3 bench/gpu-search-walks.py --by-depth default.err   # the same sums for each depth

and sums, over every `iteration` line of each file (one per finished iteration, aspiration
re-searches included): the iterations' time (first launch to result, the host's part included),
their launches, all workers' nodes and the share that ended on the table at once, ETC cutoffs,
and the nodes of the worker that ended each iteration (the finisher) over the iterations' time.

An iteration lasts as long as its finisher's walk, so the finishers' nodes a second is the speed
that sets the time to depth, whatever the other workers do (PERFORMANCE.md, twenty-ninth session:
with 528 workers ABDADA alone's finishers walked at 108 K nodes a second, the default's at 67 K;
thirtieth: with helpers seeded by their multiprocessor, the new default, at 106 K).
"""

import re
import sys

ITERATION = re.compile(
    r"iteration depth (?P<depth>\d+) window \S+: ([\d.]+) ms, launches (\d+); "
    r"finisher worker \d+: (\d+) nodes, (\d+) table cutoffs, (\d+) ETC; "
    r"all (\d+) workers: (\d+) nodes, (\d+) table cutoffs, (\d+) ETC"
)


def summarize(lines):
    """The sums over the trace's iteration lines, or None if it has none."""
    ms = 0.0
    launches = iterations = workers = 0
    finisher_nodes = finisher_table = 0
    nodes = table = etc = 0
    for line in lines:
        m = ITERATION.search(line)
        if not m:
            continue
        iterations += 1
        ms += float(m.group(2))
        launches += int(m.group(3))
        finisher_nodes += int(m.group(4))
        finisher_table += int(m.group(5))
        workers = max(workers, int(m.group(7)))
        nodes += int(m.group(8))
        table += int(m.group(9))
        etc += int(m.group(10))
    if iterations == 0:
        return None
    return {
        "iterations": iterations,
        "workers": workers,
        "ms": ms,
        "launches": launches,
        "nodes": nodes,
        "table_share": table / max(nodes, 1),
        "etc": etc,
        "finisher_nodes": finisher_nodes,
        "finisher_rate": finisher_nodes / ms * 1e3 if ms > 0 else 0.0,
        "finisher_table_share": finisher_table / max(finisher_nodes, 1),
    }


def by_depth(lines):
    """{depth: the sums over that depth's iteration lines}, deepest last."""
    groups = {}
    for line in lines:
        m = ITERATION.search(line)
        if m:
            groups.setdefault(int(m.group("depth")), []).append(line)
    return {d: summarize(groups[d]) for d in sorted(groups)}


def describe(name, s):
    return (
        f"{name}: {s['iterations']} iterations, {s['workers']} workers, {s['ms']:.0f} ms, "
        f"{s['launches']} launches; all workers {s['nodes']:,} nodes, {100 * s['table_share']:.1f}% "
        f"on the table, {s['etc']:,} ETC; finishers {s['finisher_nodes']:,} nodes, "
        f"{s['finisher_rate'] / 1e3:.1f} K nodes/s, {100 * s['finisher_table_share']:.1f}% on the table"
    )


def main(args):
    split = "--by-depth" in args
    paths = [a for a in args if a != "--by-depth"]
    if not paths:
        print("usage: python3 bench/gpu-search-walks.py [--by-depth] TRACE.err [TRACE.err ...]",
              file=sys.stderr)
        print(__doc__.strip().split("\n")[0], file=sys.stderr)
        return 2
    status = 0
    for path in paths:
        try:
            with open(path) as f:
                lines = f.readlines()
        except OSError as err:
            print(f"{path}: {err.strerror}", file=sys.stderr)
            status = 1
            continue
        s = summarize(lines)
        if s is None:
            print(f"{path}: no iteration lines (was KOGGE_SEARCH_TRACE=1 set?)", file=sys.stderr)
            status = 1
            continue
        print(describe(path, s))
        if split:
            for depth, sd in by_depth(lines).items():
                print("  " + describe(f"depth {depth}", sd))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
