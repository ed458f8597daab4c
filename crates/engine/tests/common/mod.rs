//! Running the `kogge` binary from the integration tests.

// Each test binary compiles this module and uses a subset of it.
#![allow(dead_code)]

use std::process::{Command, Output};

pub fn kogge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kogge"))
        .args(args)
        .output()
        .expect("the kogge binary runs")
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}
