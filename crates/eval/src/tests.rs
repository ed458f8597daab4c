//! Whole-evaluation tests: known positions, the breakdown, and colour symmetry on the shared
//! suites and on random playouts.

use crate::weights::{BISHOP_PAIR, MATERIAL, TEMPO};
use crate::*;
use kogge_chess::{Board, Epd, testdata};

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Every position of a shared EPD file (operations such as `bm` are dropped).
fn suite(name: &str) -> Vec<Board> {
    testdata::fens(name)
        .iter()
        .map(|fen| match Epd::parse(fen) {
            Ok(epd) => epd.board,
            Err(e) => panic!("{name}: {fen}: {e}"),
        })
        .collect()
}

/// A small deterministic generator (xorshift64*), so the playouts need no dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// Positions from random games out of the start position and a few suite positions.
fn playout_positions() -> Vec<Board> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut starts = vec![Board::startpos()];
    starts.extend(suite("perft-suite.epd").into_iter().step_by(10));
    let mut out = Vec::new();
    for start in starts {
        for _ in 0..20 {
            let mut b = start;
            for _ in 0..120 {
                let moves = b.legal_moves();
                if moves.is_empty() || b.halfmove_clock() >= 100 {
                    break;
                }
                b.play(moves[rng.below(moves.len())]);
                out.push(b);
            }
        }
    }
    out
}

fn assert_symmetric(b: &Board) {
    let m = mirror(b);
    assert_eq!(
        evaluate(b),
        evaluate(&m),
        "{} vs mirrored {}\n{}\n{}",
        b.to_fen(),
        m.to_fen(),
        breakdown(b),
        breakdown(&m)
    );
    assert_eq!(white_score(b), -white_score(&m), "{}", b.to_fen());
    assert_eq!(phase(b), phase(&m));
}

#[test]
fn start_position_is_exactly_the_tempo_bonus() {
    let b = Board::startpos();
    assert_eq!(phase(&b), MAX_PHASE);
    assert_eq!(white_score(&b), TEMPO);
    assert_eq!(evaluate(&b), TEMPO.mg);
    // After 1. e4 it is black's tempo, but white's pawn stands better.
    let mut after = b;
    let e4 = after.parse_uci("e2e4").expect("legal move");
    after.play(e4);
    assert!(evaluate(&after) < 0);
}

#[test]
fn a_queen_up_is_winning() {
    // Black has no queen; both colours to move.
    for fen in [
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
    ] {
        let b = board(fen);
        let white_view = breakdown(&b).white_view();
        assert!(white_view > MATERIAL[4].mg - 150, "{fen}: {white_view}");
        let e = evaluate(&b);
        match b.side_to_move() {
            Color::White => assert!(e > 700, "{fen}: {e}"),
            Color::Black => assert!(e < -700, "{fen}: {e}"),
        }
    }
}

#[test]
fn passed_pawn_on_the_seventh_beats_the_third() {
    let on7 = evaluate(&board("7k/P7/8/8/8/8/8/K7 w - - 0 1"));
    let on3 = evaluate(&board("7k/8/8/8/8/P7/8/K7 w - - 0 1"));
    assert!(on7 > on3 + 100, "{on7} vs {on3}");
}

#[test]
fn doubled_and_isolated_pawns_cost() {
    // Same material (three pawns each side, kings on the same squares).
    let healthy = evaluate(&board("4k3/ppp5/8/8/8/8/PPP5/4K3 w - - 0 1"));
    let doubled = evaluate(&board("4k3/ppp5/8/8/8/1P6/1PP5/4K3 w - - 0 1"));
    let isolated = evaluate(&board("4k3/ppp5/8/8/8/8/P1P1P3/4K3 w - - 0 1"));
    assert!(doubled < healthy, "doubled {doubled} vs {healthy}");
    assert!(isolated < healthy, "isolated {isolated} vs {healthy}");
    let pawns = |fen: &str| {
        let b = board(fen);
        pawn_structure(&b, Color::White, &Weights::DEFAULT, &mut NoTrace)
    };
    assert!(pawns("4k3/ppp5/8/8/8/1P6/1PP5/4K3 w - - 0 1").mg < 0);
    assert!(pawns("4k3/ppp5/8/8/8/8/P1P1P3/4K3 w - - 0 1").mg < 0);
}

