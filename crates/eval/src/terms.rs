//! The piece terms: material, piece-square tables, mobility, bishop pair, rooks on open files and
//! tempo. Pawn structure lives in `pawns.rs`, king safety in `king.rs`. Each term gives one side's
//! contribution; the evaluation takes white's minus black's.

use crate::masks::file_of;
use crate::score::Score;
use crate::weights::{
    BISHOP_PAIR, MATERIAL, MOBILITY, MOBILITY_CENTER, PST_EG, PST_MG, ROOK_HALF_OPEN_FILE,
    ROOK_OPEN_FILE, TEMPO,
};
use kogge_chess::{Bitboard, Board, Color, PieceType, attacks};

/// Light squares (b1, a2, …): a bishop's square colour.
const LIGHT_SQUARES: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);

/// Material of `color`: [`MATERIAL`] per piece. The backbone of the evaluation; everything else
/// is a correction of at most a pawn or two.
pub fn material(board: &Board, color: Color) -> Score {
    PieceType::ALL
        .into_iter()
        .map(|pt| MATERIAL[pt.index()] * board.pieces_of(color, pt).count() as i32)
        .sum()
}

/// Piece-square tables of `color`: [`PST_MG`] / [`PST_EG`] for each piece on its square, the
/// tables read from `color`'s side of the board. Encodes where pieces stand well without
/// looking at the rest of the position (knights in the centre, king castled in the midgame and
/// central in the endgame).
pub fn piece_squares(board: &Board, color: Color) -> Score {
    let mut score = Score::ZERO;
    for pt in PieceType::ALL {
        for sq in board.pieces_of(color, pt) {
            let i = sq.relative(color).index() ^ 56;
            score += Score::new(PST_MG[pt.index()][i], PST_EG[pt.index()][i]);
        }
    }
    score
}

/// Mobility of `color`: for each knight, bishop, rook and queen, the number of safe squares it
/// attacks (not holding an own piece, not attacked by an enemy pawn; sliders see through
/// nothing), minus [`MOBILITY_CENTER`] for its type, times [`MOBILITY`] for its type. Active
/// pieces have options and restrict the opponent; a piece with few safe squares is a target.
pub fn mobility(board: &Board, color: Color) -> Score {
    let enemy_pawn_attacks =
        attacks::pawns_setwise(!color, board.pieces_of(!color, PieceType::Pawn));
    let area = !(board.colored(color) | enemy_pawn_attacks);
    let occupied = board.occupied();
    let mut score = Score::ZERO;
    for pt in [
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ] {
        for sq in board.pieces_of(color, pt) {
            let reach = match pt {
                PieceType::Knight => attacks::knight(sq),
                PieceType::Bishop => attacks::bishop(sq, occupied),
                PieceType::Rook => attacks::rook(sq, occupied),
                _ => attacks::queen(sq, occupied),
            };
            let count = (reach & area).count() as i32;
            score += MOBILITY[pt.index()] * (count - MOBILITY_CENTER[pt.index()]);
        }
    }
    score
}

/// Bishop pair of `color`: [`BISHOP_PAIR`] when it has bishops on both square colours. Two
/// bishops cover every square, which no other minor-piece pair does; worth most in open
/// endgames.
pub fn bishop_pair(board: &Board, color: Color) -> Score {
    let bishops = board.pieces_of(color, PieceType::Bishop);
    if (bishops & LIGHT_SQUARES).any() && (bishops & !LIGHT_SQUARES).any() {
        BISHOP_PAIR
    } else {
        Score::ZERO
    }
}

/// Rooks of `color` on open files (no pawns: [`ROOK_OPEN_FILE`]) and half-open files (only enemy
/// pawns: [`ROOK_HALF_OPEN_FILE`]). A rook needs a file to reach the enemy position; a half-open
/// file gives it a pawn to attack.
pub fn rook_files(board: &Board, color: Color) -> Score {
    let own_pawns = board.pieces_of(color, PieceType::Pawn);
    let all_pawns = board.pieces(PieceType::Pawn);
    let mut score = Score::ZERO;
    for sq in board.pieces_of(color, PieceType::Rook) {
        let file = file_of(sq);
        if (file & all_pawns).is_empty() {
            score += ROOK_OPEN_FILE;
        } else if (file & own_pawns).is_empty() {
            score += ROOK_HALF_OPEN_FILE;
        }
    }
    score
}

/// Tempo of `color`: [`TEMPO`] when it is to move. Having the move is worth something in almost
/// every position, and it keeps odd and even search depths from disagreeing as much.
pub fn tempo(board: &Board, color: Color) -> Score {
    if board.side_to_move() == color {
        TEMPO
    } else {
        Score::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kogge_chess::Square;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).expect("test FEN")
    }

    #[test]
    fn light_squares_mask() {
        for sq in Square::all() {
            let light = (sq.file().index() + sq.rank().index()) % 2 == 1;
            assert_eq!(LIGHT_SQUARES.has(sq), light, "{sq}");
        }
    }

    #[test]
    fn bishop_pair_needs_two_bishops_of_both_colours() {
        let pair = board("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1");
        assert_eq!(bishop_pair(&pair, Color::White), BISHOP_PAIR);
        assert_eq!(bishop_pair(&pair, Color::Black), Score::ZERO);
        let one = board("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
        assert_eq!(bishop_pair(&one, Color::White), Score::ZERO);
        let bishop_and_knight = board("4k3/8/8/8/8/8/8/2B1KN2 w - - 0 1");
        assert_eq!(bishop_pair(&bishop_and_knight, Color::White), Score::ZERO);
        // Two bishops on the same colour (after an underpromotion) are no pair.
        let same_colour = board("4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1");
        assert_eq!(bishop_pair(&same_colour, Color::White), Score::ZERO);
    }

    #[test]
    fn rook_files() {
        let open = board("4k3/pp6/8/8/8/8/PP6/3RK3 w - - 0 1");
        assert_eq!(super::rook_files(&open, Color::White), ROOK_OPEN_FILE);
        let half_open = board("4k3/pp1p4/8/8/8/8/PP6/3RK3 w - - 0 1");
        assert_eq!(
            super::rook_files(&half_open, Color::White),
            ROOK_HALF_OPEN_FILE
        );
        let closed = board("4k3/pp1p4/8/8/8/8/PP1P4/3RK3 w - - 0 1");
        assert_eq!(super::rook_files(&closed, Color::White), Score::ZERO);
    }

    #[test]
    fn mobility_counts_safe_squares() {
        // A knight on e4 with nothing around attacks 8 squares.
        let free = board("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1");
        assert_eq!(
            mobility(&free, Color::White),
            MOBILITY[1] * (8 - MOBILITY_CENTER[1])
        );
        // Black pawns on c7 and e7 guard d6 and f6 (the c-pawn also b6): two of the knight's
        // squares are unsafe.
        let guarded = board("4k3/2p1p3/8/8/4N3/8/8/4K3 w - - 0 1");
        assert_eq!(
            mobility(&guarded, Color::White),
            MOBILITY[1] * (6 - MOBILITY_CENTER[1])
        );
    }
}
