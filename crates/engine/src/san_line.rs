//! Moves for people: a line of play in SAN with move numbers (`1. e4 e5 2. Nf3`, or
//! `12... Qxd4 13. Rxd4` when black moves first), and a single move as `Nf3 (g1f3)`.

use kogge_chess::{Board, Color, Move};

/// The moves of `line`, played from `board`, in SAN with move numbers. Stops at the first move
/// that is not legal where it stands: a principal variation's tail can come from the
/// transposition table, and a rare key collision there must not print nonsense (or panic in
/// `Board::play`).
pub fn numbered_san(board: &Board, line: &[Move]) -> String {
    let mut position = *board;
    let mut parts: Vec<String> = Vec::with_capacity(line.len() * 3 / 2);
    for (i, &mv) in line.iter().enumerate() {
        if !position.is_legal(mv) {
            break;
        }
        let number = position.fullmove_number();
        match position.side_to_move() {
            Color::White => parts.push(format!("{number}.")),
            Color::Black if i == 0 => parts.push(format!("{number}...")),
            Color::Black => {}
        }
        parts.push(position.to_san(mv));
        position.play(mv);
    }
    parts.join(" ")
}

/// One move as SAN followed by its UCI form: `Nf3 (g1f3)`. The UCI form writes castling as the
/// king's destination in standard chess and as king-takes-rook in Chess960, as GUIs expect.
pub fn san_and_uci(board: &Board, mv: Move) -> String {
    format!(
        "{} ({})",
        board.to_san(mv),
        board.to_uci(mv, board.has_chess960_castling())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(board: &Board, uci: &[&str]) -> Vec<Move> {
        let mut b = *board;
        uci.iter()
            .map(|text| {
                let mv = b.parse_uci(text).expect("a legal move");
                b.play(mv);
                mv
            })
            .collect()
    }

    #[test]
    fn white_first() {
        let b = Board::startpos();
        let line = moves(&b, &["e2e4", "e7e5", "g1f3"]);
        assert_eq!(numbered_san(&b, &line), "1. e4 e5 2. Nf3");
    }

    #[test]
    fn black_first_and_a_later_move_number() {
        let b = Board::from_fen("4k3/8/8/8/3q4/8/8/3RK3 b - - 0 12").expect("a FEN");
        let line = moves(&b, &["d4d1", "e1d1"]);
        assert_eq!(numbered_san(&b, &line), "12... Qxd1+ 13. Kxd1");
    }

    #[test]
    fn stops_at_an_illegal_move() {
        let b = Board::startpos();
        let mut line = moves(&b, &["e2e4"]);
        line.push(line[0]);
        assert_eq!(numbered_san(&b, &line), "1. e4");
        assert_eq!(numbered_san(&b, &[]), "");
    }

    #[test]
    fn single_move() {
        let b = Board::startpos();
        let mv = b.parse_uci("g1f3").expect("a legal move");
        assert_eq!(san_and_uci(&b, mv), "Nf3 (g1f3)");
    }
}
