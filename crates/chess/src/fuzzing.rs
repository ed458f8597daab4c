//! The invariants the fuzzer checks on arbitrary input, in the library so that two drivers share
//! them: the libFuzzer target `fuzz/fuzz_targets/fen_epd.rs` (needs nightly) and the corpus
//! replay test `tests/fuzz_corpus.rs`, which runs every input the fuzzer kept on stable, in CI.
//!
//! Parsing may reject anything, but must never panic; whatever it accepts must behave: FEN
//! printing round-trips, the incremental Zobrist key matches a fresh one, and every generated move
//! leads to a position the parser accepts again (so no move leaves the mover's king in check).
//!
//! Names are reached through `crate::` paths that the crate root re-exports, so that a test can
//! also compile this file on its own with `#[path]`.

use crate::epd::{self, Epd};
use crate::perft;
use crate::sliders::SliderKind;
use crate::{Board, Move};

/// Feeds `data` (if UTF-8) to the FEN and EPD parsers and checks every position they accept.
/// Panics, with the offending FEN in the message, when an invariant is broken.
pub fn check_fen_epd_input(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(board) = Board::from_fen(text) {
        check_board(&board);
    }
    if let Ok(entry) = Epd::parse(text) {
        check_board(&entry.board);
        let counts = entry.perft_counts();
        assert!(
            counts.windows(2).all(|w| w[0].0 <= w[1].0),
            "perft_counts not sorted by depth: {counts:?}"
        );
        let _ = entry.id();
    }
    // A file parse must agree, line by line, with parsing each line alone, and number lines
    // from 1 the way `str::lines` splits them.
    let lines: Vec<&str> = text.lines().collect();
    for (number, parsed) in epd::parse_file(text) {
        let line = number
            .checked_sub(1)
            .and_then(|i| lines.get(i))
            .unwrap_or_else(|| panic!("parse_file reported line {number} of {}", lines.len()));
        assert_eq!(parsed, Epd::parse(line), "line {number}: {line:?}");
    }
}

/// Checks one position the parser accepted.
fn check_board(board: &Board) {
    let fen = board.to_fen();
    assert_reparses(board, &fen, "to_fen");
    assert_reparses(board, &board.to_shredder_fen(), "to_shredder_fen");
    assert_eq!(
        board.hash(),
        board.hash_from_scratch(),
        "parsed Zobrist key differs from a fresh one: {fen}"
    );

    let moves = board.legal_moves();
    assert_eq!(
        moves.len() as u64,
        board.count_legal_moves(),
        "listing and counting moves disagree: {fen}"
    );
    let mut raw: Vec<u16> = moves.iter().map(|m| m.raw()).collect();
    raw.sort_unstable();
    raw.dedup();
    assert_eq!(raw.len(), moves.len(), "a move is generated twice: {fen}");

    let mut perft2 = 0;
    for &mv in moves.iter() {
        let mut child = *board;
        child.play(mv);
        let context = ChildOf { fen: &fen, mv };
        assert_eq!(
            child.hash(),
            child.hash_from_scratch(),
            "incremental Zobrist key wrong after {context}"
        );
        // The parser rejects a position whose side not to move is in check, so this also
        // catches a generated move that leaves its own king attacked.
        assert_reparses(&child, &child.to_fen(), &context.to_string());
        perft2 += child.count_legal_moves();
    }
    // Bulk counting at the last ply, both slider lookups, and making every move agree.
    for sliders in [SliderKind::Magic, SliderKind::Pext] {
        assert_eq!(
            perft::perft_with(board, 2, sliders),
            perft2,
            "perft 2 with {} sliders: {fen}",
            sliders.name()
        );
    }
}

/// `printed` (a FEN of `board`) parses back to exactly `board`.
fn assert_reparses(board: &Board, printed: &str, what: &str) {
    match Board::from_fen(printed) {
        Ok(again) => assert_eq!(
            again, *board,
            "{what}: '{printed}' parses to a different board"
        ),
        Err(e) => panic!("{what}: '{printed}' does not parse: {e}"),
    }
}

/// Names a move and the position it was played in, for failure messages.
struct ChildOf<'a> {
    fen: &'a str,
    mv: Move,
}

impl std::fmt::Display for ChildOf<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} played in '{}'", self.mv, self.fen)
    }
}
