#!/usr/bin/env python3
"""Plots `kogge benchsmp --json` rows (from bench/gpu-search.sh): nodes-per-second speedup and
time-to-depth speedup against workers, log-log, one line per file. Needs matplotlib.

Usage: python3 bench/plot-benchsmp.py OUT.png FILE.jsonl [FILE.jsonl ...]
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out, files = sys.argv[1], sys.argv[2:]
    fig, (nps_ax, ttd_ax) = plt.subplots(1, 2, figsize=(11, 4.5))
    for path in files:
        rows = [json.loads(line) for line in open(path) if line.strip()]
        label = os.path.splitext(os.path.basename(path))[0]
        workers = [r["workers"] for r in rows]
        nps_ax.plot(workers, [r["nps_speedup"] for r in rows], marker="o", label=label)
        ttd_ax.plot(workers, [r["ttd_speedup"] for r in rows], marker="o", label=label)
    for ax, title in ((nps_ax, "nodes/s speedup"), (ttd_ax, "time-to-depth speedup")):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=2)
        ax.set_xlabel("workers (one warp each)")
        ax.set_title(title + " over one worker")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
