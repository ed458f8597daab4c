//! Move ordering: the legal moves of a node, scored once and handed out best first by selection
//! (a cutoff usually comes within the first few moves, so sorting the whole list would be
//! wasted work).
//!
//! Order: the table move; captures and queen promotions that do not lose material (most
//! valuable victim first, capture history breaking ties); the two killers; the counter move;
//! the other quiet moves by history; captures that lose material; under-promotions.

use crate::history::{History, PieceTo};
use crate::see::{SEE_VALUE, captured, see_ge};
use kogge_chess::movegen::{MoveSink, generate};
use kogge_chess::sliders::Magic;
use kogge_chess::{Bitboard, Board, Move, MoveKind, MoveList, PieceType, Square};

const TT_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER_1: i32 = (1 << 27) + 2;
const KILLER_2: i32 = (1 << 27) + 1;
const COUNTER: i32 = 1 << 27;
const BAD_CAPTURE: i32 = -(1 << 28);
const UNDER_PROMOTION: i32 = -(1 << 29);

/// Collects only captures and queen promotions (and every move when in check, since all
/// evasions must be looked at): the moves of the quiescence search.
struct NoisySink<'a> {
    list: &'a mut MoveList,
    targets: Bitboard,
}

impl MoveSink for NoisySink<'_> {
    #[inline(always)]
    fn piece_moves(&mut self, from: Square, to: Bitboard) {
        for t in to & self.targets {
            self.list.push(Move::normal(from, t));
        }
    }
    #[inline(always)]
    fn pawn_moves(&mut self, to: Bitboard, delta: i8) {
        // Pushes move by 8 or 16; captures by 7 or 9.
        if delta.unsigned_abs() % 8 != 0 {
            for t in to {
                let from = Square::from_index_unchecked((t.index() as i32 - delta as i32) as u32);
                self.list.push(Move::normal(from, t));
            }
        }
    }
    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, delta: i8) {
        for t in to {
            let from = Square::from_index_unchecked((t.index() as i32 - delta as i32) as u32);
            self.list.push(Move::promotion(from, t, PieceType::Queen));
        }
    }
    #[inline(always)]
    fn special(&mut self, mv: Move) {
        if mv.kind() == MoveKind::EnPassant {
            self.list.push(mv);
        }
    }
}

/// Whether a move changes material (a capture or a promotion); everything else is quiet.
#[inline]
pub fn is_noisy(board: &Board, mv: Move) -> bool {
    mv.kind() == MoveKind::Promotion || captured(board, mv).is_some()
}

/// What the picker needs to know of the node to score quiet moves.
#[derive(Clone, Copy)]
pub struct OrderContext {
    pub killers: [Move; 2],
    pub counter: Move,
    pub previous: PieceTo,
}

impl OrderContext {
    pub const NONE: OrderContext = OrderContext {
        killers: [Move::NONE; 2],
        counter: Move::NONE,
        previous: PieceTo::NONE,
    };
}

pub struct MovePicker {
    moves: MoveList,
    scores: [i32; 256],
    next: usize,
    tt_move: Move,
    ctx: OrderContext,
    /// Whether the moves have been scored. Scoring (SEE of every capture, history lookups) is
    /// put off until the table move has been tried, since it often ends the node alone.
    scored: bool,
}

impl MovePicker {
    /// Every legal move, for the main search.
    pub fn new(board: &Board, tt_move: Move, ctx: OrderContext) -> MovePicker {
        MovePicker {
            moves: board.legal_moves(),
            scores: [0; 256],
            next: 0,
            tt_move,
            ctx,
            scored: false,
        }
    }

