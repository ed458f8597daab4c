//! A plain-text board for people: ranks 8 to 1 from the top, white in upper case as in FEN,
//! empty squares as dots, coordinates on the left and below. ASCII only, so that it survives any
//! terminal, log file or copy into an issue.

use kogge_chess::{Board, File, Rank, Square};

/// The diagram, one line per rank plus the file letters, each line ending in a newline:
///
/// ```text
/// 8  r n b q k b n r
/// 7  p p p p p p p p
/// 6  . . . . . . . .
/// …
/// 1  R N B Q K B N R
///    a b c d e f g h
/// ```
pub fn diagram(board: &Board) -> String {
    let mut text = String::with_capacity(9 * 19);
    for rank in (0..8).rev().filter_map(Rank::new) {
        text.push(rank.char());
        text.push(' ');
        for file in File::all() {
            text.push(' ');
            let square = Square::new(file, rank);
            text.push(board.piece_on(square).map_or('.', |p| p.char()));
        }
        text.push('\n');
    }
    text.push_str("  ");
    for file in File::all() {
        text.push(' ');
        text.push(file.char());
    }
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        let text = diagram(&Board::startpos());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 9);
        assert_eq!(lines[0], "8  r n b q k b n r");
        assert_eq!(lines[4], "4  . . . . . . . .");
        assert_eq!(lines[7], "1  R N B Q K B N R");
        assert_eq!(lines[8], "   a b c d e f g h");
    }
}
