"""Tests of bench/gpu-closing-probe.py, how often `GPU Finisher closing` had checked end a
search's last iteration (run by scripts/test.sh)."""

import importlib.util
import os
import sys
import unittest

_here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _here)  # the script imports bench/uci_specs.py
_spec = importlib.util.spec_from_file_location("closing_probe", os.path.join(_here, "gpu-closing-probe.py"))
probe = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(probe)


def iteration(depth, ms, rule=None):
    """A trace line as crates/search-gpu/src/driver.rs writes it under KOGGE_SEARCH_TRACE=1."""
    line = (f"iteration depth {depth} window -32001..32001: {ms} ms, launches 2; finisher worker 7: "
            f"10 nodes, 1 table cutoffs, 0 ETC; all 8 workers: 80 nodes, 4 table cutoffs, 0 ETC")
    return line + (f"; rule {rule}" if rule else "")


class ClosingProbeTest(unittest.TestCase):
    def test_the_last_iteration_and_the_time_of_each_rule(self):
        trace = "\n".join([
            "search new", iteration(5, 2.0),  # the warm-up, under `any` without a rule: left out
            "search new", iteration(9, 1.5, "any"), iteration(10, 40.0, "checked"),
            "search new", iteration(9, 3.0, "any"), iteration(10, 50.0, "any"),
            "agreement depth 10 finisher 3 best e2e4 score 10",
            "search new", iteration(8, 4.0, "checked"), iteration(8, 5.5, "checked"),
        ])
        s = probe.summarize(trace)
        self.assertEqual((s["searches"], s["ended_checked"]), (3, 2))
        self.assertAlmostEqual(s["ms"]["checked"], 49.5)
        self.assertAlmostEqual(s["ms"]["any"], 54.5)
        # The last two searches only: a warm-up of the engine's own under `closing` left out.
        s = probe.summarize(trace, last=2)
        self.assertEqual((s["searches"], s["ended_checked"]), (2, 1))
        self.assertAlmostEqual(s["ms"]["any"], 53.0)

    def test_a_trace_without_rules_has_no_searches(self):
        self.assertEqual(probe.summarize("search new\n" + iteration(5, 2.0))["searches"], 0)


if __name__ == "__main__":
    unittest.main()
