//! Async queues and waits: CUDA streams of queues, `acc_async_test*`, `acc_wait*` (with
//! `acc_wait_any`), the default async queue, and OpenACC 1.0's names.
//!
//! Nothing here touches a present table; the work goes to `DeviceState::wait*` and the
//! device's `Queues`.

use super::{cur, device_of, ACC_DEVICE_CURRENT};
use crate::error::{Result, Site};
use crate::ffi::guard;
use crate::queue::QueueSel;
use crate::runtime::{self, queue_sel, DeviceState};
use std::ffi::{c_int, c_void};

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
