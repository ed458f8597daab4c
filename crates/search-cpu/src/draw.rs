//! Draws the search recognises without searching: the fifty-move rule, repetitions and
//! insufficient material.

use kogge_chess::{Board, PieceType};

/// Neither side can mate with any sequence of legal moves: bare kings, or a single minor piece.
pub fn insufficient_material(board: &Board) -> bool {
    let heavy = board.pieces(PieceType::Pawn)
        | board.pieces(PieceType::Rook)
        | board.pieces(PieceType::Queen);
    heavy.is_empty()
        && (board.pieces(PieceType::Knight) | board.pieces(PieceType::Bishop)).count() <= 1
}

/// Whether `board` repeats an earlier position. `keys` holds the keys of every position before
/// this one (the game's, then the search path's); positions from `search_start` on were reached
/// by the search. A single repetition inside the search counts (the side that could avoid it
/// would have, if it were better); one from the game before the root needs a second, as the
/// threefold rule says.
pub fn is_repetition(board: &Board, keys: &[u64], search_start: usize) -> bool {
    let key = board.hash();
    let reversible = board.halfmove_clock() as usize;
    let n = keys.len();
    let mut seen_in_game = 0;
    // Only positions with the same side to move and within the reversible moves can repeat.
    let mut back = 4;
    while back <= reversible.min(n) {
        let i = n - back;
        if keys[i] == key {
            if i >= search_start {
                return true;
            }
            seen_in_game += 1;
            if seen_in_game >= 2 {
                return true;
            }
        }
        back += 2;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use kogge_chess::Board;

    fn keys_after(fen: &str, moves: &[&str]) -> (Board, Vec<u64>) {
        let mut b = Board::from_fen(fen).unwrap();
        let mut keys = Vec::new();
        for m in moves {
            keys.push(b.hash());
            let mv = b.parse_uci(m).unwrap();
            b.play(mv);
        }
        (b, keys)
    }

    #[test]
    fn knight_shuffle_repeats() {
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let (b, keys) = keys_after(kogge_chess::STARTPOS_FEN, &shuffle);
        // Inside the search, once is enough.
        assert!(is_repetition(&b, &keys, 0));
        // In the game history, once is not; twice is.
        assert!(!is_repetition(&b, &keys, keys.len()));
        let twice: Vec<&str> = shuffle.iter().chain(shuffle.iter()).copied().collect();
        let (b, keys) = keys_after(kogge_chess::STARTPOS_FEN, &twice);
        assert!(is_repetition(&b, &keys, keys.len()));
    }

    #[test]
    fn a_pawn_move_ends_the_repetition_window() {
        let (b, keys) = keys_after(
            kogge_chess::STARTPOS_FEN,
            &["g1f3", "g8f6", "f3g1", "f6g8", "e2e4"],
        );
        assert!(!is_repetition(&b, &keys, 0));
    }

    #[test]
    fn material() {
        for (fen, draw) in [
            ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", true),
            ("8/8/4k3/8/8/3KN3/8/8 w - - 0 1", true),
            ("8/8/4kb2/8/8/3KN3/8/8 w - - 0 1", false),
            ("8/8/4k3/8/8/3KP3/8/8 w - - 0 1", false),
        ] {
            assert_eq!(
                insufficient_material(&Board::from_fen(fen).unwrap()),
                draw,
                "{fen}"
            );
        }
    }
}
