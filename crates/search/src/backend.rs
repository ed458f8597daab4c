//! The narrow interface between the protocol front ends and a search backend.

use crate::control::SearchControl;
use crate::limits::Limits;
use crate::report::InfoSink;
use crate::value::Value;
use kogge_chess::{Board, Move};

/// The position to search and how the game reached it: the Zobrist keys of the earlier positions
/// (oldest first, not including `board`), for draws by repetition against the game history.
#[derive(Clone, Debug)]
pub struct GamePosition {
    pub board: Board,
    pub history: Vec<u64>,
}

impl GamePosition {
    pub fn new(board: Board) -> GamePosition {
        GamePosition {
            board,
            history: Vec::new(),
        }
    }

    /// Plays `mv` (assumed legal), remembering the position it leaves.
    pub fn play(&mut self, mv: Move) {
        self.history.push(self.board.hash());
        self.board.play(mv);
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when the root has no legal move (mate or stalemate).
    pub best: Option<Move>,
    /// The reply the search expects, for pondering.
    pub ponder: Option<Move>,
    pub value: Value,
    /// The deepest completed iteration.
    pub depth: u32,
    pub nodes: u64,
}

/// A search engine the front ends can drive: the CPU search, or the GPU search.
pub trait SearchBackend: Send {
    /// For `info string` and `kogge devices`-style messages: "cpu", "cuda: NVIDIA H100 …".
    fn name(&self) -> String;
    /// Resizes the transposition table (clears it).
    fn set_hash_mb(&mut self, mb: usize);
    /// Sets the number of search threads (or workers).
    fn set_threads(&mut self, threads: usize);
    /// Sets the number of principal variations to search and report.
    fn set_multipv(&mut self, lines: usize);
    /// Forgets everything learnt (table, histories): `ucinewgame`, `Clear Hash`, `new`.
    fn clear(&mut self);
    /// Searches `position` within `limits` until done or until `control` says stop, reporting
    /// to `sink`. Always returns a legal move when the position has one, even if stopped at once.
    fn search(
        &mut self,
        position: &GamePosition,
        limits: &Limits,
        control: &SearchControl,
        sink: &dyn InfoSink,
    ) -> SearchResult;
}
