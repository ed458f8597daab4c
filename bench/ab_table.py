#!/usr/bin/env python3
"""The table that ends bench/gpu-search-ab.sh: each variant's time to depth against the first's.

Reads the rows the script wrote, one run a line: `NAME REP JSON`, JSON being `kogge benchsmp
--json`'s last line (workers, nodes, seconds). For every worker count and variant: the runs, the
mean, least and greatest time, the change of the mean against the first variant's, a 95% interval
on that change, the mean nodes and the nodes a second.

The interval pairs the runs by repetition: the script runs the variants interleaved (A B A B ...),
so that a drift of the machine falls on the runs of one repetition alike, and the paired
differences of the log times take it out. Student's t with one less degree of freedom than the
pairs. Four runs of a variant whose times spread by 10% can still tell a 10% change from none,
which the ranges alone (min to max) cannot; with two pairs the interval is wide, and with one
there is none.

With `--pool`, the runs of several calls of the script pooled, each variant's runs from every
file given (their logs, as the device's output keeps them: lines other than rows are skipped, and
a row the script's log cut short is read for its workers, nodes and seconds). Runs of different
calls cannot be paired (each call its own machine and drift), so the interval is Welch's on the
log times, unpaired: wider, and the way to pool a depth-19 comparison whose single runs spread by
1.7 times (seventy-first session). The files must be of one depth and position set.

Rows that give each position's time (`kogge benchsmp --json`'s `position_seconds`, from the
seventy-second session on) get a second table: each variant's geometric mean time a position, and
its change against the first variant as the mean over the positions of each position's change in
log time, every position weighing alike, so that one position whose root move changes from run to
run (the fifth bench position's at depth 19, seventy-first session) weighs no more than another.
At depth 17 every position spreads, and it narrowed a run's spread by 0 to 28% (seventy-second
session). It answers "how much faster on a position", not "how much less time in all", and a
change on one position alone moves it by an eighth. Paired by repetition as above
(one mean log change a repetition), or with `--pool` Welch's interval summed over the positions.
Rows cut short in a log have no positions and are left out of it.

Usage: python3 bench/ab_table.py ROWS NAME [NAME ...]   (the variants' names, the first the base)
       python3 bench/ab_table.py --pool NAME,NAME[,...] FILE [FILE ...]
"""

import json
import math
import re
import statistics
import sys

# Two-sided 95% quantiles of Student's t by degrees of freedom; 1.96 beyond the table.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
       9: 2.262, 10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 30: 2.042}


def t95(df):
    """The quantile for df degrees of freedom (the next smaller tabulated df: conservative)."""
    if df >= 60:
        return 1.96
    return T95[max(d for d in T95 if d <= df)]


def paired_change(base, other):
    """The 95% interval, as fractions (low, high), of other's time over base's, from the runs of
    the repetitions both have ({rep: seconds}); None with fewer than two pairs."""
    reps = sorted(set(base) & set(other))
    if len(reps) < 2:
        return None
    d = [math.log(other[r] / base[r]) for r in reps]
    half = t95(len(d) - 1) * statistics.stdev(d) / math.sqrt(len(d))
    m = statistics.mean(d)
    return math.exp(m - half) - 1, math.exp(m + half) - 1


def welch_logs(strata):
    """Welch's t over strata of unpaired log times, [(base logs, other logs)]: the mean over the
    strata of each one's difference of means, and its 95% interval (the strata's variances summed,
    Welch-Satterthwaite's degrees of freedom), as fractions (change, (low, high)); the interval
    None with fewer than two runs on a side."""
    n = len(strata)
    m = sum(statistics.mean(o) - statistics.mean(b) for b, o in strata) / n
    if min(min(len(b), len(o)) for b, o in strata) < 2:
        return math.exp(m) - 1, None
    terms = [(statistics.variance(side) / len(side) / n ** 2, len(side) - 1)
             for stratum in strata for side in stratum]
    var = sum(v for v, _ in terms)
    if var == 0:
        return math.exp(m) - 1, (math.exp(m) - 1, math.exp(m) - 1)
    df = var ** 2 / sum(v ** 2 / k for v, k in terms)
    half = t95(int(df)) * math.sqrt(var)
    return math.exp(m) - 1, (math.exp(m - half) - 1, math.exp(m + half) - 1)


def welch_change(base, other):
    """The 95% interval, as fractions (low, high), of other's time over base's from their runs
    unpaired ({key: seconds}, the keys ignored): Welch's t on the log times; None with fewer than
    two runs in either."""
    return welch_logs([([math.log(x) for x in base.values()],
                        [math.log(x) for x in other.values()])])[1]


def position_logs(rs):
    """[{key: log seconds}] a position, from the runs ({key: run}) that give their positions'
    times (the others left out); None if none does or their position counts differ."""
    runs = {k: r["position_seconds"] for k, r in rs.items() if r.get("position_seconds")}
    counts = {len(p) for p in runs.values()}
    if len(counts) != 1:
        return None
    return [{k: math.log(max(p[i], 1e-6)) for k, p in runs.items()} for i in range(counts.pop())]


def position_change(base, other, paired):
    """The change of other over base (position_logs each) as the mean over positions of each
    position's change in mean log time: (change, 95% interval or None), as fractions. Paired:
    the repetitions both have, each one mean log change over the positions, Student's t; else
    Welch's interval with the positions' variances summed."""
    n = len(base)
    if paired:
        reps = sorted(set(base[0]) & set(other[0]))
        d = {r: sum(o[r] - b[r] for b, o in zip(base, other)) / n for r in reps}
        if not d:
            return None
        m = statistics.mean(d.values())
        ci = paired_change({r: 1.0 for r in d}, {r: math.exp(v) for r, v in d.items()})
        return math.exp(m) - 1, ci
    return welch_logs([(list(b.values()), list(o.values())) for b, o in zip(base, other)])


