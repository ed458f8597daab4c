"""One game between two players: the limits and rules shared by every game, the start positions,
the end of a game (rules, ply cap, adjudication, faults) and its PGN record.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.engine
import chess.pgn

from players import CRASH, HANG, ILLEGAL_MOVE, TIME_FORFEIT, EngineFault, Player

# Mate scores, in centipawns, for adjudication.
MATE_CP = 100_000

# The PGN Termination tag of a game lost by a fault (values from the PGN standard).
FAULT_TERMINATION = {
    ILLEGAL_MOVE: "rules infraction",
    CRASH: "abandoned",
    HANG: "abandoned",
    TIME_FORFEIT: "time forfeit",
}


@dataclass
class Settings:
    """Limits and game rules shared by every game."""

    base: float | None  # clock at the start, seconds (None: no clock)
    increment: float
    movetime: float | None  # seconds per move
    depth: int | None
    margin: float  # seconds an engine may overstep its clock (in total) or its movetime
    grace: float  # seconds past the time limit before an engine counts as hung
    max_plies: int
    draw_adjudication: tuple[int, int, int] | None  # move number, moves, centipawns
    resign_adjudication: tuple[int, int] | None  # moves, centipawns

    def limit(self, clocks: dict[chess.Color, float], game: object) -> chess.engine.Limit:
        if self.base is not None:
            # A clock overstepped within the margin is sent as (almost) zero time left.
            return chess.engine.Limit(
                white_clock=max(clocks[chess.WHITE], 0.001),
                black_clock=max(clocks[chess.BLACK], 0.001),
                white_inc=self.increment,
                black_inc=self.increment,
                depth=self.depth,
                clock_id=game,  # xboard engines get the "level" command once per game
            )
        return chess.engine.Limit(time=self.movetime, depth=self.depth)

    def hang_timeout(self, clock: float) -> float:
        """Seconds to wait for a move before the engine is declared hung."""
        if self.base is not None:
            return max(clock, 0.0) + self.margin + self.grace
        if self.movetime is not None:
            return self.movetime + self.margin + self.grace
        return self.grace

    def time_control_tag(self) -> str:
        """The PGN TimeControl tag: base+increment, or "-" (no clock)."""
        if self.base is None:
            return "-"
        return f"{self.base:g}+{self.increment:g}"


@dataclass
class Fault:
    engine: int  # 1 or 2
    kind: str
    detail: str


@dataclass
class GameRecord:
    number: int  # 1-based
    opening: int  # 0-based line among the openings
    white: str
    black: str
    engine1_white: bool
    result: str
    reason: str
    termination: str  # PGN Termination tag
    fault: Fault | None
    pgn: chess.pgn.Game

    def engine1_points(self) -> float:
        white_points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[self.result]
        return white_points if self.engine1_white else 1.0 - white_points


def load_openings(path: Path) -> list[chess.Board]:
    """Start positions, one a line: a FEN, or an EPD whose operations are ignored."""
    openings = []
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                board = chess.Board(line)
            except ValueError:
                try:
                    board, _ = chess.Board.from_epd(line)
                except ValueError as err:
                    raise ValueError(f"{path}:{number}: not a FEN or EPD: {err}") from err
            openings.append(board)
    if not openings:
        raise ValueError(f"{path}: no positions")
    return openings


def rules_ending(board: chess.Board) -> tuple[str, str] | None:
    """Result and reason when the rules end the game here; draws that need a claim are claimed
    as soon as the position allows it (no look-ahead to the next move)."""
    outcome = board.outcome()
    if outcome is not None:
        if outcome.termination == chess.Termination.CHECKMATE:
            reason = f"{chess.COLOR_NAMES[outcome.winner].capitalize()} mates"
        else:
            reason = outcome.termination.name.lower().replace("_", " ")
        return outcome.result(), reason
    if board.is_fifty_moves():
        return "1/2-1/2", "50-move rule"
    if board.is_repetition(3):
        return "1/2-1/2", "threefold repetition"
    return None


def adjudicate(
    board: chess.Board, scores: list[int | None], settings: Settings
) -> tuple[str, str] | None:
    """Result and reason when the engines' own scores (White's view, one per ply) settle the
    game: both within a small window for long enough (draw), or both agreeing one side is lost
    (resign). An engine that reports no score is never adjudicated."""
    if settings.draw_adjudication is not None:
        move_number, moves, cp = settings.draw_adjudication
        recent = scores[-2 * moves :]
        if (
            board.fullmove_number >= move_number
            and len(recent) == 2 * moves
            and all(score is not None and abs(score) <= cp for score in recent)
        ):
            return "1/2-1/2", f"draw adjudication: both scores within {cp} cp for {moves} moves"
    if settings.resign_adjudication is not None:
        moves, cp = settings.resign_adjudication
        recent = scores[-2 * moves :]
        if len(recent) == 2 * moves and all(score is not None for score in recent):
            if all(score >= cp for score in recent):
                return "1-0", f"resign adjudication: Black lost by {cp}+ cp for {moves} moves"
            if all(score <= -cp for score in recent):
                return "0-1", f"resign adjudication: White lost by {cp}+ cp for {moves} moves"
    return None


def game_ending(
    board: chess.Board, scores: list[int | None], settings: Settings
) -> tuple[str, str, str] | None:
    """Result, reason and PGN Termination tag when the game is over before the next move."""
    ending = rules_ending(board)
    if ending is not None:
        return (*ending, "normal")
    if len(board.move_stack) >= settings.max_plies:
        return "1/2-1/2", f"max plies ({settings.max_plies}) reached", "adjudication"
    ending = adjudicate(board, scores, settings)
    if ending is not None:
        return (*ending, "adjudication")
    return None


def move_comment(info: chess.engine.InfoDict, seconds: float) -> str:
    """'+0.31/12 0.104s': the mover's score in pawns (or M/-M mate), depth and time taken."""
    parts = []
    score = info.get("score")
    if score is not None:
        relative = score.relative
        if relative.is_mate():
            mate = relative.mate()
            text = f"+M{mate}" if mate > 0 else f"-M{-mate}"
        else:
            text = f"{relative.score() / 100:+.2f}"
        if "depth" in info:
            text += f"/{info['depth']}"
        parts.append(text)
    parts.append(f"{seconds:.3f}s")
    return " ".join(parts)


