#!/usr/bin/env python3
"""How good the moves of engines searching the same positions are, judged by a stronger engine,
and position by position how two of them differ.

A match of a few dozen games gives an Elo figure with an interval of ±100 or more, and judging
a match's moves (tools/match/quality.py) compares engines on different positions: each played
its own game. Here every engine searched the same positions, those of real games replayed in
order with the table kept and a clock each move (`bench/game-depths.py --clock ... --json`), so
two engines' moves can be compared where they differ, and where they agree the difference is
exactly nothing. The thirty-fourth session used it for what a GPU depth is worth against 16 CPU
threads at equal time, and for parallel-search variants.

It is a coarse instrument: a few hundred positions of games someone else played sample neither
the rare large errors that decide games nor the positions an engine's own moves lead to. In the
seventy-fifth session a variant 4.5 plies shallower, which lost 1/10/49 (-382 Elo) in 60 games
and whose own games judged 9.4 cp a move worse, judged no worse here over 147 replayed positions
(docs/PERFORMANCE.md). A difference it finds is worth checking in games; its finding none is
not evidence of none.

The judge (a UCI engine, one thread, its table cleared before each position so that a value
never depends on the order of the work) values each position at a fixed depth, and each move
played there that is not its own best with `searchmoves`. A move's loss is the best value less
the move's, never below zero; values are capped at ±CAP centipawns (a mate counts as the cap),
and positions valued beyond ±DECIDED are left out, as tools/match/quality.py does.

    PYTHONPATH=... bench/move-quality.py base.json new.json [...] --judge /path/to/stockfish \\
        [--depth 14] [--jobs 2] [--cache judged.json]

Each file holds one or more engines' searches (named by their `engine` field; the same name in
two files is told apart by the file's name). Prints each engine's mean loss with a 95% interval
and its count of moves losing 50 and 100 cp or more, by part of the game; then each engine
against the first, over the positions both searched: how many moves differ, the mean value
gained a position with its 95% interval, and how many differing moves were better or worse by
more than 10 cp. `--cache` keeps the judge's values between runs (the positions of one PGN's
replays are the same for every engine). Needs python-chess.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from uci_specs import PARTS, mean_interval, part_of

CAP = 1000
DECIDED = 800
# What a differing move must gain or lose to count as better or worse.
MARGIN = 10

# A judge: the value of a position's best move (move None) or of one move, in centipawns from
# the side to move, with the judge's best move.
Judge = Callable[[str, str | None], tuple[int, str | None]]


def runs_by_engine(files: list[tuple[str, list[dict]]]) -> dict[str, dict[tuple, dict]]:
    """Each engine's searches keyed by (game, position), from (file name, records) pairs; an
    engine name met in an earlier file is told apart by this file's name."""
    engines: dict[str, dict[tuple, dict]] = {}
    for path, records in files:
        label = os.path.splitext(os.path.basename(path))[0]
        names = dict.fromkeys(r["engine"] for r in records)
        for name in names:
            key = name if name not in engines else f"{label}:{name}"
            engines[key] = {(r["game"], r["fen"]): r for r in records
                            if r["engine"] == name and r.get("move")}
    return engines


def capped(value: int) -> int:
    return max(-CAP, min(CAP, value))


class Judgements:
    """The judge's values, asked once for each position and each move played there."""

    def __init__(self, judge: Judge, cache: dict | None = None):
        self.judge = judge
        self.values: dict[str, list] = cache if cache is not None else {}
        self.lock = threading.Lock()

    def judge_position(self, fen: str, moves: set[str]) -> None:
        best_key = f"{fen}|"
        if best_key not in self.values:
            value, best = self.judge(fen, None)
            with self.lock:
                self.values[best_key] = [capped(value), best]
        best_value, best_move = self.values[best_key]
        for move in sorted(moves):
            key = f"{fen}|{move}"
            if key in self.values:
                continue
            value = best_value if move == best_move else capped(self.judge(fen, move)[0])
            with self.lock:
                self.values[key] = [value, None]

    def best(self, fen: str) -> int:
        return self.values[f"{fen}|"][0]

    def value(self, fen: str, move: str) -> int:
        return self.values[f"{fen}|{move}"][0]

    def loss(self, fen: str, move: str) -> int:
        return max(0, self.best(fen) - self.value(fen, move))

    def decided(self, fen: str) -> bool:
        return abs(self.best(fen)) > DECIDED


def judge_all(engines: dict[str, dict[tuple, dict]], judgements: Judgements, jobs: int) -> None:
    """Every position any engine searched, with every move played there, judged on `jobs`
    threads (an `EngineJudge` runs one process for each)."""
    moves: dict[str, set[str]] = {}
    for searches in engines.values():
        for (_, fen), r in searches.items():
            moves.setdefault(fen, set()).add(r["move"])
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(lambda item: judgements.judge_position(*item), moves.items()))


