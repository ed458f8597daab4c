"""Tests of bench/move-quality.py, engines' moves on the same positions judged and compared
(run by scripts/test.sh). A table stands in for the judge engine."""

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

_here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _here)  # the script imports bench/uci_specs.py, found beside it
_spec = importlib.util.spec_from_file_location("move_quality", os.path.join(_here, "move-quality.py"))
quality = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(quality)

# Three positions (the FENs need not be real for the statistics), each with the judge's values of
# its moves; the first move listed is the judge's best.
VALUES = {
    "p1": {"e2e4": 30, "d2d4": 25, "a2a3": -40},
    "p2": {"g1f3": 10, "h2h4": -90},
    "won": {"d1h5": 2000, "a2a3": 900},  # valued beyond DECIDED: left out
}


class TableJudge:
    def __init__(self):
        self.asked = []

    def __call__(self, fen, move):
        self.asked.append((fen, move))
        values = VALUES[fen]
        best = next(iter(values))
        return (values[best], best) if move is None else (values[move], None)


def record(engine, game, fen, move, fullmove=10):
    return {"engine": engine, "game": game, "fullmove": fullmove, "pieces": 20, "depth": 10,
            "nodes": 1000, "seconds": 0.1, "fen": fen, "move": move}


def judged(engines):
    judgements = quality.Judgements(TableJudge())
    quality.judge_all(engines, judgements, jobs=2)
    return judgements


class MoveQualityTest(unittest.TestCase):
    def test_engines_from_several_files(self):
        a = [record("gpu", 0, "p1", "e2e4"), record("cpu", 0, "p1", "d2d4"),
             record("gpu", 0, "p2", None)]  # no move: not judged
        b = [record("gpu", 0, "p1", "a2a3")]
        engines = quality.runs_by_engine([("x/base.json", a), ("y/new.json", b)])
        self.assertEqual(list(engines), ["gpu", "cpu", "new:gpu"])
        self.assertEqual(list(engines["gpu"]), [(0, "p1")])
        self.assertEqual(engines["new:gpu"][(0, "p1")]["move"], "a2a3")

    def test_each_position_and_move_judged_once(self):
        judge = TableJudge()
        judgements = quality.Judgements(judge)
        judgements.judge_position("p1", {"e2e4", "a2a3"})
        judgements.judge_position("p1", {"a2a3", "d2d4"})
        # The best value once; the judge's own best move not searched again; the rest once each.
        self.assertEqual(sorted(judge.asked, key=str),
                         sorted([("p1", None), ("p1", "a2a3"), ("p1", "d2d4")], key=str))
        self.assertEqual(judgements.loss("p1", "e2e4"), 0)
        self.assertEqual(judgements.loss("p1", "a2a3"), 70)
        self.assertEqual(judgements.loss("p1", "d2d4"), 5)
        # The values kept serve another run without the judge.
        again = quality.Judgements(None, json.loads(json.dumps(judgements.values)))
        again.judge_position("p1", {"a2a3"})
        self.assertEqual(again.loss("p1", "a2a3"), 70)

    def test_values_capped_and_decided_positions_left_out(self):
        engines = {"e": {(0, "won"): record("e", 0, "won", "a2a3"),
                         (0, "p2"): record("e", 0, "p2", "h2h4", fullmove=45)}}
        judgements = judged(engines)
        self.assertEqual(judgements.best("won"), quality.CAP)
        self.assertTrue(judgements.decided("won"))
        rows = quality.losses(engines["e"], judgements)
        self.assertEqual([(r["part"], r["moves"]) for r in rows], [("all", 1), ("moves 41 on", 1)])
        self.assertEqual((rows[0]["mean_loss"], rows[0]["over_50"], rows[0]["over_100"]), (100, 1, 1))

    def test_paired_gain_is_nothing_where_the_moves_agree(self):
        base = {(0, "p1"): record("a", 0, "p1", "e2e4"), (0, "p2"): record("a", 0, "p2", "h2h4"),
                (1, "p1"): record("a", 1, "p1", "d2d4")}
        other = {(0, "p1"): record("b", 0, "p1", "e2e4"), (0, "p2"): record("b", 0, "p2", "g1f3"),
                 (1, "p1"): record("b", 1, "p1", "a2a3"),
                 (2, "p1"): record("b", 2, "p1", "a2a3")}  # base did not search it
        judgements = judged({"a": base, "b": other})
        p = quality.paired(base, other, judgements)
        self.assertEqual((p["positions"], p["differ"], p["better"], p["worse"]), (3, 2, 1, 1))
        self.assertAlmostEqual(p["mean_gain"], (0 + 100 - 65) / 3)
        self.assertGreater(p["half_width"], 0)
        self.assertEqual(quality.paired(base, {}, judgements)["positions"], 0)

    def test_files_without_moves_are_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "old.json")
            with open(path, "w") as f:
                json.dump([{"engine": "a", "game": 0, "fullmove": 1, "pieces": 32, "depth": 5,
                            "nodes": 10, "seconds": 0.1}], f)
            run = subprocess.run([sys.executable, os.path.join(_here, "move-quality.py"), path,
                                  "--judge", "no-such-judge"],
                                 capture_output=True, text=True, timeout=60)
            self.assertEqual(run.returncode, 1)
            self.assertIn("no searches with a position and a move", run.stderr)


class JudgeFailureTest(unittest.TestCase):
    def test_a_judge_that_cannot_start_is_reported(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "run.json")
            with open(path, "w") as f:
                json.dump([record("a", 0, "8/8/8/8/8/4k3/8/4K3 w - - 0 1", "e1d1")], f)
            run = subprocess.run([sys.executable, os.path.join(_here, "move-quality.py"), path,
                                  "--judge", os.path.join(tmp, "no-such-judge"), "--jobs", "1"],
                                 capture_output=True, text=True, timeout=60)
            self.assertEqual(run.returncode, 1, run.stderr)
            self.assertIn("the judge failed", run.stderr)
            self.assertNotIn("Traceback", run.stderr)


if __name__ == "__main__":
    unittest.main()
