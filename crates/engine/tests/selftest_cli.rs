//! `kogge selftest`: the GPU kernels checked on the device the machine has (PoCL in CI), and
//! clear errors for bad arguments. Under `CI=true` a missing OpenCL device fails the test.

mod common;

use common::{kogge, stderr, stdout};
use kogge_gpu::testing::no_opencl_device;

#[test]
fn opencl_selftest_passes() {
    let out = kogge(&["selftest", "--backend", "opencl", "--max-nodes", "5000"]);
    let (text, err) = (stdout(&out), stderr(&out));
    if out.status.code() == Some(2) && err.contains("needs a CUDA or OpenCL device") {
        no_opencl_device("selftest", &err);
        return;
    }
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout:\n{text}\nstderr:\n{err}"
    );
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("selftest on opencl "), "{text}");
    // One line per group: three perft suites, five suites and the playouts for the evaluation.
    let groups: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("movegen ") || l.starts_with("eval "))
        .collect();
    assert_eq!(groups.len(), 3 + 6, "{text}");
    for group in &groups {
        assert!(group.contains(" 0 failed"), "{group}");
        assert!(!group.contains(" 0 passed"), "{group}");
    }
    let total = lines.last().expect("a total line");
    let (passed, failed) = total
        .split_once(" passed, ")
        .unwrap_or_else(|| panic!("total line: {total}"));
    assert_eq!(failed, "0 failed", "{text}");
    let passed: u64 = passed.parse().expect("a count");
    // Every suite position twice (movegen and eval) at least.
    assert!(passed > 2 * 7925, "{text}");
}

#[test]
fn bad_arguments_are_clear_errors() {
    for (args, mention) in [
        (vec!["selftest", "--backend", "metal"], "metal"),
        (vec!["selftest", "--max-nodes", "0"], "--max-nodes"),
        (
            vec!["selftest", "--data", "/nonexistent/kogge-data"],
            "/nonexistent/kogge-data",
        ),
    ] {
        let out = kogge(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(stdout(&out).is_empty(), "{args:?}: {}", stdout(&out));
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        assert!(err.contains(mention), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_device_that_does_not_exist_is_bad_input() {
    let out = kogge(&["selftest", "--backend", "opencl", "--device", "99"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: selftest needs a CUDA or OpenCL device"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}
