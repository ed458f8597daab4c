//! `kogge benchsmp --positions FILE`: the table over a file's positions (on PoCL in CI), and clear
//! errors for a file that is missing or has a bad line, before any device is looked for.

mod common;

use common::{kogge, stderr, stdout};
use kogge_gpu::testing::no_opencl_device;

/// `kogge ARGS` on PoCL's or another OpenCL device: its stdout once it succeeded, or None where
/// the machine has no OpenCL device (noted, as the other GPU tests do).
fn on_opencl(args: &[&str]) -> Option<String> {
    let out = kogge(args);
    let (text, err) = (stdout(&out), stderr(&out));
    if out.status.code() != Some(0) && err.contains("no GPU device") {
        no_opencl_device("benchsmp", &err);
        return None;
    }
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout:\n{text}\nstderr:\n{err}"
    );
    Some(text)
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("kogge-benchsmp-{}-{name}", std::process::id()));
    std::fs::write(&path, text).expect("a temporary file");
    path
}

#[test]
fn a_missing_file_is_named() {
    let out = kogge(&[
        "benchsmp",
        "--positions",
        "/no/such/file.epd",
        "--workers",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("'/no/such/file.epd'"), "{err}");
    assert!(
        err.contains("not start, bench or a readable EPD/FEN file"),
        "{err}"
    );
}

#[test]
fn a_bad_line_is_named() {
    let path = temp_file("bad.epd", "8/8/8/8/8/8/8/K1k5 w - -\nnot a position\n");
    let out = kogge(&[
        "benchsmp",
        "--positions",
        path.to_str().unwrap(),
        "--workers",
        "1",
    ]);
    std::fs::remove_file(&path).ok();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("line 2"), "{err}");
}

#[test]
fn the_table_covers_the_files_first_positions() {
    // Two endgames and a middlegame, full FEN and EPD; --count 2 takes the first two.
    let path = temp_file(
        "three.fen",
        "8/5k2/8/8/3K4/8/4P3/8 w - - 0 60\n8/8/4k3/8/8/2R5/4K3/8 b - -\nr1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n",
    );
    let text = on_opencl(&[
        "benchsmp",
        "--backend",
        "opencl",
        "--positions",
        path.to_str().unwrap(),
        "--count",
        "2",
        "--workers",
        "1",
        "--depth",
        "3",
    ]);
    std::fs::remove_file(&path).ok();
    let Some(text) = text else { return };
    assert!(text.contains("depth 3, 2 position(s)"), "{text}");
    let row = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some("1"))
        .unwrap_or_else(|| panic!("a row for one worker: {text}"));
    let nodes: u64 = row
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("nodes");
    assert!(nodes > 0, "{text}");
}

#[test]
fn zero_runs_are_refused() {
    let out = kogge(&["benchsmp", "--runs", "0", "--workers", "1"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("--runs"), "{err}");
}

#[test]
fn json_rows_average_runs_for_several_workers_and_give_each_position() {
    let Some(text) = on_opencl(&[
        "benchsmp",
        "--backend",
        "opencl",
        "--positions",
        "bench",
        "--count",
        "3",
        "--workers",
        "1,2",
        "--depth",
        "3",
        "--runs",
        "2",
        "--json",
    ]) else {
        return;
    };
    let rows: Vec<serde_json::Value> = text
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    let number = |row: &serde_json::Value, name: &str| -> f64 {
        row[name]
            .as_f64()
            .unwrap_or_else(|| panic!("no {name} in {row}"))
    };
    let numbers = |row: &serde_json::Value, name: &str| -> Vec<f64> {
        row[name]
            .as_array()
            .unwrap_or_else(|| panic!("no {name} in {row}"))
            .iter()
            .map(|v| v.as_f64().expect("a number"))
            .collect()
    };
    // One worker's search is deterministic: searched once.
    assert_eq!(number(&rows[0], "workers"), 1.0);
    assert_eq!(number(&rows[0], "runs"), 1.0);
    assert_eq!(number(&rows[1], "workers"), 2.0);
    assert_eq!(number(&rows[1], "runs"), 2.0);
    for row in &rows {
        let (min, mean, max) = (
            number(row, "seconds_min"),
            number(row, "seconds"),
            number(row, "seconds_max"),
        );
        // Printed to 0.1 ms each: the mean lies between the runs up to that rounding.
        assert!(min <= mean + 1e-4 && mean <= max + 1e-4, "{row}");
        let (seconds, nodes) = (
            numbers(row, "position_seconds"),
            numbers(row, "position_nodes"),
        );
        assert_eq!(seconds.len(), 3, "{row}");
        assert_eq!(nodes.len(), 3, "{row}");
        assert!(nodes.iter().all(|&n| n > 0.0), "{row}");
        // The positions' means sum to the run's mean, up to each figure's rounding.
        assert!((seconds.iter().sum::<f64>() - mean).abs() <= 4e-4, "{row}");
        assert!(
            (nodes.iter().sum::<f64>() - number(row, "nodes")).abs() <= 2.0,
            "{row}"
        );
    }
    // One worker's three distinct positions do not all give the same nodes (no position's
    // figure another's copy by a slip in the indexing).
    let one = numbers(&rows[0], "position_nodes");
    assert!(one[0] != one[1] || one[1] != one[2], "{}", rows[0]);
}
