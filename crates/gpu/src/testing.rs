//! For the device tests of this crate and of the crates built on it: the devices to test on, and
//! CI's rule. CI has no GPU, but its test script installs PoCL, so an OpenCL device must be
//! there: a test that finds none fails in CI, and elsewhere says what it did not test.

use crate::{BackendKind, Device, DeviceList, list_devices};

/// Whether this is a CI run (`CI=true` or `CI=1`, as CI services set it).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
}

/// A test that needs an OpenCL device found none (`detail` says what it saw): in CI this fails
/// the test; elsewhere it notes on stderr that `what` was not tested, and the caller goes on
/// without it.
pub fn no_opencl_device(what: &str, detail: &str) {
    assert!(
        !in_ci(),
        "no OpenCL device in CI (PoCL should be installed): {detail}"
    );
    eprintln!("note: no OpenCL device, {what} not tested here: {detail}");
}

/// Every device of every backend, opened, each named on stderr: PoCL where there is no GPU, a
/// CUDA device as well where there is one. Without an OpenCL device, [`no_opencl_device`]'s
/// rule; a device listed but failing to open fails the test in CI and is noted and left out
/// elsewhere.
pub fn open_devices(what: &str) -> Vec<Device> {
    let list = list_devices();
    if !list
        .devices
        .iter()
        .any(|d| d.backend == BackendKind::OpenCl)
    {
        no_opencl_device(what, &problems(&list));
    }
    let mut devices = Vec::new();
    for info in &list.devices {
        let name = format!(
            "{} {} {} ({})",
            info.backend, info.index, info.name, info.platform
        );
        match Device::open(info) {
            Ok(device) => {
                eprintln!("{what}: {name}");
                devices.push(device);
            }
            Err(e) => {
                assert!(!in_ci(), "{what}: opening {name}: {e}");
                eprintln!("note: {what}: cannot open {name}: {e}");
            }
        }
    }
    devices
}

/// Why the backends found no device, in one line.
fn problems(list: &DeviceList) -> String {
    if list.problems.is_empty() {
        return "no problems reported".into();
    }
    list.problems
        .iter()
        .map(|(_, e)| e.to_string()) // each error names its backend
        .collect::<Vec<_>>()
        .join("; ")
}
