//! What the examples share: how they read numbers from the environment, and the device they run
//! on. (A folder without a `main.rs`, so Cargo does not take it for an example of its own.)

use anyhow::{Context, Result};
use kogge_gpu::{DeviceInfo, list_devices};

/// The number in environment variable `name`, if it is set; an error if it is not a number.
pub fn env_number<T: std::str::FromStr>(name: &str) -> Result<Option<T>>
where
    T::Err: std::error::Error + Send + Sync + 'static,
{
    match std::env::var(name) {
        Ok(v) => Ok(Some(v.parse().with_context(|| format!("{name}={v}"))?)),
        Err(_) => Ok(None),
    }
}

/// The device `DEVICE=N` names in `kogge devices`' list (default 0, the first).
pub fn device_from_env() -> Result<DeviceInfo> {
    let index: usize = env_number("DEVICE")?.unwrap_or(0);
    list_devices()
        .devices
        .get(index)
        .cloned()
        .with_context(|| format!("no device {index} (see kogge devices)"))
}
