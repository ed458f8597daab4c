#!/usr/bin/env python3
"""How fast the workers that end the iterations walk, and how their nodes end, from a trace.

Reads the stderr of one or more traced searches, e.g.

    KOGGE_SEARCH_TRACE=1 kogge benchsmp --backend cuda --depth 14 --workers 528 \\
        --mode abdada --positions bench --count 8 2> abdada.err
    python3 bench/gpu-search-walks.py abdada.err default.err
    python3 bench/gpu-search-walks.py --by-depth default.err   # the same sums for each depth
    python3 bench/gpu-search-walks.py --searches game.err      # where each search's time went

and sums, over every `iteration` line of each file (one per finished iteration, aspiration
re-searches included): the iterations' time (first launch to result, the host's part included),
their launches, all workers' nodes and the share that ended on the table at once, ETC cutoffs,
and the nodes of the worker that ended each iteration (the finisher) over the iterations' time.

With `--searches`, the mean over searches (split at the `search new` lines; older traces at a
depth lower than the line before) of where a search's finished iterations spent their time: how
many iterations a depth (aspiration re-searches), and the time in re-searches and in depths three
or more below the search's last, which a warm table makes cheap for a CPU and not for the GPU
(PERFORMANCE.md, thirty-second session).

An iteration lasts as long as its finisher's walk, so the finishers' nodes a second is the speed
that sets the time to depth, whatever the other workers do (PERFORMANCE.md, twenty-ninth session:
with 528 workers ABDADA alone's finishers walked at 108 K nodes a second, the default's at 67 K;
thirtieth: with helpers seeded by their multiprocessor, the new default, at 106 K).
"""

import re
import sys

ITERATION = re.compile(
    r"iteration depth (?P<depth>\d+) window \S+: ([\d.]+) ms, launches (\d+); "
    r"finisher worker \d+(?: at depth \d+)?: (\d+) nodes, (\d+) table cutoffs, (\d+) ETC; "
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


def split_searches(lines):
    """The iteration lines of each search, in order: a new search at each `search new` line, or,
    in a trace without them, at an iteration shallower than the one before."""
    marked = any(line.startswith("search new") for line in lines)
    searches, current, last_depth = [], None, None
    for line in lines:
        if marked and line.startswith("search new"):
            current = []
            searches.append(current)
            continue
        m = ITERATION.search(line)
        if not m:
            continue
        depth = int(m.group("depth"))
        if current is None or (not marked and last_depth is not None and depth < last_depth):
            current = []
            searches.append(current)
        current.append((depth, float(m.group(2))))
        last_depth = depth
    return [s for s in searches if s]


def search_costs(searches, below=3):
    """Means over searches of: iterations a depth, the last depth, the finished iterations' ms,
    and the ms of those `below` or more depths under the search's last and of re-searches (an
    iteration at a depth already finished in that search)."""
    if not searches:
        return None
    rows = []
    for its in searches:
        last = max(d for d, _ in its)
        seen, again = set(), 0.0
        for d, ms in its:
            if d in seen:
                again += ms
            seen.add(d)
        rows.append((len(its) / len(seen), last, sum(ms for _, ms in its),
                     sum(ms for d, ms in its if d <= last - below), again))
    n = len(rows)
    mean = [sum(r[i] for r in rows) / n for i in range(5)]
    return {"searches": n, "per_depth": mean[0], "last_depth": mean[1], "ms": mean[2],
            "shallow_ms": mean[3], "again_ms": mean[4]}


def describe_searches(name, c):
    def share(x):
        return 100 * x / c["ms"] if c["ms"] > 0 else 0.0

    return (f"{name}: {c['searches']} searches: {c['per_depth']:.2f} iterations a depth, last depth "
            f"{c['last_depth']:.1f}, {c['ms']:.1f} ms of finished iterations, of it "
            f"{c['shallow_ms']:.1f} ms ({share(c['shallow_ms']):.0f}%) three or more depths below "
            f"the last and {c['again_ms']:.1f} ms ({share(c['again_ms']):.0f}%) in re-searches")


def describe(name, s):
    return (
        f"{name}: {s['iterations']} iterations, {s['workers']} workers, {s['ms']:.0f} ms, "
        f"{s['launches']} launches; all workers {s['nodes']:,} nodes, {100 * s['table_share']:.1f}% "
        f"on the table, {s['etc']:,} ETC; finishers {s['finisher_nodes']:,} nodes, "
        f"{s['finisher_rate'] / 1e3:.1f} K nodes/s, {100 * s['finisher_table_share']:.1f}% on the table"
    )


def main(args):
    split = "--by-depth" in args
    per_search = "--searches" in args
    paths = [a for a in args if a not in ("--by-depth", "--searches")]
    if not paths:
        print("usage: python3 bench/gpu-search-walks.py [--by-depth] [--searches] TRACE.err [...]",
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
        if per_search:
            print("  " + describe_searches("by search", search_costs(split_searches(lines))))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
