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

/// A test that needs an OpenCL device (PoCL in CI) found none: under `CI=true` that fails the
/// test; elsewhere it says on stderr what was not tested, and the caller returns.
pub fn no_opencl_device(what: &str, detail: &str) {
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "no OpenCL device in CI: {detail}"
    );
    eprintln!("note: no OpenCL device, {what} not run: {detail}");
}
