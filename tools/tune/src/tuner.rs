//! Texel's method on the linear trace.
//!
//! The model's evaluation of position `i` (white's view, centipawns) is
//! `e_i = Σ_j c_ij · (mg_j · ρ_i + eg_j · (1 − ρ_i))`, with `c_ij` the trace coefficients, `ρ_i`
//! the midgame share `phase / 24` and `(mg_j, eg_j)` the weights — the engine's integer
//! evaluation without its final rounding. The loss is the mean squared error between
//! `sigmoid(K · e_i)` and the game result. K is fitted once with the starting weights (it maps
//! centipawns to expected score and is then held fixed, else scaling all weights and K trade off
//! freely); the weights are then fitted by full-batch gradient descent with Adam.

use crate::dataset::Dataset;
use kogge_eval::{KING_DANGER_LEN, Score, Weights, param};
use rayon::prelude::*;

/// The weights as floats: `[mg, eg]` per [`param`] number.
pub type Params = Vec<[f64; 2]>;

pub fn params_from(w: &Weights) -> Params {
    w.to_vec()
        .into_iter()
        .map(|s| [f64::from(s.mg), f64::from(s.eg)])
        .collect()
}

/// Rounds to whole centipawns, then moves each piece-square table's average (over the squares
/// the piece can stand on) into its material value, and centres the king's table (its average
/// cancels between the sides): the evaluation is unchanged, and the tables stay readable as
/// adjustments around zero.
pub fn weights_from(p: &Params) -> Weights {
    let scores: Vec<Score> = p
        .iter()
        .map(|[mg, eg]| Score::new(mg.round() as i32, eg.round() as i32))
        .collect();
    let mut w = Weights::from_slice(&scores);
    for pt in 0..6 {
        let squares = if pt == 0 { 8..56 } else { 0..64 };
        let n = squares.len() as i32;
        let sum = w.pst[pt][squares.clone()]
            .iter()
            .fold(Score::ZERO, |a, s| a + *s);
        // Round half away from zero, the same for mg and eg.
        let mean = |total: i32| (2 * total + n * total.signum()) / (2 * n);
        let shift = Score::new(mean(sum.mg), mean(sum.eg));
        for s in &mut w.pst[pt][squares] {
            *s -= shift;
        }
        if pt < 5 {
            w.material[pt] += shift;
        }
    }
    w
}

#[inline]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Position `i`'s model evaluation, and its midgame share.
#[inline]
fn evaluate(d: &Dataset, i: usize, p: &Params) -> (f64, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for (j, c) in d.entries(i) {
        mg += c * p[j][0];
        eg += c * p[j][1];
    }
    let rho = f64::from(d.mg_share[i]);
    (mg * rho + eg * (1.0 - rho), rho)
}

/// Positions per parallel work item. The partial sums are added in chunk order, so results do
/// not depend on the number of threads or on how rayon schedules the chunks.
const CHUNK: usize = 4096;

fn chunks(d: &Dataset) -> impl IndexedParallelIterator<Item = std::ops::Range<usize>> + '_ {
    (0..d.len().div_ceil(CHUNK))
        .into_par_iter()
        .map(move |c| c * CHUNK..((c + 1) * CHUNK).min(d.len()))
}

/// The mean squared error of `sigmoid(k · e)` against the results.
pub fn loss(d: &Dataset, p: &Params, k: f64) -> f64 {
    if d.is_empty() {
        return 0.0;
    }
    let partial: Vec<f64> = chunks(d)
        .map(|range| {
            range
                .map(|i| {
                    let (e, _) = evaluate(d, i, p);
                    let err = sigmoid(k * e) - f64::from(d.result[i]);
                    err * err
                })
                .sum()
        })
        .collect();
    partial.iter().sum::<f64>() / d.len() as f64
}

/// The loss and its gradient with respect to every `[mg, eg]` weight.
pub fn gradient(d: &Dataset, p: &Params, k: f64) -> (f64, Params) {
    let partial: Vec<(f64, Params)> = chunks(d)
        .map(|range| {
            let mut sum = 0.0;
            let mut grad = vec![[0.0; 2]; param::COUNT];
            for i in range {
                let (e, rho) = evaluate(d, i, p);
                let s = sigmoid(k * e);
                let err = s - f64::from(d.result[i]);
                sum += err * err;
                // d(err²)/de = 2 · err · s · (1 − s) · k
                let de = 2.0 * err * s * (1.0 - s) * k;
                for (j, c) in d.entries(i) {
                    grad[j][0] += de * c * rho;
                    grad[j][1] += de * c * (1.0 - rho);
                }
            }
            (sum, grad)
        })
        .collect();
    let n = d.len().max(1) as f64;
    let mut sum = 0.0;
    let mut grad = vec![[0.0; 2]; param::COUNT];
    for (s, g) in partial {
        sum += s;
        for (a, b) in grad.iter_mut().zip(&g) {
            a[0] += b[0] / n;
            a[1] += b[1] / n;
        }
    }
    (sum / n, grad)
}

