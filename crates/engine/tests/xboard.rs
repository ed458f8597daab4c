//! The xboard (CECP v2) front end end to end: `kogge` run as xboard runs it.

mod pipe;

use kogge_chess::Board;
use pipe::{Engine, Seeded, after};
use std::time::{Duration, Instant};

/// A fresh engine past the feature negotiation, in a new game.
fn ready() -> Engine {
    let mut e = Engine::start(&[]);
    e.send("xboard");
    e.send("protover 2");
    e.expect_prefix("feature ");
    e.send("new");
    e.send("ping 1");
    e.expect_line("pong 1");
    e
}

/// The move of the `move X` line that ends `lines`, checked legal in `board` and played there.
fn legal_move(lines: &[String], board: &mut Board) -> String {
    let last = lines.last().expect("a move line");
    let text = last
        .strip_prefix("move ")
        .unwrap_or_else(|| panic!("not a move line: {last}"));
    let mv = board
        .parse_uci(text)
        .or_else(|_| board.parse_san(text))
        .unwrap_or_else(|err| panic!("move {text} in {}: {err}", board.to_fen()));
    board.play(mv);
    text.to_string()
}

#[test]
fn features_and_ping() {
    let mut e = Engine::start(&[]);
    e.send("xboard");
    e.send("protover 2");
    let lines = e.expect_prefix("feature ");
    let features = lines.last().expect("the feature line");
    for f in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "playother=1",
        "sigint=0",
        "sigterm=0",
        "analyze=1",
        "colors=0",
        "memory=1",
        "smp=1",
        "myname=\"Kogge ",
        "variants=\"normal,fischerandom\"",
    ] {
        assert!(features.contains(f), "{f} missing: {features}");
    }
    assert!(features.ends_with("done=1"), "{features}");
    e.send("accepted ping");
    e.send("ping 5");
    e.expect_line("pong 5");
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(3)).success());
}

#[test]
fn the_engine_answers_a_move() {
    let mut e = ready();
    e.send("sd 4");
    e.send("usermove e2e4");
    let lines = e.expect_prefix("move ");
    legal_move(&lines, &mut after(&["e2e4"]));
    // A bare move works too, and the engine replies again.
    let mut board = after(&["e2e4"]);
    legal_move(&lines, &mut board);
    let reply = board.legal_moves().iter().next().copied().expect("a move");
    let text = board.to_uci(reply, false);
    board.play(reply);
    e.send(&text);
    let lines = e.expect_prefix("move ");
    legal_move(&lines, &mut board);
}

#[test]
fn setboard_go_and_illegal_moves() {
    let mut e = ready();
    e.send("force");
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    e.send(&format!("setboard {fen}"));
    e.send("usermove e2e4");
    e.expect_line("Illegal move: e2e4");
    e.send("usermove e1g1");
    e.expect_line("Illegal move: e1g1");
    e.send("frobnicate");
    e.expect_line("Error (unknown command): frobnicate");
    e.send("setboard this is no position");
    e.expect_line("tellusererror Illegal position");
    e.send("usermove f1c4");
    e.expect_line("Illegal move: f1c4");
    e.send(&format!("setboard {fen}"));
    e.send("sd 3");
    e.send("go");
    let lines = e.expect_prefix("move ");
    legal_move(&lines, &mut Board::from_fen(fen).expect("a FEN"));
}

#[test]
fn st_limits_the_time_per_move() {
    let mut e = ready();
    e.send("st 1");
    let sent = Instant::now();
    e.send("usermove d2d4");
    // A ping while the engine thinks on its move is answered after the move.
    e.send("ping 8");
    let lines = e.read_until("a move within st 1", Duration::from_millis(1800), |l| {
        l.starts_with("move ") || l == "pong 8"
    });
    assert!(sent.elapsed() < Duration::from_millis(1800));
    legal_move(&lines, &mut after(&["d2d4"]));
    e.expect_line("pong 8");
}

#[test]
fn question_mark_moves_now_and_ping_waits_for_the_move() {
    let mut e = ready();
    e.send("st 60");
    e.send("usermove e2e4");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    e.send("?");
    e.send("ping 9");
    let lines = e.read_until("pong after ?", Duration::from_secs(2), |l| l == "pong 9");
    assert!(asked.elapsed() < Duration::from_secs(2));
    let moves: Vec<&String> = lines.iter().filter(|l| l.starts_with("move ")).collect();
    assert_eq!(moves.len(), 1, "one move before the pong: {lines:?}");
    let at = lines
        .iter()
        .position(|l| l.starts_with("move "))
        .expect("a move");
    legal_move(&lines[..=at], &mut after(&["e2e4"]));
}

