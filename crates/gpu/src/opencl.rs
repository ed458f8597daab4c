//! The OpenCL backend through `opencl3`, whose `dynamic` feature opens `libOpenCL.so.1` (the ICD
//! loader) with `dlopen` on first use: a missing loader is an error code, not a link failure.
//!
//! Programs are built as OpenCL C 1.2 (`-cl-std=CL1.2`), which PoCL and NVIDIA's driver both
//! accept, with `-cl-kernel-arg-info` so that launches can check buffer arguments against
//! pointer parameters.

use crate::device::{Arg, private::RawBuffer};
use crate::error::{Context as _, cl_message};
use crate::{BackendKind, DeviceInfo, GpuError, source};
use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_CPU, Device};
use opencl3::error_codes::{
    CL_BUILD_PROGRAM_FAILURE, CL_DEVICE_NOT_FOUND, CL_INVALID_KERNEL_NAME,
    CL_PLATFORM_NOT_FOUND_KHR, ClError, DLOPEN_FUNCTION_NOT_AVAILABLE, DLOPEN_RUNTIME_LOAD_FAILED,
};
use opencl3::kernel::{
    CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_ADDRESS_LOCAL,
    Kernel,
};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE, ClMem};
use opencl3::platform::{Platform, get_platforms};
use opencl3::program::Program;
use opencl3::types::{CL_BLOCKING, cl_device_id};
use std::ptr;
use std::sync::Mutex;

/// Build options for every program.
const BUILD_OPTIONS: &str = "-cl-std=CL1.2 -cl-kernel-arg-info";

pub(crate) type RawOclBuffer = Buffer<u8>;

fn loader_missing() -> GpuError {
    GpuError::LibraryMissing {
        backend: BackendKind::OpenCl,
        library: "libOpenCL.so.1",
        hint: "no OpenCL ICD loader; on Debian: apt-get install ocl-icd-libopencl1 and a driver \
               such as pocl-opencl-icd",
    }
}

/// The platforms, or why there are none.
fn platforms() -> Result<Vec<Platform>, GpuError> {
    match get_platforms() {
        Ok(platforms) if platforms.is_empty() => Err(no_platform()),
        Ok(platforms) => Ok(platforms),
        Err(ClError(DLOPEN_RUNTIME_LOAD_FAILED | DLOPEN_FUNCTION_NOT_AVAILABLE)) => {
            Err(loader_missing())
        }
        Err(ClError(CL_PLATFORM_NOT_FOUND_KHR)) => Err(no_platform()),
        Err(e) => Err(GpuError::driver(
            BackendKind::OpenCl,
            "clGetPlatformIDs",
            cl_message(e),
        )),
    }
}

fn no_platform() -> GpuError {
    GpuError::driver(
        BackendKind::OpenCl,
        "clGetPlatformIDs",
        "no OpenCL platform (no driver registered in /etc/OpenCL/vendors)",
    )
}

/// Every device of every platform, in the order that defines `DeviceInfo::index`, with its
/// platform's name.
fn all_devices() -> Result<Vec<(Device, String)>, GpuError> {
    let mut devices = Vec::new();
    for platform in platforms()? {
        let platform_name = platform.name().unwrap_or_default().trim().to_string();
        match platform.get_devices(CL_DEVICE_TYPE_ALL) {
            Ok(ids) => devices.extend(
                ids.into_iter()
                    .map(|id| (Device::new(id), platform_name.clone())),
            ),
            Err(ClError(CL_DEVICE_NOT_FOUND)) => {}
            Err(e) => {
                return Err(GpuError::driver(
                    BackendKind::OpenCl,
                    format!("clGetDeviceIDs ({platform_name})"),
                    cl_message(e),
                ));
            }
        }
    }
    Ok(devices)
}

