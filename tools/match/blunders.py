"""Whose fault is a blunder: an engine's big losses in a match, searched again by referee engines
to the depth the engine reported for the move.

tools/match/quality.py charges every move of a match with what it lost by a judge's values. This
script takes the moves that lost at least --min-loss centipawns and has each referee (a UCI
engine: the CPU search on a few threads, the GPU search from an empty table) search each
position from an empty table to the depth the engine reported in its move comment
(`+0.31/18 0.215s`), then has the judge value the referee's move where it differs. A blunder a
referee of the same evaluation repeats at the same depth lies in what the two share (the
evaluation, the search's rules); one it avoids lies in the engine's own search at that depth,
for the GPU its parallel search, or in the game's table and clock.

The positions are chosen by the engine's loss, so any second search loses less on average
(regression to the mean). Compare with the same check on the other engine's blunders.

    python3 tools/match/blunders.py games.pgn [...] --judge /path/to/stockfish \\
        --referee "cpu2=kogge --backend cpu" [--referee-option cpu2:Threads=2] [--referee ...] \\
        [--min-loss 150] [--depth 12] [--threads 1] [--list] [--json out.json]
    python3 tools/match/blunders.py --blunders out.json --judge ... --referee ...

With --blunders the games are not judged again: the blunders are those of an earlier run's
--json (so that the judging of the games, which needs no GPU, is done once and elsewhere; the
judge then values only the referees' moves that differ).

With --context N the referee sees the game, not just the position: in one new game it first
plays the engine's own N moves before the blunder at the game's clock (its moves are not kept:
the game's are), so that its table is warm and the position comes with the game's moves
(repetitions). --context 0 sends the history only. --limit clock then searches the blunder's
position at the game's clock too, as in the game; --limit depth (the default) to the reported
depth. The PGNs give the games' moves and clocks (with --blunders as well).

Prints per engine and referee: the engine's blunders, how many the referee searched (moves
without a reported depth are left out), how many times it played the same move, and the mean
loss of the engine's moves and of the referee's there.
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

import chess
import chess.engine

from depths import COMMENT
from quality import DECIDED, JudgedMove, ended_value, iter_games, judge_moves, load_judged, read_pgns, white_value


@dataclass
class Recheck:
    """A blunder and the referee's search of its position."""

    blunder: JudgedMove
    referee: str
    depth: int
    move: str  # the referee's
    loss: int  # the referee's move's, by the judge


@dataclass
class GameContext:
    """Where a blunder stood in its game: the game's board up to the blunder's position (its move
    stack the game's moves), the clocks before each of those moves and the blunder, and the
    increment."""

    board: chess.Board
    clocks: list[tuple[float, float]]  # white's and black's seconds before each ply
    increment: float


def game_contexts(pgn_text: str) -> dict[tuple[str, str], GameContext]:
    """Each position of the games, with the move played there, mapped to its game's context.
    The clocks are rebuilt as games.py keeps them: a move's seconds (its comment) off the mover's
    clock, then the increment on."""
    contexts: dict[tuple[str, str], GameContext] = {}
    for game in iter_games(pgn_text):
        base, _, increment = game.headers.get("TimeControl", "-").partition("+")
        try:
            clock, inc = float(base), float(increment or 0)
        except ValueError:
            clock, inc = 0.0, 0.0  # no clock: a --limit clock search gets none either
        clocks = {chess.WHITE: clock, chess.BLACK: clock}
        board = game.board()
        before: list[tuple[float, float]] = []
        for node in game.mainline():
            before.append((clocks[chess.WHITE], clocks[chess.BLACK]))
            key = (board.fen(), node.move.uci())
            if key not in contexts:
                contexts[key] = GameContext(board.copy(), list(before), inc)
            found = COMMENT.match(node.comment.strip())
            if found:
                clocks[board.turn] -= float(found["seconds"])
            clocks[board.turn] += inc
            board.push(node.move)
    return contexts


def clock_limit(context: GameContext, ply: int) -> chess.engine.Limit:
    """The game's clocks before the context's ply."""
    white, black = context.clocks[ply]
    return chess.engine.Limit(
        white_clock=max(white, 0.001), black_clock=max(black, 0.001),
        white_inc=context.increment, black_inc=context.increment,
    )


def reported_depth(comment: str) -> int | None:
    """The depth in a move comment of games.move_comment, if it has one."""
    found = COMMENT.match(comment)
    return int(found["depth"]) if found and found["depth"] is not None else None


