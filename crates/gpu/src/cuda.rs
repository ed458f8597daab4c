//! The CUDA backend: the driver API and NVRTC through `cudarc`, both loaded with `dlopen`.
//!
//! cudarc panics on the first call into a library it cannot load, so every entry point here asks
//! `is_culib_present()` first: no driver means an error value, never a panic.
//!
//! Kernels are compiled by NVRTC for the device's real architecture (`sm_90`) and loaded as a
//! CUBIN. A CUBIN needs no JIT in the driver, so an NVRTC newer than the driver still works
//! (CUDA minor-version compatibility), where PTX from it would be refused.

use crate::device::{Arg, check_arg_sizes, private::RawBuffer};
use crate::error::{Context as _, cuda_message};
use crate::{BackendKind, DeviceInfo, GpuError, source};
use cudarc::driver::sys::{self, CUdevice_attribute, CUfunction_attribute, cudaError_enum};
use cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, LaunchConfig, PushKernelArg,
    result,
};
use cudarc::nvrtc;
use std::ffi::{CString, c_char};
use std::sync::{Arc, OnceLock};

/// The oldest driver accepted: CUDA 12.0. cudarc resolves each driver function on first use and
/// panics when the library lacks it; every function used here exists from 12.0 on.
const MIN_DRIVER_VERSION: i32 = 12000;

/// A buffer's device memory, owned by cudarc: freed on drop, in stream order (after the work
/// queued before the drop).
pub(crate) type RawCudaBuffer = CudaSlice<u8>;

fn driver_present() -> bool {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    // SAFETY: is_culib_present only dlopens the candidate library names (running their
    // initialisers, as any program linking libcuda would) and closes them again.
    *PRESENT.get_or_init(|| unsafe { sys::is_culib_present() })
}

pub(crate) fn nvrtc_present() -> bool {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    // SAFETY: as in driver_present, for libnvrtc.
    *PRESENT.get_or_init(|| unsafe { nvrtc::sys::is_culib_present() })
}

fn driver_missing() -> GpuError {
    GpuError::LibraryMissing {
        backend: BackendKind::Cuda,
        library: "libcuda.so",
        hint: "no NVIDIA driver on this machine",
    }
}

fn nvrtc_missing() -> GpuError {
    GpuError::LibraryMissing {
        backend: BackendKind::Cuda,
        library: "libnvrtc.so.13",
        hint: "CUDA's runtime compiler: install the CUDA toolkit or the nvidia-cuda-nvrtc wheel \
               and put its lib directory on LD_LIBRARY_PATH",
    }
}

/// Whether the loaded driver library exports `symbol`. Guards calls that cudarc would otherwise
/// turn into a panic on an older driver.
fn driver_has(symbol: &str) -> bool {
    // SAFETY: only called after driver_present(); culib() returns the already loaded library,
    // and looking a symbol up calls nothing.
    unsafe { sys::culib().get::<*const ()>(symbol.as_bytes()).is_ok() }
}

/// The driver's CUDA version, as 13000 for 13.0.
fn driver_version() -> Result<i32, GpuError> {
    let mut version = 0;
    // SAFETY: the library is loaded (driver_present) and cuDriverGetVersion exists in every
    // driver; it writes one int to the valid pointer.
    unsafe { sys::cuDriverGetVersion(&mut version) }
        .result()
        .ctx("cuDriverGetVersion")?;
    Ok(version)
}

/// Loads the driver and initialises it; checks it is new enough.
fn init() -> Result<i32, GpuError> {
    if !driver_present() {
        return Err(driver_missing());
    }
    let version = driver_version()?;
    if version < MIN_DRIVER_VERSION {
        return Err(GpuError::driver(
            BackendKind::Cuda,
            "driver version",
            format!(
                "CUDA {}.{} is too old; CUDA 12.0 or newer is needed",
                version / 1000,
                version % 1000 / 10
            ),
        ));
    }
    result::init().ctx("cuInit")?;
    Ok(version)
}

