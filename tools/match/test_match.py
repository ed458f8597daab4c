"""Tests of the match harness: the statistics on known W/D/L, the game-ending rules, and whole
matches against the fake engines of fake_engine.py (each misbehaviour must be reported, counted
against the right engine and scored as its loss).

Run from the repository root with either of
    python3 -m unittest discover tools/match
    python3 -m pytest tools/match
"""

from __future__ import annotations

import dataclasses
import io
import json
import math
import re
import shlex
import subprocess
import sys
import tempfile
import time
import unittest
import unittest.mock
from pathlib import Path

import chess
import chess.engine
import chess.pgn

import blunders
import combine
import depth_loss
import depths
import games
import iterations
import match
import opening_moves
import paired
import quality
import search_loss
import shared_time
import stability
import trim_log
from stats import Sprt, bootstrap_interval, elo_estimate, format_elo

HERE = Path(__file__).resolve().parent
MATCH = HERE / "match.py"
FAKE = HERE / "fake_engine.py"

# Start positions for the end-to-end tests: the test's own, so that the games (between fake
# engines whose moves depend only on the position) are the same on every run.
OPENINGS = "\n".join(
    [
        chess.STARTING_FEN,
        "r1bqkb1r/pp2pppp/2n2n2/2pp4/3P4/1P2PN2/P1P2PPP/RNBQKB1R w KQkq - 1 5",
    ]
)


def fake(mode: str, *extra: str) -> str:
    return shlex.join([sys.executable, str(FAKE), mode, *extra])


class StatsTest(unittest.TestCase):
    def test_bootstrap_interval_brackets_the_mean_and_repeats(self):
        units = [float(v) for v in range(10)]
        mean = lambda drawn: sum(drawn) / len(drawn)  # noqa: E731
        low, high = bootstrap_interval(units, mean)
        self.assertLess(low, 4.5)
        self.assertGreater(high, 4.5)
        self.assertEqual((low, high), bootstrap_interval(units, mean))
        # Draws where the statistic is not defined are left out.
        only_positive = lambda drawn: None if min(drawn) < 0 else mean(drawn)  # noqa: E731
        self.assertEqual(bootstrap_interval([-1.0, 2.0], only_positive), (2.0, 2.0))

    def test_elo_and_interval_on_a_known_result(self):
        # 60/20/20: score 0.7, per-game variance 0.16, standard error 0.04.
        estimate = elo_estimate(60, 20, 20)
        self.assertAlmostEqual(estimate.score, 0.7)
        self.assertAlmostEqual(estimate.elo, 147.1907, places=3)
        self.assertAlmostEqual(estimate.elo_low, 86.2250, places=3)
        self.assertAlmostEqual(estimate.elo_high, 218.2518, places=3)

    def test_even_result_is_zero_elo_with_a_symmetric_interval(self):
        estimate = elo_estimate(30, 40, 30)
        self.assertEqual(estimate.elo, 0.0)
        self.assertAlmostEqual(estimate.elo_low, -estimate.elo_high)
        self.assertLess(estimate.elo_low, 0.0)
        self.assertEqual(format_elo(estimate.elo), "+0.0")

    def test_one_sided_and_empty_results(self):
        self.assertEqual(elo_estimate(5, 0, 0).elo, math.inf)
        self.assertEqual(elo_estimate(0, 0, 5).elo, -math.inf)
        empty = elo_estimate(0, 0, 0)
        self.assertEqual((empty.score, empty.elo_low, empty.elo_high), (0.5, -math.inf, math.inf))

    def test_sprt_llr_on_known_results(self):
        # References from maximising the log-likelihood directly over the one free parameter
        # (the draw rate) for each hypothesis' expected score, with no zero counts.
        self.assertAlmostEqual(Sprt(0, 10, 0.05, 0.05).llr(60, 20, 20), 1.389822, places=5)
        self.assertAlmostEqual(Sprt(0, 10, 0.05, 0.05).llr(20, 60, 20), -0.103442, places=5)
        self.assertAlmostEqual(Sprt(-5, 5, 0.05, 0.05).llr(30, 50, 20), 0.575532, places=5)
        sprt = Sprt(0, 10, 0.05, 0.05)
        self.assertAlmostEqual(sprt.upper_bound, math.log(19), places=9)
        self.assertAlmostEqual(sprt.lower_bound, -math.log(19), places=9)
        self.assertIsNone(sprt.decision(2.9))
        self.assertEqual(sprt.decision(3.0), "H1")
        self.assertEqual(sprt.decision(-3.0), "H0")

    def test_sprt_on_one_sided_results(self):
        # N straight wins are worth about N log(s1 / s0): one win decides nothing, 40 wins
        # against a 100 Elo hypothesis (s1 = 0.640) do.
        self.assertEqual(Sprt(0, 5, 0.05, 0.05).llr(0, 0, 0), 0.0)
        one_win = Sprt(0, 10, 0.05, 0.05).llr(1, 0, 0)
        self.assertAlmostEqual(one_win, math.log(0.514387 / 0.5), places=3)
        forty = Sprt(0, 100, 0.05, 0.05)
        self.assertAlmostEqual(forty.llr(40, 0, 0), 40 * math.log(0.640065 / 0.5), places=1)
        self.assertEqual(forty.decision(forty.llr(40, 0, 0)), "H1")
        # Only draws: evidence against any hypothesis that needs decisive games.
        self.assertLess(Sprt(0, 10, 0.05, 0.05).llr(0, 50, 0), -1.0)


class RulesTest(unittest.TestCase):
    SETTINGS = games.Settings(
        base=1.0, increment=0.0, movetime=None, depth=None, margin=0.0, grace=1.0,
        max_plies=400, draw_adjudication=(30, 2, 10), resign_adjudication=(2, 500),
    )

    def test_rules_endings(self):
        mate = chess.Board()
        for move in ("f2f3", "e7e5", "g2g4", "d8h4"):
            mate.push_uci(move)
        self.assertEqual(games.rules_ending(mate), ("0-1", "Black mates"))
        stalemate = chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
        self.assertEqual(games.rules_ending(stalemate), ("1/2-1/2", "stalemate"))
        bare = chess.Board("8/8/8/4k3/8/8/8/4K3 w - - 0 1")
        self.assertEqual(games.rules_ending(bare), ("1/2-1/2", "insufficient material"))
        fifty = chess.Board("8/8/8/4k3/8/8/8/R3K3 w - - 100 80")
        self.assertEqual(games.rules_ending(fifty), ("1/2-1/2", "50-move rule"))
        self.assertIsNone(games.rules_ending(chess.Board("8/8/8/4k3/8/8/8/R3K3 w - - 99 80")))

    def test_threefold_repetition_is_claimed_on_the_third_occurrence(self):
        board = chess.Board()
        shuffle = ("g1f3", "g8f6", "f3g1", "f6g8")
        for move in shuffle + shuffle[:3]:
            board.push_uci(move)
            self.assertIsNone(games.rules_ending(board))
        board.push_uci(shuffle[3])  # the start position for the third time
        self.assertEqual(games.rules_ending(board), ("1/2-1/2", "threefold repetition"))

    def test_adjudication(self):
        late = chess.Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 40")
        self.assertEqual(games.adjudicate(late, [5, -5, 0, 10], self.SETTINGS)[0], "1/2-1/2")
        self.assertIsNone(games.adjudicate(late, [5, -5, 0, 11], self.SETTINGS))
        self.assertIsNone(games.adjudicate(late, [5, -5, None, 0], self.SETTINGS))
        early = chess.Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 20")
        self.assertIsNone(games.adjudicate(early, [0, 0, 0, 0], self.SETTINGS))
        self.assertEqual(games.adjudicate(early, [600, 500, 900, 700], self.SETTINGS)[0], "1-0")
        self.assertEqual(games.adjudicate(early, [-600, -500, -900, -700], self.SETTINGS)[0],
                         "0-1")
        self.assertIsNone(games.adjudicate(early, [600, 400, 900, 700], self.SETTINGS))

    def test_default_openings_are_located_from_the_repository_root(self):
        self.assertEqual(match.DEFAULT_OPENINGS.parent.name, "data")
        if not match.DEFAULT_OPENINGS.exists():
            self.skipTest(f"{match.DEFAULT_OPENINGS} is not here")
        self.assertGreater(len(games.load_openings(match.DEFAULT_OPENINGS)), 0)


class DepthsTest(unittest.TestCase):
    # Two games between "a" and "b": the first from the start position, the second with "a"
    # as Black and Black to move, so that its first move is a's. The comments are what
    # games.move_comment writes, a mate score among them; one of b's moves has neither score nor
    # depth (an engine that reported none), which counts for its time only.
    PGN = """[White "a"]
[Black "b"]
[Result "*"]

1. e4 { +0.20/10 0.100s } 1... e5 { -0.10/8 0.300s } 2. Nf3 { +0.25/12 0.100s }
2... Nc6 { 0.200s } 3. Bb5 { +M3/14 0.100s } *

[White "b"]
[Black "a"]
[Result "*"]
[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]
[SetUp "1"]

1... e5 { -0.10/6 0.400s } 2. Nf3 { +0.10/20 0.500s } 2... Nc6 { -0.10/7 0.400s } *
"""

    def test_each_engines_depths_and_times_by_game(self):
        engines = depths.collect(self.PGN, moves=40)
        self.assertEqual(sorted(engines), ["a", "b"])
        # a: 10, 12, 14 in the first game (median 12); 6, 7 in the second (Black): 6.5.
        self.assertEqual(engines["a"].game_medians, [12, 6.5])
        self.assertEqual(engines["a"].seconds, [0.1, 0.1, 0.1, 0.4, 0.4])
        # b: one depth in the first game (the timed move without one only counts for time).
        self.assertEqual(engines["b"].game_medians, [8, 20])
        self.assertEqual(engines["b"].seconds, [0.3, 0.2, 0.5])

    def test_only_the_first_moves_count_for_depth(self):
        engines = depths.collect(self.PGN, moves=1)
        self.assertEqual(engines["a"].game_medians, [10, 6])
        self.assertEqual(engines["b"].game_medians, [8, 20])
        self.assertIn("a: median depth over the first move 8 (6 to 10) in 2 games; 5 moves",
                      depths.report(engines, 1))

    def test_depth_and_time_by_part_of_the_game(self):
        # A game from move 20 on: White's moves 20 and 21 fall in two parts, and the last move's
        # comment has how the game ended after its time.
        pgn = (
            '[White "a"]\n[Black "b"]\n[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 20"]\n[SetUp "1"]\n\n'
            "20. Kd1 { +0.50/14 0.200s } 20... Kd8 { -0.50/30 0.100s } 21. Ke1 { +0.40/18 0.400s } "
            "21... Ke8 { +0.00/31 0.300s, threefold repetition } *\n"
        )
        engines = depths.collect(pgn, moves=40)
        self.assertEqual(engines["a"].part_depths, [[14], [18], []])
        self.assertEqual(engines["b"].part_seconds, [[0.1], [0.3], []])
        self.assertEqual(
            depths.parts_line(engines["a"]),
            "moves 1-20 / 21-40 / 41 on: mean depth 14.0 / 18.0 / -, median 0.200 / 0.400 / - s a move (1 / 1 / - moves)",
        )
        self.assertEqual(blunders.reported_depth("+0.00/31 0.300s, threefold repetition"), 31)


