"""Tests of bench/gpu-search-cycles.py, the cycle counters' table (run by scripts/test.sh)."""

import importlib.util
import os
import unittest

_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpu-search-cycles.py")
_spec = importlib.util.spec_from_file_location("gpu_search_cycles", _path)
cycles = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cycles)


def iteration(nodes):
    """A trace line as crates/search-gpu/src/driver.rs writes it under KOGGE_SEARCH_TRACE=1."""
    return (f"iteration depth 3 window -32001..32001: 1.0 ms, launches 1; finisher worker 0: 10 nodes, "
            f"0 table cutoffs, 0 ETC; all 1 workers: {nodes} nodes, 0 table cutoffs, 0 ETC\n")


TRACE = [
    iteration(100),
    "cycles (part, cycles, turns): need-sync 1000 10; state-next 3000 10\n",
    iteration(300),
    "agreement depth 3 finisher 0 best e2e4 score 30; other lines are skipped\n",
    "cycles (part, cycles, turns): need-sync 4000 40; need-gen 0 0; state-next 12000 40\n",
]


class CyclesTest(unittest.TestCase):
    def test_the_last_cycle_line_over_every_iterations_nodes(self):
        parts, nodes = cycles.parse(TRACE)
        self.assertEqual(nodes, 400)
        self.assertEqual(parts, [("need-sync", 4000, 40), ("need-gen", 0, 0), ("state-next", 12000, 40)])
        rows, per_node = cycles.table(parts, nodes)
        self.assertEqual(per_node, 40.0)
        # Largest share first; a part that never turned is left out.
        self.assertEqual([r[0] for r in rows], ["state-next", "need-sync"])
        self.assertEqual(rows[0], ("state-next", 40, 300.0, 30.0, 0.75))

    def test_two_runs_compared_part_by_part(self):
        base = ([("need-sync", 4000, 40), ("state-next", 12000, 40)], 400)
        new = ([("need-sync", 4000, 40), ("state-next", 6000, 40), ("need-gen", 800, 4)], 200)
        rows, total = cycles.compare(base, new)
        # Per node: sync 10 -> 20, next 30 -> 30, gen 0 -> 4; the largest change first.
        self.assertEqual(rows, [("need-sync", 10.0, 20.0, 10.0), ("need-gen", 0.0, 4.0, 4.0), ("state-next", 30.0, 30.0, 0.0)])
        self.assertEqual(total, ("all", 40.0, 54.0, 14.0))

    def test_entered_nodes_are_the_entries_turns(self):
        parts = [("need-sync", 900, 9), ("state-enter", 700, 6), ("state-enter-qs", 300, 3), ("state-next", 5000, 8)]
        self.assertEqual(cycles.entered(parts), 9)
        rows, per_node = cycles.table(parts, cycles.entered(parts))
        self.assertEqual(per_node, 6900 / 9)

    def test_no_cycle_line(self):
        self.assertEqual(cycles.parse([iteration(5)]), (None, 5))


if __name__ == "__main__":
    unittest.main()
