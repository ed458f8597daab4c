//! `mirror`: the colour-flipped position, for the symmetry tests and for tools that want to check
//! that an evaluation treats both colours alike.

use kogge_chess::Board;

/// The same position with colours swapped and the board flipped top to bottom: white's pieces
/// become black's on the mirrored squares (e2 ↔ e7), the other side is to move, castling rights
/// and the en-passant square follow. A symmetric evaluation scores it exactly like the original.
pub fn mirror(board: &Board) -> Board {
    let fen = board.to_fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    let placement = fields[0]
        .split('/')
        .rev()
        .map(swap_case)
        .collect::<Vec<_>>()
        .join("/");
    let side = if fields[1] == "w" { "b" } else { "w" };
    let castling = if fields[2] == "-" {
        "-".to_string()
    } else {
        // White's rights first, as FEN writes them.
        let swapped = swap_case(fields[2]);
        let (upper, lower): (String, String) =
            swapped.chars().partition(|c| c.is_ascii_uppercase());
        upper + &lower
    };
    let ep = match fields[3].as_bytes() {
        [file, b'3'] => format!("{}6", *file as char),
        [file, b'6'] => format!("{}3", *file as char),
        _ => "-".to_string(),
    };
    let mirrored = format!(
        "{placement} {side} {castling} {ep} {} {}",
        fields[4], fields[5]
    );
    Board::from_fen(&mirrored)
        .unwrap_or_else(|e| panic!("the mirror of a legal position is legal: {mirrored}: {e}"))
}

fn swap_case(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrors_fen_fields() {
        let b = Board::from_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 0 5").expect("FEN");
        let m = mirror(&b);
        assert_eq!(m.to_fen(), "r3k2r/8/8/8/3Pp3/8/8/R3K2R b Qk d3 0 5");
        assert_eq!(mirror(&m), b);
    }
}
