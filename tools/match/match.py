#!/usr/bin/env python3
"""Match harness: plays two chess engines (UCI or xboard) against each other over a book of
openings and reports the score, the Elo difference and, optionally, an SPRT.

The harness keeps the clocks itself: it sends each engine its remaining time, measures how long
every move took and forfeits an engine that overstays its clock. Illegal moves, crashes (the
process died, or broke the protocol), hangs (no move within the clock plus a grace period; the
engine is killed) and time forfeits are printed as they happen, lose the game for the engine at
fault, are counted per engine in the final summary, and make the exit status 1 with
--fail-on-errors when engine1 had any.

Each opening is played twice, engine1 taking White in the first game and Black in the second.
Games end by the rules (checkmate, stalemate, insufficient material, and the 50-move rule and
threefold repetition, both claimed as soon as they apply), by the ply cap (a draw), by optional
score adjudication, by an xboard engine resigning, or by a fault.

Examples (from the repository root; Debian's engines live in /usr/games):

    # 100 games of Kogge against Stockfish limited to 2000 Elo, 1 s + 0.01 s per move, 2 at once
    python3 tools/match/match.py --engine1 target/release/kogge --engine2 /usr/games/stockfish \\
        --opt2 UCI_LimitStrength=true --opt2 UCI_Elo=2000 --tc 1+0.01 --games 100 \\
        --concurrency 2 --pgn games.pgn --json summary.json

    # An xboard opponent (Kogge itself speaks both protocols), 10 s + 0.1 s per move
    python3 tools/match/match.py --engine1 target/release/kogge \\
        --engine2 /usr/games/phalanx --proto2 xboard --tc 10+0.1 --games 20

    # SPRT of a new build against the old one: stop once H0 (elo 0) or H1 (elo 5) is accepted
    python3 tools/match/match.py --engine1 ./kogge-new --engine2 ./kogge-old --name1 new \\
        --name2 old --tc 10+0.1 --concurrency 2 --sprt 0 5 0.05 0.05

    # CI smoke test: a few fast games; exit status 1 if engine1 misbehaved at all
    python3 tools/match/match.py --engine1 target/release/kogge --engine2 /usr/games/stockfish \\
        --opt2 "Skill Level=0" --tc 1+0.01 --games 4 --fail-on-errors

The last lines give W/D/L from engine1's point of view, its score, the Elo difference with a 95%
interval (normal approximation on single game scores, see stats.py), the SPRT state when asked
for, and the faults of each engine. Exit status: 0 done, 1 engine1 faulted under
--fail-on-errors, 2 bad arguments or an engine that cannot be started, 130 interrupted.

Files: match.py (this: options, scheduling, reports), games.py (one game: limits, rules,
adjudication, PGN), players.py (engine processes and their faults), stats.py (Elo, SPRT),
fake_engine.py and test_match.py (tests: python3 -m unittest discover tools/match).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import math
import shlex
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import chess

from games import GameRecord, Settings, load_openings, play_game
from opening_moves import openings_from_start
from players import FAULT_KINDS, EngineSpec, Player
from stats import INTERVAL_METHOD, Sprt, elo_estimate, format_result

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OPENINGS = REPO_ROOT / ".." / "shared" / "data" / "openings-8ply.epd"


@dataclass
class Match:
    """The games to play, what came of them, and where it is reported."""

    openings: list[chess.Board]
    games: int
    settings: Settings
    sprt: Sprt | None
    pgn_out: TextIO | None
    names: dict[int, str] = field(default_factory=dict)
    records: list[GameRecord] = field(default_factory=list)
    wins: int = 0
    draws: int = 0
    losses: int = 0
    faults: dict[int, Counter[str]] = field(default_factory=lambda: {1: Counter(), 2: Counter()})
    decision: str | None = None
    interrupted: bool = False
    next_game: int = 0
    workers: list[asyncio.Task[None]] = field(default_factory=list)

    async def worker(self, engine1: Player, engine2: Player) -> None:
        """Plays games on one slot (one pair of engine processes) until none are left. Game i
        uses opening i // 2 with engine1 White when i is even, so each opening is played with
        both colour assignments."""
        while self.next_game < self.games and self.decision is None:
            index = self.next_game
            self.next_game += 1
            opening = (index // 2) % len(self.openings)
            engine1_white = index % 2 == 0
            players = {
                chess.WHITE: engine1 if engine1_white else engine2,
                chess.BLACK: engine2 if engine1_white else engine1,
            }
            record = await play_game(
                index + 1, opening, self.openings[opening], players, self.names, self.settings
            )
            self.record(record)

    def record(self, record: GameRecord) -> None:
        """Counts a finished game, prints it and writes its PGN; stops the match once the SPRT
        has decided (games still in progress on other slots are abandoned, uncounted)."""
        self.records.append(record)
        points = record.engine1_points()
        if points == 1.0:
            self.wins += 1
        elif points == 0.5:
            self.draws += 1
        else:
            self.losses += 1
        if record.fault is not None:
            fault = record.fault
            self.faults[fault.engine][fault.kind] += 1
            colour = "White" if record.engine1_white == (fault.engine == 1) else "Black"
            print(
                f"FAULT game {record.number}: {self.names[fault.engine]} (engine{fault.engine},"
                f" {colour}) {fault.kind}: {fault.detail}",
                flush=True,
            )
        played = len(self.records)
        score = (self.wins + 0.5 * self.draws) / played
        print(
            f"Game {record.number} (opening {record.opening}): {record.white} - {record.black}"
            f" {record.result} ({record.reason}) | {self.names[1]}: W/D/L"
            f" {self.wins}/{self.draws}/{self.losses} {100 * score:.1f}% after {played}",
            flush=True,
        )
        if self.pgn_out is not None:
            print(record.pgn, file=self.pgn_out, end="\n\n", flush=True)
        if self.sprt is not None and self.decision is None:
            self.decision = self.sprt.decision(self.sprt.llr(self.wins, self.draws, self.losses))
            if self.decision is not None:
                current = asyncio.current_task()
                for task in self.workers:
                    if task is not current:
                        task.cancel()

    def summary(self) -> dict:
        """Everything the final report says, as JSON-ready data."""
        estimate = elo_estimate(self.wins, self.draws, self.losses)

        def finite(value: float) -> float | None:
            return value if math.isfinite(value) else None

        sprt = None
        if self.sprt is not None:
            sprt = {
                "elo0": self.sprt.elo0,
                "elo1": self.sprt.elo1,
                "alpha": self.sprt.alpha,
                "beta": self.sprt.beta,
                "llr": self.sprt.llr(self.wins, self.draws, self.losses),
                "lower_bound": self.sprt.lower_bound,
                "upper_bound": self.sprt.upper_bound,
                "decision": self.decision,
            }
        return {
            "engine1": self.names[1],
            "engine2": self.names[2],
            "games": len(self.records),
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": estimate.score,
            "elo": finite(estimate.elo),
            "elo_low": finite(estimate.elo_low),
            "elo_high": finite(estimate.elo_high),
            "interval": INTERVAL_METHOD,
            "sprt": sprt,
            "interrupted": self.interrupted,
            "faults": {
                f"engine{engine}": {kind: self.faults[engine][kind] for kind in FAULT_KINDS}
                for engine in (1, 2)
            },
            "game_results": [
                {
                    "number": record.number,
                    "opening": record.opening,
                    "white": record.white,
                    "black": record.black,
                    "result": record.result,
                    "reason": record.reason,
                    "termination": record.termination,
                    "fault": None
                    if record.fault is None
                    else {
                        "engine": record.fault.engine,
                        "kind": record.fault.kind,
                        "detail": record.fault.detail,
                    },
                }
                for record in sorted(self.records, key=lambda record: record.number)
            ],
        }

    def report(self) -> str:
        """The closing lines: W/D/L, score, Elo with its interval, SPRT and faults."""
        games = len(self.records)
        lines = [
            "",
            f"{self.names[1]} vs {self.names[2]}: {games} games"
            + (" (interrupted)" if self.interrupted else ""),
            format_result(self.wins, self.draws, self.losses),
        ]
        if self.sprt is not None:
            llr = self.sprt.llr(self.wins, self.draws, self.losses)
            state = {"H1": "H1 accepted", "H0": "H0 accepted", None: "no decision"}
            lines.append(
                f"SPRT elo0={self.sprt.elo0:g} elo1={self.sprt.elo1:g}"
                f" alpha={self.sprt.alpha:g} beta={self.sprt.beta:g}: LLR {llr:.3f}"
                f" (bounds {self.sprt.lower_bound:.3f}, {self.sprt.upper_bound:.3f}),"
                f" {state[self.decision]}"
            )
        for engine in (1, 2):
            counts = ", ".join(f"{kind} {self.faults[engine][kind]}" for kind in FAULT_KINDS)
            lines.append(f"Faults of engine{engine} ({self.names[engine]}): {counts}")
        return "\n".join(lines)


def parse_options(pairs: list[str], flag: str) -> dict[str, str]:
    options = {}
    for pair in pairs:
        name, equals, value = pair.partition("=")
        if not equals or not name:
            raise ValueError(f"{flag} expects NAME=VALUE, got {pair!r}")
        options[name] = value
    return options


def parse_time_control(text: str) -> tuple[float, float]:
    """'1+0.01' -> (1.0, 0.01); '60' -> (60.0, 0.0). Seconds."""
    base, _, increment = text.partition("+")
    try:
        values = float(base), float(increment or 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected SECONDS[+INCREMENT], got {text!r}") from None
    if values[0] <= 0 or values[1] < 0:
        raise argparse.ArgumentTypeError(f"expected a positive time control, got {text!r}")
    return values


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Play two chess engines against each other and report the score.",
    )
    for n in (1, 2):
        parser.add_argument(f"--engine{n}", required=True, metavar="CMD",
                            help=f"command line of engine{n} (split like a shell would)")
        parser.add_argument(f"--name{n}", help=f"engine{n}'s name in the PGN and the report"
                            " (default: the name the engine gives)")
        parser.add_argument(f"--proto{n}", choices=("uci", "xboard"), default="uci",
                            help=f"protocol of engine{n} (default: uci)")
        parser.add_argument(f"--opt{n}", action="append", default=[], metavar="NAME=VALUE",
                            help=f"an engine{n} option (repeatable), e.g. Hash=64")
    parser.add_argument("--openings", type=Path, default=DEFAULT_OPENINGS,
                        help="FEN or EPD file, one start position a line (default:"
                        " ../shared/data/openings-8ply.epd beside the repository)")
    parser.add_argument("--openings-from-start", action="store_true",
                        help="give each opening as moves from the start position, for xboard"
                        " engines without setboard (Fairy-Max)")
    parser.add_argument("--games", type=int, help="games to play (default: 2 x openings)")
    parser.add_argument("--concurrency", type=int, default=1,
                        help="games played at once, each by its own pair of processes"
                        " (default: 1)")
    limits = parser.add_argument_group(
        "limits (at least one; --depth also combines with --tc or --movetime)"
    )
    clock = limits.add_mutually_exclusive_group()
    clock.add_argument("--tc", type=parse_time_control, metavar="BASE+INC",
                       help="clock per side in seconds with an increment, e.g. 1+0.01")
    clock.add_argument("--movetime", type=float, metavar="SECONDS",
                       help="fixed time per move, e.g. 0.1 (whole seconds for xboard engines,"
                       " whose st command takes no fractions)")
    limits.add_argument("--depth", type=int, help="search depth per move")
    limits.add_argument("--timemargin-ms", type=float, default=50.0,
                        help="milliseconds an engine may overstep its clock in a game (in total)"
                        " or its movetime, for the harness's own latency, before it forfeits"
                        " (default: %(default)g)")
    limits.add_argument("--hang-grace", type=float, metavar="SECONDS",
                        help="seconds past the time limit before a silent engine is killed as"
                        " hung (default: 5, or 60 with --depth alone)")
    rules = parser.add_argument_group("game length and adjudication")
    rules.add_argument("--max-plies", type=int, default=400,
                       help="plies after which the game is a draw (default: %(default)s)")
    rules.add_argument("--draw-adjudication", type=int, nargs=3,
                       metavar=("MOVENUMBER", "MOVES", "CP"),
                       help="draw once at or past MOVENUMBER both engines scored within +-CP"
                       " for MOVES moves each (off by default)")
    rules.add_argument("--resign-adjudication", type=int, nargs=2, metavar=("MOVES", "CP"),
                       help="a loss once both engines scored one side CP or more behind for"
                       " MOVES moves each (off by default)")
    parser.add_argument("--sprt", type=float, nargs=4, metavar=("ELO0", "ELO1", "ALPHA", "BETA"),
                        help="sequential test of H0 elo=ELO0 against H1 elo=ELO1 (logistic Elo);"
                        " stops when a bound is crossed")
    parser.add_argument("--pgn", type=Path, metavar="FILE",
                        help="write every game here (overwritten)")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="write a machine-readable summary here")
    parser.add_argument("--fail-on-errors", action="store_true",
                        help="exit with status 1 if engine1 had any fault")
    parser.add_argument("--debug", action="store_true",
                        help="log every line exchanged with the engines (python-chess)")
    args = parser.parse_args(argv)

    if args.tc is None and args.movetime is None and args.depth is None:
        parser.error("give a limit: --tc, --movetime or --depth")
    if args.movetime is not None and args.movetime <= 0:
        parser.error("--movetime must be positive")
    if args.movetime is not None and "xboard" in (args.proto1, args.proto2):
        # xboard's "st" command takes whole seconds: engines read 0.1 as 0 or reject it.
        if args.movetime < 1 or not args.movetime.is_integer():
            parser.error("--movetime must be whole seconds with an xboard engine")
    if args.depth is not None and args.depth < 1:
        parser.error("--depth must be at least 1")
    if args.concurrency < 1:
        parser.error("--concurrency must be at least 1")
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    if args.max_plies < 1:
        parser.error("--max-plies must be at least 1")
    if args.sprt is not None:
        alpha, beta = args.sprt[2:]
        if not (0 < alpha < 1 and 0 < beta < 1) or args.sprt[0] >= args.sprt[1]:
            parser.error("--sprt needs ELO0 < ELO1 and 0 < ALPHA, BETA < 1")
    try:
        args.options1 = parse_options(args.opt1, "--opt1")
        args.options2 = parse_options(args.opt2, "--opt2")
    except ValueError as err:
        parser.error(str(err))
    return args


def settings_from(args: argparse.Namespace) -> Settings:
    base, increment = args.tc if args.tc is not None else (None, 0.0)
    timed = base is not None or args.movetime is not None
    grace = args.hang_grace if args.hang_grace is not None else (5.0 if timed else 60.0)
    return Settings(
        base=base,
        increment=increment,
        movetime=args.movetime,
        depth=args.depth,
        margin=args.timemargin_ms / 1000.0,
        grace=grace,
        max_plies=args.max_plies,
        draw_adjudication=tuple(args.draw_adjudication) if args.draw_adjudication else None,
        resign_adjudication=tuple(args.resign_adjudication) if args.resign_adjudication else None,
    )


async def run_match(args: argparse.Namespace, openings: list[chess.Board]) -> int:
    specs = [
        EngineSpec(1, shlex.split(args.engine1), args.proto1, args.options1, args.name1),
        EngineSpec(2, shlex.split(args.engine2), args.proto2, args.options2, args.name2),
    ]
    slots = [(Player(specs[0]), Player(specs[1])) for _ in range(args.concurrency)]
    players = [player for slot in slots for player in slot]
    pgn_out = open(args.pgn, "w", encoding="utf-8") if args.pgn else None
    match = Match(
        openings=openings,
        games=args.games or 2 * len(openings),
        settings=settings_from(args),
        sprt=Sprt(*args.sprt) if args.sprt else None,
        pgn_out=pgn_out,
    )
    try:
        # Start every process up front, so that a wrong command or option fails the run at
        # once instead of losing every game.
        started = await asyncio.gather(
            *(player.start() for player in players), return_exceptions=True
        )
        for player, outcome in zip(players, started):
            if isinstance(outcome, BaseException):
                print(f"error: engine{player.spec.index} ({player.describe()}): {outcome}",
                      file=sys.stderr)
                return 2
        for spec, player in zip(specs, slots[0]):
            match.names[spec.index] = spec.name or player.own_name()
        if match.names[1] == match.names[2]:
            match.names = {n: f"{name} ({n})" for n, name in match.names.items()}
        print(f"{match.names[1]} vs {match.names[2]}: {match.games} games,"
              f" {len(openings)} openings, concurrency {args.concurrency}", flush=True)
        if match.games > 2 * len(openings):
            # The games cycle through the openings: a record that counts its openings as new
            # must know that some were played again (a match once ran past the file's end).
            print(f"note: more games than 2 x {len(openings)} openings: games"
                  f" {2 * len(openings) + 1} on replay the openings from the first", flush=True)

        match.workers = [asyncio.create_task(match.worker(*slot)) for slot in slots]
        try:
            outcomes = await asyncio.gather(*match.workers, return_exceptions=True)
        except asyncio.CancelledError:
            # Ctrl-C: asyncio.run cancels this task. Stop the games, report what was played.
            match.interrupted = True
            for task in match.workers:
                task.cancel()
            outcomes = await asyncio.gather(*match.workers, return_exceptions=True)
        for outcome in outcomes:
            if isinstance(outcome, Exception):
                raise outcome  # a bug in the harness, not an engine fault

        print(match.report(), flush=True)
        if args.json:
            args.json.write_text(json.dumps(match.summary(), indent=2) + "\n", encoding="utf-8")
        if match.interrupted:
            return 130
        return 1 if args.fail_on_errors and sum(match.faults[1].values()) > 0 else 0
    finally:
        await asyncio.gather(*(player.quit() for player in players))
        if pgn_out is not None:
            pgn_out.close()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # python-chess warns about every line it does not understand (many engines chat on stdout);
    # the harness reports the faults that matter itself.
    logging.basicConfig(level=logging.DEBUG if args.debug else logging.CRITICAL)
    try:
        openings = load_openings(args.openings)
        if args.openings_from_start:
            # Each opening is played twice: rebuilding more than the games need is wasted time.
            wanted = None if args.games is None else (args.games + 1) // 2
            openings, missed = openings_from_start(openings, wanted)
            if missed:
                print(f"openings: {len(missed)} not rebuilt from the start position and left"
                      f" out (lines {', '.join(str(i + 1) for i in missed)})", file=sys.stderr)
    except (OSError, ValueError) as err:
        print(f"error: openings: {err}", file=sys.stderr)
        return 2
    try:
        return asyncio.run(run_match(args, openings))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
