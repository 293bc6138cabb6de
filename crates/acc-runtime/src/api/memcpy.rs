//! Copies between host and device memory named by address: `acc_memcpy_to/from_device`,
//! `acc_memcpy_device` and `acc_memcpy_d2d` (between two devices), with their async forms.
//!
//! They never look at the present table: the device ranges are checked against the device's
//! allocations.

use super::{cur, device_of, ACC_ASYNC_SYNC, ACC_DEVICE_CURRENT};
use crate::error::{Error, ErrorKind, Result, Site};
use crate::ffi::guard;
use crate::runtime::queue_sel;
use std::ffi::{c_int, c_void};

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
        // A null address is no memory of either side; on the host device (whose device memory
        // is the host's) nothing else would stop the copy.
        if bytes > 0 && (dst.is_null() || src.is_null()) {
            let which = if dst.is_null() {
                "destination"
            } else {
                "source"
            };
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                &site,
                format!("the {which} of {bytes} bytes is a null pointer"),
            ));
        }
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
