//! Raw device memory: `acc_malloc`, `acc_free` and `acc_memcpy_*`, checked against the
//! device's allocations.
//!
//! It only reads the present table (`acc_free` refuses memory a mapping still uses) and never
//! changes it; copies go through the queue of the call.

use super::DeviceState;
use crate::device::DevAddr;
use crate::error::{Error, ErrorKind, Result, Site};
use crate::queue::QueueSel;

impl DeviceState {
    pub fn malloc(&self, bytes: usize, site: &Site<'_>) -> Result<DevAddr> {
        if bytes == 0 {
            return Ok(0);
        }
        self.device
            .alloc(bytes)
            .map_err(|e| self.dev_error(e, site, 0, 0))
    }

    pub fn free(&self, dev: DevAddr, site: &Site<'_>) -> Result<()> {
        if dev == 0 {
            return Ok(());
        }
        if !self.shared() {
            if let Some(e) = self.table().find_dev(dev) {
                let var = if e.var.is_empty() {
                    String::new()
                } else {
                    format!("'{}' ", e.var)
                };
                return Err(Error::new(
                    ErrorKind::BadFree,
                    site,
                    format!(
                        "{dev:#x} is the device copy of {var}({} bytes at {:#x}), still mapped on \
                         device {}; acc_unmap_data it before acc_free",
                        e.bytes, e.host, self.label
                    ),
                ));
            }
        }
        self.device.free(dev).map_err(|_| {
            Error::new(
                ErrorKind::BadFree,
                site,
                format!(
                    "{dev:#x} is not memory acc_malloc returned on device {} (freed twice?)",
                    self.label
                ),
            )
        })
    }

    /// Whether `dev` is inside memory this device allocated and has not freed.
    pub fn owns(&self, dev: DevAddr) -> bool {
        self.device.allocated(dev)
    }

    pub(super) fn check_dev(&self, dev: DevAddr, bytes: usize, site: &Site<'_>) -> Result<()> {
        self.device
            .check_range(dev, bytes)
            .map_err(|e| self.dev_error(e, site, 0, 0))
    }

    /// `acc_memcpy_to_device`.
    ///
    /// # Safety
    /// `host` is readable for `bytes` bytes until the copy ran.
    pub unsafe fn memcpy_to_device(
        &'static self,
        dev: DevAddr,
        host: usize,
        bytes: usize,
        q: QueueSel,
        site: &Site<'_>,
    ) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        self.check_dev(dev, bytes, site)?;
        // SAFETY: forwarded from the caller; the device range was just checked.
        unsafe { self.put(q, dev, host, bytes, site, false) };
        Ok(())
    }

    /// `acc_memcpy_from_device`.
    ///
    /// # Safety
    /// `host` is writable for `bytes` bytes until the copy ran.
    pub unsafe fn memcpy_from_device(
        &'static self,
        host: usize,
        dev: DevAddr,
        bytes: usize,
        q: QueueSel,
        site: &Site<'_>,
    ) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        self.check_dev(dev, bytes, site)?;
        // SAFETY: forwarded from the caller; the device range was just checked.
        unsafe { self.get(q, host, dev, bytes, Vec::new(), site, false) };
        Ok(())
    }

    /// `acc_memcpy_device`.
    pub fn memcpy_device(
        &'static self,
        dst: DevAddr,
        src: DevAddr,
        bytes: usize,
        q: QueueSel,
        site: &Site<'_>,
    ) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        self.check_dev(dst, bytes, site)?;
        self.check_dev(src, bytes, site)?;
        self.queues.submit(q, move || {
            // SAFETY: both ranges were checked to be live device memory of this device.
            unsafe { self.device.copy_on_device(dst, src, bytes) }
        });
        Ok(())
    }
}