/// Adds the gradient of the prior `l2 · Σ (p − prior)²` to `grad`: a pull back towards the
/// starting weights. Self-play data from a few thousand games is thin for rarely used weights (a
/// piece-square entry, a king danger count); with Adam, whose steps do not shrink with the
/// gradient, those would otherwise wander on noise. The data's pull on a weight grows with the
/// number of positions using it, so common weights go where the data says and rare ones stay
/// near their hand-set values.
pub fn add_prior(grad: &mut Params, p: &Params, prior: &Params, l2: f64) {
    for ((g, w), w0) in grad.iter_mut().zip(p).zip(prior) {
        g[0] += 2.0 * l2 * (w[0] - w0[0]);
        g[1] += 2.0 * l2 * (w[1] - w0[1]);
    }
}

/// The K that minimises the loss for weights `p`: golden-section search, the loss being unimodal
/// in K in practice.
pub fn fit_k(d: &Dataset, p: &Params) -> f64 {
    let (mut lo, mut hi) = (0.0_f64, 0.05_f64);
    let ratio = (5.0_f64.sqrt() - 1.0) / 2.0;
    let mut a = hi - ratio * (hi - lo);
    let mut b = lo + ratio * (hi - lo);
    let (mut fa, mut fb) = (loss(d, p, a), loss(d, p, b));
    for _ in 0..60 {
        if fa < fb {
            hi = b;
            (b, fb) = (a, fa);
            a = hi - ratio * (hi - lo);
            fa = loss(d, p, a);
        } else {
            lo = a;
            (a, fa) = (b, fb);
            b = lo + ratio * (hi - lo);
            fb = loss(d, p, b);
        }
    }
    (lo + hi) / 2.0
}

/// Adam (Kingma and Ba), one moment pair per weight.
pub struct Adam {
    m: Params,
    v: Params,
    t: i32,
    beta1: f64,
    beta2: f64,
    epsilon: f64,
}

impl Default for Adam {
    fn default() -> Adam {
        Adam {
            m: vec![[0.0; 2]; param::COUNT],
            v: vec![[0.0; 2]; param::COUNT],
            t: 0,
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
        }
    }
}

impl Adam {
    /// One step of size `lr` (centipawns, roughly the most any weight moves) against `grad`.
    /// Weights not in [`tunable`] stay put.
    pub fn step(&mut self, p: &mut Params, grad: &Params, lr: f64) {
        self.t += 1;
        let c1 = 1.0 - self.beta1.powi(self.t);
        let c2 = 1.0 - self.beta2.powi(self.t);
        for j in 0..param::COUNT {
            if !tunable(j) {
                continue;
            }
            for h in 0..2 {
                let g = grad[j][h];
                self.m[j][h] = self.beta1 * self.m[j][h] + (1.0 - self.beta1) * g;
                self.v[j][h] = self.beta2 * self.v[j][h] + (1.0 - self.beta2) * g * g;
                let m = self.m[j][h] / c1;
                let v = self.v[j][h] / c2;
                p[j][h] -= lr * m / (v.sqrt() + self.epsilon);
            }
        }
    }
}

/// Whether weight `j` is tuned. The king's material value multiplies the difference of the king
/// counts, always zero; the king danger entries below 4 units are never reached (two attackers
/// make at least 4). Both have zero gradient anyway; skipping them keeps them exactly as set.
pub fn tunable(j: usize) -> bool {
    let king_material = param::material(kogge_chess::PieceType::King);
    let unreachable_danger = param::KING_DANGER..param::KING_DANGER + 4.min(KING_DANGER_LEN);
    j != king_material && !unreachable_danger.contains(&j)
}

