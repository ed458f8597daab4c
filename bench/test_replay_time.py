"""Tests of bench/replay-time.py, two fixed-depth replays compared search by search (run by CI)."""

import importlib.util
import io
import json
import os
import tempfile
import unittest
from contextlib import redirect_stdout

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("replay_time", os.path.join(_here, "replay-time.py"))
replay = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(replay)


def search(fullmove, halfmove, seconds, nodes=1000, side="w", after_pv=None):
    return {"engine": "e", "game": 0, "fullmove": fullmove, "nodes": nodes, "seconds": seconds,
            "fen": f"8/8/8/4k3/8/8/4P3/4K3 {side} - - {halfmove} {fullmove}", "after_pv": after_pv}


def run_main(first, second):
    """replay-time.py's main on two runs written to files: its status and what it printed."""
    out = io.StringIO()
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name, run in (("a", first), ("b", second)):
            paths.append(os.path.join(tmp, name + ".json"))
            with open(paths[-1], "w") as f:
                json.dump(run, f)
        with redirect_stdout(out):
            status = replay.main(["replay-time.py", *paths])
    return status, out.getvalue()


class ReplayTimeTest(unittest.TestCase):
    def test_the_first_search_is_left_out_and_searches_pair_by_move_and_side(self):
        first = [search(40, 0, 9.0), search(41, 5, 1.0), search(41, 6, 1.0, side="b")]
        second = [search(40, 0, 1.0), search(41, 6, 2.0, side="b"), search(41, 5, 0.5)]
        pairs = replay.pair(first, second)
        self.assertEqual(len(pairs), 2)
        for a, b in pairs:
            self.assertEqual(a["fen"], b["fen"])

    def test_the_change_by_band_of_the_fifty_move_count(self):
        first = [search(40, 0, 5.0)] + [search(40 + i, h, 1.0) for i, h in enumerate([2, 3, 40, 50], 1)]
        second = [search(40, 0, 5.0)] + [search(40 + i, h, t) for i, (h, t) in
                                         enumerate([(2, 1.0), (3, 1.0), (40, 0.5), (50, 0.5)], 1)]
        status, text = run_main(first, second)
        self.assertEqual(status, 0)
        self.assertIn("nodes differ in 0 (the same trees)", text)
        lines = {line.split("  ")[0].strip(): line for line in text.splitlines()}
        self.assertIn("-25.0%", lines["all"])
        self.assertIn("+0.0%", lines["fifty-move count 0-9"])
        self.assertIn("-50.0%", lines["fifty-move count 30-100"])

    def test_the_change_on_and_off_the_first_runs_expected_line(self):
        # The second run's own after_pv does not count: the first run's does.
        first = [search(40, 0, 5.0), search(41, 0, 1.0, after_pv=True), search(42, 0, 1.0, after_pv=False),
                 search(43, 0, 1.0, after_pv=False), search(44, 0, 1.0)]
        second = [search(40, 0, 5.0), search(41, 0, 0.25, after_pv=False), search(42, 0, 0.5),
                  search(43, 0, 0.5, after_pv=True), search(44, 0, 1.0)]
        _, text = run_main(first, second)
        lines = {line.split("  ")[0].strip(): line for line in text.splitlines()}
        self.assertIn("-75.0%", lines["on the expected line"])
        self.assertIn("-50.0%", lines["off it"])
        self.assertTrue(lines["off it"].split()[2] == "2")
        # A search without after_pv is in neither row.
        self.assertEqual(sum(1 for k in lines if k in ("on the expected line", "off it")), 2)

    def test_different_trees_are_said(self):
        first = [search(40, 0, 1.0), search(41, 0, 1.0, nodes=10)]
        second = [search(40, 0, 1.0), search(41, 0, 1.0, nodes=11)]
        _, text = run_main(first, second)
        self.assertIn("nodes differ in 1 (the trees are not the same", text)


if __name__ == "__main__":
    unittest.main()
