//! The xboard front end (the Chess Engine Communication Protocol, version 2): playing games with
//! clocks, force mode, pondering, analysis, and `ping`.
//!
//! Unlike UCI, xboard leaves the game to the engine: it plays its own moves into the game, says
//! when a game has ended, and may be told to move now (`?`). So one thread owns all the state and
//! handles events in order: the lines a reader thread reads from stdin, and the note a search
//! thread sends when it ends. The search itself runs on the [`Session`]'s thread, so the protocol
//! thread answers `ping` and `?` while it runs.

use crate::engine_backend::EngineSettings;
use crate::game::{Game, line_text, playable};
use crate::output::Output;
use crate::protocol::read_line;
use crate::session::Session;
use crate::xboard_clock::TimeControl;
use anyhow::{Result, bail};
use kogge_chess::{Board, Color, Move};
use kogge_search::{
    Bound, DisplayValue, GamePosition, Info, InfoSink, Limits, Report, SearchControl,
};
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};

/// What the protocol thread waits for.
enum Event {
    Line(String),
    /// Standard input ended (or failed): the same as `quit`.
    Eof,
    /// The search with this number ended by itself.
    SearchDone(u64),
}

/// Why a search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// The engine's move: it is played when the search ends.
    Think,
    /// On the opponent's time, in the position after the reply the engine expects.
    Ponder { expected: Move },
    /// Analyze mode: until the position changes or `exit`.
    Analyze,
}

#[derive(Clone, Copy, Debug)]
struct Running {
    id: u64,
    purpose: Purpose,
}

/// What the thinking output keeps for the `.` status command of analyze mode.
#[derive(Clone, Debug, Default)]
struct Status {
    last: Option<Info>,
}

struct Xboard {
    out: Output,
    events: Sender<Event>,
    session: Session,
    game: Game,
    /// Neither side is the engine's: moves are only recorded.
    force: bool,
    engine_color: Color,
    analyzing: bool,
    /// `hard`: think on the opponent's time.
    ponder: bool,
    /// `post`: thinking output; shared with the running search's sink.
    post: Arc<AtomicBool>,
    /// `variant fischerandom`: castling moves are sent as `O-O` / `O-O-O`.
    chess960: bool,
    clock: TimeControl,
    /// `setboard` was given a position the engine cannot use: every move is illegal until the
    /// next `new` or `setboard`.
    illegal_position: bool,
    running: Option<Running>,
    next_id: u64,
    /// `ping`s that arrived while the engine was thinking on its move: answered after the move.
    pending_pongs: Vec<String>,
    status: Arc<Mutex<Status>>,
}

/// Runs xboard until `quit` or the end of input; `first` is a command already read.
pub fn run(
    first: Option<String>,
    mut input: Box<dyn BufRead + Send>,
    out: Output,
    settings: EngineSettings,
) -> Result<()> {
    let (tx, rx) = mpsc::channel();
    if let Some(line) = first {
        let _ = tx.send(Event::Line(line));
    }
    let reader = tx.clone();
    // The reader thread is never joined: at `quit` it may be blocked reading, and leaving it
    // there is harmless since the process ends.
    std::thread::spawn(move || {
        loop {
            let event = match read_line(&mut *input) {
                Ok(Some(line)) => Event::Line(line),
                Ok(None) | Err(_) => Event::Eof,
            };
            let end = matches!(event, Event::Eof);
            if reader.send(event).is_err() || end {
                break;
            }
        }
    });
    let mut xboard = Xboard::new(out, tx, settings);
    xboard.serve(&rx);
    xboard.abort();
    Ok(())
}

impl Xboard {
    fn new(out: Output, events: Sender<Event>, settings: EngineSettings) -> Xboard {
        Xboard {
            out,
            events,
            session: Session::engine(settings),
            game: Game::new(Board::startpos()),
            force: false,
            engine_color: Color::Black,
            analyzing: false,
            ponder: false,
            post: Arc::new(AtomicBool::new(false)),
            chess960: false,
            clock: TimeControl::default(),
            illegal_position: false,
            running: None,
            next_id: 0,
            pending_pongs: Vec::new(),
            status: Arc::new(Mutex::new(Status::default())),
        }
    }

