//! The backend-neutral handles: an open device, its buffers, compiled modules and kernels. Every
//! check that does not need the driver (sizes, lengths, which device an object belongs to) is
//! made here, once for both backends; `cuda.rs` and `opencl.rs` only talk to their drivers.

use crate::pod::{self, Pod};
use crate::{BackendKind, DeviceInfo, GpuError, cuda, opencl, source};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

/// Distinguishes open devices, so that a buffer or kernel of one is never handed to another.
static NEXT_DEVICE_ID: AtomicU64 = AtomicU64::new(1);

/// An open device: a context and one in-order queue. `Send`: it may move between threads, and
/// one thread at a time uses it (`&self` methods; share it behind a `Mutex` if needed).
pub struct Device {
    info: DeviceInfo,
    id: u64,
    inner: DeviceInner,
}

enum DeviceInner {
    Cuda(cuda::CudaDevice),
    OpenCl(opencl::OclDevice),
}

/// Device memory holding `len` values of `T`. Freed on drop (after the work queued before the
/// drop has finished with it).
pub struct Buffer<T> {
    len: usize,
    device_id: u64,
    raw: private::RawBuffer,
    _type: PhantomData<T>,
}

/// Compiled kernels of one source.
pub struct Module {
    device_id: u64,
    log: String,
    inner: ModuleInner,
}

pub(crate) enum ModuleInner {
    Cuda(cuda::CudaModuleHandle),
    OpenCl(opencl::OclModule),
}

/// One kernel entry point of a [`Module`], ready to [`Device::launch`].
pub struct Kernel {
    name: String,
    device_id: u64,
    inner: KernelInner,
}

pub(crate) enum KernelInner {
    Cuda(cuda::CudaKernel),
    OpenCl(opencl::OclKernel),
}

/// A buffer of any element type, as a kernel argument.
pub trait AnyBuffer: private::Sealed {
    /// Size in bytes.
    fn byte_len(&self) -> usize;
}

/// A kernel argument, in the order of the kernel's parameters.
#[derive(Clone, Copy)]
pub enum Arg<'a> {
    /// A `GLOBAL T*` parameter.
    Buffer(&'a dyn AnyBuffer),
    /// A `u32` parameter.
    U32(u32),
    /// A `u64` parameter.
    U64(u64),
    /// An `i32` parameter.
    I32(i32),
}

impl<'a> Arg<'a> {
    pub fn buf<T: Pod>(buffer: &'a Buffer<T>) -> Self {
        Arg::Buffer(buffer)
    }

    /// The size the kernel's parameter must have.
    pub(crate) fn size(&self) -> usize {
        match self {
            Arg::Buffer(_) => std::mem::size_of::<u64>(),
            Arg::U32(_) | Arg::I32(_) => 4,
            Arg::U64(_) => 8,
        }
    }

    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Arg::Buffer(_) => "a buffer",
            Arg::U32(_) => "a u32",
            Arg::U64(_) => "a u64",
            Arg::I32(_) => "an i32",
        }
    }
}

impl std::fmt::Debug for Arg<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Arg::Buffer(b) => write!(f, "Buffer({} bytes)", b.byte_len()),
            Arg::U32(v) => write!(f, "U32({v})"),
            Arg::U64(v) => write!(f, "U64({v})"),
            Arg::I32(v) => write!(f, "I32({v})"),
        }
    }
}

impl From<u32> for Arg<'_> {
    fn from(v: u32) -> Self {
        Arg::U32(v)
    }
}

impl From<u64> for Arg<'_> {
    fn from(v: u64) -> Self {
        Arg::U64(v)
    }
}

impl From<i32> for Arg<'_> {
    fn from(v: i32) -> Self {
        Arg::I32(v)
    }
}

impl<'a, T: Pod> From<&'a Buffer<T>> for Arg<'a> {
    fn from(b: &'a Buffer<T>) -> Self {
        Arg::Buffer(b)
    }
}

pub(crate) mod private {
    use super::Buffer;
    use crate::{cuda, opencl};

