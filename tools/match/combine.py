"""One result from several runs of a match: the W/D/L and faults of each `match.py --json` file
summed, and the Elo of the sum with its interval.

The device's calls last ten minutes at most, so a GPU match is often played in several calls,
each stopped by SIGINT and each with its own result.json (docs/STRENGTH.md). Their Elo intervals
cannot be averaged; the games can be pooled. A file whose engines are the other way round
(engine1 the other's engine2) is counted from the first file's side, with its wins and losses
swapped; a file with other engines is an error.

    python3 tools/match/combine.py run1/result.json run2/result.json ...

Prints the combined line in the harness's words, then the faults of each engine.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from stats import format_result


@dataclass
class Combined:
    """The pooled games of one pairing, from engine1's side (the first file's engine1)."""

    engine1: str
    engine2: str
    files: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    faults: dict[str, dict[str, int]] = field(default_factory=lambda: {"engine1": {}, "engine2": {}})

    def add(self, summary: dict) -> None:
        """Adds one file's summary; ValueError if its engines are not this pairing's."""
        names = (summary["engine1"], summary["engine2"])
        if names == (self.engine1, self.engine2):
            wins, losses, sides = summary["wins"], summary["losses"], ("engine1", "engine2")
        elif names == (self.engine2, self.engine1):
            wins, losses, sides = summary["losses"], summary["wins"], ("engine2", "engine1")
        else:
            raise ValueError(
                f"engines {names[0]} and {names[1]}, not {self.engine1} and {self.engine2}"
            )
        self.files += 1
        self.wins += wins
        self.draws += summary["draws"]
        self.losses += losses
        for ours, theirs in zip(("engine1", "engine2"), sides):
            for kind, count in summary.get("faults", {}).get(theirs, {}).items():
                self.faults[ours][kind] = self.faults[ours].get(kind, 0) + count

    def report(self) -> str:
        games = self.wins + self.draws + self.losses
        lines = [
            f"{self.engine1} vs {self.engine2}: {games} games from {self.files} runs",
            format_result(self.wins, self.draws, self.losses),
        ]
        for side, name in (("engine1", self.engine1), ("engine2", self.engine2)):
            counts = ", ".join(f"{kind} {n}" for kind, n in sorted(self.faults[side].items()))
            lines.append(f"Faults of {side} ({name}): {counts or 'none'}")
        return "\n".join(lines)


def combine(summaries: list[dict]) -> Combined:
    """The pooled result of match summaries (at least one), from the first one's engine1."""
    first = summaries[0]
    combined = Combined(first["engine1"], first["engine2"])
    for summary in summaries:
        combined.add(summary)
    return combined


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+", type=Path, help="result.json files of match.py")
    args = parser.parse_args(argv)
    summaries = []
    for path in args.results:
        try:
            summaries.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, json.JSONDecodeError) as err:
            print(f"{path}: {err}", file=sys.stderr)
            return 1
    try:
        print(combine(summaries).report())
    except (KeyError, ValueError) as err:
        print(f"cannot combine: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
