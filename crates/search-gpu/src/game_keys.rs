//! The game's keys before the root, as the search kernel reads them (`game_keys`, for
//! repetitions: `is_repetition` in kernels/search_table.h): the last [`GAME_KEYS`] keys, oldest
//! first, then a filter of [`GAME_FILTER_WORDS`] words with one bit set per key.
//!
//! The filter lets a node skip the game's part of its repetition test, which otherwise reads the
//! keys one after another, each load after the compare before it: in replayed endgames (their
//! fifty-move count 25 on average) that part made a node's entry cost 1,989 cycles against 1,161
//! on the bench positions (one H200 worker, PERFORMANCE.md, fifty-second session). Where the node's key has
//! no bit in the filter, no game position has its key; a bit set may still be another key's,
//! and then the keys are read as before. So the filter can only skip a test that would find
//! nothing.

/// Game keys the kernel sees before the root: a repetition needs no more than the fifty-move
/// window.
pub const GAME_KEYS: usize = 128;

/// Where a key's filter word and bit come from: its top 5 bits pick the word, the next 6 the bit
/// (the table's index takes the low bits, so these are independent of it). The kernel's
/// `game_filter_has` gets both as defines (`search_defines`).
pub const GAME_FILTER_WORD_SHIFT: u32 = 59;
pub const GAME_FILTER_BIT_SHIFT: u32 = 53;

/// The filter's 64-bit words (2,048 bits): with the fifty-move window's 100 keys in it, a key
/// not among them finds its bit set about 5% of the time.
pub const GAME_FILTER_WORDS: usize = 1 << (64 - GAME_FILTER_WORD_SHIFT);

/// The filter's word and bit for `key`.
pub fn game_filter_slot(key: u64) -> (usize, u32) {
    (
        (key >> GAME_FILTER_WORD_SHIFT) as usize,
        ((key >> GAME_FILTER_BIT_SHIFT) & 63) as u32,
    )
}

/// What `new_search` uploads for `history` (the game's keys before the root, oldest first): the
/// last [`GAME_KEYS`] of them, zeros after, then their filter; and how many keys there are.
pub fn game_keys_buffer(history: &[u64]) -> (Vec<u64>, u32) {
    let recent = &history[history.len().saturating_sub(GAME_KEYS)..];
    let mut words = vec![0u64; GAME_KEYS + GAME_FILTER_WORDS];
    words[..recent.len()].copy_from_slice(recent);
    for &key in recent {
        let (word, bit) = game_filter_slot(key);
        words[GAME_KEYS + word] |= 1u64 << bit;
    }
    (words, recent.len() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_uploaded_key_has_its_bit_and_the_filter_rejects_most_others() {
        // Keys as a game's would be: Zobrist keys are uniform, so any good mixer stands in.
        let key = |i: u64| {
            let mut x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            x ^= x >> 31;
            x.wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ (x >> 29)
        };
        let history: Vec<u64> = (0..200).map(key).collect();
        let (words, len) = game_keys_buffer(&history);
        assert_eq!(len as usize, GAME_KEYS);
        assert_eq!(&words[..GAME_KEYS], &history[200 - GAME_KEYS..]);
        let has = |k: u64| {
            let (word, bit) = game_filter_slot(k);
            words[GAME_KEYS + word] >> bit & 1 == 1
        };
        assert!(history[200 - GAME_KEYS..].iter().all(|&k| has(k)));
        // 128 keys in 2,048 bits: about 6% of other keys pass.
        let passed = (1_000..11_000).map(key).filter(|&k| has(k)).count();
        assert!(
            passed < 1_000,
            "{passed} of 10,000 other keys passed the filter"
        );
    }

    #[test]
    fn an_empty_history_sets_no_bit() {
        let (words, len) = game_keys_buffer(&[]);
        assert_eq!(len, 0);
        assert!(words.iter().all(|&w| w == 0));
    }
}
