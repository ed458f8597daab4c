"""What the bench scripts that drive UCI engines share (time-to-depth.py, game-depths.py,
gpu-stop-moves.py, move-quality.py, gpu-closing-probe.py): a FEN from a FEN or EPD line, the
options given as NAME:Option=Value, an engine opened and ready before anything is timed, the
parts of a game by move number, a mean's interval, and the records of replays and which of two
replays' searches are the same position (replay-time.py too)."""

import json
import shlex
import statistics

# Parts of a game by the game's move number, for figures by part (opening, middlegame, endgame).
PARTS = ((1, 20, "moves 1-20"), (21, 40, "moves 21-40"), (41, 10**6, "moves 41 on"))


def part_of(fullmove: int) -> str:
    return next(name for first, last, name in PARTS if first <= fullmove <= last)


def replayed_position(record: dict) -> tuple:
    """Which position of a replayed game a game-depths.py record searched: its game, move number
    and side to move (a record saved without its FEN, before game-depths.py kept it, is one
    side's), so that two replays' searches pair up with `--side both` too."""
    return (record["game"], record["fullmove"], record["fen"].split()[1] if "fen" in record else None)


def load_runs(paths: list[str]) -> list[list[dict]]:
    """The records of each replay's JSON (game-depths.py --json), in the order given."""
    runs = []
    for path in paths:
        with open(path) as f:
            runs.append(json.load(f))
    return runs


def mean_interval(xs: list[float]) -> tuple[float, float]:
    """The mean and its 95% half-width (normal; 0 for fewer than two values)."""
    if not xs:
        return 0.0, 0.0
    half = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else 0.0
    return statistics.fmean(xs), half


def fen_of(line: str) -> str:
    """A FEN line as it is; an EPD line's four fields with clocks of 0 and 1."""
    fields = line.split()
    if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit():
        return " ".join(fields[:6])
    return " ".join(fields[:4]) + " 0 1"


def options_for(name: str, specs: list[str]) -> dict:
    """The UCI options of engine `name` among `specs` ('NAME:Option=Value' each)."""
    options = {}
    for spec in specs:
        who, setting = spec.split(":", 1)
        if who == name:
            key, value = setting.split("=", 1)
            options[key] = value
    return options


def open_ready(command: str, options: dict, stderr=None):
    """A python-chess engine for `command` with `options` set, once it has answered `isready`:
    Kogge's GPU search builds its kernel and table at start and `isready` waits for that
    (seconds), which would otherwise be timed as the first search."""
    import chess.engine  # here, so that the scripts without engines need no python-chess

    engine = chess.engine.SimpleEngine.popen_uci(shlex.split(command), timeout=600, stderr=stderr)
    try:
        engine.configure(options)
        engine.ping()
    except BaseException:
        engine.quit()
        raise
    return engine
