#!/usr/bin/env python3
"""How deep engines search the positions of real games, in the order a game reaches them: each
engine replays the games of a PGN, searching its side's positions at a fixed time a move, with its
table kept from move to move (one `ucinewgame` a game), as in a game but without the clock's say.

The question it answers (thirty-second session): in games against 16 CPU threads the GPU search's
median depth stays at 18 from move 41 on while the CPU's grows to 22 (docs/STRENGTH.md), though
with a fresh table both reach depth 18 in endgames in about the same time (`bench/time-to-depth.py`).
What a game adds is the table left by the moves before, and short moves.

    PYTHONPATH=... bench/game-depths.py --pgn games.pgn --games 8 --movetime 0.1 \\
        --engine gpu="kogge --backend cuda" --engine cpu16="kogge --backend cpu" \\
        --option cpu16:Threads=16 --option gpu:Hash=1024 --option cpu16:Hash=1024

Prints, per engine and part of the game (moves 1-20, 21-40, 41 on), the positions searched and
the median and mean depth, median nodes and nodes a second (as the engine reports them);
`--json FILE` keeps every search, with its position and the move played (`bench/move-quality.py`
judges them). `--clock BASE+INC` hands each search a clock instead of a fixed time, `--depth N` a
depth (two searches' moves at equal depth, whatever their speed). `--stderr DIR`
keeps each engine's stderr (the GPU search's `KOGGE_SEARCH_TRACE` lines). Needs python-chess.

Two runs' saved searches of the same games compared position by position (the mean change in
depth of the second against the first, with a 95% interval, by part of the game), as the
thirty-second session judged the host's knobs:

    bench/game-depths.py --paired base.json new.json

`--warm-replies K` (seventy-eighth session) asks what the GPU's searches after an unexpected reply
would gain if spare workers had searched the replies the engine's own search did not expect while
it searched: after the opponent's reply was played, and before the engine searches the position
it reached, the engine first searches the position before that reply (after the engine's side's
move in the game) with MultiPV K, to the depth its search before reached less `--warm-less`
(default 3), untimed and with the table kept; the timed search comes after it. Each record then
keeps the warm search's moves and seconds and whether the game's reply was among them
(`warm_hit`). Paired against a run without it (below), the rows "off it, reply warmed" show the
gain where the warm search covered the reply; its seconds against the timed searches' say what
a side search of that depth would have to fit into. The pairing also prints each run's depth
off the line against its own search before (a move earlier in the same replay), and how many
searches were four plies or more short, split by whether the second run's warm search had the
reply: the warm search's untimed time deepens the expected reply's tree too, which the paired
rows count as gain, and the seventy-ninth session found the short searches after the replies
two lines missed.

`--fresh` sends `ucinewgame` before every search: each from an empty table, the control for what
the game's table does (the positions and their order the same). `--lines` keeps every line each
search reported (depth, bound, time, nodes, principal variation), and
`bench/game-depths.py --ply-cost RUN.json [...]` reads them as
`tools/match/iterations.py` reads a match's log: what each completed depth cost against the depth
before it, in time and nodes, by the reply before and by the depth against the deepest the
search before completed (the seventy-ninth session found the GPU's new depths in games costing
2.8-3.7 times the depth before where 16 threads' cost 2.1-2.3 times), so that kernel and host
knobs can be weighed on it by replays.

`bench/game-depths.py --tree A.json B.json [A2.json B2.json ...]` compares two such replays'
trees position by position (pairs pooled, say each side's): for each depth both completed, A's
nodes and time to it over B's (geometric means), on and off A's expected line, then pooled over
depths 13-18 (`TREE_DEPTHS=LO-HI` for others) by both runs' lines, which differ (the eightieth
session: where neither run expected the reply the GPU's 264 workers spent 3.3 times 16 threads'
nodes to a depth, where both did 1.5 times).

Each search also records whether the game's moves since the engine's search before (in the same
game) were the start of that search's principal variation (`after_pv`: true, false, or null for
a game's first search or one without a PV). The pairing adds rows for the positions the first
run reached off its expected line, where the root's table entry is most likely a bound and the
tree under it cold: the sixty-seventh session found the GPU search's depth falling twice as far
there as 16 threads'.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import chess
import chess.engine
import chess.pgn

from uci_specs import (PARTS, load_runs, mean_interval, open_ready, options_for, part_of,
                        replayed_position)

# One reading of a search's lines for matches and replays: tools/match/iterations.py's.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools", "match"))
import iterations  # noqa: E402

def positions_of(game: chess.pgn.Game, side: str) -> list[chess.Board]:
    """The game's positions before each move made by `side` (white, black or both), in order."""
    board = game.board()
    out = []
    for move in game.mainline_moves():
        mover = "white" if board.turn == chess.WHITE else "black"
        if side in ("both", mover):
            out.append(board.copy())
        board.push(move)
    return out