    /// The backend's memory object. Public inside a private module: nameable by the backends,
    /// not by users.
    pub enum RawBuffer {
        Cuda(cuda::RawCudaBuffer),
        OpenCl(opencl::RawOclBuffer),
    }

    pub trait Sealed {
        fn raw(&self) -> &RawBuffer;
        fn device_id(&self) -> u64;
    }

    impl<T> Sealed for Buffer<T> {
        fn raw(&self) -> &RawBuffer {
            &self.raw
        }
        fn device_id(&self) -> u64 {
            self.device_id
        }
    }
}

impl<T: Pod> AnyBuffer for Buffer<T> {
    fn byte_len(&self) -> usize {
        self.len * std::mem::size_of::<T>()
    }
}

impl<T> Buffer<T> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<T> std::fmt::Debug for Buffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Buffer<{}>({})", std::any::type_name::<T>(), self.len)
    }
}

impl Module {
    /// The kernel called `name` (the `KERNEL` function's name).
    pub fn kernel(&self, name: &str) -> Result<Kernel, GpuError> {
        let invalid = name.is_empty() || name.contains('\0');
        if invalid {
            return Err(GpuError::BadArgument(format!(
                "'{}' is not a kernel name",
                name.escape_debug()
            )));
        }
        let inner = match &self.inner {
            ModuleInner::Cuda(m) => KernelInner::Cuda(cuda::kernel(m, name)?),
            ModuleInner::OpenCl(m) => KernelInner::OpenCl(opencl::kernel(m, name)?),
        };
        Ok(Kernel {
            name: name.to_string(),
            device_id: self.device_id,
            inner,
        })
    }

    /// The compiler's messages for a build that succeeded: warnings, or empty.
    pub fn log(&self) -> &str {
        &self.log
    }
}

impl Kernel {
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl std::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Kernel({})", self.name)
    }
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Device({} {}: {})",
            self.info.backend, self.info.index, self.info.name
        )
    }
}

impl Device {
    /// Opens the device `info` describes (as listed by [`crate::list_devices`]).
    pub fn open(info: &DeviceInfo) -> Result<Device, GpuError> {
        let inner = match info.backend {
            BackendKind::Cuda => DeviceInner::Cuda(cuda::CudaDevice::open(info)?),
            BackendKind::OpenCl => DeviceInner::OpenCl(opencl::OclDevice::open(info)?),
        };
        Ok(Device {
            info: info.clone(),
            id: NEXT_DEVICE_ID.fetch_add(1, Ordering::Relaxed),
            inner,
        })
    }

    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// Compiles `source` after the backend's prelude and one `#define NAME VALUE` line per entry
    /// of `defines`. A compiler error comes back as [`GpuError::Compile`] with the log.
    pub fn build(&self, source: &str, defines: &[(&str, String)]) -> Result<Module, GpuError> {
        self.build_capped(source, defines, None)
    }

    /// [`Device::build`] with every kernel of the program held to `max_registers` registers a
    /// thread on NVIDIA's OpenCL (`-cl-nv-maxrregcount`), which has no per-kernel bound: CUDA
    /// kernels bound themselves (`LAUNCH_BOUNDS`), and other OpenCL drivers have no such
    /// option.
    pub fn build_with_register_cap(
        &self,
        source: &str,
        defines: &[(&str, String)],
        max_registers: u32,
    ) -> Result<Module, GpuError> {
        self.build_capped(source, defines, Some(max_registers))
    }

    fn build_capped(
        &self,
        source: &str,
        defines: &[(&str, String)],
        max_registers: Option<u32>,
    ) -> Result<Module, GpuError> {
        let full = source::assemble(self.info.backend, source, defines)?;
        let (inner, log) = match &self.inner {
            DeviceInner::Cuda(d) => {
                let (m, log) = d.build(&full)?;
                (ModuleInner::Cuda(m), log)
            }
            DeviceInner::OpenCl(d) => {
                let (m, log) = d.build(&full, max_registers)?;
                (ModuleInner::OpenCl(m), log)
            }
        };
        if std::env::var_os("KOGGE_BUILD_LOG").is_some() && !log.is_empty() {
            eprintln!("{log}");
        }
        Ok(Module {
            device_id: self.id,
            log,
            inner,
        })
    }

