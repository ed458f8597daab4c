//! The UCI front end end to end: `kogge` run as a GUI runs it, commands on stdin, answers read
//! from stdout with timeouts.

mod pipe;

use kogge_chess::Board;
use pipe::{Engine, Seeded, after};
use std::time::{Duration, Instant};

/// A fresh engine past the handshake.
fn ready() -> Engine {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.expect_line("uciok");
    e.send("isready");
    e.expect_line("readyok");
    e
}

/// The move of a `bestmove` line (the last line of `lines`), checked legal in `board`.
fn legal_bestmove(lines: &[String], board: &Board) -> String {
    let last = lines.last().expect("a bestmove line");
    let mv = last
        .strip_prefix("bestmove ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("not a bestmove line: {last}"));
    assert!(
        board.parse_uci(mv).is_ok(),
        "bestmove {mv} is not legal in {}",
        board.to_fen()
    );
    mv.to_string()
}

/// The move of the `bestmove` line that ends `lines`, without the ponder move.
fn best(lines: &[String]) -> &str {
    lines
        .last()
        .and_then(|l| field(l, "bestmove"))
        .unwrap_or_else(|| panic!("no bestmove line: {lines:?}"))
}

/// The value of `key` in an `info` line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == key)?;
    words.get(i + 1).copied()
}

#[test]
fn handshake_lists_the_options() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    let lines = e.expect_line("uciok");
    assert!(lines[0].starts_with("id name Kogge "), "{lines:?}");
    assert!(lines.contains(&"id author The Kogge developers".to_string()));
    let option = |name: &str| {
        lines
            .iter()
            .find(|l| l.starts_with(&format!("option name {name} type ")))
            .unwrap_or_else(|| panic!("no option {name}: {lines:?}"))
            .clone()
    };
    assert!(option("Hash").contains("type spin default 16 min 1 max"));
    let threads_max: usize = field(&option("Threads"), "max")
        .and_then(|m| m.parse().ok())
        .expect("a max");
    assert!(threads_max >= 256);
    assert!(option("MultiPV").ends_with("min 1 max 256"));
    assert_eq!(
        option("Ponder"),
        "option name Ponder type check default false"
    );
    assert_eq!(
        option("Move Overhead"),
        "option name Move Overhead type spin default 30 min 0 max 5000"
    );
    assert_eq!(
        option("Slow Mover"),
        "option name Slow Mover type spin default 100 min 10 max 1000"
    );
    assert_eq!(option("Clear Hash"), "option name Clear Hash type button");
    assert_eq!(
        option("UCI_Chess960"),
        "option name UCI_Chess960 type check default false"
    );
    assert_eq!(
        option("Backend"),
        "option name Backend type combo default auto var auto var cpu var cuda var opencl"
    );
    assert!(option("Workers").starts_with("option name Workers type spin default 0 min 0"));
    assert!(option("GPU Parallel").contains("default abdada-rmo"));
    e.send("isready");
    e.expect_line("readyok");
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)).success());
}

#[test]
fn isready_during_a_search_and_stop() {
    let mut e = ready();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let lines = bestmove_only_after_stop(&mut e, Duration::from_secs(1));
    legal_bestmove(&lines, &Board::startpos());
}

/// For a search that must wait for `stop` (infinite, pondering): `isready` is answered within
/// `wait` with no `bestmove` before it, and `stop` brings the `bestmove`, also within `wait`.
/// Returns the lines up to it.
fn bestmove_only_after_stop(e: &mut Engine, wait: Duration) -> Vec<String> {
    e.send("isready");
    let lines = e.read_until("readyok", wait, |l| l == "readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "a search held for stop answered before it: {lines:?}"
    );
    e.send("stop");
    e.read_until("bestmove after stop", wait, |l| l.starts_with("bestmove"))
}

