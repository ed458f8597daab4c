//! Fixed costs of each device, the numbers that decide how often the host may talk to it:
//! opening, building a small kernel, one launch + synchronize, one 8-byte read.
//!
//! `cargo run --release -p kogge-gpu --example latency`

use kogge_gpu::{Arg, Device, GpuError, list_devices};
use std::time::{Duration, Instant};

const KERNEL: &str = "KERNEL void bump(GLOBAL u64* counter, u32 n) {
    if (GLOBAL_ID() < n) { ATOMIC_ADD_U64(counter, 1); }
}";

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

fn main() -> Result<(), GpuError> {
    let list = list_devices();
    for (_, problem) in &list.problems {
        println!("problem: {problem}");
    }
    println!(
        "{:<8} {:>5}  {:<48} {:>9} {:>9} {:>12} {:>10}",
        "backend", "index", "name", "open ms", "build ms", "launch+sync", "read 8 B"
    );
    for info in &list.devices {
        let start = Instant::now();
        let device = Device::open(info)?;
        let open = start.elapsed();
        let start = Instant::now();
        let module = device.build(KERNEL, &[])?;
        let build = start.elapsed();
        let bump = module.kernel("bump")?;
        let counter = device.alloc::<u64>(1)?;
        let args = [Arg::buf(&counter), Arg::U32(256)];
        let runs = 200;
        let mut launches = Vec::with_capacity(runs);
        for _ in 0..runs {
            let start = Instant::now();
            device.launch(&bump, 256, 64, &args)?;
            device.synchronize()?;
            launches.push(start.elapsed());
        }
        let mut reads = Vec::with_capacity(runs);
        let mut value = [0u64];
        for _ in 0..runs {
            let start = Instant::now();
            device.read(&counter, &mut value)?;
            reads.push(start.elapsed());
        }
        assert_eq!(value[0], 256 * runs as u64, "the kernel ran every time");
        println!(
            "{:<8} {:>5}  {:<48} {:>9.1} {:>9.1} {:>9.1} us {:>7.1} us",
            info.backend.to_string(),
            info.index,
            info.name,
            open.as_secs_f64() * 1e3,
            build.as_secs_f64() * 1e3,
            median(launches).as_secs_f64() * 1e6,
            median(reads).as_secs_f64() * 1e6,
        );
    }
    Ok(())
}
