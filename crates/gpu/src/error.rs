//! The one error type of the compute layer. Driver errors carry the call that failed; compiler
//! errors carry the whole compiler log, so that a kernel typo reads like a compiler message.

use crate::BackendKind;
use cudarc::driver::DriverError;
use cudarc::nvrtc::result::NvrtcError;
use opencl3::error_codes::ClError;

#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum GpuError {
    /// The backend's shared library could not be loaded: no driver, no toolkit. Not a fault of
    /// the program; `kogge devices` lists it as a problem.
    #[error("{backend}: {library} not found ({hint})")]
    LibraryMissing {
        backend: BackendKind,
        library: &'static str,
        hint: &'static str,
    },

    /// A driver call failed. `context` names what was being done (`"cuMemcpyDtoH"`,
    /// `"clBuildProgram"`, ...), `message` is the driver's error.
    #[error("{backend}: {context}: {message}")]
    Driver {
        backend: BackendKind,
        context: String,
        message: String,
    },

    /// The kernel source did not compile; `log` is the compiler's output.
    #[error("{backend} kernel compilation failed:\n{log}")]
    Compile { backend: BackendKind, log: String },

    /// No device matches the request (or there is no device at all).
    #[error("no device: {0}")]
    NoDevice(String),

    /// A launch the API refuses before it reaches the driver: sizes that do not fit, arguments
    /// that do not match the kernel's parameters, objects from another device.
    #[error("bad launch: {0}")]
    BadLaunch(String),

    /// A call with impossible arguments (a copy longer than the buffer, a malformed `#define`).
    #[error("bad argument: {0}")]
    BadArgument(String),

    /// A kernel ran, but what it left cannot be used: its own checks caught an inconsistent
    /// state, or its results disagree with the host's layout. A bug in the kernel or the build.
    #[error("kernel fault: {0}")]
    KernelFault(String),
}

impl GpuError {
    pub(crate) fn driver(
        backend: BackendKind,
        context: impl Into<String>,
        message: impl ToString,
    ) -> Self {
        Self::Driver {
            backend,
            context: context.into(),
            message: message.to_string(),
        }
    }
}

impl From<DriverError> for GpuError {
    fn from(e: DriverError) -> Self {
        Self::driver(BackendKind::Cuda, "CUDA driver call", cuda_message(&e))
    }
}

impl From<NvrtcError> for GpuError {
    fn from(e: NvrtcError) -> Self {
        Self::driver(BackendKind::Cuda, "NVRTC call", format!("{:?}", e.0))
    }
}

impl From<ClError> for GpuError {
    fn from(e: ClError) -> Self {
        Self::driver(BackendKind::OpenCl, "OpenCL call", cl_message(e))
    }
}

/// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)" rather than cudarc's Debug form.
pub(crate) fn cuda_message(e: &DriverError) -> String {
    match (e.error_name(), e.error_string()) {
        (Ok(name), Ok(text)) => format!("{} ({})", name.to_string_lossy(), text.to_string_lossy()),
        _ => format!("{:?}", e.0),
    }
}

/// "CL_OUT_OF_RESOURCES (-5)".
pub(crate) fn cl_message(e: ClError) -> String {
    format!("{e} ({})", e.0)
}

/// Adds the failing call's name to a backend error: `.ctx("cuMemcpyHtoD")?`.
pub(crate) trait Context<T> {
    fn ctx(self, context: &str) -> Result<T, GpuError>;
}

impl<T> Context<T> for Result<T, DriverError> {
    fn ctx(self, context: &str) -> Result<T, GpuError> {
        self.map_err(|e| GpuError::driver(BackendKind::Cuda, context, cuda_message(&e)))
    }
}

impl<T> Context<T> for Result<T, NvrtcError> {
    fn ctx(self, context: &str) -> Result<T, GpuError> {
        self.map_err(|e| GpuError::driver(BackendKind::Cuda, context, format!("{:?}", e.0)))
    }
}

impl<T> Context<T> for Result<T, ClError> {
    fn ctx(self, context: &str) -> Result<T, GpuError> {
        self.map_err(|e| GpuError::driver(BackendKind::OpenCl, context, cl_message(e)))
    }
}