#[test]
fn depth_5_reports_every_iteration() {
    let mut e = ready();
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 5");
    let lines = e.expect_prefix("bestmove");
    legal_bestmove(&lines, &after(&["e2e4", "e7e5"]));
    let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" pv ")).collect();
    let depths: Vec<u32> = infos
        .iter()
        .filter_map(|l| field(l, "depth")?.parse().ok())
        .collect();
    assert_eq!(depths.last(), Some(&5), "{lines:?}");
    for d in 1..=5 {
        assert!(depths.contains(&d), "depth {d} missing: {lines:?}");
    }
    for line in infos {
        assert!(line.starts_with("info depth "), "{line}");
        for key in ["seldepth", "score", "nodes", "nps", "time", "pv"] {
            assert!(field(line, key).is_some(), "no {key} in {line}");
        }
        assert!(
            matches!(field(line, "score"), Some("cp" | "mate")),
            "{line}"
        );
        // The PV is legal from the searched position.
        let mut board = after(&["e2e4", "e7e5"]);
        let pv = line.split(" pv ").nth(1).expect("a pv");
        for text in pv.split_whitespace() {
            let mv = board
                .parse_uci(text)
                .unwrap_or_else(|err| panic!("{line}: {err}"));
            board.play(mv);
        }
    }
}

#[test]
fn a_stopped_search_reports_all_its_nodes_before_bestmove() {
    let mut e = ready();
    e.send("position startpos");
    e.send("go movetime 300");
    let lines = e.expect_prefix("bestmove");
    let totals = &lines[lines.len() - 2];
    assert!(totals.starts_with("info nodes "), "{lines:?}");
    let count = |line: &str, key: &str| -> u64 {
        field(line, key)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {key} in {line}"))
    };
    let last_pv = lines
        .iter()
        .rev()
        .find(|l| l.contains(" pv "))
        .expect("an iteration's line");
    // The clock stopped an iteration: the totals count its nodes too.
    assert!(
        count(totals, "nodes") >= count(last_pv, "nodes"),
        "{lines:?}"
    );
    assert!(count(totals, "time") >= count(last_pv, "time"), "{lines:?}");
    assert!(count(totals, "nps") > 0, "{lines:?}");
}

#[test]
fn a_clock_of_one_second_is_respected() {
    let mut e = ready();
    e.send("position startpos moves d2d4");
    let sent = Instant::now();
    e.send("go wtime 1000 btime 1000 winc 10 binc 10");
    let lines = e.read_until("bestmove within the clock", Duration::from_secs(1), |l| {
        l.starts_with("bestmove")
    });
    assert!(sent.elapsed() < Duration::from_secs(1));
    legal_bestmove(&lines, &after(&["d2d4"]));
}

#[test]
fn mate_in_two_is_found() {
    let mut e = ready();
    // 1. Kf7 Kh7 2. Rh1# (or 1. Kg6 Kg8 2. Ra8#).
    let fen = "7k/8/5K2/8/8/8/8/R7 w - - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("go mate 2");
    let lines = e.expect_prefix("bestmove");
    legal_bestmove(&lines, &Board::from_fen(fen).expect("a FEN"));
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.contains(" pv "))
        .expect("an info line");
    assert!(last_info.contains("score mate 2 "), "{lines:?}");
}

