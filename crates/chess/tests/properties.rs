//! Property tests of the board: random games from the start position, from the perft suite and
//! from Chess960 starts, checking at every ply the invariants the search and the GPU rely on:
//! copy-make leaves the original untouched and FEN round-trips it exactly; the incremental
//! Zobrist key equals the one computed from scratch; packing round-trips; every generated move
//! is legal and none leaves its own king attacked; a pair of null moves restores the key.

use kogge_chess::{Board, Move, PieceType, STARTPOS_FEN, zobrist};
use proptest::prelude::*;
use std::sync::OnceLock;

/// Plies per random game, at most.
const MAX_PLIES: usize = 60;

fn suite() -> &'static [String] {
    static FENS: OnceLock<Vec<String>> = OnceLock::new();
    FENS.get_or_init(|| kogge_chess::testdata::fens("perft-suite.epd"))
}

fn chess960() -> &'static [String] {
    static FENS: OnceLock<Vec<String>> = OnceLock::new();
    FENS.get_or_init(|| kogge_chess::testdata::fens("perft-chess960.epd"))
}

fn parse(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Every invariant of one position. Returns the legal moves for the caller to pick from.
fn check_position(b: &Board) -> Vec<Move> {
    let fen = b.to_fen();

    // (b) The incremental key is the key from scratch.
    assert_eq!(b.hash(), b.hash_from_scratch(), "hash of {fen}");

    // (a) FEN round trip, in both castling notations: everything, hash, checkers and pins
    // included, is a function of the FEN.
    assert_eq!(&parse(&fen), b, "X-FEN round trip of {fen}");
    let shredder = b.to_shredder_fen();
    assert_eq!(
        &parse(&shredder),
        b,
        "Shredder-FEN round trip of {shredder}"
    );

    // (c) Packing round-trips.
    assert_eq!(b.pack().unpack().as_ref(), Ok(b), "packing {fen}");

    // (d) Every generated move is legal, the counting generator agrees with the listing one,
    // and no move leaves the mover's king attacked.
    let moves: Vec<Move> = b.legal_moves().to_vec();
    assert_eq!(
        b.count_legal_moves(),
        moves.len() as u64,
        "move count of {fen}"
    );
    let us = b.side_to_move();
    for &m in &moves {
        assert!(b.is_legal(m), "{fen}: {m:?} not legal");
        let before = *b;
        let mut after = *b;
        after.play(m);
        // (a) Copy-make: the original is untouched, and still what its FEN says.
        assert_eq!(&before, b);
        let king = after.king(us);
        let attackers = after.attackers_to(king, after.occupied()) & after.colored(!us);
        assert!(
            attackers.is_empty(),
            "{fen}: {m:?} leaves the king on {king} attacked"
        );
        assert_eq!(
            after.pieces_of(us, PieceType::King).count(),
            1,
            "{fen}: {m:?}"
        );
        assert_eq!(after.hash(), after.hash_from_scratch(), "{fen}: {m:?}");
    }

    // (e) Two null moves give the key back, less the en-passant square they forget.
    if !b.in_check() {
        let mut nulled = *b;
        nulled.play_null();
        assert!(
            !nulled.in_check(),
            "{fen}: the side not to move was in check"
        );
        assert_eq!(nulled.hash(), nulled.hash_from_scratch(), "{fen}: one null");
        nulled.play_null();
        assert_eq!(
            nulled.hash(),
            nulled.hash_from_scratch(),
            "{fen}: two nulls"
        );
        let expected = match b.en_passant() {
            Some(ep) => b.hash() ^ zobrist::en_passant(ep.file()),
            None => b.hash(),
        };
        assert_eq!(nulled.hash(), expected, "{fen}: null pair");
        assert_eq!(nulled.en_passant(), None);
        assert_eq!(nulled.side_to_move(), us);
    }
    moves
}

/// Plays a random game from `fen`, choosing `legal[choice % len]` at each ply.
fn random_game(fen: &str, choices: &[u16]) {
    let mut b = parse(fen);
    for &choice in choices {
        let moves = check_position(&b);
        if moves.is_empty() {
            return;
        }
        b.play(moves[usize::from(choice) % moves.len()]);
    }
    check_position(&b);
}

fn choices() -> impl Strategy<Value = Vec<u16>> {
    prop::collection::vec(any::<u16>(), 1..=MAX_PLIES)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn games_from_the_start_position(choices in choices()) {
        random_game(STARTPOS_FEN, &choices);
    }

    #[test]
    fn games_from_suite_positions(index in any::<prop::sample::Index>(), choices in choices()) {
        let fens = suite();
        random_game(&fens[index.index(fens.len())], &choices);
    }

    #[test]
    fn games_from_chess960_positions(index in any::<prop::sample::Index>(), choices in choices()) {
        let fens = chess960();
        random_game(&fens[index.index(fens.len())], &choices);
    }
}

/// The same checks, without randomness, on every suite position itself: the failure message of
/// a fixed position is easier to act on than a shrunk random game.
#[test]
fn every_suite_position() {
    for fen in suite().iter().chain(chess960().iter()) {
        check_position(&parse(fen));
    }
}
