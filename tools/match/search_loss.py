"""What an engine's moves lost by how its searches went: a match's judged moves (`quality.py
--json`) joined, position by position, to the engine's searches in the match's UCI log
(`match.py --debug`, read as `iterations.py` reads it), and grouped
- by the opponent's reply before: the one the engine's last search expected, another, unknown;
- by the time of the search's first completed depth against its soft limit (the shared limit,
  as in `iterations.py`), or none completed;
- into searches with a late first depth and the rest: started above depth 1 (from the root's
  table entry, as the GPU search does) and their first depth completed after `--late` times the
  soft limit, or never. The default, 0.525, is where the GPU search's entry guard (ENTRY_GUARD,
  crates/search-gpu/src/backend.rs) gives the first iteration up: its soft limit is 75% of the
  shared one, scaled by 0.7 for the entry's settled move;
- with `--message TEXT`, into searches that said TEXT in an `info string` and the rest.

The seventy-sixth session asked whether the guard's retreat of three plies, which came in 15% of
its searches, cost those moves quality that 17 games could not show; the same class of
searches under the default (the searches the guard would have taken) lost about 3 cp more than
the default's other moves, the guarded ones no more than the rest.

    python3 tools/match/search_loss.py m.log:judged.json [more.log:more.json ...] \\
        [--engine kogge-gpu] [--late 0.525] [--message "not done by"]

Each row: moves, mean loss with its 95% interval (normal, over the moves: a game's moves are not
independent, so read it as a lower bound on the spread), and how many lost more than 50 cp. A
search whose position no judged move has (the judge leaves decided positions out) counts in no
row.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path

import chess

import iterations
import quality
from stats import Z_95

# Where the GPU search's entry guard comes, in the shared soft limit (see the module's doc).
GUARD_SHARE = 0.7 * 0.75


def position_fen(command: str) -> str | None:
    """The FEN after a UCI `position` command, None where it does not parse."""
    words = command.split()
    try:
        if len(words) > 1 and words[1] == "startpos":
            board = chess.Board()
        elif len(words) > 7 and words[1] == "fen":
            board = chess.Board(" ".join(words[2:8]))
        else:
            return None
        if "moves" in words:
            for move in words[words.index("moves") + 1 :]:
                board.push_uci(move)
    except ValueError:
        return None
    return board.fen()


def judged_losses(moves: list[quality.JudgedMove], engine: str) -> dict[str, int]:
    """`engine`'s judged losses by the position before its move."""
    return {m.fen: m.loss for m in moves if m.engine == engine}


def first_bin(search: iterations.Search) -> str:
    """The search's first completed depth's time in soft limits, as iterations.py bins it, or
    "none"; "not timed" where the clock is not known (and it completed a depth)."""
    if search.soft_ms() or iterations.first_completed(search) is None:
        return iterations.first_bin(search)
    return "not timed"


def late_first(search: iterations.Search, late: float) -> bool:
    """Whether the search started above depth 1 and completed its first depth after `late` soft
    limits, or none (False where its clock is not known)."""
    return (bool(search.soft_ms()) and bool(search.lines) and search.lines[0].depth > 1
            and iterations.first_past(search, late))


def row(label: str, losses: list[int]) -> str:
    if not losses:
        return f"  {label}: none"
    mean = statistics.mean(losses)
    half = Z_95 * statistics.stdev(losses) / math.sqrt(len(losses)) if len(losses) > 1 else math.inf
    over = sum(1 for x in losses if x > 50)
    return (f"  {label}: {len(losses)} moves, mean loss {mean:.1f} cp [{mean - half:.1f}, "
            f"{mean + half:.1f}], {over} over 50")


def report(pairs: list[tuple[iterations.Search, int]], late: float, message: str | None) -> list[str]:
    """The rows over (search, its move's loss) pairs."""
    out = ["by the reply before:"]
    for kind in ("expected", "not expected", "unknown"):
        out.append(row(kind, [loss for s, loss in pairs if iterations.reply(s) == kind]))
    out.append("by the first completed depth's time against the soft limit:")
    for kind in iterations.FIRST_DONE_LABELS + ("none", "not timed"):
        losses = [loss for s, loss in pairs if first_bin(s) == kind]
        if losses or kind != "not timed":
            out.append(row(kind, losses))
    out.append(f"by a late first depth (started above depth 1, done after {late:g}x or never):")
    out.append(row("late", [loss for s, loss in pairs if late_first(s, late)]))
    out.append(row("the rest", [loss for s, loss in pairs if not late_first(s, late)]))
    if message is not None:
        said = [any(message in m for m in s.messages) for s, _ in pairs]
        out.append(f"by the message {message!r}:")
        out.append(row("said", [loss for (_, loss), yes in zip(pairs, said) if yes]))
        out.append(row("not said", [loss for (_, loss), yes in zip(pairs, said) if not yes]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("matches", nargs="+", metavar="LOG:JUDGED",
                        help="a match.py --debug log and its quality.py --json file")
    parser.add_argument("--engine", default="kogge-gpu", help="the engine whose moves to group")
    parser.add_argument("--late", type=float, default=GUARD_SHARE,
                        help="a late first depth, in soft limits (default: the GPU's entry guard)")
    parser.add_argument("--message", help="group by whether a search said this in an info string")
    args = parser.parse_args(argv)
    pairs: list[tuple[iterations.Search, int]] = []
    searched = 0
    for item in args.matches:
        log, sep, judged = item.rpartition(":")
        if not sep:
            parser.error(f"want LOG:JUDGED, not {item!r}")
        try:
            with Path(log).open(errors="replace") as lines:
                searches = iterations.read_log(lines, []).get(args.engine, [])
            losses = judged_losses(quality.load_judged(Path(judged)), args.engine)
        except (OSError, ValueError, TypeError) as e:
            print(f"{item}: {e}", file=sys.stderr)
            return 1
        searched += len(searches)
        for search in searches:
            fen = position_fen(search.position)
            if fen is not None and fen in losses:
                pairs.append((search, losses[fen]))
    if not pairs:
        print(f"no search of {args.engine} matched a judged move", file=sys.stderr)
        return 1
    print(f"{args.engine}: {len(pairs)} of {searched} searches with a judged move")
    print("\n".join(report(pairs, args.late, args.message)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
