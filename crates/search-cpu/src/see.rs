//! Static exchange evaluation: does a move win at least `threshold` material once every piece
//! that attacks its target square has captured there, least valuable first, each side free to
//! stop when going on would lose? Used to order captures (good before bad) and to prune moves
//! that only lose material.

use kogge_chess::{Board, Move, MoveKind, PieceType, attacks};
use kogge_search::Value;

/// Piece values for exchanges (pawn … king); the king never gets captured, so its value only
/// has to be larger than everything else.
pub const SEE_VALUE: [Value; 6] = [100, 320, 330, 500, 950, 20_000];

/// The piece `mv` captures, if any.
#[inline]
pub fn captured(board: &Board, mv: Move) -> Option<PieceType> {
    match mv.kind() {
        MoveKind::EnPassant => Some(PieceType::Pawn),
        MoveKind::Castling => None,
        _ => board.piece_type_on(mv.to()),
    }
}

/// Whether `mv` gains at least `threshold` (in [`SEE_VALUE`] units) by static exchange.
pub fn see_ge(board: &Board, mv: Move, threshold: Value) -> bool {
    // Castling, en passant and promotions are scored as even exchanges: rare enough that the
    // simplification costs nothing, and en passant's victim is not on the target square.
    if mv.kind() != MoveKind::Normal {
        return threshold <= 0;
    }
    let (from, to) = (mv.from(), mv.to());
    let victim = board.piece_type_on(to).map_or(0, |p| SEE_VALUE[p.index()]);
    let mut swap = victim - threshold;
    if swap < 0 {
        return false;
    }
    let mover = board
        .piece_type_on(from)
        .map_or(0, |p| SEE_VALUE[p.index()]);
    swap = mover - swap;
    if swap <= 0 {
        return true;
    }

    let mut occupied = board.occupied().without(from).without(to);
    let mut side = board.side_to_move();
    let mut attackers = board.attackers_to(to, occupied);
    let diagonal = board.pieces(PieceType::Bishop) | board.pieces(PieceType::Queen);
    let orthogonal = board.pieces(PieceType::Rook) | board.pieces(PieceType::Queen);
    // 1 while the side that made the last capture is winning the exchange.
    let mut result = true;
    loop {
        side = !side;
        attackers &= occupied;
        let ours = attackers & board.colored(side);
        if ours.is_empty() {
            break;
        }
        result = !result;
        // The least valuable attacker captures; a slider leaving may uncover another behind it.
        let mut next = None;
        for pt in PieceType::ALL {
            let set = ours & board.pieces(pt);
            if set.any() {
                next = Some((pt, set.lsb()));
                break;
            }
        }
        let Some((pt, sq)) = next else { break };
        if pt == PieceType::King {
            // The king may capture only if the other side has nothing left to recapture with.
            return if (attackers & board.colored(!side)).any() {
                !result
            } else {
                result
            };
        }
        swap = SEE_VALUE[pt.index()] - swap;
        if swap < result as Value {
            break;
        }
        occupied = occupied.without(sq);
        if matches!(pt, PieceType::Pawn | PieceType::Bishop | PieceType::Queen) {
            attackers |= attacks::bishop(to, occupied) & diagonal;
        }
        if matches!(pt, PieceType::Rook | PieceType::Queen) {
            attackers |= attacks::rook(to, occupied) & orthogonal;
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, uci: &str, threshold: Value) -> bool {
        let b = Board::from_fen(fen).unwrap();
        let mv = b.parse_uci(uci).unwrap();
        see_ge(&b, mv, threshold)
    }

    #[test]
    fn pawn_takes_defended_knight_wins_a_knight_for_a_pawn() {
        let fen = "4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1";
        assert!(see(fen, "d4e5", 200));
        assert!(!see(fen, "d4e5", 250));
    }

    #[test]
    fn queen_takes_defended_pawn_loses() {
        let fen = "4k3/8/3p4/4p3/8/8/4Q3/4K3 w - - 0 1";
        assert!(!see(fen, "e2e5", 0));
        assert!(see(fen, "e2e5", -900));
    }

    #[test]
    fn x_ray_behind_the_rook_counts() {
        // Rook takes a pawn defended by a rook; the queen behind backs it up.
        let fen = "3rk3/8/8/3p4/8/8/3R4/3QK3 w - - 0 1";
        assert!(see(fen, "d2d5", 100));
        let lone = "3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1";
        assert!(!see(lone, "d2d5", 1));
    }

    #[test]
    fn quiet_move_onto_an_attacked_square_loses_the_piece() {
        assert!(see("4k3/8/3p4/8/8/8/8/2B1K3 w - - 0 1", "c1f4", 0));
        assert!(!see("4k3/8/8/3p4/8/8/8/4KB2 w - - 0 1", "f1c4", 0));
        assert!(see("4k3/8/8/3p4/8/8/8/4KB2 w - - 0 1", "f1c4", -330));
    }
}
