"""How deep and how long each engine searched in a match: per engine, the median over its games of
the median depth of its moves in each game's first moves, and its time per move.

Reads the PGN that `match.py --pgn` writes, whose move comments are '+0.31/12 0.104s' (score,
depth, time; see games.move_comment). The GPU matches in docs/STRENGTH.md compare the backends
by this figure, "median depth over each game's first 40 moves" (the game's first 80 plies from
the opening position, 40 of each engine's): the part of a game before its result decides how
long its moves last. Moves without a depth (an engine that reported none) count only for the
time.

    python3 tools/match/depths.py games.pgn [--moves 40]

Prints one line per engine: games, the median of the games' medians (with the smallest and the
largest), moves timed, and the mean and median seconds a move; then the engine's mean depth and
median seconds a move in moves 1-20, 21-40 and 41 on of every game (quality.py's parts: where
the GPU's depth falls behind, docs/STRENGTH.md).
"""

from __future__ import annotations

import argparse
import io
import re
import statistics
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import chess.pgn

from quality import PARTS

# games.move_comment: an optional score with its depth, then the time; the game's last move has
# how the game ended after a comma ("..., threefold repetition").
COMMENT = re.compile(r"^(?:(?:[+-]\d+\.\d+|[+-]M\d+)/(?P<depth>\d+) )?(?P<seconds>\d+(?:\.\d+)?)s(?:, .*)?$")


@dataclass
class EngineDepths:
    """One engine's figures over a match's games."""

    game_medians: list[float] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    # By part of the game (PARTS, by move number): every move's depth and seconds.
    part_depths: list[list[int]] = field(default_factory=lambda: [[] for _ in PARTS])
    part_seconds: list[list[float]] = field(default_factory=lambda: [[] for _ in PARTS])

    def add(self, move_number: int, depth: int | None, seconds: float) -> None:
        self.seconds.append(seconds)
        part = next(i for i, (low, high) in enumerate(PARTS) if low <= move_number <= high)
        self.part_seconds[part].append(seconds)
        if depth is not None:
            self.part_depths[part].append(depth)


def collect(pgn_text: str, moves: int) -> dict[str, EngineDepths]:
    """Each engine's per-game median depth over its first `moves` moves of the game, and the time
    of every move it made, by the names in the White and Black tags."""
    engines: dict[str, EngineDepths] = {}
    for game in iter_games(pgn_text):
        names = (game.headers.get("White", "?"), game.headers.get("Black", "?"))
        depths: tuple[list[int], list[int]] = ([], [])
        board = game.board()
        first = 0 if board.turn == chess.WHITE else 1
        for ply, node in enumerate(game.mainline()):
            mover = (first + ply) % 2
            found = COMMENT.match(node.comment.strip())
            if found:
                depth = int(found["depth"]) if found["depth"] is not None else None
                engines.setdefault(names[mover], EngineDepths()).add(board.fullmove_number, depth, float(found["seconds"]))
                if depth is not None and ply < 2 * moves:
                    depths[mover].append(depth)
            board.push(node.move)
        for side in (0, 1):
            if depths[side]:
                engines.setdefault(names[side], EngineDepths()).game_medians.append(statistics.median(depths[side]))
    return engines


def iter_games(pgn_text: str) -> Iterator[chess.pgn.Game]:
    """The games of a PGN text, in order."""
    handle = io.StringIO(pgn_text)
    while (game := chess.pgn.read_game(handle)) is not None:
        yield game


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def report(engines: dict[str, EngineDepths], moves: int) -> str:
    """One line per engine, by name."""
    span = "the first move" if moves == 1 else f"the first {moves} moves"
    lines = []
    for name, figures in sorted(engines.items()):
        if figures.game_medians:
            medians = figures.game_medians
            depth = (
                f"median depth over {span} {statistics.median(medians):g} "
                f"({min(medians):g} to {max(medians):g}) in {plural(len(medians), 'game')}"
            )
        else:
            depth = "no depths reported"
        timing = (
            f"{plural(len(figures.seconds), 'move')}, {statistics.mean(figures.seconds):.3f} s a move "
            f"(median {statistics.median(figures.seconds):.3f} s)"
            if figures.seconds
            else "no moves timed"
        )
        lines.append(f"{name}: {depth}; {timing}")
        lines.append(f"  {parts_line(figures)}")
    return "\n".join(lines)


def parts_line(figures: EngineDepths) -> str:
    """Mean depth and median seconds in each part of the games, with the moves counted."""

    def each(values: list, show) -> str:
        return " / ".join(show(v) if v else "-" for v in values)

    names = " / ".join(f"{low}-{high}" if high < 10_000 else f"{low} on" for low, high in PARTS)
    return (
        f"moves {names}: mean depth {each(figures.part_depths, lambda v: f'{statistics.mean(v):.1f}')}, "
        f"median {each(figures.part_seconds, lambda v: f'{statistics.median(v):.3f}')} s a move "
        f"({each(figures.part_seconds, lambda v: str(len(v)))} moves)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", type=Path, help="a PGN written by match.py --pgn")
    parser.add_argument("--moves", type=int, default=40, help="each game's first moves counted for depth (default 40)")
    args = parser.parse_args(argv)
    if args.moves < 1:
        parser.error("--moves must be at least 1")
    try:
        text = args.pgn.read_text()
    except OSError as err:
        print(f"depths.py: cannot read {args.pgn}: {err.strerror}", file=sys.stderr)
        return 2
    engines = collect(text, args.moves)
    if not engines:
        print(f"depths.py: no games with timed moves in {args.pgn}", file=sys.stderr)
        return 1
    print(report(engines, args.moves))
    return 0


if __name__ == "__main__":
    sys.exit(main())
