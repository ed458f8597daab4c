//! The lookup tables computed by `build.rs`, embedded in the binary. No run-time initialisation.

#[cfg(target_endian = "big")]
compile_error!("the embedded tables are little-endian");

/// One square's slider lookup: the relevant-occupancy mask, the magic multiplier and shift, and
/// where the square's block starts in the shared attack table (the PEXT table uses the same
/// offsets).
#[derive(Clone, Copy, Debug)]
pub struct MagicEntry {
    pub mask: u64,
    pub magic: u64,
    pub shift: u32,
    pub offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/tables.rs"));

/// Aligns embedded bytes so that they can be read as `u64`s.
#[repr(C, align(64))]
struct Aligned<B: ?Sized>(B);

macro_rules! embed_u64s {
    ($name:ident, $file:literal, $len:expr) => {
        pub static $name: &[u64; $len] = {
            static BYTES: &Aligned<[u8]> =
                &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/", $file)));
            assert!(BYTES.0.len() == $len * 8, "table size mismatch");
            // SAFETY: BYTES is 64-byte aligned, exactly $len * 8 bytes long, lives for the whole
            // program, and every bit pattern is a valid u64 (the file holds little-endian words,
            // and the target is little-endian).
            unsafe { &*(BYTES.0.as_ptr() as *const [u64; $len]) }
        };
    };
}

embed_u64s!(ROOK_MAGIC_TABLE, "rook_magic.bin", ROOK_TABLE_LEN);
embed_u64s!(ROOK_PEXT_TABLE, "rook_pext.bin", ROOK_TABLE_LEN);
embed_u64s!(BISHOP_MAGIC_TABLE, "bishop_magic.bin", BISHOP_TABLE_LEN);
embed_u64s!(BISHOP_PEXT_TABLE, "bishop_pext.bin", BISHOP_TABLE_LEN);
embed_u64s!(BETWEEN, "between.bin", 4096);
embed_u64s!(LINE, "line.bin", 4096);
