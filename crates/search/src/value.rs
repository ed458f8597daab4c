//! Search values: centipawns from the side to move's point of view, with the values near
//! [`MATE`] reserved for forced mates so that "mate in n" survives the trip through the
//! transposition table and the protocol.

/// A search value in centipawns, side to move's point of view.
pub type Value = i32;

/// The value of giving mate now; mate in `n` plies is `MATE - n`.
pub const MATE: Value = 32_000;

/// The deepest ply any search reaches; values within this many plies of [`MATE`] are mates.
pub const MAX_PLY: usize = 128;

/// Values at or beyond this are mate scores.
const MATE_BOUND: Value = MATE - MAX_PLY as Value;

/// Mating in `ply` plies from the root.
pub const fn mate_in(ply: usize) -> Value {
    MATE - ply as Value
}

/// Being mated in `ply` plies from the root.
pub const fn mated_in(ply: usize) -> Value {
    -MATE + ply as Value
}

/// A value as a protocol prints it: centipawns, or mate in full moves (negative when the side
/// to move is mated), as UCI's `score cp N` / `score mate N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DisplayValue {
    Centipawns(i32),
    Mate(i32),
}

impl DisplayValue {
    pub fn from_value(v: Value) -> DisplayValue {
        if v >= MATE_BOUND {
            DisplayValue::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            DisplayValue::Mate(-((MATE + v) / 2))
        } else {
            DisplayValue::Centipawns(v)
        }
    }

    /// The UCI form: `cp 31`, `mate 3`, `mate -2`.
    pub fn uci(self) -> String {
        match self {
            DisplayValue::Centipawns(cp) => format!("cp {cp}"),
            DisplayValue::Mate(m) => format!("mate {m}"),
        }
    }

    /// The xboard form: centipawns, or 100000 + n for mate in n moves (−100000 − n when mated),
    /// which xboard and WinBoard display as `#n`.
    pub fn xboard(self) -> i32 {
        match self {
            DisplayValue::Centipawns(cp) => cp,
            DisplayValue::Mate(m) if m > 0 => 100_000 + m,
            DisplayValue::Mate(m) => -100_000 + m,
        }
    }

    /// For people: `+0.31`, `#3`, `#-2`.
    pub fn human(self) -> String {
        match self {
            DisplayValue::Centipawns(cp) => format!("{:+.2}", cp as f64 / 100.0),
            DisplayValue::Mate(m) => format!("#{m}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_become_moves() {
        assert_eq!(DisplayValue::from_value(mate_in(1)), DisplayValue::Mate(1));
        assert_eq!(DisplayValue::from_value(mate_in(3)), DisplayValue::Mate(2));
        assert_eq!(DisplayValue::from_value(mated_in(0)), DisplayValue::Mate(0));
        assert_eq!(
            DisplayValue::from_value(mated_in(2)),
            DisplayValue::Mate(-1)
        );
        assert_eq!(DisplayValue::from_value(57), DisplayValue::Centipawns(57));
        assert_eq!(DisplayValue::from_value(mate_in(5)).uci(), "mate 3");
        assert_eq!(DisplayValue::from_value(mated_in(4)).xboard(), -100_002);
        assert_eq!(DisplayValue::from_value(-125).human(), "-1.25");
    }
}
