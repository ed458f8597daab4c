"""Tests of bench/ab_table.py, the A/B table of bench/gpu-search-ab.sh (run by scripts/test.sh)."""

import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ab_table  # noqa: E402


def row(name, rep, workers, seconds, nodes=1000, positions=None):
    run = {"workers": workers, "nodes": nodes, "seconds": seconds}
    if positions is not None:
        run["seconds"] = sum(positions)
        run["position_seconds"] = positions
    return f"{name} {rep} " + json.dumps(run)


class PairedChangeTest(unittest.TestCase):
    def test_a_drift_shared_by_each_repetition_leaves_the_change_exact(self):
        # The machine drifts from 1 s to 2 s; the other variant is 10% faster in every repetition.
        base = {1: 1.0, 2: 2.0, 3: 1.5}
        other = {r: 0.9 * s for r, s in base.items()}
        low, high = ab_table.paired_change(base, other)
        self.assertAlmostEqual(low, -0.10)
        self.assertAlmostEqual(high, -0.10)

    def test_noise_without_a_change_gives_an_interval_around_zero(self):
        base = {1: 1.00, 2: 1.05, 3: 0.97, 4: 1.02}
        other = {1: 1.03, 2: 1.01, 3: 0.99, 4: 1.00}
        low, high = ab_table.paired_change(base, other)
        self.assertLess(low, 0.0)
        self.assertGreater(high, 0.0)

    def test_a_clear_change_excludes_zero(self):
        base = {1: 1.00, 2: 1.05, 3: 0.97, 4: 1.02}
        other = {1: 0.80, 2: 0.86, 3: 0.79, 4: 0.81}
        low, high = ab_table.paired_change(base, other)
        self.assertLess(high, 0.0)
        self.assertLess(low, high)

    def test_fewer_than_two_pairs_give_no_interval(self):
        self.assertIsNone(ab_table.paired_change({1: 1.0}, {1: 0.9}))
        self.assertIsNone(ab_table.paired_change({1: 1.0, 2: 1.0}, {2: 0.9, 3: 0.9}))

    def test_t_quantiles_fall_back_to_the_next_smaller_tabulated(self):
        self.assertEqual(ab_table.t95(3), 3.182)
        self.assertEqual(ab_table.t95(11), ab_table.t95(10))
        self.assertEqual(ab_table.t95(100), 1.96)


class TableTest(unittest.TestCase):
    def test_the_first_variant_is_the_base_of_each_worker_count(self):
        rows = [row("a", 1, 264, 2.0), row("b", 1, 264, 1.0),
                row("a", 2, 264, 4.0), row("b", 2, 264, 2.0),
                row("a", 1, 528, 1.0), row("b", 1, 528, 1.5)]
        lines = ab_table.table(ab_table.read_rows(rows), ["a", "b"])
        b264 = next(line for line in lines if line.split()[:2] == ["264", "b"])
        self.assertIn("-50.0%", b264)
        self.assertIn("[-50.0%, -50.0%]", b264)
        b528 = next(line for line in lines if line.split()[:2] == ["528", "b"])
        self.assertIn("+50.0%", b528)
        self.assertNotIn("[", b528)  # one run each: no interval

    def test_one_worker_with_different_node_counts_is_flagged(self):
        rows = [row("a", 1, 1, 1.0, nodes=100), row("a", 2, 1, 1.0, nodes=101)]
        lines = ab_table.table(ab_table.read_rows(rows), ["a"])
        self.assertTrue(any("not deterministic" in line for line in lines))


class PooledTest(unittest.TestCase):
    LOG_A = "\n".join([
        "== 264 workers, 8 bench positions, depth 19",
        row("base", 1, 264, 10.0, nodes=250),
        row("new", 1, 264, 8.0, nodes=200),
        # The script's log cuts a row at 160 characters: workers, nodes and seconds survive.
        'base 2 {"workers":264,"nodes":300,"seconds":12.0,"nps":25,"nps_speedup":1.00,"seconds_m',
        row("new", 2, 264, 9.0, nodes=225),
        "",
        " workers        variant  runs   mean s    min s    max s  vs first",
        "     264           base     2   11.000    10.000   12.000     +0.0%",
    ])
    LOG_B = "\n".join([row("new", 1, 264, 8.5), row("base", 1, 264, 11.0)])

    def test_rows_of_several_logs_pool_and_other_lines_are_skipped(self):
        runs = ab_table.read_logs([self.LOG_A, self.LOG_B])
        self.assertEqual(sorted(runs), [(264, "base"), (264, "new")])
        self.assertEqual([r["seconds"] for r in runs[(264, "base")].values()], [10.0, 12.0, 11.0])
        self.assertEqual(runs[(264, "base")][1]["nodes"], 300)

    def test_a_row_cut_before_its_seconds_is_dropped(self):
        self.assertIsNone(ab_table.parse_run('{"workers":264,"nodes":300,"sec'))
        self.assertEqual(ab_table.parse_run('{"workers":1,"nodes":5,"seconds":0.5,"x'),
                         {"workers": 1, "nodes": 5, "seconds": 0.5})

    def test_welch_finds_a_clear_change_and_not_a_spread_alone(self):
        base = dict(enumerate([10.0, 10.5, 9.8, 10.2, 9.9]))
        low, high = ab_table.welch_change(base, {k: 0.8 * x for k, x in base.items()})
        self.assertLess(high, 0.0)
        self.assertLess(low, -0.2)
        self.assertGreater(high, -0.2)
        low, high = ab_table.welch_change(base, dict(enumerate([10.1, 9.9, 10.4, 9.7, 10.0])))
        self.assertLess(low, 0.0)
        self.assertGreater(high, 0.0)
        self.assertIsNone(ab_table.welch_change(base, {0: 9.0}))

    def test_the_pooled_table_compares_every_variant_with_the_first_unpaired(self):
        runs = ab_table.read_logs([self.LOG_A, self.LOG_B])
        lines = ab_table.table(runs, ["base", "new"], ab_table.welch_change)
        new = next(line for line in lines if line.split()[:2] == ["264", "new"])
        self.assertEqual(new.split()[2], "3")  # three runs over the two logs
        self.assertIn("-22.7%", new)  # a mean of 8.5 s against 11.0 s
        self.assertIn("[", new)
        # Paired by their numbers the same runs would give another interval.
        paired = next(line for line in ab_table.table(runs, ["base", "new"])
                      if line.split()[:2] == ["264", "new"])
        self.assertNotEqual(new, paired)


