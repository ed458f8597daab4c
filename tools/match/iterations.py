"""How each engine's searches went, iteration by iteration, read from a match's UCI log
(`match.py --debug`, every line each engine sent and got, under its pid).

The sixty-sixth session (docs/STRENGTH.md) asked how the GPU search's searches end in games: how
many complete no depth or only their first, and how often an aspiration window fails. The GPU
search starts at the depth of the root's table entry with a window around the entry's score, so
its first window is the one most likely to fail, the more so where the opponent's reply was not
the one its last search expected (the entry most likely came from a null-window search then,
not from a principal variation). Per engine this prints:
- how its searches ended: no depth completed, only the first, in a re-search (the last line a
  bound), or after further depths;
- how often a search's first window failed, split by whether the opponent played the reply the
  engine's previous principal variation expected;
- how often a later depth's first window failed (depths an engine searches without a window,
  Kogge's below 5, count as held), and the share of the reported time spent in windows that
  failed;
- of those failures, how many the same depth's exact value, once found, did not bear out: it
  was not beyond the side of the window that failed (Kogge's window: the last depth's value
  ± 18 cp, from depth 5), the instability of a pruned search under a narrow window;
- how often a window opened after 1 s failed: until the eighty-fourth session Kogge's CPU search
  reported a failed window only after its first second (so that a GUI was not flooded), so only
  these windows compare its older logs with an engine that reports every one (its GPU search,
  and the CPU search since);
- by part of the game and by whether the opponent's reply was the expected one, the deepest depth
  the searches completed and their time a move: a search after an unexpected reply starts from a
  colder table, and the sixty-seventh session found the GPU's depth falling twice as far there
  as 16 threads';
- the work to complete depth 14, 16 and 18 by whether the opponent's reply was the expected
  one: the median nodes and time at a search's first completed line that deep (the seventy-fourth
  session found the GPU's nodes to depth 16 4.4 times 16 threads' after an unexpected reply, 1.8
  times after the expected one);
- the time of a search's first completed depth against its soft limit (below), in bins, and the
  searches that completed none (with no info line at all too) with their share of the time the
  clock timed: the GPU search starts at its root entry's depth, and the seventy-fifth session
  found its first iteration finishing past twice the soft limit in 3% of its searches and never in
  2%, those running to the hard limit and playing a move no completed depth chose;
- the same by where the first depth started against the deepest depth D the engine's search two
  plies before completed: below D - 1 (a root off that search's line, or the line's own D - 2),
  at D - 1, at D or deeper (an entry left by a helper searching ahead or by another path), or
  unknown (no line at all); in the seventy-fifth session's games the GPU's first depth came past
  twice the soft limit or never in 15% of its searches from D on, 3-4% below;
- how often the GPU search's entry guard gave up a first iteration (its `info string`), and the
  deepest depth those searches completed against the entry's; when the retreat's depth completed
  (in soft limits), how much later the next depth did, and how many searches stopped right after
  the retreat's depth (the seventy-seventh session found most did, the next depth a tenth of the
  soft limit away);
- over moves 1-40, the deepest completed depth against the deepest the search two plies before
  completed, by the reply and, after an unexpected one, by how the first window went: the mean
  and how many ended FAR_BELOW plies or more short (the seventy-eighth session found 22% of the
  GPU's searches after an unexpected reply that far short, 16 threads' 0-1%, whatever the first
  window did: the depth the GPU loses there is in a tail, not spread);
- over the same moves, by the reply, how soon the searches completed depth D - 4 to D (D the
  deepest the search two plies before completed), in soft limits: the median (a search that never
  completed it counts as past every limit) and the share done by the soft limit (the
  seventy-eighth session found the GPU's medians after an unexpected reply near 16 threads' and
  its share by the soft limit far below: 82% at D - 4 against 99%);
- over the same moves, by the reply, what a completed depth cost against the depth before it, in
  time and nodes, by its place against D (the deepest the search two plies before completed):
  the seventy-ninth session found the GPU's new depths costing 2.8-3.1 times the depth before
  after the expected reply where 16 threads' cost 2.2-2.3 times, its tree growing faster a ply
  and its nodes a second falling;
- by part of the game, the time a move took (from the engine's clock at its next `go`) against
  its soft limit as Kogge's TimeManager sets it (sudden death planned as 30 moves; the engine's
  `Move Overhead` and `Slow Mover` as the log's `setoption` lines set them, else 30 ms and
  100), so that a GPU search that overruns its limit more than the CPU's shows. The limit is
  the shared one for every engine: the GPU search's own is 75% of it (`GPU_SOFT_LIMIT_PERCENT`,
  from the sixty-eighth session on), so its ratio compares with the CPU's as it is, and is 4/3
  of the ratio against its own limit.

    python3 tools/match/iterations.py uci.txt [more.txt ...] [--name kogge-cpu-16:Threads=16]

Engines are named by the harness's "engine NAME is pid N" lines; in a log without them (before
the sixty-sixth session), `--name NAME:OPTION=VALUE` names the pids that were sent that option,
and the others are "other". Times are the engines' own `info ... time`: a search's time ends at
its last line, not at its `bestmove`.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

# python-chess's debug lines: "... <TimedUciProtocol (pid=649)>: << go wtime ...".
UCI_LINE = re.compile(r"\(pid=(\d+)\)>: (<<|>>) (.*)$")
# players.py's line naming a pid.
PID_LINE = re.compile(r"engine (.+) is pid (\d+)$")
# The options that change Kogge's soft limit.
TIME_OPTION = re.compile(r"setoption name (Move Overhead|Slow Mover) value (\d+)$")

# Windows opened after this many milliseconds are reported by every engine (see above).
LATE_MS = 1000
# Kogge's TimeManager (crates/search/src/timeman.rs): the limits of a clock without moves to go,
# and the UCI options' defaults.
MOVE_OVERHEAD_MS = 30
SLOW_MOVER = 100
SUDDEN_DEATH_MOVES = 30
SOFT_CAP = 0.4
HARD_CAP = 0.6
HARD_OVER_SOFT = 4
# Kogge's aspiration window (crates/search-cpu/src/params.rs): half-width and first depth.
ASPIRATION_WINDOW = 18
ASPIRATION_MIN_DEPTH = 5
# Parts of the game, by the move number counted from the opening position.
PARTS = ((1, 10), (11, 20), (21, 40), (41, 10_000))
# Coarser parts for the depth by reply, where each cell needs more searches.
DEPTH_PARTS = ((1, 20), (21, 40), (41, 10_000))
# A move searched this deep or less counts as shallow (at 10 s + 0.1 s, 16 threads end 3-7% of
# their moves 1-40 there).
SHALLOW_DEPTH = 16
# The depths whose work (nodes and time to complete them) is compared by the reply before: at
# 10 s + 0.1 s after an unexpected reply the GPU search needed 4.4 times 16 threads' nodes to
# complete depth 16, after the expected one 1.8 times (125 games, seventy-fourth session).
WORK_DEPTHS = (14, 16, 18)
# The GPU search's entry guard says one of these (crates/search-gpu/src/backend.rs, ENTRY_GUARD):
# "depth E from the table's entry not done by 1x the soft limit: searching depth S instead", or
# as the seventy-sixth session's experiment (KOGGE_FIRST_GUARD, docs/data/gpu-s76.tar.xz) said it,
# "first iteration at depth E not done by the guard: depth S".
GUARD_MESSAGES = (
    re.compile(r"^depth (\d+) from the table's entry not done by .*: searching depth (\d+) instead$"),
    re.compile(r"^first iteration at depth (\d+) not done by the guard: depth (\d+)$"),
)
# A search that ends this many plies or more below the depth its search two plies before
# completed counts as far short (after an unexpected reply 22% of the GPU's searches of moves 1-40
# in the seventy-seventh session's games, 16 threads' 0.3%; seventy-eighth session).
FAR_BELOW = 4
# The moves over which the depth against the search before is compared (the game's later moves
# come in runs of forced replies, where the two engines' searches are alike).
AGAINST_BEFORE_LAST_MOVE = 40
# The depths, against the search before's deepest, whose completion times `reach_row` gives.
REACH_OFFSETS = (-4, -3, -2, -1, 0)
# The depths, against the search before's deepest, whose cost against the depth before's
# `ply_cost_row` gives (the first and the last take in the depths below and above them).
PLY_COST_OFFSETS = (-2, -1, 0, 1, 2)
# An iteration shorter than this (ms) is left out of `ply_cost_row`: the info lines' times are
# whole milliseconds.
PLY_COST_MIN_MS = 3
# The bins of a first completed depth's time, in soft limits (the shared limit: the GPU search's
# own is 75% of it, so 2x here is 2.67 times its own).
FIRST_DONE_BINS = (0.5, 1.0, 2.0)


@dataclass(frozen=True)
class Line:
    """One `info` line of a search: an iteration's result or a failed window's bound."""

    depth: int
    bound: str  # "exact", "upper" or "lower"
    ms: int
    pv: tuple[str, ...]
    cp: int | None = None  # the score, None for a mate score
    nodes: int | None = None  # the search's nodes so far, None where the line gives none


@dataclass
class Search:
    pid: str
    moves: tuple[str, ...]  # the game's moves sent with the position, the opponent's last
    lines: list[Line] = field(default_factory=list)
    position: str = ""  # the `position` command the search was sent
    messages: list[str] = field(default_factory=list)  # its `info string` lines' text
    clock_ms: int | None = None  # the engine's own time left at `go`
    inc_ms: int = 0
    move_overhead_ms: int = MOVE_OVERHEAD_MS  # the engine's options when it was sent `go`
    slow_mover: int = SLOW_MOVER
    used_ms: int | None = None  # from its clock at its next search of the game
    # The engine's search of the same game two plies before (None: its first, or not known).
    before: Search | None = field(default=None, repr=False, compare=False)

    def number(self) -> int:
        """The move number from the opening position."""
        return len(self.moves) // 2 + 1

    def soft_ms(self) -> float | None:
        """The soft limit Kogge's TimeManager sets for this clock, `Slow Mover` applied (never
        past the hard limit)."""
        if self.clock_ms is None:
            return None
        available = max(self.clock_ms - self.move_overhead_ms, 1)
        soft = min(available / SUDDEN_DEATH_MOVES + self.inc_ms * 0.75, SOFT_CAP * available)
        hard = max(min(HARD_OVER_SOFT * soft, HARD_CAP * available), soft)
        return min(soft * self.slow_mover / 100, hard)


def white_to_move(position: str) -> bool:
    """Whether White moves after a `position` command's moves."""
    words = position.split()
    white = words[1] == "startpos" or (len(words) > 3 and words[3] == "w")
    moves = len(words) - words.index("moves") - 1 if "moves" in words else 0
    return white == (moves % 2 == 0)