/// Serialises device discovery. PoCL 3.1 initialises its devices on the first clGetDeviceIDs
/// and crashes (a NULL device name) when another thread asks a device's info meanwhile; one
/// enumeration at a time costs nothing, since enumerating is rare.
static DISCOVERY: Mutex<()> = Mutex::new(());

fn discovery_lock() -> std::sync::MutexGuard<'static, ()> {
    // The guarded value is (), so a panic while holding the lock leaves nothing inconsistent.
    DISCOVERY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Every OpenCL device; an error if there is none.
pub(crate) fn list() -> Result<Vec<DeviceInfo>, GpuError> {
    let _discovery = discovery_lock();
    let devices = all_devices()?;
    if devices.is_empty() {
        return Err(GpuError::driver(
            BackendKind::OpenCl,
            "clGetDeviceIDs",
            "the OpenCL platforms have no device",
        ));
    }
    devices
        .into_iter()
        .enumerate()
        .map(|(index, (device, platform))| describe(&device, index, platform))
        .collect()
}

fn describe(device: &Device, index: usize, platform: String) -> Result<DeviceInfo, GpuError> {
    let name = device.name().ctx("clGetDeviceInfo(NAME)")?;
    let device_type = device.dev_type().ctx("clGetDeviceInfo(TYPE)")?;
    Ok(DeviceInfo {
        backend: BackendKind::OpenCl,
        index,
        name: name.trim().to_string(),
        platform,
        compute_units: device
            .max_compute_units()
            .ctx("clGetDeviceInfo(MAX_COMPUTE_UNITS)")?,
        memory_bytes: device
            .global_mem_size()
            .ctx("clGetDeviceInfo(GLOBAL_MEM_SIZE)")?,
        max_alloc_bytes: device
            .max_mem_alloc_size()
            .ctx("clGetDeviceInfo(MAX_MEM_ALLOC_SIZE)")?,
        clock_mhz: device.max_clock_frequency().unwrap_or(0),
        is_cpu: device_type & CL_DEVICE_TYPE_CPU != 0,
        warp_size: warp_size(device),
    })
}

/// The width of the device's SIMD execution: NVIDIA's and AMD's own queries, else OpenCL 3.0's
/// preferred work-group size multiple, else the same per-kernel query on a trivial kernel.
fn warp_size(device: &Device) -> u32 {
    let extensions = device.extensions().unwrap_or_default();
    if is_nvidia(device) {
        if let Ok(w) = device.wrap_size_nv() {
            return w;
        }
    }
    if extensions.contains("cl_amd_device_attribute_query") {
        if let Ok(w) = device.wavefront_width_amd() {
            return w;
        }
    }
    if let Ok(w) = device.preferred_work_group_size_multiple() {
        return w as u32;
    }
    probe_work_group_multiple(device).unwrap_or(1)
}

/// Whether the device runs on NVIDIA's driver (it answers NVIDIA's attribute queries).
fn is_nvidia(device: &Device) -> bool {
    device
        .extensions()
        .unwrap_or_default()
        .contains("cl_nv_device_attribute_query")
}

/// CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE of a trivial kernel: what OpenCL 1.2 devices
/// without a vendor query can tell.
fn probe_work_group_multiple(device: &Device) -> Option<u32> {
    let context = Context::from_device(device).ok()?;
    let mut program = Program::create_from_source(&context, "__kernel void probe() {}").ok()?;
    program.build(&[device.id()], "").ok()?;
    let kernel = Kernel::create(&program, "probe").ok()?;
    let multiple = kernel.get_work_group_size_multiple(device.id()).ok()?;
    u32::try_from(multiple).ok()
}

pub(crate) struct OclDevice {
    device: Device,
    context: Context,
    queue: CommandQueue,
    max_work_group: usize,
    /// NVIDIA's driver, whose compiler takes inline PTX: programs are built with
    /// `KOGGE_OPENCL_NVIDIA` defined, for the prelude's warp votes.
    nvidia: bool,
    /// The kernel that zeroes large buffers (see `ZERO_SOURCE`), built on first use.
    zero: Mutex<Option<(Program, Kernel)>>,
}

