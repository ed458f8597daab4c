//! `kogge bench`: the Stockfish-style totals on stdout, and the same node count on every run.

mod common;

use common::{kogge, stderr, stdout};

/// The node count of a bench run, after checking the five closing lines.
fn bench_nodes(depth: &str) -> u64 {
    let out = kogge(&["bench", depth]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "stdout: {text}");
    assert_eq!(lines[0], "===========================");
    assert!(lines[1].starts_with("Total time (ms) : "), "{text}");
    assert!(lines[3].starts_with("Nodes/second    : "), "{text}");
    let nodes: u64 = lines[2]
        .strip_prefix("Nodes searched  : ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a node count: {text}"));
    // The last line, for testing frameworks: `N nodes R nps`.
    let last: Vec<&str> = lines[4].split(' ').collect();
    assert_eq!(last.len(), 4, "{text}");
    assert_eq!((last[1], last[3]), ("nodes", "nps"), "{text}");
    assert_eq!(last[0].parse::<u64>().ok(), Some(nodes), "{text}");
    assert!(last[2].parse::<u64>().is_ok(), "{text}");
    nodes
}

#[test]
fn same_node_count_twice() {
    let first = bench_nodes("4");
    assert!(first > 0);
    assert_eq!(bench_nodes("4"), first);
}

#[test]
fn progress_goes_to_stderr() {
    let out = kogge(&["bench", "2"]);
    assert!(out.status.success());
    assert!(stderr(&out).contains("position  1/"), "{}", stderr(&out));
}

#[test]
fn bad_depth_is_bad_input() {
    for depth in ["0", "x", "999"] {
        let out = kogge(&["bench", depth]);
        assert_eq!(out.status.code(), Some(2), "bench {depth}");
        assert!(stdout(&out).is_empty());
    }
}
