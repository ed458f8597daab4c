//! `datagen`: self-play games for the tuner.
//!
//! Each game starts from a random opening of the book plus a few random plies, then both sides
//! play the CPU search's best move at a fixed node budget. The game ends by the rules (mate,
//! stalemate, fifty moves, threefold repetition, insufficient material) or by adjudication (one
//! side far ahead for several plies; a dead-level score late in the game). Every quiet position
//! along the way — not in check, best move neither a capture nor a promotion, past the opening —
//! is written with the game's result, white's point of view: `FEN [1.0]`, `[0.5]` or `[0.0]`.
//!
//! Game `i`'s moves depend only on the seed and `i` (one search thread per game, table cleared
//! between games, node limits rather than time), and games are written in index order, so a run
//! is reproducible whatever the number of threads.

use kogge_chess::{Board, Move, MoveKind};
use kogge_search::{GamePosition, Limits, SearchBackend, SearchControl};
use kogge_search_cpu::{CpuSearch, insufficient_material, is_repetition};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

/// Resign: the score (white's view, centipawns) beyond which a side counts as lost …
const RESIGN_SCORE: i32 = 1000;
/// … once it has stayed there, with the same sign, for this many plies in a row.
const RESIGN_PLIES: u32 = 6;
/// Draw adjudication: from this full-move number on …
const DRAW_FROM_MOVE: u16 = 80;
/// … a score within this many centipawns of zero …
const DRAW_SCORE: i32 = 10;
/// … for this many plies in a row ends the game as a draw.
const DRAW_PLIES: u32 = 10;
/// A game this long (plies played in this run, random ones included) is a draw.
const MAX_PLIES: u32 = 600;
/// An opening whose random plies leave one side further ahead than this (search score) is
/// drawn again, up to [`START_TRIES`] times: lost-from-the-start games teach little.
const MAX_START_SCORE: i32 = 300;
const START_TRIES: u32 = 8;

/// What `datagen` does.
#[derive(Clone, Debug)]
pub struct Config {
    pub games: u64,
    /// Node budget per move.
    pub nodes: u64,
    /// Games played at once, one search thread each.
    pub threads: usize,
    pub seed: u64,
    /// Random moves played after the book opening.
    pub random_plies: u32,
    /// Positions before this game ply (counted from the start position: 2 × (full move − 1),
    /// plus one when black is to move) are not recorded.
    pub min_ply: u32,
    /// Transposition table per game thread, MiB.
    pub hash_mb: usize,
}

/// A finished game's result, white's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    WhiteWins,
    Draw,
    BlackWins,
}