class SharedTimeTest(unittest.TestCase):
    # Two matches of "g" against "c" from two openings. After 1. e4 (opening one) both matches
    # reach 1... e5 and 2. Nf3 by g at depth 16; the second match took twice as long on both.
    # Opening two's 1... d5 took half as long in the second match; its 2... e6 there went a ply
    # deeper, so it does not count, nor do c's moves (another engine).
    @staticmethod
    def game(fen: str, moves: str) -> str:
        return f'[White "c"]\n[Black "g"]\n[Result "*"]\n[FEN "{fen}"]\n[SetUp "1"]\n\n{moves} *\n\n'

    E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    D4 = "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"
    FIRST = (
        game(E4, "1... e5 { +0.00/16 0.200s } 2. Nf3 { +0.00/16 0.300s } 2... Nc6 { +0.00/16 0.100s }")
        + game(D4, "1... d5 { +0.00/16 0.400s } 2. c4 { +0.00/16 0.300s } 2... e6 { +0.00/16 0.300s }")
    )
    SECOND = (
        game(E4, "1... e5 { +0.00/16 0.400s } 2. Nf3 { +0.00/16 0.100s } 2... Nc6 { +0.00/16 0.200s }")
        + game(D4, "1... d5 { +0.00/16 0.200s } 2. c4 { +0.00/16 0.300s } 2... e6 { +0.00/17 0.900s }")
    )

    def test_ratio_over_positions_both_matches_reached_at_one_depth(self):
        first = shared_time.visits(self.FIRST, "g")
        second = shared_time.visits(self.SECOND, "g")
        self.assertEqual(len(first), 4)
        groups = shared_time.log_ratios_by_opening(first, second)
        # e4: 1... e5 (0.2 -> 0.4) and 2... Nc6 (0.1 -> 0.2); d4: 1... d5 (0.4 -> 0.2), not 2... e6.
        self.assertEqual(sorted(len(g) for g in groups.values()), [1, 2])
        result = shared_time.shared_time(first, second)
        self.assertEqual((result.positions, result.openings), (3, 2))
        self.assertAlmostEqual(result.ratio, math.exp(math.log(2) / 3))
        low, high = result.interval
        self.assertLessEqual(low, result.ratio)
        self.assertGreaterEqual(high, result.ratio)
        self.assertIn("3 positions in both matches (2 openings), time to the same depth second / first x1.260",
                      shared_time.line("g", result))

    def test_no_shared_position_gives_no_figure(self):
        first = shared_time.visits(self.FIRST, "g")
        self.assertIsNone(shared_time.shared_time(first, shared_time.visits(self.FIRST, "c")))
        self.assertIn("no position", shared_time.line("g", None))
        # One opening: a ratio, no interval.
        one = shared_time.shared_time(first, shared_time.visits(self.SECOND.split("\n\n[White")[0], "g"))
        self.assertIsNone(one.interval)


class DepthLossTest(unittest.TestCase):
    # quality.py --json records: "g" shallow and losing in the second band, "c" deep; one record
    # without a depth (counts nowhere).
    RECORDS = [
        {"engine": "g", "number": 3, "loss": 10, "comment": "+0.10/18 0.500s"},
        {"engine": "g", "number": 12, "loss": 40, "comment": "-0.20/15 0.200s"},
        {"engine": "g", "number": 14, "loss": 900, "comment": "-3.00/16 0.100s"},
        {"engine": "g", "number": 15, "loss": 5, "comment": "0.100s"},
        {"engine": "c", "number": 4, "loss": 20, "comment": "+0.00/18 0.400s"},
        {"engine": "c", "number": 13, "loss": 0, "comment": "+0.00/20 0.200s"},
    ]

    def test_moves_read_with_depth_and_loss(self):
        moves = depth_loss.read_moves(self.RECORDS)
        self.assertEqual(len(moves), 5)
        self.assertEqual([m.loss for m in moves if m.engine == "g"], [10, 40, 900])
        self.assertEqual([m.depth for m in moves if m.engine == "c"], [18, 20])

    def test_bands_give_depth_time_loss_and_shallow_share(self):
        text = depth_loss.by_band(depth_loss.read_moves(self.RECORDS), shallow=16, last_move=20)
        lines = text.splitlines()
        self.assertEqual(lines[1], "1-10: c 18.00; 0.400; 20.0; 0% (1 moves) | g 18.00; 0.500; 10.0; 0% (1 moves)")
        self.assertEqual(lines[2], "11-20: c 20.00; 0.200; 0.0; 0% (1 moves) | g 15.50; 0.150; 470.0; 100% (2 moves)")

    def test_depths_give_each_engines_loss(self):
        text = depth_loss.by_depth(depth_loss.read_moves(self.RECORDS), last_move=12)
        # Move 14 (depth 16) and move 13 (depth 20) are past the last move counted.
        self.assertEqual(text.splitlines()[1:], ["15: c - | g 40.0 (1)", "18: c 20.0 (1) | g 10.0 (1)"])

    def test_equal_depth_gap_weights_shared_depths_by_the_smaller_count(self):
        records = [
            {"engine": e, "number": 5, "loss": loss, "comment": f"+0.00/{depth} 0.100s"}
            for e, depth, loss in [
                ("g", 18, 30), ("g", 18, 10), ("g", 18, 20),  # g at 18: mean 20, 3 moves
                ("c", 18, 12), ("c", 18, 8),  # c at 18: mean 10, 2 moves -> weight 2, gap +10
                ("g", 19, 5), ("g", 19, 5),  # g at 19: mean 5
                ("c", 19, 10), ("c", 19, 10), ("c", 19, 10),  # c at 19: 10 -> weight 2, gap -5
                ("g", 20, 99), ("c", 21, 0), ("c", 21, 0),  # one side only: left out
            ]
        ]
        moves = depth_loss.read_moves(records)
        gap = depth_loss.equal_depth_gap(moves, "g", last_move=60, min_moves=2)
        self.assertEqual(gap.depths, [(18, 10.0, 2), (19, -5.0, 2)])
        self.assertAlmostEqual(gap.gap, 2.5)
        self.assertEqual(gap.weight, 4)
        self.assertAlmostEqual(depth_loss.equal_depth_gap(moves, "c", last_move=60, min_moves=2).gap, -2.5)
        self.assertIn("+2.5 cp a move (depths 18-19", depth_loss.gap_line("g", gap, 2))
        # Too few moves at every depth, or an engine not in the games: no figure.
        self.assertIsNone(depth_loss.equal_depth_gap(moves, "g", last_move=60, min_moves=3))
        self.assertIsNone(depth_loss.equal_depth_gap(moves, "x", last_move=60, min_moves=1))
        self.assertIn("no depth", depth_loss.gap_line("g", None, 3))

    def test_gap_interval_resamples_games(self):
        def game(number, g_loss, c_loss):
            return [
                {"engine": e, "number": 5, "loss": loss, "comment": "+0.00/18 0.100s", "game": number}
                for e, loss in [("g", g_loss), ("g", g_loss), ("c", c_loss), ("c", c_loss)]
            ]

        # Every game alike: any draw of the games gives the same gap, so the interval is a point.
        same = depth_loss.read_moves(game(1, 20, 10) + game(2, 20, 10) + game(3, 20, 10))
        gap = depth_loss.equal_depth_gap(same, "g", last_move=60, min_moves=2)
        self.assertEqual(depth_loss.gap_interval(same, gap, "g", last_move=60, resamples=50), (10.0, 10.0))
        # Games that differ: the interval holds the gap and has width; the same seed repeats it.
        mixed = depth_loss.read_moves(game(1, 30, 10) + game(2, 10, 10) + game(3, 20, 15) + game(4, 25, 5))
        gap = depth_loss.equal_depth_gap(mixed, "g", last_move=60, min_moves=2)
        low, high = depth_loss.gap_interval(mixed, gap, "g", last_move=60, resamples=400)
        self.assertLess(low, gap.gap)
        self.assertLess(gap.gap, high)
        self.assertEqual((low, high), depth_loss.gap_interval(mixed, gap, "g", last_move=60, resamples=400))
        # Games of different files are apart even where their numbers agree.
        two_files = depth_loss.read_moves(game(1, 30, 10), source=0)
        two_files += depth_loss.read_moves(game(1, 10, 10), source=1)
        self.assertEqual(len({m.game for m in two_files}), 2)
        line = depth_loss.gap_line("g", dataclasses.replace(gap, interval=(low, high)), 2)
        self.assertIn("(95%, games resampled)", line)


def _uci(pid: int, direction: str, text: str) -> str:
    """A python-chess debug line of the harness's log."""
    return f"DEBUG:chess.engine:<TimedUciProtocol (pid={pid})>: {direction} {text}"


def _timed_search(used_ms, *lines, before=None):
    """A search with 3,030 ms on the clock and no increment (3,000 available: a soft limit of
    100 ms) that took `used_ms` (None: not told)."""
    return iterations.Search("1", (), list(lines), clock_ms=3030, used_ms=used_ms, before=before)


