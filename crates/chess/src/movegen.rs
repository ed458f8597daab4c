//! Legal move generation with check and pin masks: every move produced is legal, so nothing is
//! made and unmade to test legality.
//!
//! One generator, [`generate`], feeds a [`MoveSink`] with *sets* of moves (a piece's target
//! bitboard, or all pawn pushes at once). A counting sink sums popcounts — perft's bulk count at
//! the last ply never builds a move at all — and a listing sink expands the sets into [`Move`]s.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::Wing;
use crate::moves::{Move, MoveList};
use crate::sliders::{Magic, Sliders};
use crate::types::{Color, PieceType, Rank, Square};

/// Receives legal moves from [`generate`], a set at a time.
pub trait MoveSink {
    /// The piece on `from` moves to each square of `to` (never a promotion).
    fn piece_moves(&mut self, from: Square, to: Bitboard);
    /// For each square `t` of `to`, the pawn on `t - delta` moves to `t` (never a promotion).
    fn pawn_moves(&mut self, to: Bitboard, delta: i8);
    /// As `pawn_moves`, onto the last rank: each square is four moves (queen, rook, bishop,
    /// knight).
    fn promotions(&mut self, to: Bitboard, delta: i8);
    /// One castling or en-passant move.
    fn special(&mut self, mv: Move);
}