#[test]
fn bishop_pair_appears_only_with_two_bishops() {
    let term = |fen: &str| {
        breakdown(&board(fen)).terms[Term::ALL
            .iter()
            .position(|t| *t == Term::BishopPair)
            .expect("term")]
    };
    let two = term("2b1kb2/8/8/8/8/8/8/2B1KB2 w - - 0 1");
    assert_eq!((two.white, two.black), (BISHOP_PAIR, BISHOP_PAIR));
    let white_only = term("2b1k3/8/8/8/8/8/8/2B1KB2 w - - 0 1");
    assert_eq!(
        (white_only.white, white_only.black),
        (BISHOP_PAIR, Score::ZERO)
    );
    let none = term("2n1kn2/8/8/8/8/8/8/2N1KB2 w - - 0 1");
    assert_eq!((none.white, none.black), (Score::ZERO, Score::ZERO));
}

#[test]
fn rook_on_an_open_file_beats_a_closed_one() {
    // Same material and pawn structure; the rook stands on the d-file (open) or the c-file
    // (both sides' c-pawns), the same rank and a similar square.
    let open = evaluate(&board("4k3/pp3ppp/2p5/8/8/2P5/PP3PPP/3RK3 w - - 0 1"));
    let closed = evaluate(&board("4k3/pp3ppp/2p5/8/8/2P5/PP3PPP/2R1K3 w - - 0 1"));
    assert!(open > closed, "open {open} vs closed {closed}");
}

#[test]
fn breakdown_total_equals_evaluate() {
    let mut positions = suite("perft-suite.epd");
    positions.extend(suite("wac.epd"));
    for b in &positions {
        let bd = breakdown(b);
        assert_eq!(bd.evaluation(), evaluate(b), "{}", b.to_fen());
        assert_eq!(bd.total(), white_score(b));
        assert_eq!(bd.phase, phase(b));
    }
    let text = breakdown(&Board::startpos()).to_string();
    for t in Term::ALL {
        assert!(text.contains(t.name()), "{text}");
    }
    let expected = format!("Final evaluation: {:+} cp", TEMPO.mg);
    assert!(text.contains(&expected), "{text}");
}

#[test]
fn phase_counts_non_pawn_material() {
    assert_eq!(
        phase(&board("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1")),
        0
    );
    assert_eq!(phase(&board("3qk3/8/8/8/8/8/8/R2QK3 w - - 0 1")), 10);
    // Promoted extra queens clamp at 24.
    assert_eq!(
        phase(&board("qqqqk3/8/8/8/8/8/8/QQQQK3 w - - 0 1")),
        MAX_PHASE
    );
}

#[test]
fn suites_evaluate_without_panicking_and_symmetrically() {
    for name in ["perft-suite.epd", "wac.epd", "perft-chess960.epd"] {
        let positions = suite(name);
        assert!(positions.len() > 100, "{name}");
        for b in &positions {
            assert_symmetric(b);
            assert!(evaluate(b).abs() < 10_000, "{}", b.to_fen());
        }
    }
}

#[test]
fn random_playouts_evaluate_symmetrically() {
    let positions = playout_positions();
    assert!(positions.len() > 1000);
    for b in &positions {
        assert_symmetric(b);
    }
}

#[test]
fn trace_coefficients_reproduce_the_evaluation() {
    let mut positions = suite("perft-suite.epd");
    positions.extend(suite("wac.epd"));
    positions.extend(playout_positions().into_iter().step_by(7));
    // Weights that differ from the engine's, so a term that reads a constant instead of `w`
    // shows up too.
    let scaled: Vec<Score> = Weights::DEFAULT
        .to_vec()
        .iter()
        .enumerate()
        .map(|(i, s)| Score::new(s.mg * 3 + i as i32 % 7, s.eg * 2 - i as i32 % 5))
        .collect();
    let scaled = Weights::from_slice(&scaled);
    let mut known_draws = 0;
    for b in &positions {
        let c = trace(b);
        assert_eq!(c.phase, phase(b));
        if crate::kpk::is_draw(b) {
            // Scored 0 whatever the weights: no coefficient.
            assert!(c.counts.iter().all(|&n| n == 0), "{}", b.to_fen());
            assert_eq!(evaluate_with(b, &scaled), 0, "{}", b.to_fen());
            known_draws += 1;
            continue;
        }
        assert_eq!(
            c.white_score(&Weights::DEFAULT),
            white_score(b),
            "{}",
            b.to_fen()
        );
        let white = c.white_score(&scaled).blend(c.phase);
        let stm = if b.side_to_move() == Color::White {
            white
        } else {
            -white
        };
        assert_eq!(stm, evaluate_with(b, &scaled), "{}", b.to_fen());
    }
    // The perft suite's king-and-pawn endings.
    assert!(known_draws > 0);
}
