//! End-to-end tests of the `kogge` binary: what a user or a script sees on stdout, stderr and in
//! the exit status.

mod common;

use common::{kogge, stderr, stdout};
use std::path::PathBuf;
use std::process::Output;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The fields of the summary line `nodes N time_ms T nps R`.
fn summary(line: &str) -> (u64, u64, u64) {
    let f: Vec<&str> = line.split(' ').collect();
    assert_eq!(
        (f.len(), f[0], f[2], f[4]),
        (6, "nodes", "time_ms", "nps"),
        "summary line: {line:?}"
    );
    let n = |s: &str| s.parse::<u64>().expect("a number");
    (n(f[1]), n(f[3]), n(f[5]))
}

/// A bad-input run: exit 2, one error line on stderr, no panic, nothing on stdout.
fn assert_bad_input(out: &Output, mention: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert!(stdout(out).is_empty(), "stdout: {}", stdout(out));
    assert!(err.starts_with("error: "), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(
        err.contains(mention),
        "stderr should mention {mention:?}: {err}"
    );
    assert!(!err.contains("panicked"), "stderr: {err}");
}

/// A file in Cargo's scratch directory for integration tests, unique to the test.
fn scratch_file(name: &str, contents: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, contents).expect("the scratch file is written");
    path
}

#[test]
fn startpos_depth_4() {
    let out = kogge(&["perft", "4"]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "stdout: {text}");
    let last = text.lines().last().expect("a summary line");
    assert_eq!(summary(last).0, 197_281);
}

#[test]
fn fen_and_threads() {
    for threads in ["1", "3"] {
        let out = kogge(&["perft", "3", "--fen", KIWIPETE, "--threads", threads]);
        assert!(out.status.success(), "stderr: {}", stderr(&out));
        let last = stdout(&out).lines().last().map(str::to_string);
        assert_eq!(summary(&last.expect("a summary line")).0, 97_862);
    }
}

#[test]
fn depth_0_is_the_position_itself() {
    let out = kogge(&["perft", "0", "--divide"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).lines().next(), Some(""));
    assert_eq!(summary(stdout(&out).lines().last().unwrap()).0, 1);
}

#[test]
fn divide_startpos_depth_2() {
    let out = kogge(&["perft", "2", "--divide"]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    // 20 moves, a blank line, the summary.
    assert_eq!(lines.len(), 22, "stdout: {text}");
    assert_eq!(lines[20], "");
    assert!(lines.contains(&"e2e4: 20"), "stdout: {text}");
    let sum: u64 = lines[..20]
        .iter()
        .map(|l| {
            let (_, n) = l.split_once(": ").expect("move: count");
            n.parse::<u64>().expect("a count")
        })
        .sum();
    assert_eq!(sum, 400);
    assert_eq!(summary(lines[21]).0, 400);
}

#[test]
fn divide_totals_match_on_kiwipete() {
    let out = kogge(&["perft", "3", "--divide", "--fen", KIWIPETE]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 48 + 2, "stdout: {text}");
    let sum: u64 = lines[..48]
        .iter()
        .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 97_862);
}

