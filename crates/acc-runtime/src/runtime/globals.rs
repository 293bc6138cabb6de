//! Globals of `routine` functions: while a C kernel's chunk runs, the calling thread knows
//! the launch's device, so a routine's file-scope (`declare`d) variable resolves to its device
//! copy (`acc_rt_global`).
//!
//! Invariant: `KERNEL_DEVICE` is set only by [`in_chunk`] around one chunk, and restored after
//! it (chunks may nest when a kernel runs on the launching thread).

use super::DeviceState;
use std::cell::Cell;

thread_local! {
    /// The device whose C kernel chunk the calling thread is running (as a `*const
    /// DeviceState`, 0 outside chunks): what `routine` functions reach globals on.
    static KERNEL_DEVICE: Cell<usize> = const { Cell::new(0) };
}

/// Where a `routine` function running on the calling thread finds the file-scope variable at
/// `host`: inside a kernel chunk, its device copy when the device has one (a routine on
/// `host_discrete` sees what a GPU kernel would); elsewhere, the variable itself.
pub fn kernel_global(host: usize) -> usize {
    let d = KERNEL_DEVICE.with(Cell::get);
    if d == 0 {
        return host;
    }
    // SAFETY: `KERNEL_DEVICE` holds a device only while a chunk of a launch on it runs on this
    // thread, and devices live as long as the runtime.
    let d = unsafe { &*(d as *const DeviceState) };
    match d.deviceptr(host) {
        0 => host,
        dev => dev,
    }
}

/// Runs one chunk of a C kernel launched on `device` (a `*const DeviceState`) with it as the
/// calling thread's kernel device, then restores the outer one.
pub(super) fn in_chunk(device: usize, chunk: impl FnOnce()) {
    let outer = KERNEL_DEVICE.with(|k| k.replace(device));
    chunk();
    KERNEL_DEVICE.with(|k| k.set(outer));
}
