"""How stable an engine's moves are: positions of a match searched again, several times each.

A parallel search is not deterministic: searched again, a position may get another move, and the
move an engine played in a game is one draw of several. blunders.py found that the GPU search,
searched again, mostly does not play its own blunders again, even in their game at its clock
(thirty-seventh session). This script asks the same of moves not chosen by their loss: it takes
a random sample of an engine's judged moves (quality.py --json), has each referee search each
position --repeat times (from an empty table to the depth the engine reported, or in the game as
blunders.py --context does), and prints, per referee:
- how often a search played the game's move, and how often two searches of a position agreed;
- the mean loss, by the judge, of the game's moves, of the searches' moves, and of each
  position's vote (the move most of its searches played; a tie goes to the first played), with
  the vote's difference from its searches' mean and a 95% interval.
If the vote loses clearly less than one search, the variance costs quality, and several searches
combined would play better moves; if not, the searches differ among moves of the same worth.

    python3 tools/match/stability.py --moves moves.json --engine kogge-gpu --judge /path/to/stockfish \\
        --referee "gpu=kogge --backend cuda" [--referee-option gpu:Hash=1024] [--repeat 3] \\
        [--sample 60] [--seed 1] [--from-move 10] [--within 300] [--max-pieces 32] [--max-depth D] \
        [games.pgn --context 4 [--limit clock]] \\
        [--list] [--json out.json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import shlex
import statistics
import sys
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

import chess.engine

from blunders import (
    Recheck, add_referee_arguments, context_of, each_referee, game_contexts, recheck, referee_specs,
    reported_depth,
)
from quality import JudgedMove, load_judged, read_pgns


@dataclass
class Stability:
    """One position's searches by one referee."""

    played: JudgedMove
    searches: list[Recheck]

    def vote(self) -> Recheck:
        """The search whose move most searches played (the first of a tie)."""
        counts = Counter(r.move for r in self.searches)
        most = max(counts.values())
        return next(r for r in self.searches if counts[r.move] == most)

    def agreement(self) -> float:
        """The fraction of pairs of searches that played the same move."""
        pairs = list(itertools.combinations(self.searches, 2))
        return sum(a.move == b.move for a, b in pairs) / len(pairs) if pairs else 1.0


def pieces(fen: str) -> int:
    """The men on the board of a FEN, kings and pawns included."""
    return sum(c.isalpha() for c in fen.split()[0])


def sample_moves(
    moves: list[JudgedMove],
    engine: str,
    count: int,
    seed: int,
    from_move: int,
    within: int,
    max_pieces: int = 32,
    max_depth: int = 1000,
) -> list[JudgedMove]:
    """A seeded random sample of the engine's moves from move `from_move` on, with the judge's
    value before the move within ±`within` (the game undecided), at most `max_pieces` men on the
    board and a reported depth of at most `max_depth` (a bare ending's depth of 60 or 100 costs
    a referee without the engine's table minutes), in the games' order."""
    candidates = [
        (i, m)
        for i, m in enumerate(moves)
        if m.engine == engine
        and m.number >= from_move
        and abs(m.before) <= within
        and pieces(m.fen) <= max_pieces
        and (reported_depth(m.comment) or 0) <= max_depth
    ]
    chosen = random.Random(seed).sample(candidates, min(count, len(candidates)))
    return [m for _, m in sorted(chosen, key=lambda c: c[0])]


