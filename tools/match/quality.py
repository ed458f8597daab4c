"""How good each engine's moves were in a match, judged move by move by a stronger engine.

A match of a few dozen games gives an Elo figure with an interval of ±100 or more; every move of
those games is a sample of its own. This script has a judge (a UCI engine, e.g. Stockfish) value
every position of the games at a fixed depth, and charges each move with what it lost: the
mover's value before the move less its value after it, never below zero, with the values capped
at ±CAP centipawns (a mate counts as the cap). Moves made with the game already decided (the
value before the move beyond ±DECIDED) are left out: they lose much or little for reasons of
their own.

    python3 tools/match/quality.py games.pgn --judge /path/to/stockfish [--depth 12] [--threads 2] \
        [--json moves.json] [--gap ENGINE] [--jobs N]
    python3 tools/match/quality.py --judged a.json b.json [--gap ENGINE]

Prints one line per engine: moves judged, the mean loss in centipawns (ACPL) with a 95% interval,
how many moves lost more than 50, 100 and 300 cp, and the mean loss of moves 1-20, 21-40 and 41
on (with their counts). With --gap ENGINE, then ENGINE's mean loss less its opponent's in the
same games, game by game, with a 95% interval: a measure of one engine's moves against a fixed
opponent that two matches can be compared by. With --jobs N, N judges (each with --threads)
share the games, every Nth game each: the same figures in about 1/N of the time where the
machine has the cores (each position is judged on its own, so no value depends on which judge
saw which games). With --judged, no judge: the moves earlier runs kept with --json are pooled
(each file's games kept apart) and summed up the same way, so that the matches of several calls
or sessions give one figure without being judged again.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import io
import json
import math
import shlex
import statistics
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import chess
import chess.engine
import chess.pgn

from games import rules_ending

CAP = 1000
DECIDED = 800
# Parts of a game by move number (the game's own, from the position it started at), for the means.
PARTS = ((1, 20), (21, 40), (41, 10_000))


@dataclass
class EngineLosses:
    """One engine's moves, each with the centipawns it lost."""

    losses: list[int] = field(default_factory=list)
    # The game's move number (1, 2, ...) of each loss, for the means by part of the game.
    move_numbers: list[int] = field(default_factory=list)

    def add(self, move_number: int, loss: int) -> None:
        self.losses.append(loss)
        self.move_numbers.append(move_number)

    def summary(self) -> str:
        n = len(self.losses)
        mean = statistics.mean(self.losses)
        half = 1.96 * statistics.stdev(self.losses) / math.sqrt(n) if n > 1 else float("inf")
        over = ", ".join(f"{sum(1 for x in self.losses if x > t)} over {t}" for t in (50, 100, 300))
        parts = []
        for low, high in PARTS:
            part = [x for x, m in zip(self.losses, self.move_numbers) if low <= m <= high]
            span = f"{low}-{high}" if high < 10_000 else f"{low}+"
            parts.append(f"{span} {statistics.mean(part):.1f} ({len(part)})" if part else f"{span} none")
        return (
            f"{n} moves, mean loss {mean:.1f} cp [{mean - half:.1f}, {mean + half:.1f}]; {over}; "
            f"by move: {', '.join(parts)}"
        )


def move_losses(white_values: list[int], first_mover: int) -> list[tuple[int, int, int]]:
    """(mover, move number, loss) for each move of a game, from the judge's values of its
    positions (White's view, the position before each move and after the last; capped at ±CAP).
    `first_mover` is 0 when White made the first move, 1 when Black did; the move number counts
    the game's moves from 1 (White's and Black's first moves are both 1). Moves made with the
    game decided are left out."""
    return [(mover, number, loss) for _, mover, number, loss in ply_losses(white_values, first_mover)]


