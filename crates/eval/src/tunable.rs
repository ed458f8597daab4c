//! `Weights`: every tunable weight of [`weights`](crate::weights) in one struct, so that the terms
//! read them from a `&Weights` — the engine passes [`Weights::DEFAULT`], a constant the compiler
//! folds in, and the tuner passes its own — and the [`param`] numbering that lays them out as one
//! flat list of `Score`s for the tuner.
//!
//! The structural constants (phase weights, mobility centres, king attack weights, the attacker
//! threshold) stay plain constants in `weights.rs`: they are not linear weights and are set by
//! hand.

use crate::score::Score;
use crate::weights;

/// Number of entries of the king danger table.
pub const KING_DANGER_LEN: usize = weights::KING_DANGER.len();

/// The tunable weights. Every field is a `Score` (or an array of them) that some term adds a whole
/// number of times, so the evaluation before blending is linear in these values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// [`weights::MATERIAL`], by piece type.
    pub material: [Score; 6],
    /// [`weights::PST_MG`] and [`weights::PST_EG`] paired, by piece type and by square *from the
    /// owner's side* (a1 = 0 for white, a8 = 0 for black), not in the drawing order of the file.
    pub pst: [[Score; 64]; 6],
    /// [`weights::MOBILITY`], by piece type.
    pub mobility: [Score; 6],
    /// [`weights::PASSED_PAWN`], by relative rank.
    pub passed_pawn: [Score; 8],
    pub isolated_pawn: Score,
    pub doubled_pawn: Score,
    pub backward_pawn: Score,
    /// [`weights::KING_DANGER`], by attack units.
    pub king_danger: [Score; KING_DANGER_LEN],
    pub pawn_shield_close: Score,
    pub pawn_shield_far: Score,
    pub bishop_pair: Score,
    pub rook_open_file: Score,
    pub rook_half_open_file: Score,
    pub tempo: Score,
}

/// The drawn tables of `weights.rs` (rank 8 first) as `Score`s in square order (a1 first).
const fn pst_from_drawing(mg: &[[i32; 64]; 6], eg: &[[i32; 64]; 6]) -> [[Score; 64]; 6] {
    let mut out = [[Score::ZERO; 64]; 6];
    let mut pt = 0;
    while pt < 6 {
        let mut sq = 0;
        while sq < 64 {
            out[pt][sq] = Score::new(mg[pt][sq ^ 56], eg[pt][sq ^ 56]);
            sq += 1;
        }
        pt += 1;
    }
    out
}

impl Weights {
    /// The weights of `weights.rs`: what [`evaluate`](crate::evaluate) uses.
    pub const DEFAULT: Weights = Weights {
        material: weights::MATERIAL,
        pst: pst_from_drawing(&weights::PST_MG, &weights::PST_EG),
        mobility: weights::MOBILITY,
        passed_pawn: weights::PASSED_PAWN,
        isolated_pawn: weights::ISOLATED_PAWN,
        doubled_pawn: weights::DOUBLED_PAWN,
        backward_pawn: weights::BACKWARD_PAWN,
        king_danger: weights::KING_DANGER,
        pawn_shield_close: weights::PAWN_SHIELD_CLOSE,
        pawn_shield_far: weights::PAWN_SHIELD_FAR,
        bishop_pair: weights::BISHOP_PAIR,
        rook_open_file: weights::ROOK_OPEN_FILE,
        rook_half_open_file: weights::ROOK_HALF_OPEN_FILE,
        tempo: weights::TEMPO,
    };

    /// Every weight in [`param`] order.
    pub fn to_vec(&self) -> Vec<Score> {
        let mut w = self.clone();
        w.fields_mut().map(|s| *s).collect()
    }

    /// The weights from a list in [`param`] order.
    ///
    /// # Panics
    /// If `values` does not hold exactly [`param::COUNT`] entries.
    pub fn from_slice(values: &[Score]) -> Weights {
        assert_eq!(values.len(), param::COUNT, "one value per weight");
        let mut w = Weights::DEFAULT;
        for (field, v) in w.fields_mut().zip(values) {
            *field = *v;
        }
        w
    }

    /// The weight numbered `index` in [`param`] order.
    pub fn get(&self, index: usize) -> Score {
        self.to_vec()[index]
    }