#[test]
fn json_output() {
    let out = kogge(&["perft", "3", "--json"]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("stdout is JSON");
    assert_eq!(v["nodes"], 8902);
    assert_eq!(v["depth"], 3);
    assert!(v["time_ms"].is_u64() && v["nps"].is_u64(), "{v}");
    assert!(v["sliders"].is_string(), "{v}");
    assert_eq!(
        v["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert!(v.get("divide").is_none(), "{v}");

    let out = kogge(&["perft", "2", "--json", "--divide"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("stdout is JSON");
    let divide = v["divide"].as_object().expect("divide is an object");
    assert_eq!(divide.len(), 20);
    assert_eq!(divide["e2e4"], 20);
    assert_eq!(v["nodes"], 400);
}

#[test]
fn epd_counts_passes_and_failures() {
    let path = scratch_file(
        "one-good-one-bad.epd",
        "# one right count and one wrong one\n\
         \n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902\n\
         4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 67\n",
    );
    let out = kogge(&["perft", "--epd", path.to_str().unwrap(), "--threads", "2"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "stdout: {text}");
    assert_eq!(text.lines().last(), Some("1 passed, 1 failed"), "{text}");
    assert!(text.contains("line 3: "), "{text}");
    assert!(text.contains("line 4: "), "{text}");
    assert!(text.contains("D2 expected 67 got 66"), "{text}");

    // The same run as JSON: same verdicts, same exit status.
    let out = kogge(&["perft", "--epd", path.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("stdout is JSON");
    assert_eq!(
        (v["passed"].as_u64(), v["failed"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(v["positions"][1]["checks"][1]["got"], 66);
}

#[test]
fn epd_max_nodes_and_parse_errors() {
    let path = scratch_file(
        "max-nodes-and-garbage.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902\n\
         this is not a position\n",
    );
    // --max-nodes 500 leaves out D3; the unparsable line counts as a failure.
    let out = kogge(&[
        "perft",
        "--epd",
        path.to_str().unwrap(),
        "--max-nodes",
        "500",
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("depths 1,2: OK"), "{text}");
    assert!(text.contains("line 2: FAIL"), "{text}");
    assert_eq!(text.lines().last(), Some("1 passed, 1 failed"), "{text}");
}

#[test]
fn epd_shared_perft_suite() {
    let suite =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/perft-suite.epd");
    assert!(
        suite.exists(),
        "{} is missing: the test data lives in shared/ beside the repository",
        suite.display()
    );
    let out = kogge(&[
        "perft",
        "--epd",
        suite.to_str().unwrap(),
        "--max-nodes",
        "200000",
    ]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    let last = text.lines().last().unwrap_or_default();
    assert!(last.ends_with(" passed, 0 failed"), "{last}");
}

#[test]
fn malformed_fen_is_exit_2() {
    let out = kogge(&["perft", "3", "--fen", "rnbqkbnr/pppppppp/8/8 w KQkq - 0 1"]);
    assert_bad_input(&out, "invalid FEN");
    let out = kogge(&["perft", "1", "--fen", "not a fen"]);
    assert_bad_input(&out, "invalid FEN");
}

#[test]
fn other_bad_input_is_exit_2() {
    assert_bad_input(&kogge(&["perft", "four"]), "not a whole number");
    assert_bad_input(&kogge(&["perft", "21"]), "limit of 20");
    assert_bad_input(&kogge(&["perft", "3", "--threads", "0"]), "threads");
    assert_bad_input(&kogge(&["perft", "3", "--max-nodes", "5"]), "--max-nodes");
    assert_bad_input(
        &kogge(&["perft", "--epd", "/nonexistent/kogge/suite.epd"]),
        "cannot read EPD file",
    );
}

#[test]
fn divide_writes_castling_as_gui_expects() {
    // Standard chess: the king's destination.
    let out = kogge(&["perft", "1", "--divide", "--fen", KIWIPETE]);
    let text = stdout(&out);
    assert!(
        text.contains("e1g1: 1") && text.contains("e1c1: 1"),
        "{text}"
    );
    assert!(!text.contains("e1h1") && !text.contains("e1a1"), "{text}");
    // Chess960 rights (king on b1, rooks on a1 and h1): king takes rook.
    let out = kogge(&[
        "perft",
        "1",
        "--divide",
        "--fen",
        "1k5r/8/8/8/8/8/8/RK5R w HAh - 0 1",
    ]);
    let text = stdout(&out);
    assert!(
        text.contains("b1h1: 1") && text.contains("b1a1: 1"),
        "{text}"
    );
}

#[test]
fn opencl_backend_counts_like_the_cpu() {
    // PoCL in CI; any OpenCL device elsewhere. Without one, a clear error (exit 2), no panic.
    let out = kogge(&[
        "perft",
        "4",
        "--backend",
        "opencl",
        "--json",
        "--fen",
        KIWIPETE,
    ]);
    if out.status.success() {
        let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
        assert_eq!(v["nodes"], 4_085_603);
        assert!(
            v["backend"].as_str().unwrap_or("").starts_with("opencl"),
            "{v}"
        );
        let out = kogge(&["perft", "2", "--backend", "opencl", "--divide"]);
        assert!(stdout(&out).contains("e2e4: 20"), "{}", stdout(&out));
        // With a transposition table the count is the same.
        let out = kogge(&["perft", "5", "--backend", "opencl", "--hash", "4"]);
        assert!(
            stdout(&out).starts_with("nodes 4865609 "),
            "{}",
            stdout(&out)
        );
    } else {
        kogge_gpu::testing::no_opencl_device("perft on OpenCL", &stderr(&out));
        assert_bad_input(&out, "opencl");
    }
}

#[test]
fn cuda_backend_counts_or_says_why_not() {
    let out = kogge(&["perft", "3", "--backend", "cuda"]);
    if out.status.success() {
        assert!(stdout(&out).starts_with("nodes 8902 "), "{}", stdout(&out));
    } else {
        assert_bad_input(&out, "cuda");
    }
}

#[test]
fn cpu_backend_reports_itself() {
    let out = kogge(&["perft", "2", "--backend", "cpu", "--threads", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(v["backend"], "cpu (1 threads)");
    assert_eq!(v["nodes"], 400);
}
