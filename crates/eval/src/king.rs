//! King safety: enemy pressure on the squares around the king, and the pawn shield in front of a
//! castled king.

use crate::masks::{adjacent_files, file_of};
use crate::score::Score;
use crate::weights::{
    KING_ATTACK_WEIGHT, KING_ATTACKERS_MIN, KING_DANGER_CAP, KING_DANGER_EG_PER_UNIT,
    KING_DANGER_MG_DIVISOR, PAWN_SHIELD_CLOSE, PAWN_SHIELD_FAR,
};
use kogge_chess::{Bitboard, Board, Color, File, PieceType, Rank, attacks};

/// Safety of `color`'s king (a penalty, plus the shield bonus).
///
/// **Attack**: the king zone is the king's square and the squares it attacks. Every enemy
/// knight, bishop, rook and queen whose attacks reach the zone is an attacker and adds
/// [`KING_ATTACK_WEIGHT`] units per zone square it attacks. With at least [`KING_ATTACKERS_MIN`]
/// attackers the units (capped at [`KING_DANGER_CAP`]) cost `units² / KING_DANGER_MG_DIVISOR` in
/// the midgame and `units * KING_DANGER_EG_PER_UNIT` in the endgame: attacks by several pieces
/// cooperate, so danger grows faster than the count of attacked squares.
///
/// **Shield**: a king on its back rank on the a–c or f–h files (castled, or where it would be)
/// gets [`PAWN_SHIELD_CLOSE`] per own pawn on its file or an adjacent one on the second relative
/// rank, and [`PAWN_SHIELD_FAR`] per such pawn on the third.
pub fn king_safety(board: &Board, color: Color) -> Score {
    let ksq = board.king(color);
    let zone = attacks::king(ksq).with(ksq);
    let them = !color;
    let occupied = board.occupied();

    let mut units = 0;
    let mut attackers = 0;
    for pt in [
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ] {
        for sq in board.pieces_of(them, pt) {
            let reach = match pt {
                PieceType::Knight => attacks::knight(sq),
                PieceType::Bishop => attacks::bishop(sq, occupied),
                PieceType::Rook => attacks::rook(sq, occupied),
                _ => attacks::queen(sq, occupied),
            } & zone;
            if reach.any() {
                attackers += 1;
                units += KING_ATTACK_WEIGHT[pt.index()] * reach.count() as i32;
            }
        }
    }
    let mut score = Score::ZERO;
    if attackers >= KING_ATTACKERS_MIN {
        let danger = units.min(KING_DANGER_CAP);
        score -= Score::new(
            danger * danger / KING_DANGER_MG_DIVISOR,
            danger * KING_DANGER_EG_PER_UNIT,
        );
    }

    let on_back_rank = ksq.rank().relative(color) == Rank::R1;
    let on_wing = ksq.file() <= File::C || ksq.file() >= File::F;
    if on_back_rank && on_wing {
        let shield = board.pieces_of(color, PieceType::Pawn) & (file_of(ksq) | adjacent_files(ksq));
        let close = shield & Bitboard::rank(Rank::R2.relative(color));
        let far = shield & Bitboard::rank(Rank::R3.relative(color));
        score += PAWN_SHIELD_CLOSE * close.count() as i32 + PAWN_SHIELD_FAR * far.count() as i32;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    fn safety(fen: &str, color: Color) -> Score {
        king_safety(&Board::from_fen(fen).expect("test FEN"), color)
    }

    #[test]
    fn shield_counts_pawns_in_front_of_a_castled_king() {
        let full = safety("6k1/8/8/8/8/8/5PPP/6K1 w - - 0 1", Color::White);
        assert_eq!(full, PAWN_SHIELD_CLOSE * 3);
        let advanced = safety("6k1/8/8/8/8/6P1/5P1P/6K1 w - - 0 1", Color::White);
        assert_eq!(advanced, PAWN_SHIELD_CLOSE * 2 + PAWN_SHIELD_FAR);
        // A king in the centre gets no shield bonus.
        let central = safety("4k3/8/8/8/8/8/3PPP2/4K3 w - - 0 1", Color::White);
        assert_eq!(central, Score::ZERO);
        // The same for black, mirrored.
        let black = safety("6k1/5ppp/8/8/8/8/8/6K1 w - - 0 1", Color::Black);
        assert_eq!(black, PAWN_SHIELD_CLOSE * 3);
    }

    #[test]
    fn attacks_on_the_king_zone_cost() {
        // Black king g8 behind f7/g7/h7; the white queen on h5 and knight on g5 both hit f7 and h7:
        // two attackers, 2 * 5 + 2 * 2 = 14 units.
        let attacked = safety("6k1/5ppp/8/6NQ/8/8/8/6K1 w - - 0 1", Color::Black);
        let quiet = safety("6k1/5ppp/8/8/8/8/8/N2Q2K1 w - - 0 1", Color::Black);
        assert_eq!(quiet, PAWN_SHIELD_CLOSE * 3);
        assert_eq!(
            attacked,
            quiet
                - Score::new(
                    14 * 14 / KING_DANGER_MG_DIVISOR,
                    14 * KING_DANGER_EG_PER_UNIT
                )
        );
        // A single attacker does not count.
        let single = safety("6k1/5ppp/8/7Q/8/8/8/6K1 w - - 0 1", Color::Black);
        assert_eq!(single, quiet);
    }
}
