//! `kogge devices`: every compute device of every backend (CUDA, OpenCL), the one GPU commands
//! (selftest, benchsmp) take when none is named (marked `*`), and why a backend has none
//! ("cuda: libcuda.so not found ...").
//!
//! Always exits 0: having no GPU is an answer, not an error.

use anyhow::Result;
use clap::Args;
use kogge_gpu::{DeviceInfo, DeviceList, choose, list_devices};
use serde_json::{Value, json};
use std::io::{self, Write};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct DevicesArgs {
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &DevicesArgs) -> Result<ExitCode> {
    let list = list_devices();
    let picked = choose(&list, None, None).ok();
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer(&mut out, &to_json(&list, picked.as_ref()))?;
        writeln!(out)?;
    } else {
        write_table(&mut out, &list, picked.as_ref())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn is_picked(device: &DeviceInfo, picked: Option<&DeviceInfo>) -> bool {
    picked.is_some_and(|p| p.backend == device.backend && p.index == device.index)
}

fn gib(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / f64::from(1u32 << 30))
}

fn write_table(
    out: &mut impl Write,
    list: &DeviceList,
    picked: Option<&DeviceInfo>,
) -> io::Result<()> {
    if list.devices.is_empty() {
        writeln!(out, "no compute device found")?;
    } else {
        let header = [
            "backend",
            "index",
            "name",
            "platform",
            "units",
            "memory GiB",
            "max buffer GiB",
            "clock MHz",
            "warp",
            "type",
        ];
        let rows: Vec<[String; 10]> = list
            .devices
            .iter()
            .map(|d| {
                [
                    d.backend.to_string(),
                    d.index.to_string(),
                    d.name.clone(),
                    d.platform.clone(),
                    d.compute_units.to_string(),
                    gib(d.memory_bytes),
                    gib(d.max_alloc_bytes),
                    d.clock_mhz.to_string(),
                    d.warp_size.to_string(),
                    if d.is_cpu { "CPU" } else { "GPU" }.to_string(),
                ]
            })
            .collect();
        let mut widths = header.map(str::len);
        for row in &rows {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(cell.chars().count());
            }
        }
        // Text columns to the left, numbers to the right.
        let numeric = [
            false, true, false, false, true, true, true, true, true, false,
        ];
        let line = |mark: &str, cells: &[String]| {
            let mut text = mark.to_string();
            for (i, cell) in cells.iter().enumerate() {
                let w = widths[i];
                let cell = if numeric[i] {
                    format!("{cell:>w$}")
                } else {
                    format!("{cell:<w$}")
                };
                text.push_str(&cell);
                text.push_str("  ");
            }
            text.trim_end().to_string()
        };
        let header: Vec<String> = header.iter().map(|h| h.to_string()).collect();
        writeln!(out, "{}", line("  ", &header))?;
        for (device, row) in list.devices.iter().zip(&rows) {
            let mark = if is_picked(device, picked) {
                "* "
            } else {
                "  "
            };
            writeln!(out, "{}", line(mark, row))?;
        }
        if picked.is_some() {
            writeln!(
                out,
                "* the device GPU commands (selftest, benchsmp) use when none is named; the engine \
                 searches on the CPU unless told Backend cuda or opencl"
            )?;
        }
    }
    if !list.problems.is_empty() {
        writeln!(out, "problems:")?;
        for (_, problem) in &list.problems {
            // Driver messages (build logs) can span lines; keep one problem per line.
            let one_line = problem.to_string().replace('\n', " ");
            writeln!(out, "  {one_line}")?;
        }
    }
    Ok(())
}

fn to_json(list: &DeviceList, picked: Option<&DeviceInfo>) -> Value {
    let devices: Vec<Value> = list
        .devices
        .iter()
        .map(|d| {
            json!({
                "backend": d.backend.to_string(),
                "index": d.index,
                "name": d.name,
                "platform": d.platform,
                "compute_units": d.compute_units,
                "memory_bytes": d.memory_bytes,
                "max_alloc_bytes": d.max_alloc_bytes,
                "clock_mhz": d.clock_mhz,
                "warp_size": d.warp_size,
                "is_cpu": d.is_cpu,
                "default": is_picked(d, picked),
            })
        })
        .collect();
    let problems: Vec<Value> = list
        .problems
        .iter()
        .map(|(backend, e)| json!({ "backend": backend.to_string(), "error": e.to_string() }))
        .collect();
    json!({
        "devices": devices,
        "default": picked.map(|p| json!({ "backend": p.backend.to_string(), "index": p.index })),
        "problems": problems,
    })
}
