"""Tests of bench/helper-ahead.py, a timed replay's searches split by who ended their last
completed iteration (run by CI)."""

import importlib.util
import io
import json
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stdout
from unittest import mock

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("helper_ahead", os.path.join(_here, "helper-ahead.py"))
ahead = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ahead)


def iteration(depth, worker, at=None):
    where = f" at depth {at}" if at is not None else ""
    return (f"iteration depth {depth} window -30..10: 1.0 ms, launches 1; finisher worker {worker}{where}: "
            f"100 nodes, 1 table cutoffs, 0 ETC; all 8 workers: 300 nodes, 3 table cutoffs, 0 ETC")


# A warm-up, then three searches: the first's last iteration ended by a helper ahead at depth 12,
# the second's by worker 0 after a jump, the third stopped before completing any.
TRACE = [
    "search new", iteration(1, 0),
    "search new", iteration(9, 0), iteration(10, 4, at=12), "stopped depth 13; worker 0 none",
    "agreement depth 10 finisher 4 best e2e4 score 10",
    "search new", iteration(9, 8, at=10), iteration(11, 0), "stopped depth 12; worker 0 none",
    "search new", "stopped depth 5; worker 0 none",
]
RECORDS = [{"engine": "gpu", "depth": 12, "move": "e2e4"}, {"engine": "gpu", "depth": 11, "move": "d2d4"},
           {"engine": "gpu", "depth": None, "move": "g1f3"}]


class HelperAheadTest(unittest.TestCase):
    def test_iterations_read_from_the_trace(self):
        searches = ahead.searches_of(TRACE)
        self.assertEqual(len(searches), 4)
        self.assertEqual(searches[1], [(9, 0, None), (10, 4, 12)])
        self.assertEqual(searches[3], [])

    def test_the_last_searches_are_the_records(self):
        labelled = ahead.label(RECORDS, ahead.searches_of(TRACE))
        self.assertEqual([(r["ahead"], r["jumps"]) for r in labelled], [(True, 1), (False, 1), (None, 0)])
        self.assertEqual(labelled[0]["move"], "e2e4")
        with self.assertRaises(ValueError):
            ahead.label(RECORDS * 2, ahead.searches_of(TRACE))

    def test_summary_and_split_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            paths = {name: os.path.join(tmp, name) for name in ("r.json", "t.stderr")}
            with open(paths["r.json"], "w") as f:
                json.dump(RECORDS, f)
            with open(paths["t.stderr"], "w") as f:
                f.write("\n".join(TRACE) + "\n")
            out = io.StringIO()
            argv = ["helper-ahead.py", paths["r.json"], paths["t.stderr"], "--split", os.path.join(tmp, "p")]
            with mock.patch.object(sys, "argv", argv), redirect_stdout(out):
                self.assertEqual(ahead.main(), 0)
            text = out.getvalue()
            self.assertIn("3 searches, 2 with a completed iteration", text)
            self.assertIn("ended by a helper ahead in 1 (50.0%); 2 such iterations", text)
            self.assertIn("ahead: 1 searches, mean reported depth 12.00", text)
            with open(os.path.join(tmp, "p-ahead.json")) as f:
                self.assertEqual([r["move"] for r in json.load(f)], ["e2e4"])
            with open(os.path.join(tmp, "p-own.json")) as f:
                self.assertEqual([r["move"] for r in json.load(f)], ["d2d4"])


if __name__ == "__main__":
    unittest.main()
