//! The GPU evaluation (kernels/eval.h) against `kogge_eval` on every device present (PoCL in
//! CI): every position of the shared suites, thousands of positions of random playouts, and
//! scrambled weights, which would expose two tables swapped where the tuned values happen to
//! be equal.

mod common;

use common::{SUITES, devices, playout_boards, suite};
use kogge_chess::{Board, Color, PieceType};
use kogge_eval::{Score, Weights};
use kogge_search_gpu::playouts::Rng;
use kogge_search_gpu::{EvalMismatch, GpuEvaluator, compare_with_cpu};
use std::time::Instant;

/// Compares `boards` on `gpu`; panics with the first mismatches in detail.
fn assert_matches(gpu: &mut GpuEvaluator, what: &str, boards: &[Board]) {
    let start = Instant::now();
    let mismatches = compare_with_cpu(gpu, boards).expect("the evaluation kernel runs");
    eprintln!(
        "{}: {what}: {} positions compared in {:.2} s",
        gpu.device().info().name,
        boards.len(),
        start.elapsed().as_secs_f64()
    );
    if let Some(first) = mismatches.first() {
        let shown: Vec<String> = mismatches
            .iter()
            .take(5)
            .map(EvalMismatch::to_string)
            .collect();
        panic!(
            "{what}: {} of {} positions differ on {}:\n{}\n\nCPU breakdown of the first:\n{}",
            mismatches.len(),
            boards.len(),
            gpu.device().info().name,
            shown.join("\n"),
            kogge_eval::breakdown(&first.board)
        );
    }
}

#[test]
fn suites_match_the_cpu() {
    for device in devices() {
        let mut gpu = GpuEvaluator::new(device).expect("the evaluation kernel builds");
        for name in SUITES {
            assert_matches(&mut gpu, name, &suite(name));
        }
    }
}

/// King and pawn against king: the GPU reads the CPU's table (kogge_eval::kpk) from its line
/// table, seen from the side with the pawn and mirrored onto files a to d. Every pawn square of
/// both colours, kings on a spread of squares, both sides to move: draws (0) and wins alike.
#[test]
fn king_and_pawn_endings_match_the_cpu() {
    let mut boards = Vec::new();
    for pawn in 8..56 {
        for white_king in (0..64).step_by(5) {
            for black_king in (3..64).step_by(7) {
                for pawn_colour in Color::ALL {
                    for side in Color::ALL {
                        boards.extend(kogge_eval::kpk::position(
                            white_king,
                            black_king,
                            pawn,
                            pawn_colour,
                            side,
                        ));
                    }
                }
            }
        }
    }
    let draws = boards
        .iter()
        .filter(|b| kogge_eval::kpk::is_draw(b))
        .count();
    assert!(
        draws > 1000 && boards.len() - draws > 1000,
        "{draws} draws of {}",
        boards.len()
    );
    for device in devices() {
        let mut gpu = GpuEvaluator::new(device).expect("the evaluation kernel builds");
        assert_matches(&mut gpu, "king and pawn against king", &boards);
    }
}

#[test]
fn random_playouts_match_the_cpu() {
    let positions = playout_boards();
    // The corners the playouts are there for.
    let count = |f: &dyn Fn(&Board) -> bool| positions.iter().filter(|b| f(b)).count();
    let promoted = |b: &Board| {
        Color::ALL.into_iter().any(|c| {
            b.pieces_of(c, PieceType::Queen).count() > 1
                || [PieceType::Knight, PieceType::Bishop, PieceType::Rook]
                    .into_iter()
                    .any(|pt| b.pieces_of(c, pt).count() > 2)
        })
    };
    let in_check = count(&|b| b.in_check());
    let few_pieces = count(&|b| b.occupied().count() <= 8);
    let with_promoted = count(&promoted);
    let chess960 = count(&|b| b.has_chess960_castling());
    eprintln!(
        "{} playout positions: {in_check} in check, {few_pieces} with at most 8 pieces, \
         {with_promoted} with promoted pieces, {chess960} with Chess960 castling",
        positions.len()
    );
    assert!(positions.len() >= 3000, "{} positions", positions.len());
    for (what, n) in [
        ("in check", in_check),
        ("few pieces", few_pieces),
        ("promoted pieces", with_promoted),
        ("Chess960 castling", chess960),
    ] {
        assert!(n >= 20, "only {n} playout positions with {what}");
    }
    for device in devices() {
        let mut gpu = GpuEvaluator::new(device).expect("the evaluation kernel builds");
        assert_matches(&mut gpu, "random playouts", &positions);
    }
}

#[test]
fn scrambled_weights_match_the_cpu() {
    // Every tunable weight replaced by a distinct random value, so that no two tables agree by
    // accident; the structural constants stay (they are not in Weights).
    let mut rng = Rng::new(42);
    let mut value = || rng.below(401) as i32 - 200;
    let scrambled: Vec<Score> = Weights::DEFAULT
        .to_vec()
        .iter()
        .map(|_| Score::new(value(), value()))
        .collect();
    let weights = Weights::from_slice(&scrambled);
    let mut positions: Vec<Board> = SUITES.iter().flat_map(|s| suite(s)).step_by(5).collect();
    positions.extend(playout_boards().into_iter().step_by(3));
    for device in devices() {
        let mut gpu =
            GpuEvaluator::with_weights(device, &weights).expect("the evaluation kernel builds");
        assert_matches(&mut gpu, "scrambled weights", &positions);
    }
}

#[test]
fn a_wrong_score_is_reported_with_the_position() {
    // The comparison itself: a kernel built with other weights than the CPU's must disagree,
    // and say where.
    let mut weights = Weights::DEFAULT;
    weights.tempo = Score::new(weights.tempo.mg + 100, weights.tempo.eg);
    for device in devices() {
        let mut gpu =
            GpuEvaluator::with_weights(device, &weights).expect("the evaluation kernel builds");
        let board = Board::startpos();
        let lanes = gpu.evaluate_lanes(&[board]).expect("the kernel runs");
        assert_eq!(lanes[0], [kogge_eval::evaluate(&board) + 100; 32]);
        // compare_with_cpu uses the evaluator's own weights: no mismatch.
        assert!(compare_with_cpu(&mut gpu, &[board]).unwrap().is_empty());
        let mismatch = EvalMismatch::from_scores(&board, 0, lanes[0], &Weights::DEFAULT);
        let text = mismatch.to_string();
        assert!(
            text.contains(&board.to_fen()) && text.contains("Tempo"),
            "{text}"
        );
    }
}

#[test]
fn empty_and_large_batches() {
    for device in devices() {
        let mut gpu = GpuEvaluator::new(device).expect("the evaluation kernel builds");
        assert!(gpu.evaluate(&[]).unwrap().is_empty());
        // More than one launch's worth.
        let boards = vec![Board::startpos(); 20_000];
        let scores = gpu.evaluate(&boards).expect("the kernel runs");
        assert_eq!(
            scores,
            vec![kogge_eval::evaluate(&Board::startpos()); 20_000]
        );
    }
}
