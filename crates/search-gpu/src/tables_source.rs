//! The C source of the tables and constants the search kernel shares with the CPU: the Zobrist
//! keys of `kogge_chess` (so that keys computed on the device equal the host's, which the game
//! history and the repetition test rely on), the late-move reduction table and the pruning
//! constants of `kogge_search_cpu::params`. Generated from the Rust values at start, never
//! copied by hand.

use kogge_chess::{Color, File, PieceType, Square, zobrist};
use kogge_search_cpu::{SEE_VALUE, params};
use std::fmt::Write;

/// Writes `ZOBRIST_ARRAY u64 NAME[N] = {...};`.
fn u64_array(out: &mut String, name: &str, values: &[u64]) {
    let _ = write!(out, "ZOBRIST_ARRAY u64 {name}[{}] = {{", values.len());
    for (i, v) in values.iter().enumerate() {
        if i % 4 == 0 {
            out.push_str("\n    ");
        }
        let _ = write!(out, "U64_C({v:#018x}), ");
    }
    out.push_str("\n};\n");
}

fn files() -> impl Iterator<Item = File> {
    (0..8).filter_map(File::new)
}

/// The Zobrist keys as `ZOBRIST_PIECES[(colour * 6 + type) * 64 + square]`,
/// `ZOBRIST_CASTLING[colour * 8 + rook file]`, `ZOBRIST_EP[file]` and `ZOBRIST_SIDE`.
pub fn zobrist_source() -> String {
    let mut pieces = Vec::with_capacity(768);
    for c in Color::ALL {
        for pt in PieceType::ALL {
            for sq in 0..64u32 {
                pieces.push(zobrist::piece(c, pt, Square::from_index_unchecked(sq)));
            }
        }
    }
    let castling: Vec<u64> = Color::ALL
        .into_iter()
        .flat_map(|c| files().map(move |f| zobrist::castling(c, f)))
        .collect();
    let ep: Vec<u64> = files().map(zobrist::en_passant).collect();
    // Constant memory unless the build names another place (prelude_cuda.h).
    let mut out =
        String::from("#ifndef ZOBRIST_ARRAY\n#define ZOBRIST_ARRAY CONSTANT_ARRAY\n#endif\n");
    u64_array(&mut out, "ZOBRIST_PIECES", &pieces);
    u64_array(&mut out, "ZOBRIST_CASTLING", &castling);
    u64_array(&mut out, "ZOBRIST_EP", &ep);
    let _ = writeln!(out, "#define ZOBRIST_SIDE U64_C({:#018x})", zobrist::SIDE);
    out
}

/// The late-move reduction by depth and move number (`LMR[depth * 64 + move]`), by the CPU
/// search's formula.
pub fn lmr_table() -> Vec<i32> {
    let mut table = vec![0i32; 64 * 64];
    for d in 1..64 {
        for m in 1..64 {
            table[d * 64 + m] =
                (params::LMR_BASE + (d as f64).ln() * (m as f64).ln() / params::LMR_DIVISOR) as i32;
        }
    }
    table
}

/// The reduction table and the search constants, as C.
pub fn search_constants_source() -> String {
    let mut out = String::new();
    out.push_str("CONSTANT_ARRAY u8 LMR[4096] = {");
    for (i, r) in lmr_table().iter().enumerate() {
        if i % 32 == 0 {
            out.push_str("\n    ");
        }
        let _ = write!(out, "{r},");
    }
    out.push_str("\n};\n");
    let constants: [(&str, i64); 21] = [
        ("RFP_MAX_DEPTH", params::RFP_MAX_DEPTH.into()),
        ("RFP_MARGIN", params::RFP_MARGIN.into()),
        ("RAZOR_MAX_DEPTH", params::RAZOR_MAX_DEPTH.into()),
        ("RAZOR_MARGIN", params::RAZOR_MARGIN.into()),
        ("NMP_MIN_DEPTH", params::NMP_MIN_DEPTH.into()),
        ("NMP_BASE", params::NMP_BASE.into()),
        ("NMP_DEPTH_DIV", params::NMP_DEPTH_DIV.into()),
        ("NMP_VERIFY_DEPTH", params::NMP_VERIFY_DEPTH.into()),
        ("FUTILITY_MAX_DEPTH", params::FUTILITY_MAX_DEPTH.into()),
        ("FUTILITY_BASE", params::FUTILITY_BASE.into()),
        ("FUTILITY_PER_PLY", params::FUTILITY_PER_PLY.into()),
        ("LMP_MAX_DEPTH", params::LMP_MAX_DEPTH.into()),
        ("LMP_BASE", params::LMP_BASE.into()),
        ("LMR_MIN_DEPTH", params::LMR_MIN_DEPTH.into()),
        ("LMR_MIN_MOVE", params::LMR_MIN_MOVE as i64),
        ("LMR_HISTORY_DIV", params::LMR_HISTORY_DIV.into()),
        ("IIR_MIN_DEPTH", params::IIR_MIN_DEPTH.into()),
        ("DELTA_MARGIN", params::DELTA_MARGIN.into()),
        ("SEE_QUIET_MARGIN", params::SEE_QUIET_MARGIN.into()),
        ("SEE_CAPTURE_MARGIN", params::SEE_CAPTURE_MARGIN.into()),
        ("SEE_PRUNE_MAX_DEPTH", params::SEE_PRUNE_MAX_DEPTH.into()),
    ];
    for (name, value) in constants {
        let _ = writeln!(out, "#define {name} {value}");
    }
    let _ = writeln!(out, "#define HISTORY_MAX {}", params::HISTORY_MAX);
    // The exchange values of see.h: the CPU's, pawn to king.
    let values: Vec<String> = SEE_VALUE.iter().map(|v| v.to_string()).collect();
    let _ = writeln!(
        out,
        "#ifndef SEE_ARRAY\n#define SEE_ARRAY CONSTANT_ARRAY\n#endif\nSEE_ARRAY i32 SEE_VALUE[6] = {{{}}};",
        values.join(", ")
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zobrist_tables_have_every_key() {
        let src = zobrist_source();
        assert!(src.contains("ZOBRIST_PIECES[768]"));
        assert!(src.contains("ZOBRIST_CASTLING[16]"));
        assert!(src.contains("ZOBRIST_EP[8]"));
        assert!(src.contains(&format!("{:#018x}", zobrist::SIDE)));
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        let t = lmr_table();
        assert_eq!(t[0], 0);
        assert!(t[20 * 64 + 30] > t[4 * 64 + 4]);
        assert!(t.iter().all(|&r| (0..64).contains(&r)));
    }
}