/// Buffers up to this size are zeroed by clEnqueueFillBuffer. NVIDIA's driver fails a fill that
/// reaches past 2 GiB into a buffer (CL_INVALID_COMMAND_QUEUE, or a fill of exactly 2^32 bytes
/// silently does nothing), so larger ones are zeroed by a kernel of our own.
const FILL_LIMIT: usize = 1 << 31;

/// The zeroing kernel: 64-bit indices, a grid-stride loop.
const ZERO_SOURCE: &str = "__kernel void kogge_zero(__global ulong *p, ulong n) {
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) p[i] = 0;
}";

pub(crate) struct OclModule {
    program: Program,
    device: cl_device_id,
}

// SAFETY: cl_device_id is a handle the OpenCL runtime keeps valid for the process's lifetime and
// that every OpenCL call accepts from any thread.
unsafe impl Send for OclModule {}
// SAFETY: as above; the Program is Sync itself.
unsafe impl Sync for OclModule {}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ParamKind {
    /// A pointer to global or constant memory: takes a buffer.
    Buffer,
    /// A pointer to local memory: cannot be given through this API.
    Local,
    /// A value of this many bytes, where the type name is one we know.
    Scalar(Option<usize>),
}

/// The size of a scalar parameter from its type name as the driver reports it: the prelude's
/// typedef names (PoCL reports those) or OpenCL's own.
fn scalar_size(type_name: &str) -> Option<usize> {
    match type_name.trim() {
        "u8" | "uchar" | "char" | "unsigned char" => Some(1),
        "u16" | "ushort" | "short" | "unsigned short" => Some(2),
        "u32" | "uint" | "i32" | "int" | "unsigned int" => Some(4),
        "u64" | "ulong" | "i64" | "long" | "unsigned long" => Some(8),
        _ => None,
    }
}

pub(crate) struct OclKernel {
    /// Setting arguments and enqueuing must not interleave between threads: clSetKernelArg
    /// changes the kernel object.
    kernel: Mutex<Kernel>,
    /// What each parameter is; None where the driver would not say (no arg info).
    params: Option<Vec<ParamKind>>,
    num_args: usize,
    max_work_group: usize,
}

impl OclDevice {
    pub(crate) fn open(info: &DeviceInfo) -> Result<Self, GpuError> {
        let _discovery = discovery_lock();
        let (device, _platform) = all_devices()?
            .into_iter()
            .nth(info.index)
            .ok_or_else(|| GpuError::NoDevice(format!("no opencl device {}", info.index)))?;
        let name = device.name().ctx("clGetDeviceInfo(NAME)")?;
        if name.trim() != info.name {
            return Err(GpuError::NoDevice(format!(
                "opencl device {} is now '{}', not '{}'",
                info.index,
                name.trim(),
                info.name
            )));
        }
        let context = Context::from_device(&device).ctx("clCreateContext")?;
        let queue = CommandQueue::create_default(&context, 0).ctx("clCreateCommandQueue")?;
        let max_work_group = device
            .max_work_group_size()
            .ctx("clGetDeviceInfo(MAX_WORK_GROUP_SIZE)")?;
        Ok(OclDevice {
            nvidia: is_nvidia(&device),
            device,
            context,
            queue,
            max_work_group,
            zero: Mutex::new(None),
        })
    }

