//! King safety: enemy pressure on the squares around the king, and the pawn shield in front of a
//! castled king.

use crate::masks::{adjacent_files, file_of};
use crate::score::Score;
use crate::trace::Trace;
use crate::tunable::{KING_DANGER_LEN, Weights, param};
use crate::weights::{KING_ATTACK_WEIGHT, KING_ATTACKERS_MIN};
use kogge_chess::{Bitboard, Board, Color, File, PieceType, Rank, attacks};

/// Safety of `color`'s king (a penalty, plus the shield bonus).
///
/// **Attack**: the king zone is the king's square and the squares it attacks. Every enemy
/// knight, bishop, rook and queen whose attacks reach the zone is an attacker and adds
/// [`KING_ATTACK_WEIGHT`] units per zone square it attacks. With at least [`KING_ATTACKERS_MIN`]
/// attackers the units, capped at the table's last entry, look up the penalty in
/// [`KING_DANGER`](crate::weights::KING_DANGER): attacks by several pieces cooperate, so danger
/// grows faster than the count of attacked squares.
///
/// **Shield**: a king on its back rank on the a–c or f–h files (castled, or where it would be)
/// gets [`PAWN_SHIELD_CLOSE`](crate::weights::PAWN_SHIELD_CLOSE) per own pawn on its file or an
/// adjacent one on the second relative rank, and [`PAWN_SHIELD_FAR`](crate::weights::PAWN_SHIELD_FAR)
/// per such pawn on the third.
pub fn king_safety(board: &Board, color: Color, w: &Weights, trace: &mut impl Trace) -> Score {
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
        let danger = (units as usize).min(KING_DANGER_LEN - 1);
        score += w.king_danger[danger];
        trace.add(color, param::KING_DANGER + danger, 1);
    }

    let on_back_rank = ksq.rank().relative(color) == Rank::R1;
    let on_wing = ksq.file() <= File::C || ksq.file() >= File::F;
    if on_back_rank && on_wing {
        let shield = board.pieces_of(color, PieceType::Pawn) & (file_of(ksq) | adjacent_files(ksq));
        let close = shield & Bitboard::rank(Rank::R2.relative(color));
        let far = shield & Bitboard::rank(Rank::R3.relative(color));
        let (close, far) = (close.count() as i32, far.count() as i32);
        score += w.pawn_shield_close * close + w.pawn_shield_far * far;
        trace.add(color, param::PAWN_SHIELD_CLOSE, close);
        trace.add(color, param::PAWN_SHIELD_FAR, far);
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::NoTrace;
    use crate::weights::{KING_DANGER, PAWN_SHIELD_CLOSE, PAWN_SHIELD_FAR};

    fn safety(fen: &str, color: Color) -> Score {
        let board = Board::from_fen(fen).expect("test FEN");
        king_safety(&board, color, &Weights::DEFAULT, &mut NoTrace)
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
        assert_eq!(attacked, quiet + KING_DANGER[14]);
        // A single attacker does not count.
        let single = safety("6k1/5ppp/8/7Q/8/8/8/6K1 w - - 0 1", Color::Black);
        assert_eq!(single, quiet);
    }
}