impl Outcome {
    /// The label written after each position.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "[1.0]",
            Outcome::Draw => "[0.5]",
            Outcome::BlackWins => "[0.0]",
        }
    }

    /// The side to move lost.
    fn loss_for(board: &Board) -> Outcome {
        match board.side_to_move() {
            kogge_chess::Color::White => Outcome::BlackWins,
            kogge_chess::Color::Black => Outcome::WhiteWins,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum End {
    Checkmate,
    Stalemate,
    FiftyMoves,
    Repetition,
    InsufficientMaterial,
    Resigned,
    AdjudicatedDraw,
    MaxLength,
}

/// One self-play game: its recorded positions (FENs) and result.
#[derive(Clone, Debug)]
pub struct Game {
    pub positions: Vec<String>,
    pub outcome: Outcome,
    pub end: End,
    /// Plies played, random ones included.
    pub plies: u32,
}

/// The game ply of `board` counted from the start position.
fn game_ply(board: &Board) -> u32 {
    let black = u32::from(board.side_to_move() == kogge_chess::Color::Black);
    2 * u32::from(board.fullmove_number().saturating_sub(1)) + black
}

/// Whether `mv` on `board` changes material: a capture (en passant included) or a promotion.
/// Castling is stored as the king taking its own rook, which is not a capture.
fn is_tactical(board: &Board, mv: Move) -> bool {
    match mv.kind() {
        MoveKind::Promotion | MoveKind::EnPassant => true,
        MoveKind::Castling => false,
        MoveKind::Normal => board.color_on(mv.to()) == Some(!board.side_to_move()),
    }
}

/// Plays `plies` uniformly random legal moves from `board`; `None` if the game ends on the way.
fn random_start(board: Board, plies: u32, rng: &mut ChaCha8Rng) -> Option<GamePosition> {
    let mut pos = GamePosition::new(board);
    for _ in 0..plies {
        let moves = pos.board.legal_moves();
        if moves.is_empty() {
            return None;
        }
        pos.play(moves[rng.random_range(0..moves.len())]);
    }
    (!pos.board.legal_moves().is_empty()).then_some(pos)
}

/// The rules' verdict on `pos` before a move is searched: mate, stalemate, or a draw by the
/// fifty-move rule, threefold repetition or insufficient material.
fn rules_verdict(pos: &GamePosition) -> Option<(Outcome, End)> {
    let b = &pos.board;
    if b.legal_moves().is_empty() {
        return Some(if b.in_check() {
            (Outcome::loss_for(b), End::Checkmate)
        } else {
            (Outcome::Draw, End::Stalemate)
        });
    }
    if b.halfmove_clock() >= 100 {
        return Some((Outcome::Draw, End::FiftyMoves));
    }
    // Every earlier position is game history: two earlier occurrences make the third.
    if is_repetition(b, &pos.history, pos.history.len()) {
        return Some((Outcome::Draw, End::Repetition));
    }
    if insufficient_material(b) {
        return Some((Outcome::Draw, End::InsufficientMaterial));
    }
    None
}

/// Plays game number `index`.
pub fn play_game(search: &mut CpuSearch, openings: &[Board], index: u64, cfg: &Config) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let limits = Limits {
        nodes: Some(cfg.nodes),
        ..Limits::default()
    };
    search.clear();

    // The opening: book position plus random plies, drawn again while lopsided.
    let mut pos = None;
    for attempt in 0..START_TRIES {
        let book = openings[rng.random_range(0..openings.len())];
        let Some(candidate) = random_start(book, cfg.random_plies, &mut rng) else {
            continue;
        };
        let balanced = attempt + 1 == START_TRIES || {
            let r = search.search(&candidate, &limits, &SearchControl::new(), &());
            r.value.abs() <= MAX_START_SCORE
        };
        if balanced {
            pos = Some(candidate);
            break;
        }
    }
    let mut pos = pos.unwrap_or_else(|| GamePosition::new(openings[0]));
    let start_history = pos.history.len() as u32;

    let mut positions = Vec::new();
    let mut resign_streak = 0;
    let mut last_sign = 0;
    let mut draw_streak = 0;
    let (outcome, end) = loop {
        if let Some(verdict) = rules_verdict(&pos) {
            break verdict;
        }
        if pos.history.len() as u32 - start_history + cfg.random_plies >= MAX_PLIES {
            break (Outcome::Draw, End::MaxLength);
        }
        let board = pos.board;
        let result = search.search(&pos, &limits, &SearchControl::new(), &());
        let Some(mv) = result.best else {
            // Unreachable: the rules found legal moves.
            break (Outcome::Draw, End::Stalemate);
        };
        if game_ply(&board) >= cfg.min_ply && !board.in_check() && !is_tactical(&board, mv) {
            positions.push(board.to_fen());
        }

        let white_value = match board.side_to_move() {
            kogge_chess::Color::White => result.value,
            kogge_chess::Color::Black => -result.value,
        };
        if white_value.abs() > RESIGN_SCORE {
            let sign = white_value.signum();
            resign_streak = if sign == last_sign {
                resign_streak + 1
            } else {
                1
            };
            last_sign = sign;
        } else {
            resign_streak = 0;
            last_sign = 0;
        }
        if resign_streak >= RESIGN_PLIES {
            let outcome = if last_sign > 0 {
                Outcome::WhiteWins
            } else {
                Outcome::BlackWins
            };
            break (outcome, End::Resigned);
        }
        if board.fullmove_number() >= DRAW_FROM_MOVE && white_value.abs() < DRAW_SCORE {
            draw_streak += 1;
        } else {
            draw_streak = 0;
        }
        if draw_streak >= DRAW_PLIES {
            break (Outcome::Draw, End::AdjudicatedDraw);
        }
        pos.play(mv);
    };
    Game {
        positions,
        outcome,
        end,
        plies: pos.history.len() as u32,
    }
}

/// Totals over a run.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub games: u64,
    pub positions: u64,
    pub plies: u64,
    /// White wins, draws, black wins.
    pub outcomes: [u64; 3],
    /// How many games ended each way.
    pub ends: BTreeMap<String, u64>,
}

