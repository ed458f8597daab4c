//! Replays the fuzz corpus (`fuzz/corpus/fen_epd/`, kept in git) through the same checks as the
//! libFuzzer target, so that every input the fuzzer found interesting, and every crash it was
//! once fixed for, is tested on stable in CI without cargo-fuzz or nightly.

use kogge_chess::fuzzing::check_fen_epd_input;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/fen_epd")
}

#[test]
fn fuzz_corpus_replays_cleanly() {
    let dir = corpus_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    assert!(
        files.len() >= 10,
        "only {} corpus files in {}",
        files.len(),
        dir.display()
    );

    // Every file runs even after a failure, so that one report names all the failing inputs.
    let mut failures = Vec::new();
    for path in &files {
        let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if catch_unwind(AssertUnwindSafe(|| check_fen_epd_input(&data))).is_err() {
            failures.push(format!(
                "{}: {:?}",
                path.display(),
                String::from_utf8_lossy(&data)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus inputs fail:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