/// Counts moves without building them.
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn piece_moves(&mut self, _from: Square, to: Bitboard) {
        self.0 += to.count() as u64;
    }
    #[inline(always)]
    fn pawn_moves(&mut self, to: Bitboard, _delta: i8) {
        self.0 += to.count() as u64;
    }
    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, _delta: i8) {
        self.0 += 4 * to.count() as u64;
    }
    #[inline(always)]
    fn special(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn piece_moves(&mut self, from: Square, to: Bitboard) {
        for t in to {
            self.push(Move::normal(from, t));
        }
    }
    #[inline(always)]
    fn pawn_moves(&mut self, to: Bitboard, delta: i8) {
        for t in to {
            let from = Square::from_index_unchecked((t.index() as i32 - delta as i32) as u32);
            self.push(Move::normal(from, t));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, delta: i8) {
        for t in to {
            let from = Square::from_index_unchecked((t.index() as i32 - delta as i32) as u32);
            for p in PieceType::PROMOTIONS {
                self.push(Move::promotion(from, t, p));
            }
        }
    }
    #[inline(always)]
    fn special(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Generates every legal move of `board` into `sink`.
#[inline(always)]
pub fn generate<S: Sliders, K: MoveSink>(board: &Board, sink: &mut K) {
    let us = board.side;
    let them = !us;
    let ours = board.colored(us);
    let theirs = board.colored(them);
    let occ = ours | theirs;
    let ksq = board.king(us);

    // Step 1. King moves: to squares no enemy attacks once the king has left its square (so
    // that it cannot step back along the line of a slider that checks it).
    let occ_without_king = occ.without(ksq);
    let mut king_to = Bitboard::EMPTY;
    for t in attacks::king(ksq) & !ours {
        if !board.is_attacked::<S>(them, t, occ_without_king) {
            king_to = king_to.with(t);
        }
    }
    sink.piece_moves(ksq, king_to);

    // Step 2. In double check only the king moves.
    let checkers = board.checkers;
    if checkers.several() {
        return;
    }

    // Step 3. In single check, other pieces must capture the checker or block the line.
    let check_mask = match checkers.single() {
        Some(c) => attacks::between(ksq, c) | checkers,
        None => Bitboard::ALL,
    };
    let target = !ours & check_mask;
    let pinned = board.pinned;

    // Step 4. Knights (a pinned knight never moves).
    for from in board.pieces_of(us, PieceType::Knight) & !pinned {
        sink.piece_moves(from, attacks::knight(from) & target);
    }

    // Step 5. Sliders: pinned ones only along the line through their king.
    let diagonal = board.diagonal_sliders(us);
    let orthogonal = board.orthogonal_sliders(us);
    for from in diagonal & !pinned {
        sink.piece_moves(from, S::bishop(from, occ) & target);
    }
    for from in orthogonal & !pinned {
        sink.piece_moves(from, S::rook(from, occ) & target);
    }
    if pinned.any() {
        for from in diagonal & pinned {
            sink.piece_moves(
                from,
                S::bishop(from, occ) & target & attacks::line(ksq, from),
            );
        }
        for from in orthogonal & pinned {
            sink.piece_moves(from, S::rook(from, occ) & target & attacks::line(ksq, from));
        }
    }

    // Step 6. Pawns.
    generate_pawns::<S, K>(board, sink, ksq, check_mask);

    // Step 7. Castling, never out of check.
    if checkers.is_empty() && !board.castling.is_empty() {
        for wing in Wing::ALL {
            if let Some(rook) = board.castling.rook_square(us, wing)
                && can_castle::<S>(board, ksq, rook, wing)
            {
                sink.special(Move::castling(ksq, rook));
            }
        }
    }
}

#[inline(always)]
fn generate_pawns<S: Sliders, K: MoveSink>(
    board: &Board,
    sink: &mut K,
    ksq: Square,
    check_mask: Bitboard,
) {
    let us = board.side;
    let them = !us;
    let theirs = board.colored(them);
    let empty = !board.occupied();
    let pawns = board.pieces_of(us, PieceType::Pawn);
    let pinned = board.pinned;
    let (up, last_rank, third_rank): (i8, Bitboard, Bitboard) = match us {
        Color::White => (8, Bitboard::RANK_8, Bitboard::rank(Rank::R3)),
        Color::Black => (-8, Bitboard::RANK_1, Bitboard::rank(Rank::R6)),
    };
    let (west, east) = (up - 1, up + 1);

    // Unpinned pawns, set-wise.
    let free = pawns & !pinned;
    let single = free.shift(up) & empty;
    let double = (single & third_rank).shift(up) & empty & check_mask;
    let single = single & check_mask;
    let west_captures = (free & !Bitboard::FILE_A).shift(west) & theirs & check_mask;
    let east_captures = (free & !Bitboard::FILE_H).shift(east) & theirs & check_mask;
    sink.pawn_moves(single & !last_rank, up);
    sink.pawn_moves(double, 2 * up);
    sink.pawn_moves(west_captures & !last_rank, west);
    sink.pawn_moves(east_captures & !last_rank, east);
    sink.promotions(single & last_rank, up);
    sink.promotions(west_captures & last_rank, west);
    sink.promotions(east_captures & last_rank, east);

    // Pinned pawns, one at a time, only along the pin line. (A pinned piece can never answer a
    // check, but the check mask keeps that true without a special case.)
    for from in pawns & pinned {
        let pawn = Bitboard::from_square(from);
        let allowed = attacks::line(ksq, from) & check_mask;
        let single = pawn.shift(up) & empty;
        let double = (single & third_rank).shift(up) & empty & allowed;
        let single = single & allowed;
        let west_capture = (pawn & !Bitboard::FILE_A).shift(west) & theirs & allowed;
        let east_capture = (pawn & !Bitboard::FILE_H).shift(east) & theirs & allowed;
        for (to, delta) in [(single, up), (west_capture, west), (east_capture, east)] {
            if (to & last_rank).any() {
                sink.promotions(to, delta);
            } else {
                sink.pawn_moves(to, delta);
            }
        }
        sink.pawn_moves(double, 2 * up);
    }

    // En passant: rare, so test it fully. Taking must answer any check (capture the checking
    // pawn or block on the en-passant square), and lifting both pawns off the rank must not
    // expose the king to a slider.
    if let Some(ep) = board.ep {
        let captured = Square::from_index_unchecked((ep.index() as i32 - up as i32) as u32);
        if check_mask.has(ep) || check_mask.has(captured) {
            let occ = board.occupied();
            for from in attacks::pawn(them, ep) & pawns {
                let after = (occ.without(from).without(captured)).with(ep);
                let exposed = (S::bishop(ksq, after) & board.diagonal_sliders(them))
                    | (S::rook(ksq, after) & board.orthogonal_sliders(them));
                if exposed.is_empty() {
                    sink.special(Move::en_passant(from, ep));
                }
            }
        }
    }
}

/// Chess960 castling rules (standard chess is the special case): every square the king or rook
/// passes over or lands on is empty but for the two of them, and no square the king passes over
/// or lands on is attacked. The attack test leaves the castling rook out of the blockers, since
/// it may be shielding the king's destination along the back rank.
#[inline(always)]
fn can_castle<S: Sliders>(board: &Board, ksq: Square, rook: Square, wing: Wing) -> bool {
    let us = board.side;
    let king_to = wing.king_to(us);
    let rook_to = wing.rook_to(us);
    let occ = board.occupied().without(ksq).without(rook);
    let king_path = attacks::between(ksq, king_to).with(king_to);
    let rook_path = attacks::between(rook, rook_to).with(rook_to);
    if ((king_path | rook_path) & occ).any() {
        return false;
    }
    // The king is not in check now (the caller checked); the squares it crosses and lands on
    // must not be attacked either, with the rook lifted. That includes the destination when the
    // king does not move at all (king on c1 or g1): the rook may be what shields it today.
    let occ_for_attacks = board.occupied().without(rook);
    for sq in king_path {
        if board.is_attacked::<S>(!us, sq, occ_for_attacks) {
            return false;
        }
    }
    true
}

impl Board {
    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        generate::<Magic, _>(self, &mut list);
        list
    }

    /// The number of legal moves, counted without building them.
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = MoveCounter(0);
        generate::<Magic, _>(self, &mut counter);
        counter.0
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(fen: &str) -> Vec<String> {
        let b = Board::from_fen(fen).unwrap();
        let mut v: Vec<String> = b.legal_moves().iter().map(|m| m.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn pinned_queen_stays_on_the_diagonal() {
        // The white queen on d5 is pinned along c6-e4: only the capture and king moves remain.
        let m = moves("8/8/2K5/3Q4/4q3/8/8/7k w - - 4 3");
        assert_eq!(
            m,
            [
                "c6b5", "c6b6", "c6b7", "c6c5", "c6c7", "c6d6", "c6d7", "d5e4"
            ]
        );
    }

    #[test]
    fn chess960_rook_may_not_unshield_a_king_that_stays() {
        // Black king c8 castles queen side with the b8 rook: the king stays on c8, the rook
        // leaves b8, and the white queen on a8 would then give check. Illegal.
        let m = moves("Qrk1qrbb/1p2ppp1/2ppn3/7p/P1PP3P/8/1P2PPP1/NRKN1RBB b KQkq - 0 2");
        assert!(!m.contains(&"c8b8".to_string()), "{m:?}");
        // Without the queen the same castling is legal.
        let m = moves("1rk1qrbb/1p2ppp1/2ppn3/7p/P1PP3P/8/1P2PPP1/NRKN1RBB b kq - 0 2");
        assert!(m.contains(&"c8b8".to_string()), "{m:?}");
    }

    #[test]
    fn en_passant_that_exposes_the_king_on_the_rank_is_illegal() {
        let m = moves("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2");
        assert!(!m.contains(&"b5c6".to_string()), "{m:?}");
        let m = moves("8/8/8/1Pp4r/8/K7/8/4k3 w - c6 0 2");
        assert!(m.contains(&"b5c6".to_string()), "{m:?}");
    }

    #[test]
    fn castling_not_through_or_into_check() {
        // Black rook on f8 covers f1: no king-side castling; queen side is free.
        let m = moves("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert!(!m.contains(&"e1h1".to_string()));
        assert!(m.contains(&"e1a1".to_string()));
        // b1 attacked does not matter for queen-side castling (the king does not cross it).
        let m = moves("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert!(m.contains(&"e1a1".to_string()));
        // Out of check: never.
        let m = moves("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert!(!m.contains(&"e1a1".to_string()) && !m.contains(&"e1h1".to_string()));
    }

    #[test]
    fn double_check_allows_only_king_moves() {
        let b = Board::from_fen("4r1k1/8/8/8/8/3n4/8/R3K3 w - - 0 1").unwrap();
        assert_eq!(b.checkers().count(), 2);
        assert!(
            b.legal_moves()
                .iter()
                .all(|m| m.from() == b.king(Color::White))
        );
    }
}
