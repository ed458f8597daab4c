//! The compute layer on every device there is (PoCL at least, in CI): every prelude macro
//! against the CPU, copies, and the errors that must come back as values.

mod common;

use common::{GROUP, PRELUDE_CHECK, for_each_device};
use kogge_gpu::{Arg, BackendKind, Device, GpuError, Pod, list_devices};

/// The prelude check's defines.
fn defines() -> Vec<(&'static str, String)> {
    vec![
        ("GROUP", GROUP.to_string()),
        ("SALT_CHECK", "(40 + 2)".to_string()),
    ]
}

/// Values with bits everywhere: both 32-bit halves, single bits, all ones, zero.
fn sample_values(n: usize) -> Vec<u64> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    (0..n)
        .map(|i| match i % 8 {
            0 => 0,
            1 => 1u64 << (i % 64),
            2 => u64::MAX,
            3 => 0x8000_0000_0000_0000,
            _ => {
                // splitmix64
                x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = x;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^ (z >> 31)
            }
        })
        .collect()
}

const MASKS: [u64; 4] = [
    0xFFFF_FFFF_FFFF_FFFF,
    0x0000_0000_FFFF_FFFF,
    0xFFFF_FFFF_0000_0000,
    0x8100_0000_0000_0081,
];

#[test]
fn every_prelude_macro_matches_the_cpu() {
    for_each_device("every_prelude_macro_matches_the_cpu", |device| {
        let module = device
            .build(PRELUDE_CHECK, &defines())
            .unwrap_or_else(|e| panic!("{e}"));
        let kernel = module.kernel("prelude_check").unwrap();
        // Four groups, the last one partly idle: n is not a multiple of GROUP.
        let groups = 4;
        let global = groups * GROUP;
        let n = global - 13;
        let salt = 0x0123_4567_89AB_CDEFu64;
        let offset = -7i32;
        let values = sample_values(n);

        let values_buf = device.upload(&values).unwrap();
        let bits = device.alloc::<u32>(global * 5).unwrap();
        let ids = device.alloc::<u32>(global * 7).unwrap();
        let sums = device.alloc::<u64>(groups).unwrap();
        let total64 = device.alloc::<u64>(2).unwrap();
        let total32 = device.alloc::<u32>(2).unwrap();
        let misc = device.alloc::<i32>(12).unwrap();
        device
            .launch(
                &kernel,
                global,
                GROUP,
                &[
                    Arg::buf(&values_buf),
                    Arg::U32(n as u32),
                    Arg::U64(salt),
                    Arg::I32(offset),
                    Arg::buf(&bits),
                    Arg::buf(&ids),
                    Arg::buf(&sums),
                    Arg::buf(&total64),
                    Arg::buf(&total32),
                    Arg::buf(&misc),
                ],
            )
            .unwrap();
        device.synchronize().unwrap();

        let salted: Vec<u64> = values.iter().map(|v| v ^ salt).collect();
        let mut got = vec![0u32; global * 5];
        device.read(&bits, &mut got).unwrap();
        let mut tickets32 = Vec::new();
        let mut tickets64 = Vec::new();
        for (i, v) in salted.iter().enumerate() {
            let row = &got[i * 5..i * 5 + 5];
            assert_eq!(row[0], v.count_ones(), "popcount of {v:#x}");
            let ctz = if *v == 0 { 64 } else { v.trailing_zeros() };
            assert_eq!(row[1] & 0xff, ctz, "ctz of {v:#x}");
            let high = (*v >> 32) as u32;
            let ctz32 = if high == 0 { 32 } else { high.trailing_zeros() };
            assert_eq!((row[1] >> 8) & 0xff, ctz32, "32-bit ctz of {high:#x}");
            let low = *v as u32;
            assert_eq!(
                row[1] >> 16,
                low.count_ones(),
                "32-bit popcount of {low:#x}"
            );
            assert_eq!(row[2], (v & MASKS[i % 4]).count_ones(), "masked popcount");
            tickets32.push(row[3]);
            tickets64.push(row[4]);
        }
        tickets32.sort_unstable();
        tickets64.sort_unstable();
        let expected: Vec<u32> = (0..n as u32).collect();
        assert_eq!(
            tickets32, expected,
            "ATOMIC_ADD_U32 must return the old value"
        );
        assert_eq!(
            tickets64, expected,
            "ATOMIC_ADD_U64 must return the old value"
        );

        let mut got_ids = vec![0u32; global * 7];
        device.read(&ids, &mut got_ids).unwrap();
        let votes = got_ids[5];
        assert!(votes <= 1, "WARP_VOTES is {votes}");
        // The kernel's vote: every lane of an even-numbered 32-thread block holds, lane 5 of an
        // odd one fails. With votes, a warp (32 lanes on CUDA) agrees on the AND of its lanes;
        // without, each thread keeps its own.
        let holds = |gid: usize| (gid / 32) % 2 == 0 || gid % 32 != 5;
        for gid in 0..global {
            let all = if votes == 1 {
                (gid / 32 * 32..gid / 32 * 32 + 32).all(holds)
            } else {
                holds(gid)
            };
            let expected = [
                gid as u32,
                (gid % GROUP) as u32,
                (gid / GROUP) as u32,
                groups as u32,
                GROUP as u32,
                votes,
                all as u32,
            ];
            assert_eq!(got_ids[gid * 7..gid * 7 + 7], expected, "thread {gid}");
        }

        let mut got_sums = vec![0u64; groups];
        device.read(&sums, &mut got_sums).unwrap();
        for (g, got) in got_sums.iter().enumerate() {
            let expected = salted
                .iter()
                .skip(g * GROUP)
                .take(GROUP)
                .fold(0u64, |a, v| a.wrapping_add(*v));
            assert_eq!(*got, expected, "LOCAL + BARRIER reduction of group {g}");
        }

        let mut totals64 = [0u64; 2];
        device.read(&total64, &mut totals64).unwrap();
        let sum = salted.iter().fold(0u64, |a, v| a.wrapping_add(*v));
        assert_eq!(totals64[0], sum, "ATOMIC_ADD_U64 total");
        assert_eq!(totals64[1], (n as u64) << 40);
        let mut totals32 = [0u32; 2];
        device.read(&total32, &mut totals32).unwrap();
        let pops: u32 = salted.iter().map(|v| v.count_ones()).sum();
        assert_eq!(totals32, [pops, n as u32], "ATOMIC_ADD_U32 totals");

        let mut got_misc = [0i32; 12];
        device.read(&misc, &mut got_misc).unwrap();
        assert_eq!(got_misc[..9], [8, 8, 4, 4, 2, 1, offset - 1, 42, -11]);
        // ATOMIC_MAX_I32 over signed values (from 0, the buffer's start); one CAS winner.
        let max = salted
            .iter()
            .map(|v| (v & 0xffff) as i32 - 30000)
            .max()
            .unwrap()
            .max(0);
        assert_eq!(got_misc[9], max, "ATOMIC_MAX_I32");
        assert!(
            (1..=n as i32).contains(&got_misc[10]),
            "ATOMIC_CAS_U32 winner {}",
            got_misc[10]
        );
        assert_eq!(
            got_misc[11], 1,
            "ATOMIC_CAS_U32 must let exactly one thread swap"
        );
    });
}