    /// Allocates `len` zeroed values of `T`.
    pub fn alloc<T: Pod>(&self, len: usize) -> Result<Buffer<T>, GpuError> {
        let bytes = len.checked_mul(std::mem::size_of::<T>()).ok_or_else(|| {
            GpuError::BadArgument(format!("{len} elements overflow the address space"))
        })?;
        let raw = match &self.inner {
            DeviceInner::Cuda(d) => private::RawBuffer::Cuda(d.alloc(bytes)?),
            DeviceInner::OpenCl(d) => private::RawBuffer::OpenCl(d.alloc(bytes)?),
        };
        Ok(Buffer {
            len,
            device_id: self.id,
            raw,
            _type: PhantomData,
        })
    }

    /// Allocates a buffer holding a copy of `data`.
    pub fn upload<T: Pod>(&self, data: &[T]) -> Result<Buffer<T>, GpuError> {
        let mut buffer = self.alloc(data.len())?;
        self.write(&mut buffer, data)?;
        Ok(buffer)
    }

    /// Copies `data` to the start of `buffer`; returns when the copy is done.
    pub fn write<T: Pod>(&self, buffer: &mut Buffer<T>, data: &[T]) -> Result<(), GpuError> {
        self.check_mine(buffer.device_id, "buffer")?;
        if data.len() > buffer.len {
            return Err(GpuError::BadArgument(format!(
                "writing {} elements into a buffer of {}",
                data.len(),
                buffer.len
            )));
        }
        if data.is_empty() {
            return Ok(());
        }
        let bytes = pod::as_bytes(data);
        match (&self.inner, &mut buffer.raw) {
            (DeviceInner::Cuda(d), private::RawBuffer::Cuda(b)) => d.write(b, bytes),
            (DeviceInner::OpenCl(d), private::RawBuffer::OpenCl(b)) => d.write(b, bytes),
            _ => Err(foreign("buffer")),
        }
    }

    /// Copies the first `out.len()` values of `buffer` into `out`, after all work queued before;
    /// returns when the copy is done.
    pub fn read<T: Pod>(&self, buffer: &Buffer<T>, out: &mut [T]) -> Result<(), GpuError> {
        self.read_at(buffer, 0, out)
    }

    /// Copies `out.len()` values of `buffer` from its value `offset` on into `out` (one bucket
    /// of a large table, without reading the rest), after all work queued before; returns when
    /// the copy is done.
    pub fn read_at<T: Pod>(
        &self,
        buffer: &Buffer<T>,
        offset: usize,
        out: &mut [T],
    ) -> Result<(), GpuError> {
        self.check_mine(buffer.device_id, "buffer")?;
        if offset
            .checked_add(out.len())
            .is_none_or(|end| end > buffer.len)
        {
            return Err(GpuError::BadArgument(format!(
                "reading {} elements from element {offset} of a buffer of {}",
                out.len(),
                buffer.len
            )));
        }
        if out.is_empty() {
            return self.synchronize();
        }
        let offset_bytes = offset * std::mem::size_of::<T>();
        let bytes = pod::as_bytes_mut(out);
        match (&self.inner, &buffer.raw) {
            (DeviceInner::Cuda(d), private::RawBuffer::Cuda(b)) => d.read(b, offset_bytes, bytes),
            (DeviceInner::OpenCl(d), private::RawBuffer::OpenCl(b)) => {
                d.read(b, offset_bytes, bytes)
            }
            _ => Err(foreign("buffer")),
        }
    }