#[test]
fn analyze_shows_thinking_until_exit() {
    let mut e = ready();
    e.send("post");
    e.send("analyze");
    let lines = e.read_until("a thinking line", Duration::from_secs(5), |l| {
        l.split_whitespace().count() >= 5
            && l.split_whitespace()
                .take(4)
                .all(|w| w.parse::<i64>().is_ok())
    });
    let line = lines.last().expect("a line");
    let pv_first = line.split_whitespace().nth(4).expect("a PV");
    assert!(
        Board::startpos().parse_san(pv_first).is_ok(),
        "PV {pv_first} is not SAN for the start position: {line}"
    );
    // A move in analyze mode is played and analysed.
    e.send("usermove e2e4");
    e.send(".");
    e.expect_prefix("stat01: ");
    e.send("exit");
    e.send("ping 2");
    e.expect_line("pong 2");
    // Nothing more once analysis is over.
    let later = e.lines_within(Duration::from_millis(300));
    assert!(later.is_empty(), "output after exit: {later:?}");
}

#[test]
fn undo_and_remove() {
    let mut e = ready();
    e.send("force");
    e.send("usermove e2e4");
    e.send("usermove e7e5");
    e.send("undo");
    e.send("undo");
    // White to move again: e7e5 is not legal, e2e4 is.
    e.send("usermove e7e5");
    e.expect_line("Illegal move: e7e5");
    e.send("usermove d2d4");
    // `remove` takes back both sides' last moves: white to move in the start position again.
    e.send("usermove d7d5");
    e.send("remove");
    e.send("usermove d7d5");
    e.expect_line("Illegal move: d7d5");
    e.send("ping 3");
    let lines = e.expect_line("pong 3");
    assert!(
        !lines.iter().any(|l| l.starts_with("move ")),
        "the engine moved in force mode: {lines:?}"
    );
}

#[test]
fn result_stops_the_search() {
    let mut e = ready();
    e.send("st 60");
    e.send("usermove e2e4");
    std::thread::sleep(Duration::from_millis(200));
    e.send("result 1-0 {White resigns}");
    e.send("ping 4");
    let lines = e.read_until("pong after result", Duration::from_secs(2), |l| {
        l == "pong 4"
    });
    assert!(
        !lines.iter().any(|l| l.starts_with("move ")),
        "moved after the result: {lines:?}"
    );
}

