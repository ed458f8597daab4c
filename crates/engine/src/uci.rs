//! The UCI front end: reads commands on the protocol thread, runs searches through the
//! [`Session`], and prints `info` lines and `bestmove` from the search thread.
//!
//! Besides the standard commands it has Stockfish's extensions for people at a terminal: `d`
//! (the board, FEN, key and checkers), `eval` (the evaluation term by term), `bench [depth]`,
//! `flip` and `go perft N`. A command it cannot use — unknown, malformed, an illegal move, a bad
//! option — is answered with an `info string` saying why, and the engine carries on; a
//! malformed `go` is still answered with a `bestmove` (of a one-ply search), since a GUI waits
//! for one.

use crate::engine_backend::EngineSettings;
use crate::game::{Game, line_text, playable};
use crate::output::Output;
use crate::protocol::read_line;
use crate::session::Session;
use crate::uci_go::{Go, parse_go};
use crate::uci_options::{self, Change};
use anyhow::{Context, Result, bail};
use kogge_chess::{Board, perft};
use kogge_search::{
    Bound, DisplayValue, GamePosition, Info, InfoSink, Limits, Report, SearchResult,
    nodes_per_second,
};
use std::io::BufRead;
use std::time::{Duration, Instant};

/// Whether to read another command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

struct Uci {
    out: Output,
    session: Session,
    game: Game,
    /// `UCI_Chess960`: castling moves printed (and expected) as king takes rook.
    chess960: bool,
    /// `Threads`, also used by `go perft`.
    threads: usize,
}

/// Runs UCI until `quit` or the end of input; `first` is a command already read.
pub fn run(
    first: Option<String>,
    input: &mut dyn BufRead,
    out: Output,
    settings: EngineSettings,
) -> Result<()> {
    let mut uci = Uci {
        out,
        session: Session::engine(settings),
        game: Game::new(Board::startpos()),
        chess960: false,
        threads: 1,
    };
    if let Some(line) = first
        && uci.handle(&line) == Flow::Quit
    {
        return uci.quit();
    }
    while let Some(line) = read_line(input).context("reading standard input")? {
        if uci.handle(&line) == Flow::Quit {
            break;
        }
    }
    // `quit`, or the GUI closed our input: either way stop the search and let it print its move.
    uci.quit()
}