class IterationsTest(unittest.TestCase):
    # Engine "g" (pid 7, named by the harness): a first search that completes depths 5 and 6;
    # a second, after the reply its line expected (e7e5), whose first window fails low and which
    # ends in a re-search; a third, after an unexpected reply, that completes no depth. Pid 8,
    # unnamed, is named by its Threads option: one search, a window failed after 1 s.
    FEN = "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    LOG = [
        "DEBUG:match:engine g is pid 7",
        _uci(8, "<<", "setoption name Threads value 16"),
        _uci(7, "<<", FEN),
        _uci(7, "<<", "go wtime 1000 btime 1000"),
        _uci(7, ">>", "info depth 5 seldepth 7 score cp 20 nodes 10 time 3 pv e2e4 e7e5 g1f3"),
        _uci(7, ">>", "info depth 6 currmove e2e4 currmovenumber 1"),
        _uci(7, ">>", "info depth 6 seldepth 8 score cp 25 nodes 20 time 9 pv e2e4 e7e5 g1f3"),
        _uci(7, ">>", "bestmove e2e4 ponder e7e5"),
        _uci(7, "<<", FEN + " moves e2e4 e7e5"),
        _uci(7, "<<", "go wtime 990 btime 1000"),
        _uci(7, ">>", "info depth 5 score cp 0 upperbound nodes 10 time 30 pv g1f3"),
        _uci(7, ">>", "info depth 5 score cp 10 nodes 20 time 40 pv g1f3 b8c6"),
        _uci(7, ">>", "info depth 6 score cp 60 lowerbound nodes 30 time 100 pv g1f3"),
        _uci(7, ">>", "bestmove g1f3"),
        _uci(7, "<<", FEN + " moves e2e4 e7e5 g1f3 d7d6"),
        _uci(7, "<<", "go wtime 900 btime 1000"),
        _uci(7, ">>", "info depth 7 score cp 5 lowerbound nodes 10 time 50 pv d2d4"),
        _uci(7, ">>", "bestmove d2d4"),
        _uci(8, "<<", FEN + " moves e2e4"),
        _uci(8, "<<", "go wtime 1000 btime 1000"),
        _uci(8, ">>", "info depth 20 score cp 10 nodes 10 time 1200 pv e7e5"),
        _uci(8, ">>", "info depth 21 score cp -30 upperbound nodes 10 time 1500 pv e7e5"),
        _uci(8, ">>", "info depth 21 score cp -20 nodes 10 time 1600 pv c7c5"),
        _uci(8, ">>", "bestmove c7c5"),
    ]

    def engines(self):
        return iterations.read_log(self.LOG, [("c", "Threads=16")])

    def test_searches_are_read_by_engine(self):
        engines = self.engines()
        self.assertEqual(sorted(engines), ["c", "g"])
        self.assertEqual([len(s.lines) for s in engines["g"]], [2, 3, 1])  # no currmove line
        self.assertEqual(engines["g"][1].moves, ("e2e4", "e7e5"))
        self.assertEqual(engines["g"][1].lines[0], iterations.Line(5, "upper", 30, ("g1f3",), 0, 10))

    def test_endings_and_replies(self):
        g = self.engines()["g"]
        self.assertEqual([iterations.ending(s) for s in g],
                         ["further depths", "ended in a re-search", "no depth completed"])
        self.assertEqual([iterations.reply(s) for s in g], ["unknown", "expected", "not expected"])
        self.assertIsNone(self.engines()["c"][0].before)  # its first search of the game

    def test_report_counts_failed_windows_and_their_time(self):
        text = iterations.report("g", self.engines()["g"])
        self.assertIn("first window failed: reply expected 1/1 (100%); reply not expected 1/1 (100%); "
                      "reply unknown 0/1 (0%); all 2/3 (67%)", text)
        self.assertIn("later depths' first window failed: 1/2 (50%)", text)
        # Failed: 30 ms (depth 5's upper bound), 60 ms (depth 6's lower bound), 50 ms (depth 7), of
        # 9 + 100 + 50 ms.
        self.assertIn("reported time in failed windows: 140/159 (88%) ms", text)

    def test_deepest_depth_by_the_reply_before(self):
        g = self.engines()["g"]
        self.assertEqual([iterations.deepest(s) for s in g], [6, 5, None])
        # The search after the expected reply completed depth 5; the one after another completed
        # none and is left out; the first (reply unknown) is in neither.
        # Its clock went from 990 to 900 ms by the next search: 90 ms.
        self.assertIn("deepest completed depth by the reply before, moves 1-20: expected 5.00, at most 16 "
                      "1/1 (100%), 0.090 s a move, not expected -; 21-40: expected -, not expected -",
                      iterations.report("g", g))

    def test_work_to_a_depth_by_the_reply_before(self):
        line = iterations.Line
        self.assertEqual(iterations.parse_info("info depth 9 score cp 3 nodes 1234 time 5 pv a2a4").nodes, 1234)
        # The search before played e2e4 and expected e7e5.
        before = iterations.Search("1", (), [line(10, "exact", 5, ("e2e4", "e7e5"), 0, 1000)])
        # After the expected reply: depth 14's first window failed, then held; the first completed
        # line of depth 14 or more is the exact one at 50 ms. Another completed only depth 13.
        held = iterations.Search("1", ("e2e4", "e7e5"), [
            line(14, "upper", 20, (), 0, 1_000_000), line(14, "exact", 50, ("g1f3",), 0, 2_500_000),
            line(16, "exact", 90, ("g1f3",), 0, 4_000_000)], before=before)
        short = iterations.Search("1", ("e2e4", "e7e5"), [line(13, "exact", 10, (), 0, 100_000)], before=before)
        # After another reply: a search that starts at depth 16 completes 14 there.
        other = iterations.Search("1", ("e2e4", "c7c5"), [line(16, "exact", 30, (), 0, 500_000)], before=before)
        # Completed nothing: in neither count.
        none = iterations.Search("1", ("e2e4", "c7c5"), [line(16, "lower", 30, (), 0, 9)], before=before)
        searches = [held, short, other, none]
        self.assertEqual(iterations.work_part(searches, 14),
                         "D = 14: expected 1/2 2.50 M nodes, 50 ms, not expected 1/1 0.50 M nodes, 30 ms")
        self.assertEqual(iterations.work_part(searches, 18), "D = 18: expected 0/2, not expected 0/1")
        # A line without a node count gives the time alone.
        bare = iterations.Search("1", ("e2e4", "c7c5"), [line(18, "exact", 70, ())], before=before)
        self.assertEqual(iterations.work_part([bare], 18), "D = 18: expected -, not expected 1/1 70 ms")

    def test_first_completed_depth_against_the_soft_limit(self):
        line, search = iterations.Line, _timed_search
        searches = [
            search(60, line(16, "exact", 40, ())),
            search(90, line(16, "exact", 80, ())),
            # The first window failed: the depth completed at 150 ms.
            search(160, line(16, "upper", 50, ()), line(16, "exact", 150, ())),
            search(260, line(16, "exact", 250, ())),
            # Only a bound, and nothing at all: both completed no depth.
            search(300, line(16, "lower", 200, ())),
            search(400),
            # Not timed by the clock (its next search never came): left out.
            search(None, line(16, "exact", 500, ())),
        ]
        self.assertAlmostEqual(searches[0].soft_ms(), 100)
        self.assertEqual(iterations.first_done(searches),
                         "up to 0.5x 1/6 (17%), up to 1x 1/6 (17%), up to 2x 1/6 (17%), over 2x 1/6 (17%), "
                         "none 2/6 (33%), their time 700/1270 (55%) ms")
        self.assertEqual(iterations.first_done(searches[-1:]), "-")
        # The report counts the search without an info line too, which its other rows leave out.
        self.assertIn("none 2/6 (33%)", iterations.report("g", searches))

    def test_first_depth_by_where_it_started(self):
        line = iterations.Line
        # The search before completed depth 12 (its bound at 13 does not count).
        before = iterations.Search("1", (), [line(12, "exact", 5, ()), line(13, "upper", 9, ())])

        def search(used_ms, *lines):
            return _timed_search(used_ms, *lines, before=before)

        searches = [
            # Below D - 1: done at 40 ms; done past twice the limit.
            search(60, line(10, "exact", 40, ())),
            search(300, line(9, "exact", 250, ())),
            # D - 1: done within the limit.
            search(90, line(11, "upper", 30, ()), line(11, "exact", 80, ())),
            # D or deeper: one never done, one done past twice the limit, one in time.
            search(400, line(12, "lower", 300, ())),
            search(300, line(13, "exact", 210, ())),
            search(100, line(12, "exact", 50, ())),
            # No line at all.
            search(500),
            # No search before, and a search before that completed nothing: not counted.
            _timed_search(600, line(9, "exact", 500, ())),
            _timed_search(600, line(9, "exact", 500, ()),
                          before=iterations.Search("1", (), [line(12, "upper", 5, ())])),
        ]
        self.assertEqual([iterations.start_kind(s) for s in searches],
                         ["below D-1", "below D-1", "D-1", "D or deeper", "D or deeper", "D or deeper", "no line",
                          None, None])
        self.assertEqual(iterations.by_start(searches),
                         "below D-1 2, past 2x or never 1/2 (50%); D-1 1, past 2x or never 0/1 (0%); "
                         "D or deeper 3, past 2x or never 2/3 (67%); no line 1, past 2x or never 1/1 (100%)")
        self.assertEqual(iterations.by_start(searches[-2:]), "below D-1 -; D-1 -; D or deeper -; no line -")

    def test_time_a_move_against_the_soft_limit(self):
        self.assertTrue(iterations.white_to_move(self.FEN + " moves e2e4 e7e5"))
        self.assertFalse(iterations.white_to_move("position startpos moves e2e4"))
        self.assertEqual(iterations.go_clock("go wtime 990 btime 1000 winc 5 binc 7", False), (1000, 7))
        self.assertEqual(iterations.go_clock("go depth 5", True), (None, 0))
        g = self.engines()["g"]
        # White's clock 1000 -> 990 -> 900 ms: the first two searches took 10 and 90 ms; the last
        # has no next search to tell.
        self.assertEqual([s.used_ms for s in g], [10, 90, None])
        self.assertAlmostEqual(g[0].soft_ms(), 970 / 30)
        text = iterations.report("g", g)
        # Ratios 10 / 32.3 and 90 / 32.0: mean 1.56.
        self.assertIn("moves 1-10: 0.050 s against 0.032 s, ratio 1.56, over 1.5x 1/2 (50%) (2 moves); 11-20: -", text)

    def test_the_soft_limit_follows_the_engines_time_options(self):
        log = [
            _uci(9, "<<", "setoption name Slow Mover value 75"),
            _uci(9, "<<", "setoption name Move Overhead value 10"),
            _uci(9, "<<", self.FEN),
            _uci(9, "<<", "go wtime 3010 btime 3010 winc 100 binc 100"),
            _uci(9, ">>", "info depth 5 score cp 0 nodes 1 time 1 pv e2e4"),
            _uci(9, ">>", "bestmove e2e4"),
            _uci(9, "<<", "setoption name Slow Mover value 1000"),
            _uci(9, "<<", self.FEN + " moves e2e4 e7e5"),
            _uci(9, "<<", "go wtime 3010 btime 3010 winc 100 binc 100"),
            _uci(9, ">>", "bestmove d2d4"),
        ]
        first, second = iterations.read_log(log, [])["other"]
        # 3000 ms available: 3000 / 30 + 75 = 175 ms, at 75% 131.25; at 1000% 1750, but never past
        # the hard limit, min(4 x 175, 0.6 x 3000) = 700.
        self.assertAlmostEqual(first.soft_ms(), 131.25)
        self.assertAlmostEqual(second.soft_ms(), 700)
        # Without options: 30 ms overhead, 100%.
        self.assertAlmostEqual(self.engines()["g"][0].soft_ms(), 970 / 30)

    def test_failures_not_borne_out_by_the_same_depth(self):
        def line(depth, bound, cp):
            return iterations.Line(depth, bound, 0, (), cp)

        search = iterations.Search("1", (), [
            line(5, "exact", 10),
            line(6, "upper", -8), line(6, "exact", 0),  # inside 10 ± 18: not borne out
            line(7, "lower", 18), line(7, "exact", 30),  # 30 - 0 >= 18: borne out
            line(8, "upper", 0), line(8, "exact", 40),  # beyond the other side: not borne out
            line(9, "upper", 0),  # not completed: not counted
        ])
        self.assertEqual(iterations.borne_out(search), [("low", False), ("high", True), ("low", False)])
        # Below depth 5 Kogge searches without a window; a mate score is not compared.
        shallow = iterations.Search("1", (), [line(3, "exact", 0), line(4, "upper", -50), line(4, "exact", 0)])
        self.assertEqual(iterations.borne_out(shallow), [])
        self.assertEqual(iterations.parse_info("info depth 9 score mate 3 time 5 pv a2a4").cp, None)
        self.assertEqual(iterations.parse_info("info depth 9 score cp -12 time 5 pv a2a4").cp, -12)
        # A line cut short or garbled is skipped, not a crash.
        self.assertIsNone(iterations.parse_info("info depth 9 score cp 3 time"))
        self.assertIsNone(iterations.parse_info("info depth x time 5"))

    def test_late_windows_are_those_opened_after_a_second(self):
        text = iterations.report("c", self.engines()["c"])
        self.assertIn("windows opened after 1000 ms failed: 1/1 (100%)", text)
        self.assertIn("ended in a re-search: 0/1 (0%)", text)


def _summary(engine1, engine2, wins, draws, losses, faults1=0):
    """A result.json of match.py with just what combine.py reads."""
    zero = {"illegal_move": 0, "crash": 0, "hang": 0, "time_forfeit": 0}
    return {
        "engine1": engine1, "engine2": engine2, "wins": wins, "draws": draws, "losses": losses,
        "faults": {"engine1": {**zero, "hang": faults1}, "engine2": dict(zero)},
    }


