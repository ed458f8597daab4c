"""Tests of bench/span-bound.py, benchsmp's times against the tree's span (run by CI)."""

import importlib.util
import io
import os
import tempfile
import unittest
from contextlib import redirect_stdout

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("span_bound", os.path.join(_here, "span-bound.py"))
span_bound = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(span_bound)

SPAN = """\
===========================
Nodes searched  : 1100
1100 nodes 1000 nps
Young Brothers Wait, nodes split from depth 2, any number of split points open a worker, unlimited workers:
 depth          nodes         span  nodes/span  qs nodes  qs span ply 1 span  span chains
     1            100          100         1.0     90.0%    90.0%       3.0%            0
     2           1000          100        10.0     40.0%    60.0%      15.0%            8
   all           1100          200         5.5     45.0%    75.0%       9.0%            8
"""

SMP = """\
NVIDIA H200 (cuda), depth 2, 8 position(s), mode abdada-rmo, finisher clean
 workers          nodes     time s        nodes/s  nps speedup  ttd speedup  runs    min s    max s
       1           1000     10.000            100         1.00         1.00     1   10.000   10.000
     264           5000      4.000           1250        12.50         2.50     3    3.000    5.000
NVIDIA H200 (cuda), depth 2, 8 position(s), mode ybwc, finisher clean
 workers          nodes     time s        nodes/s  nps speedup  ttd speedup  runs    min s    max s
     132           1200      5.000            240         1.00         1.00     2    4.000    6.000
"""


class SpanBoundTest(unittest.TestCase):
    def test_the_span_table_gives_its_deepest_iteration_and_totals(self):
        self.assertEqual(span_bound.parse_span(SPAN.splitlines()), (2, 1100, 200))
        self.assertIsNone(span_bound.parse_span(["1100 nodes 1000 nps"]))

    def test_benchsmp_rows_carry_their_header(self):
        rows = span_bound.parse_benchsmp(SMP.splitlines())
        self.assertEqual([(r["mode"], r["workers"]) for r in rows],
                         [("abdada-rmo", 1), ("abdada-rmo", 264), ("ybwc", 132)])
        self.assertEqual(rows[1]["time"], 4.0)
        self.assertEqual(rows[2]["depth"], 2)

    def test_times_are_set_against_the_floor_and_the_bound(self):
        rows = span_bound.parse_benchsmp(SMP.splitlines())
        lines = span_bound.table([(2, 1100, 200)], rows)
        # One worker: 10 s for 1,000 nodes, so the 200-node span takes 2 s; bound 5.5.
        self.assertIn("nodes/span 5.5, span floor 2.000 s at 0.1 K nodes/s", lines[0])
        row = next(line.split() for line in lines if line.split()[:2] == ["abdada-rmo", "264"])
        self.assertEqual(row[2:], ["4.000", "2.00", "2.5", "0.45"])
        # No one-worker row of its own mode: the speedup is over the other mode's one worker.
        row = next(line.split() for line in lines if line.split()[:2] == ["ybwc", "132"])
        self.assertEqual(row[2:], ["5.000", "2.50", "2.0", "0.36"])

    def test_main_refuses_an_output_without_a_span_table(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "plain.txt")
            with open(path, "w") as f:
                f.write("1100 nodes 1000 nps\n")
            out = io.StringIO()
            with redirect_stdout(out):
                self.assertEqual(span_bound.main(["--span", path]), 2)


if __name__ == "__main__":
    unittest.main()