#[test]
fn bad_input_is_reported_and_survived() {
    let mut e = ready();
    e.send("position startpos moves e2e4 e7e5");
    e.send("position startpos moves e2e4 e2e4");
    e.expect_prefix("info string ");
    e.send("position fen not/a/fen w - - 0 1");
    e.expect_prefix("info string ");
    e.send("frobnicate");
    let lines = e.expect_prefix("info string ");
    assert!(lines.last().is_some_and(|l| l.contains("frobnicate")));
    // A malformed `go` is reported and still answered (a GUI waits for `bestmove`), from the
    // position the engine has.
    e.send("go depth x");
    let lines = e.expect_prefix("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: ") && l.contains("depth")),
        "{lines:?}"
    );
    legal_bestmove(&lines, &after(&["e2e4", "e7e5"]));
    e.send("go searchmoves e2e4");
    let lines = e.expect_prefix("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info string error: ")),
        "{lines:?}"
    );
    legal_bestmove(&lines, &after(&["e2e4", "e7e5"]));
    // A malformed ponder search waits for `ponderhit` or `stop` as any ponder search does.
    e.send("go ponder wtime x");
    let lines = bestmove_only_after_stop(&mut e, pipe::PATIENCE);
    legal_bestmove(&lines, &after(&["e2e4", "e7e5"]));
    // `go perft` answers with counts, not a move: its errors are only reported.
    e.send("go perft x");
    e.expect_prefix("info string ");
    e.send("setoption name Hash value -5");
    e.expect_prefix("info string ");
    e.send("setoption name Nonsense value 1");
    e.expect_prefix("info string ");
    e.send("setoption name Backend value quantum");
    e.expect_prefix("info string ");
    e.send("setoption name GPU Parallel value");
    e.expect_prefix("info string ");
    e.send("");
    e.send("isready");
    e.expect_line("readyok");
    // The last good position is still there.
    e.send("d");
    e.expect_line("Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
}

/// Lines of random input, from a seeded generator: garbage, commands with bad arguments,
/// malformed FENs and moves, searches started and stopped. No GPU backend is named (opening one
/// on PoCL would take minutes), and no `quit`.
fn random_input(seed: u64, count: usize) -> Vec<String> {
    const FENS: [&str; 5] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1",
    ];
    const WORDS: [&str; 24] = [
        "go",
        "depth",
        "movetime",
        "wtime",
        "nodes",
        "mate",
        "searchmoves",
        "ponder",
        "infinite",
        "position",
        "startpos",
        "fen",
        "moves",
        "setoption",
        "name",
        "value",
        "-1",
        "0",
        "99999999999999999999",
        "e2e4",
        "a7a8q",
        "0000",
        "h9h9",
        "isready",
    ];
    const GOES: [&str; 9] = [
        "depth 2",
        "movetime 10",
        "nodes 300",
        "wtime 50 btime 50",
        "depth",
        "movetime -5",
        "mate 1",
        "searchmoves e2e4 zz",
        "depth 99999999999",
    ];
    const OPTIONS: [&str; 8] = [
        "Hash",
        "Threads",
        "MultiPV",
        "Move Overhead",
        "Slow Mover",
        "UCI_Chess960",
        "Nope",
        "Backend",
    ];
    const VALUES: [&str; 7] = ["1", "0", "-3", "abc", "true", "100000000", "quantum"];
    const MOVES: [&str; 7] = ["e2e4", "e7e5", "g1f3", "a7a8q", "e1g1", "b1a1", "zz"];
    let mut rng = Seeded::new(seed);
    (0..count)
        .map(|_| match rng.below(10) {
            0..=2 => {
                let fen = rng.pick(&FENS);
                let fen = rng.garble(fen, 3, "pnbrqkPNBRQK18/ -wbKQkqah0");
                let moves: Vec<&str> = (0..rng.below(4)).map(|_| rng.pick(&MOVES)).collect();
                if moves.is_empty() {
                    format!("position fen {fen}")
                } else {
                    format!("position fen {fen} moves {}", moves.join(" "))
                }
            }
            3 | 4 => format!("go {}", rng.pick(&GOES)),
            5 => "stop".to_string(),
            6 => format!(
                "setoption name {} value {}",
                rng.pick(&OPTIONS),
                rng.pick(&VALUES)
            ),
            _ => (0..1 + rng.below(5))
                .map(|_| rng.pick(&WORDS))
                .collect::<Vec<_>>()
                .join(" "),
        })
        .collect()
}