class CombineTest(unittest.TestCase):
    def test_runs_of_one_pairing_pool_their_games(self):
        # The thirtieth session's two calls: 8/25/13 and 14/33/5.
        c = combine.combine([_summary("sm", "default", 8, 25, 13), _summary("sm", "default", 14, 33, 5)])
        self.assertEqual((c.wins, c.draws, c.losses, c.files), (22, 58, 18, 2))
        self.assertIn("W/D/L 22/58/18", c.report())
        self.assertIn("Elo +14.2 [-29.7, +58.6]", c.report())

    def test_a_run_with_the_engines_swapped_counts_from_the_first_side(self):
        c = combine.combine([_summary("a", "b", 3, 1, 0), _summary("b", "a", 3, 1, 0, faults1=2)])
        self.assertEqual((c.wins, c.draws, c.losses), (3, 2, 3))
        self.assertEqual(c.faults["engine2"]["hang"], 2)  # b's hangs stay b's
        self.assertEqual(c.faults["engine1"]["hang"], 0)

    def test_other_engines_are_refused(self):
        with self.assertRaises(ValueError):
            combine.combine([_summary("a", "b", 1, 0, 0), _summary("a", "c", 1, 0, 0)])

    def test_the_command_line_reads_the_files_and_refuses_a_mismatch(self):
        with tempfile.TemporaryDirectory() as tmp:
            one, two = Path(tmp, "one.json"), Path(tmp, "two.json")
            one.write_text(json.dumps(_summary("a", "b", 2, 0, 1)), encoding="utf-8")
            two.write_text(json.dumps(_summary("x", "y", 2, 0, 1)), encoding="utf-8")
            self.assertEqual(combine.main([str(one), str(one)]), 0)
            self.assertEqual(combine.main([str(one), str(two)]), 1)
            self.assertEqual(combine.main([str(Path(tmp, "missing.json"))]), 1)


def _game(white: str, black: str, result: str, fen: str | None = None) -> str:
    """A PGN game of one move with the given players, result and start."""
    game = chess.pgn.Game()
    game.headers["White"], game.headers["Black"], game.headers["Result"] = white, black, result
    if fen:
        game.setup(chess.Board(fen))
    game.add_variation(next(iter(game.board().legal_moves)))
    return str(game) + "\n\n"


_OTHER_START = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


class PairedTest(unittest.TestCase):
    def test_games_pair_by_start_and_colours_in_order(self):
        first = paired.engine_games(
            _game("gpu", "cpu", "1-0") + _game("cpu", "gpu", "1-0") + _game("gpu", "cpu", "1/2-1/2")
            + _game("gpu", "cpu", "0-1", _OTHER_START) + _game("cpu", "gpu", "*"),
            "cpu",
        )
        second = paired.engine_games(
            _game("cpu", "main", "0-1") + _game("main", "cpu", "0-1") + _game("main", "cpu", "1-0")
            + _game("cpu", "main", "1/2-1/2"),
            "cpu",
        )
        self.assertEqual(first.engine, "gpu")
        self.assertEqual(first.scores[(chess.STARTING_FEN, False)], [1.0, 0.5])
        self.assertEqual(first.scores[(chess.STARTING_FEN, True)], [0.0])  # the "*" left out
        # Standard start, engine white: (1, 0) then (0.5, 1); engine black: (0, 1); the other
        # start has no pair in the second file, nor its second game with black a pair in the first.
        self.assertEqual(paired.pair(first, second), [(1.0, 0.0), (0.5, 1.0), (0.0, 1.0)])
        text = paired.report(first, second, "cpu")
        self.assertIn("3 paired games against cpu", text)
        self.assertIn("gpu: W/D/L 1/1/1, score 50.0%", text)
        self.assertIn("main: W/D/L 2/0/1, score 66.7%", text)
        self.assertIn("gpu minus main: -16.7 points a game", text)
        self.assertIn("1 games better, 2 worse", text)
        # The other start with the opponent white: the first file has it only with gpu white.
        lone = paired.engine_games(_game("cpu", "other", "1-0", _OTHER_START), "cpu")
        self.assertEqual(paired.pair(first, lone), [])
        self.assertEqual(paired.report(first, lone, "cpu"), "no game of gpu against cpu has a pair in other's")

    def test_a_game_without_the_opponent_or_a_second_engine_is_refused(self):
        with self.assertRaisesRegex(ValueError, "has no cpu"):
            paired.engine_games(_game("gpu", "main", "1-0"), "cpu")
        with self.assertRaisesRegex(ValueError, "both gpu and main"):
            paired.engine_games(_game("gpu", "cpu", "1-0") + _game("main", "cpu", "1-0"), "cpu")
        with self.assertRaisesRegex(ValueError, "no games"):
            paired.engine_games("", "cpu")

    def test_the_command_line_names_files_of_one_engine_and_refuses_bad_ones(self):
        with tempfile.TemporaryDirectory() as tmp:
            one, two, bad = Path(tmp, "one.pgn"), Path(tmp, "two.pgn"), Path(tmp, "bad.pgn")
            one.write_text(_game("gpu", "cpu", "1-0") + _game("cpu", "gpu", "1-0"))
            two.write_text(_game("gpu", "cpu", "1/2-1/2") + _game("cpu", "gpu", "0-1"))
            bad.write_text(_game("gpu", "x", "1-0"))
            out = io.StringIO()
            with unittest.mock.patch("sys.stdout", out):
                self.assertEqual(paired.main([str(one), str(two), "--opponent", "cpu"]), 0)
            self.assertIn(f"gpu ({one}) minus gpu ({two}): -25.0 points a game [-100.0,", out.getvalue())
            with unittest.mock.patch("sys.stderr", io.StringIO()) as err:
                self.assertEqual(paired.main([str(one), str(bad), "--opponent", "cpu"]), 1)
                self.assertEqual(paired.main([str(one), str(Path(tmp, "none.pgn")), "--opponent", "cpu"]), 1)
            self.assertIn("has no cpu", err.getvalue())
            self.assertIn("cannot read", err.getvalue())


    def test_judged_gaps_pair_by_game_and_skip_games_without_both_sides(self):
        def judged(engine: str, game: int, loss: int) -> quality.JudgedMove:
            return quality.JudgedMove(engine, 1, loss, 0, chess.STARTING_FEN, "e2e4", "", None, game)

        # Game 2 unfinished (numbered all the same), game 3 with only the engine's moves judged.
        first = paired.engine_games(
            _game("gpu", "cpu", "1-0") + _game("cpu", "gpu", "*") + _game("cpu", "gpu", "0-1")
            + _game("gpu", "cpu", "1/2-1/2", _OTHER_START),
            "cpu",
        )
        gaps = paired.judged_gaps(
            first,
            [judged("gpu", 1, 30), judged("gpu", 1, 10), judged("cpu", 1, 5), judged("gpu", 2, 99),
             judged("cpu", 2, 0), judged("gpu", 3, 7), judged("gpu", 4, 0), judged("cpu", 4, 4)],
            "cpu",
        )
        self.assertEqual(gaps, {(chess.STARTING_FEN, False): [15.0], (chess.STARTING_FEN, True): [None],
                                (_OTHER_START, False): [-4.0]})
        second = paired.engine_games(
            _game("main", "cpu", "0-1") + _game("cpu", "main", "1-0") + _game("main", "cpu", "1-0", _OTHER_START),
            "cpu",
        )
        second_gaps = paired.judged_gaps(
            second,
            [judged("main", 1, 20), judged("cpu", 1, 15), judged("main", 2, 1), judged("cpu", 2, 1),
             judged("main", 3, 2), judged("cpu", 3, 0)],
            "cpu",
        )
        # Paired: the standard start with gpu white (15 against 5) and the other start (-4
        # against 2); the standard start with gpu black has no gap in the first file.
        text = paired.report_judged(first, second, (gaps, second_gaps))
        self.assertIn("on 2 paired games: gpu +5.5, main +3.5; gpu minus main: +2.0 [", text)
        self.assertEqual(
            paired.report_judged(first, second, ({}, second_gaps)),
            "judged: no paired game has both engines' moves judged in both files",
        )
        with self.assertRaisesRegex(ValueError, "judged game 5, where the PGN has 4 games"):
            paired.judged_gaps(first, [judged("gpu", 5, 0)], "cpu")
        with self.assertRaisesRegex(ValueError, "a judged move of main"):
            paired.judged_gaps(first, [judged("main", 1, 0)], "cpu")

    def test_the_command_line_pairs_judged_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            one, two = Path(tmp, "one.pgn"), Path(tmp, "two.pgn")
            one.write_text(_game("gpu", "cpu", "1-0") + _game("cpu", "gpu", "1-0"))
            two.write_text(_game("gpu", "cpu", "1/2-1/2") + _game("cpu", "gpu", "0-1"))
            files = []
            for name, losses in (("one", (10, 0, 4, 4)), ("two", (3, 0, 1, 2))):
                moves = [{"engine": engine, "number": 1, "loss": loss, "before": 0, "fen": chess.STARTING_FEN,
                          "move": "e2e4", "comment": "", "best": None, "game": game}
                         for (engine, game), loss in zip((("gpu", 1), ("cpu", 1), ("gpu", 2), ("cpu", 2)), losses)]
                files.append(Path(tmp, f"{name}.json"))
                files[-1].write_text(json.dumps({"moves": moves}))
            out = io.StringIO()
            with unittest.mock.patch("sys.stdout", out):
                args = [str(one), str(two), "--opponent", "cpu", "--judged", *map(str, files)]
                self.assertEqual(paired.main(args), 0)
            # Gaps 10 and 0 against 3 and -1: +4.0 a game.
            self.assertIn(f"gpu ({one}) +5.0, gpu ({two}) +1.0; gpu ({one}) minus gpu ({two}): +4.0 [", out.getvalue())
            with unittest.mock.patch("sys.stderr", io.StringIO()) as err:
                args = [str(one), str(two), "--opponent", "cpu", "--judged", str(files[0]), str(Path(tmp, "no.json"))]
                self.assertEqual(paired.main(args), 1)
            self.assertIn("no.json", err.getvalue())