    fn serve(&mut self, events: &Receiver<Event>) {
        while let Ok(event) = events.recv() {
            match event {
                Event::Line(line) => {
                    if !self.handle(&line) {
                        return;
                    }
                }
                Event::Eof => return,
                Event::SearchDone(id) => self.search_done(id),
            }
        }
    }

    /// Handles one command; false for `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (command, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let args = args.trim();
        let result: Result<()> = match command {
            "" | "xboard" | "accepted" | "rejected" | "name" | "computer" | "random" | "ics"
            | "rating" | "draw" | "bk" | "otim" => Ok(()),
            "protover" => {
                self.features();
                Ok(())
            }
            "quit" => return false,
            "new" => {
                self.new_game();
                Ok(())
            }
            "variant" => self.variant(args),
            "force" => {
                self.abort();
                self.force = true;
                Ok(())
            }
            "go" => {
                self.abort();
                self.force = false;
                self.engine_color = self.game.board().side_to_move();
                self.think();
                Ok(())
            }
            "playother" => {
                self.abort();
                self.force = false;
                self.engine_color = !self.game.board().side_to_move();
                Ok(())
            }
            "usermove" => {
                self.user_move(args);
                Ok(())
            }
            "?" => {
                self.move_now();
                Ok(())
            }
            "ping" => {
                self.ping(args);
                Ok(())
            }
            "time" => self.clock.time(args),
            "level" => self.clock.level(args),
            "st" => self.clock.st(args),
            "sd" => self.clock.sd(args),
            "setboard" => {
                self.setboard(args);
                Ok(())
            }
            "undo" => {
                self.take_back(1);
                Ok(())
            }
            "remove" => {
                self.take_back(2);
                Ok(())
            }
            "result" => {
                // The game is over: stop thinking and play no more moves until `new` or `go`.
                self.abort();
                self.force = true;
                Ok(())
            }
            "post" => {
                self.post.store(true, Ordering::Relaxed);
                Ok(())
            }
            "nopost" => {
                self.post.store(false, Ordering::Relaxed);
                Ok(())
            }
            "hard" => {
                self.ponder = true;
                Ok(())
            }
            "easy" => {
                self.ponder = false;
                if matches!(self.purpose(), Some(Purpose::Ponder { .. })) {
                    self.abort();
                }
                Ok(())
            }
            "hint" => {
                if let Some(Purpose::Ponder { expected }) = self.purpose() {
                    let text = self.move_text(self.game.board(), expected);
                    self.out.line(format!("Hint: {text}"));
                }
                Ok(())
            }
            "analyze" => {
                self.abort();
                self.analyzing = true;
                self.analyze();
                Ok(())
            }
            "exit" => {
                if self.analyzing {
                    self.abort();
                    self.analyzing = false;
                    // Analyze mode is force mode with thinking; leaving it must not make the
                    // engine start playing a side on its own.
                    self.force = true;
                }
                Ok(())
            }
            "." => {
                self.stat01();
                Ok(())
            }
            "memory" => self.memory(args),
            "cores" => self.cores(args),
            _ if looks_like_move(command) && args.is_empty() => {
                self.user_move(command);
                Ok(())
            }
            _ => {
                self.out.line(format!("Error (unknown command): {command}"));
                Ok(())
            }
        };
        if let Err(e) = result {
            self.out.line(format!("Error ({e:#}): {command}"));
        }
        true
    }

    fn features(&self) {
        self.out.line(format!(
            "feature ping=1 setboard=1 usermove=1 playother=1 sigint=0 sigterm=0 analyze=1 \
             colors=0 memory=1 smp=1 reuse=1 draw=0 name=0 myname=\"Kogge {}\" \
             variants=\"normal,fischerandom\" done=1",
            env!("CARGO_PKG_VERSION")
        ));
    }

    fn new_game(&mut self) {
        self.abort();
        self.game = Game::new(Board::startpos());
        self.force = false;
        self.engine_color = Color::Black;
        self.chess960 = false;
        self.illegal_position = false;
        self.clock.new_game();
        self.session.configure(|b| b.clear());
        // `new` in analyze mode analyzes the new start position.
        if self.analyzing {
            self.analyze();
        }
    }

    fn variant(&mut self, args: &str) -> Result<()> {
        match args {
            "normal" => self.chess960 = false,
            "fischerandom" => self.chess960 = true,
            other => bail!("unsupported variant {other}"),
        }
        Ok(())
    }

    fn setboard(&mut self, fen: &str) {
        self.abort();
        match Board::from_fen(fen) {
            Ok(board) => {
                self.game = Game::new(board);
                self.illegal_position = false;
            }
            Err(_) => {
                self.out.line("tellusererror Illegal position");
                self.illegal_position = true;
            }
        }
        if self.analyzing && !self.illegal_position {
            self.analyze();
        }
    }

    fn take_back(&mut self, moves: usize) {
        self.abort();
        for _ in 0..moves {
            self.game.undo();
        }
        if self.analyzing {
            self.analyze();
        }
    }

    fn memory(&mut self, args: &str) -> Result<()> {
        let mb: usize = match args.parse() {
            Ok(mb) if mb >= 1 => mb,
            _ => bail!("memory '{args}' is not a number of megabytes"),
        };
        // Options apply to the next search if one is running (see `Session::configure`).
        self.session.configure(move |b| b.set_hash_mb(mb));
        Ok(())
    }

    fn cores(&mut self, args: &str) -> Result<()> {
        let n: usize = match args.parse() {
            Ok(n) if n >= 1 => n,
            _ => bail!("cores '{args}' is not a number of threads"),
        };
        self.session.configure(move |b| b.set_threads(n));
        Ok(())
    }

    fn ping(&mut self, n: &str) {
        // The protocol: no `pong` before the move the engine owes, so that xboard knows the
        // move belongs to the game before the ping. Pondering and analysis owe no move.
        if self.purpose() == Some(Purpose::Think) {
            self.pending_pongs.push(n.to_string());
        } else {
            self.out.line(format!("pong {n}"));
        }
    }

    fn flush_pongs(&mut self) {
        for n in std::mem::take(&mut self.pending_pongs) {
            self.out.line(format!("pong {n}"));
        }
    }

    /// A move from the opponent (or from the user in force mode).
    fn user_move(&mut self, text: &str) {
        let board = *self.game.board();
        let parsed = if self.illegal_position {
            None
        } else {
            parse_move(&board, text)
        };
        let Some(mv) = parsed else {
            self.out.line(format!("Illegal move: {text}"));
            return;
        };
        // The reply the ponder search expected: it carries on as the search for our move, its
        // time counted from now.
        if let Some(Running {
            purpose: Purpose::Ponder { expected },
            id,
        }) = self.running
            && expected == mv
        {
            self.game.play(mv);
            self.session.ponderhit();
            self.running = Some(Running {
                id,
                purpose: Purpose::Think,
            });
            return;
        }
        // A ponder miss, or analysis that must move on to the new position.
        self.abort();
        self.game.play(mv);
        if self.analyzing {
            self.analyze();
            return;
        }
        if let Some(outcome) = self.game.outcome() {
            self.out.line(outcome.xboard());
            return;
        }
        if !self.force && self.game.board().side_to_move() == self.engine_color {
            self.think();
        }
    }

    /// Starts the search for the engine's move, or announces the result if the game is over.
    fn think(&mut self) {
        if let Some(outcome) = self.game.outcome() {
            self.out.line(outcome.xboard());
            return;
        }
        let limits = self.clock.limits(self.game.board());
        self.start(self.game.search_position(), limits, Purpose::Think);
    }

    fn analyze(&mut self) {
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        self.start(self.game.search_position(), limits, Purpose::Analyze);
    }

    fn start(&mut self, position: GamePosition, limits: Limits, purpose: Purpose) {
        self.abort();
        self.next_id += 1;
        let id = self.next_id;
        *lock(&self.status) = Status::default();
        let sink = XboardSink {
            out: self.out.clone(),
            root: position.board,
            post: Arc::clone(&self.post),
            analyzing: purpose == Purpose::Analyze,
            control: self.session.control(),
            status: Arc::clone(&self.status),
        };
        let events = self.events.clone();
        self.session.start(
            position,
            limits,
            Box::new(sink),
            Box::new(move |_, _| {
                // The protocol thread may have gone (quit); nothing is waiting then.
                let _ = events.send(Event::SearchDone(id));
            }),
        );
        self.running = Some(Running { id, purpose });
    }

    fn purpose(&self) -> Option<Purpose> {
        self.running.map(|r| r.purpose)
    }

    /// Stops the running search, if any, and forgets its result (a ponder miss, `force`, a new
    /// position). A move the engine owed is not made, so the `ping`s waiting for it are due.
    fn abort(&mut self) {
        if self.running.take().is_some() {
            self.session.stop_and_join();
        }
        self.flush_pongs();
    }

    /// `?`: move now, if the engine is thinking on its move.
    fn move_now(&mut self) {
        if self.purpose() == Some(Purpose::Think) {
            self.session.stop();
            self.play_engine_move();
        }
    }

    fn search_done(&mut self, id: u64) {
        match self.running {
            Some(Running {
                id: running,
                purpose: Purpose::Think,
            }) if running == id => self.play_engine_move(),
            // A ponder or analysis search ended by itself (nothing left to search): keep the
            // state as it is; the next command replaces it.
            _ => {}
        }
    }

    /// Waits for the search of the engine's move, plays the move, says whether it ended the
    /// game, and starts pondering if asked to.
    fn play_engine_move(&mut self) {
        self.running = None;
        let Some(result) = self.session.join() else {
            return;
        };
        let board = *self.game.board();
        match playable(&board, result.best) {
            None => {
                if let Some(outcome) = self.game.outcome() {
                    self.out.line(outcome.xboard());
                }
            }
            Some(mv) => {
                self.out
                    .line(format!("move {}", self.move_text(&board, mv)));
                self.game.play(mv);
                if let Some(outcome) = self.game.outcome() {
                    self.out.line(outcome.xboard());
                } else if self.ponder
                    && !self.force
                    && let Some(expected) = result
                        .ponder
                        .filter(|&p| result.best == Some(mv) && self.game.board().is_legal(p))
                {
                    self.start_pondering(expected);
                }
            }
        }
        self.flush_pongs();
    }

    /// Searches the position after `expected` on the opponent's time. The clock is the one
    /// xboard last sent; the time manager counts from the ponder hit.
    fn start_pondering(&mut self, expected: Move) {
        let mut after = self.game.clone();
        after.play(expected);
        if after.outcome().is_some() {
            return;
        }
        let mut limits = self.clock.limits(after.board());
        limits.ponder = true;
        self.start(
            after.search_position(),
            limits,
            Purpose::Ponder { expected },
        );
    }

    /// `.` in analyze mode: `stat01: time nodes ply mvleft mvtot mvname`. The search reports
    /// only whole iterations, so this is the state at the last one: no moves left, and the best
    /// move as the current one.
    fn stat01(&self) {
        if self.purpose() != Some(Purpose::Analyze) {
            return;
        }
        let board = self.game.board();
        let total = board.legal_moves().len();
        let line = match &lock(&self.status).last {
            Some(info) => {
                let name = info
                    .pv
                    .first()
                    .filter(|&&m| board.is_legal(m))
                    .map(|&m| board.to_san(m))
                    .unwrap_or_default();
                format!(
                    "stat01: {} {} {} 0 {total} {name}",
                    info.time.as_millis() / 10,
                    info.nodes,
                    info.depth
                )
            }
            None => format!("stat01: 0 0 0 {total} {total}"),
        };
        self.out.line(line.trim_end());
    }

    /// A move as xboard expects it: coordinates (`e2e4`, `e7e8q`, `e1g1`), but castling in
    /// Fischer Random as `O-O` / `O-O-O`, the only form the protocol defines there.
    fn move_text(&self, board: &Board, mv: Move) -> String {
        if mv.is_castling() && (self.chess960 || board.has_chess960_castling()) {
            board.to_san(mv).trim_end_matches(['+', '#']).to_string()
        } else {
            board.to_uci(mv, false)
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A move in coordinate notation (either castling form) or, failing that, SAN (`O-O`, `Nf3`).
fn parse_move(board: &Board, text: &str) -> Option<Move> {
    board
        .parse_uci(text)
        .or_else(|_| board.parse_san(text))
        .ok()
}

/// Whether an unknown command is meant as a move (and so deserves `Illegal move` rather than
/// `Error (unknown command)`): coordinates, castling, or something SAN-shaped with a square.
fn looks_like_move(text: &str) -> bool {
    let b = text.as_bytes();
    let coordinate = b.len() >= 4
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3]);
    let castling = text.starts_with("O-O") || text.starts_with("0-0");
    let san = text.len() <= 8
        && text.starts_with(|c: char| "NBRQKabcdefgh".contains(c))
        && text.contains(|c: char| ('1'..='8').contains(&c))
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "x=+#-".contains(c));
    coordinate || castling || san
}