impl Uci {
    fn handle(&mut self, line: &str) -> Flow {
        let line = line.trim();
        let (command, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let args = args.trim();
        let result = match command {
            "" => Ok(()),
            "uci" => {
                self.identify();
                Ok(())
            }
            "isready" => {
                // A queued `setoption Hash` is applied now if the engine is idle, so that
                // `readyok` means the table is allocated.
                self.session.apply_pending();
                self.out.line("readyok");
                Ok(())
            }
            "debug" | "register" => Ok(()),
            "setoption" => self.setoption(args),
            "ucinewgame" => {
                self.session.stop_and_join();
                self.session.configure(|b| b.clear());
                Ok(())
            }
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => {
                self.session.stop();
                Ok(())
            }
            "ponderhit" => {
                self.session.ponderhit();
                Ok(())
            }
            "quit" => return Flow::Quit,
            "d" => {
                self.display();
                Ok(())
            }
            "eval" => {
                self.out
                    .block(&kogge_eval::breakdown(self.game.board()).to_string());
                Ok(())
            }
            "bench" => self.bench(args),
            "flip" => {
                self.session.stop_and_join();
                self.game = Game::new(kogge_eval::mirror(self.game.board()));
                Ok(())
            }
            other => Err(anyhow::anyhow!(
                "unknown command '{other}' (try uci, isready, position, go, stop, d, eval, bench)"
            )),
        };
        if let Err(e) = result {
            self.out.line(format!("info string error: {e:#}"));
        }
        Flow::Continue
    }

    fn identify(&self) {
        let mut text = format!(
            "id name Kogge {}\nid author The Kogge developers\n\n",
            env!("CARGO_PKG_VERSION")
        );
        for line in uci_options::option_lines() {
            text.push_str(&line);
            text.push('\n');
        }
        text.push_str("uciok\n");
        self.out.block(&text);
    }

    fn setoption(&mut self, args: &str) -> Result<()> {
        match uci_options::parse_setoption(args)? {
            Change::HashMb(mb) => self.session.configure(move |b| b.set_hash_mb(mb)),
            Change::Threads(n) => {
                self.threads = n;
                self.session.configure(move |b| b.set_threads(n));
            }
            Change::MultiPv(n) => self.session.configure(move |b| b.set_multipv(n)),
            Change::MoveOverhead(d) => self.session.configure(move |b| b.set_move_overhead(d)),
            Change::SlowMover(p) => self.session.configure(move |b| b.set_slow_mover(p)),
            Change::ClearHash => self.session.configure(|b| b.clear()),
            // The GUI decides when to ponder (`go ponder`); the option only tells it we can.
            Change::Ponder(_) => {}
            Change::Chess960(on) => self.chess960 = on,
            Change::Backend(choice) => self
                .session
                .configure(move |b| b.set_backend_choice(choice)),
            Change::Workers(n) => self.session.configure(move |b| b.set_workers(n)),
            Change::Parallel(mode) => self.session.configure(move |b| b.set_parallel_mode(mode)),
            Change::Finisher(f) => self.session.configure(move |b| b.set_finisher(f)),
        }
        Ok(())
    }

    /// `position startpos|fen <FEN> [moves …]`. The new game is built completely before it
    /// replaces the old one, so a bad FEN or an illegal move leaves the previous position.
    fn position(&mut self, args: &str) -> Result<()> {
        let words: Vec<&str> = args.split_whitespace().collect();
        let moves_at = words.iter().position(|&w| w == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (&words[..], &[][..]),
        };
        let start = match setup.split_first() {
            Some((&"startpos", [])) => Board::startpos(),
            Some((&"fen", fen)) if !fen.is_empty() => {
                let fen = fen.join(" ");
                Board::from_fen(&fen).with_context(|| format!("invalid FEN '{fen}'"))?
            }
            _ => bail!("expected 'position startpos [moves …]' or 'position fen <FEN> [moves …]'"),
        };
        let mut game = Game::new(start);
        for (i, text) in moves.iter().enumerate() {
            let mv = game
                .board()
                .parse_uci(text)
                .with_context(|| format!("move {} of the position command", i + 1))?;
            game.play(mv);
        }
        // The GUI should not change the position during a search; if it does, the old search
        // ends (and reports its move) first.
        self.session.stop_and_join();
        self.game = game;
        Ok(())
    }

    fn go(&mut self, args: &str) -> Result<()> {
        let words: Vec<&str> = args.split_whitespace().collect();
        let board = *self.game.board();
        let go = match parse_go(&words, &board) {
            Ok(go) => go,
            // A GUI waits for `bestmove` after every `go`: a malformed one is reported and
            // answered with the move of a one-ply search, rather than left to run out the clock
            // (as a ponder or infinite search if it asked for one, so that the answer still
            // waits for `ponderhit` or `stop`). `go perft` answers with counts: only reported.
            Err(e) if !words.contains(&"perft") => {
                self.out.line(format!(
                    "info string error: {e:#}; searching one ply instead"
                ));
                let mut limits = Limits::depth(1);
                limits.ponder = words.contains(&"ponder");
                limits.infinite = words.contains(&"infinite");
                Go::Search(limits)
            }
            Err(e) => return Err(e),
        };
        match go {
            Go::Perft(depth) => {
                self.session.stop_and_join();
                self.perft(&board, depth);
            }
            Go::Search(limits) => {
                let chess960 = self.chess960 || board.has_chess960_castling();
                let sink = UciSink {
                    out: self.out.clone(),
                    root: board,
                    chess960,
                };
                let out = self.out.clone();
                let started = Instant::now();
                self.session.start(
                    self.game.search_position(),
                    limits,
                    Box::new(sink),
                    Box::new(move |position, result| {
                        out.line(totals_line(result.nodes, started.elapsed()));
                        out.line(bestmove(position, result, chess960));
                    }),
                );
            }
        }
        Ok(())
    }

    /// `go perft N`: the count under each root move, then the total, as Stockfish prints them.
    fn perft(&self, board: &Board, depth: u32) {
        let chess960 = self.chess960 || board.has_chess960_castling();
        let mut text = String::new();
        let total = if depth == 0 {
            1
        } else {
            let divide = perft::perft_divide(board, depth, self.threads, &|_, _| {});
            for (mv, count) in &divide.moves {
                text.push_str(&format!("{}: {count}\n", board.to_uci(*mv, chess960)));
            }
            divide.total()
        };
        text.push_str(&format!("\nNodes searched: {total}\n"));
        self.out.block(&text);
    }

    /// `d`: the board, its FEN, its key and the pieces giving check.
    fn display(&self) {
        let board = self.game.board();
        let checkers: Vec<String> = board.checkers().map(|sq| sq.to_string()).collect();
        let text = format!(
            "\n{}\nFen: {}\nKey: {:016X}\nCheckers: {}\n",
            crate::diagram::diagram(board),
            board.to_fen(),
            board.hash(),
            checkers.join(" ")
        );
        self.out.block(&text);
    }

    /// `bench [depth]`: the same fixed search as `kogge bench`, its totals as one block.
    fn bench(&mut self, args: &str) -> Result<()> {
        let depth = match args.split_whitespace().next() {
            None => None,
            Some(text) => Some(
                text.parse::<u32>()
                    .ok()
                    .with_context(|| format!("bench depth '{text}' is not a whole number"))?,
            ),
        };
        self.session.stop_and_join();
        let mut totals = Vec::new();
        crate::bench::run_bench(depth, &mut totals)?;
        self.out.block(&String::from_utf8_lossy(&totals));
        Ok(())
    }

    fn quit(&mut self) -> Result<()> {
        self.session.stop_and_join();
        Ok(())
    }
}

/// `info nodes … nps … time …` for the whole search, just before `bestmove`. The lines of the
/// iterations count only up to the last one completed; a search stopped by the clock or `stop`
/// has searched on since (often half its nodes), which a GUI's node count and rate, and the
/// bench scripts' figures, would otherwise miss.
fn totals_line(nodes: u64, time: Duration) -> String {
    format!(
        "info nodes {nodes} nps {} time {}",
        nodes_per_second(nodes, time),
        time.as_millis()
    )
}

/// `bestmove X [ponder Y]`, never with an illegal move: the search's move if it is legal,
/// else the first legal move, and `0000` when there is none (mate or stalemate).
fn bestmove(position: &GamePosition, result: &SearchResult, chess960: bool) -> String {
    let board = position.board;
    let Some(best) = playable(&board, result.best) else {
        return "bestmove 0000".to_string();
    };
    let mut after = board;
    after.play(best);
    // The expected reply belongs to the search's own move only.
    let ponder = result
        .ponder
        .filter(|&p| result.best == Some(best) && after.is_legal(p));
    match ponder {
        Some(p) => format!(
            "bestmove {} ponder {}",
            board.to_uci(best, chess960),
            after.to_uci(p, chess960)
        ),
        None => format!("bestmove {}", board.to_uci(best, chess960)),
    }
}

/// Prints a running search's reports as `info` lines.
struct UciSink {
    out: Output,
    root: Board,
    chess960: bool,
}

impl InfoSink for UciSink {
    fn report(&self, report: Report) {
        match report {
            Report::Pv(info) => self.out.line(info_line(&info, &self.root, self.chess960)),
            Report::CurrentMove { depth, mv, number } => self.out.line(format!(
                "info depth {depth} currmove {} currmovenumber {number}",
                self.root.to_uci(mv, self.chess960)
            )),
            Report::Message(text) => self.out.line(format!("info string {text}")),
        }
    }
}

/// `info depth … pv …` for one principal variation.
fn info_line(info: &Info, root: &Board, chess960: bool) -> String {
    let bound = match info.bound {
        Bound::Exact => "",
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
    };
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {}{bound} nodes {} nps {} hashfull {} time {}",
        info.depth,
        info.seldepth,
        info.multipv,
        DisplayValue::from_value(info.value).uci(),
        info.nodes,
        info.nps(),
        info.hashfull,
        info.time.as_millis(),
    );
    let pv = line_text(root, &info.pv, |b, m| b.to_uci(m, chess960));
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Captured;
    use kogge_chess::Move;

