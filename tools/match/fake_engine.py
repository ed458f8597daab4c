#!/usr/bin/env python3
"""A tiny UCI engine for test_match.py that plays random legal moves instantly and, depending on
its mode, misbehaves on its move number --after + 1 of each game:

    random   never misbehaves
    illegal  sends a move from an empty square
    crash    exits with status 3 instead of answering
    slow     answers a legal move, but only after its whole clock and 0.3 s more have passed
    hang     never answers (the harness must kill it)

Moves are drawn from a generator seeded by the position, so games between fake engines repeat
exactly from run to run.

It declares a `MultiPV` option and ignores it (one line a search). Two options serve the bench
scripts' tests: --echo copies every command received to stderr
(what an engine was sent), and --ready-delay S answers the first `isready` only after S seconds
(an engine that sets itself up at start, as Kogge's GPU search builds its kernel).

Usage: fake_engine.py MODE [--after N] [--echo] [--ready-delay S]
"""

import argparse
import random
import sys
import time

import chess


def parse_position(tokens: list[str]) -> chess.Board:
    """The board of a UCI 'position [startpos | fen F] [moves M...]' command (tokens after it)."""
    if tokens[0] == "startpos":
        board, rest = chess.Board(), tokens[1:]
    else:
        end = tokens.index("moves") if "moves" in tokens else len(tokens)
        board, rest = chess.Board(" ".join(tokens[1:end])), tokens[end:]
    for move in rest[1:]:
        board.push_uci(move)
    return board


def illegal_move(board: chess.Board) -> str:
    """A well-formed move that is never legal: it starts on an empty square."""
    empty = next(square for square in chess.SQUARES if board.piece_at(square) is None)
    target = (empty + 8) % 64
    return chess.square_name(empty) + chess.square_name(target)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("random", "illegal", "crash", "slow", "hang"))
    parser.add_argument("--after", type=int, default=2, help="good moves before misbehaving")
    parser.add_argument("--echo", action="store_true", help="copy every command to stderr")
    parser.add_argument("--ready-delay", type=float, default=0.0,
                        help="seconds before the first readyok")
    args = parser.parse_args()

    board = chess.Board()
    moves_this_game = 0
    ready_delay = args.ready_delay
    for line in sys.stdin:
        if args.echo:
            sys.stderr.write(line)
            sys.stderr.flush()
        tokens = line.split()
        if not tokens:
            continue
        command = tokens[0]
        if command == "uci":
            print(f"id name fake-{args.mode}")
            print("id author test_match.py")
            # Declared for bench/game-depths.py's warm searches (python-chess sets it only if
            # declared); the engine plays one line whatever its value.
            print("option name MultiPV type spin default 1 min 1 max 8")
            print("uciok")
        elif command == "isready":
            time.sleep(ready_delay)
            ready_delay = 0.0
            print("readyok")
        elif command == "ucinewgame":
            moves_this_game = 0
        elif command == "position":
            board = parse_position(tokens[1:])
        elif command == "go":
            moves_this_game += 1
            misbehave = args.mode != "random" and moves_this_game > args.after
            if misbehave and args.mode == "crash":
                sys.exit(3)
            if misbehave and args.mode == "hang":
                time.sleep(3600)
            if misbehave and args.mode == "slow":
                clock = tokens[tokens.index("wtime" if board.turn else "btime") + 1]
                time.sleep(int(clock) / 1000 + 0.3)
            if misbehave and args.mode == "illegal":
                print(f"bestmove {illegal_move(board)}")
            else:
                rng = random.Random(board.fen())
                move = rng.choice(sorted(board.legal_moves, key=chess.Move.uci))
                print(f"info depth 1 score cp 0 time 0 pv {move.uci()}\nbestmove {move.uci()}")
        elif command == "quit":
            break
        sys.stdout.flush()


if __name__ == "__main__":
    main()
