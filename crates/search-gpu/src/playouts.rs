//! Positions for checking the GPU against the CPU beyond the fixed suites: random legal games
//! from suite positions, deterministic (a seeded xorshift64*), shared by the tests and
//! `kogge selftest` so that both check the same positions.
//!
//! Plain random games keep most of the material for a long time and rarely promote, so the
//! choice leans towards captures and promotions: the games reach endgames with few pieces,
//! promoted (and under-promoted) pieces and kings in check, which are the corners where a port
//! of the evaluation goes wrong. Starts from the Chess960 suite carry Chess960 castling rights.

use kogge_chess::{Board, Move, MoveKind};

/// A small deterministic generator (xorshift64*): the same positions on every machine, no
/// dependency.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value; 0 is replaced, xorshift needs a non-zero state).
    pub fn new(seed: u64) -> Rng {
        Rng(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    /// A number in `0 .. n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// How the playouts are drawn.
#[derive(Clone, Debug)]
pub struct PlayoutOptions {
    /// Use every `stride`-th start position given.
    pub stride: usize,
    /// Games from each start used.
    pub games: usize,
    /// Moves per game at most (a game also ends at mate, stalemate or the fifty-move rule).
    pub max_plies: usize,
    /// Keep every `keep_every`-th position of a game, and every position in check or just
    /// after a promotion.
    pub keep_every: usize,
    pub seed: u64,
}

impl PlayoutOptions {
    /// The selection the tests and `kogge selftest` use on the three perft suites together
    /// (about 8,000 starts): some 6,000 positions.
    pub const CHECK: PlayoutOptions = PlayoutOptions {
        stride: 40,
        games: 1,
        max_plies: 100,
        keep_every: 4,
        seed: 0x5EED_C0FF_EE00_0001,
    };
}

/// Positions of random games from `starts` (see [`PlayoutOptions`]), in a fixed order.
pub fn playouts(starts: &[Board], options: &PlayoutOptions) -> Vec<Board> {
    let mut rng = Rng::new(options.seed);
    let mut out = Vec::new();
    for start in starts.iter().step_by(options.stride.max(1)) {
        for _ in 0..options.games {
            let mut board = *start;
            // Plies since the last promotion: the positions just after one are all kept, so
            // that promoted pieces are seen in many of them.
            let mut since_promotion = usize::MAX;
            for ply in 1..=options.max_plies {
                let moves = board.legal_moves();
                if moves.is_empty() || board.halfmove_clock() >= 100 {
                    break;
                }
                let pick = |rng: &mut Rng, list: &[Move]| list[rng.below(list.len())];
                let promotions: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|mv| mv.kind() == MoveKind::Promotion)
                    .collect();
                let captures: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|&mv| {
                        mv.kind() == MoveKind::EnPassant
                            || board.color_on(mv.to()) == Some(!board.side_to_move())
                    })
                    .collect();
                // Promote whenever one is possible (three times in four), capture a third of
                // the time: material comes off and pawns get through.
                let mv = if !promotions.is_empty() && rng.below(4) != 0 {
                    pick(&mut rng, &promotions)
                } else if !captures.is_empty() && rng.below(3) == 0 {
                    pick(&mut rng, &captures)
                } else {
                    pick(&mut rng, &moves)
                };
                board.play(mv);
                since_promotion = match mv.kind() {
                    MoveKind::Promotion => 0,
                    _ => since_promotion.saturating_add(1),
                };
                let keep = ply % options.keep_every.max(1) == 0
                    || board.in_check()
                    || since_promotion < AFTER_PROMOTION;
                if keep {
                    out.push(board);
                }
            }
        }
    }
    out
}

/// Positions kept after each promotion.
const AFTER_PROMOTION: usize = 6;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playouts_are_deterministic_and_legal() {
        let starts = [Board::startpos()];
        let options = PlayoutOptions {
            stride: 1,
            games: 3,
            max_plies: 80,
            keep_every: 1,
            seed: 7,
        };
        let a = playouts(&starts, &options);
        let b = playouts(&starts, &options);
        assert_eq!(a, b);
        assert!(a.len() > 100, "{} positions", a.len());
        for board in &a {
            assert_eq!(Board::from_fen(&board.to_fen()).as_ref(), Ok(board));
        }
    }
}
