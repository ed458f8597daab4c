//! Plain data that may be copied byte for byte between host and device.

/// A type whose values are plain bytes: copied to and from device memory with `memcpy`.
///
/// Implemented here for the integer types. Implement it for a `#[repr(C)]` struct that a kernel
/// mirrors, and assert its size and field offsets next to it:
///
/// ```
/// #[derive(Clone, Copy, Default)]
/// #[repr(C)]
/// struct Entry { key: u64, count: u32, depth: u32 }
/// // SAFETY: repr(C), integer fields only, no padding (8 + 4 + 4 = 16 bytes).
/// unsafe impl kogge_gpu::Pod for Entry {}
/// const _: () = assert!(std::mem::size_of::<Entry>() == 16);
/// ```
///
/// # Safety
///
/// The type must have no padding bytes, no pointers or references, and every bit pattern of its
/// size must be a valid value (device memory is read back into it unchecked).
pub unsafe trait Pod: Copy + Send + Sync + 'static {}

// SAFETY: primitive integers: no padding, every bit pattern valid.
unsafe impl Pod for u8 {}
// SAFETY: as above.
unsafe impl Pod for u16 {}
// SAFETY: as above.
unsafe impl Pod for u32 {}
// SAFETY: as above.
unsafe impl Pod for u64 {}
// SAFETY: as above.
unsafe impl Pod for i8 {}
// SAFETY: as above.
unsafe impl Pod for i16 {}
// SAFETY: as above.
unsafe impl Pod for i32 {}
// SAFETY: as above.
unsafe impl Pod for i64 {}
// SAFETY: an array of Pod values has no padding between elements and is valid for any bits.
unsafe impl<T: Pod, const N: usize> Pod for [T; N] {}

/// The bytes of a slice of plain data.
pub(crate) fn as_bytes<T: Pod>(data: &[T]) -> &[u8] {
    // SAFETY: T is Pod, so every byte of the slice is initialised (no padding); u8 has alignment
    // 1; the length is the slice's size in bytes and the lifetime is the input's.
    unsafe { std::slice::from_raw_parts(data.as_ptr().cast::<u8>(), std::mem::size_of_val(data)) }
}

/// The bytes of a mutable slice of plain data, to be overwritten by a device read.
pub(crate) fn as_bytes_mut<T: Pod>(data: &mut [T]) -> &mut [u8] {
    // SAFETY: as in `as_bytes`; and any bytes written through the result form valid T values,
    // since Pod types are valid for every bit pattern.
    unsafe {
        std::slice::from_raw_parts_mut(data.as_mut_ptr().cast::<u8>(), std::mem::size_of_val(data))
    }
}
