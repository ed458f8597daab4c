"""Tests of bench/gpu-first-windows.py, how the GPU search's first aspiration windows fare in
replayed games (run by scripts/test.sh)."""

import importlib.util
import os
import sys
import unittest

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("first_windows", os.path.join(_here, "gpu-first-windows.py"))
first_windows = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = first_windows  # its dataclasses look their module up by name
_spec.loader.exec_module(first_windows)


def iteration(depth, alpha, beta, ms, score):
    """The two trace lines of a finished iteration, as crates/search-gpu/src/driver/diagnostics.rs
    writes them."""
    return [
        f"iteration depth {depth} window {alpha}..{beta}: {ms:.3f} ms, launches 1; finisher worker 0: "
        "10 nodes, 0 table cutoffs, 0 ETC; all 264 workers: 10 nodes, 0 table cutoffs, 0 ETC",
        f"agreement depth {depth} finisher 0 best e2e4 score {score}; worker 0's first move none; "
        "launch 1: 1/1 same []",
    ]


class FirstWindowsTest(unittest.TestCase):
    TRACE = (
        # The engine's own search at its start: not one of the records.
        ["search new"] + iteration(1, -32001, 32001, 0.2, 50)
        # On the line: full windows below depth 5, then a window that holds at depth 16.
        + ["search new"] + iteration(4, -32001, 32001, 1.0, 5) + iteration(16, -13, 23, 7.0, 10)
        + iteration(17, -8, 28, 20.0, 12)
        # Off it: fails low at 16, fails again, then holds at 0, inside the first window: not
        # borne out; 10 + 20 + 30 ms to complete depth 16.
        + ["search new"] + iteration(16, -18, 18, 10.0, -18) + iteration(16, -45, 0, 20.0, -45)
        + iteration(16, -85, 0, 30.0, -2) + iteration(17, -20, 16, 40.0, 0)
        # Off it: fails high and the exact value is beyond the window: borne out.
        + ["search new"] + iteration(16, 0, 36, 5.0, 40) + iteration(16, 0, 67, 15.0, 50)
        # Not known: fails and is stopped before the depth completes.
        + ["search new"] + iteration(18, 82, 118, 9.0, 82)
        # No windowed iteration at all: left out.
        + ["search new"] + iteration(1, -32001, 32001, 0.1, 3)
    )
    RECORDS = [{"after_pv": True}, {"after_pv": False}, {"after_pv": False}, {"after_pv": None},
               {"after_pv": None}]

    def test_the_trace_is_read_search_by_search(self):
        searches = first_windows.read_trace(self.TRACE)
        self.assertEqual([len(s) for s in searches], [1, 3, 4, 2, 1, 1])
        self.assertEqual(searches[2][0], first_windows.Iteration(16, -18, 18, 10.0, -18))
        self.assertTrue(searches[2][0].failed())
        self.assertFalse(searches[0][0].windowed())

    def test_first_windows_held_failed_and_borne_out(self):
        searches = first_windows.read_trace(self.TRACE)
        W = first_windows.FirstWindow
        self.assertEqual(first_windows.first_window(searches[1]), W(False, None, 7.0))
        self.assertEqual(first_windows.first_window(searches[2]), W(True, False, 60.0))
        self.assertEqual(first_windows.first_window(searches[3]), W(True, True, 20.0))
        self.assertEqual(first_windows.first_window(searches[4]), W(True, None, None))
        self.assertIsNone(first_windows.first_window(searches[5]))

    def test_rows_by_kind_of_root(self):
        windows = first_windows.pair(self.RECORDS, first_windows.read_trace(self.TRACE))
        self.assertEqual(len(windows), 4)
        self.assertEqual(first_windows.rows("base", windows), [
            "base on the line: 1 first windows, failed 0 (0%), not borne out 0 of 0; "
            "first depth held 7.0 ms, failed -",
            "base off it: 2 first windows, failed 2 (100%), not borne out 1 of 2; "
            "first depth held -, failed 40.0 ms",
            "base not known: 1 first windows, failed 1 (100%), not borne out 0 of 0; "
            "first depth held -, failed -",
        ])

    def test_a_trace_shorter_than_the_records_is_refused(self):
        with self.assertRaises(ValueError):
            first_windows.pair(self.RECORDS * 2, first_windows.read_trace(self.TRACE))


if __name__ == "__main__":
    unittest.main()
