"""The engine processes of a match: starting one, asking it for a move and turning whatever goes
wrong (an illegal move, a crash or protocol error, a hang) into an EngineFault, and killing it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shlex
import signal
import time
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.engine

# An engine must finish the uci/xboard handshake (and option setting) within this.
STARTUP_TIMEOUT_S = 10.0
# How long a "quit" may take before the engine is killed, and likewise for the end-of-game
# message sent to xboard engines.
QUIT_TIMEOUT_S = 2.0

ILLEGAL_MOVE = "illegal_move"
CRASH = "crash"
HANG = "hang"
TIME_FORFEIT = "time_forfeit"
FAULT_KINDS = (ILLEGAL_MOVE, CRASH, HANG, TIME_FORFEIT)

# What the harness asks engines to report with each move: the score (adjudication, PGN comments)
# and the depth (PGN comments). For xboard engines this also turns on "post".
INFO = chess.engine.INFO_SCORE | chess.engine.INFO_BASIC


class EngineFault(Exception):
    """A fault of one engine, which loses the game for it."""

    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class _GoTimestamp:
    """Notes when the search command went out, so that the time of a move starts there. play()
    first does the new-game handshake (ucinewgame + isready, or xboard's new/setboard), and that
    must not be charged to the engine's clock."""

    go_sent_at: float | None = None

    def send_line(self, line: str) -> None:
        if line == "go" or line.startswith("go "):
            self.go_sent_at = time.perf_counter()
        super().send_line(line)  # type: ignore[misc]


class TimedUciProtocol(_GoTimestamp, chess.engine.UciProtocol):
    pass


class TimedXBoardProtocol(_GoTimestamp, chess.engine.XBoardProtocol):
    pass


@dataclass
class EngineSpec:
    """How to start one of the two engines."""

    index: int  # 1 or 2: engine1 or engine2
    command: list[str]
    proto: str  # "uci" or "xboard"
    options: dict[str, str]
    name: str | None  # as given on the command line; None takes the engine's own name


class Player:
    """One running engine process of a game slot. It is started again, fresh, for the next game
    after a fault that leaves its state in doubt (a crash, a hang, an illegal move)."""

    def __init__(self, spec: EngineSpec):
        self.spec = spec
        self.transport: asyncio.SubprocessTransport | None = None
        self.protocol: TimedUciProtocol | TimedXBoardProtocol | None = None

    def describe(self) -> str:
        return shlex.join(self.spec.command)

    async def start(self) -> None:
        """Starts the process, does the handshake and sets the options; raises EngineFault."""
        protocol_class = TimedUciProtocol if self.spec.proto == "uci" else TimedXBoardProtocol
        try:
            # A process group of its own, so that a kill reaches helpers the engine started
            # (wrapper scripts) and a Ctrl-C in the terminal reaches only the harness.
            self.transport, self.protocol = await protocol_class.popen(
                self.spec.command, setpgrp=True
            )
        except OSError as err:
            raise EngineFault(CRASH, f"cannot start {self.describe()}: {err}") from err
        try:
            await asyncio.wait_for(self.protocol.initialize(), STARTUP_TIMEOUT_S)
            await asyncio.wait_for(self.protocol.configure(self.spec.options), STARTUP_TIMEOUT_S)
        except TimeoutError as err:
            await self.kill()
            raise EngineFault(
                HANG, f"no answer to the {self.spec.proto} handshake in {STARTUP_TIMEOUT_S:g} s"
            ) from err
        except chess.engine.EngineError as err:  # EngineTerminatedError included
            await self.kill()
            raise EngineFault(CRASH, f"failed to start: {err}") from err
        # With --debug, python-chess logs every UCI line under the engine's pid only: this names
        # the pid, so that a log can be read engine by engine (iterations.py).
        logging.getLogger("match").debug(
            "engine %s is pid %d", self.spec.name or self.own_name(), self.transport.get_pid()
        )

    async def ensure_started(self) -> None:
        if self.protocol is None:
            await self.start()

    def own_name(self) -> str:
        assert self.protocol is not None
        return self.protocol.id.get("name") or Path(self.spec.command[0]).name

    async def think(
        self, board: chess.Board, limit: chess.engine.Limit, game: object, timeout: float
    ) -> tuple[chess.engine.PlayResult, float]:
        """Asks for a move; returns it with the seconds the engine took from the search command
        to its answer. Raises EngineFault for a crash, a hang (the engine is not killed here) or
        an illegal move (python-chess checks every move against the position it sent)."""
        assert self.protocol is not None
        self.protocol.go_sent_at = None
        called_at = time.perf_counter()
        try:
            result = await asyncio.wait_for(
                self.protocol.play(board, limit, game=game, info=INFO), timeout
            )
        except TimeoutError as err:
            raise EngineFault(HANG, f"no move within {timeout:.3f} s, killed") from err
        except chess.engine.EngineTerminatedError as err:
            raise EngineFault(CRASH, str(err)) from err
        except chess.engine.EngineError as err:
            # python-chess wraps the ValueError of an unparsable or illegal move; anything else
            # is a protocol violation.
            if err.args and isinstance(err.args[0], ValueError):
                raise EngineFault(ILLEGAL_MOVE, str(err)) from err
            raise EngineFault(CRASH, f"protocol error: {err}") from err
        return result, time.perf_counter() - (self.protocol.go_sent_at or called_at)

    async def send_game_result(self, board: chess.Board, result: str, reason: str) -> None:
        """Tells an xboard engine the game is over (a no-op for UCI); failures do not matter."""
        if self.protocol is None or self.protocol.returncode.done():
            return
        winner = {"1-0": chess.WHITE, "0-1": chess.BLACK}.get(result)
        try:
            # xboard sends the reason in braces, so it may hold none itself.
            ending = reason.replace("{", "(").replace("}", ")")
            await asyncio.wait_for(
                self.protocol.send_game_result(board, winner, ending), QUIT_TIMEOUT_S
            )
        except (TimeoutError, chess.engine.EngineError):
            pass

    async def kill(self) -> None:
        """Kills the process group and reaps the process; the next game starts a new one."""
        transport, protocol = self.transport, self.protocol
        self.transport = self.protocol = None
        if transport is None or protocol is None:
            return
        try:
            os.killpg(transport.get_pid(), signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            await asyncio.wait_for(asyncio.shield(protocol.returncode), QUIT_TIMEOUT_S)
        except TimeoutError:
            pass
        transport.close()

    async def quit(self) -> None:
        """Asks the engine to quit, then makes sure nothing of it is left."""
        if self.protocol is not None and not self.protocol.returncode.done():
            try:
                await asyncio.wait_for(self.protocol.quit(), QUIT_TIMEOUT_S)
            except (TimeoutError, chess.engine.EngineError):
                pass
        await self.kill()
