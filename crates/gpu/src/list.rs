//! Which devices exist, and which one to use by default.

use crate::{GpuError, cuda, opencl};
use std::fmt;
use std::str::FromStr;

/// A compute backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BackendKind {
    Cuda,
    OpenCl,
}

impl BackendKind {
    pub const ALL: [BackendKind; 2] = [BackendKind::Cuda, BackendKind::OpenCl];

    /// `"cuda"` or `"opencl"`.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Cuda => "cuda",
            BackendKind::OpenCl => "opencl",
        }
    }
}

impl fmt::Display for BackendKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BackendKind {
    type Err = String;

    /// `cuda` or `opencl` (also `cl`, `ocl`), any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "cuda" => Ok(BackendKind::Cuda),
            "opencl" | "cl" | "ocl" => Ok(BackendKind::OpenCl),
            _ => Err(format!("unknown backend '{s}' (expected cuda or opencl)")),
        }
    }
}

/// What a device is, as its driver describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceInfo {
    pub backend: BackendKind,
    /// Position among the devices of its backend (CUDA ordinal; OpenCL: counting the devices of
    /// every platform in platform order).
    pub index: usize,
    pub name: String,
    /// CUDA: driver version and architecture (`"CUDA 13.0, sm_90"`); OpenCL: the platform name.
    pub platform: String,
    /// Streaming multiprocessors (CUDA), compute units (OpenCL; cores on a CPU device).
    pub compute_units: u32,
    pub memory_bytes: u64,
    /// The largest single allocation (OpenCL's MAX_MEM_ALLOC_SIZE, a quarter of the memory on
    /// NVIDIA's driver; CUDA: all of it).
    pub max_alloc_bytes: u64,
    pub clock_mhz: u32,
    pub is_cpu: bool,
    /// Threads that execute in lock step: 32 on NVIDIA, the wavefront on AMD, the preferred
    /// work-group size multiple elsewhere (8 on PoCL's CPU device).
    pub warp_size: u32,
}

/// Every device of every backend, and why a backend found none.
#[derive(Debug, Clone, Default)]
pub struct DeviceList {
    pub devices: Vec<DeviceInfo>,
    /// A backend whose library is missing or whose driver failed, e.g. `(Cuda, LibraryMissing)`.
    pub problems: Vec<(BackendKind, GpuError)>,
}

/// Lists the devices of both backends. Never panics: a backend that cannot be loaded or asked
/// is recorded in `problems` and the other backend is still listed.
pub fn list_devices() -> DeviceList {
    let mut list = DeviceList::default();
    for backend in BackendKind::ALL {
        let found = match backend {
            BackendKind::Cuda => cuda::list(),
            BackendKind::OpenCl => opencl::list(),
        };
        match found {
            Ok(devices) => list.devices.extend(devices),
            Err(e) => list.problems.push((backend, e)),
        }
    }
    list
}

/// Picks a device from `list`.
///
/// - `backend` and `index`: that device.
/// - `backend` only: the best device of that backend.
/// - `index` only: that device of the backend the default pick would use.
/// - neither: the default pick. CUDA GPUs first, then OpenCL GPUs, then OpenCL CPU devices;
///   within a class the most memory times compute units, the lowest index on a tie.
pub fn choose(
    list: &DeviceList,
    backend: Option<BackendKind>,
    index: Option<usize>,
) -> Result<DeviceInfo, GpuError> {
    let backend = match backend {
        Some(b) => Some(b),
        // An index alone belongs to the backend of the default pick.
        None if index.is_some() => best(list.devices.iter()).map(|d| d.backend),
        None => None,
    };
    let candidates = list
        .devices
        .iter()
        .filter(|d| backend.is_none_or(|b| d.backend == b));
    let picked = match index {
        Some(i) => candidates.clone().find(|d| d.index == i),
        None => best(candidates.clone()),
    };
    picked.cloned().ok_or_else(|| {
        let wanted = match (backend, index) {
            (Some(b), Some(i)) => format!("no {b} device {i}"),
            (Some(b), None) => format!("no {b} device"),
            _ => "no device found".to_string(),
        };
        let count = candidates.count();
        let mut details = Vec::new();
        if count > 0 {
            details.push(format!(
                "{count} {} device(s) exist",
                backend_label(backend)
            ));
        }
        details.extend(
            list.problems
                .iter()
                .filter(|(b, _)| backend.is_none_or(|want| *b == want))
                .map(|(_, e)| e.to_string()),
        );
        if details.is_empty() {
            GpuError::NoDevice(wanted)
        } else {
            GpuError::NoDevice(format!("{wanted} ({})", details.join("; ")))
        }
    })
}

