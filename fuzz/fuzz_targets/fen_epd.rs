//! Arbitrary bytes into the FEN and EPD parsers; every accepted position is checked for FEN round
//! trips, Zobrist keys and legal moves. The checks live in `kogge_chess::fuzzing`, which the
//! corpus replay test shares.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    kogge_chess::fuzzing::check_fen_epd_input(data);
});