    /// Builds the program; `max_registers` caps each kernel's registers on NVIDIA's driver.
    pub(crate) fn build(
        &self,
        full_source: &str,
        max_registers: Option<u32>,
    ) -> Result<(OclModule, String), GpuError> {
        let with_vendor;
        let full_source = if self.nvidia {
            with_vendor = format!("#define KOGGE_OPENCL_NVIDIA 1\n{full_source}");
            &with_vendor
        } else {
            full_source
        };
        let mut program = Program::create_from_source(&self.context, full_source)
            .ctx("clCreateProgramWithSource")?;
        // KOGGE_OPENCL_OPTIONS adds build options, for experiments (NVIDIA's `-cl-nv-verbose`
        // puts each kernel's registers in the log, which KOGGE_BUILD_LOG prints). Set but blank,
        // it adds nothing: the options stay those of the plain build, whose binary PoCL has
        // cached under them.
        let mut options = BUILD_OPTIONS.to_string();
        if let (true, Some(n)) = (self.nvidia, max_registers) {
            options += &format!(" -cl-nv-maxrregcount={n}");
        }
        if let Ok(extra) = std::env::var("KOGGE_OPENCL_OPTIONS")
            && !extra.trim().is_empty()
        {
            options += &format!(" {}", extra.trim());
        }
        let built = program.build(&[self.device.id()], &options);
        let log = program.get_build_log(self.device.id()).unwrap_or_default();
        let log = source::fix_opencl_log(log.trim(), full_source);
        if built.is_ok() {
            dump_binaries(&program, full_source);
        }
        match built {
            Ok(()) => Ok((
                OclModule {
                    program,
                    device: self.device.id(),
                },
                log,
            )),
            Err(ClError(CL_BUILD_PROGRAM_FAILURE)) => Err(GpuError::Compile {
                backend: BackendKind::OpenCl,
                log,
            }),
            Err(e) => Err(GpuError::driver(
                BackendKind::OpenCl,
                "clBuildProgram",
                format!("{}\n{log}", cl_message(e)),
            )),
        }
    }

    pub(crate) fn alloc(&self, bytes: usize) -> Result<RawOclBuffer, GpuError> {
        // Never a zero-byte buffer: OpenCL refuses those; a 0-length Buffer keeps 1 byte. Large
        // ones are whole words, for the zeroing kernel.
        let bytes = if bytes > FILL_LIMIT {
            bytes.next_multiple_of(8)
        } else {
            bytes.max(1)
        };
        // SAFETY: no host pointer is given, so the driver allocates the memory itself.
        let mut buffer = unsafe {
            Buffer::<u8>::create(&self.context, CL_MEM_READ_WRITE, bytes, ptr::null_mut())
        }
        .ctx("clCreateBuffer")?;
        if bytes > FILL_LIMIT {
            self.zero_words(&buffer, bytes / 8)?;
            return Ok(buffer);
        }
        // SAFETY: the fill covers exactly the buffer's `bytes` bytes with a one-byte pattern that
        // lives until the call returns; the queue copies the pattern when the command is queued.
        unsafe {
            self.queue
                .enqueue_fill_buffer(&mut buffer, &[0u8], 0, bytes, &[])
        }
        .ctx("clEnqueueFillBuffer")?;
        Ok(buffer)
    }

    /// Zeroes the first `words` 64-bit words of `buffer` with ZERO_SOURCE's kernel.
    fn zero_words(&self, buffer: &RawOclBuffer, words: usize) -> Result<(), GpuError> {
        let mut zero = self
            .zero
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if zero.is_none() {
            let mut program = Program::create_from_source(&self.context, ZERO_SOURCE)
                .ctx("clCreateProgramWithSource (zero)")?;
            program
                .build(&[self.device.id()], "")
                .ctx("clBuildProgram (zero)")?;
            let kernel = Kernel::create(&program, "kogge_zero").ctx("clCreateKernel (zero)")?;
            *zero = Some((program, kernel));
        }
        let Some((_, kernel)) = zero.as_ref() else {
            return Err(GpuError::BadLaunch(
                "the zeroing kernel did not build".into(),
            ));
        };
        let n = words as u64;
        // SAFETY: the arguments are a buffer handle and a u64, as the kernel declares them.
        unsafe {
            kernel
                .set_arg(0, &buffer.get())
                .ctx("clSetKernelArg (zero)")?;
            kernel.set_arg(1, &n).ctx("clSetKernelArg (zero)")?;
        }
        let local = 256.min(self.max_work_group);
        let global = local * 4096;
        // SAFETY: one dimension; the sizes point to locals that outlive the call; both
        // arguments were set above, under the lock.
        let event = unsafe {
            self.queue
                .enqueue_nd_range_kernel(kernel.get(), 1, ptr::null(), &global, &local, &[])
        }
        .ctx("clEnqueueNDRangeKernel (zero)")?;
        drop(event);
        Ok(())
    }

