"""Tests of bench/gpu-finishers.py, how many workers finish a GPU search's iteration together
(run by scripts/test.sh)."""

import importlib.util
import os
import unittest

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("finishers", os.path.join(_here, "gpu-finishers.py"))
finishers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(finishers)


def agreement(depth, worker, groups):
    """An `agreement` line as crates/search-gpu/src/driver/diagnostics.rs writes it."""
    return (f"agreement depth {depth} finisher {worker} best e2e4 score 10; "
            f"worker 0's first move launch 1 e2e4 12; " + "; ".join(groups))


class FinishersTest(unittest.TestCase):
    def test_finishers_their_agreement_and_the_launches(self):
        trace = [
            agreement(7, 3, ["launch 2: 1/4 same [d2d4 5]"]),  # too shallow: left out
            agreement(8, 3, ["launch 2: 5/5 same []"]),
            agreement(9, 0, ["launch 3: 2/3 same [d2d4 5]"]),
            agreement(10, 4, ["launch 4: 1/2 same [d2d4 5]", "launch 5: 0/2 same [c2c4 0, d2d4 3]"]),
            "iteration depth 10 window -32001..32001: 1.5 ms, launches 5",
        ]
        s = finishers.summarize(trace)
        self.assertEqual(s["iterations"], 3)
        self.assertEqual(s["finishers"], 5 + 3 + 4)
        self.assertEqual(s["all_agree"], 1)
        self.assertEqual(s["not_majority"], 1)  # 1 of 4 in the last
        self.assertEqual(s["launches"], 1)
        self.assertEqual(s["worker_0"], 1)
        self.assertEqual(finishers.summarize(trace, min_depth=7)["iterations"], 4)


if __name__ == "__main__":
    unittest.main()
