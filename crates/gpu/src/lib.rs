//! `kogge-gpu`: Kogge's compute layer. Every GPU detail (CUDA through `cudarc`, OpenCL through
//! `opencl3`) stays behind this small API, so the search and perft drivers above it never see a
//! backend type.
//!
//! Both backends are loaded at run time with `dlopen` (`libcuda.so`, `libnvrtc.so`,
//! `libOpenCL.so.1`): the binary builds and runs on machines with neither, and a missing library
//! is reported by [`list_devices`] as a problem, never a crash.
//!
//! ```no_run
//! use kogge_gpu::{Arg, Device, choose, list_devices};
//! # fn main() -> Result<(), kogge_gpu::GpuError> {
//! let info = choose(&list_devices(), None, None)?;
//! let device = Device::open(&info)?;
//! let source = "KERNEL void fill(GLOBAL u32* out, u32 value) { out[GLOBAL_ID()] = value + K; }";
//! let module = device.build(source, &[("K", "1".to_string())])?;
//! let fill = module.kernel("fill")?;
//! let mut out = device.alloc::<u32>(256)?;
//! device.launch(&fill, 256, 64, &[Arg::buf(&out), Arg::U32(41)])?;
//! let mut host = vec![0u32; 256];
//! device.read(&out, &mut host)?; // 42 everywhere
//! # Ok(()) }
//! ```
//!
//! # Kernels
//!
//! Kernel sources are written in the portable dialect of `kernels/prelude_cuda.h` and
//! `kernels/prelude_opencl.h` (`KERNEL`, `GLOBAL`, `LOCAL`, `GLOBAL_ID()`, `BARRIER()`,
//! `POPCOUNT64`, `ATOMIC_ADD_U64`, ...). [`Device::build`] prepends the backend's prelude and the
//! `#define`s, then compiles: NVRTC for the device's real architecture (`sm_90` on an H100, loaded
//! as a CUBIN, so no driver JIT) or the OpenCL driver with `-cl-std=CL1.2`. A `#line 1` directive
//! follows the prelude, so compiler messages count lines from the start of the caller's source.
//!
//! # Behaviour common to both backends
//!
//! - One in-order queue (CUDA stream) per [`Device`]: launches, reads and writes run in the order
//!   they were issued. [`Device::launch`] returns at once; [`Device::read`] and [`Device::write`]
//!   block until the copy is done; [`Device::synchronize`] waits for everything.
//! - Buffers are zero-filled when allocated and freed on drop.
//! - A fault inside a kernel shows up as an error of the next blocking call. On CUDA it ruins the
//!   context: open the device again.

mod cuda;
mod device;
mod error;
mod list;
mod opencl;
mod pod;
mod source;
pub mod testing;

pub use device::{AnyBuffer, Arg, Buffer, Device, Kernel, Module};
pub use error::GpuError;
pub use list::{BackendKind, DeviceInfo, DeviceList, choose, list_devices};
pub use pod::Pod;

/// The CUDA prelude (`kernels/prelude_cuda.h`), prepended to every CUDA kernel source.
pub const PRELUDE_CUDA: &str = include_str!("../kernels/prelude_cuda.h");

/// The OpenCL prelude (`kernels/prelude_opencl.h`), prepended to every OpenCL kernel source.
pub const PRELUDE_OPENCL: &str = include_str!("../kernels/prelude_opencl.h");

/// Compiles `source` with the CUDA prelude and `defines` through NVRTC for `arch` (`"sm_90"`)
/// and returns the PTX, without needing a GPU or the CUDA driver: only `libnvrtc.so` (CI gets it
/// from the `nvidia-cuda-nvrtc` wheel). Checks that a kernel compiles for CUDA on machines that
/// cannot run it. With a real architecture (`sm_XY`) the SASS is generated too, so register and
/// shared-memory limits are checked as well.
pub fn compile_cuda_for_check(
    source: &str,
    defines: &[(&str, String)],
    arch: &str,
) -> Result<String, GpuError> {
    let full = source::assemble(BackendKind::Cuda, source, defines)?;
    cuda::compile(&full, arch).map(|compiled| compiled.ptx)
}

/// Whether NVRTC (`libnvrtc.so`) can be loaded here, i.e. whether [`compile_cuda_for_check`] can
/// work. Loads nothing else.
pub fn nvrtc_available() -> bool {
    cuda::nvrtc_present()
}