class QualityTest(unittest.TestCase):
    def test_each_move_is_charged_what_it_lost(self):
        # White's view: White's first move keeps +30 (loss 0), Black's gives 130 cp away, White's
        # next loses 60 and Black's next gains (loss 0, never negative).
        self.assertEqual(
            quality.move_losses([30, 30, 160, 100, 50], 0), [(0, 1, 0), (1, 1, 130), (0, 2, 60), (1, 2, 0)]
        )
        # Black moves first: the signs turn with the mover, and White's reply is move 2.
        self.assertEqual(quality.move_losses([0, 100, 100], 1), [(1, 1, 100), (0, 2, 0)])
        # A move made with the game decided counts for nothing.
        self.assertEqual(quality.move_losses([900, 0, -50], 0), [(1, 1, 0)])

    def test_the_means_by_part_of_the_game(self):
        losses = quality.EngineLosses()
        for number, loss in ((1, 10), (20, 30), (21, 5), (41, 100), (60, 0)):
            losses.add(number, loss)
        self.assertIn("by move: 1-20 20.0 (2), 21-40 5.0 (1), 41+ 50.0 (2)", losses.summary())

    def test_mates_count_as_the_cap(self):
        mate = chess.engine.PovScore(chess.engine.Mate(3), chess.BLACK)
        self.assertEqual(quality.white_value(mate), -quality.CAP)
        cp = chess.engine.PovScore(chess.engine.Cp(5000), chess.WHITE)
        self.assertEqual(quality.white_value(cp), quality.CAP)

    def test_a_judge_that_finds_every_move_equal(self):
        pgn = '[White "a"]\n[Black "b"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n'
        judge = chess.engine.SimpleEngine.popen_uci([sys.executable, str(FAKE), "random"])
        try:
            engines = quality.judge_games(pgn, judge, depth=1)
        finally:
            judge.quit()
        self.assertEqual(engines["a"].losses, [0, 0, 0])
        self.assertEqual(engines["b"].losses, [0, 0])
        self.assertIn("3 moves, mean loss 0.0 cp", engines["a"].summary())

    def test_draws_the_harness_claims_end_the_game_for_the_judge(self):
        # The start position a third time after 4...Ng8: the harness ends the game there by
        # threefold repetition. A judge asked about it anyway (here: White winning) would charge
        # Black's last move with the difference.
        pgn = '[White "a"]\n[Black "b"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n'
        board = chess.Board()
        for _ in range(2):
            for move in ("g1f3", "g8f6", "f3g1", "f6g8"):
                board.push_uci(move)
        judge = _Judge({board.fen(): 1000}, default=0)
        moves = quality.judge_moves(pgn, judge, depth=1)
        self.assertEqual([m.loss for m in moves], [0] * 8)
        self.assertNotIn(board.fen(), judge.asked)
        # Each position judged as a game of its own (`ucinewgame`): no value depends on the
        # positions judged before it.
        self.assertEqual(len({id(g) for g in judge.games}), len(judge.games))
        self.assertNotIn(None, judge.games)
        # The fifty-move rule's draw, and a mate, as the harness ends them.
        self.assertEqual(quality.ended_value(chess.Board("1R6/8/8/8/8/3n1k2/7K/r7 b - - 100 150")), 0)
        self.assertEqual(quality.ended_value(chess.Board("1R6/8/8/8/8/3n1k2/7K/r7 w - - 99 150")), None)
        self.assertEqual(quality.ended_value(chess.Board("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")), quality.CAP)

    def test_judges_sharing_the_games_judge_them_as_one(self):
        games = [
            '[White "a"]\n[Black "b"]\n\n1. e4 e5 2. Nf3 *\n',
            '[White "b"]\n[Black "a"]\n\n1. d4 d5 *\n',
            '[White "a"]\n[Black "b"]\n\n1. c4 *\n',
        ]
        pgn = "\n\n".join(games)
        values = {}
        board = chess.Board()
        for move in ("e2e4", "e7e5", "g1f3"):
            board.push_uci(move)
            values[board.fen()] = -30 * len(values)
        every = quality.judge_moves(pgn, _Judge(values, default=10), depth=1)
        first = quality.judge_moves(pgn, _Judge(values, default=10), depth=1, share=(0, 2))
        second = quality.judge_moves(pgn, _Judge(values, default=10), depth=1, share=(1, 2))
        self.assertEqual([m.game for m in first], [1, 1, 1, 3])
        self.assertEqual([m.game for m in second], [2, 2])
        self.assertEqual(sorted(first + second, key=lambda m: m.game), every)
        self.assertIn(30, [m.loss for m in every])
        # The same through main: two fake judges, every game's moves in the PGN's order.
        with tempfile.TemporaryDirectory() as tmp:
            path, saved = Path(tmp) / "g.pgn", Path(tmp) / "moves.json"
            path.write_text(pgn)
            with unittest.mock.patch("sys.stdout", io.StringIO()), unittest.mock.patch("sys.stderr", io.StringIO()):
                code = quality.main([str(path), "--judge", fake("random"), "--jobs", "2", "--json", str(saved)])
                self.assertEqual(quality.main([str(path), "--judge", fake("random"), "--jobs", "0"]), 2)
            self.assertEqual(code, 0)
            moves = quality.load_judged(saved)
        self.assertEqual([(m.game, m.move) for m in moves], [(m.game, m.move) for m in every])

    def test_the_gap_to_the_opponent_is_taken_game_by_game(self):
        def moves(game: int, gpu: list[int], cpu: list[int]) -> list[quality.JudgedMove]:
            return [quality.JudgedMove("gpu", 1, x, 0, "", "", "", None, game) for x in gpu] + [
                quality.JudgedMove("cpu", 1, x, 0, "", "", "", None, game) for x in cpu
            ]

        # Game 1: gpu 20 a move, cpu 10 (gap +10); game 2: gpu 0, cpu 10 (gap -10) over four
        # moves, which a mean over all moves would weigh double.
        judged = moves(1, [20], [10]) + moves(2, [0, 0, 0, 0], [10, 10])
        self.assertEqual(
            quality.engine_gap(judged, "gpu"), "gpu minus cpu: +0.0 cp a move [-19.6, +19.6] (95%, over 2 games' means)"
        )
        self.assertTrue(quality.engine_gap(judged, "cpu").startswith("cpu minus gpu: +0.0"))
        # A game where one of them did not move is left out; an unknown engine, or a third one, gives none.
        self.assertIn("over 2 games'", quality.engine_gap(judged + moves(3, [50], []), "gpu"))
        self.assertIsNone(quality.engine_gap(judged, "x"))
        self.assertIsNone(quality.engine_gap(judged + [quality.JudgedMove("sf", 1, 0, 0, "", "", "", None, 1)], "gpu"))

    def test_judged_files_pooled_keep_their_games_apart(self):
        def move(engine: str, loss: int, game: int) -> dict:
            return dataclasses.asdict(quality.JudgedMove(engine, 1, loss, 0, "", "", "", None, game))

        # File a: game 1, gpu 20 against cpu 10 (+10). File b: its own game 1, gpu 0 against cpu 10
        # (-10), and game 2, gpu 30 against cpu 0 (+30). Pooled, three games, not two.
        a = {"moves": [move("gpu", 20, 1), move("cpu", 10, 1)]}
        b = {"moves": [move("gpu", 0, 1), move("cpu", 10, 1), move("gpu", 30, 2), move("cpu", 0, 2)]}
        with tempfile.TemporaryDirectory() as tmp:
            paths = [Path(tmp) / "a.json", Path(tmp) / "b.json"]
            for path, saved in zip(paths, (a, b)):
                path.write_text(json.dumps(saved))
            pooled = quality.pool_judged(paths)
            self.assertEqual(len({m.game for m in pooled}), 3)
            out = io.StringIO()
            with unittest.mock.patch("sys.stdout", out):
                self.assertEqual(quality.main(["--judged", *map(str, paths), "--gap", "gpu"]), 0)
            with unittest.mock.patch("sys.stderr", io.StringIO()):
                self.assertEqual(quality.main(["--judged", str(paths[0]), "--judge", "x"]), 2)
                self.assertEqual(quality.main([str(paths[0])]), 2)
                self.assertEqual(quality.main(["--judged", str(Path(tmp) / "none.json")]), 2)
        self.assertIn("pooled from 2 files", out.getvalue())
        self.assertIn("gpu minus cpu: +10.0 cp a move", out.getvalue())
        self.assertIn("over 3 games' means", out.getvalue())

    def test_the_judged_moves_are_kept_for_the_other_tools(self):
        pgn = '[White "a"]\n[Black "b"]\n\n1. e4 {+0.10/5 0.01s} e5 {-0.10/6 0.01s} *\n'
        with tempfile.TemporaryDirectory() as tmp:
            path, saved = Path(tmp) / "g.pgn", Path(tmp) / "moves.json"
            path.write_text(pgn)
            with unittest.mock.patch("sys.stdout", io.StringIO()), unittest.mock.patch("sys.stderr", io.StringIO()):
                code = quality.main([str(path), "--judge", fake("random"), "--json", str(saved)])
            self.assertEqual(code, 0)
            moves = quality.load_judged(saved)
            out = io.StringIO()
            with unittest.mock.patch("sys.stdout", out), unittest.mock.patch("sys.stderr", io.StringIO()):
                quality.main([str(path), "--judge", fake("random"), "--gap", "a"])
        self.assertEqual([(m.engine, m.move, m.comment) for m in moves], [("a", "e2e4", "+0.10/5 0.01s"), ("b", "e7e5", "-0.10/6 0.01s")])
        self.assertEqual([m.game for m in moves], [1, 1])
        self.assertIn("a minus b: +0.0 cp a move", out.getvalue())


class _Referee:
    """A stand-in for a UCI engine that plays one move, as SimpleEngine.play would."""

    def __init__(self, move: str, depth: int = 9):
        self.move = move
        self.depth = depth  # what its info reports
        self.limits: list[chess.engine.Limit] = []
        self.boards: list[chess.Board] = []
        self.games: list[object] = []

    def play(self, board, limit, game=None, info=None):
        self.limits.append(limit)
        self.boards.append(board.copy())
        self.games.append(game)
        return chess.engine.PlayResult(chess.Move.from_uci(self.move), None, {"depth": self.depth})


class _Judge:
    """A stand-in judge valuing each position by a table of FENs (White's view)."""

    def __init__(self, values: dict[str, int], default: int | None = None):
        self.values = values
        self.default = default  # the value of the FENs not in the table (None: an error)
        self.asked: list[str] = []
        self.games: list[object] = []

    def analyse(self, board, limit, game=None):
        self.asked.append(board.fen())
        self.games.append(game)
        value = self.values[board.fen()] if self.default is None else self.values.get(board.fen(), self.default)
        return {"score": chess.engine.PovScore(chess.engine.Cp(value), chess.WHITE)}