def value_after(board: chess.Board, move: chess.Move, judge: chess.engine.SimpleEngine, depth: int) -> int:
    """The judge's value of the position after `move`, from the mover's side (capped)."""
    sign = 1 if board.turn == chess.WHITE else -1
    after = board.copy()
    after.push(move)
    ended = ended_value(after)
    if ended is not None:
        return sign * ended
    # A new `game`: `ucinewgame`, as quality.judge_moves judges every position.
    return sign * white_value(judge.analyse(after, chess.engine.Limit(depth=depth), game=object())["score"])


def recheck(
    blunder: JudgedMove,
    name: str,
    referee: chess.engine.SimpleEngine,
    judge: chess.engine.SimpleEngine,
    judge_depth: int,
    context: GameContext | None = None,
    warm_moves: int = 0,
    at_clock: bool = False,
) -> Recheck | None:
    """The referee's search of the blunder's position to the reported depth (or at the game's
    clock, with a context), or None where the engine reported no depth. With a context, the
    referee first plays the engine's `warm_moves` moves before it at the game's clocks."""
    depth = reported_depth(blunder.comment)
    if depth is None:
        return None
    # A new game each time: an empty table, and no history but the context's.
    game = object()
    if context is None:
        board = chess.Board(blunder.fen)
    else:
        board = context.board.root()
        stack = context.board.move_stack
        last = len(stack)
        for ply, move in enumerate(stack):
            if last - ply <= 2 * warm_moves and (last - ply) % 2 == 0:
                referee.play(board, clock_limit(context, ply), game=game)
            board.push(move)
    limit = clock_limit(context, len(board.move_stack)) if context and at_clock else chess.engine.Limit(depth=depth)
    played = referee.play(board, limit, game=game, info=chess.engine.INFO_BASIC)
    if played.move is None:
        return None
    if at_clock:
        depth = played.info.get("depth", 0)
    move = played.move.uci()
    if move == blunder.move:
        return Recheck(blunder, name, depth, move, blunder.loss)
    # Measured as the blunder was: from the judge's value of the position before it.
    return Recheck(blunder, name, depth, move, max(0, blunder.before - value_after(board, played.move, judge, judge_depth)))


def listed(r: Recheck) -> str:
    """One recheck's line for --list."""
    b = r.blunder
    return (
        f"  {b.engine} {b.move} (-{b.loss}) at depth {r.depth}, {r.referee} {r.move} (-{r.loss}), "
        f"judge {b.best}: {b.fen}"
    )