def losses(searches: dict[tuple, dict], judgements: Judgements) -> list[dict]:
    """One engine's mean loss, overall and by part of the game (positions not decided)."""
    rows = []
    for part in ("all",) + tuple(name for _, _, name in PARTS):
        mine = [judgements.loss(fen, r["move"]) for (_, fen), r in searches.items()
                if not judgements.decided(fen) and (part == "all" or part_of(r["fullmove"]) == part)]
        if not mine:
            continue
        mean, half = mean_interval(mine)
        rows.append({"part": part, "moves": len(mine), "mean_loss": mean, "half_width": half,
                     "over_50": sum(1 for x in mine if x >= 50),
                     "over_100": sum(1 for x in mine if x >= 100)})
    return rows


def paired(base: dict[tuple, dict], other: dict[tuple, dict], judgements: Judgements) -> dict:
    """`other` against `base` over the positions both searched (not decided): the value each of
    its moves gained over base's (0 where they agree), the moves that differ, and how many of
    those were better or worse by more than MARGIN."""
    gains = []
    differ = better = worse = 0
    for key, r in other.items():
        b = base.get(key)
        fen = key[1]
        if b is None or judgements.decided(fen):
            continue
        gain = judgements.value(fen, r["move"]) - judgements.value(fen, b["move"])
        gains.append(gain)
        if r["move"] != b["move"]:
            differ += 1
            better += gain > MARGIN
            worse += gain < -MARGIN
    mean, half = mean_interval(gains)
    return {"positions": len(gains), "differ": differ, "mean_gain": mean, "half_width": half,
            "better": better, "worse": worse}


class EngineJudge:
    """A UCI engine as the judge: one process for each thread that asks (started on first use),
    one thread of search each, its table cleared before every position."""

    def __init__(self, command: str, depth: int):
        self.command = command
        self.depth = depth
        self.local = threading.local()
        self.engines = []
        self.lock = threading.Lock()

    def __call__(self, fen: str, move: str | None) -> tuple[int, str | None]:
        import chess
        import chess.engine

        if not hasattr(self.local, "engine"):
            self.local.engine = chess.engine.SimpleEngine.popen_uci(self.command)
            self.local.engine.configure({"Threads": 1})
            with self.lock:
                self.engines.append(self.local.engine)
        board = chess.Board(fen)
        root = [chess.Move.from_uci(move)] if move else None
        # A new `game` each time: `ucinewgame`, so no value depends on what was judged before.
        info = self.local.engine.analyse(board, chess.engine.Limit(depth=self.depth),
                                         root_moves=root, game=object())
        value = info["score"].pov(board.turn).score(mate_score=100 * CAP)
        pv = info.get("pv") or []
        return value, pv[0].uci() if pv else None

    def close(self) -> None:
        for engine in self.engines:
            engine.quit()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", help="bench/game-depths.py --json files")
    ap.add_argument("--judge", required=True, help="the judge: a UCI engine's command")
    ap.add_argument("--depth", type=int, default=14, help="the judge's depth (default 14)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="judges at once")
    ap.add_argument("--cache", help="a JSON file of the judge's values, read and written")
    args = ap.parse_args()

    files = []
    for path in args.runs:
        with open(path) as f:
            files.append((path, json.load(f)))
    engines = runs_by_engine(files)
    if not any(engines.values()):
        print("no searches with a position and a move in these files (bench/game-depths.py "
              "--json writes them)", file=sys.stderr)
        return 1
    cache = {}
    if args.cache and os.path.exists(args.cache):
        with open(args.cache) as f:
            cache = json.load(f)
    judge = EngineJudge(args.judge, args.depth)
    judgements = Judgements(judge, cache)
    try:
        judge_all(engines, judgements, args.jobs)
    except (OSError, RuntimeError) as e:
        # A judge that cannot start or dies (python-chess's EngineError is a RuntimeError).
        print(f"the judge failed ({args.judge}): {e}", file=sys.stderr)
        return 1
    finally:
        judge.close()
        if args.cache:
            with open(args.cache, "w") as f:
                json.dump(judgements.values, f)

    print(f"judge: {args.judge}, depth {args.depth}; loss in centipawns, 95% intervals")
    for name, searches in engines.items():
        for row in losses(searches, judgements):
            print(f"{name}: {row['part']}: {row['moves']} moves, mean loss "
                  f"{row['mean_loss']:.1f} ± {row['half_width']:.1f}, "
                  f"{row['over_50']} lost 50 or more, {row['over_100']} 100 or more")
    names = list(engines)
    for name in names[1:]:
        p = paired(engines[names[0]], engines[name], judgements)
        print(f"{name} against {names[0]}: {p['positions']} positions, {p['differ']} moves differ "
              f"({p['better']} better, {p['worse']} worse by more than {MARGIN} cp); value "
              f"{p['mean_gain']:+.1f} ± {p['half_width']:.1f} cp a position")
    return 0


if __name__ == "__main__":
    sys.exit(main())
