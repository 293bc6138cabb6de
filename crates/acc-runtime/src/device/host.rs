//! The `host` device: shared memory, kernels on the machine's cores.
//!
//! A device address is the host address, so transfers are no-ops and data is always present;
//! `acc_malloc` memory is ordinary host memory, tracked so that `acc_free` is checked.

use super::memory::Arena;
use super::{exec, DevAddr, Device, DeviceError, DeviceKind, Properties};

pub struct HostDevice {
    arena: Arena,
    props: Properties,
}

impl HostDevice {
    pub fn new() -> HostDevice {
        let total = super::physical_memory();
        HostDevice {
            arena: Arena::new(total, None),
            props: Properties {
                name: "host (shared memory, multicore)".into(),
                vendor: "acc".into(),
                driver: format!("acc-runtime {}", env!("CARGO_PKG_VERSION")),
                total_memory: total,
                description: format!(
                    "the host CPU: {} threads sharing the program's memory",
                    exec::threads()
                ),
            },
        }
    }
}

impl Default for HostDevice {
    fn default() -> Self {
        Self::new()
    }
}

impl Device for HostDevice {
    fn kind(&self) -> DeviceKind {
        DeviceKind::Host
    }

    fn number(&self) -> usize {
        0
    }

    fn shares_host_memory(&self) -> bool {
        true
    }

    fn properties(&self) -> &Properties {
        &self.props
    }

    fn free_memory(&self) -> usize {
        self.arena.free_bytes()
    }

    fn alloc(&self, bytes: usize) -> Result<DevAddr, DeviceError> {
        self.arena.alloc(bytes)
    }

    fn free(&self, addr: DevAddr) -> Result<(), DeviceError> {
        self.arena.free(addr)
    }

    fn check_range(&self, _addr: DevAddr, _bytes: usize) -> Result<(), DeviceError> {
        // Every host address is a device address of the shared-memory device.
        Ok(())
    }

    fn allocated(&self, addr: DevAddr) -> bool {
        self.arena.check(addr, 1).is_ok()
    }

    unsafe fn copy_to_device(&self, dev: DevAddr, host: *const u8, bytes: usize) {
        if dev != host as usize {
            // SAFETY: the caller guarantees both ranges; `copy` allows overlap.
            unsafe { std::ptr::copy(host, dev as *mut u8, bytes) };
        }
    }

    unsafe fn copy_to_host(&self, host: *mut u8, dev: DevAddr, bytes: usize) {
        if dev != host as usize {
            // SAFETY: the caller guarantees both ranges; `copy` allows overlap.
            unsafe { std::ptr::copy(dev as *const u8, host, bytes) };
        }
    }

    unsafe fn copy_on_device(&self, dst: DevAddr, src: DevAddr, bytes: usize) {
        // SAFETY: the caller guarantees both ranges; `copy` allows overlap.
        unsafe { std::ptr::copy(src as *const u8, dst as *mut u8, bytes) };
    }

    unsafe fn fill(&self, dev: DevAddr, byte: u8, bytes: usize) {
        // SAFETY: the caller guarantees the range.
        unsafe { (dev as *mut u8).write_bytes(byte, bytes) };
    }

    fn launch(&self, chunks: usize, body: &(dyn Fn(usize) + Sync)) {
        exec::run_chunks(DeviceKind::Host, chunks, body);
    }

    fn concurrency(&self) -> usize {
        exec::threads()
    }
}
