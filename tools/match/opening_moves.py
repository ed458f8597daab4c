"""Rebuilding an opening position as moves from the start position.

Some xboard engines (Fairy-Max) cannot be given a position: they have no `setboard`, so
python-chess can start them only from the initial position and send the moves. For those,
`--openings-from-start` replaces each opening position by a move sequence that reaches it from
the start. The openings are short (8 plies), so a depth-first search finds one at once when it
is pruned by a simple bound: each move but castling puts at most one piece of its side on a
square it must end on, so a side with k squares still wrong needs about k more moves.
"""

from __future__ import annotations

import chess


def _moves_needed(board: chess.Board, goal: chess.Board, color: chess.Color) -> int:
    """A lower bound on the moves `color` still needs: the squares where the goal has a piece
    of `color` that the board does not have there, one a move, less one while castling (which
    places king and rook at once) is still possible."""
    wrong = sum(
        board.piece_at(square) != goal.piece_at(square)
        for square in chess.SquareSet(goal.occupied_co[color])
    )
    return wrong - 1 if board.has_castling_rights(color) else wrong


def _plies_from_start(goal: chess.Board) -> int:
    return 2 * (goal.fullmove_number - 1) + (goal.turn == chess.BLACK)


def moves_to(goal: chess.Board, max_nodes: int = 20_000) -> chess.Board | None:
    """A board that starts from the initial position and reaches `goal`'s placement, side to
    move and castling rights, with the moves in its move stack; None if none is found within
    the plies the goal's move number allows and `max_nodes` positions searched."""
    target = (goal.board_fen(), goal.turn, goal.castling_rights)
    board = chess.Board()
    failed: set[tuple[str, bool, int]] = set()
    nodes = 0

    def search(left: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes:
            return False
        if left == 0:
            return (board.board_fen(), board.turn, board.castling_rights) == target
        mover_moves = (left + 1) // 2
        other_moves = left // 2
        mover, other = board.turn, not board.turn
        if (_moves_needed(board, goal, mover) > mover_moves
                or _moves_needed(board, goal, other) > other_moves):
            return False
        key = (board.board_fen(), board.turn, left)
        if key in failed:
            return False
        for move in list(board.legal_moves):
            board.push(move)
            if search(left - 1):
                return True
            board.pop()
        failed.add(key)
        return False

    return board if search(_plies_from_start(goal)) else None


def openings_from_start(
    openings: list[chess.Board], wanted: int | None = None
) -> tuple[list[chess.Board], list[int]]:
    """The openings rebuilt as moves from the start position (the first `wanted` that can be,
    or all), and the indices of those for which no move sequence was found quickly (left out;
    raises ValueError if that is all)."""
    rebuilt, missed = [], []
    for index, goal in enumerate(openings):
        if wanted is not None and len(rebuilt) >= wanted:
            break
        board = moves_to(goal)
        if board is None:
            missed.append(index)
        else:
            rebuilt.append(board)
    if not rebuilt:
        raise ValueError("no opening could be rebuilt as moves from the start position")
    return rebuilt, missed