    /// Queues `kernel` on `global` threads in work-groups of `local` (1-D). Returns at once.
    ///
    /// `global` must be a multiple of `local` (pad and let the kernel skip the extra threads)
    /// and at most `u32::MAX` (`GLOBAL_ID()` is a u32); `global == 0` launches nothing. The
    /// arguments must match the kernel's parameters in number and size: checked before the
    /// launch where the driver can tell (OpenCL always; CUDA with drivers from 12.4 on).
    pub fn launch(
        &self,
        kernel: &Kernel,
        global: usize,
        local: usize,
        args: &[Arg],
    ) -> Result<(), GpuError> {
        self.check_mine(kernel.device_id, "kernel")?;
        for (i, arg) in args.iter().enumerate() {
            let foreign_buffer = matches!(arg, Arg::Buffer(b) if b.device_id() != self.id);
            if foreign_buffer {
                return Err(GpuError::BadLaunch(format!(
                    "{}: argument {i}: the buffer belongs to another device",
                    kernel.name
                )));
            }
        }
        if local == 0 {
            return Err(GpuError::BadLaunch(format!(
                "{}: work-group size 0",
                kernel.name
            )));
        }
        if global % local != 0 {
            return Err(GpuError::BadLaunch(format!(
                "{}: {global} threads is not a multiple of the work-group size {local}",
                kernel.name
            )));
        }
        if global > u32::MAX as usize {
            return Err(GpuError::BadLaunch(format!(
                "{}: {global} threads; at most {} (GLOBAL_ID() is a u32)",
                kernel.name,
                u32::MAX
            )));
        }
        if global == 0 {
            return Ok(());
        }
        match (&self.inner, &kernel.inner) {
            (DeviceInner::Cuda(d), KernelInner::Cuda(k)) => {
                d.launch(k, &kernel.name, global, local, args)
            }
            (DeviceInner::OpenCl(d), KernelInner::OpenCl(k)) => {
                d.launch(k, &kernel.name, global, local, args)
            }
            _ => Err(foreign("kernel")),
        }
    }

    /// Waits until all queued work is done; reports a fault of any of it.
    pub fn synchronize(&self) -> Result<(), GpuError> {
        match &self.inner {
            DeviceInner::Cuda(d) => d.synchronize(),
            DeviceInner::OpenCl(d) => d.synchronize(),
        }
    }

    fn check_mine(&self, owner: u64, what: &str) -> Result<(), GpuError> {
        if owner == self.id {
            Ok(())
        } else {
            Err(foreign(what))
        }
    }
}

fn foreign(what: &str) -> GpuError {
    GpuError::BadArgument(format!("the {what} belongs to another device"))
}

/// Checks `args` against the parameter sizes a kernel declares.
pub(crate) fn check_arg_sizes(
    kernel: &str,
    params: &[usize],
    args: &[Arg],
) -> Result<(), GpuError> {
    if params.len() != args.len() {
        return Err(GpuError::BadLaunch(format!(
            "{kernel} takes {} arguments, {} given",
            params.len(),
            args.len()
        )));
    }
    for (i, (size, arg)) in params.iter().zip(args).enumerate() {
        if *size != arg.size() {
            return Err(GpuError::BadLaunch(format!(
                "{kernel}: argument {i} is {} ({} bytes) but the parameter has {size} bytes",
                arg.describe(),
                arg.size()
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send<T: Send>() {}
    fn assert_sync<T: Sync>() {}

    #[test]
    fn handles_can_move_between_threads() {
        assert_send::<Device>();
        assert_send::<Buffer<u64>>();
        assert_send::<Module>();
        assert_send::<Kernel>();
        assert_sync::<Kernel>();
        assert_sync::<Buffer<u64>>();
    }

    #[test]
    fn arg_sizes_are_checked() {
        assert!(check_arg_sizes("k", &[4, 8], &[Arg::U32(1), Arg::U64(2)]).is_ok());
        assert!(matches!(
            check_arg_sizes("k", &[4], &[Arg::U32(1), Arg::U32(2)]),
            Err(GpuError::BadLaunch(_))
        ));
        assert!(matches!(
            check_arg_sizes("k", &[4], &[Arg::U64(1)]),
            Err(GpuError::BadLaunch(_))
        ));
    }
}