def position_table(runs, order, paired=True):
    """The by-position table's lines (none where no variant's runs give positions)."""
    out = []
    for workers in sorted({w for w, _ in runs}):
        base = None
        for name in order:
            if (workers, name) not in runs:
                continue
            logs = position_logs(runs[(workers, name)])
            if base is None and logs is None:
                break  # the first variant is every change's base: without positions, no rows
            if logs is None or (base is not None and len(logs) != len(base)):
                continue
            if not out:
                out.append("each position's geometric mean time (s); the change is the mean of the "
                           "positions' changes in log time")
                out.append(f"{'workers':>8} {'variant':>14} {'runs':>5} "
                           + " ".join(f"{'p' + str(i + 1):>7}" for i in range(len(logs)))
                           + f" {'vs first':>9} {'95% interval':>18}")
            means = " ".join(f"{math.exp(statistics.mean(p.values())):>7.3f}" for p in logs)
            change = interval = ""
            if base is None:
                base = logs
            else:
                found = position_change(base, logs, paired)
                if found is not None:
                    change = f"{100 * found[0]:+.1f}%"
                    if found[1] is not None:
                        interval = f"[{100 * found[1][0]:+.1f}%, {100 * found[1][1]:+.1f}%]"
            out.append(f"{workers:>8} {name:>14} {len(logs[0]):>5} {means} {change:>9} {interval:>18}")
    return out


ROW = re.compile(r"^(\S+) (\d+) (\{.*)$")


def parse_run(js):
    """A row's JSON, or from one cut short its workers, nodes and seconds (None without them)."""
    try:
        return json.loads(js)
    except json.JSONDecodeError:
        run = {}
        for key in ("workers", "nodes", "seconds"):
            m = re.search(rf'"{key}":([0-9.]+)[,}}]', js)
            if not m:
                return None
            run[key] = float(m.group(1)) if key == "seconds" else int(m.group(1))
        return run


def read_logs(texts):
    """{(workers, name): {i: run}} pooled over the texts of several logs of the script, the runs
    of each numbered in the order read (runs of different calls are not pairs)."""
    runs = {}
    for text in texts:
        for line in text.splitlines():
            m = ROW.match(line.strip())
            if not m:
                continue
            run = parse_run(m.group(3))
            if run is not None:
                rs = runs.setdefault((run["workers"], m.group(1)), {})
                rs[len(rs)] = run
    return runs


def read_rows(lines):
    """{(workers, name): {rep: run}} from the script's rows."""
    runs = {}
    for line in lines:
        if not line.strip():
            continue
        name, rep, js = line.split(" ", 2)
        r = json.loads(js)
        runs.setdefault((r["workers"], name), {})[int(rep)] = r
    return runs


def table(runs, order, change=paired_change, label="95% interval"):
    """The table's lines; `change` gives each variant's interval against the first's
    (paired_change, or welch_change for pooled runs)."""
    out = [f"{'workers':>8} {'variant':>14} {'runs':>5} {'mean s':>8} {'min s':>8} {'max s':>8} "
           f"{'vs first':>9} {label:>25} {'mean nodes':>12} {'nodes/s':>12}"]
    for workers in sorted({w for w, _ in runs}):
        base = None
        for name in order:
            rs = runs.get((workers, name))
            if not rs:
                continue
            secs = {rep: r["seconds"] for rep, r in rs.items()}
            mean = statistics.mean(secs.values())
            interval = ""
            if base is None:
                base = (mean, secs)
            else:
                ci = change(base[1], secs)
                if ci is not None:
                    interval = f"[{100 * ci[0]:+.1f}%, {100 * ci[1]:+.1f}%]"
            nodes = statistics.mean(r["nodes"] for r in rs.values())
            nps = sum(r["nodes"] for r in rs.values()) / sum(secs.values())
            out.append(f"{workers:>8} {name:>14} {len(rs):>5} {mean:>8.3f} {min(secs.values()):>8.3f} "
                       f"{max(secs.values()):>8.3f} {100 * (mean / base[0] - 1):>+8.1f}% {interval:>25} "
                       f"{nodes:>12.0f} {nps:>12.0f}")
            if workers == 1 and len({r["nodes"] for r in rs.values()}) > 1:
                out.append(f"{'':>8} {name:>14} one worker gave different node counts: "
                           "the search is not deterministic")
    return out


def main(argv):
    if len(argv) >= 3 and argv[0] == "--pool":
        texts = []
        for path in argv[2:]:
            with open(path) as f:
                texts.append(f.read())
        runs = read_logs(texts)
        order = argv[1].split(",")
        print("\n".join(table(runs, order, welch_change, "95% interval (unpaired)")))
        by_position = position_table(runs, order, paired=False)
        if by_position:
            print()
            print("\n".join(by_position))
        return 0
    if len(argv) < 2 or argv[0] == "--pool":
        print("\n".join(__doc__.strip().splitlines()[-2:]), file=sys.stderr)
        return 2
    with open(argv[0]) as f:
        runs = read_rows(f)
    print()
    print("\n".join(table(runs, argv[1:])))
    by_position = position_table(runs, argv[1:])
    if by_position:
        print()
        print("\n".join(by_position))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