def after_pv(before: chess.Board | None, pv: list[str] | None, board: chess.Board) -> bool | None:
    """Whether the moves that led from `before` (the engine's last searched position of the game)
    to `board` start `pv`, that search's principal variation (None: no search before, or a PV too
    short to tell)."""
    if before is None or not pv:
        return None
    between = [m.uci() for m in board.move_stack[len(before.move_stack):]]
    if len(pv) < len(between):
        return None if pv == between[: len(pv)] else False
    return pv[: len(between)] == between


def warm_position(before: chess.Board | None, board: chess.Board) -> tuple[chess.Board, str] | None:
    """The position between `before` (the engine's last searched position) and `board` (its next)
    where the opponent was to move, and the reply the game played there: None unless exactly two
    moves lie between (the engine's side's move and the reply)."""
    if before is None:
        return None
    between = board.move_stack[len(before.move_stack):]
    if len(between) != 2:
        return None
    middle = before.copy()
    middle.push(between[0])
    return middle, between[1].uci()


def warm_depth(depth_before: int | None, less: int) -> int | None:
    """The warm search's depth: the engine's search before's depth less `less`, at least 1 (None
    where that search reported no depth)."""
    return None if depth_before is None else max(1, depth_before - less)


def clock_limit(spec: str) -> chess.engine.Limit:
    """`BASE+INC` (seconds) as both sides' clocks: a search the engine's time manager sizes."""
    base, _, inc = spec.partition("+")
    b, i = float(base), float(inc or 0)
    return chess.engine.Limit(white_clock=b, black_clock=b, white_inc=i, black_inc=i)


def search_limit(movetime: float, clock: str | None, depth: int | None) -> chess.engine.Limit:
    """A search's limit: a depth (`go depth`, the same tree whatever the machine's speed, for
    comparing two searches' moves at equal depth), else a clock, else a fixed time."""
    if depth is not None:
        return chess.engine.Limit(depth=depth)
    if clock:
        return clock_limit(clock)
    return chess.engine.Limit(time=movetime)


def summarise(records: list[dict]) -> list[dict]:
    """Per engine and part of the game (in PARTS' order): positions, median and mean depth of the
    searches that reported one, median nodes, and nodes a second over the part."""
    rows = []
    for engine in dict.fromkeys(r["engine"] for r in records):
        for _, _, part in PARTS:
            mine = [r for r in records if r["engine"] == engine and part_of(r["fullmove"]) == part]
            if not mine:
                continue
            depths = [r["depth"] for r in mine if r["depth"] is not None]
            seconds = sum(r["seconds"] for r in mine)
            nodes = [r["nodes"] for r in mine]
            rows.append({
                "engine": engine,
                "part": part,
                "positions": len(mine),
                "median_depth": statistics.median(depths) if depths else None,
                "mean_depth": statistics.fmean(depths) if depths else None,
                "median_nodes": statistics.median(nodes),
                "nps": sum(nodes) / seconds if seconds > 0 else 0.0,
            })
    return rows


def format_row(row: dict) -> str:
    depth = ("no depth" if row["median_depth"] is None else
             f"depth median {row['median_depth']:g}, mean {row['mean_depth']:.1f}")
    return (f"{row['engine']}: {row['part']}: {row['positions']} positions, {depth}, "
            f"median {row['median_nodes']:.0f} nodes, {row['nps'] / 1e6:.2f} M nodes/s")