#[test]
fn the_engine_mates_and_says_so() {
    let mut e = ready();
    e.send("force");
    e.send("setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    e.send("st 2");
    e.send("go");
    let lines = e.expect_prefix("move ");
    assert_eq!(lines.last().map(String::as_str), Some("move a1a8"));
    e.expect_line("1-0 {White mates}");
}

#[test]
fn the_users_mate_ends_the_game() {
    let mut e = ready();
    // The engine plays black after `new`; white mates at once.
    e.send("setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    e.send("usermove a1a8");
    e.expect_line("1-0 {White mates}");
    e.send("ping 6");
    let lines = e.read_until("pong after mate", Duration::from_secs(2), |l| l == "pong 6");
    assert_eq!(lines, ["pong 6"], "the engine moved in a finished game");
}

#[test]
fn pondering_on_the_expected_reply() {
    let mut e = ready();
    e.send("hard");
    e.send("st 1");
    e.send("usermove e2e4");
    let lines = e.expect_prefix("move ");
    let mut board = after(&["e2e4"]);
    legal_move(&lines, &mut board);
    e.send("hint");
    let ping_line = "pong 7";
    e.send("ping 7");
    let lines = e.read_until("pong while pondering", Duration::from_secs(1), |l| {
        l == ping_line
    });
    let hint = lines
        .iter()
        .find_map(|l| l.strip_prefix("Hint: "))
        .unwrap_or_else(|| panic!("no hint while pondering: {lines:?}"))
        .to_string();
    // The expected reply: the ponder search becomes the search for the engine's move.
    let sent = Instant::now();
    e.send(&format!("usermove {hint}"));
    let lines = e.expect_prefix("move ");
    assert!(sent.elapsed() < Duration::from_secs(2));
    let mv = board.parse_uci(&hint).expect("the hint is legal");
    board.play(mv);
    legal_move(&lines, &mut board);
    // An unexpected reply is searched from scratch.
    e.send("easy");
    let reply = board.legal_moves().iter().next().copied().expect("a move");
    let text = board.to_uci(reply, false);
    board.play(reply);
    e.send(&format!("usermove {text}"));
    let lines = e.expect_prefix("move ");
    legal_move(&lines, &mut board);
}

#[test]
fn forced_xboard_and_fischer_random_castling() {
    let mut e = Engine::start(&["xboard"]);
    e.send("new");
    e.send("variant fischerandom");
    e.send("force");
    // King f1, rook g1: castling (king to g1, rook to f1) is white's only legal move; the knight
    // is pinned, the rook and bishop are boxed in, the king's other squares are covered.
    let fen = "k7/8/8/8/8/2n3p1/6P1/3rNKRB w G - 0 1";
    e.send(&format!("setboard {fen}"));
    e.send("sd 2");
    e.send("go");
    let lines = e.expect_prefix("move ");
    assert_eq!(lines.last().map(String::as_str), Some("move O-O"));
    // The same castling as input, in both forms xboard may send.
    for text in ["O-O", "f1g1"] {
        e.send("force");
        e.send(&format!("setboard {fen}"));
        e.send(&format!("usermove {text}"));
        e.send("ping 1");
        let lines = e.read_until("pong", Duration::from_secs(2), |l| l == "pong 1");
        assert_eq!(lines, ["pong 1"], "{text} was refused");
    }
}

#[test]
fn playother_takes_the_side_not_on_move() {
    let mut e = ready();
    e.send("sd 3");
    e.send("force");
    e.send("usermove e2e4");
    // Black to move: the engine takes white and waits for black's move.
    e.send("playother");
    e.send("ping 1");
    let lines = e.expect_line("pong 1");
    assert_eq!(lines, ["pong 1"], "the engine moved for black");
    e.send("usermove c7c5");
    let lines = e.expect_prefix("move ");
    legal_move(&lines, &mut after(&["e2e4", "c7c5"]));
}

/// Lines of random input, from a seeded generator: garbage, commands with bad arguments,
/// malformed positions and moves, searches started and interrupted. No `quit`.
fn random_input(seed: u64, count: usize) -> Vec<String> {
    const COMMANDS: [&str; 30] = [
        "new",
        "force",
        "go",
        "?",
        "undo",
        "remove",
        "post",
        "nopost",
        "hard",
        "easy",
        "white",
        "black",
        "playother",
        "analyze",
        "exit",
        ".",
        "draw",
        "computer",
        "random",
        "sd 2",
        "sd x",
        "st 0.05",
        "st -1",
        "level 40 0:05 0",
        "level x y z",
        "time 500",
        "otim -3",
        "memory 8",
        "cores 0",
        "result 1-0 {gone}",
    ];
    const MOVES: [&str; 8] = ["e2e4", "e7e5", "g1f3", "a7a8q", "e1g1", "Nf3", "O-O", "zz"];
    const FENS: [&str; 3] = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    ];
    let mut rng = Seeded::new(seed);
    (0..count)
        .map(|_| match rng.below(10) {
            0 => {
                let fen = rng.pick(&FENS);
                format!("setboard {}", rng.garble(fen, 2, "kP9/ x"))
            }
            1..=3 => format!("usermove {}", rng.pick(&MOVES)),
            4 => rng.pick(&MOVES).to_string(),
            5 => format!("ping {}", rng.below(100)),
            _ => rng.pick(&COMMANDS).to_string(),
        })
        .collect()
}

#[test]
fn random_input_leaves_the_engine_answering_with_legal_moves() {
    // Whatever came before, the engine still answers `ping` and, in a new game, replies to 1. e4
    // with a legal move.
    for seed in 1..=3 {
        let mut e = ready();
        for line in random_input(seed, 300) {
            e.send(&line);
        }
        e.send("exit");
        e.send("force");
        e.send("?");
        e.send("ping 1000");
        let answered = e.read_until("pong 1000", pipe::PATIENCE, |l| l == "pong 1000");
        assert!(
            answered
                .iter()
                .filter(|l| l.starts_with("Illegal") || l.starts_with("Error"))
                .count()
                >= 10,
            "seed {seed}: the input was not read and answered: {answered:?}"
        );
        e.send("new");
        e.send("sd 2");
        e.send("usermove e2e4");
        let lines = e.expect_prefix("move ");
        legal_move(&lines, &mut after(&["e2e4"]));
    }
}