#[test]
fn warp_collectives_match_the_cpu_where_the_prelude_has_them() {
    for_each_device("warp_collectives_match_the_cpu", |device| {
        let module = device
            .build(PRELUDE_CHECK, &defines())
            .unwrap_or_else(|e| panic!("{e}"));
        let kernel = module.kernel("warp_check").unwrap();
        let warps = 4;
        let n = warps * 32;
        let values: Vec<u32> = sample_values(n)
            .iter()
            .map(|v| (*v as u32) % 5000)
            .collect();
        let values_buf = device.upload(&values).unwrap();
        let out = device.alloc::<u32>(n * 6).unwrap();
        device
            .launch(&kernel, n, 32, &[Arg::buf(&values_buf), Arg::buf(&out)])
            .unwrap();
        device.synchronize().unwrap();
        let mut got = vec![0u32; n * 6];
        device.read(&out, &mut got).unwrap();
        let has = got[0];
        // CUDA has them; OpenCL keeps the shared memory paths (prelude_opencl.h says why).
        let expected_has = u32::from(device.info().backend == BackendKind::Cuda);
        assert_eq!(
            has,
            expected_has,
            "WARP_COLLECTIVES on {:?}",
            device.info().backend
        );
        if has == 0 {
            return;
        }
        for (w, warp) in values.chunks(32).enumerate() {
            let ballot = warp
                .iter()
                .enumerate()
                .fold(0u32, |m, (i, v)| m | ((v & 1) << i));
            let sum = warp.iter().map(|v| *v as i32 - 1000).sum::<i32>() as u32;
            let or = warp.iter().fold(0u32, |m, v| m | (1 << (v % 32)));
            for lane in 0..32 {
                let gid = w * 32 + lane;
                let prefix: u32 = warp[..=lane].iter().sum();
                let expected = [1, ballot, sum, or, prefix, warp[31]];
                assert_eq!(got[gid * 6..gid * 6 + 6], expected, "thread {gid}");
            }
        }
    });
}