def mean_interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation)."""
    mean = statistics.mean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def summary(referee: str, positions: list[Stability]) -> str:
    """One referee's lines."""
    if not positions:
        return f"{referee}: no position searched (no depths reported)"
    searches = [r for p in positions for r in p.searches]
    same = sum(r.move == r.blunder.move for r in searches)
    agreement = statistics.mean(p.agreement() for p in positions)
    game = statistics.mean(p.played.loss for p in positions)
    each = statistics.mean(r.loss for r in searches)
    vote = statistics.mean(p.vote().loss for p in positions)
    gain, width = mean_interval([p.vote().loss - statistics.mean(r.loss for r in p.searches) for p in positions])
    depth = statistics.mean(r.depth for r in searches)
    return (
        f"{referee}: {len(positions)} positions, {len(searches)} searches (depth {depth:.1f}); the game's move "
        f"played again in {same} ({100 * same / len(searches):.0f}%), two searches agreed {100 * agreement:.0f}%\n"
        f"  mean loss: the game's moves {game:.1f} cp, a search's {each:.1f} cp, the vote's {vote:.1f} cp "
        f"(vote - searches {gain:+.1f} ± {width:.1f} cp)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", type=Path, nargs="*", help="the games' PGNs (for --context)")
    parser.add_argument("--moves", type=Path, required=True, help="judged moves: quality.py --json")
    parser.add_argument("--engine", required=True, help="whose moves (the PGN's player name)")
    parser.add_argument("--sample", type=int, default=60, help="positions (default 60)")
    parser.add_argument("--seed", type=int, default=1, help="the sample's seed (default 1)")
    parser.add_argument("--from-move", type=int, default=10, help="moves from this move number on (default 10)")
    parser.add_argument("--within", type=int, default=300, help="the judge's value before the move within ±this (300)")
    parser.add_argument("--max-pieces", type=int, default=32, help="positions with at most this many men (32)")
    parser.add_argument("--max-depth", type=int, default=1000, help="moves reported at most this deep (any)")
    parser.add_argument("--repeat", type=int, default=3, help="searches of each position by each referee (3)")
    add_referee_arguments(parser)
    parser.add_argument("--list", action="store_true", help="print each position's searches as they come")
    parser.add_argument("--json", type=Path, help="write every position and its searches here")
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.sample < 1:
        print("stability.py: --repeat and --sample are at least 1", file=sys.stderr)
        return 2
    if (args.context is not None) != bool(args.pgn) or (args.limit == "clock" and args.context is None):
        print("stability.py: --context needs the games' PGNs, and PGNs and --limit clock need --context", file=sys.stderr)
        return 2
    referees = referee_specs(args.referee, args.referee_option)
    if isinstance(referees, str):
        print(f"stability.py: {referees}", file=sys.stderr)
        return 2
    text = read_pgns(args.pgn, "stability.py") if args.pgn else ""
    if text is None:
        return 2
    contexts = game_contexts(text) if args.context is not None else {}
    moves = sample_moves(
        load_judged(args.moves), args.engine, args.sample, args.seed, args.from_move, args.within, args.max_pieces,
        args.max_depth,
    )
    if not moves:
        print(f"stability.py: no moves of {args.engine} to sample", file=sys.stderr)
        return 1
    results: dict[str, list[Stability]] = {name: [] for name in referees}
    judge = chess.engine.SimpleEngine.popen_uci(shlex.split(args.judge))
    try:
        if args.threads != 1:
            judge.configure({"Threads": args.threads})
        for name, referee in each_referee(referees):
            for played in moves:
                context = context_of(played, contexts, args, "stability.py")
                if context is False:
                    continue
                searches = [
                    r for _ in range(args.repeat)
                    if (r := recheck(played, name, referee, judge, args.depth, context, args.context or 0,
                                     args.limit == "clock")) is not None
                ]
                if searches:
                    results[name].append(Stability(played, searches))
                    if args.list:
                        moves_played = " ".join(f"{r.move}(-{r.loss})" for r in searches)
                        print(f"  {name} {played.move}(-{played.loss}): {moves_played}  {played.fen}", flush=True)
    finally:
        judge.quit()
    print(
        f"{args.engine}: {len(moves)} moves sampled (seed {args.seed}, from move {args.from_move}, within "
        f"±{args.within} cp, at most {args.max_pieces} men); judged at depth {args.depth}; {args.repeat} searches each"
    )
    for name, positions in results.items():
        print(summary(name, positions))
    if args.json:
        args.json.write_text(
            json.dumps({name: [asdict(p) for p in positions] for name, positions in results.items()}, indent=1)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
