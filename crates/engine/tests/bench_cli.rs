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

/// The node count on `Nodes searched` of a bench's stdout.
fn nodes_searched(text: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix("Nodes searched  : "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a node count: {text}"))
}

#[test]
fn the_span_table_leaves_the_count_alone_and_adds_up() {
    let plain = kogge(&["bench", "6", "--count", "3"]);
    assert!(plain.status.success(), "stderr: {}", stderr(&plain));
    let out = kogge(&["bench", "6", "--count", "3", "--span"]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    let nodes = nodes_searched(&text);
    assert_eq!(nodes, nodes_searched(&stdout(&plain)));
    assert!(stderr(&out).contains("position  3/3:"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("position  4/"), "{}", stderr(&out));
    assert!(text.contains("nodes split from depth 2"), "{text}");
    // One row per iteration, then `all`, whose nodes are the bench's and whose span is the
    // rows' sum and no more than its nodes.
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("depth"))
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 7, "{text}");
    let number = |s: &str| s.parse::<u64>().unwrap_or_else(|_| panic!("{s}: {text}"));
    let all = &rows[6];
    assert_eq!(all[0], "all");
    assert_eq!(number(all[1]), nodes);
    let span_sum: u64 = rows[..6].iter().map(|r| number(r[2])).sum();
    assert_eq!(number(all[2]), span_sum);
    assert!(span_sum > 0 && span_sum < nodes, "{text}");
}

#[test]
fn span_options_are_checked() {
    for args in [
        &["bench", "3", "--count", "0"][..],
        &["bench", "3", "--count", "999"],
        &["bench", "3", "--split-min-depth", "3"],
        &["bench", "3", "--split-limit", "4"],
        &["bench", "3", "--speculate-from", "2"],
        &["bench", "3", "--span", "--speculate-from", "0"],
        &["bench", "3", "--span", "--split-limit", "0"],
    ] {
        let out = kogge(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
}

#[test]
fn speculation_adds_its_line() {
    let out = kogge(&[
        "bench",
        "7",
        "--count",
        "2",
        "--span",
        "--speculate-from",
        "2",
    ]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("(expected all-nodes of depth 2 or more at once)"),
        "{text}"
    );
    let line = text
        .lines()
        .find(|l| l.starts_with("expected all-nodes split at once: "))
        .unwrap_or_else(|| panic!("{text}"));
    let numbers: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    // Split at once, cut by the first move, and the percentage's whole part.
    assert!(numbers.len() >= 3, "{line}");
    assert!(numbers[0] > 0 && numbers[1] <= numbers[0], "{line}");
}