/// A struct crossing to the device, as the perft and search drivers will have.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
struct Entry {
    key: u64,
    count: u32,
    depth: u16,
    flags: u16,
}
// SAFETY: repr(C), integer fields, 8 + 4 + 2 + 2 = 16 bytes with no padding.
unsafe impl Pod for Entry {}
const _: () = assert!(std::mem::size_of::<Entry>() == 16);

fn round_trip<T: Pod + PartialEq + std::fmt::Debug + Default>(device: &Device, data: &[T]) {
    let buffer = device.upload(data).unwrap();
    assert_eq!(buffer.len(), data.len());
    let mut back = vec![T::default(); data.len()];
    device.read(&buffer, &mut back).unwrap();
    assert_eq!(back, data);
    // A partial read takes the start.
    let mut head = vec![T::default(); data.len() / 2];
    device.read(&buffer, &mut head).unwrap();
    assert_eq!(head, data[..data.len() / 2]);
    // A read from an offset takes the values from there (one bucket of a table).
    let mut tail = vec![T::default(); data.len() / 3];
    let from = data.len() - tail.len();
    device.read_at(&buffer, from, &mut tail).unwrap();
    assert_eq!(tail, data[from..]);
}

#[test]
fn uploads_read_back_unchanged() {
    for_each_device("uploads_read_back_unchanged", |device| {
        round_trip(device, &sample_values(1000));
        round_trip(device, &[1u8, 2, 3, 255, 0, 7, 9]);
        round_trip(device, &[-1i32, i32::MIN, i32::MAX, 0, 5]);
        round_trip(device, &[u16::MAX, 1, 2]);
        let entries: Vec<Entry> = (0..300u32)
            .map(|i| Entry {
                key: u64::from(i).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                count: i * 3,
                depth: (i % 20) as u16,
                flags: 0xA5A5,
            })
            .collect();
        round_trip(device, &entries);

        // alloc zeroes; write overwrites the start only.
        let mut buffer = device.alloc::<u64>(8).unwrap();
        let mut back = [1u64; 8];
        device.read(&buffer, &mut back).unwrap();
        assert_eq!(back, [0; 8], "alloc must zero the memory");
        device.write(&mut buffer, &[5, 6, 7]).unwrap();
        device.read(&buffer, &mut back).unwrap();
        assert_eq!(back, [5, 6, 7, 0, 0, 0, 0, 0]);

        // Empty buffers are fine.
        let empty = device.alloc::<u32>(0).unwrap();
        assert!(empty.is_empty());
        device.read(&empty, &mut []).unwrap();

        // Too long a copy is an error, not a crash.
        assert!(matches!(
            device.write(&mut buffer, &[0u64; 9]),
            Err(GpuError::BadArgument(_))
        ));
        let mut too_long = [0u64; 9];
        assert!(matches!(
            device.read(&buffer, &mut too_long),
            Err(GpuError::BadArgument(_))
        ));
        // As is a read from an offset past the end, or one running over it.
        let mut two = [0u64; 2];
        for offset in [7, 8, usize::MAX] {
            assert!(
                matches!(
                    device.read_at(&buffer, offset, &mut two),
                    Err(GpuError::BadArgument(_))
                ),
                "offset {offset}"
            );
        }
        device.read_at(&buffer, 6, &mut two).unwrap();
        assert_eq!(two, [0, 0]);
        device.read_at(&buffer, 1, &mut two).unwrap();
        assert_eq!(two, [6, 7]);
    });
}

