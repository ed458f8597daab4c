"""Tests of bench/game-depths.py, the depths of engines replaying games (run by scripts/test.sh)."""

import importlib.util
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest

import chess.pgn

_here = os.path.dirname(os.path.abspath(__file__))
# The script imports bench/uci_specs.py, found beside it.
sys.path.insert(0, _here)
_spec = importlib.util.spec_from_file_location("game_depths", os.path.join(_here, "game-depths.py"))
depths = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(depths)

PGN = """[Event "t"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40"]
[SetUp "1"]

40. e4 Kd7 41. e5 Ke6 42. Ke2 Kxe5 *
"""


def record(engine, fullmove, depth, nodes=1000, seconds=0.1):
    return {"engine": engine, "game": 0, "fullmove": fullmove, "pieces": 3, "depth": depth,
            "nodes": nodes, "seconds": seconds}


class GameDepthsTest(unittest.TestCase):
    def test_parts_of_the_game(self):
        self.assertEqual(depths.part_of(1), "moves 1-20")
        self.assertEqual(depths.part_of(20), "moves 1-20")
        self.assertEqual(depths.part_of(21), "moves 21-40")
        self.assertEqual(depths.part_of(41), "moves 41 on")
        self.assertEqual(depths.part_of(300), "moves 41 on")

    def test_a_side_searches_every_other_position(self):
        game = chess.pgn.read_game(io.StringIO(PGN))
        white = depths.positions_of(game, "white")
        black = depths.positions_of(game, "black")
        both = depths.positions_of(game, "both")
        self.assertEqual([b.fullmove_number for b in white], [40, 41, 42])
        self.assertTrue(all(b.turn == chess.WHITE for b in white))
        self.assertEqual([b.fullmove_number for b in black], [40, 41, 42])
        self.assertTrue(all(b.turn == chess.BLACK for b in black))
        self.assertEqual(len(both), 6)
        # Each is the position before the move: black's first has the pawn on e4.
        self.assertEqual(black[0].piece_at(chess.E4), chess.Piece(chess.PAWN, chess.WHITE))

    def test_summary_by_engine_and_part(self):
        records = [record("a", 5, 10), record("a", 6, 12), record("a", 7, None),
                   record("a", 45, 20, nodes=3000, seconds=0.2), record("b", 45, 15)]
        rows = depths.summarise(records)
        self.assertEqual([(r["engine"], r["part"]) for r in rows],
                         [("a", "moves 1-20"), ("a", "moves 41 on"), ("b", "moves 41 on")])
        first = rows[0]
        self.assertEqual(first["positions"], 3)
        self.assertEqual(first["median_depth"], 11)  # the search without a depth left out
        self.assertAlmostEqual(first["nps"], 3000 / 0.3)
        self.assertEqual(rows[1]["median_nodes"], 3000)
        self.assertIn("no depth", depths.format_row(depths.summarise([record("c", 1, None)])[0]))

    def test_each_engine_gets_its_own_options(self):
        specs = ["gpu:Hash=1024", "cpu16:Threads=16", "cpu16:Hash=1024", "gpu:GPU Finisher=a=b"]
        self.assertEqual(depths.options_for("cpu16", specs), {"Threads": "16", "Hash": "1024"})
        self.assertEqual(depths.options_for("gpu", specs), {"Hash": "1024", "GPU Finisher": "a=b"})
        self.assertEqual(depths.options_for("other", specs), {})

    def test_two_runs_compared_position_by_position(self):
        first = [record("a", 5, 10), record("a", 6, 12), record("a", 45, 20), record("a", 46, None)]
        second = [record("b", 5, 11), record("b", 6, 14), record("b", 45, 20), record("b", 46, 30),
                  record("b", 47, 25)]  # 46 and 47: no depth in the first run, or not searched
        rows = depths.paired(first, second)
        self.assertEqual([(r["part"], r["positions"]) for r in rows],
                         [("moves 1-20", 2), ("moves 41 on", 1)])
        self.assertAlmostEqual(rows[0]["mean_change"], 1.5)
        self.assertAlmostEqual(rows[0]["half_width"], 1.96 * 0.7071067811865476 / 2 ** 0.5)
        self.assertEqual((rows[1]["mean_change"], rows[1]["half_width"]), (0, 0.0))
        self.assertEqual(depths.paired(first, []), [])

    def test_both_sides_paired_apart(self):
        """`--side both` searches white's and black's move of one fullmove: each is paired with
        its own side's search, not the other's."""
        def side(r, colour):
            return dict(r, fen=f"8/8/8/8/8/8/8/K6k {colour} - - 0 {r['fullmove']}")
        first = [side(record("a", 45, 20), "w"), side(record("a", 45, 10), "b")]
        second = [side(record("b", 45, 21), "w"), side(record("b", 45, 13), "b")]
        rows = depths.paired(first, second)
        self.assertEqual([(r["part"], r["positions"]) for r in rows], [("moves 41 on", 2)])
        self.assertAlmostEqual(rows[0]["mean_change"], 2.0)  # +1 and +3, not 21 - 10 and 13 - 20

    def test_on_or_off_the_last_searchs_line(self):
        before = chess.Board()
        board = before.copy()
        for uci in ("e2e4", "e7e5"):
            board.push_uci(uci)
        self.assertTrue(depths.after_pv(before, ["e2e4", "e7e5", "g1f3"], board))
        self.assertFalse(depths.after_pv(before, ["e2e4", "c7c5"], board))
        self.assertFalse(depths.after_pv(before, ["d2d4"], board))  # off it at the first move
        self.assertIsNone(depths.after_pv(before, ["e2e4"], board))  # too short to tell
        self.assertIsNone(depths.after_pv(None, ["e2e4", "e7e5"], board))  # the game's first
        self.assertIsNone(depths.after_pv(before, [], board))

    def test_pairs_on_and_off_the_first_runs_line(self):
        first = [dict(record("a", 5, 10), after_pv=True), dict(record("a", 6, 12), after_pv=False),
                 dict(record("a", 7, 12), after_pv=None)]
        second = [record("b", 5, 11), record("b", 6, 15), record("b", 7, 20)]
        self.assertEqual([r["positions"] for r in depths.paired(first, second)], [3])
        self.assertEqual([r["mean_change"] for r in depths.paired(first, second, line=True)], [1])
        self.assertEqual([r["mean_change"] for r in depths.paired(first, second, line=False)], [3])

    def test_the_position_before_the_reply_and_the_warm_depth(self):
        before = chess.Board()
        board = before.copy()
        for uci in ("e2e4", "c7c5"):
            board.push_uci(uci)
        middle, reply = depths.warm_position(before, board)
        self.assertEqual((middle.move_stack[-1].uci(), middle.turn, reply), ("e2e4", chess.BLACK, "c7c5"))
        self.assertIsNone(depths.warm_position(None, board))  # the game's first search
        board.push_uci("g1f3")
        self.assertIsNone(depths.warm_position(before, board))  # not the engine's move and a reply
        self.assertEqual((depths.warm_depth(17, 3), depths.warm_depth(2, 3), depths.warm_depth(None, 3)),
                         (14, 1, None))

    def test_pairs_off_the_line_by_whether_the_warm_search_had_the_reply(self):
        first = [dict(record("a", n, 10), after_pv=line) for n, line in ((5, False), (6, False), (7, True))]
        second = [dict(record("b", 5, 14), warm_hit=True), dict(record("b", 6, 11), warm_hit=False),
                  dict(record("b", 7, 12), warm_hit=True)]
        self.assertEqual([r["mean_change"] for r in depths.paired(first, second, line=False, warmed=True)], [4])
        self.assertEqual([r["mean_change"] for r in depths.paired(first, second, line=False, warmed=False)], [1])
        self.assertEqual([r["mean_change"] for r in depths.paired(first, second, warmed=True)], [3])

    def test_off_the_line_against_the_search_before(self):
        run = [dict(record("a", 5, 16), after_pv=None), dict(record("a", 6, 11), after_pv=False),
               dict(record("a", 7, 14), after_pv=False), dict(record("a", 8, 15), after_pv=True),
               dict(record("a", 10, 9), after_pv=False)]  # move 9 not searched: no search before
        for r in run:
            r["fen"] = "8/8/8/8/8/8/8/8 w - - 0 1"
        rows = depths.against_before(run)
        self.assertEqual([(r["positions"], r["mean_change"], r["far_below"]) for r in rows], [(2, -1, 1)])
        warmed = {(0, 7, "w")}
        rows = depths.against_before(run, warmed)
        self.assertEqual([(r["positions"], r["mean_change"], r["far_below"]) for r in rows], [(1, 3, 0)])
        self.assertEqual(depths.against_before(run, set()), [])

    def test_a_depth_s_cost_from_the_saved_lines(self):
        def line(depth, ms, nodes, bound="exact"):
            return [depth, bound, ms, nodes, ["e2e4", "e7e5"]]
        # Move 5 completed depth 18. Move 6, on its line: 17, 18, 19 (x3 the time, x4 the nodes:
        # at D+1), 20 (x2, x2: D+2). Move 7, off it: 16, 17, a failed 18, then 18 and 19 (none
        # held thrice). Move 9 follows no search of move 8: left out.
        first = dict(record("a", 5, 18), after_pv=None, lines=[line(18, 50, 10**6)])
        on = dict(record("a", 6, 20), after_pv=True, lines=[
            line(17, 10, 1_000), line(18, 30, 2_000), line(19, 90, 6_000), line(20, 210, 14_000)])
        off = dict(record("a", 7, 19), after_pv=False, lines=[
            line(16, 10, 1_000), line(17, 20, 2_000), line(18, 25, 2_500, "upper"),
            line(18, 40, 4_000), line(19, 80, 9_000)])
        alone = dict(record("a", 9, 20), after_pv=True, lines=on["lines"])
        self.assertEqual(
            depths.ply_cost([first, on, off, alone]),
            "expected: D+1 time x3.00, nodes x4.00 (1); D+2 or more time x2.00, nodes x2.00 (1); "
            "not expected: -")

    def test_trees_compared_depth_by_depth(self):
        def line(depth, ms, nodes, bound="exact"):
            return [depth, bound, ms, nodes, ["e2e4"]]

        def searches(engine, scale, extra=()):
            # Six positions, three reached on the first run's expected line and three off it.
            rows = []
            for move in range(1, 7):
                r = dict(record(engine, move, 15), fen="8/8/8/8/8/8/8/8 w - - 0 1",
                         after_pv=move <= 3)
                factor = scale(move)
                r["lines"] = [line(14, 10 * factor, 1_000 * factor), line(15, 20, 3_000 * factor, "upper"),
                              line(15, 40 * factor, 4_000 * factor), *extra]
                rows.append(r)
            return rows
        # The first run's trees: twice the second's on the line, eight times off it (the failed
        # depth 15 not counted); the second run's depth 16, which the first never completed, left out.
        first = searches("a", lambda move: 2 if move <= 3 else 8)
        second = searches("b", lambda move: 1, extra=[line(16, 90, 9_000)])
        second.append(dict(record("b", 9, 15), fen="8/8/8/8/8/8/8/8 w - - 0 1", after_pv=False,
                           lines=[line(14, 1, 1)]))  # no first-run search of move 9
        rows = depths.tree_ratios(first, second)
        self.assertEqual([r["depth"] for r in rows], [14, 15])
        for row in rows:
            self.assertEqual((row["positions"], row["on_positions"], row["off_positions"]), (6, 3, 3))
            self.assertAlmostEqual(row["nodes"], 4.0)
            self.assertAlmostEqual(row["time"], 4.0)
            self.assertAlmostEqual(row["on_nodes"], 2.0)
            self.assertAlmostEqual(row["off_nodes"], 8.0)
        self.assertIn("off it x8.00 (3)", depths.format_tree_row(rows[0]))
        # Fewer than TREE_MIN_POSITIONS positions: no row.
        self.assertEqual(depths.tree_ratios(first[:4], second), [])
        # By both runs' lines: the second run's line off at moves 3 and 6, depths 14-15 pooled.
        second[2]["after_pv"], second[5]["after_pv"] = False, True
        cells = {(r["first_on"], r["second_on"]): r for r in depths.tree_by_lines(first, second, 14, 15)}
        self.assertEqual({key: r["pairs"] for key, r in cells.items()},
                         {(True, True): 4, (True, False): 2, (False, True): 2, (False, False): 4})
        self.assertAlmostEqual(cells[(False, True)]["nodes"], 8.0)
        self.assertAlmostEqual(cells[(True, False)]["time"], 2.0)
        self.assertEqual(depths.tree_by_lines(first, second, 16, 20)[0]["nodes"], None)

    def test_a_replay_keeps_every_line_with_lines(self):
        _, saved = self.replay("--side", "white", "--lines")
        self.assertTrue(saved and all(r["lines"] for r in saved))
        depth, bound, ms, nodes, pv = saved[0]["lines"][-1]
        self.assertEqual((depth, bound), (saved[0]["depth"], "exact"))
        self.assertTrue(pv and isinstance(ms, int))

    def test_fresh_sends_ucinewgame_before_every_search(self):
        fake = os.path.join(_here, "..", "tools", "match", "fake_engine.py")
        for extra, expected in (((), 1), (("--fresh",), None)):
            with tempfile.TemporaryDirectory() as err:
                _, saved = self.replay("--side", "white", "--stderr", err, *extra,
                                       engine=f"{sys.executable} {fake} random --echo")
                with open(os.path.join(err, "fake.stderr")) as f:
                    sent = f.read().split("\n")
                self.assertEqual(sent.count("ucinewgame"), expected or len(saved))
                self.assertGreater(len(saved), 1)

    def replay(self, *args, engine=None):
        """PGN replayed by tools/match/fake_engine.py (or the `engine` command) at 0.01 s a move
        with `args`: the script's output and the searches it saved."""
        fake = os.path.join(_here, "..", "tools", "match", "fake_engine.py")
        engine = engine or f"{sys.executable} {fake} random"
        with tempfile.TemporaryDirectory() as tmp:
            pgn = os.path.join(tmp, "g.pgn")
            with open(pgn, "w") as f:
                f.write(PGN)
            out = os.path.join(tmp, "r.json")
            run = subprocess.run(
                [sys.executable, os.path.join(_here, "game-depths.py"), "--pgn", pgn,
                 "--movetime", "0.01", *args, "--engine", f"fake={engine}",
                 "--json", out],
                capture_output=True, text=True, timeout=60)
            self.assertEqual(run.returncode, 0, run.stderr)
            with open(out) as f:
                return run.stdout, json.load(f)

    def test_a_replay_with_the_fake_engine(self):
        stdout, saved = self.replay("--side", "black")
        self.assertIn("fake: moves 21-40: 1 positions, depth median 1,", stdout)
        self.assertIn("fake: moves 41 on: 2 positions, depth median 1,", stdout)
        self.assertEqual([r["fullmove"] for r in saved], [40, 41, 42])
        # The fake engine's PV is its one move: the game's first search has none before it, and
        # later ones are off the line or too short to tell.
        self.assertIsNone(saved[0]["after_pv"])
        self.assertTrue(all(r["after_pv"] in (None, False) for r in saved[1:]))
        # Each search keeps its position and the move played, for bench/move-quality.py,
        # and the selective depth where the engine says one.
        for r in saved:
            self.assertIn("seldepth", r)
            board = chess.Board(r["fen"])
            self.assertEqual(board.turn, chess.BLACK)
            self.assertIn(chess.Move.from_uci(r["move"]), board.legal_moves)

    def test_a_replay_with_warm_searches(self):
        _, saved = self.replay("--side", "white", "--warm-replies", "2", "--warm-less", "3")
        # The first search has no search before it; each later one's warm search went to depth 1
        # (the fake engine's depth 1, less 3, at least 1) at the position before black's reply.
        self.assertNotIn("warm_hit", saved[0])
        game = chess.pgn.read_game(io.StringIO(PGN))
        replies = [m.uci() for i, m in enumerate(game.mainline_moves()) if i % 2 == 1]
        for r, reply in zip(saved[1:], replies):
            self.assertEqual(r["warm_depth"], 1)
            self.assertEqual(len(r["warm_moves"]), 1)  # the fake engine's one line
            self.assertEqual(r["warm_hit"], reply in r["warm_moves"])
        # Without the option the records have none of it.
        _, plain = self.replay("--side", "white")
        self.assertFalse(any("warm_moves" in r for r in plain))

    def test_the_engine_set_up_is_not_timed_as_the_first_search(self):
        # An engine that answers its first `isready` only after 1.5 s, as the GPU search does
        # while it builds its kernel.
        fake = os.path.join(_here, "..", "tools", "match", "fake_engine.py")
        slow = f"{sys.executable} {fake} random --ready-delay 1.5"
        _, saved = self.replay("--side", "white", engine=slow)
        self.assertEqual(len(saved), 3)
        self.assertLess(saved[0]["seconds"], 1.0, saved)

    def test_a_replay_between_two_moves(self):
        _, saved = self.replay("--side", "both", "--from-move", "41", "--to-move", "41")
        # Move 41's two positions, white's and black's, and none before or after.
        self.assertEqual([r["fullmove"] for r in saved], [41, 41])

    def test_a_clock_for_every_search(self):
        limit = depths.clock_limit("6+0.1")
        self.assertEqual((limit.white_clock, limit.black_clock), (6.0, 6.0))
        self.assertEqual((limit.white_inc, limit.black_inc), (0.1, 0.1))
        self.assertIsNone(limit.time)
        self.assertEqual(depths.clock_limit("2").white_inc, 0.0)

    def test_a_depth_or_a_clock_or_a_fixed_time(self):
        self.assertEqual(depths.search_limit(0.1, "6+0.1", 12).depth, 12)
        self.assertIsNone(depths.search_limit(0.1, "6+0.1", 12).white_clock)
        self.assertEqual(depths.search_limit(0.1, "6+0.1", None).white_clock, 6.0)
        self.assertEqual(depths.search_limit(0.25, None, None).time, 0.25)
        self.assertIsNone(depths.search_limit(0.25, None, None).depth)


if __name__ == "__main__":
    unittest.main()