    pub(crate) fn write(&self, buffer: &mut RawOclBuffer, data: &[u8]) -> Result<(), GpuError> {
        // SAFETY: a blocking write of data.len() bytes, which the caller checked fit in the
        // buffer; `data` is only read, and only until the call returns.
        unsafe {
            self.queue
                .enqueue_write_buffer(buffer, CL_BLOCKING, 0, data, &[])
        }
        .ctx("clEnqueueWriteBuffer")?;
        Ok(())
    }

    pub(crate) fn read(
        &self,
        buffer: &RawOclBuffer,
        offset: usize,
        out: &mut [u8],
    ) -> Result<(), GpuError> {
        // SAFETY: a blocking read of out.len() bytes from byte `offset`, which the caller
        // checked fit in the buffer, into memory we hold exclusively until the call returns.
        unsafe {
            self.queue
                .enqueue_read_buffer(buffer, CL_BLOCKING, offset, out, &[])
        }
        .ctx("clEnqueueReadBuffer")?;
        Ok(())
    }

    pub(crate) fn launch(
        &self,
        kernel: &OclKernel,
        name: &str,
        global: usize,
        local: usize,
        args: &[Arg],
    ) -> Result<(), GpuError> {
        let limit = kernel.max_work_group.min(self.max_work_group);
        if local > limit {
            return Err(GpuError::BadLaunch(format!(
                "{name}: work-group of {local}; this kernel runs at most {limit} per group here"
            )));
        }
        if args.len() != kernel.num_args {
            return Err(GpuError::BadLaunch(format!(
                "{name} takes {} arguments, {} given",
                kernel.num_args,
                args.len()
            )));
        }
        if let Some(params) = &kernel.params {
            for (i, (param, arg)) in params.iter().zip(args).enumerate() {
                let wanted = match param {
                    ParamKind::Buffer => "a buffer",
                    ParamKind::Local => "a __local pointer (declare LOCAL arrays in the kernel)",
                    ParamKind::Scalar(_) => "a value",
                };
                let fits = match param {
                    ParamKind::Buffer => matches!(arg, Arg::Buffer(_)),
                    ParamKind::Local => false,
                    ParamKind::Scalar(_) => !matches!(arg, Arg::Buffer(_)),
                };
                if !fits {
                    return Err(GpuError::BadLaunch(format!(
                        "{name}: argument {i} is {} but the parameter is {wanted}",
                        arg.describe()
                    )));
                }
                if let ParamKind::Scalar(Some(size)) = param {
                    if *size != arg.size() {
                        return Err(GpuError::BadLaunch(format!(
                            "{name}: argument {i} is {} ({} bytes) but the parameter has {size} \
                             bytes",
                            arg.describe(),
                            arg.size()
                        )));
                    }
                }
            }
        }
        // A poisoned lock only means another thread panicked mid-launch; the arguments are all
        // set again below, so the kernel object is fine to use.
        let kernel_object = kernel
            .kernel
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        for (i, arg) in args.iter().enumerate() {
            let index = i as u32;
            // SAFETY: clSetKernelArg copies the value it is given; each size is the value's own
            // (a cl_mem handle for buffers), and the driver checks it against the parameter.
            let set = unsafe {
                match arg {
                    Arg::Buffer(b) => match b.raw() {
                        RawBuffer::OpenCl(buffer) => kernel_object.set_arg(index, &buffer.get()),
                        RawBuffer::Cuda(_) => {
                            return Err(GpuError::BadLaunch(format!(
                                "{name}: argument {i} is a CUDA buffer"
                            )));
                        }
                    },
                    Arg::U32(v) => kernel_object.set_arg(index, v),
                    Arg::U64(v) => kernel_object.set_arg(index, v),
                    Arg::I32(v) => kernel_object.set_arg(index, v),
                }
            };
            set.map_err(|e| {
                GpuError::BadLaunch(format!(
                    "{name}: argument {i} ({}): clSetKernelArg: {}",
                    arg.describe(),
                    cl_message(e)
                ))
            })?;
        }
        // SAFETY: one dimension; the sizes point to locals that outlive the call; every argument
        // was set just above, under the lock, and buffers stay alive until the command is done
        // (OpenCL keeps memory objects used by queued commands).
        let event = unsafe {
            self.queue.enqueue_nd_range_kernel(
                kernel_object.get(),
                1,
                ptr::null(),
                &global,
                &local,
                &[],
            )
        }
        .ctx("clEnqueueNDRangeKernel")?;
        drop(event);
        Ok(())
    }

