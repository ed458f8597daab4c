"""Tests of tools/sass-profile.py's hot-code measure (the rest needs nvdisasm and a cubin)."""

import importlib.util
import unittest
from pathlib import Path

_spec = importlib.util.spec_from_file_location("sass_profile", Path(__file__).with_name("sass-profile.py"))
sass_profile = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sass_profile)


class HotFootprint(unittest.TestCase):
    def test_one_hot_instruction_then_a_long_cold_tail(self):
        # 16-byte instructions: offsets 0, 16, ...; the first runs 100 times, the next 20 once each.
        executed = [(0, 100.0)] + [(16 * i, 1.0) for i in range(1, 21)]
        rows = sass_profile.hot_footprint(executed, shares=(0.5, 0.9, 0.99))
        # 120 executions. The 21 instructions span three 128-byte lines (8 instructions a line)
        # of 107, 8 and 5 executions. 50% (60): the hot instruction, in the first line.
        self.assertEqual(rows[0], (0.5, 1, 1))
        # 90% (108): the hot one and 8 ones; the first line's 107 fall one short.
        self.assertEqual(rows[1], (0.9, 9, 2))
        # 99% (118.8): the hot one and 19 ones; all three lines.
        self.assertEqual(rows[2], (0.99, 20, 3))
        self.assertEqual(rows[3], (1.0, 21, 3))

    def test_code_never_run_counts_nowhere(self):
        executed = [(0, 0.0), (16, 5.0), (256, 5.0), (512, 0.0)]
        rows = sass_profile.hot_footprint(executed, shares=(0.5,))
        self.assertEqual(rows[0], (0.5, 1, 1))
        self.assertEqual(rows[1], (1.0, 2, 2))


class HotByFunction(unittest.TestCase):
    def test_hot_instructions_counted_where_they_were_written(self):
        # f: a hot loop of two instructions and one cold; g: one instruction run often, one never.
        executed = [50.0, 50.0, 1.0, 30.0, 0.0]
        funcs = ["f", "f", "f", "g", "g"]
        # 131 executions; 90% (117.9): the two of f's loop and g's first (130).
        self.assertEqual(sass_profile.hot_by_function(executed, funcs, share=0.9),
                         {"f": (3, 3, 2), "g": (2, 1, 1)})
        # 50% (65.5): f's loop alone.
        self.assertEqual(sass_profile.hot_by_function(executed, funcs, share=0.5),
                         {"f": (3, 3, 2), "g": (2, 1, 0)})


if __name__ == "__main__":
    unittest.main()
