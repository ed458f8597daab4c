//! Kogge-Stone sliding attacks: parallel-prefix occluded fills, no tables and no branches.
//!
//! This is the form the GPU kernels use (table lookups cost memory traffic there; shifts and
//! masks are plain ALU work that 32 lanes do in lock-step). On the CPU it serves as a second,
//! independent reference for the magic and PEXT tables. Each direction takes three
//! shift-and-mask doubling steps (1, 2, 4 squares) over the set of empty squares.

use crate::bitboard::Bitboard;

const NOT_A: u64 = !0x0101_0101_0101_0101;
const NOT_H: u64 = !0x8080_8080_8080_8080;

/// One direction: the shift applied to a bitboard for one step, and the mask that keeps pieces
/// from wrapping around the a/h edges.
#[derive(Clone, Copy)]
struct Dir {
    shift: i32,
    wrap: u64,
}

impl Dir {
    #[inline(always)]
    fn step(self, b: u64) -> u64 {
        (if self.shift > 0 {
            b << self.shift
        } else {
            b >> -self.shift
        }) & self.wrap
    }

    /// Squares reached from `fill` by sliding in this direction until (and including) the first
    /// square not in `empty`.
    #[inline(always)]
    fn attacks(self, mut fill: u64, mut empty: u64) -> u64 {
        let s = self.shift;
        let shift = |b: u64, n: i32| if n > 0 { b << n } else { b >> -n };
        empty &= self.wrap;
        fill |= empty & shift(fill, s);
        empty &= shift(empty, s);
        fill |= empty & shift(fill, 2 * s);
        empty &= shift(empty, 2 * s);
        fill |= empty & shift(fill, 4 * s);
        self.step(fill)
    }
}

const NORTH: Dir = Dir { shift: 8, wrap: !0 };
const SOUTH: Dir = Dir {
    shift: -8,
    wrap: !0,
};
const EAST: Dir = Dir {
    shift: 1,
    wrap: NOT_A,
};
const WEST: Dir = Dir {
    shift: -1,
    wrap: NOT_H,
};
const NORTH_EAST: Dir = Dir {
    shift: 9,
    wrap: NOT_A,
};
const NORTH_WEST: Dir = Dir {
    shift: 7,
    wrap: NOT_H,
};
const SOUTH_EAST: Dir = Dir {
    shift: -7,
    wrap: NOT_A,
};
const SOUTH_WEST: Dir = Dir {
    shift: -9,
    wrap: NOT_H,
};

/// Squares attacked by the rooks (or queens) in `rooks`, set-wise, given `occupied`.
pub fn rook_attacks(rooks: Bitboard, occupied: Bitboard) -> Bitboard {
    let empty = !occupied.0;
    Bitboard(
        NORTH.attacks(rooks.0, empty)
            | SOUTH.attacks(rooks.0, empty)
            | EAST.attacks(rooks.0, empty)
            | WEST.attacks(rooks.0, empty),
    )
}

/// Squares attacked by the bishops (or queens) in `bishops`, set-wise, given `occupied`.
pub fn bishop_attacks(bishops: Bitboard, occupied: Bitboard) -> Bitboard {
    let empty = !occupied.0;
    Bitboard(
        NORTH_EAST.attacks(bishops.0, empty)
            | NORTH_WEST.attacks(bishops.0, empty)
            | SOUTH_EAST.attacks(bishops.0, empty)
            | SOUTH_WEST.attacks(bishops.0, empty),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sliders::{Magic, Sliders};
    use crate::types::Square;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        /// Kogge-Stone and magic lookups agree on random occupancies, square by square.
        #[test]
        fn kogge_stone_matches_magic(sq in 0usize..64, a: u64, b: u64) {
            let sq = Square::from_index(sq).unwrap();
            for occ in [Bitboard(a), Bitboard(a & b)] {
                let one = Bitboard::from_square(sq);
                prop_assert_eq!(rook_attacks(one, occ), Magic::rook(sq, occ));
                prop_assert_eq!(bishop_attacks(one, occ), Magic::bishop(sq, occ));
            }
        }

        /// Set-wise fills equal the union of the per-square lookups.
        #[test]
        fn setwise_fill_is_union(pieces: u64, a: u64, b: u64) {
            let occ = Bitboard(a & b | pieces);
            let sliders = Bitboard(pieces & a);
            let mut rooks = Bitboard::EMPTY;
            let mut bishops = Bitboard::EMPTY;
            for sq in sliders {
                rooks |= Magic::rook(sq, occ);
                bishops |= Magic::bishop(sq, occ);
            }
            prop_assert_eq!(rook_attacks(sliders, occ), rooks);
            prop_assert_eq!(bishop_attacks(sliders, occ), bishops);
        }
    }
}
