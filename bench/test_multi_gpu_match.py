"""Tests of bench/multi-gpu-match.py: how the openings and the cores are shared out among the
GPUs, and a whole run on stand-in match scripts (run by scripts/test.sh)."""

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "multi-gpu-match.py")
_spec = importlib.util.spec_from_file_location("multi_gpu_match", _path)
multi = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(multi)


class SlicesTest(unittest.TestCase):
    def test_openings_are_split_evenly_and_contiguously(self):
        self.assertEqual(multi.slices(1, 8, 4), [(1, 2), (3, 4), (5, 6), (7, 8)])
        # Where they do not divide, the first slices take one more.
        self.assertEqual(multi.slices(340, 349, 4), [(340, 342), (343, 345), (346, 347), (348, 349)])
        # Fewer openings than GPUs: one slice an opening, none empty.
        self.assertEqual(multi.slices(5, 6, 4), [(5, 5), (6, 6)])
        self.assertEqual(multi.slices(3, 3, 1), [(3, 3)])

    def test_cores_are_shared_equally(self):
        self.assertEqual(multi.core_slices(list(range(8)), 4), [[0, 1], [2, 3], [4, 5], [6, 7]])
        # What does not divide is left out rather than given to one slice.
        self.assertEqual(multi.core_slices(list(range(7)), 2), [[0, 1, 2], [3, 4, 5]])
        # Fewer cores than slices: every slice shares them all.
        self.assertEqual(multi.core_slices([0], 2), [[0], [0]])


# A stand-in for a match script: what the environment gave it, and a result.json of its own.
FAKE_MATCH = textwrap.dedent(
    """
    import json, os, pathlib, sys
    results = pathlib.Path(os.environ["RESULTS"])
    results.mkdir(parents=True, exist_ok=True)
    gpu = int(os.environ["CUDA_VISIBLE_DEVICES"])
    print(os.environ["FIRST"], os.environ["LAST"], os.environ["GAMES"], len(os.sched_getaffinity(0)))
    summary = {"engine1": "a", "engine2": "b", "wins": gpu + 1, "draws": 2, "losses": 1,
               "faults": {"engine1": {}, "engine2": {}}}
    (results / "result.json").write_text(json.dumps(summary))
    """
)


def fake_match(folder):
    """Writes the stand-in match script into `folder`; returns its path."""
    script = os.path.join(folder, "fake_match.py")
    with open(script, "w") as f:
        f.write(FAKE_MATCH)
    return script


class RunTest(unittest.TestCase):
    def test_each_slice_gets_its_gpu_and_openings_and_the_results_are_pooled(self):
        with tempfile.TemporaryDirectory() as tmp:
            script = fake_match(tmp)
            out = subprocess.run(
                [sys.executable, _path, "--gpus", "2", "--first", "11", "--last", "15",
                 "--results", os.path.join(tmp, "r"), "--", sys.executable, script],
                capture_output=True, text=True, check=False,
            )
            self.assertEqual(out.returncode, 0, out.stderr)
            cores = len(os.sched_getaffinity(0))
            share = max(1, cores // 2)
            self.assertIn(f"gpu0: 11 13 6 {share}", out.stdout)
            self.assertIn(f"gpu1: 14 15 4 {share}", out.stdout)
            # 1 + 2 wins, 2 + 2 draws, 1 + 1 losses, pooled by tools/match/combine.py.
            self.assertIn("W/D/L 3/4/2", out.stdout)
            with open(os.path.join(tmp, "r", "gpu1", "result.json")) as f:
                self.assertEqual(json.load(f)["wins"], 2)

    def test_openings_past_the_files_end_are_cut(self):
        with tempfile.TemporaryDirectory() as tmp:
            script = fake_match(tmp)
            book = os.path.join(tmp, "openings.epd")
            with open(book, "w") as f:
                f.write("".join(f"opening {i}\n" for i in range(1, 13)))
            command = [sys.executable, _path, "--gpus", "2", "--first", "9", "--last", "20",
                       "--results", os.path.join(tmp, "r"), "--", sys.executable, script]
            out = subprocess.run(command, capture_output=True, text=True, check=False,
                                 env=dict(os.environ, OPENINGS=book))
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn("up to 12", out.stderr)
            self.assertIn("gpu0: 9 10 4", out.stdout)
            self.assertIn("gpu1: 11 12 4", out.stdout)
            # A first opening past the end is an error, not an empty match.
            command[command.index("--first") + 1] = "13"
            out = subprocess.run(command, capture_output=True, text=True, check=False,
                                 env=dict(os.environ, OPENINGS=book))
            self.assertEqual(out.returncode, 2)
            self.assertIn("past the last", out.stderr)


if __name__ == "__main__":
    unittest.main()