class BlundersTest(unittest.TestCase):
    FEN = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"

    def blunder(self, comment: str) -> quality.JudgedMove:
        # Black to move, valued -20 before; Kd7 lost 300 by the judge.
        return quality.JudgedMove("gpu", 40, 300, -20, self.FEN, "e8d7", comment, "e8e7")

    def test_the_depth_comes_from_the_move_comment(self):
        self.assertEqual(blunders.reported_depth("+0.38/18 0.215s"), 18)
        self.assertEqual(blunders.reported_depth("-M3/7 0.010s"), 7)
        self.assertIsNone(blunders.reported_depth("0.100s"))
        self.assertIsNone(blunders.reported_depth(""))

    def test_the_referee_searches_to_the_reported_depth(self):
        after = chess.Board(self.FEN)
        after.push_uci("e8e7")
        judge = _Judge({after.fen(): 50})  # White's view: +50 is -50 for Black
        referee = _Referee("e8e7")
        checked = blunders.recheck(self.blunder("-0.20/17 0.1s"), "cpu2", referee, judge, 12)
        self.assertEqual(referee.limits[0].depth, 17)
        self.assertEqual((checked.referee, checked.depth, checked.move, checked.loss), ("cpu2", 17, "e8e7", 30))

    def test_the_same_move_keeps_its_loss_and_no_depth_no_search(self):
        referee = _Referee("e8d7")
        checked = blunders.recheck(self.blunder("-0.20/17 0.1s"), "r", referee, _Judge({}), 12)
        self.assertEqual((checked.move, checked.loss), ("e8d7", 300))
        self.assertIsNone(blunders.recheck(self.blunder("0.1s"), "r", referee, _Judge({}), 12))

    def test_the_summary_counts_the_same_moves(self):
        b = self.blunder("-0.20/17 0.1s")
        rechecks = [blunders.Recheck(b, "r", 17, "e8d7", 300), blunders.Recheck(b, "r", 17, "e8e7", 100)]
        line = blunders.summary("gpu", "r", [b, b, b], rechecks)
        self.assertIn("gpu, r: 3 blunders, 2 searched again", line)
        self.assertIn("same move in 1; mean loss 300 cp, the referee's 200 cp", line)
        self.assertIn("none searched again", blunders.summary("cpu", "r", [b], []))

    # A game of four plies at 10 s + 0.1 s; the blunder is black's second move, Kd7.
    GAME = (
        '[White "cpu"]\n[Black "gpu"]\n[TimeControl "10+0.1"]\n\n'
        "1. e4 {+0.10/5 1.000s} e5 {-0.10/6 2.000s} 2. Ke2 {+0.00/5 0.500s} Ke7 {-0.10/6 0.250s} "
        "3. Ke1 {+0.00/5 0.5s} Kd6 {-3.00/17 0.1s} *\n"
    )

    def game_blunder(self) -> tuple[quality.JudgedMove, blunders.GameContext]:
        board = chess.Board()
        for move in ("e2e4", "e7e5", "e1e2", "e8e7", "e2e1"):
            board.push_uci(move)
        contexts = blunders.game_contexts(self.GAME)
        blunder = quality.JudgedMove("gpu", 3, 300, 0, board.fen(), "e7d6", "-3.00/17 0.1s", "e7e8")
        return blunder, contexts[(board.fen(), "e7d6")]

    def test_a_games_clocks_are_rebuilt_from_its_comments(self):
        _, context = self.game_blunder()
        self.assertEqual(len(context.board.move_stack), 5)
        self.assertEqual(context.increment, 0.1)
        white, black = context.clocks[5]  # before Kd6: white used 2.0 s, black 2.25 s, 2 + 2 increments
        self.assertAlmostEqual(white, 10 - 2.0 + 0.3)
        self.assertAlmostEqual(black, 10 - 2.25 + 0.2)

    def test_in_the_game_the_referee_first_plays_the_engines_moves_before(self):
        blunder, context = self.game_blunder()
        referee = _Referee("e7d6")
        blunders.recheck(blunder, "r", referee, _Judge({}), 12, context, warm_moves=1)
        # Black's move before (Ke7, ply 3) at the game's clocks, then the blunder to depth 17,
        # both in one game and with the game's moves.
        self.assertEqual([len(b.move_stack) for b in referee.boards], [3, 5])
        self.assertAlmostEqual(referee.limits[0].black_clock, 10 - 2.0 + 0.1)
        self.assertEqual(referee.limits[0].white_inc, 0.1)
        self.assertEqual(referee.limits[1].depth, 17)
        self.assertIs(referee.games[0], referee.games[1])
        self.assertEqual(referee.boards[1].fen(), blunder.fen)

    def test_at_the_games_clock_the_depth_is_the_referees(self):
        blunder, context = self.game_blunder()
        referee = _Referee("e7d6", depth=11)
        checked = blunders.recheck(blunder, "r", referee, _Judge({}), 12, context, warm_moves=0, at_clock=True)
        self.assertEqual(len(referee.boards), 1)  # no moves before, but the game's history
        self.assertEqual(len(referee.boards[0].move_stack), 5)
        self.assertIsNone(referee.limits[0].depth)
        self.assertAlmostEqual(referee.limits[0].black_clock, 10 - 2.25 + 0.2)
        self.assertEqual((checked.depth, checked.move, checked.loss), (11, "e7d6", 300))

    def test_context_needs_the_games(self):
        with unittest.mock.patch("sys.stderr", io.StringIO()) as err:
            self.assertEqual(blunders.main(["--blunders", "b.json", "--context", "2", "--judge", "x", "--referee", "y=z"]), 2)
            self.assertEqual(blunders.main(["g.pgn", "--limit", "clock", "--judge", "x", "--referee", "y=z"]), 2)
        self.assertIn("--context needs the games' PGNs", err.getvalue())
        self.assertIn("--limit clock needs --context", err.getvalue())

    def test_referees_by_name(self):
        self.assertEqual(
            blunders.referee_specs(["a=kogge --backend cpu", "b=x"], ["a:Threads=2", "a:Hash=64"]),
            {"a": ("kogge --backend cpu", {"Threads": "2", "Hash": "64"}), "b": ("x", {})},
        )
        self.assertIn("NAME=COMMAND", blunders.referee_specs(["kogge"], []))
        self.assertIn("NAME:Option=Value", blunders.referee_specs(["a=x"], ["b:Threads=2"]))
        self.assertIn("NAME:Option=Value", blunders.referee_specs(["a=x"], ["Threads=2"]))

    def test_a_match_without_blunders(self):
        pgn = '[White "a"]\n[Black "b"]\n\n1. e4 {+0.10/5 0.01s} e5 {-0.10/5 0.01s} *\n'
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "g.pgn"
            path.write_text(pgn)
            out = io.StringIO()
            with unittest.mock.patch("sys.stdout", out):
                code = blunders.main([str(path), "--judge", fake("random"), "--referee", "f=" + fake("random")])
        self.assertEqual(code, 0)
        self.assertIn("blunders lose 150 cp or more", out.getvalue())
        self.assertNotIn("a:", out.getvalue())

    def test_blunders_of_an_earlier_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            saved = Path(tmp) / "b.json"
            b = self.blunder("-0.20/17 0.1s")
            small = quality.JudgedMove("cpu", 41, 100, 0, self.FEN, "e8f8", "-0.00/9 0.1s", None)
            saved.write_text(json.dumps({"blunders": [dataclasses.asdict(b), dataclasses.asdict(small)]}))
            out, again = io.StringIO(), Path(tmp) / "again.json"
            with unittest.mock.patch("sys.stdout", out):
                code = blunders.main(
                    ["--blunders", str(saved), "--judge", fake("random"), "--referee", "f=" + fake("random"),
                     "--json", str(again)]
                )
            self.assertEqual(code, 0)
            # The fake referee plays a random move: the fake judge values every position at 0.
            self.assertIn("gpu, f: 1 blunders, 1 searched again", out.getvalue())
            self.assertNotIn("cpu", out.getvalue())  # 100 cp is below the 150 of a blunder
            kept = json.loads(again.read_text())
            self.assertEqual([x["move"] for x in kept["blunders"]], ["e8d7"])
            self.assertEqual(kept["rechecks"][0]["depth"], 17)
        with unittest.mock.patch("sys.stderr", io.StringIO()):
            self.assertEqual(blunders.main(["--judge", "x", "--referee", "y=z"]), 2)

    def test_a_bad_referee_option_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "g.pgn"
            path.write_text("")
            err = io.StringIO()
            with unittest.mock.patch("sys.stderr", err):
                code = blunders.main([str(path), "--judge", "x", "--referee", "y=z", "--referee-option", "y:Threads"])
        self.assertEqual(code, 2)
        self.assertIn("Option=Value", err.getvalue())


class OpeningMovesTest(unittest.TestCase):
    def test_rebuilt_openings_reach_the_positions(self):
        fens = [
            # Black has castled: two pieces placed by one move.
            "rnbq1rk1/pppp1ppp/5n2/4p3/1bP5/2NP3P/PP2PPP1/R1BQKBNR w KQ - 1 5",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        ]
        goals = [chess.Board(fen) for fen in fens]
        rebuilt, missed = opening_moves.openings_from_start(goals)
        self.assertEqual(missed, [])
        for goal, board in zip(goals, rebuilt):
            self.assertEqual(board.root(), chess.Board())
            self.assertEqual(board.board_fen(), goal.board_fen())
            self.assertEqual(board.turn, goal.turn)
            self.assertEqual(board.castling_rights, goal.castling_rights)

    def test_an_unreachable_position_is_left_out(self):
        # Four white queens cannot appear in 8 plies.
        goal = chess.Board("rnbqkbnr/pppppppp/8/8/8/8/QQQQ4/4K3 w kq - 0 5")
        with self.assertRaises(ValueError):
            opening_moves.openings_from_start([goal])


