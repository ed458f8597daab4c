//! The main search: principal variation search with the usual selectivity. The numbered steps
//! match the GPU kernel's `search.cl`, so the two can be read side by side.

use crate::draw::{insufficient_material, is_repetition};
use crate::history::{self, PieceTo};
use crate::movepick::{MovePicker, OrderContext, is_noisy};
use crate::params::*;
use crate::see::{captured, see_ge};
use crate::span::Tally;
use crate::tt::TtBound;
use crate::worker::{INFINITE, MATE_BOUND, Worker};
use kogge_chess::{Board, Move, MoveList, PieceType};
use kogge_search::{MAX_PLY, Report, Value, mate_in, mated_in};
use std::time::Duration;

/// The value of a draw.
pub const DRAW: Value = 0;

/// Whether `board`'s side to move has a piece other than pawns and the king: without one,
/// zugzwang is likely and the null move is unsound.
pub fn has_non_pawn_material(board: &Board) -> bool {
    let us = board.colored(board.side_to_move());
    (us & !(board.pieces(PieceType::Pawn) | board.pieces(PieceType::King))).any()
}

/// The static evaluation, kept clear of the mate range.
pub fn static_eval(board: &Board) -> Value {
    kogge_eval::evaluate(board).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
}

impl Worker<'_, '_> {
    /// Whether the position is drawn by rule: fifty moves, repetition, or no mating material.
    pub fn is_draw(&self, board: &Board) -> bool {
        if board.halfmove_clock() >= 100 && !(board.in_check() && board.legal_moves().is_empty()) {
            return true;
        }
        insufficient_material(board) || is_repetition(board, &self.keys, self.search_start)
    }