def paired(first: list[dict], second: list[dict], line: bool | None = None,
           warmed: bool | None = None) -> list[dict]:
    """By part of the game: the mean change in depth from `first` to `second` over the positions
    both searched (uci_specs.replayed_position) with a depth, and its 95% interval (normal).
    `line` True or False: only the positions the first run reached on, or off, the principal
    variation of its search before (`after_pv`). `warmed` True or False: only those whose reply
    the second run's warm search had, or had not, among its moves (`warm_hit`)."""
    where = replayed_position
    before = {where(r): r for r in first if r["depth"] is not None
              and (line is None or r.get("after_pv") is line)}
    rows = []
    for _, _, part in PARTS:
        changes = [r["depth"] - before[where(r)]["depth"] for r in second
                   if r["depth"] is not None and where(r) in before and part_of(r["fullmove"]) == part
                   and (warmed is None or r.get("warm_hit") is warmed)]
        if not changes:
            continue
        mean, half = mean_interval(changes)
        rows.append({"part": part, "positions": len(changes), "mean_change": mean, "half_width": half})
    return rows


def against_before(records: list[dict], warmed: set | None = None) -> list[dict]:
    """By part of the game, the run's searches off the line of its search before (`after_pv`
    false): the mean change in depth from that search (the same game's, a move before) and how
    many were iterations.FAR_BELOW plies or more short (a match's tail, read the same way).
    `warmed`, a set of positions (uci_specs.replayed_position): only those in it. A replay's
    depths against its own searches before are what the seventy-ninth session read where two
    runs' paired rows mix the warm search's cover with its extra untimed time."""
    rows = []
    for _, _, part in PARTS:
        changes = []
        last: dict = {}
        for r in records:
            before, last[r["game"]] = last.get(r["game"]), r
            if (before is None or r.get("after_pv") is not False or r["depth"] is None
                    or before["depth"] is None or r["fullmove"] != before["fullmove"] + 1
                    or part_of(r["fullmove"]) != part):
                continue
            if warmed is not None and replayed_position(r) not in warmed:
                continue
            changes.append(r["depth"] - before["depth"])
        if changes:
            rows.append({"part": part, "positions": len(changes),
                         "mean_change": statistics.fmean(changes),
                         "far_below": sum(c <= -iterations.FAR_BELOW for c in changes)})
    return rows


def record_lines(record: dict) -> list:
    """A record's saved lines (`--lines`) as iterations.Line, in order."""
    return [iterations.Line(depth, bound, ms, tuple(pv), nodes=nodes)
            for depth, bound, ms, nodes, pv in record.get("lines", [])]


def ply_cost(records: list[dict]) -> str:
    """iterations.ply_cost_row over one engine's records of a replay saved with `--lines`: each
    search of moves 1 to iterations.AGAINST_BEFORE_LAST_MOVE after a search of the same game a move
    before, by its reply (`after_pv`) and by its depths against the deepest that search completed."""
    by_kind: dict[str, list] = {}
    last: dict = {}
    for r in records:
        before, last[r["game"]] = last.get(r["game"]), r
        if (before is None or r["fullmove"] != before["fullmove"] + 1
                or r["fullmove"] > iterations.AGAINST_BEFORE_LAST_MOVE or r.get("after_pv") is None):
            continue
        done = [line.depth for line in record_lines(before) if line.bound == "exact"]
        if not done:
            continue
        kind = "expected" if r["after_pv"] else "not expected"
        by_kind.setdefault(kind, []).extend(
            iterations.ply_cost_ratios(iterations.iterations_held(record_lines(r)), max(done)))
    return iterations.ply_cost_summary(by_kind)


# A depth's row in `--tree` needs this many positions where both runs completed it.
TREE_MIN_POSITIONS = 5


def depth_pairs(first: list[dict], second: list[dict]) -> list[tuple]:
    """Two replays saved with `--lines`, position by position (uci_specs.replayed_position): for
    each depth both completed (an exact line) at a position, (depth, the first run's nodes to it
    over the second's, the same for time, the first run's `after_pv`, the second's)."""
    second_at = {replayed_position(r): r for r in second if r.get("lines")}
    pairs = []
    for r in first:
        other = second_at.get(replayed_position(r))
        if other is None or not r.get("lines"):
            continue
        mine = {line.depth: line for line in record_lines(r) if line.bound == "exact"}
        theirs = {line.depth: line for line in record_lines(other) if line.bound == "exact"}
        for depth in sorted(mine.keys() & theirs.keys()):
            a, b = mine[depth], theirs[depth]
            if a.nodes and b.nodes and a.ms and b.ms:
                pairs.append((depth, a.nodes / b.nodes, a.ms / b.ms, r.get("after_pv"), other.get("after_pv")))
    return pairs


