"""The GPU search's trace (`KOGGE_SEARCH_TRACE=1` on stderr) cut into its searches, and those
searches matched with the records of the replay that made them (`bench/game-depths.py --json`
and `--stderr`), for the scripts that read both (helper-ahead.py, gpu-first-windows.py). Each
script reads the lines of a search itself: they want different parts of them."""

from __future__ import annotations

# crates/search-gpu/src/driver.rs: the line that begins each search.
NEW_SEARCH = "search new"


def split_searches(lines) -> list[list[str]]:
    """Each search's lines after its `search new` line, in order (any lines before the first are
    left out)."""
    searches: list[list[str]] = []
    for line in lines:
        if line.startswith(NEW_SEARCH):
            searches.append([])
        elif searches:
            searches[-1].append(line)
    return searches


def of_records(records: list, searches: list) -> list:
    """The searches of the trace that belong to the records, one a record: its last len(records),
    since the engine's own searches at its start come first. ValueError where it has fewer."""
    if len(searches) < len(records):
        raise ValueError(f"the trace has {len(searches)} searches, the file {len(records)} records")
    return searches[len(searches) - len(records):]