#[test]
fn random_input_leaves_the_engine_answering_with_legal_moves() {
    // Whatever came before, the engine still answers, and a search of the position it holds
    // (`d` says which) gives a legal move.
    for seed in 1..=3 {
        let mut e = ready();
        for line in random_input(seed, 300) {
            e.send(&line);
        }
        // `stop` does not wait for the search: its `bestmove`, and every answer to the input,
        // are read and dropped before the checks, so that the ones read next are theirs.
        e.send("stop");
        e.send("setoption name UCI_Chess960 value false");
        let answered = e.lines_within(Duration::from_millis(500));
        assert!(
            answered
                .iter()
                .filter(|l| l.starts_with("info string"))
                .count()
                >= 10,
            "seed {seed}: the input was not read and answered: {answered:?}"
        );
        e.send("isready");
        e.expect_line("readyok");
        e.send("d");
        let lines = e.expect_prefix("Fen: ");
        let fen = lines
            .last()
            .unwrap()
            .trim_start_matches("Fen: ")
            .to_string();
        let board = Board::from_fen(&fen)
            .unwrap_or_else(|err| panic!("seed {seed}: `d` gave {fen}: {err}"));
        e.send("go depth 2");
        let lines = e.expect_prefix("bestmove");
        if board.legal_moves().is_empty() {
            assert_eq!(best(&lines), "0000", "seed {seed}: {fen}");
        } else {
            assert!(
                lines.iter().any(|l| field(l, "depth") == Some("2")),
                "seed {seed}: {lines:?}"
            );
            legal_bestmove(&lines, &board);
        }
    }
}

#[test]
fn options_change_the_search() {
    let mut e = ready();
    e.send("setoption name Hash value 32");
    e.send("setoption name threads value 2");
    e.send("setoption name MultiPV value 3");
    e.send("setoption name Move Overhead value 10");
    e.send("setoption name Slow Mover value 80");
    e.send("setoption name Clear Hash");
    e.send("isready");
    e.expect_line("readyok");
    e.send("ucinewgame");
    e.send("position startpos");
    e.send("go depth 4");
    let lines = e.expect_prefix("bestmove");
    legal_bestmove(&lines, &Board::startpos());
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    for depth in 1..=4 {
        let at_depth: Vec<&str> = pv_lines_at(&lines, &depth.to_string())
            .iter()
            .filter_map(|l| field(l, "multipv"))
            .collect();
        assert_eq!(at_depth, ["1", "2", "3"], "depth {depth}: {lines:?}");
    }
}

/// The `info … pv` lines of `depth` that are not aspiration bounds, in the order sent.
fn pv_lines_at<'a>(lines: &'a [String], depth: &str) -> Vec<&'a str> {
    lines
        .iter()
        .filter(|l| field(l, "depth") == Some(depth) && l.contains(" pv ") && !l.contains("bound"))
        .map(String::as_str)
        .collect()
}

#[test]
fn perft_divide() {
    let mut e = ready();
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.expect_prefix("Nodes searched:");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 8902")
    );
    assert!(lines.contains(&"e2e4: 600".to_string()), "{lines:?}");
    let divided = lines.iter().filter(|l| l.contains(": ")).count();
    assert_eq!(divided, 21, "20 moves and the total: {lines:?}");
}

#[test]
fn ponder_then_ponderhit() {
    let mut e = ready();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4");
    e.send("go ponder wtime 400 btime 400");
    // A ponder search waits for the GUI, whatever its clock says.
    let early = e.lines_within(Duration::from_millis(700));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "answered while pondering: {early:?}"
    );
    let hit = Instant::now();
    e.send("ponderhit");
    let lines = e.read_until("bestmove after ponderhit", Duration::from_secs(2), |l| {
        l.starts_with("bestmove")
    });
    assert!(hit.elapsed() < Duration::from_secs(2));
    legal_bestmove(&lines, &after(&["e2e4"]));
}