impl Stats {
    fn add(&mut self, game: &Game) {
        self.games += 1;
        self.positions += game.positions.len() as u64;
        self.plies += u64::from(game.plies);
        self.outcomes[game.outcome as usize] += 1;
        *self.ends.entry(format!("{:?}", game.end)).or_default() += 1;
    }
}

/// Plays `cfg.games` games on `cfg.threads` threads and writes their positions to `out` in game
/// order. `progress` is called after each game written.
pub fn run(
    cfg: &Config,
    openings: &[Board],
    out: &mut dyn Write,
    mut progress: impl FnMut(&Stats),
) -> anyhow::Result<Stats> {
    anyhow::ensure!(!openings.is_empty(), "no opening positions");
    let next = AtomicU64::new(0);
    let mut stats = Stats::default();
    std::thread::scope(|scope| -> anyhow::Result<()> {
        let (tx, rx) = mpsc::channel::<(u64, Game)>();
        for _ in 0..cfg.threads.max(1) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                let mut search = CpuSearch::new(cfg.hash_mb, 1);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= cfg.games {
                        break;
                    }
                    let game = play_game(&mut search, openings, i, cfg);
                    if tx.send((i, game)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Games finish out of order; write them in index order.
        let mut pending = BTreeMap::new();
        let mut written = 0;
        for (i, game) in rx {
            pending.insert(i, game);
            while let Some(game) = pending.remove(&written) {
                for fen in &game.positions {
                    writeln!(out, "{fen} {}", game.outcome.label())?;
                }
                stats.add(&game);
                written += 1;
                progress(&stats);
            }
        }
        Ok(())
    })?;
    out.flush()?;
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::parse_line;
    use kogge_chess::testdata;

    fn openings() -> Vec<Board> {
        testdata::fens("openings-8ply.epd")
            .iter()
            .map(|f| Board::from_fen(f).expect("opening FEN"))
            .collect()
    }

    fn config(threads: usize) -> Config {
        Config {
            games: 2,
            nodes: 300,
            threads,
            seed: 7,
            random_plies: 2,
            min_ply: 16,
            hash_mb: 1,
        }
    }

    #[test]
    fn two_games_write_valid_lines_reproducibly() {
        let openings = openings();
        let mut text = Vec::new();
        let stats = run(&config(2), &openings, &mut text, |_| {}).expect("datagen");
        let text = String::from_utf8(text).expect("UTF-8");
        assert_eq!(stats.games, 2);
        assert_eq!(text.lines().count() as u64, stats.positions);
        assert!(stats.positions > 0, "{stats:?}");
        for line in text.lines() {
            let (board, result) = parse_line(line).expect(line);
            assert!(!board.in_check(), "{line}");
            assert!([0.0, 0.5, 1.0].contains(&result), "{line}");
            assert!(game_ply(&board) >= 16, "{line}");
        }
        // Same seed, one thread: the same file.
        let mut again = Vec::new();
        run(&config(1), &openings, &mut again, |_| {}).expect("datagen");
        assert_eq!(String::from_utf8(again).expect("UTF-8"), text);
    }

    #[test]
    fn captures_promotions_and_castling() {
        let b = Board::from_fen("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1").expect("FEN");
        let mv = |uci: &str| b.parse_uci(uci).expect(uci);
        assert!(is_tactical(&b, mv("e5d6")), "en passant");
        assert!(is_tactical(&b, mv("b7a8q")), "capture-promotion");
        assert!(is_tactical(&b, mv("b7b8n")), "promotion");
        assert!(is_tactical(&b, mv("a1a8")), "capture");
        assert!(!is_tactical(&b, mv("e1g1")), "castling");
        assert!(!is_tactical(&b, mv("e1f1")), "quiet");
    }
}
