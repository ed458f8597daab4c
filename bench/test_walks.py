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

    def test_a_finisher_searching_ahead_of_the_iteration_counts_for_it(self):
        # A helper of DEEPER_HELPERS ended the iteration at its own, deeper depth.
        ahead = iteration(9, 20.0, 1500, 0, 200000, 0).replace("worker 7:", "worker 7 at depth 11:")
        s = walks.summarize([ahead])
        self.assertEqual(s["iterations"], 1)
        self.assertEqual(s["finisher_nodes"], 1500)

    def test_the_rule_of_a_closing_search_is_read_past(self):
        # Under `GPU Finisher closing` each line ends with the rule that ended the iteration.
        lines = [iteration(9, 10.0, 1000, 0, 100000, 0) + "; rule any",
                 iteration(10, 30.0, 2000, 0, 300000, 0) + "; rule checked"]
        self.assertEqual(walks.summarize(lines)["iterations"], 2)

    def test_a_trace_without_iterations_gives_nothing(self):
        self.assertIsNone(walks.summarize(["search done", ""]))
        self.assertEqual(walks.by_depth([]), {})

    def test_searches_split_at_their_marks_or_where_the_depth_falls(self):
        marked = ["search new", iteration(1, 1.0, 5, 0, 50, 0), iteration(2, 2.0, 5, 0, 50, 0),
                  "search new", iteration(2, 4.0, 5, 0, 50, 0), iteration(3, 8.0, 5, 0, 50, 0),
                  "search new"]
        # Started at its table entry's depth, the second search's first depth is no lower.
        self.assertEqual(walks.split_searches(marked), [[(1, 1.0), (2, 2.0)], [(2, 4.0), (3, 8.0)]])
        unmarked = [line for line in marked if line != "search new"]
        self.assertEqual(walks.split_searches(unmarked), [[(1, 1.0), (2, 2.0), (2, 4.0), (3, 8.0)]])
        self.assertEqual(len(walks.split_searches(TRACE + TRACE)), 2)

    def test_where_a_search_spent_its_time(self):
        # Depths 1 to 5, depth 4 searched twice (an aspiration re-search).
        search = [(1, 1.0), (2, 1.0), (3, 2.0), (4, 3.0), (4, 3.0), (5, 10.0)]
        c = walks.search_costs([search, [(7, 4.0)]])
        self.assertEqual(c["searches"], 2)
        self.assertAlmostEqual(c["per_depth"], (6 / 5 + 1) / 2)
        self.assertAlmostEqual(c["last_depth"], 6.0)
        self.assertAlmostEqual(c["ms"], (20.0 + 4.0) / 2)
        self.assertAlmostEqual(c["shallow_ms"], 2.0 / 2)  # depths 1 and 2, three or more below 5
        self.assertAlmostEqual(c["again_ms"], 3.0 / 2)
        self.assertIsNone(walks.search_costs([]))
        self.assertIn("2 searches: 1.10 iterations a depth", walks.describe_searches("x", c))


if __name__ == "__main__":
    unittest.main()