/// The learning rate of epoch `epoch` of `epochs`: `lr` decaying geometrically to a tenth.
pub fn learning_rate(lr: f64, epoch: usize, epochs: usize) -> f64 {
    lr * 0.1_f64.powf(epoch as f64 / epochs.max(1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kogge_chess::{Board, Epd, testdata};

    /// Positions of the perft and WAC suites with synthetic results: the expected score under
    /// `truth` (a distorted copy of the default weights) at K = 0.01.
    fn synthetic() -> (Dataset, Params) {
        let mut truth = params_from(&Weights::DEFAULT);
        for (j, w) in truth.iter_mut().enumerate() {
            w[0] = w[0] * 1.2 + (j % 7) as f64;
            w[1] = w[1] * 0.8 - (j % 5) as f64;
        }
        let boards: Vec<(Board, f32)> = ["perft-suite.epd", "wac.epd"]
            .iter()
            .flat_map(|name| testdata::fens(name))
            .filter_map(|fen| Epd::parse(&fen).ok().map(|e| (e.board, 0.0)))
            .collect();
        let mut d = Dataset::from_positions(&boards);
        for i in 0..d.len() {
            let (e, _) = evaluate(&d, i, &truth);
            d.result[i] = sigmoid(0.01 * e) as f32;
        }
        (d, truth)
    }

    #[test]
    fn k_fitting_and_a_tuning_step_reduce_the_loss() {
        let (d, truth) = synthetic();
        assert!(d.len() > 200);
        let start = params_from(&Weights::DEFAULT);
        let k = fit_k(&d, &start);
        let fitted = loss(&d, &start, k);
        for other in [0.001, 0.005, 0.02, 0.04] {
            assert!(fitted <= loss(&d, &start, other), "K {k} vs {other}");
        }
        // With the true weights, the fitted K is the one the results were made with.
        assert!((fit_k(&d, &truth) - 0.01).abs() < 1e-4);

        let mut p = start.clone();
        let mut adam = Adam::default();
        let (before, grad) = gradient(&d, &p, k);
        assert!((before - fitted).abs() < 1e-12);
        adam.step(&mut p, &grad, 1.0);
        let after_one = loss(&d, &p, k);
        assert!(after_one < before, "{after_one} !< {before}");
        for epoch in 0..50 {
            let (_, grad) = gradient(&d, &p, k);
            adam.step(&mut p, &grad, learning_rate(1.0, epoch, 50));
        }
        assert!(loss(&d, &p, k) < after_one);
    }

    #[test]
    fn the_trace_reproduces_evaluate_on_the_suites() {
        let boards: Vec<(Board, f32)> = ["perft-suite.epd", "wac.epd", "perft-chess960.epd"]
            .iter()
            .flat_map(|name| testdata::fens(name))
            .filter_map(|fen| Epd::parse(&fen).ok().map(|e| (e.board, 0.0)))
            .collect();
        let d = Dataset::from_positions(&boards);
        let p = params_from(&Weights::DEFAULT);
        for (i, (b, _)) in boards.iter().enumerate() {
            let white = match b.side_to_move() {
                kogge_chess::Color::White => kogge_eval::evaluate(b),
                kogge_chess::Color::Black => -kogge_eval::evaluate(b),
            };
            // Exactly, in integers: coefficients · default weights, blended.
            let c = kogge_eval::trace(b);
            let sum: Score = c
                .nonzero()
                .map(|(j, n)| Weights::DEFAULT.get(j) * n)
                .fold(Score::ZERO, |a, s| a + s);
            assert_eq!(sum.blend(c.phase), white, "{}", b.to_fen());
            // The tuner's float model, from the compact data set, differs only by the engine's
            // final rounding toward zero.
            let (e, _) = evaluate(&d, i, &p);
            assert!(
                (e - f64::from(white)).abs() < 1.0,
                "{}: {e} vs {white}",
                b.to_fen()
            );
        }
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let (d, _) = synthetic();
        let p = params_from(&Weights::DEFAULT);
        let k = 0.008;
        let (_, grad) = gradient(&d, &p, k);
        for j in [
            param::material(kogge_chess::PieceType::Knight),
            param::pst(kogge_chess::PieceType::Pawn, 28),
            param::MOBILITY + 2,
            param::PASSED_PAWN + 5,
            param::TEMPO,
        ] {
            for h in 0..2 {
                let (mut plus, mut minus) = (p.clone(), p.clone());
                plus[j][h] += 0.5;
                minus[j][h] -= 0.5;
                let numeric = loss(&d, &plus, k) - loss(&d, &minus, k);
                let tol = 1e-3 * numeric.abs().max(1e-9) + 1e-12;
                assert!(
                    (numeric - grad[j][h]).abs() < tol,
                    "{}: {numeric} vs {}",
                    param::name(j),
                    grad[j][h]
                );
            }
        }
    }

    #[test]
    fn rounding_moves_table_averages_without_changing_evaluations() {
        let mut p = params_from(&Weights::DEFAULT);
        // Every knight square +30, every pawn square on ranks 2-7 −12 in the endgame.
        for sq in 0..64 {
            p[param::pst(kogge_chess::PieceType::Knight, sq)][0] += 30.0;
        }
        for sq in 8..56 {
            p[param::pst(kogge_chess::PieceType::Pawn, sq)][1] -= 12.0;
        }
        let w = weights_from(&p);
        let base = weights_from(&params_from(&Weights::DEFAULT));
        assert_eq!(w.pst, base.pst);
        assert_eq!(w.material[1].mg, base.material[1].mg + 30);
        assert_eq!(w.material[0].eg, base.material[0].eg - 12);
        let unshifted = Weights::from_slice(&rounded(&p));
        for (b, _) in synthetic_boards() {
            assert_eq!(
                kogge_eval::evaluate_with(&b, &w),
                kogge_eval::evaluate_with(&b, &unshifted),
                "{}",
                b.to_fen()
            );
        }
    }

    fn rounded(p: &Params) -> Vec<Score> {
        p.iter()
            .map(|[a, b]| Score::new(a.round() as i32, b.round() as i32))
            .collect()
    }

    fn synthetic_boards() -> Vec<(Board, f32)> {
        testdata::fens("wac.epd")
            .iter()
            .filter_map(|fen| Epd::parse(fen).ok().map(|e| (e.board, 0.0)))
            .collect()
    }
}
