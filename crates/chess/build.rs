//! Computes every lookup table once, at build time, from the slow reference functions in
//! `src/reference.rs`: leaper attacks, between/line masks, magic-bitboard and PEXT slider tables,
//! and the Zobrist keys. Small tables become Rust source (`tables.rs`); the large ones are raw
//! little-endian `u64` files that the library embeds with `include_bytes!`. Nothing is computed
//! at run time and nothing opaque is checked into git.

#[path = "src/reference.rs"]
mod reference;

use reference::*;
use std::fmt::Write as _;
use std::path::Path;

/// One square's slider lookup: index = ((occ & mask) * magic) >> shift, plus `offset` into the
/// shared table; the PEXT table uses pext(occ, mask) + offset, with the same offsets.
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

fn subsets(mask: u64) -> Vec<u64> {
    // Carry-rippler: enumerates every subset of `mask`.
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut sub = 0u64;
    loop {
        out.push(sub);
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    out
}

fn find_magics(dirs: &[(i32, i32)], rng: &mut SplitMix64) -> (Vec<Magic>, Vec<u64>, Vec<u64>) {
    let mut magics = Vec::new();
    let mut magic_table = Vec::new();
    let mut pext_table = Vec::new();
    for sq in 0..64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let occs = subsets(mask);
        let attacks: Vec<u64> = occs.iter().map(|&o| slider_attacks(sq, o, dirs)).collect();
        let size = 1usize << bits;
        let mut slots = vec![0u64; size];
        let mut used = vec![0u32; size];
        let mut attempt = 0u32;
        let magic = loop {
            attempt += 1;
            // Sparse candidates (three ANDed random words) succeed far more often.
            let candidate = rng.next_u64() & rng.next_u64() & rng.next_u64();
            if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                continue;
            }
            let ok = occs.iter().zip(&attacks).all(|(&occ, &att)| {
                let idx = (occ.wrapping_mul(candidate) >> (64 - bits)) as usize;
                if used[idx] != attempt {
                    used[idx] = attempt;
                    slots[idx] = att;
                    true
                } else {
                    slots[idx] == att
                }
            });
            if ok {
                break candidate;
            }
        };
        let offset = magic_table.len();
        magic_table.extend_from_slice(&slots[..size]);
        let mut pext_slots = vec![0u64; size];
        for (&occ, &att) in occs.iter().zip(&attacks) {
            pext_slots[pext(occ, mask) as usize] = att;
        }
        // Every index is reached exactly once, so the PEXT block is dense.
        pext_table.extend_from_slice(&pext_slots);
        magics.push(Magic {
            mask,
            magic,
            shift: 64 - bits,
            offset,
        });
    }
    (magics, magic_table, pext_table)
}

fn write_u64s(path: &Path, values: &[u64]) {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(path, bytes).expect("write table");
}

fn rust_array(out: &mut String, name: &str, ty: &str, values: &[u64]) {
    writeln!(out, "pub static {name}: [{ty}; {}] = [", values.len()).unwrap();
    for chunk in values.chunks(4) {
        let line: Vec<String> = chunk.iter().map(|v| format!("{v:#018x}")).collect();
        writeln!(out, "    {},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn magic_array(out: &mut String, name: &str, magics: &[Magic]) {
    writeln!(out, "pub static {name}: [MagicEntry; 64] = [").unwrap();
    for m in magics {
        writeln!(
            out,
            "    MagicEntry {{ mask: {:#018x}, magic: {:#018x}, shift: {}, offset: {} }},",
            m.mask, m.magic, m.shift, m.offset
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/reference.rs");
    let out_dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    let out_dir = Path::new(&out_dir);

    let mut rng = SplitMix64(0x4B6F_6767_6543_6865); // "KoggeChe": fixed, so builds are reproducible
    let (rook_magics, rook_magic_table, rook_pext_table) = find_magics(&ROOK_DIRS, &mut rng);
    let (bishop_magics, bishop_magic_table, bishop_pext_table) =
        find_magics(&BISHOP_DIRS, &mut rng);

    write_u64s(&out_dir.join("rook_magic.bin"), &rook_magic_table);
    write_u64s(&out_dir.join("rook_pext.bin"), &rook_pext_table);
    write_u64s(&out_dir.join("bishop_magic.bin"), &bishop_magic_table);
    write_u64s(&out_dir.join("bishop_pext.bin"), &bishop_pext_table);

    let between: Vec<u64> = (0..4096)
        .map(|i| reference::between(i / 64, i % 64))
        .collect();
    let line: Vec<u64> = (0..4096).map(|i| reference::line(i / 64, i % 64)).collect();
    write_u64s(&out_dir.join("between.bin"), &between);
    write_u64s(&out_dir.join("line.bin"), &line);

    let mut src = String::new();
    writeln!(
        src,
        "// Generated by build.rs from src/reference.rs. Do not edit."
    )
    .unwrap();
    writeln!(
        src,
        "pub const ROOK_TABLE_LEN: usize = {};",
        rook_magic_table.len()
    )
    .unwrap();
    writeln!(
        src,
        "pub const BISHOP_TABLE_LEN: usize = {};",
        bishop_magic_table.len()
    )
    .unwrap();
    magic_array(&mut src, "ROOK_MAGICS", &rook_magics);
    magic_array(&mut src, "BISHOP_MAGICS", &bishop_magics);
    let knight: Vec<u64> = (0..64).map(knight_attacks).collect();
    let king: Vec<u64> = (0..64).map(king_attacks).collect();
    let pawn: Vec<u64> = (0..128).map(|i| pawn_attacks(i / 64, i % 64)).collect();
    rust_array(&mut src, "KNIGHT_ATTACKS", "u64", &knight);
    rust_array(&mut src, "KING_ATTACKS", "u64", &king);
    rust_array(&mut src, "PAWN_ATTACKS", "u64", &pawn);

    // Zobrist keys: 2×6×64 pieces, 2×8 castling rook files, 8 en-passant files, side to move.
    let mut zrng = SplitMix64(0x5A6F_6272_6973_7421);
    let pieces: Vec<u64> = (0..768).map(|_| zrng.next_u64()).collect();
    let castling: Vec<u64> = (0..16).map(|_| zrng.next_u64()).collect();
    let ep: Vec<u64> = (0..8).map(|_| zrng.next_u64()).collect();
    rust_array(&mut src, "ZOBRIST_PIECES", "u64", &pieces);
    rust_array(&mut src, "ZOBRIST_CASTLING", "u64", &castling);
    rust_array(&mut src, "ZOBRIST_EP", "u64", &ep);
    writeln!(
        src,
        "pub const ZOBRIST_SIDE: u64 = {:#018x};",
        zrng.next_u64()
    )
    .unwrap();

    std::fs::write(out_dir.join("tables.rs"), src).expect("write tables.rs");
}
