"""What each engine's moves lost by how deep it searched them and by part of the game: its
judged moves (quality.py --json) grouped by move number (ten moves a band) and by reported
depth.

The sixty-fifth session (docs/STRENGTH.md) asked where the GPU loses at 10 s + 0.1 s when its
mean depth is 16 threads': equal means hid the spread. Where the clock leaves a fifth of a second
a move, a quarter of the GPU's moves ended at depth 16 or less and lost far more than its deeper
ones, while at the same depth the two engines' moves lost alike. This prints the figures that
showed it: per band, each engine's mean depth, mean seconds, mean loss and share of shallow
moves; per depth, each engine's mean loss and moves.

    python3 tools/match/depth_loss.py moves.json [more.json ...] [--shallow 16] [--last-move 60] \
        [--gap ENGINE [--min-moves 100]]

With `--gap ENGINE` it also prints ENGINE's loss less the other engine's at the same depth: the
mean over the depths where each engine has at least `--min-moves` moves, each depth weighted by
the smaller of the two counts (the eighty-seventh session's figure: what a depth of ENGINE's is
worth against one of its opponent's, in games), with a 95% interval from the games resampled
(a game's moves are not independent). A depth is a selection of positions: one below an
engine's usual depth marks its harder positions, so compare engines of like median depth, or
read the sign against the medians.

Moves whose comment gives no depth count in no row. The losses are quality.py's (its values
already capped, decided positions left out).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from depths import COMMENT
from stats import bootstrap_interval

BAND = 10  # moves a band of the game


@dataclass(frozen=True)
class Move:
    engine: str
    number: int  # the game's move number
    depth: int
    seconds: float
    loss: int
    game: tuple[int, int] = (0, 0)  # (the file it came from, its game there): the unit resampled


def read_moves(records: list[dict], source: int = 0) -> list[Move]:
    """The judged moves with a depth in their comment, from quality.py's records (of file number
    `source`, which keeps games of different files apart)."""
    moves = []
    for record in records:
        found = COMMENT.match((record.get("comment") or "").strip())
        if not found or found["depth"] is None:
            continue
        moves.append(
            Move(
                engine=record["engine"],
                number=int(record["number"]),
                depth=int(found["depth"]),
                seconds=float(found["seconds"]),
                loss=int(record["loss"]),
                game=(source, int(record.get("game", 0))),
            )
        )
    return moves


def by_band(moves: list[Move], shallow: int, last_move: int) -> str:
    """One line per band of BAND moves up to `last_move`: each engine's mean depth, mean seconds,
    mean loss and share of moves at depth `shallow` or less."""
    engines = sorted({m.engine for m in moves})
    lines = [f"moves: then per engine mean depth; s a move; loss cp; moves at depth <= {shallow}"]
    for low in range(1, last_move + 1, BAND):
        high = min(low + BAND - 1, last_move)
        cells = []
        for engine in engines:
            band = [m for m in moves if m.engine == engine and low <= m.number <= high]
            if not band:
                cells.append(f"{engine} -")
                continue
            share = sum(m.depth <= shallow for m in band) / len(band)
            cells.append(
                f"{engine} {statistics.mean(m.depth for m in band):.2f}; "
                f"{statistics.mean(m.seconds for m in band):.3f}; "
                f"{statistics.mean(m.loss for m in band):.1f}; {100 * share:.0f}% ({len(band)} moves)"
            )
        lines.append(f"{low}-{high}: " + " | ".join(cells))
    return "\n".join(lines)


def by_depth(moves: list[Move], last_move: int) -> str:
    """One line per reported depth: each engine's mean loss and moves, moves 1 to `last_move`."""
    engines = sorted({m.engine for m in moves})
    counted = [m for m in moves if m.number <= last_move]
    lines = [f"depth: then per engine mean loss cp (moves), moves 1-{last_move}"]
    for depth in sorted({m.depth for m in counted}):
        cells = []
        for engine in engines:
            losses = [m.loss for m in counted if m.engine == engine and m.depth == depth]
            cells.append(f"{engine} {statistics.mean(losses):.1f} ({len(losses)})" if losses else f"{engine} -")
        lines.append(f"{depth}: " + " | ".join(cells))
    return "\n".join(lines)


@dataclass(frozen=True)
class DepthGap:
    gap: float  # mean loss of the engine less its opponent's, cp, weighted over the depths
    weight: int  # the weights' sum: the smaller count of each depth used
    depths: list[tuple[int, float, int]]  # (depth, gap, weight) of each depth used
    interval: tuple[float, float] | None = None  # 95%, games resampled (gap_interval)


# Loss sums and counts keyed by (depth, whether the move is the engine's, not its opponent's).
Sums = dict[tuple[int, bool], list[int]]


def sums_by_game(moves: list[Move], engine: str, last_move: int) -> dict[tuple[int, int], Sums]:
    """Each game's loss sums and counts by depth and side, moves 1 to `last_move`."""
    per_game: dict[tuple[int, int], Sums] = {}
    for m in moves:
        if m.number <= last_move:
            cell = per_game.setdefault(m.game, {}).setdefault((m.depth, m.engine == engine), [0, 0])
            cell[0] += m.loss
            cell[1] += 1
    return per_game