def word_after(words: list[str], key: str) -> int | None:
    """The whole number after `key` in a command's words, None where there is none."""
    if key not in words[:-1]:
        return None
    try:
        return int(words[words.index(key) + 1])
    except ValueError:
        return None


def go_clock(go: str, white: bool) -> tuple[int | None, int]:
    """The side to move's time and increment in a `go` command (None: no clock)."""
    words = go.split()
    side = "w" if white else "b"
    return word_after(words, f"{side}time"), word_after(words, f"{side}inc") or 0


def parse_info(text: str) -> Line | None:
    """An `info` line with a depth and a time (not a `currmove` line), else None."""
    words = text.split()
    depth, ms = word_after(words, "depth"), word_after(words, "time")
    if words[:1] != ["info"] or depth is None or ms is None:
        return None
    bound = "upper" if "upperbound" in words else "lower" if "lowerbound" in words else "exact"
    pv = tuple(words[words.index("pv") + 1 :]) if "pv" in words else ()
    return Line(depth, bound, ms, pv, word_after(words, "cp"), word_after(words, "nodes"))


def read_log(lines, names: list[tuple[str, str]]) -> dict[str, list[Search]]:
    """The searches of a log by engine name. `names`: (name, "OPTION=VALUE") pairs naming the pids
    sent that option, for logs without the harness's pid lines."""
    named: dict[str, str] = {}
    by_option: dict[str, str] = {}
    position: dict[str, tuple[str, ...]] = {}
    command: dict[str, str] = {}
    to_move: dict[str, bool] = {}
    # The time options each pid was sent (name -> value), which set its soft limit.
    options: dict[str, dict[str, int]] = {}
    previous: dict[str, Search] = {}
    running: dict[str, Search] = {}
    done: list[Search] = []
    for raw in lines:
        raw = raw.rstrip("\n")
        found = PID_LINE.search(raw)
        if found and "pid=" not in raw:
            named[found[2]] = found[1]
            continue
        found = UCI_LINE.search(raw)
        if not found:
            continue
        pid, direction, text = found.groups()
        if direction == "<<":
            for name, option in names:
                key, _, value = option.partition("=")
                if text == f"setoption name {key} value {value}":
                    by_option[pid] = name
            if (option := TIME_OPTION.match(text)) is not None:
                options.setdefault(pid, {})[option[1]] = int(option[2])
            if text.startswith("position"):
                command[pid] = text
                position[pid] = tuple(text.split(" moves ", 1)[1].split()) if " moves " in text else ()
                to_move[pid] = white_to_move(text)
            elif text.startswith("go"):
                search = Search(pid, position.get(pid, ()), position=command.get(pid, ""))
                search.clock_ms, search.inc_ms = go_clock(text, to_move.get(pid, True))
                sent = options.get(pid, {})
                search.move_overhead_ms = sent.get("Move Overhead", MOVE_OVERHEAD_MS)
                search.slow_mover = sent.get("Slow Mover", SLOW_MOVER)
                last = previous.get(pid)
                # The same game two plies on: the clock tells what the last search took.
                if (last is not None and len(search.moves) == len(last.moves) + 2
                        and search.moves[: len(last.moves)] == last.moves):
                    search.before = last
                    if last.clock_ms is not None and search.clock_ms is not None:
                        last.used_ms = last.clock_ms - search.clock_ms + search.inc_ms
                previous[pid] = search
                running[pid] = search
        elif pid in running:
            if text.startswith("bestmove"):
                done.append(running.pop(pid))
            elif text.startswith("info string "):
                running[pid].messages.append(text[len("info string "):])
            elif (info := parse_info(text)) is not None:
                running[pid].lines.append(info)
    engines: dict[str, list[Search]] = {}
    for search in done:
        name = named.get(search.pid) or by_option.get(search.pid) or "other"
        engines.setdefault(name, []).append(search)
    return engines


