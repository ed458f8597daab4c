//! Slow, obviously-correct reference functions on raw `u64` boards.
//!
//! `build.rs` includes this file to compute the attack tables, so the fast lookups are correct by
//! construction; the tests compare the magic, PEXT and Kogge-Stone attacks against it. It must stay
//! free of crate dependencies for that reason (it is compiled twice: in the build script and in
//! the library).

#![allow(dead_code)]

// Opposite directions are adjacent pairs (0/1, 2/3): `line` relies on it.
pub const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
// Opposite directions are adjacent pairs (0/1, 2/3): `line` relies on it.
pub const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (-1, -1), (1, -1), (-1, 1)];
pub const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
pub const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

fn on_board(file: i32, rank: i32) -> bool {
    (0..8).contains(&file) && (0..8).contains(&rank)
}

/// Squares a slider on `sq` attacks along `dirs` (file, rank steps), stopping at the first
/// occupied square, which is included.
pub fn slider_attacks(sq: usize, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
        while on_board(f, r) {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    attacks
}

pub fn rook_attacks(sq: usize, occupied: u64) -> u64 {
    slider_attacks(sq, occupied, &ROOK_DIRS)
}

pub fn bishop_attacks(sq: usize, occupied: u64) -> u64 {
    slider_attacks(sq, occupied, &BISHOP_DIRS)
}

/// Squares one step away by each of `steps`.
pub fn leaper_attacks(sq: usize, steps: &[(i32, i32)]) -> u64 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    steps
        .iter()
        .filter(|&&(df, dr)| on_board(f + df, r + dr))
        .fold(0, |acc, &(df, dr)| acc | 1u64 << ((r + dr) * 8 + f + df))
}

pub fn knight_attacks(sq: usize) -> u64 {
    leaper_attacks(sq, &KNIGHT_STEPS)
}

pub fn king_attacks(sq: usize) -> u64 {
    leaper_attacks(sq, &KING_STEPS)
}

/// Squares a pawn of `color` (0 white, 1 black) on `sq` attacks.
pub fn pawn_attacks(color: usize, sq: usize) -> u64 {
    let dr = if color == 0 { 1 } else { -1 };
    leaper_attacks(sq, &[(-1, dr), (1, dr)])
}

/// The squares whose occupancy matters to a slider on `sq`: its empty-board rays without the last
/// square of each ray (a piece on the edge blocks nothing further).
pub fn relevant_mask(sq: usize, dirs: &[(i32, i32)]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
        while on_board(f + df, r + dr) {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    mask
}

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; else empty.
pub fn between(a: usize, b: usize) -> u64 {
    for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
        for &dir in dirs.iter() {
            let ray = slider_attacks(a, 1u64 << b, &[dir]);
            if ray & (1u64 << b) != 0 {
                return ray & !(1u64 << b);
            }
        }
    }
    0
}

/// The whole line (edge to edge) through `a` and `b` when they share one; else empty.
pub fn line(a: usize, b: usize) -> u64 {
    if a == b {
        return 0;
    }
    for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
        for (i, &dir) in dirs.iter().enumerate() {
            if slider_attacks(a, 0, &[dir]) & (1u64 << b) != 0 {
                let opposite = dirs[i ^ 1];
                return slider_attacks(a, 0, &[dir, opposite]) | (1u64 << a);
            }
        }
    }
    0
}

/// Software PEXT: gathers the bits of `value` selected by `mask` into the low bits.
pub fn pext(value: u64, mut mask: u64) -> u64 {
    let mut result = 0;
    let mut bit = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if value & low != 0 {
            result |= 1 << bit;
        }
        bit += 1;
        mask &= mask - 1;
    }
    result
}

/// SplitMix64: a tiny, well-mixed deterministic generator for magic search and Zobrist keys.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
