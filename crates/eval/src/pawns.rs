//! Pawn structure: passed, isolated, doubled and backward pawns.
//!
//! Definitions (for a pawn of `color` on `sq`; "in front" means on a rank nearer the pawn's
//! promotion rank):
//! - **passed**: no enemy pawn in front of it on its own or an adjacent file, and no own pawn in
//!   front of it on its file (of doubled passers only the front one counts). Scored by relative
//!   rank, [`PASSED_PAWN`](crate::weights::PASSED_PAWN).
//! - **isolated**: no own pawn anywhere on an adjacent file. [`ISOLATED_PAWN`](crate::weights::ISOLATED_PAWN).
//! - **doubled**: an own pawn in front of it on the same file (so a doubled pair pays once, a
//!   tripled pawn twice). [`DOUBLED_PAWN`](crate::weights::DOUBLED_PAWN).
//! - **backward**: not isolated, no own pawn on an adjacent file on its rank or behind it (none can
//!   ever defend it by advancing), and the square in front of it is attacked by an enemy pawn (it
//!   cannot advance safely to find support). [`BACKWARD_PAWN`](crate::weights::BACKWARD_PAWN). Such a pawn is never passed.

use crate::masks::{adjacent_files, file_of, forward_ranks};
use crate::score::Score;
use crate::trace::Trace;
use crate::tunable::{Weights, param};
use kogge_chess::{Board, Color, PieceType, attacks};

/// Pawn structure of `color`: the sum of its passed-pawn bonuses and its isolated, doubled and
/// backward penalties. Weak pawns are targets that tie pieces down; passed pawns are future
/// queens.
pub fn pawn_structure(board: &Board, color: Color, w: &Weights, trace: &mut impl Trace) -> Score {
    let ours = board.pieces_of(color, PieceType::Pawn);
    let theirs = board.pieces_of(!color, PieceType::Pawn);
    let their_attacks = attacks::pawns_setwise(!color, theirs);
    let mut score = Score::ZERO;
    for sq in ours {
        let file = file_of(sq);
        let adjacent = adjacent_files(sq);
        let ahead = forward_ranks(color, sq);

        let doubled = (ours & file & ahead).any();
        if doubled {
            score += w.doubled_pawn;
            trace.add(color, param::DOUBLED_PAWN, 1);
        }
        if !doubled && (theirs & (file | adjacent) & ahead).is_empty() {
            let rank = sq.rank().relative(color).index();
            score += w.passed_pawn[rank];
            trace.add(color, param::PASSED_PAWN + rank, 1);
        }
        if (ours & adjacent).is_empty() {
            score += w.isolated_pawn;
            trace.add(color, param::ISOLATED_PAWN, 1);
        } else if (ours & adjacent & !ahead).is_empty() {
            // A pawn is never on its last rank, so the stop square exists.
            let stop = match color {
                Color::White => sq.offset(8),
                Color::Black => sq.offset(-8),
            };
            if stop.is_some_and(|s| their_attacks.has(s)) {
                score += w.backward_pawn;
                trace.add(color, param::BACKWARD_PAWN, 1);
            }
        }
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::NoTrace;
    use crate::weights::{BACKWARD_PAWN, DOUBLED_PAWN, ISOLATED_PAWN, PASSED_PAWN};

    fn white_pawns(fen: &str) -> Score {
        let board = Board::from_fen(fen).expect("test FEN");
        pawn_structure(&board, Color::White, &Weights::DEFAULT, &mut NoTrace)
    }

    #[test]
    fn passed_pawn_grows_with_rank() {
        let on7 = white_pawns("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        let on3 = white_pawns("4k3/8/8/8/8/P7/8/4K3 w - - 0 1");
        // Both are isolated; the difference is the passed bonus.
        assert_eq!(on7 - on3, PASSED_PAWN[6] - PASSED_PAWN[2]);
        assert!(on7.mg > on3.mg && on7.eg > on3.eg);
        // An enemy pawn on an adjacent file ahead stops it from being passed.
        let blocked = white_pawns("4k3/1p6/8/8/8/P7/8/4K3 w - - 0 1");
        assert_eq!(blocked, ISOLATED_PAWN);
    }

    #[test]
    fn doubled_and_isolated() {
        // a3+a2: both isolated, the rear one doubled, the front one passed.
        let s = white_pawns("4k3/8/8/8/8/P7/P7/4K3 w - - 0 1");
        assert_eq!(s, ISOLATED_PAWN * 2 + DOUBLED_PAWN + PASSED_PAWN[2]);
        // Connected pawns with a black pawn to stop them: no penalties at all.
        let s = white_pawns("4k3/8/1p6/8/8/8/PP6/4K3 w - - 0 1");
        assert_eq!(s, Score::ZERO);
    }

    #[test]
    fn backward_pawn() {
        // White c3 and d4, black b5. c3 is backward: its only neighbour (d4) has advanced past it,
        // and b5 guards its stop square c4. d4 has c3 behind it (not backward) and no black pawn
        // on the c, d or e files ahead (passed, rank 4).
        let s = white_pawns("4k3/8/8/1p6/3P4/2P5/8/4K3 w - - 0 1");
        assert_eq!(s, BACKWARD_PAWN + PASSED_PAWN[3]);
        // Without b5 the stop square is safe: nothing is backward, and c3 is passed too.
        let s = white_pawns("4k3/8/8/8/3P4/2P5/8/4K3 w - - 0 1");
        assert_eq!(s, PASSED_PAWN[2] + PASSED_PAWN[3]);
    }
}