def ending(search: Search) -> str:
    """How a search ended (see the module's doc)."""
    exact = [line for line in search.lines if line.bound == "exact"]
    if not exact:
        return "no depth completed"
    if search.lines[-1].bound != "exact":
        return "ended in a re-search"
    if len(exact) == 1:
        return "only its first depth" + (", after a failed window" if len(search.lines) > 1 else "")
    return "further depths"


def windows(search: Search) -> list[tuple[int, Line]]:
    """Each depth's first window, as (index of the depth in the search, its line)."""
    result = []
    for i, line in enumerate(search.lines):
        if i == 0 or search.lines[i - 1].bound == "exact":
            result.append((len(result), line))
    return result


def reply(search: Search) -> str:
    """Whether the opponent's move before `search` was the reply the engine's search before it in
    the game expected: that search's last completed line's second move, after its first."""
    if search.before is None:
        return "unknown"
    exact = [line for line in search.before.lines if line.bound == "exact"]
    if not exact or len(exact[-1].pv) < 2 or search.moves[-2] != exact[-1].pv[0]:
        return "unknown"
    return "expected" if search.moves[-1] == exact[-1].pv[1] else "not expected"


def borne_out(search: Search) -> list[tuple[str, bool]]:
    """For each later depth whose first window failed, with Kogge's window around the last depth's
    value and the same depth completed afterwards: the side that failed ("high" or "low"), and
    whether the exact value lay beyond it (the failure borne out), not inside the window or beyond
    its other side. The side is kept because a parallel search's spurious failures need not come
    evenly from both (a fail high ends a root's search at its first move beyond the window, a fail
    low only after every move)."""
    result = []
    lines = search.lines
    for i in range(1, len(lines)):
        before, line = lines[i - 1], lines[i]
        if (before.bound != "exact" or line.bound == "exact" or before.cp is None
                or line.depth != before.depth + 1 or line.depth < ASPIRATION_MIN_DEPTH):
            continue
        after = next((later for later in lines[i + 1:] if later.bound == "exact"), None)
        if after is None or after.depth != line.depth or after.cp is None:
            continue
        if line.bound == "upper":
            result.append(("low", after.cp <= before.cp - ASPIRATION_WINDOW))
        else:
            result.append(("high", after.cp >= before.cp + ASPIRATION_WINDOW))
    return result


