//! `kogge devices`: exits 0 whatever the machine has, and says why a backend has no device.

mod common;

use common::{kogge, stdout};

#[test]
fn table_lists_devices_or_problems() {
    let out = kogge(&["devices"]);
    let text = stdout(&out);
    assert_eq!(
        out.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    let has_devices = text.lines().next().is_some_and(|l| l.contains("backend"));
    if has_devices {
        // Exactly one default, marked with `*`.
        let marked = text.lines().filter(|l| l.starts_with("* ")).count();
        assert_eq!(marked, 2, "one device row and the legend: {text}");
    } else {
        assert!(text.starts_with("no compute device found"), "{text}");
    }
    // Every problem (a backend with no device) is on a line of its own after the table.
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&kogge(&["devices", "--json"]))).expect("JSON");
    let problems = json["problems"].as_array().expect("a problems array");
    assert_eq!(text.contains("problems:\n"), !problems.is_empty(), "{text}");
    for problem in problems {
        let error = problem["error"].as_str().expect("an error string");
        assert!(
            text.contains(&error.replace('\n', " ")),
            "{error} in {text}"
        );
    }
}

#[test]
fn json_has_devices_default_and_problems() {
    let out = kogge(&["devices", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let value: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("one JSON object");
    let devices = value["devices"].as_array().expect("a devices array");
    let problems = value["problems"].as_array().expect("a problems array");
    assert!(!devices.is_empty() || !problems.is_empty());
    let defaults = devices.iter().filter(|d| d["default"] == true).count();
    assert_eq!(defaults, usize::from(!devices.is_empty()));
    for d in devices {
        for key in ["backend", "name", "platform"] {
            assert!(d[key].is_string(), "{key} in {d}");
        }
        for key in [
            "index",
            "compute_units",
            "memory_bytes",
            "max_alloc_bytes",
            "clock_mhz",
            "warp_size",
        ] {
            assert!(d[key].is_u64(), "{key} in {d}");
        }
    }
    if !devices.is_empty() {
        assert_eq!(
            value["default"]["backend"],
            devices.iter().find(|d| d["default"] == true).unwrap()["backend"]
        );
    }
}
