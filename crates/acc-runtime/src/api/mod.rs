//! The OpenACC 3.3 runtime library routines (chapter 3) with their C ABI, as declared in
//! `include/openacc.h`.
//!
//! Every routine runs its body through `ffi::guard`: an error prints `acc: error: ...` naming the
//! routine and exits 1, and no panic crosses into C. Routines that take host or device pointers
//! are `unsafe` for Rust callers: the pointers must be valid as the specification requires
//! (host data readable/writable for `bytes` bytes until the operation completed).
//!
//! This module holds the `acc_device_t`/`acc_device_property_t` values and how a routine's
//! `(dev_num, dev_type)` picks a device; the routines are in `device` (device management),
//! `waits` (async queues and waits), `data` (data routines) and `memcpy` (copies by address),
//! all re-exported here. None of them keeps state: they resolve the device and call `runtime`.
// The safety contract is the specification's, stated once above rather than on 80 routines.
#![allow(clippy::missing_safety_doc)]

use crate::device::DeviceKind;
use crate::error::{Error, ErrorKind, Result, Site};
use crate::runtime::{self, DeviceState};
use std::ffi::c_int;

mod data;
mod device;
mod memcpy;
mod waits;

pub use data::*;
pub use device::*;
pub use memcpy::*;
pub use waits::*;

/// `acc_device_t` values (the same numbering as GCC's `openacc.h`, plus ours).
pub const ACC_DEVICE_CURRENT: c_int = -1;
pub const ACC_DEVICE_NONE: c_int = 0;
pub const ACC_DEVICE_DEFAULT: c_int = 1;
pub const ACC_DEVICE_HOST: c_int = 2;
pub const ACC_DEVICE_NOT_HOST: c_int = 4;
pub const ACC_DEVICE_NVIDIA: c_int = 5;
pub const ACC_DEVICE_RADEON: c_int = 8;
pub const ACC_DEVICE_HOST_DISCRETE: c_int = 64;

/// `acc_device_property_t` values.
pub const ACC_PROPERTY_MEMORY: c_int = 1;
pub const ACC_PROPERTY_FREE_MEMORY: c_int = 2;
pub const ACC_PROPERTY_SHARED_MEMORY_SUPPORT: c_int = 3;
pub const ACC_PROPERTY_NAME: c_int = 0x10001;
pub const ACC_PROPERTY_VENDOR: c_int = 0x10002;
pub const ACC_PROPERTY_DRIVER: c_int = 0x10003;
/// acc extension: a sentence about the device; for `acc_device_nvidia` in a process without a
/// GPU, why there is none.
pub const ACC_PROPERTY_DESCRIPTION: c_int = 0x10004;

pub use runtime::{ASYNC_NOVAL as ACC_ASYNC_NOVAL, ASYNC_SYNC as ACC_ASYNC_SYNC};

/// The `acc_device_t` of a device kind.
pub(crate) fn device_value(k: DeviceKind) -> c_int {
    match k {
        DeviceKind::Host => ACC_DEVICE_HOST,
        DeviceKind::HostDiscrete => ACC_DEVICE_HOST_DISCRETE,
        DeviceKind::Nvidia => ACC_DEVICE_NVIDIA,
    }
}

/// The device kind an `acc_device_t` argument selects.
fn kind_of(t: c_int, site: &Site<'_>) -> Result<DeviceKind> {
    match t {
        ACC_DEVICE_CURRENT => Ok(runtime::current(site)?.kind()),
        ACC_DEVICE_DEFAULT => Ok(runtime::runtime()?.default_kind),
        ACC_DEVICE_HOST => Ok(DeviceKind::Host),
        // The GPU when there is one, else host_discrete.
        ACC_DEVICE_NOT_HOST => Ok(runtime::not_host_kind()),
        ACC_DEVICE_HOST_DISCRETE => Ok(DeviceKind::HostDiscrete),
        ACC_DEVICE_NVIDIA => Ok(DeviceKind::Nvidia),
        other => Err(Error::new(
            ErrorKind::NoDevice,
            site,
            format!("device type {other} is not available in this build of the acc runtime"),
        )),
    }
}

/// The device `(dev_num, dev_type)` names; a negative number means the type's default device.
fn device_of(num: c_int, t: c_int, site: &Site<'_>) -> Result<&'static DeviceState> {
    let rt = runtime::runtime()?;
    if t == ACC_DEVICE_CURRENT && num < 0 {
        return runtime::current(site);
    }
    let kind = kind_of(t, site)?;
    let num = if num >= 0 {
        num as usize
    } else if kind == rt.default_kind {
        rt.default_num
    } else {
        0
    };
    rt.device(kind, num, site)
}

/// The kind a routine that chooses or starts a device (`acc_set_device_type`,
/// `acc_set_device_num`, `acc_init`, `acc_init_device`, and the `set` and `init` directives
/// that call them) gets for `t`: `t`'s own, or — when `t` names `nvidia` and this process has no
/// GPU — the current device's, with a warning the first time at each call site. OpenACC 3.3
/// leaves a request for a device type that is not available to the implementation (§3.2.3,
/// §3.2.5, §3.2.7: "the behavior is implementation-defined"); a program written for a GPU keeps
/// its promise of running anywhere, as with GCC. A user who wants the GPU or nothing says
/// `ACC_DEVICE_TYPE=nvidia`, which stops the program at start-up on such a machine.
fn chosen_kind(t: c_int, site: &Site<'_>) -> Result<DeviceKind> {
    let kind = kind_of(t, site)?;
    if kind != DeviceKind::Nvidia {
        return Ok(kind);
    }
    let Some(why) = runtime::nvidia_unavailable() else {
        return Ok(kind);
    };
    let current = runtime::current(site)?.kind();
    static WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !WARNED.swap(true, std::sync::atomic::Ordering::Relaxed) {
        eprintln!(
            "acc: warning: {}: no nvidia device ({why}): the program goes on on device type {} \
             (ACC_DEVICE_TYPE=nvidia makes a missing GPU an error)",
            site.location(),
            current.name()
        );
    }
    Ok(current)
}

/// The device `(num, t)` for a routine that chooses one (see [`chosen_kind`]). When `t` stood
/// for the current kind, a number that kind does not have keeps the current device.
fn chosen_device(num: c_int, t: c_int, site: &Site<'_>) -> Result<&'static DeviceState> {
    let kind = chosen_kind(t, site)?;
    let substituted = t == ACC_DEVICE_NVIDIA && kind != DeviceKind::Nvidia;
    if !substituted {
        return device_of(num, t, site);
    }
    let rt = runtime::runtime()?;
    match usize::try_from(num) {
        Ok(n) if n < rt.count(kind) => rt.device(kind, n, site),
        _ => runtime::current(site),
    }
}

fn cur(site: &Site<'_>) -> Result<&'static DeviceState> {
    runtime::current(site)
}
