//! The OpenACC 3.3 runtime library routines (chapter 3) with their C ABI, as declared in
//! `include/openacc.h`.
//!
//! Every routine runs its body through `ffi::guard`: an error prints `acc: error: ...` naming the
//! routine and exits 1, and no panic crosses into C. Routines that take host or device pointers
//! are `unsafe` for Rust callers: the pointers must be valid as the specification requires
//! (host data readable/writable for `bytes` bytes until the operation completed).
// The safety contract is the specification's, stated once above rather than on 80 routines.
#![allow(clippy::missing_safety_doc)]

use crate::device::{exec, DeviceKind};
use crate::error::{Error, ErrorKind, Result, Site};
use crate::ffi::guard;
use crate::present::Counter;
use crate::prof;
use crate::queue::QueueSel;
use crate::runtime::{self, queue_sel, Action, DeviceState, Flags};
use std::ffi::{c_char, c_int, c_void};

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

// ---- device management -------------------------------------------------------------------

#[no_mangle]
pub extern "C" fn acc_get_num_devices(dev_type: c_int) -> c_int {
    guard("acc_get_num_devices", || {
        let rt = runtime::runtime()?;
        let site = Site::routine("acc_get_num_devices");
        Ok(match dev_type {
            ACC_DEVICE_RADEON | ACC_DEVICE_NONE => 0,
            t => rt.count(kind_of(t, &site)?) as c_int,
        })
    })
}

#[no_mangle]
pub extern "C" fn acc_set_device_type(dev_type: c_int) {
    guard("acc_set_device_type", || {
        let site = Site::routine("acc_set_device_type");
        let rt = runtime::runtime()?;
        let kind = chosen_kind(dev_type, &site)?;
        if kind != kind_of(dev_type, &site)? {
            return Ok(()); // The current device stays (see `chosen_kind`).
        }
        let num = if kind == rt.default_kind {
            rt.default_num
        } else {
            0
        };
        runtime::set_current(kind, num, &site)
    })
}

#[no_mangle]
pub extern "C" fn acc_get_device_type() -> c_int {
    guard("acc_get_device_type", || {
        Ok(device_value(
            cur(&Site::routine("acc_get_device_type"))?.kind(),
        ))
    })
}

#[no_mangle]
pub extern "C" fn acc_set_device_num(dev_num: c_int, dev_type: c_int) {
    guard("acc_set_device_num", || {
        let site = Site::routine("acc_set_device_num");
        let t = if dev_type == ACC_DEVICE_NONE {
            ACC_DEVICE_CURRENT
        } else {
            dev_type
        };
        let d = chosen_device(dev_num, t, &site)?;
        runtime::set_current(d.kind(), d.device.number(), &site)
    })
}

#[no_mangle]
pub extern "C" fn acc_get_device_num(dev_type: c_int) -> c_int {
    guard("acc_get_device_num", || {
        let site = Site::routine("acc_get_device_num");
        let c = cur(&site)?;
        let kind = kind_of(dev_type, &site)?;
        if kind == c.kind() {
            return Ok(c.device.number() as c_int);
        }
        Ok(device_of(-1, dev_type, &site)?.device.number() as c_int)
    })
}

#[no_mangle]
pub extern "C" fn acc_get_property(dev_num: c_int, dev_type: c_int, property: c_int) -> usize {
    guard("acc_get_property", || {
        let d = device_of(dev_num, dev_type, &Site::routine("acc_get_property"))?;
        Ok(match property {
            ACC_PROPERTY_MEMORY => d.device.properties().total_memory,
            ACC_PROPERTY_FREE_MEMORY => d.device.free_memory(),
            ACC_PROPERTY_SHARED_MEMORY_SUPPORT => d.device.shares_host_memory() as usize,
            _ => 0,
        })
    })
}