def pooled(games: list[Sums]) -> Sums:
    """The games' sums and counts added up."""
    total: Sums = {}
    for game in games:
        for key, (loss, count) in game.items():
            cell = total.setdefault(key, [0, 0])
            cell[0] += loss
            cell[1] += count
    return total


def weighted_gap(sums: Sums, weights: dict[int, int]) -> float | None:
    """The engine's mean loss less its opponent's, averaged over the depths by `weights`; a depth
    one side lacks (in a resample) is left out; None where none is left."""
    num = den = 0.0
    for depth, weight in weights.items():
        mine, theirs = sums.get((depth, True)), sums.get((depth, False))
        if mine and theirs:
            num += weight * (mine[0] / mine[1] - theirs[0] / theirs[1])
            den += weight
    return num / den if den else None


def equal_depth_gap(moves: list[Move], engine: str, last_move: int, min_moves: int) -> DepthGap | None:
    """`engine`'s mean loss less its one opponent's at equal reported depth (moves 1 to
    `last_move`), over the depths where both have `min_moves` or more, each weighted by the smaller
    count; None where no depth qualifies or the moves are not of exactly two engines."""
    engines = {m.engine for m in moves}
    if engine not in engines or len(engines) != 2:
        return None
    sums = pooled(list(sums_by_game(moves, engine, last_move).values()))
    rows = []
    for depth in sorted({depth for depth, _ in sums}):
        mine, theirs = sums.get((depth, True)), sums.get((depth, False))
        if mine and theirs and mine[1] >= min_moves and theirs[1] >= min_moves:
            rows.append((depth, mine[0] / mine[1] - theirs[0] / theirs[1], min(mine[1], theirs[1])))
    if not rows:
        return None
    weight = sum(w for _, _, w in rows)
    return DepthGap(gap=sum(g * w for _, g, w in rows) / weight, weight=weight, depths=rows)


def gap_interval(
    moves: list[Move], gap: DepthGap, engine: str, last_move: int, resamples: int = 1000, seed: int = 1
) -> tuple[float, float]:
    """A 95% interval for `gap` (equal_depth_gap's, on `moves`): the games drawn again with
    replacement `resamples` times and the gap computed again over the same depths and weights.
    Games, not moves, are the unit: a game's moves are not independent. Percentile bootstrap,
    seeded, so a run repeats."""
    weights = {depth: weight for depth, _, weight in gap.depths}
    games = list(sums_by_game(moves, engine, last_move).values())
    return bootstrap_interval(games, lambda drawn: weighted_gap(pooled(drawn), weights), resamples, seed)


def gap_line(engine: str, gap: DepthGap | None, min_moves: int) -> str:
    """equal_depth_gap's result as one line."""
    if gap is None:
        return f"{engine} at equal depth: no depth with {min_moves} moves or more of each of two engines"
    low, high = gap.depths[0][0], gap.depths[-1][0]
    interval = f" [{gap.interval[0]:+.1f}, {gap.interval[1]:+.1f}] (95%, games resampled)" if gap.interval else ""
    return (
        f"{engine} minus its opponent at equal depth: {gap.gap:+.1f} cp a move{interval} "
        f"(depths {low}-{high} with {min_moves}+ moves each, weight {gap.weight})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("json", type=Path, nargs="+", help="files written by quality.py --json")
    parser.add_argument("--shallow", type=int, default=16, help="depth counted as shallow (default 16)")
    parser.add_argument("--last-move", type=int, default=60, help="last move number counted (default 60)")
    parser.add_argument("--gap", metavar="ENGINE", help="also print ENGINE's loss less its opponent's at equal depth")
    parser.add_argument(
        "--min-moves", type=int, default=100, help="moves of each engine a depth needs for --gap (default 100)"
    )
    args = parser.parse_args(argv)
    if args.last_move < 1:
        parser.error("--last-move must be at least 1")
    if args.min_moves < 1:
        parser.error("--min-moves must be at least 1")
    moves: list[Move] = []
    for source, path in enumerate(args.json):
        try:
            moves.extend(read_moves(json.loads(path.read_text())["moves"], source))
        except (OSError, ValueError, KeyError, TypeError) as err:
            print(f"depth_loss.py: cannot read {path}: {err}", file=sys.stderr)
            return 1
    if not moves:
        print("depth_loss.py: no judged move with a depth", file=sys.stderr)
        return 1
    print(by_band(moves, args.shallow, args.last_move))
    print()
    print(by_depth(moves, args.last_move))
    if args.gap:
        print()
        gap = equal_depth_gap(moves, args.gap, args.last_move, args.min_moves)
        if gap is not None:
            gap = dataclasses.replace(gap, interval=gap_interval(moves, gap, args.gap, args.last_move))
        print(gap_line(args.gap, gap, args.min_moves))
    return 0


if __name__ == "__main__":
    sys.exit(main())