def _ratio(values: list[float]):
    return statistics.geometric_mean(values) if values else None


def tree_ratios(first: list[dict], second: list[dict]) -> list[dict]:
    """depth_pairs by depth: the first run's nodes and time to it over the second's, as geometric
    means over the positions, all of them and split by whether the first run reached the position
    on or off its expected line (`after_pv`). A depth with fewer than TREE_MIN_POSITIONS positions
    is left out. Each ratio is None where no position counts."""
    by_depth: dict[int, list] = {}
    for depth, nodes, ms, line, _ in depth_pairs(first, second):
        by_depth.setdefault(depth, []).append((nodes, ms, line))
    rows = []
    for depth in sorted(by_depth):
        pairs = by_depth[depth]
        if len(pairs) < TREE_MIN_POSITIONS:
            continue
        on = [nodes for nodes, _, line in pairs if line is True]
        off = [nodes for nodes, _, line in pairs if line is False]
        rows.append({"depth": depth, "positions": len(pairs),
                     "nodes": _ratio([nodes for nodes, _, _ in pairs]), "time": _ratio([ms for _, ms, _ in pairs]),
                     "on_positions": len(on), "on_nodes": _ratio(on),
                     "off_positions": len(off), "off_nodes": _ratio(off)})
    return rows


def tree_by_lines(first: list[dict], second: list[dict], low: int, high: int) -> list[dict]:
    """depth_pairs from depth `low` to `high`, pooled, split four ways by whether each run reached
    the position on its own expected line: the two runs' lines differ, and a position off the
    first's but on the second's compares a cold tree with a warm one (the eightieth session: the
    GPU's 264 workers 5.9 times 16 threads' nodes there, 3.3 where both were off)."""
    pairs = [p for p in depth_pairs(first, second) if low <= p[0] <= high]
    rows = []
    for first_on in (True, False):
        for second_on in (True, False):
            cell = [(nodes, ms) for _, nodes, ms, a, b in pairs if a is first_on and b is second_on]
            rows.append({"first_on": first_on, "second_on": second_on, "pairs": len(cell),
                         "nodes": _ratio([nodes for nodes, _ in cell]), "time": _ratio([ms for _, ms in cell])})
    return rows


def format_tree_row(row: dict) -> str:
    def ratio(value) -> str:
        return "-" if value is None else f"x{value:.2f}"
    return (f"depth {row['depth']}: {row['positions']} positions, nodes {ratio(row['nodes'])}, "
            f"time {ratio(row['time'])}; on the line nodes {ratio(row['on_nodes'])} "
            f"({row['on_positions']}), off it {ratio(row['off_nodes'])} ({row['off_positions']})")


def searched(engine, board, limit, token, keep_lines: bool) -> tuple:
    """One timed search: its move, its last info, and with `keep_lines` every line it reported as
    [depth, bound, ms, nodes, pv] (else None)."""
    if not keep_lines:
        played = engine.play(board, limit, game=token, info=chess.engine.INFO_ALL)
        return played.move, played.info, None
    lines = []
    with engine.analysis(board, limit, game=token, info=chess.engine.INFO_ALL) as analysis:
        for info in analysis:
            if "depth" in info and "pv" in info and info.get("multipv", 1) == 1:
                bound = "lower" if info.get("lowerbound") else "upper" if info.get("upperbound") else "exact"
                lines.append([info["depth"], bound, round(info.get("time", 0.0) * 1000),
                              info.get("nodes"), [m.uci() for m in info["pv"]]])
        best = analysis.wait()
    # The lines merged, as `engine.play` gives its info: the record reads the same either way.
    return best.move, analysis.info, lines