#[no_mangle]
pub extern "C" fn acc_get_property_string(
    dev_num: c_int,
    dev_type: c_int,
    property: c_int,
) -> *const c_char {
    guard("acc_get_property_string", || {
        if dev_type == ACC_DEVICE_NVIDIA && property == ACC_PROPERTY_DESCRIPTION {
            if let Some(why) = nvidia_reason_c() {
                return Ok(why.as_ptr());
            }
        }
        let d = device_of(dev_num, dev_type, &Site::routine("acc_get_property_string"))?;
        Ok(match property {
            ACC_PROPERTY_NAME => d.name_c.as_ptr(),
            ACC_PROPERTY_VENDOR => d.vendor_c.as_ptr(),
            ACC_PROPERTY_DRIVER => d.driver_c.as_ptr(),
            ACC_PROPERTY_DESCRIPTION => d.description_c.as_ptr(),
            _ => std::ptr::null(),
        })
    })
}

/// Why there is no nvidia device, as a C string that lives for the process; `None` when there
/// is one.
fn nvidia_reason_c() -> Option<&'static std::ffi::CStr> {
    static REASON: std::sync::OnceLock<Option<std::ffi::CString>> = std::sync::OnceLock::new();
    REASON
        .get_or_init(|| {
            runtime::nvidia_unavailable().map(|why| {
                std::ffi::CString::new(format!("no nvidia device: {why}").replace('\0', " "))
                    .unwrap_or_default()
            })
        })
        .as_deref()
}

#[no_mangle]
pub extern "C" fn acc_init(dev_type: c_int) {
    guard("acc_init", || {
        let site = Site::routine("acc_init");
        let d = chosen_device(-1, dev_type, &site)?;
        runtime::set_current(d.kind(), d.device.number(), &site)
    })
}

#[no_mangle]
pub extern "C" fn acc_init_device(dev_num: c_int, dev_type: c_int) {
    // CPU devices need no start-up; initialising checks that the device exists.
    guard("acc_init_device", || {
        chosen_device(dev_num, dev_type, &Site::routine("acc_init_device")).map(drop)
    })
}