def not_borne_out(failures: list[tuple[str, bool]]) -> str:
    """The share of `borne_out`'s failures that were not borne out."""
    return share(sum(not held for _, held in failures), len(failures))


def failed_time(search: Search) -> tuple[int, int]:
    """(ms in windows that failed, ms reported in all): each line's time since the line before."""
    failed = total = 0
    before = 0
    for line in search.lines:
        took = max(line.ms - before, 0)
        before = line.ms
        total += took
        if line.bound != "exact":
            failed += took
    return failed, total


def share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "-"


def report(name: str, searches: list[Search]) -> str:
    every = searches
    searches = [s for s in searches if s.lines]
    out = [f"{name}: {len(searches)} searches with an info line"]
    endings = Counter(ending(s) for s in searches)
    for kind in (
        "no depth completed",
        "only its first depth",
        "only its first depth, after a failed window",
        "ended in a re-search",
        "further depths",
    ):
        out.append(f"  {kind}: {share(endings[kind], len(searches))}")
    first: Counter = Counter()
    first_failed: Counter = Counter()
    later = later_failed = late = late_failed = 0
    confirmed: list[tuple[str, bool]] = []
    failed_ms = total_ms = 0
    for search in searches:
        kind = reply(search)
        for index, line in windows(search):
            failed = line.bound != "exact"
            if index == 0:
                first[kind] += 1
                first_failed[kind] += failed
            else:
                later += 1
                later_failed += failed
        for i, line in enumerate(search.lines):
            # Opened after LATE_MS: the line before it, a completed depth, came after it too.
            if i > 0 and search.lines[i - 1].bound == "exact" and search.lines[i - 1].ms >= LATE_MS:
                late += 1
                late_failed += line.bound != "exact"
        confirmed += borne_out(search)
        f, t = failed_time(search)
        failed_ms += f
        total_ms += t
    out.append(
        "  first window failed: "
        + "; ".join(f"reply {k} {share(first_failed[k], first[k])}" for k in ("expected", "not expected", "unknown"))
        + f"; all {share(sum(first_failed.values()), sum(first.values()))}"
    )
    out.append(f"  later depths' first window failed: {share(later_failed, later)}")
    out.append(
        "  of those, with the depth completed after, not borne out (its value not beyond the side that failed): "
        + "; ".join([not_borne_out(confirmed)]
                    + [f"failed {side} {not_borne_out([c for c in confirmed if c[0] == side])}" for side in ("high", "low")])
    )
    out.append(f"  windows opened after {LATE_MS} ms failed: {share(late_failed, late)}")
    out.append(f"  reported time in failed windows: {share(failed_ms, total_ms)} ms")
    out.append("  deepest completed depth by the reply before, moves "
               + "; ".join(depth_part(searches, part) for part in DEPTH_PARTS))
    out.append("  first completed depth's time against the soft limit: " + first_done(every))
    out.append("  by the first depth against the deepest D the search before completed: " + by_start(every))
    out.append(f"  deepest completed depth against the search before's, moves 1-{AGAINST_BEFORE_LAST_MOVE}: "
               + against_before(searches))
    out.append(f"  depth D-4 to D (D the search before's) done by, in soft limits, moves 1-{AGAINST_BEFORE_LAST_MOVE}: "
               + reach_row(every))
    out.append(f"  a depth's cost against the depth before's, D the search before's deepest, moves 1-{AGAINST_BEFORE_LAST_MOVE}: "
               + ply_cost_row(searches))
    out.append("  time a move against the soft limit, moves " + "; ".join(clock_part(searches, part) for part in PARTS))
    out.append("  the entry guard: " + guarded(every))
    out.append("  the entry guard's retreat, in soft limits: " + retreat_timing(every))
    out.append("  work to complete depth D or deeper by the reply before (medians of the searches that did), "
               + "; ".join(work_part(searches, depth) for depth in WORK_DEPTHS))
    return "\n".join(out)


