"""A match's UCI log (`match.py --debug`) cut to what `iterations.py` and `search_loss.py` read, so
that a session's logs can be kept in its archive under docs/data/ at about two thirds of their
size and read there as they were read on the day.

Kept whole: the harness's lines naming each engine's pid and its openings, and the UCI lines
`setoption`, `position`, `go`, `bestmove` and `info string`. An `info` line with a depth and a
time (not a `currmove` line) is kept cut to its depth, score, nodes, bound, time and the first two
moves of its principal variation (the move and the reply it expects: all the readers use).
Everything else (python-chess's other debug lines, `currmove` lines, `nps`, `hashfull`,
`seldepth`, the rest of each line) is dropped.

    python3 tools/match/trim_log.py m.log > m-trimmed.log

The seventy-fifth to seventy-seventh sessions kept a copy of this in their archives
(`scripts/trim.py`); this is it, with the `info string` lines the entry guard's row needs.
"""

from __future__ import annotations

import sys
from typing import Iterable, Iterator

# How a python-chess debug line names the UCI side: "...<TimedUciProtocol (pid=649)>: << go ...".
UCI_MARK = "TimedUciProtocol"
KEPT_WHOLE = ("<< setoption", "<< position", "<< go", ">> bestmove", ">> info string")
# (word, how many words after it) kept of an info line, in this order.
INFO_FIELDS = (("depth", 1), ("score", 2), ("nodes", 1))
PV_MOVES = 2


def slim_info(text: str) -> str:
    """An `info ...` line's depth, score, nodes, bound, time and first `PV_MOVES` moves."""
    words = text.split()
    out = ["info"]
    for key, count in INFO_FIELDS:
        if key in words:
            at = words.index(key)
            out += words[at : at + 1 + count]
    out += [bound for bound in ("upperbound", "lowerbound") if bound in words]
    at = words.index("time")
    out += words[at : at + 2]
    if "pv" in words:
        at = words.index("pv")
        out += words[at : at + 1 + PV_MOVES]
    return " ".join(out)


def trim(lines: Iterable[str]) -> Iterator[str]:
    """The lines of a log the readers need, each with its newline."""
    for raw in lines:
        if "is pid" in raw or ": openings " in raw:
            yield raw if raw.endswith("\n") else raw + "\n"
            continue
        if UCI_MARK not in raw or ">: " not in raw:
            continue
        head, text = raw.rstrip("\n").split(">: ", 1)
        if text.startswith(KEPT_WHOLE):
            yield f"{head}>: {text}\n"
        elif text.startswith(">> info") and " depth " in text and " time " in text and "currmove" not in text:
            yield f"{head}>: >> {slim_info(text[3:])}\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(args[0], errors="replace") as log:
        sys.stdout.writelines(trim(log))
    return 0


if __name__ == "__main__":
    sys.exit(main())