fn attribute(device: sys::CUdevice, attr: CUdevice_attribute) -> Result<i32, GpuError> {
    // SAFETY: `device` comes from cuDeviceGet after a successful cuInit.
    unsafe { result::device::get_attribute(device, attr) }.ctx("cuDeviceGetAttribute")
}

/// Every CUDA device.
pub(crate) fn list() -> Result<Vec<DeviceInfo>, GpuError> {
    let version = init()?;
    let count = result::device::get_count().ctx("cuDeviceGetCount")?;
    if count <= 0 {
        return Err(GpuError::driver(
            BackendKind::Cuda,
            "cuDeviceGetCount",
            "the driver reports no device",
        ));
    }
    let mut devices = Vec::new();
    for ordinal in 0..count {
        let device = result::device::get(ordinal).ctx("cuDeviceGet")?;
        let name = result::device::get_name(device).ctx("cuDeviceGetName")?;
        // SAFETY: as in `attribute`.
        let memory = unsafe { result::device::total_mem(device) }.ctx("cuDeviceTotalMem")?;
        let major = attribute(
            device,
            CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
        )?;
        let minor = attribute(
            device,
            CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
        )?;
        let sms = attribute(
            device,
            CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
        )?;
        let warp = attribute(device, CUdevice_attribute::CU_DEVICE_ATTRIBUTE_WARP_SIZE)?;
        // In kHz. Deprecated in CUDA 13 but still answered; 0 if not.
        let clock_khz =
            attribute(device, CUdevice_attribute::CU_DEVICE_ATTRIBUTE_CLOCK_RATE).unwrap_or(0);
        devices.push(DeviceInfo {
            backend: BackendKind::Cuda,
            index: ordinal as usize,
            name: name.trim().to_string(),
            platform: format!(
                "CUDA {}.{}, sm_{major}{minor}",
                version / 1000,
                version % 1000 / 10
            ),
            compute_units: sms.max(0) as u32,
            memory_bytes: memory as u64,
            max_alloc_bytes: memory as u64,
            clock_mhz: (clock_khz.max(0) / 1000) as u32,
            is_cpu: false,
            warp_size: warp.max(0) as u32,
        });
    }
    Ok(devices)
}

pub(crate) struct CudaDevice {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    /// `sm_90`: NVRTC's target.
    arch: String,
    max_grid_x: u32,
}

/// A loaded module.
pub(crate) struct CudaModuleHandle {
    module: Arc<CudaModule>,
}

pub(crate) struct CudaKernel {
    function: CudaFunction,
    /// The parameters' sizes, when the driver can tell (cuFuncGetParamInfo, CUDA 12.4).
    params: Option<Vec<usize>>,
    /// Threads per block this kernel can run with (its register use may lower it below 1024).
    max_threads: u32,
}

