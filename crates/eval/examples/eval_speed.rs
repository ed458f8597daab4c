//! Times `evaluate` on positions from random playouts of the shared suites: a quick check that a
//! change to the evaluation did not slow it down. `cargo run --release -p kogge-eval --example
//! eval_speed`; prints nanoseconds per call (best of several rounds) and a checksum.

use kogge_chess::{Board, Epd, testdata};
use std::hint::black_box;
use std::time::Instant;

/// xorshift64*: deterministic playouts without a dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

fn main() {
    let mut starts = vec![Board::startpos()];
    for name in ["openings-8ply.epd", "wac.epd", "perft-suite.epd"] {
        starts.extend(
            testdata::fens(name)
                .iter()
                .filter_map(|fen| Epd::parse(fen).ok().map(|e| e.board)),
        );
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut positions = Vec::new();
    for start in &starts {
        let mut b = *start;
        for _ in 0..60 {
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            b.play(moves[rng.below(moves.len())]);
            positions.push(b);
        }
    }
    let mut best = f64::INFINITY;
    let mut checksum = 0i64;
    for _ in 0..15 {
        let t = Instant::now();
        let mut sum = 0i64;
        for b in &positions {
            sum += kogge_eval::evaluate(black_box(b)) as i64;
        }
        let ns = t.elapsed().as_nanos() as f64 / positions.len() as f64;
        best = best.min(ns);
        checksum = sum;
    }
    println!(
        "{} positions, {best:.1} ns per evaluate (best of 15), checksum {checksum}",
        positions.len()
    );
}