#[test]
fn buffers_past_two_gib_are_zeroed() {
    // NVIDIA's OpenCL fill fails past 2 GiB into a buffer, so larger buffers are zeroed by a
    // kernel (opencl.rs). Fill a 2 GiB + 1 MiB buffer with ones, free it, and check that a new
    // one of the same size (most likely the same memory) reads back as zeros, at both ends.
    const WORDS: usize = ((1 << 31) + (1 << 20)) / 8;
    for_each_device("buffers_past_two_gib_are_zeroed", |device| {
        let info = device.info();
        if info.max_alloc_bytes < (WORDS * 8) as u64 || info.memory_bytes < 16 << 30 {
            eprintln!("note: {} has too little memory for this test", info.name);
            return;
        }
        let ones = vec![u64::MAX; WORDS];
        let mut buffer = device.alloc::<u64>(WORDS).unwrap();
        device.write(&mut buffer, &ones).unwrap();
        drop(buffer);
        drop(ones);
        let buffer = device.alloc::<u64>(WORDS).unwrap();
        let mut back = vec![1u64; WORDS];
        device.read(&buffer, &mut back).unwrap();
        assert!(
            back.iter().all(|&w| w == 0),
            "alloc must zero the whole buffer"
        );
    });
}

#[test]
fn compile_errors_carry_the_compiler_log() {
    for_each_device("compile_errors_carry_the_compiler_log", |device| {
        let source = "KERNEL void broken(GLOBAL u32* out) {\n    out[0] = undefined_name_xyz;\n}\n";
        match device.build(source, &[]) {
            Err(GpuError::Compile { backend, log }) => {
                assert_eq!(backend, device.info().backend);
                assert!(log.contains("undefined_name_xyz"), "log: {log}");
                // Lines count from the caller's source (#line; rebased for NVIDIA's OpenCL).
                let location = match backend {
                    BackendKind::Cuda => "kernel(2)",
                    BackendKind::OpenCl => "kernel:2:",
                };
                assert!(log.contains(location), "log: {log}");
            }
            Err(e) => panic!("expected a compile error, got {e}"),
            Ok(_) => panic!("a kernel with an undefined name compiled"),
        }
        let syntax = "KERNEL void broken(GLOBAL u32* out) { out[0] = ; }";
        assert!(matches!(
            device.build(syntax, &[]),
            Err(GpuError::Compile { .. })
        ));
    });
}

const TINY: &str = "KERNEL void fill(GLOBAL u32* out, u32 value) { out[GLOBAL_ID()] = value; }";

