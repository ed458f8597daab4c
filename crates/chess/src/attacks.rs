//! Attack lookups: leapers from tables, sliders through [`Sliders`] (magic multiply by default),
//! and the between/line masks used for pins and checks.

use crate::bitboard::Bitboard;
use crate::sliders::{Magic, Sliders};
use crate::tables;
use crate::types::{Color, Square};

#[inline(always)]
pub fn knight(sq: Square) -> Bitboard {
    Bitboard(tables::KNIGHT_ATTACKS[sq.index()])
}

#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(tables::KING_ATTACKS[sq.index()])
}

/// Squares a pawn of `color` standing on `sq` attacks.
#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(tables::PAWN_ATTACKS[color.index() * 64 + sq.index()])
}

/// Squares attacked by all pawns in `pawns` of colour `color`, set-wise.
#[inline(always)]
pub fn pawns_setwise(color: Color, pawns: Bitboard) -> Bitboard {
    let west = pawns & !Bitboard::FILE_A;
    let east = pawns & !Bitboard::FILE_H;
    match color {
        Color::White => Bitboard(west.0 << 7 | east.0 << 9),
        Color::Black => Bitboard(west.0 >> 9 | east.0 >> 7),
    }
}

#[inline(always)]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    Magic::rook(sq, occupied)
}

#[inline(always)]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    Magic::bishop(sq, occupied)
}

#[inline(always)]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    rook(sq, occupied) | bishop(sq, occupied)
}

/// Squares strictly between `a` and `b` if they share a line, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(tables::BETWEEN[a.index() * 64 + b.index()])
}

/// The full line through `a` and `b` (edge to edge) if they share one, else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(tables::LINE[a.index() * 64 + b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference;

    #[test]
    fn leapers_match_reference() {
        for sq in Square::all() {
            assert_eq!(knight(sq).0, reference::knight_attacks(sq.index()));
            assert_eq!(king(sq).0, reference::king_attacks(sq.index()));
            for c in Color::ALL {
                let p = pawn(c, sq);
                assert_eq!(p.0, reference::pawn_attacks(c.index(), sq.index()));
                assert_eq!(pawns_setwise(c, Bitboard::from_square(sq)), p);
            }
        }
    }

    #[test]
    fn between_and_line() {
        let a1: Square = "a1".parse().unwrap();
        let h8: Square = "h8".parse().unwrap();
        let b2: Square = "b2".parse().unwrap();
        let c3: Square = "c3".parse().unwrap();
        assert_eq!(between(a1, h8).count(), 6);
        assert!(between(a1, b2).is_empty());
        assert_eq!(line(a1, c3).count(), 8);
        assert!(line(a1, "b3".parse().unwrap()).is_empty());
        // Every line runs edge to edge through both squares, in both directions.
        for a in Square::all() {
            for b in Square::all() {
                let l = line(a, b);
                if l.any() {
                    assert!(l.has(a) && l.has(b), "{a} {b}");
                    assert_eq!((l & between(a, b)), between(a, b));
                    assert_eq!(line(b, a), l);
                    assert!(l.count() >= 2 && l.count() <= 8);
                    let ends = l
                        & (Bitboard::FILE_A
                            | Bitboard::FILE_H
                            | Bitboard::RANK_1
                            | Bitboard::RANK_8);
                    assert!(ends.count() >= 2 || l.count() == 8, "{a} {b}: {l:?}");
                }
            }
        }
        let c6: Square = "c6".parse().unwrap();
        let d5: Square = "d5".parse().unwrap();
        assert!(line(c6, d5).has("h1".parse().unwrap()) && line(c6, d5).has("a8".parse().unwrap()));
    }
}