def deepest(search: Search) -> int | None:
    """The deepest depth the search completed, None where it completed none."""
    return max((line.depth for line in search.lines if line.bound == "exact"), default=None)


def part_label(part: tuple[int, int]) -> str:
    first, last = part
    return f"{first}-{last}" if last < 10_000 else f"{first} on"


def depth_part(searches: list[Search], part: tuple[int, int]) -> str:
    """Moves `part` of the game: for searches after the expected reply and after another, the mean
    deepest completed depth, the share at SHALLOW_DEPTH or less (searches that completed a depth)
    and the mean time a move of those the clock times."""
    first, last = part
    cells = []
    for kind in ("expected", "not expected"):
        mine = [(s, d) for s in searches
                if first <= s.number() <= last and reply(s) == kind and (d := deepest(s)) is not None]
        depths = [d for _, d in mine]
        if depths:
            shallow = sum(d <= SHALLOW_DEPTH for d in depths)
            # The time a move, where the engine's clock tells it: what a time rule that treats
            # the two kinds of root differently moves between them.
            used = [s.used_ms for s, _ in mine if s.used_ms is not None]
            time = f", {sum(used) / len(used) / 1000:.3f} s a move" if used else ""
            cells.append(f"{kind} {sum(depths) / len(depths):.2f}, at most {SHALLOW_DEPTH} "
                         f"{share(shallow, len(depths))}{time}")
        else:
            cells.append(f"{kind} -")
    return f"{part_label(part)}: " + ", ".join(cells)


def work_part(searches: list[Search], depth: int) -> str:
    """For searches after the expected reply and after another: how many completed `depth` or
    deeper (of how many completed any), and the median nodes and time of their first such line.
    A search that starts at its table entry's depth completes its first iteration there, so its
    work to a shallower depth is that iteration's."""
    cells = []
    for kind in ("expected", "not expected"):
        mine = [s for s in searches if reply(s) == kind and deepest(s) is not None]
        firsts = [line for s in mine if (line := first_exact_from(s, depth))]
        nodes = [line.nodes for line in firsts if line.nodes is not None]
        if firsts:
            work = f"{statistics.median(line.ms for line in firsts):g} ms"
            if nodes:
                work = f"{statistics.median(nodes) / 1e6:.2f} M nodes, " + work
            cells.append(f"{kind} {len(firsts)}/{len(mine)} {work}")
        else:
            cells.append(f"{kind} 0/{len(mine)}" if mine else f"{kind} -")
    return f"D = {depth}: " + ", ".join(cells)


def first_exact_from(search: Search, depth: int) -> Line | None:
    """The search's first completed line at `depth` or deeper, None where it completed none."""
    return next((line for line in search.lines if line.bound == "exact" and line.depth >= depth), None)


def first_completed(search: Search) -> Line | None:
    """The search's first completed depth's line, None where it completed none."""
    return next((line for line in search.lines if line.bound == "exact"), None)