def main() -> int:
    if len(sys.argv) >= 3 and sys.argv[1] == "--ply-cost":
        for path, records in zip(sys.argv[2:], load_runs(sys.argv[2:])):
            if not any("lines" in r for r in records):
                print(f"{path}: no lines saved (replay with --lines)", file=sys.stderr)
                return 1
            for engine in dict.fromkeys(r["engine"] for r in records):
                mine = [r for r in records if r["engine"] == engine]
                print(f"{path}, {engine}: a depth's cost against the depth before's, D the search "
                      f"before's deepest, moves 1-{iterations.AGAINST_BEFORE_LAST_MOVE}: {ply_cost(mine)}")
        return 0
    if len(sys.argv) >= 4 and len(sys.argv) % 2 == 0 and sys.argv[1] == "--tree":
        # Pairs of runs (A B [A2 B2 ...], say each side's), pooled: the positions' keys name the side.
        runs = load_runs(sys.argv[2:])
        first = [r for run in runs[0::2] for r in run]
        second = [r for run in runs[1::2] for r in run]
        rows = tree_ratios(first, second)
        if not rows:
            print("no depth both runs completed in enough positions (replays with --lines)", file=sys.stderr)
            return 1
        print(f"{' '.join(sys.argv[2::2])} against {' '.join(sys.argv[3::2])}: nodes and time to each "
              "depth both completed (geometric means over the positions)")
        for row in rows:
            print(format_tree_row(row))
        spec = os.environ.get("TREE_DEPTHS", "13-18")
        try:
            low, high = (int(d) for d in spec.split("-"))
        except ValueError:
            print(f"TREE_DEPTHS={spec}: not LO-HI (two depths)", file=sys.stderr)
            return 1
        print(f"depths {low}-{high}, by each run's line (A's, B's):")
        for row in tree_by_lines(first, second, low, high):
            where = ", ".join("on" if on else "off" for on in (row["first_on"], row["second_on"]))
            nodes = "-" if row["nodes"] is None else f"nodes x{row['nodes']:.2f}, time x{row['time']:.2f}"
            print(f"  {where}: {row['pairs']} depths, {nodes}")
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "--paired":
        runs = load_runs(sys.argv[2:])
        tables = [(label, paired(*runs, line=line)) for line, label in
                  ((None, ""), (True, ", on the first run's expected line"), (False, ", off it"))]
        # A second run with warm searches (--warm-replies): off the line, by whether it covered the reply.
        if any("warm_hit" in r for r in runs[1]):
            tables += [(label, paired(*runs, line=False, warmed=hit)) for hit, label in
                       ((True, ", off it, reply warmed"), (False, ", off it, reply not warmed"))]
        if not tables[0][1]:
            print("no position searched in both runs", file=sys.stderr)
            return 1
        for label, rows in tables:
            for row in rows:
                print(f"{row['part']}{label}: {row['positions']} positions, depth "
                      f"{row['mean_change']:+.2f} ± {row['half_width']:.2f}")
        # Each run off the line against its own searches before, by whether the second run's
        # warm search had the reply: a side search's cover apart from its untimed time.
        hit = {replayed_position(r) for r in runs[1] if r.get("warm_hit")}
        missed = {replayed_position(r) for r in runs[1] if r.get("warm_hit") is False}
        groups = [("", None)] if not hit and not missed else [
            (", reply warmed", hit), (", reply not warmed", missed)]
        for name, run in (("first", runs[0]), ("second", runs[1])):
            for label, where in groups:
                for row in against_before(run, where):
                    print(f"{row['part']}, off the line, {name} run{label}: {row['positions']} "
                          f"positions, depth against its search before {row['mean_change']:+.2f}, "
                          f"{row['far_below']} of them {iterations.FAR_BELOW} or more plies short")
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pgn", required=True)
    ap.add_argument("--games", type=int, default=8, help="the PGN's first N games")
    ap.add_argument("--movetime", type=float, default=0.1, help="seconds a search")
    limits = ap.add_mutually_exclusive_group()
    limits.add_argument("--clock", help="BASE+INC seconds: each search gets this clock instead of a "
                        "fixed time (BASE left on both clocks), so the engine's time manager decides, "
                        "as in a game")
    limits.add_argument("--depth", type=int, help="each search to this depth instead of a fixed time")
    ap.add_argument("--side", choices=("white", "black", "both"), default="white",
                    help="whose positions each engine searches (a player searches every other one)")
    ap.add_argument("--from-move", type=int, default=1,
                    help="search from this move on (the table is still built only from then)")
    ap.add_argument("--to-move", type=int, default=None,
                    help="and up to this move (default: to the game's end)")
    ap.add_argument("--engine", action="append", required=True, help="NAME=COMMAND")
    ap.add_argument("--option", action="append", default=[], help="NAME:Option=Value")
    ap.add_argument("--warm-replies", type=int, default=0, metavar="K",
                    help="before each search, search the position before the opponent's reply with "
                    "MultiPV K, untimed (see above)")
    ap.add_argument("--warm-less", type=int, default=3, metavar="N",
                    help="the warm search's depth: the search before's depth less N")
    ap.add_argument("--fresh", action="store_true",
                    help="every search from an empty table (ucinewgame before each)")
    ap.add_argument("--lines", action="store_true",
                    help="keep every line each search reported (for --ply-cost)")
    ap.add_argument("--json", help="write every search here")
    ap.add_argument("--stderr", help="a folder for each engine's stderr (NAME.stderr)")
    args = ap.parse_args()
    if args.fresh and args.warm_replies:
        ap.error("--warm-replies searches for the next search's table, which --fresh empties")

    games = []
    with open(args.pgn) as f:
        while len(games) < args.games:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            games.append(game)
    if not games:
        print(f"no games in {args.pgn}", file=sys.stderr)
        return 1
    limit = search_limit(args.movetime, args.clock, args.depth)
    records = []
    for spec in args.engine:
        name, command = spec.split("=", 1)
        err = None
        if args.stderr:
            os.makedirs(args.stderr, exist_ok=True)
            err = open(os.path.join(args.stderr, f"{name}.stderr"), "w")
        engine = open_ready(command, options_for(name, args.option), stderr=err)
        try:
            for g, game in enumerate(games):
                token = object()  # a new `game`: python-chess sends `ucinewgame` first
                before, before_pv, before_depth = None, None, None
                for board in positions_of(game, args.side):
                    if board.fullmove_number < args.from_move:
                        continue
                    if args.to_move is not None and board.fullmove_number > args.to_move:
                        break
                    if args.fresh:
                        token = object()  # python-chess sends `ucinewgame` for a new game object
                    warm = warm_search(engine, token, before, before_depth, board, args)
                    start = time.monotonic()
                    move, info, lines = searched(engine, board, limit, token, args.lines)
                    records.append({
                        "engine": name,
                        "game": g,
                        "fullmove": board.fullmove_number,
                        "pieces": chess.popcount(board.occupied),
                        "depth": info.get("depth"),
                        # The GPU's stack holds 64 plies, the CPU's 128: how near a search came.
                        "seldepth": info.get("seldepth"),
                        "nodes": info.get("nodes", 0),
                        "seconds": time.monotonic() - start,
                        # What bench/move-quality.py judges.
                        "fen": board.fen(),
                        "move": move.uci() if move else None,
                        "after_pv": after_pv(before, before_pv, board),
                        **warm,
                        **({"lines": lines} if lines is not None else {}),
                    })
                    before, before_pv = board, [m.uci() for m in info.get("pv", [])]
                    before_depth = info.get("depth")
                # After each game, so that a run stopped by a timeout keeps what it searched.
                save(args.json, records)
        finally:
            engine.quit()
            if err:
                err.close()
    for row in summarise(records):
        print(format_row(row))
    save(args.json, records)
    return 0


def warm_search(engine, token, before, before_depth, board, args) -> dict:
    """With --warm-replies K: the untimed MultiPV K search of the position before the opponent's
    reply that led to `board` (see above), as the record's fields; {} without it or where there is
    no such position."""
    found = warm_position(before, board) if args.warm_replies > 0 else None
    depth = warm_depth(before_depth, args.warm_less)
    if found is None or depth is None:
        return {}
    middle, reply = found
    start = time.monotonic()
    infos = engine.analyse(middle, chess.engine.Limit(depth=depth), multipv=args.warm_replies, game=token)
    moves = [info["pv"][0].uci() for info in infos if info.get("pv")]
    return {"warm_depth": depth, "warm_moves": moves, "warm_seconds": time.monotonic() - start,
            "warm_hit": reply in moves}


def save(path: str | None, records: list[dict]) -> None:
    if path:
        with open(path, "w") as f:
            json.dump(records, f)


if __name__ == "__main__":
    sys.exit(main())