#[test]
fn d_and_eval() {
    let mut e = ready();
    e.send("position fen 4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    e.send("d");
    let lines = e.expect_prefix("Checkers:");
    assert!(lines.contains(&"Fen: 4k3/8/8/8/8/8/4r3/4K3 w - - 0 1".to_string()));
    assert!(lines.iter().any(|l| l.starts_with("Key: ")));
    assert_eq!(lines.last().map(String::as_str), Some("Checkers: e2"));
    e.send("eval");
    e.expect_prefix(" Final evaluation:");
    // `flip`: colours swapped, board upside down.
    e.send("flip");
    e.send("d");
    e.expect_line("Fen: 4k3/4R3/8/8/8/8/8/4K3 b - - 0 1");
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let mut e = ready();
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    e.send("go depth 1 searchmoves e1h1");
    let lines = e.expect_prefix("bestmove");
    assert_eq!(best(&lines), "e1g1");
    e.send("setoption name UCI_Chess960 value true");
    e.send("go perft 1");
    let lines = e.expect_prefix("Nodes searched:");
    assert!(lines.contains(&"e1h1: 1".to_string()), "{lines:?}");
    assert!(lines.contains(&"e1a1: 1".to_string()), "{lines:?}");
    assert!(!lines.contains(&"e1g1: 1".to_string()), "{lines:?}");
    e.send("go depth 1 searchmoves e1g1");
    let lines = e.expect_prefix("bestmove");
    assert_eq!(best(&lines), "e1h1");
    // The GUI sends castling back in the same form.
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1");
    e.send("d");
    e.expect_line("Fen: r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
}

#[test]
fn quit_during_a_search_exits_at_once() {
    let mut e = ready();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    e.send("quit");
    let status = e.wait_exit(Duration::from_secs(3));
    assert!(status.success());
    assert!(asked.elapsed() < Duration::from_secs(3));
}

#[test]
fn end_of_input_ends_the_search_with_a_move() {
    let mut e = ready();
    e.send("position startpos moves g1f3");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.close_input();
    let lines = e.expect_prefix("bestmove");
    legal_bestmove(&lines, &after(&["g1f3"]));
    assert!(e.wait_exit(Duration::from_secs(3)).success());
}

#[test]
fn no_legal_move_is_bestmove_0000() {
    let mut e = ready();
    e.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go depth 3");
    e.expect_line("bestmove 0000");
}

#[test]
fn forced_protocol_and_bench() {
    // `kogge uci` needs no `uci` first.
    let mut e = Engine::start(&["uci"]);
    e.send("isready");
    e.expect_line("readyok");
    e.send("bench 2");
    let lines = e.expect_prefix("Nodes searched");
    assert!(lines.iter().any(|l| l.starts_with("====")), "{lines:?}");
    e.send("isready");
    e.expect_line("readyok");
}

#[test]
fn a_gpu_backend_that_cannot_open_falls_back_to_the_cpu() {
    // Device 99 exists on no machine: the engine says why in an info string and searches on the
    // CPU, with a legal move.
    let mut e = Engine::start(&["--backend", "cuda", "--device", "99"]);
    e.send("uci");
    e.expect_line("uciok");
    e.send("isready");
    e.expect_line("readyok");
    e.send("position startpos moves e2e4");
    e.send("go depth 3");
    let lines = e.expect_prefix("bestmove");
    let mut board = Board::startpos();
    board.play(board.parse_uci("e2e4").unwrap());
    legal_bestmove(&lines, &board);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("searching on the CPU")),
        "{lines:?}"
    );
}

/// Whether an OpenCL device is present (PoCL in CI, where the kernels run on the CPU). Under
/// `CI=true` a missing device fails the test instead.
fn opencl_present(what: &str) -> bool {
    let present = kogge_gpu::list_devices()
        .devices
        .iter()
        .any(|d| d.backend == kogge_gpu::BackendKind::OpenCl);
    if !present {
        kogge_gpu::testing::no_opencl_device(what, "none listed");
    }
    present
}

/// An engine on the OpenCL backend with these arguments and environment, past `uciok` and
/// `isready`: the kernel is built at start and `isready` waits for it (minutes on PoCL without
/// its cache). `setup` is sent before `isready`.
fn open_gpu_engine(args: &[&str], env: &[(&str, &str)], setup: &[&str]) -> Engine {
    let mut full = vec!["--backend", "opencl"];
    full.extend_from_slice(args);
    let mut e = Engine::start_with_env(&full, env);
    e.send("uci");
    e.expect_line("uciok");
    for line in setup {
        e.send(line);
    }
    e.send("isready");
    e.read_until("readyok", Duration::from_secs(600), |l| l == "readyok");
    e
}