def summary(
    name: str, referee: str, blunders: list[JudgedMove], rechecks: list[Recheck], how: str = "at their depth"
) -> str:
    """One engine's line for one referee."""
    if not rechecks:
        return f"{name}, {referee}: {len(blunders)} blunders, none searched again (no depths reported)"
    same = sum(1 for r in rechecks if r.move == r.blunder.move)
    own = statistics.mean(r.blunder.loss for r in rechecks)
    theirs = statistics.mean(r.loss for r in rechecks)
    depth = statistics.mean(r.depth for r in rechecks)
    return (
        f"{name}, {referee}: {len(blunders)} blunders, {len(rechecks)} searched again {how} (depth "
        f"{depth:.1f}): it played the same move in {same}; mean loss {own:.0f} cp, the referee's "
        f"{theirs:.0f} cp there"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", type=Path, nargs="*", help="PGNs written by match.py --pgn")
    parser.add_argument("--blunders", type=Path, help="the blunders of an earlier run's --json, instead of PGNs")
    parser.add_argument("--min-loss", type=int, default=150, help="a blunder loses this much (default 150 cp)")
    parser.add_argument("--list", action="store_true", help="print every blunder and the referee's move")
    parser.add_argument("--json", type=Path, help="write every blunder and its recheck here")
    add_referee_arguments(parser)
    args = parser.parse_args(argv)
    if not args.pgn and not args.blunders or args.pgn and args.blunders and args.context is None:
        print("blunders.py: give either PGNs or --blunders (with --context, both)", file=sys.stderr)
        return 2
    if args.context is not None and not args.pgn:
        print("blunders.py: --context needs the games' PGNs", file=sys.stderr)
        return 2
    if args.limit == "clock" and args.context is None:
        print("blunders.py: --limit clock needs --context", file=sys.stderr)
        return 2
    text = read_pgns(args.pgn, "blunders.py") if args.pgn else ""
    if text is None:
        return 2
    contexts = game_contexts(text) if args.context is not None else {}
    referees = referee_specs(args.referee, args.referee_option)
    if isinstance(referees, str):
        print(f"blunders.py: {referees}", file=sys.stderr)
        return 2
    judge = chess.engine.SimpleEngine.popen_uci(shlex.split(args.judge))
    try:
        if args.threads != 1:
            judge.configure({"Threads": args.threads})
        if args.blunders:
            blunders = load_judged(args.blunders)
        else:
            blunders = judge_moves(text, judge, args.depth)
        blunders = [m for m in blunders if m.loss >= args.min_loss]
        rechecks: list[Recheck] = []
        for name, referee in each_referee(referees):
            for blunder in blunders:
                context = context_of(blunder, contexts, args, "blunders.py")
                if context is False:
                    continue
                checked = recheck(
                    blunder, name, referee, judge, args.depth, context, args.context or 0, args.limit == "clock"
                )
                if checked is not None:
                    rechecks.append(checked)
                    if args.list:  # as they come, so that a run stopped early shows them
                        print(listed(checked), flush=True)
    finally:
        judge.quit()
    print(
        f"judged at depth {args.depth}; blunders lose {args.min_loss} cp or more, with the game not "
        f"decided (within ±{DECIDED} cp)"
    )
    how = "at the game's clock" if args.limit == "clock" else "at their depth"
    if args.context is not None:
        how += f" in the game ({args.context} move{'' if args.context == 1 else 's'} before at its clock)"
    for engine in sorted({b.engine for b in blunders}):
        own = [b for b in blunders if b.engine == engine]
        for name in referees:
            theirs = [r for r in rechecks if r.referee == name and r.blunder.engine == engine]
            print(summary(engine, name, own, theirs, how))
    if args.json:
        args.json.write_text(
            json.dumps({"blunders": [asdict(b) for b in blunders], "rechecks": [asdict(r) for r in rechecks]}, indent=1)
        )
    return 0


def add_referee_arguments(parser: argparse.ArgumentParser) -> None:
    """The judge's, the referees' and the game's options, which stability.py shares."""
    parser.add_argument("--judge", required=True, help="the judge: a UCI engine's command")
    parser.add_argument("--depth", type=int, default=12, help="the judge's depth (default 12)")
    parser.add_argument("--threads", type=int, default=1, help="the judge's Threads (default 1)")
    parser.add_argument("--referee", action="append", required=True, help="NAME=COMMAND: an engine that searches again")
    parser.add_argument("--referee-option", action="append", default=[], help="NAME:Option=Value for a referee")
    parser.add_argument(
        "--context", type=int, metavar="N",
        help="search in the game: its moves, and the engine's N moves before at the game's clock (needs the PGNs)",
    )
    parser.add_argument(
        "--limit", choices=("depth", "clock"), default="depth",
        help="search the position to the reported depth (default) or at the game's clock (needs --context)",
    )


def each_referee(referees: dict[str, tuple[str, dict[str, str]]]) -> Iterator[tuple[str, chess.engine.SimpleEngine]]:
    """Each referee by name, started and configured, and quit once the caller moves on."""
    for name, (command, options) in referees.items():
        # A GPU engine's `isready` waits for its kernel's build: more than the default 10 s on
        # PoCL, and NVRTC takes seconds too.
        referee = chess.engine.SimpleEngine.popen_uci(shlex.split(command), timeout=600)
        try:
            referee.configure(options)
            yield name, referee
        finally:
            referee.quit()


def context_of(
    move: JudgedMove, contexts: dict[tuple[str, str], GameContext], args: argparse.Namespace, tool: str
) -> GameContext | None | Literal[False]:
    """The move's game, where --context asks for one (None where it does not); False, said on
    stderr, where the move is in none of the games."""
    if args.context is None:
        return None
    context = contexts.get((move.fen, move.move))
    if context is None:
        print(f"{tool}: {move.fen} {move.move} is in none of the games", file=sys.stderr)
        return False
    return context


def referee_specs(specs: list[str], options: list[str]) -> dict[str, tuple[str, dict[str, str]]] | str:
    """Each referee's command and UCI options by name, or what is wrong with the arguments."""
    referees: dict[str, tuple[str, dict[str, str]]] = {}
    for spec in specs:
        name, sep, command = spec.partition("=")
        if not sep or not name or not command:
            return f"--referee is NAME=COMMAND, not '{spec}'"
        referees[name] = (command, {})
    for option in options:
        name, sep, setting = option.partition(":")
        key, eq, value = setting.partition("=")
        if not sep or not eq or name not in referees:
            return f"--referee-option is NAME:Option=Value for a NAME of --referee, not '{option}'"
        referees[name][1][key] = value
    return referees


if __name__ == "__main__":
    sys.exit(main())
