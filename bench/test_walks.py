"""Tests of bench/gpu-search-walks.py, the sums over a search trace's iterations (run by
scripts/test.sh)."""

import importlib.util
import os
import unittest

_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpu-search-walks.py")
_spec = importlib.util.spec_from_file_location("gpu_search_walks", _path)
walks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(walks)


def iteration(depth, ms, finisher_nodes, finisher_table, nodes, table, workers=264, launches=2):
    """A trace line as crates/search-gpu/src/driver.rs writes it under KOGGE_SEARCH_TRACE=1."""
    return (f"iteration depth {depth} window -32001..32001: {ms} ms, launches {launches}; "
            f"finisher worker 7: {finisher_nodes} nodes, {finisher_table} table cutoffs, 3 ETC; "
            f"all {workers} workers: {nodes} nodes, {table} table cutoffs, 11 ETC")


TRACE = [
    iteration(8, 10.0, 1000, 500, 100000, 40000),
    "agreement depth 8 finisher 7 best e2e4 score 30; other lines are skipped",
    iteration(9, 30.0, 2000, 500, 300000, 60000),
    iteration(9, 10.0, 1000, 0, 100000, 0),  # an aspiration re-search of the same depth
]


class WalksTest(unittest.TestCase):
    def test_the_sums_over_every_iteration(self):
        s = walks.summarize(TRACE)
        self.assertEqual(s["iterations"], 3)
        self.assertEqual(s["workers"], 264)
        self.assertEqual(s["launches"], 6)
        self.assertEqual(s["nodes"], 500000)
        self.assertAlmostEqual(s["table_share"], 0.2)
        self.assertEqual(s["etc"], 33)
        self.assertEqual(s["finisher_nodes"], 4000)
        self.assertAlmostEqual(s["finisher_rate"], 4000 / 0.050)  # nodes a second over 50 ms
        self.assertAlmostEqual(s["finisher_table_share"], 0.25)

    def test_by_depth_groups_re_searches_with_their_depth(self):
        d = walks.by_depth(TRACE)
        self.assertEqual(list(d), [8, 9])
        self.assertEqual(d[8]["finisher_nodes"], 1000)
        self.assertAlmostEqual(d[8]["finisher_rate"], 100000.0)
        self.assertEqual(d[9]["iterations"], 2)
        self.assertAlmostEqual(d[9]["finisher_rate"], 3000 / 0.040)

    def test_a_trace_without_iterations_gives_nothing(self):
        self.assertIsNone(walks.summarize(["search done", ""]))
        self.assertEqual(walks.by_depth([]), {})


if __name__ == "__main__":
    unittest.main()
