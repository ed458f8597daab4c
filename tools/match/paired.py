"""Two engines' matches against one opponent, compared game by game on the same openings.

Two matches of a few dozen games each have Elo intervals of ±80 or more, and much of that spread
is the openings': some are lost or drawn whoever plays them. Where both engines played the same
start positions with the same colours against the same opponent, the difference of their scores
game by game varies less than either score, and a paired interval says whether one engine did
better than the other on the same games. (The fifty-fifth session's question: 264 GPU workers
with any finisher and 528 with worker 0 alone, each against 16 CPU threads to depth 16.)

    python3 tools/match/paired.py A/games.pgn B/games.pgn --opponent kogge-cpu-16

A game is matched by its start position (the FEN header, or the standard start) and the colour
the opponent had; a position played more than once with the same colours is paired in order.
Unfinished games ("*") are left out. Prints each engine's W/D/L and Elo on the paired games, and
the mean difference of their scores a game with its 95% interval (normal approximation on the
pairs' differences).

With `--judged FIRST.json SECOND.json` (quality.py --json of each PGN, the same files in the same
order) it also pairs the judged moves: each game's gap, the engine's mean loss a move less the
opponent's, compared game by game on the games both matches played, as the scores are (the
eighty-ninth session: ABDADA's put-off moves reduced by their list place, -2.1 cp a move [-3.9,
-0.3] on 65 pairs at depth 16).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

import chess

from depths import iter_games
from quality import JudgedMove, load_judged
from stats import Z_95, elo_estimate, format_elo

RESULT_FOR_WHITE = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}

# A game's place in a match: its start position and whether the opponent had white.
GameKey = tuple[str, bool]


@dataclass
class EngineGames:
    """One match's games from its engine's side (not the opponent's), by start and colours."""

    engine: str
    scores: dict[GameKey, list[float]]
    # Every game's key in the file's order, unfinished ones as None (quality.py numbers the
    # games of a PGN from 1, all of them).
    order: list[GameKey | None] = field(default_factory=list)


def engine_games(pgn_text: str, opponent: str) -> EngineGames:
    """The scores of the opponent's adversary in each finished game; ValueError if a game lacks
    the opponent or the adversary changes within the file."""
    engine = None
    scores: dict[GameKey, list[float]] = {}
    order: list[GameKey | None] = []
    for game in iter_games(pgn_text):
        white, black = game.headers.get("White", "?"), game.headers.get("Black", "?")
        if opponent not in (white, black):
            raise ValueError(f"a game of {white} and {black} has no {opponent}")
        other = black if white == opponent else white
        if engine is None:
            engine = other
        elif other != engine:
            raise ValueError(f"games of both {engine} and {other} against {opponent}")
        result = RESULT_FOR_WHITE.get(game.headers.get("Result", "*"))
        if result is None:
            order.append(None)
            continue
        opponent_white = white == opponent
        start = game.headers.get("FEN", chess.STARTING_FEN)
        scores.setdefault((start, opponent_white), []).append(1.0 - result if opponent_white else result)
        order.append((start, opponent_white))
    if engine is None:
        raise ValueError("no games")
    return EngineGames(engine, scores, order)


def judged_gaps(games: EngineGames, moves: list[JudgedMove], opponent: str) -> dict[GameKey, list[float | None]]:
    """Each finished game's judged gap (the engine's mean loss a move less the opponent's) by its
    key, in the file's order; None where either side has no judged move. ValueError where the
    judged moves are not of this PGN's games (a game number past its end, another engine)."""
    losses: dict[int, tuple[list[int], list[int]]] = {}
    for move in moves:
        if not 1 <= move.game <= len(games.order):
            raise ValueError(f"judged game {move.game}, where the PGN has {len(games.order)} games")
        if move.engine not in (games.engine, opponent):
            raise ValueError(f"a judged move of {move.engine}, where the PGN has {games.engine} and {opponent}")
        mine, theirs = losses.setdefault(move.game, ([], []))
        (theirs if move.engine == opponent else mine).append(move.loss)
    gaps: dict[GameKey, list[float | None]] = {}
    for number, key in enumerate(games.order, 1):
        if key is None:
            continue
        mine, theirs = losses.get(number, ([], []))
        gap = statistics.mean(mine) - statistics.mean(theirs) if mine and theirs else None
        gaps.setdefault(key, []).append(gap)
    return gaps


def pair(first: EngineGames, second: EngineGames) -> list[tuple[float, float]]:
    """The two engines' scores in the games both played, in the first file's order."""
    return pair_values(first.scores, second.scores)


def pair_values(first: dict[GameKey, list], second: dict[GameKey, list]) -> list[tuple]:
    """The values of the games both files have, matched by key and then in order, in the first
    file's order; a pair with a None in it is left out."""
    pairs = []
    for key, values in first.items():
        for a, b in zip(values, second.get(key, [])):
            if a is not None and b is not None:
                pairs.append((a, b))
    return pairs


def mean_difference(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    """The mean of first less second over the pairs, and its 95% half-width (normal)."""
    differences = [a - b for a, b in pairs]
    half = Z_95 * statistics.stdev(differences) / math.sqrt(len(pairs)) if len(pairs) > 1 else math.inf
    return statistics.mean(differences), half


def wdl(scores: list[float]) -> tuple[int, int, int]:
    return scores.count(1.0), scores.count(0.5), scores.count(0.0)


def report(first: EngineGames, second: EngineGames, opponent: str) -> str:
    pairs = pair(first, second)
    if not pairs:
        return f"no game of {first.engine} against {opponent} has a pair in {second.engine}'s"
    lines = [f"{len(pairs)} paired games against {opponent}"]
    for name, scores in ((first.engine, [a for a, _ in pairs]), (second.engine, [b for _, b in pairs])):
        wins, draws, losses = wdl(scores)
        estimate = elo_estimate(wins, draws, losses)
        lines.append(
            f"{name}: W/D/L {wins}/{draws}/{losses}, score {100 * estimate.score:.1f}%, "
            f"Elo {format_elo(estimate.elo)} [{format_elo(estimate.elo_low)}, {format_elo(estimate.elo_high)}]"
        )
    differences = [a - b for a, b in pairs]
    mean, half = mean_difference(pairs)
    lines.append(
        f"{first.engine} minus {second.engine}: {100 * mean:+.1f} points a game "
        f"[{100 * max(mean - half, -1.0):+.1f}, {100 * min(mean + half, 1.0):+.1f}] (95%, paired); "
        f"{sum(d > 0 for d in differences)} games better, {sum(d < 0 for d in differences)} worse"
    )
    return "\n".join(lines)


def report_judged(
    first: EngineGames, second: EngineGames, gaps: tuple[dict[GameKey, list[float | None]], ...]
) -> str:
    pairs = pair_values(gaps[0], gaps[1])
    if not pairs:
        return "judged: no paired game has both engines' moves judged in both files"
    mean, half = mean_difference(pairs)
    return (
        f"judged gap to the opponent, cp a move, on {len(pairs)} paired games: "
        f"{first.engine} {statistics.mean(a for a, _ in pairs):+.1f}, "
        f"{second.engine} {statistics.mean(b for _, b in pairs):+.1f}; "
        f"{first.engine} minus {second.engine}: {mean:+.1f} [{mean - half:+.1f}, {mean + half:+.1f}] "
        f"(95%, paired)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", type=Path, help="a PGN of match.py --pgn")
    parser.add_argument("second", type=Path, help="another, against the same opponent")
    parser.add_argument("--opponent", required=True, help="the opponent's name in both PGNs")
    parser.add_argument(
        "--judged", nargs=2, type=Path, metavar=("FIRST_JSON", "SECOND_JSON"),
        help="quality.py --json of each PGN: also pair the games' judged gaps",
    )
    args = parser.parse_args(argv)
    matches = []
    gaps = []
    for k, path in enumerate((args.first, args.second)):
        try:
            matches.append(engine_games(path.read_text(), args.opponent))
            if args.judged:
                path = args.judged[k]
                gaps.append(judged_gaps(matches[-1], load_judged(path), args.opponent))
        except OSError as err:
            print(f"paired.py: cannot read {path}: {err.strerror}", file=sys.stderr)
            return 1
        except (ValueError, TypeError) as err:
            print(f"paired.py: {path}: {err}", file=sys.stderr)
            return 1
    if matches[0].engine == matches[1].engine:
        # The same engine name in both (e.g. kogge-gpu with other options): told apart by file.
        for games, path in zip(matches, (args.first, args.second)):
            games.engine = f"{games.engine} ({path})"
    print(report(*matches, args.opponent))
    if args.judged:
        print(report_judged(*matches, tuple(gaps)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