fn backend_label(backend: Option<BackendKind>) -> &'static str {
    backend.map_or("", BackendKind::name)
}

/// The default pick among `devices`: class first (CUDA, OpenCL GPU, OpenCL CPU), then the most
/// memory times compute units, then the first listed.
fn best<'a>(devices: impl Iterator<Item = &'a DeviceInfo>) -> Option<&'a DeviceInfo> {
    let class = |d: &DeviceInfo| match (d.backend, d.is_cpu) {
        (BackendKind::Cuda, _) => 0,
        (BackendKind::OpenCl, false) => 1,
        (BackendKind::OpenCl, true) => 2,
    };
    let size = |d: &DeviceInfo| u128::from(d.memory_bytes) * u128::from(d.compute_units);
    // min_by_key keeps the first of equal keys.
    devices.min_by_key(|d| (class(d), std::cmp::Reverse(size(d))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dev(backend: BackendKind, index: usize, cpu: bool, gib: u64, units: u32) -> DeviceInfo {
        DeviceInfo {
            backend,
            index,
            name: format!("{backend}{index}"),
            platform: String::new(),
            compute_units: units,
            memory_bytes: gib << 30,
            max_alloc_bytes: gib << 30,
            clock_mhz: 1000,
            is_cpu: cpu,
            warp_size: 32,
        }
    }

    fn list(devices: Vec<DeviceInfo>) -> DeviceList {
        DeviceList {
            devices,
            problems: Vec::new(),
        }
    }

    #[test]
    fn backend_names_round_trip() {
        for b in BackendKind::ALL {
            assert_eq!(b.to_string().parse::<BackendKind>(), Ok(b));
        }
        assert_eq!("OpenCL".parse::<BackendKind>(), Ok(BackendKind::OpenCl));
        assert!("metal".parse::<BackendKind>().is_err());
    }

    #[test]
    fn default_prefers_cuda_then_opencl_gpu_then_cpu() {
        use BackendKind::*;
        let cpu = dev(OpenCl, 0, true, 512, 128);
        let small_gpu = dev(OpenCl, 1, false, 4, 8);
        let big_gpu = dev(OpenCl, 2, false, 80, 132);
        let cuda = dev(Cuda, 0, false, 16, 40);
        let all = list(vec![
            cpu.clone(),
            small_gpu.clone(),
            big_gpu.clone(),
            cuda.clone(),
        ]);
        assert_eq!(choose(&all, None, None).unwrap(), cuda);
        assert_eq!(choose(&all, Some(OpenCl), None).unwrap(), big_gpu);
        assert_eq!(choose(&all, Some(OpenCl), Some(1)).unwrap(), small_gpu);
        let no_cuda = list(vec![cpu.clone(), small_gpu.clone()]);
        assert_eq!(choose(&no_cuda, None, None).unwrap(), small_gpu);
        assert_eq!(choose(&list(vec![cpu.clone()]), None, None).unwrap(), cpu);
        // An index alone belongs to the default pick's backend.
        assert_eq!(choose(&no_cuda, None, Some(0)).unwrap(), cpu);
    }

    #[test]
    fn ties_go_to_the_lowest_index() {
        use BackendKind::*;
        let a = dev(Cuda, 0, false, 80, 132);
        let b = dev(Cuda, 1, false, 80, 132);
        assert_eq!(choose(&list(vec![a.clone(), b]), None, None).unwrap(), a);
    }

    #[test]
    fn missing_devices_are_errors_that_say_why() {
        let mut empty = list(Vec::new());
        empty.problems.push((
            BackendKind::Cuda,
            GpuError::LibraryMissing {
                backend: BackendKind::Cuda,
                library: "libcuda.so",
                hint: "no NVIDIA driver",
            },
        ));
        let e = choose(&empty, None, None).unwrap_err();
        assert!(matches!(e, GpuError::NoDevice(_)));
        assert!(e.to_string().contains("libcuda.so"), "{e}");
        let one = list(vec![dev(BackendKind::OpenCl, 0, true, 4, 2)]);
        let e = choose(&one, Some(BackendKind::OpenCl), Some(3)).unwrap_err();
        assert!(e.to_string().contains("no opencl device 3"), "{e}");
        assert!(choose(&one, Some(BackendKind::Cuda), None).is_err());
    }
}
