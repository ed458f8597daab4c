//! `Game`: the positions of the game a front end is playing or analysing, from the position it
//! was set up in to the current one. It gives the search its [`GamePosition`] (the earlier keys,
//! for repetitions), takes moves back for xboard's `undo` and `remove`, and says when the game is
//! over by the rules, which xboard expects the engine to announce.

use kogge_chess::{Board, Color, Move};
use kogge_search::GamePosition;
use kogge_search_cpu::insufficient_material;

#[derive(Clone, Debug)]
pub struct Game {
    /// Every position of the game, oldest first; never empty. Boards are small and games short,
    /// so keeping them all is simpler than unmaking moves.
    boards: Vec<Board>,
}

/// Why a game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Checkmate { winner: Color },
    Stalemate,
    FiftyMoves,
    Repetition,
    InsufficientMaterial,
}

impl Outcome {
    /// The result line xboard expects from an engine that claims the end of the game.
    pub fn xboard(self) -> &'static str {
        match self {
            Outcome::Checkmate {
                winner: Color::White,
            } => "1-0 {White mates}",
            Outcome::Checkmate {
                winner: Color::Black,
            } => "0-1 {Black mates}",
            Outcome::Stalemate => "1/2-1/2 {Stalemate}",
            Outcome::FiftyMoves => "1/2-1/2 {Draw by fifty move rule}",
            Outcome::Repetition => "1/2-1/2 {Draw by repetition}",
            Outcome::InsufficientMaterial => "1/2-1/2 {Draw by insufficient material}",
        }
    }
}

impl Game {
    pub fn new(start: Board) -> Game {
        Game {
            boards: vec![start],
        }
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        self.boards
            .last()
            .expect("a game has at least one position")
    }

    /// Plays `mv`, which must be legal in the current position (it comes from a parser that only
    /// returns legal moves, or was checked with [`playable`]).
    pub fn play(&mut self, mv: Move) {
        let mut next = *self.board();
        next.play(mv);
        self.boards.push(next);
    }

    /// Takes the last move back; false when there is none.
    pub fn undo(&mut self) -> bool {
        if self.boards.len() > 1 {
            self.boards.pop();
            true
        } else {
            false
        }
    }

    /// The current position with the keys of the earlier ones, for the search.
    pub fn search_position(&self) -> GamePosition {
        let (current, earlier) = self.boards.split_last().expect("at least one position");
        GamePosition {
            board: *current,
            history: earlier.iter().map(Board::hash).collect(),
        }
    }

    /// Whether the game is over in the current position, and why. Mate is checked before the
    /// fifty-move rule, as the rules say: a mate on the hundredth half-move stands.
    pub fn outcome(&self) -> Option<Outcome> {
        let board = self.board();
        if board.legal_moves().is_empty() {
            return Some(if board.in_check() {
                Outcome::Checkmate {
                    winner: !board.side_to_move(),
                }
            } else {
                Outcome::Stalemate
            });
        }
        if board.halfmove_clock() >= 100 {
            return Some(Outcome::FiftyMoves);
        }
        if insufficient_material(board) {
            return Some(Outcome::InsufficientMaterial);
        }
        // Only positions since the last capture or pawn move can repeat; the key covers the side
        // to move, castling and en passant, so equal keys mean the same position.
        let key = board.hash();
        let reversible = (board.halfmove_clock() as usize).min(self.boards.len() - 1);
        let occurrences = self.boards[self.boards.len() - 1 - reversible..]
            .iter()
            .filter(|b| b.hash() == key)
            .count();
        if occurrences >= 3 {
            return Some(Outcome::Repetition);
        }
        None
    }
}

/// The move to announce: the search's move if it is legal where the game stands, else the first
/// legal move (a front end must never send an illegal move, whatever a backend returns), and
/// `None` when there is no legal move at all.
pub fn playable(board: &Board, mv: Option<Move>) -> Option<Move> {
    mv.filter(|&m| board.is_legal(m))
        .or_else(|| board.legal_moves().iter().next().copied())
}