def clock_timed(searches: list[Search]) -> list[Search]:
    """The searches whose soft limit is known and whose time the next `go` told."""
    return [s for s in searches if s.used_ms is not None and s.soft_ms()]


FIRST_DONE_LABELS = tuple(f"up to {b:g}x" for b in FIRST_DONE_BINS) + (f"over {FIRST_DONE_BINS[-1]:g}x",)


def first_bin(search: Search) -> str:
    """The search's first completed depth's time in soft limits, as one of FIRST_DONE_LABELS, or
    "none" where it completed none. The search's soft limit must be known."""
    first = first_completed(search)
    if first is None:
        return "none"
    ratio = first.ms / search.soft_ms()
    return next((label for b, label in zip(FIRST_DONE_BINS, FIRST_DONE_LABELS) if ratio <= b),
                FIRST_DONE_LABELS[-1])


def first_past(search: Search, limit: float) -> bool:
    """Whether the search completed its first depth after `limit` soft limits, or none. The
    search's soft limit must be known."""
    first = first_completed(search)
    return first is None or first.ms > limit * search.soft_ms()


def first_done(searches: list[Search]) -> str:
    """Over the searches timed by the clock (their soft limit known, their time told by the next
    `go`): how many completed their first depth by each of FIRST_DONE_BINS times the soft limit,
    later, or not at all, and the share of those searches' time that the last took."""
    timed = clock_timed(searches)
    if not timed:
        return "-"
    binned = [(search, first_bin(search)) for search in timed]
    bins = Counter(label for _, label in binned)
    none_ms = sum(search.used_ms for search, label in binned if label == "none")
    cells = [f"{label} {share(bins[label], len(timed))}" for label in FIRST_DONE_LABELS]
    total_ms = sum(s.used_ms for s in timed)
    cells.append(f"none {share(bins['none'], len(timed))}, their time {share(none_ms, total_ms)} ms")
    return ", ".join(cells)


def start_kind(search: Search) -> str | None:
    """Where the search's first depth started against the deepest depth D its search before
    completed (None: no search before, or one that completed nothing)."""
    before = deepest(search.before) if search.before is not None else None
    if before is None:
        return None
    if not search.lines:
        return "no line"
    start = search.lines[0].depth
    return "below D-1" if start < before - 1 else "D-1" if start == before - 1 else "D or deeper"


def by_start(searches: list[Search]) -> str:
    """Over the searches timed by the clock with a search before that completed a depth: by
    start_kind, how many, and how many completed their first depth past FIRST_DONE_BINS[-1]
    times the soft limit or never."""
    timed = clock_timed(searches)
    limit = FIRST_DONE_BINS[-1]
    cells = []
    for kind in ("below D-1", "D-1", "D or deeper", "no line"):
        mine = [s for s in timed if start_kind(s) == kind]
        if not mine:
            cells.append(f"{kind} -")
            continue
        bad = sum(first_past(s, limit) for s in mine)
        cells.append(f"{kind} {len(mine)}, past {limit:g}x or never {share(bad, len(mine))}")
    return "; ".join(cells)


def with_before(searches: list[Search]) -> list[tuple[Search, str, int]]:
    """The searches of moves 1 to AGAINST_BEFORE_LAST_MOVE whose reply before is known (expected or
    not) and whose search before (two plies back) completed a depth: each with that reply's kind
    and the search before's deepest completed depth."""
    found = []
    for search in searches:
        if search.number() > AGAINST_BEFORE_LAST_MOVE or search.before is None:
            continue
        kind = reply(search)
        if kind != "unknown" and (before := deepest(search.before)) is not None:
            found.append((search, kind, before))
    return found


def against_before(searches: list[Search]) -> str:
    """Over with_before's searches that completed a depth: by the reply, and after an unexpected
    reply by the first window (held, failed high, failed low), how many, the mean of their deepest
    completed depth less the search before's, and how many ended FAR_BELOW plies or more short."""
    groups: dict[str, list[int]] = {}
    for search, kind, before in with_before(searches):
        if (done := deepest(search)) is None:
            continue
        groups.setdefault(kind, []).append(done - before)
        if kind == "not expected":
            window = {"exact": "held", "lower": "failed high", "upper": "failed low"}[search.lines[0].bound]
            groups.setdefault(f"not expected, first window {window}", []).append(done - before)
    kinds = ["expected", "not expected"]
    # An engine that reports no failed first window (Kogge's CPU search before its first second,
    # until the eighty-fourth session) is not split by it: all its searches would count as held.
    if any(k in groups for k in ("not expected, first window failed high", "not expected, first window failed low")):
        kinds += ["not expected, first window held", "not expected, first window failed high",
                  "not expected, first window failed low"]
    cells = []
    for kind in kinds:
        diffs = groups.get(kind, [])
        if not diffs:
            cells.append(f"{kind} -")
            continue
        far = sum(d <= -FAR_BELOW for d in diffs)
        cells.append(f"{kind} {sum(diffs) / len(diffs):+.2f} ({len(diffs)}), "
                     f"{FAR_BELOW} or more short {share(far, len(diffs))}")
    return "; ".join(cells)