def ply_losses(white_values: list[int], first_mover: int) -> list[tuple[int, int, int, int]]:
    """move_losses with each move's ply (its index in the game's moves) in front."""
    out = []
    for ply in range(len(white_values) - 1):
        mover = (first_mover + ply) % 2
        sign = 1 if mover == 0 else -1
        before, after = sign * white_values[ply], sign * white_values[ply + 1]
        if abs(before) > DECIDED:
            continue
        out.append((ply, mover, (first_mover + ply) // 2 + 1, max(0, before - after)))
    return out


def white_value(score: chess.engine.PovScore) -> int:
    """The judge's value from White's view, capped at ±CAP (a mate counts as the cap)."""
    value = score.white().score(mate_score=CAP)
    if score.is_mate():
        return CAP if value > 0 else -CAP
    return max(-CAP, min(CAP, value))


def ended_value(board: chess.Board) -> int | None:
    """The value from White's view of a position where the harness ends the game
    (games.rules_ending: the rules' endings, and the fifty-move rule and threefold repetition
    claimed as soon as they apply), or None where play goes on. python-chess's own
    `is_game_over()` knows only the 75-move rule and fivefold repetition, so a judge valued the
    position after a draw's last move as if the game went on: in the fortieth session's games a
    move that reached the fiftieth move was charged 1,000 cp for a mate the opponent had next
    (forty-first session)."""
    ending = rules_ending(board)
    if ending is None:
        return None
    result = ending[0]
    return CAP if result == "1-0" else -CAP if result == "0-1" else 0


def read_pgns(paths: list[Path], tool: str) -> str | None:
    """The PGN files' text, one after the other, or None (said on stderr, as `tool`) where one
    cannot be read."""
    text = ""
    for path in paths:
        try:
            text += path.read_text() + "\n\n"
        except OSError as err:
            print(f"{tool}: cannot read {path}: {err.strerror}", file=sys.stderr)
            return None
    return text


def iter_games(pgn_text: str) -> Iterator[chess.pgn.Game]:
    handle = io.StringIO(pgn_text)
    while (game := chess.pgn.read_game(handle)) is not None:
        yield game


@dataclass
class JudgedMove:
    """One move of a game with what it lost, and what tools/match/blunders.py needs to search its
    position again."""

    engine: str
    number: int  # the game's move number
    loss: int
    before: int  # the judge's value of the position before the move, the mover's side
    fen: str  # the position before the move
    move: str  # UCI
    comment: str  # the PGN's move comment: score/depth and time (games.move_comment)
    best: str | None  # the judge's move there, where it gave a line
    game: int = 0  # the game's place in the PGNs, from 1 (0 in files saved before it was kept)


def judge_moves(
    pgn_text: str, judge: chess.engine.SimpleEngine, depth: int, share: tuple[int, int] = (0, 1)
) -> list[JudgedMove]:
    """Every move of the games not made with the game decided, each with its loss; with `share`
    (k, n) only those of games k + 1, k + 1 + n, k + 1 + 2n, … (numbered from 1 as in all)."""
    moves: list[JudgedMove] = []
    cache: dict[str, tuple[int, str | None]] = {}
    for number, game in enumerate(iter_games(pgn_text), 1):
        if (number - 1) % share[1] != share[0]:
            continue
        names = (game.headers.get("White", "?"), game.headers.get("Black", "?"))
        board = game.board()
        first_mover = 0 if board.turn == chess.WHITE else 1
        values = []
        judged: list[tuple[str, str | None]] = []  # each position's FEN and the judge's move
        for move in [None, *game.mainline_moves()]:
            if move is not None:
                board.push(move)
            key = board.fen()
            ended = ended_value(board)
            if ended is not None:
                values.append(ended)
                judged.append((key, None))
                continue
            if key not in cache:
                # A new `game` each time: `ucinewgame`, so that no value depends on the positions
                # judged before it (the judge's table would carry them; with one thread each
                # value is then repeatable, as bench/move-quality.py's).
                info = judge.analyse(board, chess.engine.Limit(depth=depth), game=object())
                pv = info.get("pv")
                cache[key] = (white_value(info["score"]), pv[0].uci() if pv else None)
            values.append(cache[key][0])
            judged.append((key, cache[key][1]))
        nodes = list(game.mainline())
        for ply, mover, move_number, loss in ply_losses(values, first_mover):
            node = nodes[ply]
            before = values[ply] if mover == 0 else -values[ply]
            moves.append(
                JudgedMove(
                    names[mover], move_number, loss, before, judged[ply][0], node.move.uci(),
                    node.comment.strip(), judged[ply][1], number,
                )
            )
        print(f"  game {number} judged", file=sys.stderr)
    return moves


def load_judged(path: Path) -> list[JudgedMove]:
    """The judged moves of a --json file: this script's `moves`, or blunders.py's `blunders`."""
    saved = json.loads(path.read_text())
    return [JudgedMove(**m) for m in saved.get("blunders", saved.get("moves", []))]


def pool_judged(paths: list[Path]) -> list[JudgedMove]:
    """The judged moves of several --json files, each file's games numbered after the files'
    before it, so that no two files' games are taken for one (engine_gap goes game by game)."""
    pooled: list[JudgedMove] = []
    offset = 0
    for path in paths:
        moves = load_judged(path)
        pooled += [replace(m, game=m.game + offset) for m in moves]
        offset += max((m.game for m in moves), default=0) + 1
    return pooled


def summarise(moves: list[JudgedMove], heading: str, gap_engine: str | None) -> int:
    """Prints each engine's losses (and with `gap_engine` its gap to the opponent) after
    `heading`; 1 where there are no moves."""
    engines = engine_losses(moves)
    if not engines:
        print("quality.py: no moves to judge", file=sys.stderr)
        return 1
    print(heading)
    for name, losses in sorted(engines.items()):
        print(f"{name}: {losses.summary()}")
    if gap_engine:
        gap = engine_gap(moves, gap_engine)
        print(gap if gap else f"--gap: no game where {gap_engine} and one opponent (only) both moved")
    return 0


def engine_losses(moves: list[JudgedMove]) -> dict[str, EngineLosses]:
    engines: dict[str, EngineLosses] = {}
    for judged in moves:
        engines.setdefault(judged.engine, EngineLosses()).add(judged.number, judged.loss)
    return engines


def engine_gap(moves: list[JudgedMove], engine: str) -> str | None:
    """`engine`'s mean loss a move less its opponent's, game by game: each game's difference of the
    two engines' means, then the mean over the games with a 95% interval (normal, over the
    games). Both engines' moves of a game are judged on the same game, so the opponent's moves
    stand for how hard its positions were, and the games, not the moves, are the samples: a
    game's moves are not independent (the fifty-eighth session: the GPU's gap to 16 threads at
    depth 12 was +5.3 and +5.8 cp under the default finisher and +1.2 under `main`, each within
    about ±2 cp in 60 games). None unless the games have exactly one other engine."""
    names = {m.engine for m in moves}
    if engine not in names or len(names) != 2:
        return None
    (other,) = names - {engine}
    by_game: dict[int, tuple[list[int], list[int]]] = {}
    for m in moves:
        mine, theirs = by_game.setdefault(m.game, ([], []))
        (mine if m.engine == engine else theirs).append(m.loss)
    gaps = [statistics.mean(a) - statistics.mean(b) for a, b in by_game.values() if a and b]
    if not gaps:
        return None
    mean = statistics.mean(gaps)
    half = 1.96 * statistics.stdev(gaps) / math.sqrt(len(gaps)) if len(gaps) > 1 else float("inf")
    return (
        f"{engine} minus {other}: {mean:+.1f} cp a move [{mean - half:+.1f}, {mean + half:+.1f}] "
        f"(95%, over {len(gaps)} games' means)"
    )


def judge_games(pgn_text: str, judge: chess.engine.SimpleEngine, depth: int) -> dict[str, EngineLosses]:
    return engine_losses(judge_moves(pgn_text, judge, depth))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", type=Path, nargs="*", help="PGNs written by match.py --pgn")
    parser.add_argument("--judge", help="the judge: a UCI engine's command")
    parser.add_argument(
        "--judged", type=Path, nargs="+", metavar="JSON",
        help="no judge: pool the moves earlier runs kept with --json (instead of PGNs)",
    )
    parser.add_argument("--depth", type=int, default=12, help="the judge's depth (default 12)")
    parser.add_argument("--threads", type=int, default=1, help="the judge's Threads (default 1)")
    parser.add_argument(
        "--json", type=Path,
        help="write every judged move (for blunders.py --blunders and stability.py --moves) here",
    )
    parser.add_argument(
        "--gap", metavar="ENGINE",
        help="also print ENGINE's mean loss less its opponent's, game by game, with its interval",
    )
    parser.add_argument("--jobs", type=int, default=1, help="judges sharing the games (default 1)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        print("quality.py: --jobs must be 1 or more", file=sys.stderr)
        return 2
    if args.judged:
        if args.pgn or args.judge or args.json:
            print("quality.py: --judged takes no PGN, --judge or --json", file=sys.stderr)
            return 2
        try:
            moves = pool_judged(args.judged)
        except (OSError, ValueError, TypeError) as err:
            print(f"quality.py: {err}", file=sys.stderr)
            return 2
        return summarise(moves, f"pooled from {len(args.judged)} files of judged moves", args.gap)
    if not args.pgn or not args.judge:
        print("quality.py: give the PGNs and --judge, or --judged", file=sys.stderr)
        return 2
    text = read_pgns(args.pgn, "quality.py")
    if text is None:
        return 2

    def judge_share(k: int) -> list[JudgedMove]:
        judge = chess.engine.SimpleEngine.popen_uci(shlex.split(args.judge))
        try:
            if args.threads != 1:
                judge.configure({"Threads": args.threads})
            return judge_moves(text, judge, args.depth, (k, args.jobs))
        finally:
            judge.quit()

    # Threads are enough: each waits on its own judge's process.
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        shares = list(pool.map(judge_share, range(args.jobs)))
    # Each share in its games' order; sorted by game (stably) they are in the PGNs' order.
    moves = sorted((m for share in shares for m in share), key=lambda m: m.game)
    if args.json:
        args.json.write_text(json.dumps({"moves": [asdict(m) for m in moves]}, indent=1))
    heading = f"judged at depth {args.depth}; moves with the game decided (beyond ±{DECIDED} cp) left out"
    return summarise(moves, heading, args.gap)


if __name__ == "__main__":
    sys.exit(main())