/// The moves of `line` (a principal variation) written by `notation`, space-separated, up to the
/// first move that is not legal where it stands: a PV's tail can come from the transposition
/// table, and a rare key collision there must not print nonsense (nor panic in `Board::play`).
pub fn line_text(root: &Board, line: &[Move], notation: impl Fn(&Board, Move) -> String) -> String {
    let mut board = *root;
    let mut moves = Vec::with_capacity(line.len());
    for &mv in line {
        if !board.is_legal(mv) {
            break;
        }
        moves.push(notation(&board, mv));
        board.play(mv);
    }
    moves.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(game: &mut Game, moves: &[&str]) {
        for text in moves {
            let mv = game.board().parse_uci(text).expect("a legal move");
            game.play(mv);
        }
    }

    #[test]
    fn undo_returns_to_the_earlier_position() {
        let mut game = Game::new(Board::startpos());
        play_all(&mut game, &["e2e4", "e7e5"]);
        assert_eq!(game.search_position().history.len(), 2);
        assert!(game.undo());
        assert!(game.undo());
        assert!(!game.undo());
        assert_eq!(game.board().to_fen(), Board::startpos().to_fen());
    }

    #[test]
    fn mates_and_draws() {
        let mut game = Game::new(Board::startpos());
        play_all(&mut game, &["f2f3", "e7e5", "g2g4", "d8h4"]);
        assert_eq!(
            game.outcome(),
            Some(Outcome::Checkmate {
                winner: Color::Black
            })
        );
        assert_eq!(
            game.outcome().map(Outcome::xboard),
            Some("0-1 {Black mates}")
        );

        let stalemate = Board::from_fen("k7/8/1Q6/8/8/8/8/7K b - - 0 1").expect("a FEN");
        assert_eq!(Game::new(stalemate).outcome(), Some(Outcome::Stalemate));

        let bare = Board::from_fen("k7/8/8/8/8/8/8/6NK w - - 0 1").expect("a FEN");
        assert_eq!(
            Game::new(bare).outcome(),
            Some(Outcome::InsufficientMaterial)
        );

        let fifty = Board::from_fen("k7/8/8/8/8/8/8/5RRK w - - 100 80").expect("a FEN");
        assert_eq!(Game::new(fifty).outcome(), Some(Outcome::FiftyMoves));
    }

    #[test]
    fn threefold_repetition() {
        let mut game = Game::new(Board::startpos());
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        play_all(&mut game, &shuffle);
        assert_eq!(game.outcome(), None, "twice is not yet a draw");
        play_all(&mut game, &shuffle);
        assert_eq!(game.outcome(), Some(Outcome::Repetition));
    }

    #[test]
    fn playable_never_returns_an_illegal_move() {
        let board = Board::startpos();
        let e4 = board.parse_uci("e2e4").expect("legal");
        assert_eq!(playable(&board, Some(e4)), Some(e4));
        let after = {
            let mut b = board;
            b.play(e4);
            b
        };
        // e2e4 again is not legal for black: fall back to some legal move.
        let fallback = playable(&after, Some(e4)).expect("a move");
        assert!(after.is_legal(fallback));
        let mated = Board::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").expect("a FEN");
        assert_eq!(playable(&mated, None), None);
    }

    #[test]
    fn lines_stop_at_an_illegal_move() {
        let board = Board::startpos();
        let e4 = board.parse_uci("e2e4").expect("legal");
        let e5 = Move::normal(
            "e7".parse().expect("a square"),
            "e5".parse().expect("a square"),
        );
        let uci = |b: &Board, m: Move| b.to_uci(m, false);
        assert_eq!(line_text(&board, &[e4, e5, e4], uci), "e2e4 e7e5");
        assert_eq!(line_text(&board, &[e5], uci), "");
        assert_eq!(line_text(&board, &[e4, e5], |b, m| b.to_san(m)), "e4 e5");
    }
}