    /// The alpha-beta search of one node, `depth` plies to go; with `kogge bench --span`, its
    /// span measured around it (`span.rs`).
    #[inline]
    pub fn search<const PV: bool>(
        &mut self,
        board: &Board,
        alpha: Value,
        beta: Value,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Value {
        if self.span.is_none() {
            return self.search_node::<PV>(board, alpha, beta, depth, ply, cut_node);
        }
        let at = self.span_tally();
        if let Some(meter) = self.span.as_deref_mut() {
            meter.enter(at, depth, !PV && !cut_node);
        }
        // A node one ply from the horizon always counts itself (step 1), inside its own work.
        self.frontier_nodes += u64::from(depth == 1);
        let value = self.search_node::<PV>(board, alpha, beta, depth, ply, cut_node);
        let at = self.span_tally();
        if let Some(meter) = self.span.as_deref_mut() {
            meter.leave(at);
        }
        value
    }

    fn span_tally(&self) -> Tally {
        Tally {
            nodes: self.nodes,
            quiescence: self.qs_nodes,
            frontier: self.frontier_nodes,
            chains: 0,
        }
    }

    fn search_node<const PV: bool>(
        &mut self,
        board: &Board,
        mut alpha: Value,
        mut beta: Value,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Value {
        // Step 1. Quiescence at the horizon; count the node, look at the clock.
        if depth <= 0 {
            return self.qsearch::<PV>(board, alpha, beta, ply);
        }
        let root = ply == 0;
        self.pv_len[ply] = ply;
        self.nodes += 1;
        self.poll();
        if self.stopped {
            return 0;
        }
        if PV {
            self.seldepth = self.seldepth.max(ply + 1);
        }
        let in_check = board.in_check();

        if !root {
            // Step 2. Draws by rule, and the maximum ply.
            if self.is_draw(board) {
                return DRAW;
            }
            if ply >= MAX_PLY - 4 {
                return if in_check { DRAW } else { static_eval(board) };
            }
            // Step 3. Mate distance pruning: no line from here can beat a mate already found
            // closer to the root.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 4. Transposition table: a deep enough result with a usable bound ends the node
        // (outside the principal variation, where an exact path matters).
        let key = board.hash();
        let tt = self.shared.tt.probe(key, ply);
        let tt_move = tt.map_or(Move::NONE, |e| e.mv);
        if !PV
            && let Some(e) = tt
            && e.depth >= depth
            && match e.bound {
                TtBound::Exact => true,
                TtBound::Lower => e.value >= beta,
                TtBound::Upper => e.value <= alpha,
                TtBound::None => false,
            }
        {
            return e.value;
        }

        // Step 5. Static evaluation, sharpened by the table's value where its bound allows.
        let raw_eval = if in_check {
            None
        } else {
            Some(tt.map_or_else(|| static_eval(board), |e| e.eval))
        };
        let eval = match (raw_eval, tt) {
            (Some(ev), Some(e))
                if e.value.abs() < MATE_BOUND
                    && match e.bound {
                        TtBound::Lower => e.value > ev,
                        TtBound::Upper => e.value < ev,
                        TtBound::Exact => true,
                        TtBound::None => false,
                    } =>
            {
                Some(e.value)
            }
            (ev, _) => ev,
        };
        self.stack[ply].eval = raw_eval;
        self.stack[ply + 2].killers = [Move::NONE; 2];
        // Improving: better than two plies ago, when this side last moved.
        let improving = match (
            raw_eval,
            ply.checked_sub(2).and_then(|p| self.stack[p].eval),
        ) {
            (Some(now), Some(before)) => now > before,
            (Some(_), None) => true,
            _ => false,
        };

        if !PV && let Some(eval) = eval {
            // Step 6. Reverse futility pruning: far enough above beta that a shallow search
            // will not fall below it.
            if depth <= RFP_MAX_DEPTH
                && eval.abs() < MATE_BOUND
                && eval - RFP_MARGIN * (depth - improving as i32) >= beta
            {
                return eval;
            }

            // Step 7. Razoring: far below alpha at low depth; see whether captures can save it.
            if depth <= RAZOR_MAX_DEPTH && eval + RAZOR_MARGIN * depth < alpha {
                let v = self.qsearch::<false>(board, alpha, alpha + 1, ply);
                if v <= alpha {
                    return v;
                }
            }

            // Step 8. Null-move pruning: if passing still holds beta, a real move will too.
            if depth >= NMP_MIN_DEPTH
                && eval >= beta
                && ply >= self.nmp_min_ply
                && !(ply > 0 && self.stack[ply - 1].null_move)
                && has_non_pawn_material(board)
                && beta.abs() < MATE_BOUND
            {
                let r = NMP_BASE + depth / NMP_DEPTH_DIV + ((eval - beta) / 200).min(3);
                let mut child = *board;
                child.play_null();
                self.stack[ply].moved = PieceTo::NONE;
                self.stack[ply].null_move = true;
                self.keys.push(key);
                let v =
                    -self.search::<false>(&child, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.keys.pop();
                self.stack[ply].null_move = false;
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    let v = if v >= MATE_BOUND { beta } else { v };
                    if depth < NMP_VERIFY_DEPTH || self.nmp_min_ply > 0 {
                        return v;
                    }
                    // Verification where zugzwang could fool the null move: the same reduced
                    // search without null moves for the next plies.
                    self.nmp_min_ply = ply + (3 * (depth - r) / 4) as usize;
                    let w = self.search::<false>(board, beta - 1, beta, depth - r, ply, false);
                    self.nmp_min_ply = 0;
                    if w >= beta {
                        return v;
                    }
                }
            }
        }

        // Step 9. Internal iterative reduction: without a table move the ordering is poor, and
        // a shallower search is the cheaper way to find one.
        if tt_move.is_none() && depth >= IIR_MIN_DEPTH && (PV || cut_node) {
            depth -= 1;
        }

        // Step 10. The moves, best first.
        let previous = if ply > 0 {
            self.stack[ply - 1].moved
        } else {
            PieceTo::NONE
        };
        let ctx = OrderContext {
            killers: self.stack[ply].killers,
            counter: self.history.counter(previous),
            previous,
        };
        let mut picker = MovePicker::new(board, tt_move, ctx);
        if picker.is_empty() {
            return if in_check { mated_in(ply) } else { DRAW };
        }

        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let mut searched = 0usize;
        let mut quiets_tried = MoveList::new();
        let mut captures_tried = MoveList::new();
        let side = board.side_to_move();

        while let Some((mv, order)) = picker.next(board, self.history) {
            if root && !self.root_moves.contains(&mv) {
                continue;
            }
            let noisy = is_noisy(board, mv);
            let piece = board.piece_on(mv.from());
            let this = piece.map_or(PieceTo::NONE, |p| PieceTo::new(p, mv.to()));
            let quiet_history = if noisy {
                0
            } else {
                self.history.quiet(side, mv, this, previous)
            };

            let mut child = *board;
            child.play(mv);
            let gives_check = child.in_check();

            // Step 11. Shallow-depth pruning, once a move has saved the node from a mate. Quiet
            // moves that give check are kept from the move-count and futility pruning: they
            // are how mates at the horizon are found.
            if !root && best > -MATE_BOUND && has_non_pawn_material(board) {
                if !noisy {
                    let late = (LMP_BASE + depth * depth) / if improving { 1 } else { 2 };
                    if depth <= LMP_MAX_DEPTH && quiets_tried.len() as i32 >= late && !gives_check {
                        continue;
                    }
                    if let Some(ev) = eval
                        && depth <= FUTILITY_MAX_DEPTH
                        && ev + FUTILITY_BASE + FUTILITY_PER_PLY * depth <= alpha
                        && !gives_check
                    {
                        continue;
                    }
                    if depth <= SEE_PRUNE_MAX_DEPTH && !see_ge(board, mv, SEE_QUIET_MARGIN * depth)
                    {
                        continue;
                    }
                } else if depth <= SEE_PRUNE_MAX_DEPTH
                    && MovePicker::is_bad_capture_score(order)
                    && !see_ge(board, mv, SEE_CAPTURE_MARGIN * depth)
                {
                    continue;
                }
            }

            self.shared.tt.prefetch(child.hash());
            searched += 1;
            if root && self.is_main() && self.shared.time.elapsed() >= Duration::from_secs(3) {
                self.sink.report(Report::CurrentMove {
                    depth: self.root_depth as u32,
                    mv,
                    number: searched as u32,
                });
            }

            if let Some(meter) = self.span.as_deref_mut() {
                meter.next_move(searched, depth);
            }

            // Step 12. Extensions: checks, within reason.
            let extension = (gives_check && ply < 2 * self.root_depth as usize) as i32;
            let new_depth = depth - 1 + extension;
            self.stack[ply].moved = this;
            self.keys.push(key);

            // Step 13. Late move reductions, then the principal variation search.
            let mut value = -INFINITE;
            let full_null_window;
            if depth >= LMR_MIN_DEPTH && searched >= LMR_MIN_MOVE + PV as usize && !noisy {
                let mut r = self.lmr[depth.min(63) as usize][searched.min(63)];
                r -= PV as i32;
                r += !improving as i32;
                r += cut_node as i32;
                r -= gives_check as i32;
                r -= (mv == ctx_killer(&self.stack[ply].killers, mv)) as i32;
                r -= quiet_history / LMR_HISTORY_DIV;
                let reduced = (new_depth - r).clamp(1, new_depth.max(1));
                value = -self.search::<false>(&child, -alpha - 1, -alpha, reduced, ply + 1, true);
                full_null_window = value > alpha && reduced < new_depth;
            } else {
                full_null_window = !PV || searched > 1;
            }
            if full_null_window {
                value = -self.search::<false>(
                    &child,
                    -alpha - 1,
                    -alpha,
                    new_depth,
                    ply + 1,
                    !cut_node,
                );
            }
            if PV && (searched == 1 || (value > alpha && value < beta)) {
                value = -self.search::<true>(&child, -beta, -alpha, new_depth, ply + 1, false);
            }
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
                        if root {
                            self.root_value = value;
                        }
                    }
                    if value >= beta {
                        if let Some(meter) = self.span.as_deref_mut() {
                            meter.cut();
                        }
                        break;
                    }
                    alpha = value;
                }
            }
            if mv != best_move {
                if noisy {
                    captures_tried.push(mv);
                } else {
                    quiets_tried.push(mv);
                }
            }
        }

        if searched == 0 {
            // Only at the root, when every move was excluded; the caller ignores the value.
            return alpha;
        }

        // Step 14. Learn from a cutoff: reward the move that caused it, punish those tried
        // before it.
        if best >= beta {
            let bonus = history::bonus(depth);
            let this_of = |b: &Board, m: Move| {
                b.piece_on(m.from())
                    .map_or(PieceTo::NONE, |p| PieceTo::new(p, m.to()))
            };
            if !is_noisy(board, best_move) {
                let killers = &mut self.stack[ply].killers;
                if killers[0] != best_move {
                    killers[1] = killers[0];
                    killers[0] = best_move;
                }
                self.history.set_counter(previous, best_move);
                self.history.update_quiet(
                    side,
                    best_move,
                    this_of(board, best_move),
                    previous,
                    bonus,
                );
                for &q in quiets_tried.iter() {
                    self.history
                        .update_quiet(side, q, this_of(board, q), previous, -bonus);
                }
            } else if let Some(victim) = captured(board, best_move) {
                self.history
                    .update_capture(this_of(board, best_move), victim, bonus);
            }
            for &c in captures_tried.iter() {
                if let Some(victim) = captured(board, c) {
                    self.history
                        .update_capture(this_of(board, c), victim, -bonus);
                }
            }
        }

        // Step 15. Store the result. Lines after the first of a MultiPV search exclude moves,
        // so their root value is not the position's.
        let bound = if best >= beta {
            TtBound::Lower
        } else if PV && !best_move.is_none() {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        if !(root && self.root_moves.len() < picker.len()) {
            self.shared.tt.store(
                key,
                ply,
                best_move,
                best,
                raw_eval.unwrap_or(0),
                depth,
                bound,
            );
        }
        best
    }
}

/// `mv` if it is one of the killers, else NONE: killers get a ply less reduction.
#[inline]
fn ctx_killer(killers: &[Move; 2], mv: Move) -> Move {
    if killers.contains(&mv) {
        mv
    } else {
        Move::NONE
    }
}
