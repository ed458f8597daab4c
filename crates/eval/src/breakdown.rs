//! `Breakdown`: the evaluation term by term, printed as a table like Stockfish's `eval`.

use crate::score::{MAX_PHASE, Score};
use crate::{Term, phase};
use kogge_chess::{Board, Color};
use std::fmt;

/// One term's contribution for each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TermScores {
    pub term: Term,
    pub white: Score,
    pub black: Score,
}

impl TermScores {
    /// White's contribution minus black's.
    pub fn total(&self) -> Score {
        self.white - self.black
    }
}

/// The evaluation of one position, term by term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// In [`Term::ALL`] order.
    pub terms: [TermScores; Term::COUNT],
    /// The game phase, 0 (pawn endgame) to 24 (opening).
    pub phase: i32,
    pub side_to_move: Color,
    /// King and pawn against king, drawn by the table ([`crate::kpk`]): the evaluation is 0
    /// whatever the terms add up to.
    pub known_draw: bool,
}

impl Breakdown {
    pub(crate) fn new(board: &Board) -> Breakdown {
        Breakdown {
            terms: Term::ALL.map(|term| TermScores {
                term,
                white: term.score(board, Color::White),
                black: term.score(board, Color::Black),
            }),
            phase: phase(board),
            side_to_move: board.side_to_move(),
            known_draw: crate::kpk::is_draw(board),
        }
    }

    /// The sum of all terms, white's view, before blending.
    pub fn total(&self) -> Score {
        self.terms.iter().map(TermScores::total).sum()
    }

    /// The blended evaluation from white's point of view, in centipawns (0 for a known draw).
    pub fn white_view(&self) -> i32 {
        if self.known_draw {
            return 0;
        }
        self.total().blend(self.phase)
    }

    /// The blended evaluation from the side to move's point of view: what
    /// [`evaluate`](crate::evaluate) returns.
    pub fn evaluation(&self) -> i32 {
        match self.side_to_move {
            Color::White => self.white_view(),
            Color::Black => -self.white_view(),
        }
    }
}

const RULE: &str = " -------------+-------------+-------------+-------------";

/// Centipawns, midgame and endgame, right-aligned.
fn pair(f: &mut fmt::Formatter<'_>, s: Score) -> fmt::Result {
    write!(f, " {:>5} {:>5} |", s.mg, s.eg)
}

impl fmt::Display for Breakdown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, " Contributing terms (centipawns, white's point of view)")?;
        writeln!(f)?;
        writeln!(f, "         Term |    White    |    Black    |    Total")?;
        writeln!(f, "              |    MG    EG |    MG    EG |    MG    EG")?;
        writeln!(f, "{RULE}")?;
        for t in &self.terms {
            write!(f, " {:>12} |", t.term)?;
            pair(f, t.white)?;
            pair(f, t.black)?;
            let total = t.total();
            writeln!(f, " {:>5} {:>5}", total.mg, total.eg)?;
        }
        writeln!(f, "{RULE}")?;
        let total = self.total();
        writeln!(
            f,
            " {:>12} |             |             | {:>5} {:>5}",
            "Total", total.mg, total.eg
        )?;
        writeln!(f)?;
        writeln!(
            f,
            " Phase: {} / {MAX_PHASE} (24 opening, 0 pawn endgame)",
            self.phase
        )?;
        if self.known_draw {
            writeln!(
                f,
                " King and pawn against king, drawn by the KPK table: the evaluation is 0"
            )?;
        }
        writeln!(
            f,
            " Final evaluation: {:+} cp (white side), {:+} cp for the side to move ({})",
            self.white_view(),
            self.evaluation(),
            match self.side_to_move {
                Color::White => "white",
                Color::Black => "black",
            }
        )
    }
}
