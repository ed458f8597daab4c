//! The piece terms: material, piece-square tables, mobility, bishop pair, rooks on open files and
//! tempo. Pawn structure lives in `pawns.rs`, king safety in `king.rs`. Each term gives one side's
//! contribution; the evaluation takes white's minus black's.

use crate::masks::file_of;
use crate::score::Score;
use crate::trace::Trace;
use crate::tunable::{Weights, param};
use crate::weights::MOBILITY_CENTER;
use kogge_chess::{Bitboard, Board, Color, PieceType, attacks};

/// Light squares (b1, a2, …): a bishop's square colour.
const LIGHT_SQUARES: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);

/// Material of `color`: [`MATERIAL`](crate::weights::MATERIAL) per piece. The backbone of the
/// evaluation; everything else is a correction of at most a pawn or two.
pub fn material(board: &Board, color: Color, w: &Weights, trace: &mut impl Trace) -> Score {
    let mut score = Score::ZERO;
    for pt in PieceType::ALL {
        let n = board.pieces_of(color, pt).count() as i32;
        score += w.material[pt.index()] * n;
        trace.add(color, param::material(pt), n);
    }
    score
}

/// Piece-square tables of `color`: [`PST_MG`](crate::weights::PST_MG) /
/// [`PST_EG`](crate::weights::PST_EG) for each piece on its square, the tables read from
/// `color`'s side of the board. Encodes where pieces stand well without looking at the rest of
/// the position (knights in the centre, king castled in the midgame and central in the endgame).
pub fn piece_squares(board: &Board, color: Color, w: &Weights, trace: &mut impl Trace) -> Score {
    let mut score = Score::ZERO;
    for pt in PieceType::ALL {
        for sq in board.pieces_of(color, pt) {
            let i = sq.relative(color).index();
            score += w.pst[pt.index()][i];
            trace.add(color, param::pst(pt, i), 1);
        }
    }
    score
}

/// Mobility of `color`: for each knight, bishop, rook and queen, the number of safe squares it
/// attacks (not holding an own piece, not attacked by an enemy pawn; sliders see through
/// nothing), minus [`MOBILITY_CENTER`] for its type, times [`MOBILITY`](crate::weights::MOBILITY)
/// for its type. Active pieces have options and restrict the opponent; a piece with few safe
/// squares is a target.
pub fn mobility(board: &Board, color: Color, w: &Weights, trace: &mut impl Trace) -> Score {
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
            let n = (reach & area).count() as i32 - MOBILITY_CENTER[pt.index()];
            score += w.mobility[pt.index()] * n;
            trace.add(color, param::MOBILITY + pt.index(), n);
        }
    }
    score
}

/// Bishop pair of `color`: [`BISHOP_PAIR`](crate::weights::BISHOP_PAIR) when it has bishops on
/// both square colours. Two bishops cover every square, which no other minor-piece pair does;
/// worth most in open endgames.
pub fn bishop_pair(board: &Board, color: Color, w: &Weights, trace: &mut impl Trace) -> Score {
    let bishops = board.pieces_of(color, PieceType::Bishop);
    if (bishops & LIGHT_SQUARES).any() && (bishops & !LIGHT_SQUARES).any() {
        trace.add(color, param::BISHOP_PAIR, 1);
        w.bishop_pair
    } else {
        Score::ZERO
    }
}

/// Rooks of `color` on open files (no pawns: [`ROOK_OPEN_FILE`](crate::weights::ROOK_OPEN_FILE))
/// and half-open files (only enemy pawns:
/// [`ROOK_HALF_OPEN_FILE`](crate::weights::ROOK_HALF_OPEN_FILE)). A rook needs a file to reach the
/// enemy position; a half-open file gives it a pawn to attack.
pub fn rook_files(board: &Board, color: Color, w: &Weights, trace: &mut impl Trace) -> Score {
    let own_pawns = board.pieces_of(color, PieceType::Pawn);
    let all_pawns = board.pieces(PieceType::Pawn);
    let mut score = Score::ZERO;
    for sq in board.pieces_of(color, PieceType::Rook) {
        let file = file_of(sq);
        if (file & all_pawns).is_empty() {
            score += w.rook_open_file;
            trace.add(color, param::ROOK_OPEN_FILE, 1);
        } else if (file & own_pawns).is_empty() {
            score += w.rook_half_open_file;
            trace.add(color, param::ROOK_HALF_OPEN_FILE, 1);
        }
    }
    score
}

/// Tempo of `color`: [`TEMPO`](crate::weights::TEMPO) when it is to move. Having the move is
/// worth something in almost every position, and it keeps odd and even search depths from
/// disagreeing as much.
pub fn tempo(board: &Board, color: Color, w: &Weights, trace: &mut impl Trace) -> Score {
    if board.side_to_move() == color {
        trace.add(color, param::TEMPO, 1);
        w.tempo
    } else {
        Score::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::NoTrace;
    use crate::weights::{BISHOP_PAIR, MOBILITY, ROOK_HALF_OPEN_FILE, ROOK_OPEN_FILE};
    use kogge_chess::Square;

    const W: &Weights = &Weights::DEFAULT;

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
        assert_eq!(
            bishop_pair(&pair, Color::White, W, &mut NoTrace),
            BISHOP_PAIR
        );
        assert_eq!(
            bishop_pair(&pair, Color::Black, W, &mut NoTrace),
            Score::ZERO
        );
        let one = board("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
        assert_eq!(
            bishop_pair(&one, Color::White, W, &mut NoTrace),
            Score::ZERO
        );
        let bishop_and_knight = board("4k3/8/8/8/8/8/8/2B1KN2 w - - 0 1");
        assert_eq!(
            bishop_pair(&bishop_and_knight, Color::White, W, &mut NoTrace),
            Score::ZERO
        );
        // Two bishops on the same colour (after an underpromotion) are no pair.
        let same_colour = board("4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1");
        assert_eq!(
            bishop_pair(&same_colour, Color::White, W, &mut NoTrace),
            Score::ZERO
        );
    }

    #[test]
    fn rook_files() {
        let open = board("4k3/pp6/8/8/8/8/PP6/3RK3 w - - 0 1");
        assert_eq!(
            super::rook_files(&open, Color::White, W, &mut NoTrace),
            ROOK_OPEN_FILE
        );
        let half_open = board("4k3/pp1p4/8/8/8/8/PP6/3RK3 w - - 0 1");
        assert_eq!(
            super::rook_files(&half_open, Color::White, W, &mut NoTrace),
            ROOK_HALF_OPEN_FILE
        );
        let closed = board("4k3/pp1p4/8/8/8/8/PP1P4/3RK3 w - - 0 1");
        assert_eq!(
            super::rook_files(&closed, Color::White, W, &mut NoTrace),
            Score::ZERO
        );
    }

    #[test]
    fn mobility_counts_safe_squares() {
        // A knight on e4 with nothing around attacks 8 squares.
        let free = board("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1");
        assert_eq!(
            mobility(&free, Color::White, W, &mut NoTrace),
            MOBILITY[1] * (8 - MOBILITY_CENTER[1])
        );
        // Black pawns on c7 and e7 guard d6 and f6 (the c-pawn also b6): two of the knight's
        // squares are unsafe.
        let guarded = board("4k3/2p1p3/8/8/4N3/8/8/4K3 w - - 0 1");
        assert_eq!(
            mobility(&guarded, Color::White, W, &mut NoTrace),
            MOBILITY[1] * (6 - MOBILITY_CENTER[1])
        );
    }
}
