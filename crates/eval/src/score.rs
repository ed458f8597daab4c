//! `Score`: a midgame/endgame pair of centipawn values, the currency every term pays in.

use std::iter::Sum;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// Full game phase: the phase of the start position (all minor and major pieces on the board).
pub const MAX_PHASE: i32 = 24;

/// A value in centipawns for the midgame (`mg`) and for the endgame (`eg`). Terms add these up
/// and [`Score::blend`] interpolates once at the end, so that a term's weight can differ between
/// the opening and the endgame (a king in the centre is bad with queens on, good without).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Score {
    pub mg: i32,
    pub eg: i32,
}

impl Score {
    pub const ZERO: Score = Score { mg: 0, eg: 0 };

    #[inline(always)]
    pub const fn new(mg: i32, eg: i32) -> Score {
        Score { mg, eg }
    }

    /// The tapered value at `phase` (0 = pawn endgame, [`MAX_PHASE`] = opening):
    /// `(mg * phase + eg * (24 - phase)) / 24`. Integer division truncates toward zero, which is
    /// odd-symmetric (`blend(-s) == -blend(s)`), so colour-mirrored positions score exactly
    /// opposite; C on the GPU truncates the same way.
    #[inline(always)]
    pub const fn blend(self, phase: i32) -> i32 {
        (self.mg * phase + self.eg * (MAX_PHASE - phase)) / MAX_PHASE
    }
}

impl Add for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, rhs: Score) -> Score {
        Score::new(self.mg + rhs.mg, self.eg + rhs.eg)
    }
}

impl Sub for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, rhs: Score) -> Score {
        Score::new(self.mg - rhs.mg, self.eg - rhs.eg)
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline(always)]
    fn neg(self) -> Score {
        Score::new(-self.mg, -self.eg)
    }
}

impl Mul<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn mul(self, rhs: i32) -> Score {
        Score::new(self.mg * rhs, self.eg * rhs)
    }
}

impl AddAssign for Score {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Score) {
        *self = *self + rhs;
    }
}

impl SubAssign for Score {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Score) {
        *self = *self - rhs;
    }
}

impl Sum for Score {
    fn sum<I: Iterator<Item = Score>>(iter: I) -> Score {
        iter.fold(Score::ZERO, Add::add)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_and_blend() {
        let a = Score::new(10, -4);
        let b = Score::new(3, 7);
        assert_eq!(a + b, Score::new(13, 3));
        assert_eq!(a - b, Score::new(7, -11));
        assert_eq!(-a, Score::new(-10, 4));
        assert_eq!(a * 3, Score::new(30, -12));
        assert_eq!([a, b].into_iter().sum::<Score>(), a + b);
        assert_eq!(a.blend(MAX_PHASE), 10);
        assert_eq!(a.blend(0), -4);
        assert_eq!(Score::new(100, 0).blend(12), 50);
        // Truncation toward zero keeps blending odd-symmetric.
        for phase in 0..=MAX_PHASE {
            let s = Score::new(7, -13);
            assert_eq!((-s).blend(phase), -s.blend(phase));
        }
    }
}