/// Prints thinking output: `ply score time nodes pv`, time in centiseconds, the score as
/// [`DisplayValue::xboard`] (100000 + n for mate in n), the PV in SAN with `?` or `!` after a
/// fail low or high.
struct XboardSink {
    out: Output,
    root: Board,
    post: Arc<AtomicBool>,
    analyzing: bool,
    control: Arc<SearchControl>,
    status: Arc<Mutex<Status>>,
}

impl InfoSink for XboardSink {
    fn report(&self, report: Report) {
        match report {
            Report::Pv(info) => {
                if info.multipv == 1 {
                    lock(&self.status).last = Some(info.clone());
                }
                // No output while pondering: the PV would start with the move the opponent
                // has not made yet. Analysis always shows its thinking.
                if self.control.is_pondering()
                    || !(self.analyzing || self.post.load(Ordering::Relaxed))
                {
                    return;
                }
                self.out.line(thinking_line(&info, &self.root));
            }
            Report::CurrentMove { .. } => {}
            Report::Message(text) => self.out.line(format!("# {text}")),
        }
    }
}

fn thinking_line(info: &Info, root: &Board) -> String {
    let mark = match info.bound {
        Bound::Exact => "",
        Bound::Lower => "!",
        Bound::Upper => "?",
    };
    format!(
        "{} {} {} {} {}{mark}",
        info.depth,
        DisplayValue::from_value(info.value).xboard(),
        info.time.as_millis() / 10,
        info.nodes,
        line_text(root, &info.pv, |b, m| b.to_san(m))
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Captured;

    fn run_script(script: &str) -> String {
        let captured = Captured::default();
        let out = Output::new(Box::new(captured.clone()));
        let input: Box<dyn BufRead + Send> = Box::new(std::io::Cursor::new(script.to_string()));
        run(None, input, out, EngineSettings::cpu()).expect("the session runs");
        captured.text()
    }

    #[test]
    fn moves_are_recognised() {
        for text in [
            "e2e4", "e7e8q", "O-O", "0-0-0", "Nf3", "exd5", "e8=Q+", "Qxf7#",
        ] {
            assert!(looks_like_move(text), "{text}");
        }
        for text in ["new", "foo", "hint", "bk", "level", "1234"] {
            assert!(!looks_like_move(text), "{text}");
        }
    }

    #[test]
    fn a_game_in_force_mode_and_errors() {
        let text = run_script(
            "xboard\nprotover 2\nnew\nforce\nusermove e2e4\ne7e5\nusermove e2e4\nfoo\nping 7\n\
             setboard nonsense\nusermove e2e4\nsd x\n",
        );
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("feature ping=1 setboard=1 usermove=1"));
        assert!(lines[0].ends_with("done=1"));
        assert_eq!(
            lines[1..],
            [
                "Illegal move: e2e4",
                "Error (unknown command): foo",
                "pong 7",
                "tellusererror Illegal position",
                "Illegal move: e2e4",
                "Error (sd 'x' is not a depth of at least 1): sd",
            ]
        );
    }

    #[test]
    fn fischer_random_castling_is_o_o() {
        let board =
            Board::from_fen("1r2k1r1/8/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1").expect("a FEN");
        let (tx, _rx) = mpsc::channel();
        let mut xb = Xboard::new(
            Output::new(Box::new(Captured::default())),
            tx,
            EngineSettings::cpu(),
        );
        xb.chess960 = true;
        for (king_to, text) in [("g1", "O-O"), ("c1", "O-O-O")] {
            let castle = board
                .legal_moves()
                .iter()
                .copied()
                .find(|m| m.is_castling() && board.to_uci(*m, false) == format!("e1{king_to}"))
                .expect("castling is legal");
            assert_eq!(xb.move_text(&board, castle), text);
            assert_eq!(parse_move(&board, text), Some(castle));
            // The king-takes-rook and king's-destination forms are understood too.
            assert_eq!(
                parse_move(&board, &board.to_uci(castle, true)),
                Some(castle)
            );
        }
    }
}