class EndToEndTest(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.tmp = Path(self.directory.name)
        (self.tmp / "openings.epd").write_text(OPENINGS + "\n")

    def tearDown(self):
        self.directory.cleanup()

    def run_match(self, engine1: str, engine2: str, *args: str):
        """Runs match.py; returns (exit status, stdout, JSON summary, PGN games)."""
        command = [
            sys.executable, str(MATCH), "--engine1", engine1, "--engine2", engine2,
            "--openings", str(self.tmp / "openings.epd"),
            "--json", str(self.tmp / "summary.json"), "--pgn", str(self.tmp / "games.pgn"),
            *args,
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        self.assertNotIn("Traceback", done.stderr)
        self.stderr = done.stderr
        summary = json.loads((self.tmp / "summary.json").read_text())
        pgn = io.StringIO((self.tmp / "games.pgn").read_text())
        played = []
        while (game := chess.pgn.read_game(pgn)) is not None:
            self.assertEqual(game.errors, [])  # every move parsed and legal
            played.append(game)
        self.assertEqual(len(played), summary["games"])
        return done.returncode, done.stdout, summary, played

    def assert_ended_on_third_move(self, played, culprit: str):
        """The fake engines misbehave on their third move: ply 5 as Black, ply 4 as White (the
        faulty move itself is not in the game)."""
        for game in played:
            plies = len(game.end().board().move_stack)
            self.assertEqual(plies, 5 if game.headers["Black"] == culprit else 4)

    def assert_faults(self, summary, engine: str, kind: str, count: int):
        for name, faults in summary["faults"].items():
            for fault_kind, n in faults.items():
                expected = count if (name, fault_kind) == (engine, kind) else 0
                self.assertEqual(n, expected, f"{name} {fault_kind}")

    def test_a_debug_log_names_each_engines_pid(self):
        status, _, _, played = self.run_match(
            fake("random"), fake("random"), "--name1", "a", "--name2", "b", "--tc", "10+0.1",
            "--games", "2", "--debug",
        )
        self.assertEqual(status, 0)
        engines = iterations.read_log(self.stderr.splitlines(), [])
        self.assertEqual(sorted(engines), ["a", "b"])
        # Every move of both games was a search of one line (the fake's depth 1).
        moves = sum(len(game.end().board().move_stack) for game in played)
        self.assertEqual(sum(len(s) for s in engines.values()), moves)
        self.assertTrue(all(iterations.ending(s) == "only its first depth" for s in engines["a"]))

    def test_random_engines_play_complete_legal_games(self):
        status, stdout, summary, played = self.run_match(
            fake("random"), fake("random"), "--tc", "10+0.1", "--concurrency", "2",
            "--fail-on-errors",
        )
        self.assertEqual(status, 0)
        self.assertEqual(summary["games"], 4)  # default: 2 x 2 openings
        self.assertEqual(summary["wins"] + summary["draws"] + summary["losses"], 4)
        self.assert_faults(summary, "engine1", "crash", 0)
        self.assertEqual(stdout.count("\nGame "), 4)
        self.assertIn("W/D/L", stdout)
        for game in sorted(played, key=lambda game: int(game.headers["Round"])):
            number = int(game.headers["Round"])
            # Odd games: engine1 White; the pair of an opening swaps colours.
            self.assertEqual(game.headers["White"], "fake-random (1)" if number % 2 else
                             "fake-random (2)")
            self.assertEqual(game.headers["OpeningIndex"], str((number - 1) // 2))
            board = game.end().board()
            result = game.headers["Result"]
            ending = games.rules_ending(board)
            if ending is None:  # only the ply cap may end a game the rules do not
                self.assertEqual(len(board.move_stack), 400)
                self.assertEqual(game.headers["Termination"], "adjudication")
                self.assertEqual(result, "1/2-1/2")
            else:
                self.assertEqual(ending[0], result)

    def test_more_games_than_openings_say_that_openings_repeat(self):
        status, stdout, summary, played = self.run_match(
            fake("random"), fake("random"), "--tc", "10+0.1", "--games", "5",
        )
        self.assertEqual(status, 0)
        self.assertIn("games 5 on replay the openings", stdout)
        self.assertEqual(played[-1].headers["OpeningIndex"], "0")
        _, stdout, _, _ = self.run_match(fake("random"), fake("random"), "--tc", "10+0.1",
                                         "--games", "4")
        self.assertNotIn("replay", stdout)

    def test_illegal_move_loses_and_is_reported(self):
        status, stdout, summary, played = self.run_match(
            fake("random"), fake("illegal"), "--tc", "10+0.1", "--games", "2",
            "--fail-on-errors",
        )
        self.assertEqual(status, 0)  # engine2's faults do not fail the run
        self.assertEqual((summary["wins"], summary["draws"], summary["losses"]), (2, 0, 0))
        self.assert_faults(summary, "engine2", "illegal_move", 2)
        self.assertEqual(stdout.count("FAULT game"), 2)
        self.assertIn("illegal_move", stdout)
        self.assertTrue(all(game.headers["Termination"] == "rules infraction" for game in played))
        self.assert_ended_on_third_move(played, "fake-illegal")

    def test_crash_loses_is_reported_and_the_engine_is_restarted(self):
        status, stdout, summary, played = self.run_match(
            fake("crash"), fake("random"), "--tc", "10+0.1", "--games", "3",
            "--fail-on-errors",
        )
        self.assertEqual(status, 1)  # engine1 faulted
        # Every game reaches the crash on move 3, so the engine was started anew each time.
        self.assertEqual((summary["wins"], summary["draws"], summary["losses"]), (0, 0, 3))
        self.assert_faults(summary, "engine1", "crash", 3)
        self.assertIn("exit code: 3", stdout)
        self.assertTrue(all(game.headers["Termination"] == "abandoned" for game in played))
        self.assert_ended_on_third_move(played, "fake-crash")

    def test_overstepping_the_clock_is_a_time_forfeit(self):
        status, stdout, summary, played = self.run_match(
            fake("random"), fake("slow"), "--tc", "0.3+0", "--games", "2",
        )
        self.assertEqual(status, 0)
        self.assertEqual((summary["wins"], summary["draws"], summary["losses"]), (2, 0, 0))
        self.assert_faults(summary, "engine2", "time_forfeit", 2)
        self.assertTrue(all(game.headers["Termination"] == "time forfeit" for game in played))
        self.assert_ended_on_third_move(played, "fake-slow")
        self.assertIn("on the clock", stdout)

    def test_silent_engine_is_killed_as_hung(self):
        started = time.monotonic()
        status, stdout, summary, played = self.run_match(
            fake("random"), fake("hang"), "--tc", "0.3+0", "--hang-grace", "0.3", "--games", "2",
        )
        # The fake engine sleeps an hour: finishing at all means it was killed.
        self.assertLess(time.monotonic() - started, 30)
        self.assertEqual((summary["wins"], summary["draws"], summary["losses"]), (2, 0, 0))
        self.assert_faults(summary, "engine2", "hang", 2)
        self.assertTrue(all(game.headers["Termination"] == "abandoned" for game in played))
        self.assert_ended_on_third_move(played, "fake-hang")
        self.assertIn("killed", stdout)
        # Killed once its clock (0.3 s less two instant moves), the margin (0.05 s) and the
        # grace (0.3 s) had passed.
        for record in summary["game_results"]:
            waited = float(re.search(r"no move within ([0-9.]+) s", record["fault"]["detail"])[1])
            self.assertTrue(0.45 < waited <= 0.65, waited)

    def test_sprt_stops_once_a_bound_is_crossed(self):
        # With a cap of 5 plies engine2 reaches its illegal third move only as White: the games
        # go draw, win, draw, win... and the LLR for 0 against 200 Elo first passes 2.944 at
        # game 10 (5 wins, 5 draws: 3.449; after 8 games, 2.758).
        status, stdout, summary, played = self.run_match(
            fake("random"), fake("illegal"), "--tc", "10+0.1", "--max-plies", "5",
            "--games", "40", "--sprt", "0", "200", "0.05", "0.05",
        )
        self.assertEqual(status, 0)
        self.assertEqual(summary["games"], 10)
        self.assertEqual((summary["wins"], summary["draws"], summary["losses"]), (5, 5, 0))
        self.assertEqual(summary["sprt"]["decision"], "H1")
        self.assertAlmostEqual(summary["sprt"]["llr"], 3.4492, places=3)
        self.assertIn("H1 accepted", stdout)

    def test_bad_engine_command_fails_fast(self):
        done = subprocess.run(
            [sys.executable, str(MATCH), "--engine1", str(self.tmp / "missing"),
             "--engine2", fake("random"), "--tc", "1+0", "--openings",
             str(self.tmp / "openings.epd")],
            capture_output=True, text=True, timeout=30,
        )
        self.assertEqual(done.returncode, 2)
        self.assertIn("engine1", done.stderr)



class GuardTest(unittest.TestCase):
    def test_the_entry_guards_searches_and_where_they_ended(self):
        line = iterations.Line
        said = "depth 18 from the table's entry not done by 1x the soft limit: searching depth 15 instead"
        old = "first iteration at depth 12 not done by the guard: depth 9"
        searches = [
            iterations.Search("1", (), [line(15, "exact", 90, ())], messages=["other", said]),
            iterations.Search("1", (), [line(9, "exact", 50, ()), line(10, "exact", 70, ())], messages=[old]),
            iterations.Search("1", (), [line(15, "upper", 90, ())], messages=[said]),
            iterations.Search("1", (), [line(18, "exact", 20, ())], messages=["depth 18 from elsewhere"]),
        ]
        self.assertEqual([iterations.guard_depths(s) for s in searches], [(18, 15), (12, 9), (18, 15), None])
        self.assertEqual(iterations.guarded(searches),
                         "fired in 3/4 (75%); deepest completed depth against the entry's: -3 1, -2 1, none 1")
        self.assertEqual(iterations.guarded(searches[3:]), "fired in 0/1")
        self.assertIn("  the entry guard: fired in 3/4 (75%)", iterations.report("g", searches))

    def test_when_the_retreat_s_depths_completed(self):
        # A soft limit of 100 ms (_timed_search). One guarded search completes the retreat's
        # depth 15 at 60 ms and stops 1 ms later; another completes 15 at 70 ms and 16 at 76 ms;
        # a third said nothing and is left out.
        line = iterations.Line
        said = "depth 18 from the table's entry not done by 1x the soft limit: searching depth 15 instead"
        stopped = _timed_search(61, line(15, "exact", 60, ()))
        went_on = _timed_search(80, line(15, "exact", 70, ()), line(16, "exact", 76, ()))
        stopped.messages = went_on.messages = [said]
        other = _timed_search(50, line(15, "exact", 40, ()))
        self.assertEqual(
            iterations.retreat_timing([stopped, went_on, other]),
            "the retreat's depth done at 0.65 (median, 2 searches), the next 0.06 later (1); "
            "ended at the retreat's depth 1/2 (50%), stopping 0.01 after it (median)",
        )
        self.assertEqual(iterations.retreat_timing([other]), "-")


class AgainstBeforeTest(unittest.TestCase):
    def test_depth_against_the_search_before_by_reply_and_first_window(self):
        line, search = iterations.Line, iterations.Search
        # The search two plies before completed depth 18, playing e2e4 and expecting e7e5.
        before = search("1", (), [line(18, "exact", 50, ("e2e4", "e7e5"))])
        expected = search("1", ("e2e4", "e7e5"), [line(17, "exact", 5, ()), line(19, "exact", 90, ())], before=before)
        # After c7c5: a held first window that got to 17; a failure high that completed 14 (4
        # short); a failure low that completed 18; one that completed nothing (left out).
        held = search("1", ("e2e4", "c7c5"), [line(16, "exact", 20, ()), line(17, "exact", 40, ())], before=before)
        high = search("1", ("e2e4", "c7c5"), [line(16, "lower", 20, ()), line(14, "exact", 80, ())], before=before)
        low = search("1", ("e2e4", "c7c5"), [line(16, "upper", 20, ()), line(18, "exact", 80, ())], before=before)
        nothing = search("1", ("e2e4", "c7c5"), [line(16, "upper", 20, ())], before=before)
        # Move 41: past the moves compared.
        late = search("1", ("e2e4", "c7c5") * 40, [line(10, "exact", 20, ())], before=before)
        self.assertEqual(late.number(), 41)
        self.assertEqual(
            iterations.against_before([expected, held, high, low, nothing, late]),
            "expected +1.00 (1), 4 or more short 0/1 (0%); not expected -1.67 (3), 4 or more short 1/3 (33%); "
            "not expected, first window held -1.00 (1), 4 or more short 0/1 (0%); "
            "not expected, first window failed high -4.00 (1), 4 or more short 1/1 (100%); "
            "not expected, first window failed low +0.00 (1), 4 or more short 0/1 (0%)",
        )
        # With no failed first window among them, no split by it.
        self.assertEqual(iterations.against_before([expected, held]),
                         "expected +1.00 (1), 4 or more short 0/1 (0%); not expected -1.00 (1), 4 or more short 0/1 (0%)")
        self.assertEqual(iterations.against_before([before]), "expected -; not expected -")


class ReachTest(unittest.TestCase):
    def test_how_soon_each_depth_against_the_search_before_s_completed(self):
        line = iterations.Line
        # The search before completed depth 18 (e2e4, expecting e7e5); the soft limit is 100 ms.
        before = iterations.Search("1", (), [line(18, "exact", 50, ("e2e4", "e7e5"))])
        def after(reply, *lines):
            return iterations.Search("1", ("e2e4", reply), list(lines), clock_ms=3030, used_ms=90, before=before)
        # After the expected reply: a first depth of 17 at 10 ms (D-4 to D-1 at once), 18 at 40.
        warm = after("e7e5", line(17, "exact", 10, ()), line(18, "exact", 40, ()))
        # After others: 14 at 30 ms, 16 at 80 ms, 17 at 150 ms; and one that completed only 14, at 200 ms.
        cold = after("c7c5", line(14, "exact", 30, ()), line(16, "exact", 80, ()), line(17, "exact", 150, ()))
        late = after("d7d5", line(14, "upper", 20, ()), line(14, "exact", 200, ()))
        self.assertEqual(
            iterations.reach_row([warm, cold, late]),
            "expected (1): D-4 0.10, 1/1 (100%), D-3 0.10, 1/1 (100%), D-2 0.10, 1/1 (100%), "
            "D-1 0.10, 1/1 (100%), D+0 0.40, 1/1 (100%); "
            # 15 and 16 came at 80 ms in one, never in the other: the median of 0.8 and never is never.
            "not expected (2): D-4 1.15, 1/2 (50%), D-3 never, 1/2 (50%), D-2 never, 1/2 (50%), "
            "D-1 never, 0/2 (0%), D+0 never, 0/2 (0%)",
        )
        self.assertEqual(iterations.reach_row([before]), "expected -; not expected -")


class PlyCostTest(unittest.TestCase):
    def test_a_depth_s_cost_against_the_depth_before_s(self):
        def line(depth, ms, nodes, bound="exact", pv=("e7e5", "g1f3")):
            return iterations.Line(depth, bound, ms, pv, nodes=nodes)
        # The search before completed depth 18, playing e2e4 and expecting e7e5.
        before = iterations.Search("1", (), [line(18, 50, 10**6, pv=("e2e4", "e7e5"))])
        def after(reply, *lines):
            return iterations.Search("1", ("e2e4", reply), list(lines), before=before)
        # Expected reply: 17 at 10 ms, 18 at 30 ms (20 ms, 1,000 nodes), 19 at 90 ms (60 ms, 4,000
        # nodes: x3 and x4, at D+1), 20 at 210 ms (120 ms, 8,000: x2 and x2, at D+2).
        warm = after("e7e5", line(17, 10, 1_000), line(18, 30, 2_000), line(19, 90, 6_000), line(20, 210, 14_000))
        # Another reply: 16 at 10 ms, 17 at 20; 18's window failed low (left out, and 19 with it,
        # whose depth before did not hold); then a stopped iteration's one-move line (not a depth).
        cold = after("c7c5", line(16, 10, 1_000), line(17, 20, 2_000), line(18, 25, 2_500, "upper"),
                     line(18, 40, 4_000), line(19, 80, 9_000), line(20, 85, 9_500, pv=("d2d4",)))
        # An iteration under PLY_COST_MIN_MS (1 ms) is left out.
        quick = after("e7e5", line(17, 10, 1_000), line(18, 11, 1_100), line(19, 40, 3_000))
        # A stopped iteration's one-move line after two held depths is no depth 19.
        stopped = after("e7e5", line(17, 10, 1_000), line(18, 30, 2_000), line(19, 35, 2_500, pv=("e2e4",)))
        self.assertEqual(
            iterations.ply_cost_row([warm, cold, quick, stopped]),
            "expected: D+1 time x3.00, nodes x4.00 (1); D+2 or more time x2.00, nodes x2.00 (1); not expected: -",
        )
        self.assertEqual(iterations.ply_cost_row([before]), "expected: -; not expected: -")


class TrimLogTest(unittest.TestCase):
    GUARD = "depth 18 from the table's entry not done by 1x the soft limit: searching depth 15 instead"
    # IterationsTest's log with what a real one has besides: python-chess's other debug lines,
    # currmove and hashfull lines, seldepth, nps and long principal variations, an info string.
    LOG = [
        "DEBUG:asyncio:Using selector: EpollSelector",
        *IterationsTest.LOG[:4],
        _uci(7, ">>", "info string " + GUARD),
        _uci(7, ">>", "info depth 5 seldepth 7 multipv 1 score cp 20 nodes 10 nps 3333 hashfull 1 time 3 "
                      "pv e2e4 e7e5 g1f3 b8c6 f1b5"),
        _uci(7, ">>", "info depth 5 currmove d2d4 currmovenumber 2"),
        "DEBUG:chess.engine:<TimedUciProtocol (pid=7)>: Connection lost (exit code: 0)",
        *IterationsTest.LOG[5:],
    ]

    def test_the_readers_see_the_same_log(self):
        trimmed = list(trim_log.trim(self.LOG))
        self.assertLess(len(trimmed), len(self.LOG))
        self.assertTrue(all(line.endswith("\n") for line in trimmed))
        names = [("c", "Threads=16")]
        whole, cut = iterations.read_log(self.LOG, names), iterations.read_log(trimmed, names)
        self.assertEqual(sorted(whole), sorted(cut))
        for name in whole:
            self.assertEqual(iterations.report(name, whole[name]), iterations.report(name, cut[name]))
        self.assertEqual(cut["g"][0].messages, [self.GUARD])
        # The long line's principal variation cut to the move and the reply it expects.
        self.assertEqual(whole["g"][0].lines[0].pv, ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5"))
        self.assertEqual(cut["g"][0].lines[0], dataclasses.replace(whole["g"][0].lines[0], pv=("e2e4", "e7e5")))

    def test_an_info_line_is_cut_to_what_is_read(self):
        self.assertEqual(
            trim_log.slim_info("info depth 21 seldepth 30 multipv 1 score cp -12 upperbound nodes 99 nps 5 "
                               "hashfull 10 time 1500 pv e7e5 g1f3 b8c6"),
            "info depth 21 score cp -12 nodes 99 upperbound time 1500 pv e7e5 g1f3",
        )
        self.assertEqual(trim_log.slim_info("info depth 3 score mate 2 time 4"), "info depth 3 score mate 2 time 4")


class SearchLossTest(unittest.TestCase):
    # IterationsTest's log, its second search saying something: engine g's three searches are (the
    # clock's soft limit about 32 ms each) one that completed its first depth at 3 ms after no
    # known reply, one after the expected reply at 40 ms (1.25x, late), one after another reply
    # that completed none (late).
    LOG = IterationsTest.LOG[:12] + [_uci(7, ">>", "info string guard: depth 3 instead")] + IterationsTest.LOG[12:]
    START = chess.STARTING_FEN

    def judged(self) -> dict:
        after = chess.Board()
        fens = [self.START]
        for moves in (("e2e4", "e7e5"), ("g1f3", "d7d6")):
            for move in moves:
                after.push_uci(move)
            fens.append(after.fen())
        def judged(engine: str, fen: str, loss: int) -> dict:
            return dataclasses.asdict(quality.JudgedMove(engine, 1, loss, 0, fen, "", "", None))

        moves = [judged("g", fen, loss) for fen, loss in zip(fens, (10, 40, 70))]
        moves.append(judged("c", self.START, 500))  # another engine's
        return {"moves": moves}

    def test_positions_and_messages_are_read(self):
        g = iterations.read_log(self.LOG, [])["g"]
        self.assertEqual([s.messages for s in g], [[], ["guard: depth 3 instead"], []])
        self.assertEqual(search_loss.position_fen(g[0].position), self.START)
        self.assertEqual(search_loss.position_fen("position startpos moves e2e4"),
                         "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        self.assertIsNone(search_loss.position_fen("position startpos moves e2e5"))
        self.assertIsNone(search_loss.position_fen("position fen 8/8 w"))
        self.assertEqual([search_loss.first_bin(s) for s in g], ["up to 0.5x", "up to 2x", "none"])
        self.assertEqual([search_loss.late_first(s, 0.525) for s in g], [False, True, True])
        self.assertEqual([search_loss.late_first(s, 2.0) for s in g], [False, False, True])

    def test_the_rows(self):
        with tempfile.TemporaryDirectory() as tmp:
            log, judged = Path(tmp) / "m.log", Path(tmp) / "j.json"
            log.write_text("\n".join(self.LOG) + "\n")
            judged.write_text(json.dumps(self.judged()))
            out = io.StringIO()
            with unittest.mock.patch("sys.stdout", out):
                code = search_loss.main([f"{log}:{judged}", "--engine", "g", "--message", "guard:"])
            self.assertEqual(code, 0)
            text = out.getvalue()
            self.assertIn("g: 3 of 3 searches with a judged move", text)
            self.assertIn("  expected: 1 moves, mean loss 40.0 cp", text)
            self.assertIn("  not expected: 1 moves, mean loss 70.0 cp", text)
            self.assertIn("  unknown: 1 moves, mean loss 10.0 cp", text)
            self.assertIn("  up to 1x: none", text)
            self.assertIn("  none: 1 moves, mean loss 70.0 cp", text)
            self.assertNotIn("not timed", text)
            self.assertIn("  late: 2 moves, mean loss 55.0 cp [25.6, 84.4], 1 over 50", text)
            self.assertIn("  the rest: 1 moves, mean loss 10.0 cp", text)
            self.assertIn("  said: 1 moves, mean loss 40.0 cp", text)
            self.assertIn("  not said: 2 moves, mean loss 40.0 cp", text)
            with unittest.mock.patch("sys.stderr", io.StringIO()) as err:
                self.assertEqual(search_loss.main([f"{log}:{judged}", "--engine", "x"]), 1)
                self.assertEqual(search_loss.main([f"{log}:{Path(tmp) / 'missing.json'}"]), 1)
            self.assertIn("no search of x matched a judged move", err.getvalue())


class StabilityTest(unittest.TestCase):
    FEN = BlundersTest.FEN

    def played(self, number: int = 40, before: int = -20, engine: str = "gpu") -> quality.JudgedMove:
        return quality.JudgedMove(engine, number, 300, before, self.FEN, "e8d7", "-0.20/17 0.1s", "e8e7")

    def test_the_vote_and_the_agreement(self):
        p = self.played()
        searches = [blunders.Recheck(p, "r", 17, m, loss) for m, loss in (("e8e7", 0), ("e8d7", 300), ("e8e7", 0))]
        position = stability.Stability(p, searches)
        self.assertEqual(position.vote().move, "e8e7")
        self.assertAlmostEqual(position.agreement(), 1 / 3)
        tie = stability.Stability(p, searches[1:])
        self.assertEqual(tie.vote().move, "e8d7")  # the first played
        self.assertEqual(stability.Stability(p, searches[:1]).agreement(), 1.0)

    def test_the_sample_keeps_the_engines_undecided_moves_in_order(self):
        moves = [self.played(n, before) for n, before in ((5, 0), (12, 0), (20, 400), (30, -250), (41, 10))]
        moves.append(self.played(25, 0, engine="cpu"))
        chosen = stability.sample_moves(moves, "gpu", 10, 1, 10, 300)
        self.assertEqual([m.number for m in chosen], [12, 30, 41])
        two = stability.sample_moves(moves, "gpu", 2, 7, 10, 300)
        self.assertEqual(len(two), 2)
        self.assertEqual(two, stability.sample_moves(moves, "gpu", 2, 7, 10, 300))  # seeded
        self.assertEqual(stability.pieces(self.FEN), 3)
        self.assertEqual(stability.sample_moves(moves, "gpu", 10, 1, 10, 300, max_pieces=2), [])
        self.assertEqual(len(stability.sample_moves(moves, "gpu", 10, 1, 10, 300, max_pieces=3)), 3)
        self.assertEqual(stability.sample_moves(moves, "gpu", 10, 1, 10, 300, max_depth=16), [])  # reported 17

    def test_the_summary(self):
        p = self.played()
        searches = [blunders.Recheck(p, "r", 16, m, loss) for m, loss in (("e8e7", 0), ("e8d7", 300), ("e8e7", 0))]
        text = stability.summary("r", [stability.Stability(p, searches)] * 2)
        self.assertIn("r: 2 positions, 6 searches (depth 16.0); the game's move played again in 2 (33%)", text)
        self.assertIn("two searches agreed 33%", text)
        self.assertIn("the game's moves 300.0 cp, a search's 100.0 cp, the vote's 0.0 cp (vote - searches -100.0", text)
        self.assertIn("no position searched", stability.summary("r", []))

    def test_a_run_with_a_fake_referee(self):
        with tempfile.TemporaryDirectory() as tmp:
            saved, out_json = Path(tmp) / "m.json", Path(tmp) / "s.json"
            saved.write_text(json.dumps({"moves": [dataclasses.asdict(self.played())]}))
            out = io.StringIO()
            with unittest.mock.patch("sys.stdout", out):
                code = stability.main(
                    ["--moves", str(saved), "--engine", "gpu", "--judge", fake("random"), "--referee",
                     "f=" + fake("random"), "--repeat", "2", "--json", str(out_json)]
                )
            self.assertEqual(code, 0)
            self.assertIn("gpu: 1 moves sampled", out.getvalue())
            self.assertIn("f: 1 positions, 2 searches (depth 17.0)", out.getvalue())
            self.assertEqual(len(json.loads(out_json.read_text())["f"][0]["searches"]), 2)
            with unittest.mock.patch("sys.stderr", io.StringIO()) as err:
                self.assertEqual(stability.main(["--moves", str(saved), "--engine", "cpu", "--judge", "x",
                                                 "--referee", "y=z"]), 1)
                self.assertEqual(stability.main(["--moves", str(saved), "--engine", "gpu", "--judge", "x",
                                                 "--referee", "y=z", "--context", "2"]), 2)
            self.assertIn("no moves of cpu", err.getvalue())
            self.assertIn("--context needs the games' PGNs", err.getvalue())


if __name__ == "__main__":
    unittest.main()
