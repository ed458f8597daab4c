#!/usr/bin/env python3
"""The GPU search's time to depth against the tree's span: how close a parallel search comes to
what Young Brothers Wait could do with unlimited workers, and the speedup bound that gives.

    kogge bench 17 --count 8 --span > span-d17.txt            # the CPU's tree, one thread
    kogge benchsmp --backend cuda --depth 17 --workers 1,264 --positions bench --count 8 > smp.txt
    python3 bench/span-bound.py --span span-d17.txt smp.txt [more benchsmp outputs]

`kogge bench --span` prints, summed over the positions, every iteration's nodes and span (the
critical path of a search that splits a node only once its first move is searched, with as many
workers as it likes; crates/search-cpu/src/span.rs) and an `all` row. Nodes over span is then
the most a search that does not speculate can gain over one worker: it must walk the span one
node after another. A benchsmp row's time over the *span floor* (the span walked at one worker's
time a node, taken from the benchsmp rows with one worker: their time over their nodes) says
how close the GPU search comes; its speedup over one worker (where the output has a one-worker
row at that depth) is set beside the bound.

The span is the CPU search's tree's, whose rules are the GPU's (the steps of pvs.rs are
search.cl's), from a 16 MiB table; the GPU's one-worker tree to the same depth is somewhat
smaller (256 MiB), so the floor and the bound are estimates of the GPU's own, not its exact
figures.
"""

import argparse
import re
import sys

SPAN_ROW = re.compile(r"^\s*(\d+|all)\s+(\d+)\s+(\d+)\s+[\d.]+\s")
SMP_HEAD = re.compile(r"depth (\d+), (\d+) position\(s\), mode (\S+?),")
SMP_ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+([\d.]+)\s+(\d+)\s")


def parse_span(lines):
    """The deepest iteration and the `all` row's nodes and span of a `kogge bench --span`
    output: (depth, nodes, span), or None where there is no table."""
    depth, total = 0, None
    for line in lines:
        m = SPAN_ROW.match(line)
        if not m:
            continue
        if m.group(1) == "all":
            total = (int(m.group(2)), int(m.group(3)))
        else:
            depth = max(depth, int(m.group(1)))
    if total is None or depth == 0:
        return None
    return depth, total[0], total[1]


def parse_benchsmp(lines):
    """The rows of `kogge benchsmp` outputs: dicts of depth, positions, mode, workers, nodes and
    time (seconds, the runs' mean)."""
    rows, head = [], None
    for line in lines:
        h = SMP_HEAD.search(line)
        if h:
            head = (int(h.group(1)), int(h.group(2)), h.group(3))
            continue
        m = SMP_ROW.match(line)
        if m and head:
            rows.append({"depth": head[0], "positions": head[1], "mode": head[2],
                         "workers": int(m.group(1)), "nodes": int(m.group(2)),
                         "time": float(m.group(3))})
    return rows


def node_time(rows):
    """One worker's seconds a node over every one-worker row, or None."""
    ones = [r for r in rows if r["workers"] == 1]
    nodes = sum(r["nodes"] for r in ones)
    return sum(r["time"] for r in ones) / nodes if nodes else None


def table(spans, rows, seconds_a_node=None):
    """Lines of the comparison: one per benchsmp row at a depth a span was measured to."""
    per_node = seconds_a_node or node_time(rows)
    out = []
    for depth, nodes, span in sorted(spans):
        bound = nodes / span
        floor = span * per_node if per_node else None
        head = f"depth {depth}: span {span} nodes, nodes/span {bound:.1f}"
        if floor is not None:
            head += f", span floor {floor:.3f} s at {1 / per_node / 1000:.1f} K nodes/s"
        out.append(head)
        out.append(f"  {'mode':<12} {'workers':>7} {'time s':>9} {'/ floor':>8} {'ttd x':>7} "
                   f"{'/ bound':>8}")
        ones = [r for r in rows if r["depth"] == depth and r["workers"] == 1]
        for r in sorted((r for r in rows if r["depth"] == depth),
                        key=lambda r: (r["mode"], r["workers"])):
            over_floor = f"{r['time'] / floor:.2f}" if floor else "-"
            # Over the same mode's one worker where there is one, else any mode's.
            one = next((o for o in ones if o["mode"] == r["mode"]), ones[0] if ones else None)
            if one:
                ttd = one["time"] / r["time"]
                ttd_text, of_bound = f"{ttd:.1f}", f"{ttd / bound:.2f}"
            else:
                ttd_text, of_bound = "-", "-"
            out.append(f"  {r['mode']:<12} {r['workers']:>7} {r['time']:>9.3f} {over_floor:>8} "
                       f"{ttd_text:>7} {of_bound:>8}")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--span", action="append", required=True,
                    help="a `kogge bench D --count N --span` output (repeatable)")
    ap.add_argument("--seconds-a-node", type=float,
                    help="one worker's time a node, where no benchsmp row has one worker")
    ap.add_argument("benchsmp", nargs="*", help="`kogge benchsmp` outputs")
    args = ap.parse_args(argv)
    spans = []
    for path in args.span:
        with open(path) as f:
            parsed = parse_span(f)
        if parsed is None:
            print(f"{path}: no span table (run kogge bench with --span)", file=sys.stderr)
            return 2
        spans.append(parsed)
    rows = []
    for path in args.benchsmp:
        with open(path) as f:
            rows += parse_benchsmp(f)
    for line in table(spans, rows, args.seconds_a_node):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
