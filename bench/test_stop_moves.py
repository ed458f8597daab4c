"""Tests of bench/gpu-stop-moves.py, the rules for the move played when the clock stops an
iteration (run by scripts/test.sh)."""

import importlib.util
import os
import sys
import unittest

_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpu-stop-moves.py")
# The script imports bench/uci_specs.py, found beside it.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location("gpu_stop_moves", _path)
stop = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(stop)

# As crates/search-gpu/src/driver.rs writes it (trace_stopped) under KOGGE_SEARCH_TRACE=1.
STOPPED = (
    "stopped depth 15; worker 0 a1d1 -24; clean a1b1 -20; none 75; "
    "partials a1d1 176 -24 -26, a1b1 13 -20 -25"
)
# As builds before the sixty-fourth session wrote it (no `clean` part).
STOPPED_OLD = "stopped depth 15; worker 0 a1d1 -24; none 75; partials a1d1 176 -24 -26, a1b1 13 -20 -25"
INFO = [
    "info depth 13 seldepth 20 multipv 1 score cp -20 nodes 10 nps 1 time 5 pv a1b1 e7e5",
    "info depth 14 seldepth 22 multipv 1 score cp -22 nodes 20 nps 1 time 9 pv a1d1 e7e5",
    "info depth 15 seldepth 22 multipv 1 score cp 10 lowerbound nodes 30 nps 1 time 12 pv h2h3",
]


class StopMovesTest(unittest.TestCase):
    def test_the_trace_line_is_read(self):
        s = stop.parse_stopped(STOPPED)
        self.assertEqual(s["depth"], 15)
        self.assertEqual(s["worker0"], "a1d1")
        self.assertEqual(s["none"], 75)
        self.assertEqual(s["clean"], "a1b1")
        self.assertEqual(s["partials"], [("a1d1", 176, -24, -26), ("a1b1", 13, -20, -25)])
        old = stop.parse_stopped(STOPPED_OLD)
        self.assertNotIn("clean", old)
        self.assertEqual((old["depth"], old["worker0"], old["none"]), (15, "a1d1", 75))
        self.assertEqual(old["partials"], s["partials"])
        none = stop.parse_stopped("stopped depth 9; worker 0 none; clean none; none 264; partials ")
        self.assertIsNone(none["worker0"])
        self.assertIsNone(none["clean"])
        self.assertEqual(none["partials"], [])
        self.assertIsNone(stop.parse_stopped("iteration depth 9 window ..."))

    def test_completed_and_fail_high_moves(self):
        # The last exact line below the stopped depth; bounds are not completed depths.
        self.assertEqual(stop.completed_move(INFO, 15), "a1d1")
        self.assertEqual(stop.completed_move(INFO, 14), "a1b1")
        self.assertEqual(stop.fail_high_move(INFO, 15), "h2h3")
        self.assertIsNone(stop.fail_high_move(INFO, 14))

    def test_each_rule_picks_its_move(self):
        record = {"played": "a1b1", "completed": "c2c4", "stopped": stop.parse_stopped(STOPPED)}
        moves = stop.rule_moves(record)
        self.assertEqual(
            moves,
            {"played": "a1b1", "completed": "c2c4", "worker0": "a1d1", "clean": "a1b1", "vote": "a1d1"},
        )
        # No worker has a move yet: worker 0, the clean workers and the vote fall back to the
        # completed depth.
        record["stopped"] = stop.parse_stopped("stopped depth 9; worker 0 none; clean none; none 264; partials ")
        moves = stop.rule_moves(record)
        self.assertEqual((moves["worker0"], moves["clean"], moves["vote"]), ("c2c4", "c2c4", "c2c4"))
        # An older trace has no clean part: that rule plays what was played.
        record["stopped"] = stop.parse_stopped(STOPPED_OLD)
        self.assertEqual(stop.rule_moves(record)["clean"], "a1b1")

    def test_fen_and_epd_lines(self):
        self.assertEqual(stop.fen_of("8/8/8/8/8/8/8/K1k5 w - - 3 40\n"), "8/8/8/8/8/8/8/K1k5 w - - 3 40")
        self.assertEqual(stop.fen_of("8/8/8/8/8/8/8/K1k5 w - - id x;"), "8/8/8/8/8/8/8/K1k5 w - - 0 1")


if __name__ == "__main__":
    unittest.main()
