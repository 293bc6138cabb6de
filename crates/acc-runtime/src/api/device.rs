//! Device management routines: `acc_get_num_devices`, `acc_set/get_device_type/num`,
//! `acc_get_property(_string)`, `acc_init(_device)`, `acc_shutdown(_device)`, `acc_on_device`.
//!
//! The current device changes only through `runtime::set_current`; `acc_shutdown` waits for
//! the device's queues before it drops its mappings (`DeviceState::shutdown`).

use super::{
    chosen_device, chosen_kind, cur, device_of, device_value, kind_of, ACC_DEVICE_CURRENT,
    ACC_DEVICE_HOST, ACC_DEVICE_HOST_DISCRETE, ACC_DEVICE_NONE, ACC_DEVICE_NOT_HOST,
    ACC_DEVICE_NVIDIA, ACC_DEVICE_RADEON, ACC_PROPERTY_DESCRIPTION, ACC_PROPERTY_DRIVER,
    ACC_PROPERTY_FREE_MEMORY, ACC_PROPERTY_MEMORY, ACC_PROPERTY_NAME,
    ACC_PROPERTY_SHARED_MEMORY_SUPPORT, ACC_PROPERTY_VENDOR,
};
use crate::device::{exec, DeviceKind};
use crate::error::Site;
use crate::ffi::guard;
use crate::runtime::{self, DeviceState};
use std::ffi::{c_char, c_int};

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
