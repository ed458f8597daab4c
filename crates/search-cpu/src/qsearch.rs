//! Quiescence search: at the horizon, only captures and queen promotions (every evasion when in
//! check) until the position is quiet, so that the static evaluation is never taken in the
//! middle of an exchange.

use crate::movepick::MovePicker;
use crate::params::DELTA_MARGIN;
use crate::pvs::{DRAW, static_eval};
use crate::see::{SEE_VALUE, captured, see_ge};
use crate::tt::TtBound;
use crate::worker::{INFINITE, Worker};
use kogge_chess::{Board, Move, MoveKind};
use kogge_search::{MAX_PLY, Value, mated_in};

impl Worker<'_, '_> {
    pub fn qsearch<const PV: bool>(
        &mut self,
        board: &Board,
        mut alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Value {
        if PV {
            self.pv_len[ply] = ply;
            self.seldepth = self.seldepth.max(ply + 1);
        }
        self.nodes += 1;
        self.qs_nodes += 1;
        self.poll();
        if self.stopped {
            return 0;
        }
        if self.is_draw(board) {
            return DRAW;
        }
        let in_check = board.in_check();
        if ply >= MAX_PLY - 4 {
            return if in_check { DRAW } else { static_eval(board) };
        }

        let key = board.hash();
        let tt = self.shared.tt.probe(key, ply);
        if !PV
            && let Some(e) = tt
            && match e.bound {
                TtBound::Exact => true,
                TtBound::Lower => e.value >= beta,
                TtBound::Upper => e.value <= alpha,
                TtBound::None => false,
            }
        {
            return e.value;
        }
        let tt_move = tt.map_or(Move::NONE, |e| e.mv);

        // Stand pat: the side to move need not capture (unless in check).
        let raw_eval;
        let mut best;
        if in_check {
            raw_eval = 0;
            best = -INFINITE;
        } else {
            raw_eval = tt.map_or_else(|| static_eval(board), |e| e.eval);
            best = raw_eval;
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }

        let mut picker = MovePicker::noisy(board, tt_move);
        if in_check && picker.is_empty() {
            return mated_in(ply);
        }
        let mut best_move = Move::NONE;
        while let Some((mv, _)) = picker.next(board, self.history) {
            if !in_check {
                // Delta pruning: even winning the piece for free would not reach alpha.
                let gain = captured(board, mv).map_or(0, |p| SEE_VALUE[p.index()])
                    + if mv.kind() == MoveKind::Promotion {
                        SEE_VALUE[4] - SEE_VALUE[0]
                    } else {
                        0
                    };
                if raw_eval + gain + DELTA_MARGIN <= alpha {
                    continue;
                }
                if !see_ge(board, mv, 0) {
                    continue;
                }
            }
            let mut child = *board;
            child.play(mv);
            self.shared.tt.prefetch(child.hash());
            self.keys.push(key);
            let value = -self.qsearch::<PV>(&child, -beta, -alpha, ply + 1);
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    best_move = mv;
                    if PV {
                        self.update_pv(ply, mv);
                    }
                    if value >= beta {
                        break;
                    }
                    alpha = value;
                }
            }
        }

        let bound = if best >= beta {
            TtBound::Lower
        } else if PV && !best_move.is_none() {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        self.shared
            .tt
            .store(key, ply, best_move, best, raw_eval, 0, bound);
        best
    }
}