#[no_mangle]
pub extern "C" fn acc_shutdown(dev_type: c_int) {
    guard("acc_shutdown", || {
        let rt = runtime::runtime()?;
        let kind = kind_of(dev_type, &Site::routine("acc_shutdown"))?;
        rt.all()
            .filter(|d| d.kind() == kind)
            .for_each(DeviceState::shutdown);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn acc_shutdown_device(dev_num: c_int, dev_type: c_int) {
    guard("acc_shutdown_device", || {
        device_of(dev_num, dev_type, &Site::routine("acc_shutdown_device"))?.shutdown();
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn acc_on_device(dev_type: c_int) -> c_int {
    guard("acc_on_device", || {
        let on = exec::running_on().unwrap_or(DeviceKind::Host);
        Ok(match dev_type {
            ACC_DEVICE_HOST => on == DeviceKind::Host,
            ACC_DEVICE_NOT_HOST => on != DeviceKind::Host,
            ACC_DEVICE_HOST_DISCRETE => on == DeviceKind::HostDiscrete,
            ACC_DEVICE_NVIDIA => on == DeviceKind::Nvidia,
            _ => false,
        } as c_int)
    })
}

// ---- async -------------------------------------------------------------------------------

/// The CUDA stream of an async queue of the current device (`acc_async_sync`: the stream of
/// synchronous operations); NULL when the current device is not an nvidia device.
#[no_mangle]
pub extern "C" fn acc_get_cuda_stream(async_arg: c_int) -> *mut c_void {
    guard("acc_get_cuda_stream", || {
        let site = Site::routine("acc_get_cuda_stream");
        let d = cur(&site)?;
        let Some(gpu) = d.device.cuda() else {
            return Ok(std::ptr::null_mut());
        };
        let key = match queue_sel(async_arg, &site)? {
            QueueSel::Sync => None,
            QueueSel::Async(k) => Some(k),
        };
        Ok(gpu.stream_for(key).cast())
    })
}

/// Makes async queue `async_arg` of the current device use `stream` (after waiting for the
/// queue). Returns 1, or 0 when the current device is not an nvidia device or `async_arg` is
/// not a queue.
#[no_mangle]
pub unsafe extern "C" fn acc_set_cuda_stream(async_arg: c_int, stream: *mut c_void) -> c_int {
    guard("acc_set_cuda_stream", || {
        let site = Site::routine("acc_set_cuda_stream");
        let d = cur(&site)?;
        let (Some(gpu), QueueSel::Async(key)) = (d.device.cuda(), queue_sel(async_arg, &site)?)
        else {
            return Ok(0);
        };
        if stream.is_null() {
            return Ok(0);
        }
        d.queues.wait(key);
        // SAFETY: the program passes a stream of the current device's primary context (the
        // CUDA runtime's context), as the specification requires.
        unsafe { gpu.set_stream(key, stream.cast()) };
        Ok(1)
    })
}

#[no_mangle]
pub extern "C" fn acc_async_test(wait_arg: c_int) -> c_int {
    guard("acc_async_test", || {
        let site = Site::routine("acc_async_test");
        Ok(cur(&site)?.async_test(wait_arg, &site)? as c_int)
    })
}

#[no_mangle]
pub extern "C" fn acc_async_test_device(wait_arg: c_int, dev_num: c_int) -> c_int {
    guard("acc_async_test_device", || {
        let site = Site::routine("acc_async_test_device");
        Ok(device_of(dev_num, ACC_DEVICE_CURRENT, &site)?.async_test(wait_arg, &site)? as c_int)
    })
}

#[no_mangle]
pub extern "C" fn acc_async_test_all() -> c_int {
    guard("acc_async_test_all", || {
        Ok(cur(&Site::routine("acc_async_test_all"))?.queues.test_all() as c_int)
    })
}

#[no_mangle]
pub extern "C" fn acc_async_test_all_device(dev_num: c_int) -> c_int {
    guard("acc_async_test_all_device", || {
        let site = Site::routine("acc_async_test_all_device");
        Ok(device_of(dev_num, ACC_DEVICE_CURRENT, &site)?
            .queues
            .test_all() as c_int)
    })
}

#[no_mangle]
pub extern "C" fn acc_wait(wait_arg: c_int) {
    guard("acc_wait", || {
        let site = Site::routine("acc_wait");
        cur(&site)?.wait(wait_arg, None, &site)
    })
}

#[no_mangle]
pub extern "C" fn acc_wait_device(wait_arg: c_int, dev_num: c_int) {
    guard("acc_wait_device", || {
        let site = Site::routine("acc_wait_device");
        device_of(dev_num, ACC_DEVICE_CURRENT, &site)?.wait(wait_arg, None, &site)
    })
}

#[no_mangle]
pub extern "C" fn acc_wait_async(wait_arg: c_int, async_arg: c_int) {
    guard("acc_wait_async", || {
        let site = Site::routine("acc_wait_async");
        cur(&site)?.wait(wait_arg, Some(async_arg), &site)
    })
}

#[no_mangle]
pub extern "C" fn acc_wait_device_async(wait_arg: c_int, async_arg: c_int, dev_num: c_int) {
    guard("acc_wait_device_async", || {
        let site = Site::routine("acc_wait_device_async");
        device_of(dev_num, ACC_DEVICE_CURRENT, &site)?.wait(wait_arg, Some(async_arg), &site)
    })
}

#[no_mangle]
pub extern "C" fn acc_wait_all() {
    guard("acc_wait_all", || {
        let site = Site::routine("acc_wait_all");
        cur(&site)?.wait_all(None, &site)
    })
}

#[no_mangle]
pub extern "C" fn acc_wait_all_device(dev_num: c_int) {
    guard("acc_wait_all_device", || {
        let site = Site::routine("acc_wait_all_device");
        device_of(dev_num, ACC_DEVICE_CURRENT, &site)?.wait_all(None, &site)
    })
}

#[no_mangle]
pub extern "C" fn acc_wait_all_async(async_arg: c_int) {
    guard("acc_wait_all_async", || {
        let site = Site::routine("acc_wait_all_async");
        cur(&site)?.wait_all(Some(async_arg), &site)
    })
}

#[no_mangle]
pub extern "C" fn acc_wait_all_device_async(async_arg: c_int, dev_num: c_int) {
    guard("acc_wait_all_device_async", || {
        let site = Site::routine("acc_wait_all_device_async");
        device_of(dev_num, ACC_DEVICE_CURRENT, &site)?.wait_all(Some(async_arg), &site)
    })
}

fn wait_any(
    d: &DeviceState,
    count: c_int,
    wait_arg: *const c_int,
    site: &Site<'_>,
) -> Result<c_int> {
    if count <= 0 || wait_arg.is_null() {
        return Ok(-1);
    }
    // SAFETY: the caller passes an array of `count` ints, as the specification requires.
    let args = unsafe { std::slice::from_raw_parts(wait_arg, count as usize) };
    let keys = args
        .iter()
        .map(|&a| {
            queue_sel(a, site).map(|q| match q {
                QueueSel::Sync => None,
                QueueSel::Async(k) => Some(k),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(d.queues.wait_any(&keys).map_or(-1, |i| i as c_int))
}

#[no_mangle]
pub unsafe extern "C" fn acc_wait_any(count: c_int, wait_arg: *mut c_int) -> c_int {
    guard("acc_wait_any", || {
        let site = Site::routine("acc_wait_any");
        wait_any(cur(&site)?, count, wait_arg, &site)
    })
}

#[no_mangle]
pub unsafe extern "C" fn acc_wait_any_device(
    count: c_int,
    wait_arg: *mut c_int,
    dev_num: c_int,
) -> c_int {
    guard("acc_wait_any_device", || {
        let site = Site::routine("acc_wait_any_device");
        wait_any(
            device_of(dev_num, ACC_DEVICE_CURRENT, &site)?,
            count,
            wait_arg,
            &site,
        )
    })
}

#[no_mangle]
pub extern "C" fn acc_get_default_async() -> c_int {
    guard("acc_get_default_async", || Ok(runtime::default_async()))
}

#[no_mangle]
pub extern "C" fn acc_set_default_async(async_arg: c_int) {
    guard("acc_set_default_async", || {
        runtime::set_default_async(async_arg, &Site::routine("acc_set_default_async"))
    })
}

/// OpenACC 1.0's name of `acc_wait`.
#[no_mangle]
pub extern "C" fn acc_async_wait(wait_arg: c_int) {
    acc_wait(wait_arg)
}

/// OpenACC 1.0's name of `acc_wait_all`.
#[no_mangle]
pub extern "C" fn acc_async_wait_all() {
    acc_wait_all()
}

// ---- data --------------------------------------------------------------------------------

#[no_mangle]
pub extern "C" fn acc_malloc(bytes: usize) -> *mut c_void {
    guard("acc_malloc", || {
        let site = Site::routine("acc_malloc");
        Ok(cur(&site)?.malloc(bytes, &site)? as *mut c_void)
    })
}

#[no_mangle]
pub unsafe extern "C" fn acc_free(data_dev: *mut c_void) {
    guard("acc_free", || {
        let site = Site::routine("acc_free");
        cur(&site)?.free(data_dev as usize, &site)
    })
}

/// Enter (`Dynamic`) with an async argument: the body of `acc_copyin`, `acc_create` and forms.
/// Runs a data routine's work between the start and end events a directive doing the same
/// would raise, with `acc_construct_runtime_api` as their construct.
fn with_events<T>(
    d: &'static DeviceState,
    q: QueueSel,
    site: &Site<'_>,
    (start, end): (prof::Event, prof::Event),
    work: impl FnOnce() -> Result<T>,
) -> Result<T> {
    if !prof::active() {
        return work();
    }
    let at = d.prof_origin(q, site);
    prof::other(start, &at, Some(prof::Construct::RuntimeApi));
    let done = work();
    prof::other(end, &at, Some(prof::Construct::RuntimeApi));
    done
}

const ENTER: (prof::Event, prof::Event) = (prof::Event::EnterDataStart, prof::Event::EnterDataEnd);
const EXIT: (prof::Event, prof::Event) = (prof::Event::ExitDataStart, prof::Event::ExitDataEnd);
const UPDATE: (prof::Event, prof::Event) = (prof::Event::UpdateStart, prof::Event::UpdateEnd);

fn dyn_enter(
    routine: &'static str,
    action: Action,
    data: *mut c_void,
    bytes: usize,
    async_arg: c_int,
) -> *mut c_void {
    guard(routine, || {
        let site = Site::routine(routine);
        let q = queue_sel(async_arg, &site)?;
        let d = cur(&site)?;
        // SAFETY: the program's pointer is valid for `bytes` bytes, as the routine requires.
        let dev = with_events(d, q, &site, ENTER, || unsafe {
            d.enter(
                action,
                Flags::default(),
                data as usize,
                bytes,
                Counter::Dynamic,
                q,
                &site,
            )
        })?;
        Ok(dev as *mut c_void)
    })
}

/// Exit (`Dynamic`): the body of `acc_copyout`, `acc_delete` and forms.
fn dyn_exit(
    routine: &'static str,
    action: Action,
    finalize: bool,
    data: *mut c_void,
    bytes: usize,
    async_arg: c_int,
) {
    guard(routine, || {
        let site = Site::routine(routine);
        let q = queue_sel(async_arg, &site)?;
        let flags = if finalize {
            Flags::FINALIZE
        } else {
            Flags::default()
        };
        let d = cur(&site)?;
        // SAFETY: the program's pointer is valid for `bytes` bytes, as the routine requires.
        with_events(d, q, &site, EXIT, || unsafe {
            d.exit(
                action,
                flags,
                data as usize,
                bytes,
                Counter::Dynamic,
                q,
                &site,
            )
        })
    })
}

#[no_mangle]
pub unsafe extern "C" fn acc_copyin(data_arg: *mut c_void, bytes: usize) -> *mut c_void {
    dyn_enter(
        "acc_copyin",
        Action::CopyIn,
        data_arg,
        bytes,
        ACC_ASYNC_SYNC,
    )
}

#[no_mangle]
pub unsafe extern "C" fn acc_copyin_async(data_arg: *mut c_void, bytes: usize, async_arg: c_int) {
    dyn_enter(
        "acc_copyin_async",
        Action::CopyIn,
        data_arg,
        bytes,
        async_arg,
    );
}

#[no_mangle]
pub unsafe extern "C" fn acc_create(data_arg: *mut c_void, bytes: usize) -> *mut c_void {
    dyn_enter(
        "acc_create",
        Action::Create,
        data_arg,
        bytes,
        ACC_ASYNC_SYNC,
    )
}

#[no_mangle]
pub unsafe extern "C" fn acc_create_async(data_arg: *mut c_void, bytes: usize, async_arg: c_int) {
    dyn_enter(
        "acc_create_async",
        Action::Create,
        data_arg,
        bytes,
        async_arg,
    );
}

/// Deprecated (OpenACC 2.x) name of `acc_copyin`.
#[no_mangle]
pub unsafe extern "C" fn acc_present_or_copyin(data_arg: *mut c_void, bytes: usize) -> *mut c_void {
    dyn_enter(
        "acc_present_or_copyin",
        Action::CopyIn,
        data_arg,
        bytes,
        ACC_ASYNC_SYNC,
    )
}

/// Deprecated short name of `acc_copyin`.
#[no_mangle]
pub unsafe extern "C" fn acc_pcopyin(data_arg: *mut c_void, bytes: usize) -> *mut c_void {
    dyn_enter(
        "acc_pcopyin",
        Action::CopyIn,
        data_arg,
        bytes,
        ACC_ASYNC_SYNC,
    )
}

/// Deprecated (OpenACC 2.x) name of `acc_create`.
#[no_mangle]
pub unsafe extern "C" fn acc_present_or_create(data_arg: *mut c_void, bytes: usize) -> *mut c_void {
    dyn_enter(
        "acc_present_or_create",
        Action::Create,
        data_arg,
        bytes,
        ACC_ASYNC_SYNC,
    )
}

/// Deprecated short name of `acc_create`.
#[no_mangle]
pub unsafe extern "C" fn acc_pcreate(data_arg: *mut c_void, bytes: usize) -> *mut c_void {
    dyn_enter(
        "acc_pcreate",
        Action::Create,
        data_arg,
        bytes,
        ACC_ASYNC_SYNC,
    )
}

#[no_mangle]
pub unsafe extern "C" fn acc_copyout(data_arg: *mut c_void, bytes: usize) {
    dyn_exit(
        "acc_copyout",
        Action::CopyOut,
        false,
        data_arg,
        bytes,
        ACC_ASYNC_SYNC,
    )
}

#[no_mangle]
pub unsafe extern "C" fn acc_copyout_async(data_arg: *mut c_void, bytes: usize, async_arg: c_int) {
    dyn_exit(
        "acc_copyout_async",
        Action::CopyOut,
        false,
        data_arg,
        bytes,
        async_arg,
    )
}

#[no_mangle]
pub unsafe extern "C" fn acc_copyout_finalize(data_arg: *mut c_void, bytes: usize) {
    dyn_exit(
        "acc_copyout_finalize",
        Action::CopyOut,
        true,
        data_arg,
        bytes,
        ACC_ASYNC_SYNC,
    )
}

#[no_mangle]
pub unsafe extern "C" fn acc_copyout_finalize_async(
    data_arg: *mut c_void,
    bytes: usize,
    async_arg: c_int,
) {
    dyn_exit(
        "acc_copyout_finalize_async",
        Action::CopyOut,
        true,
        data_arg,
        bytes,
        async_arg,
    )
}

#[no_mangle]
pub unsafe extern "C" fn acc_delete(data_arg: *mut c_void, bytes: usize) {
    dyn_exit(
        "acc_delete",
        Action::Delete,
        false,
        data_arg,
        bytes,
        ACC_ASYNC_SYNC,
    )
}

#[no_mangle]
pub unsafe extern "C" fn acc_delete_async(data_arg: *mut c_void, bytes: usize, async_arg: c_int) {
    dyn_exit(
        "acc_delete_async",
        Action::Delete,
        false,
        data_arg,
        bytes,
        async_arg,
    )
}

#[no_mangle]
pub unsafe extern "C" fn acc_delete_finalize(data_arg: *mut c_void, bytes: usize) {
    dyn_exit(
        "acc_delete_finalize",
        Action::Delete,
        true,
        data_arg,
        bytes,
        ACC_ASYNC_SYNC,
    )
}

#[no_mangle]
pub unsafe extern "C" fn acc_delete_finalize_async(
    data_arg: *mut c_void,
    bytes: usize,
    async_arg: c_int,
) {
    dyn_exit(
        "acc_delete_finalize_async",
        Action::Delete,
        true,
        data_arg,
        bytes,
        async_arg,
    )
}

fn update(
    routine: &'static str,
    to_device: bool,
    data: *mut c_void,
    bytes: usize,
    async_arg: c_int,
) {
    guard(routine, || {
        let site = Site::routine(routine);
        let q = queue_sel(async_arg, &site)?;
        let d = cur(&site)?;
        // SAFETY: the program's pointer is valid for `bytes` bytes, as the routine requires.
        with_events(d, q, &site, UPDATE, || unsafe {
            d.update(to_device, false, data as usize, bytes, q, &site)
        })
    })
}

#[no_mangle]
pub unsafe extern "C" fn acc_update_device(data_arg: *mut c_void, bytes: usize) {
    update("acc_update_device", true, data_arg, bytes, ACC_ASYNC_SYNC)
}

#[no_mangle]
pub unsafe extern "C" fn acc_update_device_async(
    data_arg: *mut c_void,
    bytes: usize,
    async_arg: c_int,
) {
    update("acc_update_device_async", true, data_arg, bytes, async_arg)
}

#[no_mangle]
pub unsafe extern "C" fn acc_update_self(data_arg: *mut c_void, bytes: usize) {
    update("acc_update_self", false, data_arg, bytes, ACC_ASYNC_SYNC)
}

#[no_mangle]
pub unsafe extern "C" fn acc_update_self_async(
    data_arg: *mut c_void,
    bytes: usize,
    async_arg: c_int,
) {
    update("acc_update_self_async", false, data_arg, bytes, async_arg)
}

#[no_mangle]
pub unsafe extern "C" fn acc_map_data(data_arg: *mut c_void, data_dev: *mut c_void, bytes: usize) {
    guard("acc_map_data", || {
        let site = Site::routine("acc_map_data");
        cur(&site)?.map_data(data_arg as usize, data_dev as usize, bytes, &site)
    })
}

#[no_mangle]
pub unsafe extern "C" fn acc_unmap_data(data_arg: *mut c_void) {
    guard("acc_unmap_data", || {
        let site = Site::routine("acc_unmap_data");
        cur(&site)?.unmap_data(data_arg as usize, &site)
    })
}

#[no_mangle]
pub unsafe extern "C" fn acc_deviceptr(data_arg: *mut c_void) -> *mut c_void {
    guard("acc_deviceptr", || {
        Ok(cur(&Site::routine("acc_deviceptr"))?.deviceptr(data_arg as usize) as *mut c_void)
    })
}

#[no_mangle]
pub unsafe extern "C" fn acc_hostptr(data_dev: *mut c_void) -> *mut c_void {
    guard("acc_hostptr", || {
        Ok(cur(&Site::routine("acc_hostptr"))?.hostptr(data_dev as usize) as *mut c_void)
    })
}

#[no_mangle]
pub unsafe extern "C" fn acc_is_present(data_arg: *mut c_void, bytes: usize) -> c_int {
    guard("acc_is_present", || {
        Ok(cur(&Site::routine("acc_is_present"))?.is_present(data_arg as usize, bytes) as c_int)
    })
}

fn memcpy(
    routine: &'static str,
    dir: u8,
    dst: *mut c_void,
    src: *mut c_void,
    bytes: usize,
    async_arg: c_int,
) {
    guard(routine, || {
        let site = Site::routine(routine);
        let q = queue_sel(async_arg, &site)?;
        let d = cur(&site)?;
        let (dst, src) = (dst as usize, src as usize);
        // SAFETY: the program's host pointer is valid for `bytes` bytes, as the routine requires;
        // device pointers are checked against the device's allocations.
        unsafe {
            match dir {
                0 => d.memcpy_to_device(dst, src, bytes, q, &site),
                1 => d.memcpy_from_device(dst, src, bytes, q, &site),
                _ => d.memcpy_device(dst, src, bytes, q, &site),
            }
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_to_device(
    data_dev_dest: *mut c_void,
    data_host_src: *mut c_void,
    bytes: usize,
) {
    memcpy(
        "acc_memcpy_to_device",
        0,
        data_dev_dest,
        data_host_src,
        bytes,
        ACC_ASYNC_SYNC,
    )
}

#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_to_device_async(
    data_dev_dest: *mut c_void,
    data_host_src: *mut c_void,
    bytes: usize,
    async_arg: c_int,
) {
    memcpy(
        "acc_memcpy_to_device_async",
        0,
        data_dev_dest,
        data_host_src,
        bytes,
        async_arg,
    )
}

#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_from_device(
    data_host_dest: *mut c_void,
    data_dev_src: *mut c_void,
    bytes: usize,
) {
    memcpy(
        "acc_memcpy_from_device",
        1,
        data_host_dest,
        data_dev_src,
        bytes,
        ACC_ASYNC_SYNC,
    )
}

#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_from_device_async(
    data_host_dest: *mut c_void,
    data_dev_src: *mut c_void,
    bytes: usize,
    async_arg: c_int,
) {
    memcpy(
        "acc_memcpy_from_device_async",
        1,
        data_host_dest,
        data_dev_src,
        bytes,
        async_arg,
    )
}

#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_device(
    data_dev_dest: *mut c_void,
    data_dev_src: *mut c_void,
    bytes: usize,
) {
    memcpy(
        "acc_memcpy_device",
        2,
        data_dev_dest,
        data_dev_src,
        bytes,
        ACC_ASYNC_SYNC,
    )
}

#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_device_async(
    data_dev_dest: *mut c_void,
    data_dev_src: *mut c_void,
    bytes: usize,
    async_arg: c_int,
) {
    memcpy(
        "acc_memcpy_device_async",
        2,
        data_dev_dest,
        data_dev_src,
        bytes,
        async_arg,
    )
}

fn memcpy_d2d(
    routine: &'static str,
    dst: usize,
    src: usize,
    bytes: usize,
    dev_dst: c_int,
    dev_src: c_int,
    async_arg: c_int,
) -> Result<()> {
    let site = Site::routine(routine);
    let q = queue_sel(async_arg, &site)?;
    let (dd, sd) = (
        device_of(dev_dst, ACC_DEVICE_CURRENT, &site)?,
        device_of(dev_src, ACC_DEVICE_CURRENT, &site)?,
    );
    if bytes == 0 {
        return Ok(());
    }
    for (d, h) in [(dd, dst), (sd, src)] {
        if !d.is_present(h, bytes) {
            return Err(Error::new(
                ErrorKind::NotPresent,
                &site,
                format!(
                    "{} is not present on device {}",
                    site.what(h, bytes),
                    d.label
                ),
            ));
        }
    }
    let (ddev, sdev) = (dd.deviceptr(dst), sd.deviceptr(src));
    // Staged through host memory so that the copy works between any two kinds of device; the
    // source device's queue orders it, as the specification's `async_arg_src` says.
    sd.queues.submit(q, move || {
        let mut buf = vec![0u8; bytes];
        // SAFETY: both ranges were present (live device memory) when the copy was enqueued, and
        // the program keeps them mapped until it completed.
        unsafe {
            sd.device.copy_to_host(buf.as_mut_ptr(), sdev, bytes);
            dd.device.copy_to_device(ddev, buf.as_ptr(), bytes);
        }
    });
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_d2d(
    data_arg_dest: *mut c_void,
    data_arg_src: *mut c_void,
    bytes: usize,
    dev_num_dest: c_int,
    dev_num_src: c_int,
) {
    guard("acc_memcpy_d2d", || {
        memcpy_d2d(
            "acc_memcpy_d2d",
            data_arg_dest as usize,
            data_arg_src as usize,
            bytes,
            dev_num_dest,
            dev_num_src,
            ACC_ASYNC_SYNC,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_d2d_async(
    data_arg_dest: *mut c_void,
    data_arg_src: *mut c_void,
    bytes: usize,
    dev_num_dest: c_int,
    dev_num_src: c_int,
    async_arg_src: c_int,
) {
    guard("acc_memcpy_d2d_async", || {
        memcpy_d2d(
            "acc_memcpy_d2d_async",
            data_arg_dest as usize,
            data_arg_src as usize,
            bytes,
            dev_num_dest,
            dev_num_src,
            async_arg_src,
        )
    })
}

fn attach(
    routine: &'static str,
    ptr_addr: *mut *mut c_void,
    detach: Option<bool>,
    async_arg: c_int,
) {
    guard(routine, || {
        let site = Site::routine(routine);
        let q = queue_sel(async_arg, &site)?;
        let d = cur(&site)?;
        // SAFETY: the program passes the address of a pointer, as the routine requires.
        unsafe {
            match detach {
                None => d.attach(ptr_addr as usize, q, &site),
                Some(finalize) => d.detach(ptr_addr as usize, finalize, q, &site),
            }
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn acc_attach(ptr_addr: *mut *mut c_void) {
    attach("acc_attach", ptr_addr, None, ACC_ASYNC_SYNC)
}

#[no_mangle]
pub unsafe extern "C" fn acc_attach_async(ptr_addr: *mut *mut c_void, async_arg: c_int) {
    attach("acc_attach_async", ptr_addr, None, async_arg)
}

#[no_mangle]
pub unsafe extern "C" fn acc_detach(ptr_addr: *mut *mut c_void) {
    attach("acc_detach", ptr_addr, Some(false), ACC_ASYNC_SYNC)
}

#[no_mangle]
pub unsafe extern "C" fn acc_detach_async(ptr_addr: *mut *mut c_void, async_arg: c_int) {
    attach("acc_detach_async", ptr_addr, Some(false), async_arg)
}

#[no_mangle]
pub unsafe extern "C" fn acc_detach_finalize(ptr_addr: *mut *mut c_void) {
    attach("acc_detach_finalize", ptr_addr, Some(true), ACC_ASYNC_SYNC)
}

#[no_mangle]
pub unsafe extern "C" fn acc_detach_finalize_async(ptr_addr: *mut *mut c_void, async_arg: c_int) {
    attach("acc_detach_finalize_async", ptr_addr, Some(true), async_arg)
}