def reach_row(searches: list[Search]) -> str:
    """Over with_before's searches with a known soft limit, D their search before's deepest
    completed depth: by the reply, for each of REACH_OFFSETS k, the median time of the first
    completed line at depth D + k or deeper in soft limits (a search that completed none counts as
    never: "never" where that is the median) and how many did by the soft limit."""
    paired = [(s, kind, before) for s, kind, before in with_before(searches) if s.soft_ms()]
    cells = []
    for kind in ("expected", "not expected"):
        mine = [(s, before) for s, k, before in paired if k == kind]
        if not mine:
            cells.append(f"{kind} -")
            continue
        parts = []
        for k in REACH_OFFSETS:
            times = []
            for s, before in mine:
                done = first_exact_from(s, before + k)
                times.append(float("inf") if done is None else done.ms / s.soft_ms())
            median = statistics.median(times)
            by_soft = sum(t <= 1.0 for t in times)
            shown = "never" if median == float("inf") else f"{median:.2f}"
            parts.append(f"D{k:+d} {shown}, {share(by_soft, len(times))}")
        cells.append(f"{kind} ({len(mine)}): " + ", ".join(parts))
    return "; ".join(cells)


def iterations_held(lines: list[Line]) -> list[Line]:
    """A search's completed depths whose first window held (no bound line since the depth
    before's), in order. A line of one move (the GPU search's move of a stopped iteration, said as
    a completed line) is not a completed depth here."""
    held = []
    failed = False
    for line in lines:
        if line.bound != "exact":
            failed = True
            continue
        if len(line.pv) > 1:
            if not failed:
                held.append(line)
            failed = False
    return held


def ply_cost_ratios(held: list[Line], before: int) -> list[tuple[int, float, float]]:
    """For each of `held`'s depths (iterations_held) that followed two consecutive completed depths,
    each iteration at least PLY_COST_MIN_MS long: its place against `before` (the search before's
    deepest completed depth; PLY_COST_OFFSETS' first and last take in the places beyond them), and
    its time and nodes over the depth before's."""
    low, high = PLY_COST_OFFSETS[0], PLY_COST_OFFSETS[-1]
    ratios = []
    for a, b, c in zip(held, held[1:], held[2:]):
        if b.depth != a.depth + 1 or c.depth != b.depth + 1:
            continue
        if None in (a.nodes, b.nodes, c.nodes):
            continue
        cost_b, cost_c = b.ms - a.ms, c.ms - b.ms
        nodes_b, nodes_c = b.nodes - a.nodes, c.nodes - b.nodes
        if min(cost_b, cost_c) < PLY_COST_MIN_MS or min(nodes_b, nodes_c) <= 0:
            continue
        ratios.append((min(max(c.depth - before, low), high), cost_c / cost_b, nodes_c / nodes_b))
    return ratios


def ply_cost_summary(by_kind: dict[str, list[tuple[int, float, float]]]) -> str:
    """ply_cost_ratios' ratios by the reply ("expected", "not expected") as one row: for each place
    the geometric means of the time and node ratios, and how many."""

    low, high = PLY_COST_OFFSETS[0], PLY_COST_OFFSETS[-1]
    cells = []
    for kind in ("expected", "not expected"):
        parts = []
        for k in PLY_COST_OFFSETS:
            found = [(t, n) for place, t, n in by_kind.get(kind, []) if place == k]
            if not found:
                continue
            label = f"D{k:+d}" + (" or less" if k == low else " or more" if k == high else "")
            parts.append(f"{label} time x{statistics.geometric_mean(t for t, _ in found):.2f}, "
                         f"nodes x{statistics.geometric_mean(n for _, n in found):.2f} ({len(found)})")
        cells.append(f"{kind}: " + ("; ".join(parts) if parts else "-"))
    return "; ".join(cells)


def ply_cost_row(searches: list[Search]) -> str:
    """Over with_before's searches, D their search before's deepest completed depth: by the reply
    and by a depth's place against D (PLY_COST_OFFSETS), what a depth cost against the depth before
    it, in time and in nodes (the geometric means of the ratios), over the depths that followed two
    consecutive completed depths, all three with their first window held and each iteration at
    least PLY_COST_MIN_MS long. The seventy-ninth session found the GPU's new depths (D and past)
    costing 2.8-3.1 times the depth before after the expected reply, 16 threads' 2.2-2.3."""
    by_kind: dict[str, list[tuple[int, float, float]]] = {}
    for search, kind, before in with_before(searches):
        by_kind.setdefault(kind, []).extend(ply_cost_ratios(iterations_held(search.lines), before))
    return ply_cost_summary(by_kind)