    fn run_script(script: &str) -> String {
        let captured = Captured::default();
        let out = Output::new(Box::new(captured.clone()));
        let mut input = script.as_bytes();
        run(None, &mut input, out, EngineSettings::cpu()).expect("the session runs");
        captured.text()
    }

    #[test]
    fn handshake_and_errors() {
        let text = run_script("uci\nisready\nfoo\nsetoption name Nope value 1\n");
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("id name Kogge "));
        assert!(lines.contains(&"uciok"));
        assert!(lines.contains(&"readyok"));
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: unknown command 'foo'"))
        );
        assert!(lines.iter().any(|l| l.contains("no such option: 'Nope'")));
    }

    #[test]
    fn a_bad_position_keeps_the_old_one() {
        let text = run_script("position startpos moves e2e4\nposition startpos moves e2e5\nd\n");
        assert!(text.contains("info string error: move 1 of the position command"));
        assert!(
            text.contains("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
            "{text}"
        );
    }

    #[test]
    fn end_of_input_ends_the_search_with_its_move() {
        let text = run_script("position startpos\ngo depth 3\n");
        let last = text.lines().last().expect("output");
        assert!(last.starts_with("bestmove "), "{text}");
    }

    #[test]
    fn perft_divide() {
        let text = run_script("go perft 2\n");
        assert!(text.contains("e2e4: 20\n"));
        assert!(text.ends_with("\nNodes searched: 400\n"), "{text}");
    }

    #[test]
    fn bestmove_is_always_legal() {
        let board = Board::startpos();
        let position = GamePosition::new(board);
        let e5 = Move::normal(
            "e7".parse().expect("a square"),
            "e5".parse().expect("a square"),
        );
        let bogus = SearchResult {
            best: Some(e5),
            ponder: Some(e5),
            value: 0,
            depth: 1,
            nodes: 1,
        };
        let text = bestmove(&position, &bogus, false);
        let mv = text.strip_prefix("bestmove ").expect("a bestmove line");
        assert!(board.parse_uci(mv).is_ok(), "{text}");
        let mated = Board::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").expect("a FEN");
        let none = SearchResult {
            best: None,
            ..bogus
        };
        assert_eq!(
            bestmove(&GamePosition::new(mated), &none, false),
            "bestmove 0000"
        );
    }

    #[test]
    fn the_totals_line_before_bestmove() {
        assert_eq!(
            totals_line(1_500_000, Duration::from_millis(750)),
            "info nodes 1500000 nps 2000000 time 750"
        );
        let text = run_script("position startpos\ngo depth 3\n");
        let lines: Vec<&str> = text.lines().collect();
        let last_pv = lines
            .iter()
            .rev()
            .find(|l| l.contains(" pv "))
            .expect("an iteration's line");
        let nodes_of = |line: &str| -> u64 {
            let words: Vec<&str> = line.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "nodes").expect("nodes");
            words[at + 1].parse().expect("a count")
        };
        let totals = lines[lines.len() - 2];
        assert!(totals.starts_with("info nodes "), "{text}");
        // A search to a fixed depth ends with its last iteration: the same count.
        assert_eq!(nodes_of(totals), nodes_of(last_pv), "{text}");
    }

    #[test]
    fn info_lines() {
        let board = Board::startpos();
        let e4 = board.parse_uci("e2e4").expect("legal");
        let info = Info {
            depth: 5,
            seldepth: 7,
            multipv: 1,
            value: 31,
            bound: Bound::Lower,
            nodes: 1000,
            time: Duration::from_millis(10),
            hashfull: 3,
            pv: vec![e4, e4],
        };
        assert_eq!(
            info_line(&info, &board, false),
            "info depth 5 seldepth 7 multipv 1 score cp 31 lowerbound nodes 1000 nps 100000 \
             hashfull 3 time 10 pv e2e4"
        );
    }
}