/// That the GPU search answered: it says why in an `info string` whenever the CPU does instead.
fn assert_gpu_answered(lines: &[String], what: &str) {
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{what} ran on the GPU: {lines:?}"
    );
}

/// The lines up to `bestmove`, with a GPU search's patience (PoCL runs kernels on the CPU).
fn await_bestmove(e: &mut Engine) -> Vec<String> {
    e.read_until("bestmove", Duration::from_secs(120), |l| {
        l.starts_with("bestmove")
    })
}

#[test]
fn the_gpu_search_plays_over_uci() {
    if !opencl_present("the GPU search over UCI") {
        return;
    }
    let mut e = open_gpu_engine(
        &["--workers", "2"],
        &[],
        &["setoption name GPU Parallel value abdada-rmo"],
    );
    e.send("position startpos moves d2d4");
    e.send("go depth 5");
    let lines = await_bestmove(&mut e);
    let mut board = Board::startpos();
    board.play(board.parse_uci("d2d4").unwrap());
    legal_bestmove(&lines, &board);
    assert_gpu_answered(&lines, "the search");
    assert!(
        lines.iter().any(|l| field(l, "depth") == Some("5")),
        "{lines:?}"
    );

    // MultiPV on the GPU: at every depth three lines, three different moves, best first.
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 4");
    let lines = await_bestmove(&mut e);
    legal_bestmove(&lines, &Board::startpos());
    assert_gpu_answered(&lines, "MultiPV");
    for depth in 1..=4 {
        let at_depth = pv_lines_at(&lines, &depth.to_string());
        let indices: Vec<&str> = at_depth
            .iter()
            .filter_map(|l| field(l, "multipv"))
            .collect();
        assert_eq!(indices, ["1", "2", "3"], "depth {depth}: {lines:?}");
        let moves: Vec<&str> = at_depth.iter().filter_map(|l| field(l, "pv")).collect();
        assert!(
            moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2],
            "depth {depth}: {at_depth:?}"
        );
        let scores: Vec<i32> = at_depth
            .iter()
            .filter_map(|l| field(l, "cp")?.parse().ok())
            .collect();
        assert!(
            scores.len() == 3 && scores[0] >= scores[1] && scores[1] >= scores[2],
            "depth {depth}: {at_depth:?}"
        );
    }
    assert_eq!(
        best(&lines),
        moves_of_last(&lines)[0],
        "the first line's move is played"
    );

    // searchmoves on the GPU: the root searches only the moves named.
    e.send("setoption name MultiPV value 1");
    e.send("position fen 4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
    e.send("go depth 5 searchmoves e1f1 d2e2");
    let lines = await_bestmove(&mut e);
    assert_gpu_answered(&lines, "searchmoves");
    assert!(
        ["e1f1", "d2e2"].contains(&best(&lines)),
        "Rxd5 was not named: {lines:?}"
    );
    e.send("go depth 5");
    let lines = await_bestmove(&mut e);
    assert_eq!(best(&lines), "d2d5", "{lines:?}");

    // An infinite search that reached its depth still waits for `stop` before `bestmove`.
    e.send("go depth 2 infinite");
    std::thread::sleep(Duration::from_millis(500));
    let lines = bestmove_only_after_stop(&mut e, Duration::from_secs(5));
    assert_eq!(best(&lines), "d2d5", "{lines:?}");
}

/// The first move of each line of the last depth reported, by `multipv` index.
fn moves_of_last(lines: &[String]) -> Vec<&str> {
    let last_depth = lines
        .iter()
        .filter(|l| l.contains(" pv ") && !l.contains("bound"))
        .rev()
        .find_map(|l| field(l, "depth"))
        .unwrap_or("0");
    pv_lines_at(lines, last_depth)
        .into_iter()
        .filter_map(|l| field(l, "pv"))
        .collect()
}

