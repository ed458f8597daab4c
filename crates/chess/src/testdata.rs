//! The shared test data (`../shared/data` beside the checkout: perft suites, WAC, openings),
//! located from this crate's source directory, never from the current directory. For tests and
//! tools run from a source checkout.

use std::path::PathBuf;

/// The path of a file in the shared data folder.
pub fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data")
        .join(name)
}

/// The text of a file in the shared data folder; panics with the path if it cannot be read
/// (tests want the loud failure).
pub fn read(name: &str) -> String {
    let p = path(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The position part (the text before the first ';') of every non-blank line of an EPD file.
pub fn fens(name: &str) -> Vec<String> {
    read(name)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(';').next().unwrap_or("").trim().to_string())
        .collect()
}
