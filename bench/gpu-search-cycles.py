#!/usr/bin/env python3
"""Where the GPU search's cycles go, by part of its state machine, from a traced run with the
kernel's cycle counters on (`DIAG_CYCLES`, search_state.h):

    KOGGE_SEARCH_TRACE=1 KOGGE_SEARCH_CYCLES=1 kogge benchsmp --backend cuda --workers 1 \\
        --positions bench --depth 11 --count 4 > one.txt 2>&1
    python3 bench/gpu-search-cycles.py one.txt

The kernel sums, over every worker since the search was opened, the cycles and turns of each
cooperative step (`need-…`: the lanes working together, barriers included) and of each state's
control (`state-…`: the same work on every lane); the trace prints the totals after each
iteration. This takes the last such line and divides by the nodes of every `iteration` line
(all workers' nodes, aspiration re-searches included), and prints each part's turns, cycles a
turn, cycles a node and share of all cycles. With one worker the cycles a node are a node's
latency (PERFORMANCE.md, forty-first session); with many, the sum over the workers.

Two files (a kernel change against its base, the same search) give each part's cycles a node in
both and the change, so that a change's effect shows where it lands:

    python3 bench/gpu-search-cycles.py base.txt new.txt

With `--entered` the divisor is the nodes the counted workers entered (their entries' turns,
`state-enter` and `state-enter-qs`), not every worker's nodes: for a run whose counters are one
worker's alone (`KOGGE_CUDA_OPTIONS=-DDIAG_CYCLES_WORKER=0`, worker 0's walk under `GPU
Finisher=main`, fifty-seventh session). Children settled from their parent's ETC round count as
nodes but are never entered, so this divisor is smaller than the nodes the trace reports for the
same worker.

    python3 bench/gpu-search-cycles.py --entered worker0.txt
"""

import re
import sys

CYCLES = re.compile(r"^cycles \(part, cycles, turns\): (?P<parts>.*)$")
ALL_NODES = re.compile(r"^iteration depth .*; all \d+ workers: (\d+) nodes")


def parse(lines):
    """The last cycle line's parts as (name, cycles, turns), and the nodes of every iteration
    line, summed; None for the parts if there is no cycle line."""
    parts, nodes = None, 0
    for line in lines:
        line = line.rstrip("\n")
        found = CYCLES.match(line)
        if found:
            parts = []
            for item in found.group("parts").split("; "):
                name, cycles, turns = item.split()
                parts.append((name, int(cycles), int(turns)))
            continue
        found = ALL_NODES.match(line)
        if found:
            nodes += int(found.group(1))
    return parts, nodes


def table(parts, nodes):
    """Rows (name, turns, cycles a turn, cycles a node, share) of the parts that turned, largest
    share first, and the total cycles a node."""
    total = sum(c for _, c, _ in parts)
    rows = [
        (name, turns, cycles / turns, cycles / nodes if nodes else 0.0, cycles / total if total else 0.0)
        for name, cycles, turns in parts
        if turns > 0
    ]
    rows.sort(key=lambda r: -r[4])
    return rows, (total / nodes if nodes else 0.0)


def entered(parts):
    """The nodes the counted workers entered: their entries' turns, quiescence's included."""
    return sum(turns for name, _, turns in parts if name in ("state-enter", "state-enter-qs"))


def compare(first, second):
    """Rows (name, cycles a node in the first run, in the second, the change) for every part that
    turned in either, largest change first, and the totals' row."""
    (parts_a, nodes_a), (parts_b, nodes_b) = first, second
    a = {name: cycles / nodes_a for name, cycles, turns in parts_a if turns > 0}
    b = {name: cycles / nodes_b for name, cycles, turns in parts_b if turns > 0}
    rows = [(name, a.get(name, 0.0), b.get(name, 0.0), b.get(name, 0.0) - a.get(name, 0.0)) for name in {**a, **b}]
    rows.sort(key=lambda r: -abs(r[3]))
    total_a, total_b = sum(a.values()), sum(b.values())
    return rows, ("all", total_a, total_b, total_b - total_a)


def read(path):
    """parse() of a file, or None with a message if it has no cycle line."""
    with open(path) as f:
        parts, nodes = parse(f)
    if parts is None:
        print(f"{path}: no cycle line (run with KOGGE_SEARCH_TRACE=1 KOGGE_SEARCH_CYCLES=1)", file=sys.stderr)
        return None
    return parts, nodes


def main(argv):
    by_entries = "--entered" in argv[1:]
    paths = [a for a in argv[1:] if a != "--entered"]
    if len(paths) not in (1, 2):
        print(__doc__, file=sys.stderr)
        return 2
    runs = [read(path) for path in paths]
    if None in runs:
        return 1
    what = " entered" if by_entries else ""
    if by_entries:
        runs = [(parts, entered(parts)) for parts, _ in runs]
    if len(runs) == 2:
        rows, total = compare(*runs)
        print(f"{runs[0][1]} and {runs[1][1]} nodes{what}; cycles a node")
        print(f"{'part':<16} {'first':>10} {'second':>10} {'change':>10}")
        for name, x, y, change in [*rows, total]:
            print(f"{name:<16} {x:>10.0f} {y:>10.0f} {change:>+10.0f}")
        return 0
    parts, nodes = runs[0]
    rows, per_node = table(parts, nodes)
    print(f"{nodes} nodes{what}, {per_node:.0f} cycles a node")
    print(f"{'part':<16} {'turns':>10} {'cycles/turn':>12} {'cycles/node':>12} {'share':>7}")
    for name, turns, per_turn, node_share, share in rows:
        print(f"{name:<16} {turns:>10} {per_turn:>12.0f} {node_share:>12.0f} {100 * share:>6.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