impl CudaDevice {
    pub(crate) fn open(info: &DeviceInfo) -> Result<Self, GpuError> {
        init()?;
        let ctx = CudaContext::new(info.index).ctx("cuDevicePrimaryCtxRetain")?;
        // SAFETY: a Device uses a single stream, so cudarc's cross-stream event tracking has
        // nothing to order; without it every allocation saves two events and every launch the
        // waits on them.
        unsafe { ctx.disable_event_tracking() };
        let (major, minor) = ctx.compute_capability().ctx("cuDeviceGetAttribute")?;
        let max_grid_x = ctx
            .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)
            .ctx("cuDeviceGetAttribute")?;
        let stream = ctx.default_stream();
        Ok(CudaDevice {
            ctx,
            stream,
            arch: format!("sm_{major}{minor}"),
            max_grid_x: max_grid_x.max(1) as u32,
        })
    }

    pub(crate) fn build(&self, full_source: &str) -> Result<(CudaModuleHandle, String), GpuError> {
        let compiled = compile(full_source, &self.arch)?;
        let Some(cubin) = compiled.cubin else {
            return Err(GpuError::driver(
                BackendKind::Cuda,
                "nvrtcGetCUBIN",
                format!("NVRTC produced no CUBIN for {}", self.arch),
            ));
        };
        let module = self
            .ctx
            .load_module(nvrtc::Ptx::from_binary(cubin))
            .ctx("cuModuleLoadData")?;
        Ok((CudaModuleHandle { module }, compiled.log))
    }

    pub(crate) fn alloc(&self, bytes: usize) -> Result<RawCudaBuffer, GpuError> {
        // Never a zero-byte allocation: drivers refuse those; a 0-length Buffer keeps 1 byte.
        self.stream
            .alloc_zeros::<u8>(bytes.max(1))
            .ctx("cuMemAlloc")
    }

    pub(crate) fn write(&self, buffer: &mut RawCudaBuffer, data: &[u8]) -> Result<(), GpuError> {
        // The caller checked data.len() <= the buffer's size (cudarc asserts it).
        let mut view = buffer.slice_mut(..data.len());
        self.stream
            .memcpy_htod(data, &mut view)
            .ctx("cuMemcpyHtoD")?;
        // Blocking, like OpenCL's write: the host memory may be reused at once.
        self.synchronize()
    }

    pub(crate) fn read(
        &self,
        buffer: &RawCudaBuffer,
        offset: usize,
        out: &mut [u8],
    ) -> Result<(), GpuError> {
        let view = buffer.slice(offset..offset + out.len());
        self.stream.memcpy_dtoh(&view, out).ctx("cuMemcpyDtoH")?;
        self.synchronize()
    }

    pub(crate) fn launch(
        &self,
        kernel: &CudaKernel,
        name: &str,
        global: usize,
        local: usize,
        args: &[Arg],
    ) -> Result<(), GpuError> {
        if local > kernel.max_threads as usize {
            return Err(GpuError::BadLaunch(format!(
                "{name}: work-group of {local} threads; this kernel runs at most {} per group here",
                kernel.max_threads
            )));
        }
        let groups = global / local;
        if groups > self.max_grid_x as usize {
            return Err(GpuError::BadLaunch(format!(
                "{name}: {groups} work-groups; the device takes at most {}",
                self.max_grid_x
            )));
        }
        if let Some(params) = &kernel.params {
            check_arg_sizes(name, params, args)?;
        }
        let mut builder = self.stream.launch_builder(&kernel.function);
        for (i, arg) in args.iter().enumerate() {
            match arg {
                Arg::Buffer(b) => match b.raw() {
                    RawBuffer::Cuda(slice) => builder.arg(slice),
                    RawBuffer::OpenCl(_) => {
                        return Err(GpuError::BadLaunch(format!(
                            "{name}: argument {i} is an OpenCL buffer"
                        )));
                    }
                },
                Arg::U32(v) => builder.arg(v),
                Arg::U64(v) => builder.arg(v),
                Arg::I32(v) => builder.arg(v),
            };
        }
        let config = LaunchConfig {
            grid_dim: (groups as u32, 1, 1),
            block_dim: (local as u32, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: the arguments were checked against the kernel's parameter sizes where the
        // driver reports them; every pointer argument is a live allocation of this context
        // (Device::launch checked the owner), and it stays allocated until the kernel is done
        // (a drop frees it in stream order). What the kernel does with its memory is the kernel
        // author's contract, as for any GPU code.
        unsafe { builder.launch(config) }.ctx("cuLaunchKernel")?;
        Ok(())
    }

    pub(crate) fn synchronize(&self) -> Result<(), GpuError> {
        self.stream.synchronize().ctx("cuStreamSynchronize")?;
        // Errors cudarc recorded in calls that cannot return them (frees in drop).
        self.ctx.check_err().ctx("deferred CUDA error")
    }
}

pub(crate) fn kernel(module: &CudaModuleHandle, name: &str) -> Result<CudaKernel, GpuError> {
    let function = module.module.load_function(name).map_err(|e| {
        if e.0 == cudaError_enum::CUDA_ERROR_NOT_FOUND {
            GpuError::BadArgument(format!("no kernel named '{name}' in the module"))
        } else {
            GpuError::driver(BackendKind::Cuda, "cuModuleGetFunction", cuda_message(&e))
        }
    })?;
    // SAFETY: a valid function handle of a loaded module.
    let max_threads = unsafe {
        result::function::get_function_attribute(
            function.cu_function(),
            CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
        )
    }
    .ctx("cuFuncGetAttribute")?;
    let params = param_sizes(&function);
    Ok(CudaKernel {
        function,
        params,
        max_threads: max_threads.max(0) as u32,
    })
}

/// The size of each parameter of `function`, or None where the driver cannot say.
fn param_sizes(function: &CudaFunction) -> Option<Vec<usize>> {
    if !driver_has("cuFuncGetParamInfo") {
        return None;
    }
    let mut sizes = Vec::new();
    // A kernel has at most 32764 bytes of parameters, so at most that many parameters.
    for index in 0..32_768 {
        let (mut offset, mut size) = (0usize, 0usize);
        // SAFETY: the symbol exists (checked above), the function handle is valid, and the two
        // out-pointers are valid for writes.
        let status = unsafe {
            sys::cuFuncGetParamInfo(function.cu_function(), index, &mut offset, &mut size)
        };
        match status {
            cudaError_enum::CUDA_SUCCESS => sizes.push(size),
            // Past the last parameter.
            cudaError_enum::CUDA_ERROR_INVALID_VALUE => return Some(sizes),
            _ => return None,
        }
    }
    None
}

/// What NVRTC produced.
pub(crate) struct Compiled {
    pub(crate) ptx: String,
    /// Present when compiled for a real architecture (`sm_XY`).
    pub(crate) cubin: Option<Vec<u8>>,
    /// Warnings of a successful compilation.
    pub(crate) log: String,
}

/// Destroys the NVRTC program however compilation ends.
struct ProgramGuard(nvrtc::sys::nvrtcProgram);

impl Drop for ProgramGuard {
    fn drop(&mut self) {
        // SAFETY: the program was created by nvrtcCreateProgram and is destroyed only here.
        // An error here leaks one program; nothing to report it to.
        let _ = unsafe { nvrtc::result::destroy_program(self.0) };
    }
}

/// The register cap NVRTC compiles with. Uncapped, the depth-first perft tail takes 168
/// registers a thread: one 256-thread block per multiprocessor, 12.5% occupancy, and Nsight
/// Compute finds the kernel latency-bound (34% of issue slots busy). At 128, two blocks fit and
/// perft runs 1.11–1.17× faster on an H100; 96 and below spill and lose (docs/PERFORMANCE.md).
const MAX_REGISTERS_PER_THREAD: u32 = 128;

/// Compiles a complete source (prelude included) for `arch` (`sm_90`, or `compute_90` for PTX
/// only).
pub(crate) fn compile(full_source: &str, arch: &str) -> Result<Compiled, GpuError> {
    let arch_ok = !arch.is_empty() && arch.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !arch_ok {
        return Err(GpuError::BadArgument(format!(
            "'{arch}' is not a GPU architecture (expected e.g. sm_90)"
        )));
    }
    if !nvrtc_present() {
        return Err(nvrtc_missing());
    }
    let src = CString::new(full_source)
        .map_err(|_| GpuError::BadArgument("kernel source contains a NUL byte".into()))?;
    let name = CString::new(format!("{}.cu", source::SOURCE_NAME))
        .map_err(|_| GpuError::BadArgument("bad source name".into()))?;
    let program =
        ProgramGuard(nvrtc::result::create_program(&src, Some(&name)).ctx("nvrtcCreateProgram")?);
    let mut options = vec![
        "--std=c++17".to_string(),
        format!("--gpu-architecture={arch}"),
        // Functions without __device__ are device functions: a helper that forgot DEVICE_FN
        // still compiles.
        "--device-as-default-execution-space".to_string(),
        // Source lines in the SASS, for Nsight Compute; no effect on the generated code.
        "--generate-line-info".to_string(),
    ];
    // A register cap for every kernel of the module: more resident warps per multiprocessor,
    // at the risk of spills. `KOGGE_CUDA_MAXRREG` overrides it (0: no cap), for experiments.
    let cap = std::env::var("KOGGE_CUDA_MAXRREG")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
        .unwrap_or(MAX_REGISTERS_PER_THREAD);
    if cap > 0 {
        options.push(format!("--maxrregcount={cap}"));
    }
    // KOGGE_CUDA_OPTIONS adds NVRTC options, separated by spaces, for experiments: kernel knobs
    // are `#ifndef` defaults, so `-DNAME=VALUE` tries a variant without a rebuild, as
    // KOGGE_OPENCL_OPTIONS does on OpenCL.
    if let Ok(extra) = std::env::var("KOGGE_CUDA_OPTIONS") {
        options.extend(extra.split_whitespace().map(str::to_string));
    }
    // SAFETY: the program is live (the guard destroys it at the end of this function); the
    // options contain no NUL bytes.
    let status = unsafe { nvrtc::result::compile_program(program.0, &options) };
    // SAFETY: as above.
    let log = unsafe { nvrtc::result::get_program_log(program.0) }
        .map(|chars| c_chars_to_string(&chars))
        .unwrap_or_default();
    if let Err(e) = status {
        return Err(if e.0 == nvrtc::sys::nvrtcResult::NVRTC_ERROR_COMPILATION {
            GpuError::Compile {
                backend: BackendKind::Cuda,
                log,
            }
        } else {
            GpuError::driver(
                BackendKind::Cuda,
                "nvrtcCompileProgram",
                format!("{:?} {log}", e.0),
            )
        });
    }
    // SAFETY: as above; compilation succeeded.
    let ptx = unsafe { nvrtc::result::get_ptx(program.0) }.ctx("nvrtcGetPTX")?;
    let cubin = if arch.starts_with("sm_") {
        Some(get_cubin(&program)?)
    } else {
        None
    };
    let ptx = c_chars_to_string(&ptx);
    dump_for_profiling(full_source, &ptx, cubin.as_deref());
    Ok(Compiled {
        ptx,
        cubin,
        log: log.trim().to_string(),
    })
}

/// With `KOGGE_CUDA_DUMP=DIR` set, writes what NVRTC saw and made into DIR as `kernel-N.cu`,
/// `.ptx` and `.cubin` (N counts the modules this process compiled), for disassembly with line
/// numbers (`nvdisasm -g -c kernel-N.cubin`) and for Nsight Compute's source view. A failed write
/// is reported on stderr and changes nothing else.
fn dump_for_profiling(source: &str, ptx: &str, cubin: Option<&[u8]>) {
    static MODULES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let mut files = vec![("cu", source.as_bytes()), ("ptx", ptx.as_bytes())];
    files.extend(cubin.map(|c| ("cubin", c)));
    source::dump_files("KOGGE_CUDA_DUMP", &MODULES, "kernel", &files);
}

fn get_cubin(program: &ProgramGuard) -> Result<Vec<u8>, GpuError> {
    let mut size = 0usize;
    // SAFETY: the program is live and compiled; `size` is valid for writes.
    unsafe { nvrtc::sys::nvrtcGetCUBINSize(program.0, &mut size) }
        .result()
        .ctx("nvrtcGetCUBINSize")?;
    let mut cubin = vec![0u8; size];
    // SAFETY: the buffer holds the `size` bytes NVRTC said it will write.
    unsafe { nvrtc::sys::nvrtcGetCUBIN(program.0, cubin.as_mut_ptr().cast::<c_char>()) }
        .result()
        .ctx("nvrtcGetCUBIN")?;
    Ok(cubin)
}

/// NVRTC's NUL-terminated text as a String.
fn c_chars_to_string(chars: &[c_char]) -> String {
    let bytes: Vec<u8> = chars
        .iter()
        .map(|&c| c as u8)
        .take_while(|&b| b != 0)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}