    pub(crate) fn synchronize(&self) -> Result<(), GpuError> {
        self.queue.finish().ctx("clFinish")
    }
}

pub(crate) fn kernel(module: &OclModule, name: &str) -> Result<OclKernel, GpuError> {
    let kernel = Kernel::create(&module.program, name).map_err(|e| match e {
        ClError(CL_INVALID_KERNEL_NAME) => {
            GpuError::BadArgument(format!("no kernel named '{name}' in the module"))
        }
        e => GpuError::driver(BackendKind::OpenCl, "clCreateKernel", cl_message(e)),
    })?;
    let num_args = kernel.num_args().ctx("clGetKernelInfo(NUM_ARGS)")? as usize;
    let params = (0..num_args as u32)
        .map(|i| {
            let qualifier = kernel.get_arg_address_qualifier(i).ok()?;
            Some(match qualifier {
                CL_KERNEL_ARG_ADDRESS_GLOBAL | CL_KERNEL_ARG_ADDRESS_CONSTANT => ParamKind::Buffer,
                CL_KERNEL_ARG_ADDRESS_LOCAL => ParamKind::Local,
                _ => ParamKind::Scalar(
                    kernel
                        .get_arg_type_name(i)
                        .ok()
                        .and_then(|name| scalar_size(&name)),
                ),
            })
        })
        .collect::<Option<Vec<ParamKind>>>();
    let max_work_group = kernel
        .get_work_group_size(module.device)
        .ctx("clGetKernelWorkGroupInfo(WORK_GROUP_SIZE)")?;
    Ok(OclKernel {
        kernel: Mutex::new(kernel),
        params,
        num_args,
        max_work_group,
    })
}

/// With `KOGGE_OPENCL_DUMP=DIR` set, writes the source a program was built from and the
/// binaries the driver made of it into DIR as `program-N.cl` and `program-N.bin` (N counts the
/// programs this process built). On NVIDIA's driver the binary is PTX, which `ptxas` turns into
/// SASS to compare with what NVRTC makes of the CUDA flavour. A failed write is reported on
/// stderr and changes nothing else.
fn dump_binaries(program: &Program, source: &str) {
    static PROGRAMS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    if std::env::var_os("KOGGE_OPENCL_DUMP").is_none() {
        return;
    }
    // Built for one device: one binary.
    let binaries = program.get_binaries().unwrap_or_default();
    let mut files = vec![("cl", source.as_bytes())];
    files.extend(binaries.first().map(|b| ("bin", b.as_slice())));
    source::dump_files("KOGGE_OPENCL_DUMP", &PROGRAMS, "program", &files);
}
