//! Sliding-piece attacks, in the two table-driven forms the CPU uses.
//!
//! [`Magic`] indexes with a multiply and shift and runs everywhere; [`Pext`] indexes with the BMI2
//! `pext` instruction. Hot code is generic over [`Sliders`] so that each form compiles to straight
//! lookups with no branch on the form; [`preferred`] decides once per process which one the
//! perft driver instantiates (PEXT only where the CPU has BMI2 *and* it measures faster: it is
//! microcoded and slow on AMD CPUs before Zen 3).
//!
//! The Kogge-Stone fills the GPU kernels use live in [`crate::kogge_stone`].

use crate::bitboard::Bitboard;
use crate::tables::{self, MagicEntry};
use crate::types::Square;
use std::sync::OnceLock;

/// A way to look up rook and bishop attacks for a given occupancy.
pub trait Sliders: Copy + Send + Sync + 'static {
    const NAME: &'static str;
    fn rook(sq: Square, occupied: Bitboard) -> Bitboard;
    fn bishop(sq: Square, occupied: Bitboard) -> Bitboard;
    #[inline(always)]
    fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
        Self::rook(sq, occupied) | Self::bishop(sq, occupied)
    }
}

/// Magic-multiply lookup ("fancy" magics: one dense block per square).
#[derive(Clone, Copy, Debug)]
pub struct Magic;

#[inline(always)]
fn magic_index(entry: &MagicEntry, occupied: Bitboard) -> usize {
    entry.offset + ((occupied.0 & entry.mask).wrapping_mul(entry.magic) >> entry.shift) as usize
}

impl Sliders for Magic {
    const NAME: &'static str = "magic";
    #[inline(always)]
    fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
        let i = magic_index(&tables::ROOK_MAGICS[sq.index()], occupied);
        debug_assert!(i < tables::ROOK_TABLE_LEN);
        // SAFETY: build.rs verified that every occupancy subset of the mask maps inside the
        // square's block of 1 << (64 - shift) entries, and the blocks tile the table exactly.
        Bitboard(unsafe { *tables::ROOK_MAGIC_TABLE.get_unchecked(i) })
    }
    #[inline(always)]
    fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
        let i = magic_index(&tables::BISHOP_MAGICS[sq.index()], occupied);
        debug_assert!(i < tables::BISHOP_TABLE_LEN);
        // SAFETY: as for rooks.
        Bitboard(unsafe { *tables::BISHOP_MAGIC_TABLE.get_unchecked(i) })
    }
}

/// BMI2 `pext` lookup. Only sound to call where the CPU has BMI2: [`preferred`] checks, and the
/// perft driver instantiates it only inside a `#[target_feature(enable = "bmi2")]` function.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct Pext;

#[cfg(target_arch = "x86_64")]
impl Sliders for Pext {
    const NAME: &'static str = "pext";
    #[inline(always)]
    fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
        let e = &tables::ROOK_MAGICS[sq.index()];
        // SAFETY: Pext is only used after `has_bmi2()` returned true (see `preferred`).
        let i = e.offset + unsafe { std::arch::x86_64::_pext_u64(occupied.0, e.mask) } as usize;
        debug_assert!(i < tables::ROOK_TABLE_LEN);
        // SAFETY: pext of a k-bit mask is below 1 << k, the size of the square's block.
        Bitboard(unsafe { *tables::ROOK_PEXT_TABLE.get_unchecked(i) })
    }
    #[inline(always)]
    fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
        let e = &tables::BISHOP_MAGICS[sq.index()];
        // SAFETY: as for rooks.
        let i = e.offset + unsafe { std::arch::x86_64::_pext_u64(occupied.0, e.mask) } as usize;
        debug_assert!(i < tables::BISHOP_TABLE_LEN);
        // SAFETY: as for rooks.
        Bitboard(unsafe { *tables::BISHOP_PEXT_TABLE.get_unchecked(i) })
    }
}

/// Whether this CPU has BMI2 (and so `pext`).
pub fn has_bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Which slider lookup the hot paths should use on this CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliderKind {
    Magic,
    Pext,
}

impl SliderKind {
    pub fn name(self) -> &'static str {
        match self {
            SliderKind::Magic => Magic::NAME,
            #[cfg(target_arch = "x86_64")]
            SliderKind::Pext => Pext::NAME,
            #[cfg(not(target_arch = "x86_64"))]
            SliderKind::Pext => "pext",
        }
    }
}

/// The slider lookup to use: PEXT where the CPU has BMI2 and a short timing (about a millisecond,
/// once per process) shows it faster than magics; magics otherwise. `KOGGE_SLIDERS=magic|pext`
/// overrides the choice (PEXT still only where BMI2 exists).
pub fn preferred() -> SliderKind {
    static CHOICE: OnceLock<SliderKind> = OnceLock::new();
    *CHOICE.get_or_init(|| {
        if !has_bmi2() {
            return SliderKind::Magic;
        }
        match std::env::var("KOGGE_SLIDERS").as_deref() {
            Ok("magic") => return SliderKind::Magic,
            Ok("pext") => return SliderKind::Pext,
            _ => {}
        }
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: BMI2 is present (checked above).
            let pext = unsafe { time_pext() };
            let magic = time_lookups::<Magic>();
            if pext < magic {
                SliderKind::Pext
            } else {
                SliderKind::Magic
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        SliderKind::Magic
    })
}

/// Times a fixed stream of dependent lookups (the best of three), in nanoseconds.
#[inline(always)]
fn time_lookups<S: Sliders>() -> u128 {
    (0..3)
        .map(|_| {
            let start = std::time::Instant::now();
            let mut occ = 0x0123_4567_89AB_CDEFu64;
            let mut acc = 0u64;
            for i in 0..20_000u32 {
                let sq = Square::from_index_unchecked(i & 63);
                acc ^= S::rook(sq, Bitboard(occ)).0 ^ S::bishop(sq, Bitboard(occ)).0;
                occ = occ.rotate_left(7) ^ acc;
            }
            std::hint::black_box(acc);
            start.elapsed().as_nanos()
        })
        .min()
        .unwrap_or(u128::MAX)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn time_pext() -> u128 {
    time_lookups::<Pext>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference;
    use proptest::prelude::*;

    fn check<S: Sliders>(sq: Square, occ: u64) {
        assert_eq!(
            S::rook(sq, Bitboard(occ)).0,
            reference::rook_attacks(sq.index(), occ),
            "{} rook on {sq}, occupancy {occ:#x}",
            S::NAME
        );
        assert_eq!(
            S::bishop(sq, Bitboard(occ)).0,
            reference::bishop_attacks(sq.index(), occ),
            "{} bishop on {sq}, occupancy {occ:#x}",
            S::NAME
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        #[test]
        fn magic_matches_reference(sq in 0usize..64, a: u64, b: u64) {
            let sq = Square::from_index(sq).unwrap();
            check::<Magic>(sq, a);
            check::<Magic>(sq, a & b); // sparser boards, like real ones
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn pext_matches_reference() {
        if !has_bmi2() {
            eprintln!("no BMI2 on this CPU: PEXT lookups cannot run here");
            return;
        }
        let mut rng = reference::SplitMix64(7);
        for _ in 0..4000 {
            let sq = Square::from_index_unchecked((rng.next_u64() & 63) as u32);
            check::<Pext>(sq, rng.next_u64() & rng.next_u64());
        }
    }

    #[test]
    fn preferred_is_stable() {
        assert_eq!(preferred(), preferred());
    }
}
