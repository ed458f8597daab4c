//! Shared by the integration tests: run one test body on every device there is.

use kogge_gpu::{BackendKind, Device, DeviceList, list_devices};

/// The kernel that exercises every prelude macro (tests/kernels/prelude_check.cl).
pub const PRELUDE_CHECK: &str = include_str!("../kernels/prelude_check.cl");

/// Work-group size of the prelude check (its GROUP define).
pub const GROUP: usize = 64;

/// Whether this is a CI run (`CI=true`, as CI services set it).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
}

/// Runs `body` on every device of every backend, opening each in turn.
///
/// Without devices the test passes with a note, except in CI, where the test script installs
/// PoCL: there a missing OpenCL device fails the test. CUDA devices are used when present.
pub fn for_each_device(test: &str, body: impl Fn(&Device)) {
    let list = list_devices();
    let opencl = list
        .devices
        .iter()
        .any(|d| d.backend == BackendKind::OpenCl);
    if in_ci() && !opencl {
        panic!(
            "{test}: CI=true but no OpenCL device (PoCL should be installed): {}",
            problems(&list)
        );
    }
    if list.devices.is_empty() {
        eprintln!(
            "note: {test}: no GPU or OpenCL device here, nothing tested ({})",
            problems(&list)
        );
        return;
    }
    for info in &list.devices {
        eprintln!(
            "{test}: {} {} {} ({})",
            info.backend, info.index, info.name, info.platform
        );
        let device = Device::open(info)
            .unwrap_or_else(|e| panic!("{test}: opening {} {}: {e}", info.backend, info.index));
        body(&device);
    }
}

fn problems(list: &DeviceList) -> String {
    if list.problems.is_empty() {
        return "no problems reported".into();
    }
    list.problems
        .iter()
        .map(|(_, e)| e.to_string())
        .collect::<Vec<_>>()
        .join("; ")
}
