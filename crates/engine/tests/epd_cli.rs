//! `kogge epd`: the strength test on small files: passes, failures, skips, the closing line and
//! the exit status.

mod common;

use common::{kogge, stderr, stdout};
use std::path::{Path, PathBuf};

/// A file in Cargo's scratch directory for integration tests, unique to the test.
fn scratch_file(name: &str, contents: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, contents).expect("the scratch file is written");
    path
}

/// A back-rank mate in one, and a position where the rook must take the queen rather than step
/// into it.
const EASY: &str = "\
6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; id \"mate in one\";
4k3/8/8/3q4/8/8/3R4/4K3 w - - am Rd4 Rd3; id \"avoid\";
";

fn run(file: &Path, extra: &[&str]) -> std::process::Output {
    let path = file.to_str().expect("a UTF-8 path");
    let mut args = vec!["epd", path, "--depth", "6"];
    args.extend_from_slice(extra);
    kogge(&args)
}

#[test]
fn easy_positions_pass() {
    let file = scratch_file("epd_easy.epd", EASY);
    let out = run(&file, &[]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with("mate in one  pass  Rd8#"), "{text}");
    assert!(lines[0].contains("bm Rd8#"), "{text}");
    assert!(lines[0].contains("#1"), "{text}");
    assert!(lines[1].starts_with("avoid        pass  Rxd5"), "{text}");
    assert!(lines[1].contains("am Rd4 Rd3"), "{text}");
    assert!(lines[2].starts_with("nodes "), "{text}");
    assert_eq!(lines[3], "2 passed, 0 failed");
}

#[test]
fn failures_skips_and_min_pass() {
    // The first line's `bm` is a blunder the search will not play; the last has nothing to
    // check.
    let text = format!(
        "{EASY}4k3/8/8/3q4/8/8/3R4/4K3 w - - bm Rd4; id \"blunder\";\n\
         # a comment\n\
         4k3/8/8/8/8/8/8/4K2R w K - id \"nothing\";\n"
    );
    let file = scratch_file("epd_mixed.epd", &text);
    let out = run(&file, &[]);
    // Failing positions are the test's result, not an error.
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("blunder      FAIL  Rxd5"), "{text}");
    assert!(text.contains("nothing      skip  no bm or am"), "{text}");
    assert_eq!(
        text.lines().last(),
        Some("2 passed, 1 failed, 1 skipped"),
        "{text}"
    );

    let out = run(&file, &["--min-pass", "3"]);
    assert_eq!(out.status.code(), Some(1), "stderr: {}", stderr(&out));
    let out = run(&file, &["--min-pass", "2"]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
}

#[test]
fn a_bad_line_or_move_is_skipped() {
    let text = "not an epd line\n6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Qd8#;\n";
    let file = scratch_file("epd_bad.epd", text);
    let out = run(&file, &[]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("line 1       skip  cannot parse"), "{text}");
    assert!(text.contains("line 2       skip  bm 'Qd8#'"), "{text}");
    assert_eq!(
        text.lines().last(),
        Some("0 passed, 0 failed, 2 skipped"),
        "{text}"
    );
}

#[test]
fn missing_file_is_bad_input() {
    let out = kogge(&["epd", "/nonexistent/kogge/suite.epd"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).is_empty());
    assert!(stderr(&out).starts_with("error: cannot read EPD file"));
}

#[test]
fn wac_first_ten_at_200_ms() {
    let wac = kogge_chess::testdata::read("wac.epd");
    let first_ten: String = wac.lines().take(10).map(|l| format!("{l}\n")).collect();
    let file = scratch_file("epd_wac10.epd", &first_ten);
    let path = file.to_str().expect("a UTF-8 path");
    let out = kogge(&["epd", path, "--movetime", "200"]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 12, "{text}");
    assert!(text.starts_with("WAC.001 "), "{text}");
    let last = text.lines().last().expect("a closing line");
    let passed: usize = last
        .split(" passed, ")
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("N passed, N failed: {last}"));
    // A smoke test of the whole path, not a strength threshold: these ten are easy, and even a
    // slow machine under load finds most of them in 200 ms.
    assert!(passed >= 6, "{text}");
}

#[test]
fn a_node_limit_gives_the_same_result_every_time() {
    // One thread and a fixed node count: the search is deterministic, whatever the machine's
    // load, so two runs print the same lines (less the timing).
    let wac = kogge_chess::testdata::read("wac.epd");
    let first_three: String = wac.lines().take(3).map(|l| format!("{l}\n")).collect();
    let file = scratch_file("epd_wac3_nodes.epd", &first_three);
    let path = file.to_str().expect("a UTF-8 path");
    let run = || {
        let out = kogge(&["epd", path, "--nodes", "30000"]);
        assert!(out.status.success(), "stderr: {}", stderr(&out));
        stdout(&out)
    };
    let (a, b) = (run(), run());
    let searched = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("nodes "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(searched(&a), searched(&b));
    assert_eq!(a.lines().count(), 5, "{a}");
    // The node counts of the two runs match too, and the limit holds (checked every 1024
    // nodes, so a search may pass it by that much).
    let nodes = |text: &str| -> u64 {
        let line = text
            .lines()
            .find(|l| l.starts_with("nodes "))
            .expect("a nodes line");
        line.split_whitespace()
            .nth(1)
            .and_then(|n| n.parse().ok())
            .expect("a count")
    };
    assert_eq!(nodes(&a), nodes(&b));
    assert!(nodes(&a) <= 3 * (30_000 + 1024), "{a}");

    let out = kogge(&["epd", path, "--nodes", "0"]);
    assert_eq!(out.status.code(), Some(2));
}