#[test]
fn a_first_move_with_2048_gpu_workers_keeps_to_the_clock() {
    // PoCL makes its machine code for a kernel at the kernel's first launch, and a second
    // version for a grid of 65,536 lanes or more (2,048 workers) at the first launch of such a
    // grid. Opening the search must make both: a first `go` that waited for the second spent
    // over two minutes of its clock on this 2-core machine, with `stop` unheard.
    if !opencl_present("the first move with 2,048 GPU workers") {
        return;
    }
    let mut e = open_gpu_engine(&["--workers", "2048"], &[], &[]);
    e.send("position startpos moves e2e4");
    let clock = Duration::from_secs(20);
    let asked = Instant::now();
    e.send("go wtime 20000 btime 20000");
    let lines = await_bestmove(&mut e);
    let took = asked.elapsed();
    legal_bestmove(&lines, &after(&["e2e4"]));
    assert_gpu_answered(&lines, "the search");
    assert!(
        took < clock / 2,
        "the first move took {took:?} of a {clock:?} clock: {lines:?}"
    );
}

#[test]
fn a_gpu_search_that_fails_mid_game_goes_on_on_the_cpu() {
    // A kernel knob makes the worker report its state broken at its 2,000th node, as the
    // kernel's own checks do when they catch a bug: the engine says so, answers this `go` with
    // the CPU search's legal move, and searches on the CPU from then on.
    if !opencl_present("the GPU search's failure mid-game") {
        return;
    }
    let mut e = open_gpu_engine(
        &["--workers", "1"],
        &[("KOGGE_OPENCL_OPTIONS", "-DFAULT_AFTER_NODES=2000")],
        &[],
    );
    // With a clock: the CPU search plans its time on what the GPU left of it.
    e.send("position startpos moves e2e4");
    e.send("go wtime 20000 btime 20000");
    let lines = await_bestmove(&mut e);
    legal_bestmove(&lines, &after(&["e2e4"]));
    let failed = lines
        .iter()
        .position(|l| {
            l.starts_with("info string")
                && l.contains("GPU search failed")
                && l.contains("kernel fault")
                && l.contains("searching on the CPU from now on")
        })
        .unwrap_or_else(|| panic!("no failure reported: {lines:?}"));
    assert!(
        lines[failed..]
            .iter()
            .any(|l| field(l, "depth").is_some_and(|d| d.parse::<u32>().unwrap_or(0) >= 4)),
        "the CPU search did not go on: {lines:?}"
    );
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 4");
    let lines = e.expect_prefix("bestmove");
    legal_bestmove(&lines, &after(&["e2e4", "e7e5"]));
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "the GPU was tried again: {lines:?}"
    );
}

#[test]
fn the_null_move_verification_knob_finds_a_zugzwang_win() {
    // The kernel knob NMP_VERIFY (off by default): where a null move fails high at depth 12 or
    // more, the node is searched again, reduced, without null moves. A search to depth 14 passes
    // such nodes (on PoCL, 8 workers: 200,290 nodes with it against 183,478 without). Only Kh6
    // wins here, by zugzwang, and the search must find it with no fault.
    if !opencl_present("the null move's verification on the GPU") {
        return;
    }
    let mut e = open_gpu_engine(
        &["--workers", "8"],
        &[("KOGGE_OPENCL_OPTIONS", "-DNMP_VERIFY=1")],
        &[],
    );
    e.send("position fen 1q1k4/2Rr4/8/2Q3K1/8/8/8/8 w - - 0 1");
    e.send("go depth 14");
    let lines = await_bestmove(&mut e);
    assert_gpu_answered(&lines, "the search");
    assert!(
        lines.iter().any(|l| field(l, "depth") == Some("14")),
        "{lines:?}"
    );
    assert_eq!(best(&lines), "g5h6", "{lines:?}");
}