class ByPositionTest(unittest.TestCase):
    # Eight positions: the fifth's time jumps between 1.5 and 6 s from run to run in both variants
    # alike (its root move changing), the other seven are 0.5 s in the base and 10% faster in the
    # other variant, with a little noise.
    @staticmethod
    def runs(factor, n):
        out = []
        for k in range(n):
            noise = 1 + 0.02 * ((k * 7) % 5 - 2) / 2
            p = [0.5 * factor * noise] * 8
            p[4] = 6.0 if k % 2 else 1.5
            out.append(p)
        return out

    def rows(self, n=16):
        lines = []
        for k, (a, b) in enumerate(zip(self.runs(1.0, n), self.runs(0.9, n))):
            lines += [row("base", k + 1, 264, None, positions=a), row("new", k + 1, 264, None, positions=b)]
        return lines

    def test_one_noisy_position_hides_a_change_in_the_total_but_not_by_position(self):
        runs = ab_table.read_rows(self.rows())
        base, new = runs[(264, "base")], runs[(264, "new")]
        low, high = ab_table.welch_change({k: r["seconds"] for k, r in base.items()},
                                          {k: r["seconds"] for k, r in new.items()})
        self.assertLess(low, 0.0)
        self.assertGreater(high, 0.0)
        change, (low, high) = ab_table.position_change(
            ab_table.position_logs(base), ab_table.position_logs(new), paired=False)
        # Seven positions 10% faster and one unchanged: the mean log change over the eight.
        self.assertAlmostEqual(change, 0.9 ** (7 / 8) - 1, places=6)
        self.assertLess(high, 0.0)
        self.assertLess(low, change)

    def test_paired_by_repetition_an_exact_change_has_an_exact_interval(self):
        lines = [row("a", k, 264, None, positions=[1.0 + k, 2.0]) for k in (1, 2, 3)]
        lines += [row("b", k, 264, None, positions=[0.8 * (1.0 + k), 2.0]) for k in (1, 2, 3)]
        runs = ab_table.read_rows(lines)
        change, (low, high) = ab_table.position_change(
            ab_table.position_logs(runs[(264, "a")]), ab_table.position_logs(runs[(264, "b")]), True)
        self.assertAlmostEqual(change, 0.8 ** 0.5 - 1)
        self.assertAlmostEqual(low, change)
        self.assertAlmostEqual(high, change)

    def test_runs_without_positions_are_left_out_and_counted_so(self):
        lines = self.rows(4) + [row("base", 9, 264, 3.0), row("new", 9, 264, 3.0)]
        runs = ab_table.read_rows(lines)
        self.assertEqual(len(ab_table.position_logs(runs[(264, "base")])[0]), 4)
        table = ab_table.position_table(runs, ["base", "new"])
        new = next(line for line in table if line.split()[:2] == ["264", "new"])
        self.assertEqual(new.split()[2], "4")
        self.assertIn("%", new)
        # A base without positions is no base for the others' changes.
        self.assertEqual(ab_table.position_table(ab_table.read_rows(
            [row("base", 1, 264, 3.0)] + self.rows(4)[1::2]), ["base", "new"]), [])
        # Rows of an older kogge (no positions anywhere): no second table.
        self.assertEqual(ab_table.position_table(ab_table.read_rows(
            [row("base", 1, 264, 3.0), row("new", 1, 264, 2.0)]), ["base", "new"]), [])

    def test_the_pooled_main_prints_both_tables(self):
        import contextlib
        import io
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("\n".join(self.rows()) + "\n")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(ab_table.main(["--pool", "base,new", f.name]), 0)
        os.unlink(f.name)
        text = out.getvalue()
        self.assertIn("95% interval (unpaired)", text)
        self.assertIn("each position's geometric mean time", text)


if __name__ == "__main__":
    unittest.main()