def white_score(info: chess.engine.InfoDict) -> int | None:
    score = info.get("score")
    return None if score is None else score.white().score(mate_score=MATE_CP)


async def play_game(
    number: int,
    opening: int,
    start: chess.Board,
    players: dict[chess.Color, Player],
    names: dict[int, str],
    settings: Settings,
) -> GameRecord:
    """Plays one game from `start`; the player at fault for any EngineFault loses it."""
    board = start.copy()
    clocks = {color: settings.base or 0.0 for color in chess.COLORS}
    game = object()  # a new key: python-chess starts a new game (ucinewgame / new) with it
    comments: list[str] = []
    scores: list[int | None] = []
    fault: Fault | None = None

    while (ending := game_ending(board, scores, settings)) is None:
        side = board.turn
        player = players[side]
        side_name = chess.COLOR_NAMES[side].capitalize()
        try:
            await player.ensure_started()
            reply, seconds = await player.think(
                board, settings.limit(clocks, game), game, settings.hang_timeout(clocks[side])
            )
            if settings.base is not None:
                had = clocks[side]
                clocks[side] -= seconds
                if clocks[side] < -settings.margin:
                    raise EngineFault(
                        TIME_FORFEIT, f"took {seconds:.3f} s with {had:.3f} s on the clock"
                    )
                clocks[side] += settings.increment
            elif settings.movetime is not None and seconds > settings.movetime + settings.margin:
                raise EngineFault(
                    TIME_FORFEIT, f"took {seconds:.3f} s for a {settings.movetime:g} s move"
                )
            if reply.resigned:
                ending = ("0-1" if side == chess.WHITE else "1-0", f"{side_name} resigns", "normal")
                break
            if not reply.move:
                raise EngineFault(ILLEGAL_MOVE, "answered without a move (null move or claim)")
        except EngineFault as err:
            fault = Fault(player.spec.index, err.kind, err.detail)
            if err.kind != TIME_FORFEIT:
                await player.kill()  # its state is in doubt: a fresh process next game
            ending = (
                "0-1" if side == chess.WHITE else "1-0",
                f"{side_name} {err.kind.replace('_', ' ')}",
                FAULT_TERMINATION[err.kind],
            )
            break

        board.push(reply.move)
        comments.append(move_comment(reply.info, seconds))
        scores.append(white_score(reply.info))

    result, reason, termination = ending
    for player in players.values():
        await player.send_game_result(board, result, reason)

    pgn = chess.pgn.Game.from_board(board)
    for node, comment in zip(pgn.mainline(), comments):
        node.comment = comment
    # The reason closes the game text, with the details of a fault.
    closing = reason if fault is None else f"{reason}: {fault.detail}"
    last = pgn.end()
    last.comment = f"{last.comment}, {closing}" if last.comment else closing
    white = names[players[chess.WHITE].spec.index]
    black = names[players[chess.BLACK].spec.index]
    pgn.headers.update(
        {
            "Event": f"{names[1]} vs {names[2]}",
            "Site": "?",
            "Date": datetime.date.today().strftime("%Y.%m.%d"),
            "Round": str(number),
            "White": white,
            "Black": black,
            "Result": result,
            "TimeControl": settings.time_control_tag(),
            "Termination": termination,
            "PlyCount": str(len(board.move_stack)),
            "OpeningIndex": str(opening),
        }
    )
    return GameRecord(
        number=number,
        opening=opening,
        white=white,
        black=black,
        engine1_white=players[chess.WHITE].spec.index == 1,
        result=result,
        reason=reason,
        termination=termination,
        fault=fault,
        pgn=pgn,
    )
