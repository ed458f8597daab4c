//! Shared by the integration tests: run one test body on every device there is.

use kogge_gpu::Device;
use kogge_gpu::testing::open_devices;

/// The kernel that exercises every prelude macro (tests/kernels/prelude_check.cl).
pub const PRELUDE_CHECK: &str = include_str!("../kernels/prelude_check.cl");

/// Work-group size of the prelude check (its GROUP define).
pub const GROUP: usize = 64;

/// Runs `body` on every device of every backend (`kogge_gpu::testing::open_devices`: PoCL
/// where there is no GPU, a failure in CI without an OpenCL device).
pub fn for_each_device(test: &str, body: impl Fn(&Device)) {
    for device in open_devices(test) {
        body(&device);
    }
}