#[test]
fn bad_launches_are_errors_not_crashes() {
    for_each_device("bad_launches_are_errors_not_crashes", |device| {
        let module = device.build(TINY, &[]).unwrap();
        assert!(matches!(
            module.kernel("no_such_kernel"),
            Err(GpuError::BadArgument(_))
        ));
        let fill = module.kernel("fill").unwrap();
        let out = device.alloc::<u32>(128).unwrap();
        let args = [Arg::buf(&out), Arg::U32(7)];

        let not_multiple = device.launch(&fill, 100, 64, &args);
        assert!(
            matches!(not_multiple, Err(GpuError::BadLaunch(_))),
            "{not_multiple:?}"
        );
        assert!(matches!(
            device.launch(&fill, 64, 0, &args),
            Err(GpuError::BadLaunch(_))
        ));
        assert!(matches!(
            device.launch(&fill, 1 << 33, 64, &args),
            Err(GpuError::BadLaunch(_))
        ));
        assert!(matches!(
            device.launch(&fill, 64, 1 << 20, &args),
            Err(GpuError::BadLaunch(_))
        ));
        // Argument checks: OpenCL always; CUDA where the driver reports parameters (12.4+).
        let too_few = device.launch(&fill, 64, 64, &args[..1]);
        assert!(
            matches!(too_few, Err(GpuError::BadLaunch(_))),
            "{too_few:?}"
        );
        let wrong_size = device.launch(&fill, 64, 64, &[Arg::buf(&out), Arg::U64(7)]);
        assert!(
            matches!(wrong_size, Err(GpuError::BadLaunch(_))),
            "{wrong_size:?}"
        );
        if device.info().backend == BackendKind::OpenCl {
            let scalar_for_buffer = device.launch(&fill, 64, 64, &[Arg::U64(0), Arg::U32(7)]);
            assert!(
                matches!(scalar_for_buffer, Err(GpuError::BadLaunch(_))),
                "{scalar_for_buffer:?}"
            );
        }

        // After all that, the device still works; and a zero-thread launch does nothing.
        device.launch(&fill, 0, 64, &args).unwrap();
        device.launch(&fill, 128, 64, &args).unwrap();
        let mut back = [0u32; 128];
        device.read(&out, &mut back).unwrap();
        assert_eq!(back, [7; 128]);
    });
}

#[test]
fn objects_of_another_device_are_refused() {
    for_each_device("objects_of_another_device_are_refused", |device| {
        let other = Device::open(device.info()).unwrap();
        let module = other.build(TINY, &[]).unwrap();
        let fill = module.kernel("fill").unwrap();
        let theirs = other.alloc::<u32>(64).unwrap();
        let mine = device.alloc::<u32>(64).unwrap();
        assert!(
            device
                .launch(&fill, 64, 64, &[Arg::buf(&mine), Arg::U32(1)])
                .is_err()
        );
        let my_fill = device.build(TINY, &[]).unwrap().kernel("fill").unwrap();
        assert!(matches!(
            device.launch(&my_fill, 64, 64, &[Arg::buf(&theirs), Arg::U32(1)]),
            Err(GpuError::BadLaunch(_))
        ));
        let mut back = [0u32; 64];
        assert!(device.read(&theirs, &mut back).is_err());
    });
}

#[test]
fn a_device_moves_to_another_thread() {
    for_each_device("a_device_moves_to_another_thread", |device| {
        let info = device.info().clone();
        let moved = Device::open(&info).unwrap();
        let result = std::thread::spawn(move || {
            let module = moved.build(TINY, &[])?;
            let fill = module.kernel("fill")?;
            let out = moved.alloc::<u32>(64)?;
            moved.launch(&fill, 64, 32, &[Arg::buf(&out), Arg::U32(3)])?;
            let mut back = [0u32; 64];
            moved.read(&out, &mut back)?;
            Ok::<_, GpuError>(back)
        })
        .join()
        .unwrap()
        .unwrap();
        assert_eq!(result, [3; 64]);
    });
}

#[test]
fn a_backend_without_devices_is_a_problem_not_a_panic() {
    let list = list_devices();
    for backend in BackendKind::ALL {
        let devices = list.devices.iter().filter(|d| d.backend == backend).count();
        let problems = list.problems.iter().filter(|(b, _)| *b == backend).count();
        eprintln!("{backend}: {devices} device(s), {problems} problem(s)");
        assert!(
            devices > 0 || problems > 0,
            "{backend}: no device and no explanation"
        );
    }
    for (i, d) in list.devices.iter().enumerate() {
        assert!(!d.name.is_empty(), "device {i} has no name");
        assert!(
            d.compute_units > 0 && d.memory_bytes > 0 && d.warp_size > 0,
            "{d:?}"
        );
    }
}
