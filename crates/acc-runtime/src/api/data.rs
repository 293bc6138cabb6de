//! Data routines: `acc_malloc`/`acc_free`, the dynamic enter/exit routines (`acc_copyin`,
//! `acc_create`, `acc_copyout`, `acc_delete` and their forms), `acc_update_*`,
//! `acc_map/unmap_data`, `acc_deviceptr`, `acc_hostptr`, `acc_is_present`, `acc_attach/detach`.
//!
//! Every routine is one call of a `DeviceState` data action with `Counter::Dynamic`, between
//! the profiling events a directive doing the same would raise; reference counts change only
//! in `runtime`.

use super::{cur, ACC_ASYNC_SYNC};
use crate::error::{Result, Site};
use crate::ffi::guard;
use crate::present::Counter;
use crate::prof;
use crate::queue::QueueSel;
use crate::runtime::{queue_sel, Action, DeviceState, Flags};
use std::ffi::{c_int, c_void};

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
        let current = cur(&site)?;
        let dev = data_dev as usize;
        current.free(dev, &site).map_err(|e| {
            // Memory another device's acc_malloc returned (the current device changed since,
            // through acc_init or acc_set_device_type): say which, not "freed twice?".
            let elsewhere = !current.owns(dev);
            let owner = crate::runtime::runtime()
                .ok()
                .filter(|_| elsewhere)
                .and_then(|rt| {
                    rt.all()
                        .filter(|d| !std::ptr::eq(*d, current))
                        .find(|d| d.owns(dev))
                        .map(|d| d.label.clone())
                });
            match owner {
                Some(owner) if e.kind() == crate::error::ErrorKind::BadFree => {
                    crate::error::Error::new(
                        crate::error::ErrorKind::BadFree,
                        &site,
                        format!(
                            "{dev:#x} is memory acc_malloc returned on device {owner}, not on \
                             the current device {}; the current device changed after \
                             acc_malloc (acc_init, acc_set_device_type): free it while {owner} \
                             is current",
                            current.label
                        ),
                    )
                }
                _ => e,
            }
        })
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
    // The checking mode's hooks (`check`; nothing when it is off).
    let check = crate::check::begin_data(site, crate::check::track::Kind::Data, [].into_iter());
    let done = if prof::active() {
        let at = d.prof_origin(q, site);
        prof::other(start, &at, Some(prof::Construct::RuntimeApi));
        let done = work();
        prof::other(end, &at, Some(prof::Construct::RuntimeApi));
        done
    } else {
        work()
    };
    crate::check::end(check);
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

fn attach(
    routine: &'static str,
    ptr_addr: *mut *mut c_void,
    detach: Option<bool>,
    async_arg: c_int,
) {
    if crate::check::on() {
        crate::check::note_attach(ptr_addr as usize, size_of::<usize>());
    }
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