def guard_depths(search: Search) -> tuple[int, int] | None:
    """The (entry's depth, retreat depth) of the entry guard's message, None where it said none."""
    for message in search.messages:
        for pattern in GUARD_MESSAGES:
            if (found := pattern.match(message)) is not None:
                return int(found[1]), int(found[2])
    return None


def guarded(searches: list[Search]) -> str:
    """How many searches the GPU's entry guard gave up their first iteration in, and where each
    ended: its deepest completed depth against the entry's depth (the seventy-sixth session: 174
    of 1,140, 102 of them three plies short, the retreat's depth alone)."""
    ends: Counter = Counter()
    for search in searches:
        if (depths := guard_depths(search)) is None:
            continue
        done = deepest(search)
        ends["none" if done is None else f"{done - depths[0]:+d}"] += 1
    fired = sum(ends.values())
    if not fired:
        return f"fired in 0/{len(searches)}"
    order = sorted((k for k in ends if k != "none"), key=int) + (["none"] if "none" in ends else [])
    return (f"fired in {share(fired, len(searches))}; deepest completed depth against the entry's: "
            + ", ".join(f"{k} {ends[k]}" for k in order))


def exact_ms(search: Search, depth: int) -> int | None:
    """The time of the search's first exact line at `depth`, None where it completed none."""
    return next((line.ms for line in search.lines if line.bound == "exact" and line.depth == depth), None)


def retreat_timing(searches: list[Search]) -> str:
    """Over the guarded searches timed by the clock: when the retreat's depth S completed, in soft
    limits (median), how much later S + 1 completed where it did, and how many ended at S, with
    how long after it they stopped (the seventy-seventh session: S at 0.65, S + 1 0.06 later;
    300 of 475 ended at S, 0.01 after it: the stability rule's limit had passed)."""
    at, next_after, after_end = [], [], []
    for search in clock_timed(searches):
        if (depths := guard_depths(search)) is None or (done := exact_ms(search, depths[1])) is None:
            continue
        soft = search.soft_ms()
        at.append(done / soft)
        if (later := exact_ms(search, depths[1] + 1)) is not None:
            next_after.append((later - done) / soft)
        elif deepest(search) == depths[1]:
            after_end.append((search.used_ms - done) / soft)
    if not at:
        return "-"
    later_text = f"{statistics.median(next_after):.2f} later ({len(next_after)})" if next_after else "never"
    ended = share(len(after_end), len(at))
    if after_end:
        ended += f", stopping {statistics.median(after_end):.2f} after it (median)"
    return (f"the retreat's depth done at {statistics.median(at):.2f} (median, {len(at)} searches), the next "
            f"{later_text}; ended at the retreat's depth {ended}")


def clock_part(searches: list[Search], part: tuple[int, int]) -> str:
    """Moves `part` of the game: the searches timed by the clock, their mean time and soft limit,
    the mean of their ratio and the share of moves over 1.5 times the limit."""
    first, last = part
    label = part_label(part)
    timed = [s for s in searches if first <= s.number() <= last and s.used_ms is not None and s.soft_ms()]
    if not timed:
        return f"{label}: -"
    ratios = [s.used_ms / s.soft_ms() for s in timed]
    used = sum(s.used_ms for s in timed) / len(timed) / 1000
    soft = sum(s.soft_ms() for s in timed) / len(timed) / 1000
    over = sum(r > 1.5 for r in ratios)
    return (f"{label}: {used:.3f} s against {soft:.3f} s, ratio {sum(ratios) / len(ratios):.2f}, "
            f"over 1.5x {share(over, len(timed))} ({len(timed)} moves)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("logs", nargs="+", type=Path, help="match.py --debug logs")
    parser.add_argument("--name", action="append", default=[], metavar="NAME:OPTION=VALUE",
                        help="name the pids sent this option (logs without pid lines)")
    args = parser.parse_args(argv)
    names = []
    for item in args.name:
        name, sep, option = item.partition(":")
        if not sep or "=" not in option:
            parser.error(f"--name wants NAME:OPTION=VALUE, not {item!r}")
        names.append((name, option))
    engines: dict[str, list[Search]] = {}
    for log in args.logs:
        with log.open(errors="replace") as lines:
            for name, searches in read_log(lines, names).items():
                engines.setdefault(name, []).extend(searches)
    if not engines:
        print("no searches found (was the match run with --debug?)", file=sys.stderr)
        return 1
    print("\n".join(report(name, engines[name]) for name in sorted(engines)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
