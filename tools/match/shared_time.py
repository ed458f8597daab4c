"""How much longer one engine took to the same depth in one match than in another, on the positions
both matches reached: the way to compare two builds' time to depth in depth-limited games.

Two matches of variants of an engine from the same openings (depth-limited, as `.dev/s88a.sh`
plays them) meet the same positions in their first moves before the games part. Every position
both PGNs hold a move of ENGINE at, searched to the same reported depth, gives one ratio of its
seconds (the mean where a match reached it more than once); the figure is their geometric mean,
SECOND over FIRST. The positions of one opening's games share a table and a line, so the 95%
interval resamples openings (a game's start position, its FEN tag; the OpeningIndex tag counts
from the first opening of a run, so two runs of one match reuse it), not positions: a seeded
percentile bootstrap, so a run repeats. The opponent's own ratio on the same positions is the
control for everything else the two runs did not share (the machine's load, the other processes).

    python3 tools/match/shared_time.py FIRST.pgn SECOND.pgn --engine kogge-gpu [--engine kogge-cpu-16]

The PGNs are `match.py --pgn`'s, whose move comments are '+0.31/16 0.104s' (depths.COMMENT).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from depths import COMMENT, iter_games
from stats import bootstrap_interval


@dataclass
class Visit:
    """Seconds an engine spent on one position to one depth in one match, and its opening."""

    seconds: list[float]
    opening: str


def visits(pgn_text: str, engine: str) -> dict[tuple[str, int], Visit]:
    """Every move of `engine` with a depth and more than no time: the position (its EPD) and the
    depth reported, mapped to the seconds of each time it was searched, and the opening of the
    first game that reached it."""
    found: dict[tuple[str, int], Visit] = {}
    for number, game in enumerate(iter_games(pgn_text), start=1):
        opening = game.headers.get("FEN", f"game {number}")
        names = (game.headers.get("White", "?"), game.headers.get("Black", "?"))
        board = game.board()
        for node in game.mainline():
            mover = names[0] if board.turn else names[1]
            comment = COMMENT.match(node.comment.strip())
            if mover == engine and comment and comment["depth"] is not None:
                seconds = float(comment["seconds"])
                if seconds > 0:
                    key = (board.epd(), int(comment["depth"]))
                    found.setdefault(key, Visit([], opening)).seconds.append(seconds)
            board.push(node.move)
    return found


@dataclass
class SharedTime:
    """The positions both matches reached and the time ratio on them."""

    positions: int
    openings: int
    ratio: float  # geometric mean of second / first
    interval: tuple[float, float] | None  # 95%, openings resampled (None: one opening)


def log_ratios_by_opening(first: dict[tuple[str, int], Visit], second: dict[tuple[str, int], Visit]) -> dict[str, list[float]]:
    """log(second / first) of each shared position's mean seconds, grouped by the first match's
    opening for the position."""
    groups: dict[str, list[float]] = {}
    for key, visit in first.items():
        if key in second:
            ratio = statistics.mean(second[key].seconds) / statistics.mean(visit.seconds)
            groups.setdefault(visit.opening, []).append(math.log(ratio))
    return groups


def mean_of(groups: list[list[float]]) -> float:
    """The mean over every position of the groups (an opening drawn twice counts twice)."""
    return statistics.mean(v for group in groups for v in group)


def shared_time(
    first: dict[tuple[str, int], Visit], second: dict[tuple[str, int], Visit], resamples: int = 1000, seed: int = 1
) -> SharedTime | None:
    """The geometric-mean time ratio over the shared positions, with its interval (None where the
    matches share no position)."""
    groups = log_ratios_by_opening(first, second)
    if not groups:
        return None
    clusters = list(groups.values())
    ratio = math.exp(mean_of(clusters))
    interval = None
    if len(clusters) > 1:
        interval = bootstrap_interval(clusters, lambda drawn: math.exp(mean_of(drawn)), resamples, seed)
    return SharedTime(sum(len(c) for c in clusters), len(clusters), ratio, interval)


def line(engine: str, result: SharedTime | None) -> str:
    if result is None:
        return f"{engine}: no position searched to the same depth in both matches"
    interval = f" [{result.interval[0]:.3f}, {result.interval[1]:.3f}] (95%, openings resampled)" if result.interval else ""
    return (
        f"{engine}: {result.positions} positions in both matches ({result.openings} openings), "
        f"time to the same depth second / first x{result.ratio:.3f}{interval}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", type=Path, help="the first match's PGN (match.py --pgn)")
    parser.add_argument("second", type=Path, help="the second match's PGN")
    parser.add_argument("--engine", action="append", required=True, help="an engine's name in the PGNs (repeatable)")
    args = parser.parse_args(argv)
    texts = []
    for path in (args.first, args.second):
        try:
            texts.append(path.read_text())
        except OSError as err:
            print(f"shared_time.py: cannot read {path}: {err.strerror}", file=sys.stderr)
            return 1
    for engine in args.engine:
        print(line(engine, shared_time(visits(texts[0], engine), visits(texts[1], engine))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
