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
from dataclasses import asdict, dataclass
from pathlib import Path

import chess
import chess.engine

from depths import COMMENT
from quality import DECIDED, JudgedMove, judge_moves, outcome_value, read_pgns, white_value


@dataclass
class Recheck:
    """A blunder and the referee's search of its position."""

    blunder: JudgedMove
    referee: str
    depth: int
    move: str  # the referee's
    loss: int  # the referee's move's, by the judge


def reported_depth(comment: str) -> int | None:
    """The depth in a move comment of games.move_comment, if it has one."""
    found = COMMENT.match(comment)
    return int(found["depth"]) if found and found["depth"] is not None else None


def value_after(board: chess.Board, move: chess.Move, judge: chess.engine.SimpleEngine, depth: int) -> int:
    """The judge's value of the position after `move`, from the mover's side (capped)."""
    sign = 1 if board.turn == chess.WHITE else -1
    after = board.copy()
    after.push(move)
    if after.is_game_over():
        return sign * outcome_value(after)
    return sign * white_value(judge.analyse(after, chess.engine.Limit(depth=depth))["score"])


def recheck(
    blunder: JudgedMove,
    name: str,
    referee: chess.engine.SimpleEngine,
    judge: chess.engine.SimpleEngine,
    judge_depth: int,
) -> Recheck | None:
    """The referee's search of the blunder's position to the reported depth, or None where the
    engine reported no depth."""
    depth = reported_depth(blunder.comment)
    if depth is None:
        return None
    board = chess.Board(blunder.fen)
    # A new game each time: an empty table, no history but the position's.
    played = referee.play(board, chess.engine.Limit(depth=depth), game=object())
    if played.move is None:
        return None
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


def summary(name: str, referee: str, blunders: list[JudgedMove], rechecks: list[Recheck]) -> str:
    """One engine's line for one referee."""
    if not rechecks:
        return f"{name}, {referee}: {len(blunders)} blunders, none searched again (no depths reported)"
    same = sum(1 for r in rechecks if r.move == r.blunder.move)
    own = statistics.mean(r.blunder.loss for r in rechecks)
    theirs = statistics.mean(r.loss for r in rechecks)
    return (
        f"{name}, {referee}: {len(blunders)} blunders, {len(rechecks)} searched again at their depth: it "
        f"played the same move in {same}; mean loss {own:.0f} cp, the referee's {theirs:.0f} cp there"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", type=Path, nargs="*", help="PGNs written by match.py --pgn")
    parser.add_argument("--blunders", type=Path, help="the blunders of an earlier run's --json, instead of PGNs")
    parser.add_argument("--judge", required=True, help="the judge: a UCI engine's command")
    parser.add_argument("--depth", type=int, default=12, help="the judge's depth (default 12)")
    parser.add_argument("--threads", type=int, default=1, help="the judge's Threads (default 1)")
    parser.add_argument("--referee", action="append", required=True, help="NAME=COMMAND: an engine that searches again")
    parser.add_argument("--referee-option", action="append", default=[], help="NAME:Option=Value for a referee")
    parser.add_argument("--min-loss", type=int, default=150, help="a blunder loses this much (default 150 cp)")
    parser.add_argument("--list", action="store_true", help="print every blunder and the referee's move")
    parser.add_argument("--json", type=Path, help="write every blunder and its recheck here")
    args = parser.parse_args(argv)
    if bool(args.pgn) == bool(args.blunders):
        print("blunders.py: give either PGNs or --blunders", file=sys.stderr)
        return 2
    text = read_pgns(args.pgn, "blunders.py")
    if text is None:
        return 2
    referees = referee_specs(args.referee, args.referee_option)
    if isinstance(referees, str):
        print(f"blunders.py: {referees}", file=sys.stderr)
        return 2
    judge = chess.engine.SimpleEngine.popen_uci(shlex.split(args.judge))
    try:
        if args.threads != 1:
            judge.configure({"Threads": args.threads})
        if args.blunders:
            blunders = [JudgedMove(**b) for b in json.loads(args.blunders.read_text())["blunders"]]
        else:
            blunders = judge_moves(text, judge, args.depth)
        blunders = [m for m in blunders if m.loss >= args.min_loss]
        rechecks: list[Recheck] = []
        for name, (command, options) in referees.items():
            # A GPU engine's `isready` waits for its kernel's build: more than the default 10 s
            # on PoCL, and NVRTC takes seconds too.
            referee = chess.engine.SimpleEngine.popen_uci(shlex.split(command), timeout=600)
            try:
                referee.configure(options)
                for blunder in blunders:
                    checked = recheck(blunder, name, referee, judge, args.depth)
                    if checked is not None:
                        rechecks.append(checked)
                        if args.list:  # as they come, so that a run stopped early shows them
                            print(listed(checked), flush=True)
            finally:
                referee.quit()
    finally:
        judge.quit()
    print(
        f"judged at depth {args.depth}; blunders lose {args.min_loss} cp or more, with the game not "
        f"decided (within ±{DECIDED} cp)"
    )
    for engine in sorted({b.engine for b in blunders}):
        own = [b for b in blunders if b.engine == engine]
        for name in referees:
            theirs = [r for r in rechecks if r.referee == name and r.blunder.engine == engine]
            print(summary(engine, name, own, theirs))
    if args.json:
        args.json.write_text(
            json.dumps({"blunders": [asdict(b) for b in blunders], "rechecks": [asdict(r) for r in rechecks]}, indent=1)
        )
    return 0


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
