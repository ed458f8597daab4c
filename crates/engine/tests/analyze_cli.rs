//! `kogge analyze`: the diagram, one SAN line per iteration, a legal best move; bad input
//! refused with status 2.

mod common;

use common::{kogge, stderr, stdout};
use kogge_chess::Board;

/// The UCI move in `Best move: Nf3 (g1f3)`, checked legal in `board`.
fn best_move(text: &str, board: &Board) -> String {
    let line = text
        .lines()
        .find(|l| l.starts_with("Best move: "))
        .unwrap_or_else(|| panic!("a best move: {text}"));
    let uci = line
        .rsplit_once('(')
        .and_then(|(_, rest)| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("a UCI move in parentheses: {line}"));
    let mv = board
        .parse_uci(uci)
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    // The SAN before it names the same move.
    assert!(line.starts_with(&format!("Best move: {} (", board.to_san(mv))));
    uci.to_string()
}

/// The iteration lines: those between the column titles and the blank line before the result.
fn iterations(text: &str) -> Vec<&str> {
    text.lines()
        .skip_while(|l| !l.trim_start().starts_with("depth") && !l.starts_with("line"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect()
}

#[test]
fn start_position_to_depth_6() {
    let out = kogge(&["analyze", "--depth", "6"]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("8  r n b q k b n r\n"), "{text}");
    assert!(text.contains("   a b c d e f g h\n"), "{text}");
    assert!(
        text.contains("FEN: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        "{text}"
    );
    let lines = iterations(&text);
    assert_eq!(lines.len(), 6, "{text}");
    for (i, line) in lines.iter().enumerate() {
        assert!(
            line.trim_start().starts_with(&format!("{}/", i + 1)),
            "{line}"
        );
        // The principal variation in SAN with move numbers.
        assert!(line.contains("  1. "), "{line}");
    }
    assert!(
        lines[5].contains(" 2. "),
        "a longer line at depth 6: {}",
        lines[5]
    );
    best_move(&text, &Board::startpos());
    assert!(text.lines().any(|l| l.starts_with("Ponder:")), "{text}");
    assert!(text.contains("\nSearch: cpu, 1 thread\n"), "{text}");
    // The whole search's count closes the output: at a fixed depth, the last iteration's.
    let searched = text.lines().last().expect("a closing line");
    assert!(searched.starts_with("Searched:  "), "{text}");
    let nth_count = |line: &str, n: usize| -> u64 {
        line.split_whitespace()
            .nth(n)
            .and_then(|w| w.parse().ok())
            .unwrap_or_else(|| panic!("no count in field {n} of {line}"))
    };
    // An iteration line is `depth/seldepth score nodes nps time pv`.
    assert_eq!(nth_count(searched, 1), nth_count(lines[5], 2), "{text}");
}

#[test]
fn the_engine_backend_chosen_is_the_one_that_analyses() {
    // `kogge --backend opencl analyze`: PoCL in CI (a missing device fails there); elsewhere
    // with no OpenCL device, a note on stderr and the CPU.
    let out = kogge(&[
        "--backend",
        "opencl",
        "analyze",
        "--depth",
        "4",
        "--multipv",
        "2",
    ]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    let on_gpu = text.contains("\nSearch: opencl: ");
    if !on_gpu {
        kogge_gpu::testing::no_opencl_device("analyze on the GPU", &text);
        assert!(text.contains("\nSearch: cpu, 1 thread\n"), "{text}");
        assert!(stderr(&out).contains("note: "), "{}", stderr(&out));
    }
    // MultiPV on whichever search it is: two lines a depth, two different first moves.
    let lines = iterations(&text);
    assert_eq!(lines.len(), 8, "{text}");
    for pair in lines.chunks(2) {
        let first: Vec<&str> = pair
            .iter()
            .map(|l| l.split("1. ").nth(1).and_then(|pv| pv.split(' ').next()))
            .map(|m| m.expect("a first move"))
            .collect();
        assert_ne!(first[0], first[1], "{text}");
    }
    best_move(&text, &Board::startpos());
}

#[test]
fn black_to_move_numbers_and_mate_score() {
    // Black mates on the back rank: 1... Rd1#.
    let fen = "3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 30";
    let out = kogge(&["analyze", "--fen", fen, "--depth", "4"]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    let last = *iterations(&text).last().expect("an iteration");
    assert!(last.contains("#1"), "{last}");
    assert!(last.ends_with("30... Rd1#"), "{last}");
    let board = Board::from_fen(fen).expect("a FEN");
    assert_eq!(best_move(&text, &board), "d8d1");
}

#[test]
fn movetime_and_multipv() {
    let out = kogge(&["analyze", "--movetime", "300", "--multipv", "3"]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    let lines = iterations(&text);
    assert!(lines.len() >= 3, "{text}");
    // Each depth shows lines 1, 2 and 3, with three different first moves.
    let first_three: Vec<&str> = lines[..3]
        .iter()
        .map(|l| l.split("1. ").nth(1).and_then(|pv| pv.split(' ').next()))
        .map(|m| m.expect("a first move"))
        .collect();
    assert!(lines[0].trim_start().starts_with("1 "), "{text}");
    assert!(lines[2].trim_start().starts_with("3 "), "{text}");
    assert_ne!(first_three[0], first_three[1]);
    assert_ne!(first_three[1], first_three[2]);
    assert_ne!(first_three[0], first_three[2]);
    best_move(&text, &Board::startpos());
}

#[test]
fn a_position_without_moves() {
    let out = kogge(&["analyze", "--fen", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    assert!(stdout(&out).contains("No legal move: checkmate."));
}

#[test]
fn bad_fen_is_bad_input() {
    let out = kogge(&["analyze", "--fen", "rnbqkbnr/pppppppp/8/8 w KQkq - 0 1"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert!(stdout(&out).is_empty(), "stdout: {}", stdout(&out));
    assert!(err.starts_with("error: invalid FEN"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn bad_options_are_bad_input() {
    for args in [
        &["analyze", "--depth", "0"][..],
        &["analyze", "--movetime", "-5"],
        &["analyze", "--multipv", "0"],
        &["analyze", "--hash", "0"],
        &["analyze", "--threads", "0"],
    ] {
        let out = kogge(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
}
