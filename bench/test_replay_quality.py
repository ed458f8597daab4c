"""Tests of bench/replay-quality.sh, engines replaying the same games for move-quality.py (run by
scripts/test.sh)."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

import chess

_here = os.path.dirname(os.path.abspath(__file__))
_script = os.path.join(_here, "replay-quality.sh")
_fake = os.path.join(_here, "..", "tools", "match", "fake_engine.py")

PGN = """[Event "t"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40"]
[SetUp "1"]

40. e4 Kd7 41. e5 Ke6 42. Ke2 Kxe5 *
"""


def run(tmp, engines, **env):
    pgn = os.path.join(tmp, "g.pgn")
    with open(pgn, "w") as f:
        f.write(PGN)
    full = dict(os.environ, ENGINES=engines, PGN=pgn, GAMES="1", CLOCK="1+0.01",
                RESULTS=os.path.join(tmp, "r"), PYTHON=sys.executable, **env)
    return subprocess.run(["bash", _script], capture_output=True, text=True, timeout=120, env=full)


class ReplayQualityTest(unittest.TestCase):
    def test_every_engine_replays_every_position(self):
        fake = f"{sys.executable} {_fake} random"
        with tempfile.TemporaryDirectory() as tmp:
            # The fake engine has no Hash option: HASH empty sets none.
            done = run(tmp, f" a={fake} ; b={fake};", HASH="")
            self.assertEqual(done.returncode, 0, done.stderr)
            for name in ("a", "b"):
                with open(os.path.join(tmp, "r", f"{name}.json")) as f:
                    saved = json.load(f)
                self.assertEqual({r["engine"] for r in saved}, {name})
                # Both sides of moves 40 to 42, each position with a legal move for the judge.
                self.assertEqual(sorted(r["fullmove"] for r in saved), [40, 40, 41, 41, 42, 42])
                for r in saved:
                    self.assertIn(chess.Move.from_uci(r["move"]), chess.Board(r["fen"]).legal_moves)

    def test_a_depth_searches_one_side_within_the_moves_asked(self):
        fake = f"{sys.executable} {_fake} random"
        with tempfile.TemporaryDirectory() as tmp:
            done = run(tmp, f"a={fake}", HASH="", DEPTH="3", SIDE="white", FROM_MOVE="41", TO_MOVE="42")
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(os.path.join(tmp, "r", "a.json")) as f:
                saved = json.load(f)
            # White's positions of moves 41 and 42 only: not move 40, not black's.
            self.assertEqual(sorted(r["fullmove"] for r in saved), [41, 42])
            self.assertTrue(all(chess.Board(r["fen"]).turn == chess.WHITE for r in saved))

    def test_a_fixed_time_a_move_and_the_engine_stderr_kept(self):
        with tempfile.TemporaryDirectory() as tmp:
            # An engine that echoes what it is sent to its stderr, which the replay keeps.
            echo = f"{sys.executable} {_fake} random --echo"
            done = run(tmp, f"a={echo}", HASH="", MOVETIME="0.05", SIDE="black")
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(os.path.join(tmp, "r", "a.stderr")) as f:
                sent = f.read()
            self.assertEqual(sent.count("go movetime 50"), 3)  # black's moves 40 to 42
            self.assertNotIn("wtime", sent)

    def test_an_option_the_engine_lacks_fails_the_replay(self):
        with tempfile.TemporaryDirectory() as tmp:
            done = run(tmp, f"a={sys.executable} {_fake} random|Threads=16", HASH="")
            self.assertEqual(done.returncode, 1)
            self.assertIn("a's replay failed", done.stderr)

    def test_a_spec_without_a_command_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            done = run(tmp, "just-a-name")
            self.assertEqual(done.returncode, 2)
            self.assertIn("NAME=COMMAND", done.stderr)


if __name__ == "__main__":
    unittest.main()