    /// Captures and queen promotions (every evasion when in check), most valuable victim first:
    /// the quiescence search's moves.
    pub fn noisy(board: &Board, tt_move: Move) -> MovePicker {
        if board.in_check() {
            return MovePicker::new(board, tt_move, OrderContext::NONE);
        }
        let mut moves = MoveList::new();
        let targets = board.colored(!board.side_to_move());
        generate::<Magic, _>(
            board,
            &mut NoisySink {
                list: &mut moves,
                targets,
            },
        );
        let mut scores = [0; 256];
        for (i, &mv) in moves.iter().enumerate() {
            scores[i] = if mv == tt_move {
                TT_MOVE
            } else {
                mvv_lva(board, mv)
            };
        }
        MovePicker {
            moves,
            scores,
            next: 0,
            tt_move,
            ctx: OrderContext::NONE,
            scored: true,
        }
    }

    /// The number of legal moves (all of them for [`MovePicker::new`]).
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The best remaining move and its ordering score.
    #[inline]
    pub fn next(&mut self, board: &Board, history: &History) -> Option<(Move, i32)> {
        let n = self.moves.len();
        if !self.scored {
            self.scored = true;
            let list = self.moves.as_mut_slice();
            if let Some(i) = list.iter().position(|&m| m == self.tt_move) {
                list.swap(0, i);
                self.scores[0] = TT_MOVE;
                self.next = 1;
                for (s, &mv) in self.scores[1..n].iter_mut().zip(&list[1..]) {
                    *s = score(board, mv, &self.ctx, history);
                }
                return Some((self.tt_move, TT_MOVE));
            }
            for (s, &mv) in self.scores[..n].iter_mut().zip(list.iter()) {
                *s = score(board, mv, &self.ctx, history);
            }
        }
        if self.next >= n {
            return None;
        }
        // The first of the highest scores among the moves left. Over a slice, so that the loop
        // (run once per move handed out: the picker's hot spot) has no bounds checks.
        let left = &self.scores[self.next..n];
        let mut best = 0;
        let mut best_score = left[0];
        for (i, &s) in left.iter().enumerate().skip(1) {
            if s > best_score {
                best = i;
                best_score = s;
            }
        }
        let best = self.next + best;
        let list = self.moves.as_mut_slice();
        list.swap(self.next, best);
        self.scores.swap(self.next, best);
        let picked = (list[self.next], self.scores[self.next]);
        self.next += 1;
        Some(picked)
    }

    /// Whether an ordering score belongs to a capture that loses material by SEE.
    pub fn is_bad_capture_score(score: i32) -> bool {
        score < BAD_CAPTURE / 2 && score > UNDER_PROMOTION / 2
    }
}

fn mvv_lva(board: &Board, mv: Move) -> i32 {
    let victim = captured(board, mv).map_or(0, |p| SEE_VALUE[p.index()]);
    let attacker = board
        .piece_type_on(mv.from())
        .map_or(0, |p| p.index() as i32);
    let promotion = if mv.kind() == MoveKind::Promotion {
        SEE_VALUE[4]
    } else {
        0
    };
    (victim + promotion) * 8 - attacker
}

fn score(board: &Board, mv: Move, ctx: &OrderContext, history: &History) -> i32 {
    if let Some(p) = mv.promotion_piece()
        && p != PieceType::Queen
    {
        return UNDER_PROMOTION + p.index() as i32;
    }
    let piece = board.piece_on(mv.from());
    if let Some(victim) = captured(board, mv).or(mv.promotion_piece().map(|_| PieceType::Pawn)) {
        let this = piece.map_or(PieceTo::NONE, |p| PieceTo::new(p, mv.to()));
        let base = mvv_lva(board, mv) * 16 + history.capture(this, victim) / 16;
        return if see_ge(board, mv, 0) {
            GOOD_CAPTURE + base
        } else {
            BAD_CAPTURE + base
        };
    }
    if mv == ctx.killers[0] {
        return KILLER_1;
    }
    if mv == ctx.killers[1] {
        return KILLER_2;
    }
    if mv == ctx.counter {
        return COUNTER;
    }
    let this = piece.map_or(PieceTo::NONE, |p| PieceTo::new(p, mv.to()));
    history.quiet(board.side_to_move(), mv, this, ctx.previous)
}