    /// Every field in [`param`] order: the single definition of that order.
    fn fields_mut(&mut self) -> impl Iterator<Item = &mut Score> {
        self.material
            .iter_mut()
            .chain(self.pst.iter_mut().flatten())
            .chain(self.mobility.iter_mut())
            .chain(self.passed_pawn.iter_mut())
            .chain([
                &mut self.isolated_pawn,
                &mut self.doubled_pawn,
                &mut self.backward_pawn,
            ])
            .chain(self.king_danger.iter_mut())
            .chain([
                &mut self.pawn_shield_close,
                &mut self.pawn_shield_far,
                &mut self.bishop_pair,
                &mut self.rook_open_file,
                &mut self.rook_half_open_file,
                &mut self.tempo,
            ])
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

/// The flat numbering of the tunable weights, for the trace and the tuner: the first index of
/// each field of [`Weights`] (arrays take consecutive indices), in field order.
pub mod param {
    use super::KING_DANGER_LEN;
    use kogge_chess::PieceType;

    pub const MATERIAL: usize = 0;
    /// `PST + 64 * piece type + square from the owner's side`.
    pub const PST: usize = MATERIAL + 6;
    pub const MOBILITY: usize = PST + 6 * 64;
    pub const PASSED_PAWN: usize = MOBILITY + 6;
    pub const ISOLATED_PAWN: usize = PASSED_PAWN + 8;
    pub const DOUBLED_PAWN: usize = ISOLATED_PAWN + 1;
    pub const BACKWARD_PAWN: usize = DOUBLED_PAWN + 1;
    pub const KING_DANGER: usize = BACKWARD_PAWN + 1;
    pub const PAWN_SHIELD_CLOSE: usize = KING_DANGER + KING_DANGER_LEN;
    pub const PAWN_SHIELD_FAR: usize = PAWN_SHIELD_CLOSE + 1;
    pub const BISHOP_PAIR: usize = PAWN_SHIELD_FAR + 1;
    pub const ROOK_OPEN_FILE: usize = BISHOP_PAIR + 1;
    pub const ROOK_HALF_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
    pub const TEMPO: usize = ROOK_HALF_OPEN_FILE + 1;
    /// The number of tunable weights.
    pub const COUNT: usize = TEMPO + 1;

    const PIECES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

    /// A readable name for weight `index`: `material[knight]`, `pst[rook][e7]`, `tempo`.
    pub fn name(index: usize) -> String {
        let piece = |i: usize| PIECES[i % 6];
        match index {
            i if i < PST => format!("material[{}]", piece(i - MATERIAL)),
            i if i < MOBILITY => {
                let (pt, sq) = ((i - PST) / 64, (i - PST) % 64);
                let file = (b'a' + (sq % 8) as u8) as char;
                format!("pst[{}][{file}{}]", piece(pt), sq / 8 + 1)
            }
            i if i < PASSED_PAWN => format!("mobility[{}]", piece(i - MOBILITY)),
            i if i < ISOLATED_PAWN => format!("passed_pawn[rank {}]", i - PASSED_PAWN + 1),
            ISOLATED_PAWN => "isolated_pawn".into(),
            DOUBLED_PAWN => "doubled_pawn".into(),
            BACKWARD_PAWN => "backward_pawn".into(),
            i if i < PAWN_SHIELD_CLOSE => format!("king_danger[{}]", i - KING_DANGER),
            PAWN_SHIELD_CLOSE => "pawn_shield_close".into(),
            PAWN_SHIELD_FAR => "pawn_shield_far".into(),
            BISHOP_PAIR => "bishop_pair".into(),
            ROOK_OPEN_FILE => "rook_open_file".into(),
            ROOK_HALF_OPEN_FILE => "rook_half_open_file".into(),
            TEMPO => "tempo".into(),
            _ => format!("<{index}: no such weight>"),
        }
    }

    /// The index of piece type `pt`'s material value.
    #[inline(always)]
    pub const fn material(pt: PieceType) -> usize {
        MATERIAL + pt.index()
    }

    /// The index of the piece-square entry of `pt` on square `relative` (from the owner's side).
    #[inline(always)]
    pub const fn pst(pt: PieceType, relative: usize) -> usize {
        PST + 64 * pt.index() + relative
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn param_numbering_matches_the_field_order() {
        // Give every weight its own index as the value, then look for each field's index.
        let marked: Vec<Score> = (0..param::COUNT as i32)
            .map(|i| Score::new(i, -i))
            .collect();
        let w = Weights::from_slice(&marked);
        let at = |s: Score| s.mg as usize;
        assert_eq!(at(w.material[0]), param::MATERIAL);
        assert_eq!(at(w.pst[0][0]), param::PST);
        assert_eq!(
            at(w.pst[3][17]),
            param::pst(kogge_chess::PieceType::Rook, 17)
        );
        assert_eq!(at(w.mobility[0]), param::MOBILITY);
        assert_eq!(at(w.passed_pawn[0]), param::PASSED_PAWN);
        assert_eq!(at(w.isolated_pawn), param::ISOLATED_PAWN);
        assert_eq!(at(w.doubled_pawn), param::DOUBLED_PAWN);
        assert_eq!(at(w.backward_pawn), param::BACKWARD_PAWN);
        assert_eq!(at(w.king_danger[0]), param::KING_DANGER);
        assert_eq!(at(w.pawn_shield_close), param::PAWN_SHIELD_CLOSE);
        assert_eq!(at(w.pawn_shield_far), param::PAWN_SHIELD_FAR);
        assert_eq!(at(w.bishop_pair), param::BISHOP_PAIR);
        assert_eq!(at(w.rook_open_file), param::ROOK_OPEN_FILE);
        assert_eq!(at(w.rook_half_open_file), param::ROOK_HALF_OPEN_FILE);
        assert_eq!(at(w.tempo), param::TEMPO);
        assert_eq!(w.to_vec(), marked);
        assert_eq!(
            Weights::from_slice(&Weights::DEFAULT.to_vec()),
            Weights::DEFAULT
        );
        assert_eq!(
            param::name(param::pst(kogge_chess::PieceType::Rook, 52)),
            "pst[rook][e7]"
        );
        assert_eq!(param::name(param::TEMPO), "tempo");
    }
}
