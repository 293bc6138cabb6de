//! The `host_discrete` device: separate memory on the CPU, for testing and debugging without a
//! GPU.
//!
//! Allocations never alias host data and are filled with [`POISON`] when created, every copy
//! really happens, and device addresses are checked against the live allocations. A program
//! that forgets a `copyout`, an `update` or a `wait` therefore computes a wrong answer here, as
//! it would on a GPU, instead of silently working as it does on shared memory.

use super::memory::Arena;
use super::{exec, DevAddr, Device, DeviceError, DeviceKind, Properties};

/// The byte new device memory is filled with: all-ones is a NaN as `float` or `double` and -1
/// as an integer, so reading memory that was never copied in is visible in results.
pub const POISON: u8 = 0xFF;

/// Device memory when `ACC_HOST_DISCRETE_MEMORY` does not say (half the machine's memory).
fn default_capacity() -> usize {
    super::physical_memory() / 2
}

pub struct HostDiscreteDevice {
    number: usize,
    arena: Arena,
    props: Properties,
}

impl HostDiscreteDevice {
    /// Device `number`, with `ACC_HOST_DISCRETE_MEMORY` bytes of memory (default: half the
    /// machine's).
    pub fn new(number: usize) -> HostDiscreteDevice {
        let capacity =
            super::env_bytes("ACC_HOST_DISCRETE_MEMORY").unwrap_or_else(default_capacity);
        HostDiscreteDevice::with_capacity(number, capacity)
    }

    pub fn with_capacity(number: usize, capacity: usize) -> HostDiscreteDevice {
        HostDiscreteDevice {
            number,
            arena: Arena::new(capacity, Some(POISON)),
            props: Properties {
                name: "host-discrete (separate memory on the CPU)".into(),
                vendor: "acc".into(),
                driver: format!("acc-runtime {}", env!("CARGO_PKG_VERSION")),
                total_memory: capacity,
                description: format!(
                    "separate memory on the CPU ({} MiB, poisoned when allocated), {} threads",
                    capacity >> 20,
                    exec::threads()
                ),
            },
        }
    }
}

impl Device for HostDiscreteDevice {
    fn kind(&self) -> DeviceKind {
        DeviceKind::HostDiscrete
    }

    fn number(&self) -> usize {
        self.number
    }

    fn shares_host_memory(&self) -> bool {
        false
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

    fn check_range(&self, addr: DevAddr, bytes: usize) -> Result<(), DeviceError> {
        self.arena.check(addr, bytes)
    }

    unsafe fn copy_to_device(&self, dev: DevAddr, host: *const u8, bytes: usize) {
        // SAFETY: the caller guarantees both ranges; device memory never aliases host memory,
        // but `copy` is used anyway so that a caller's mistake is not undefined behaviour.
        unsafe { std::ptr::copy(host, dev as *mut u8, bytes) };
    }

    unsafe fn copy_to_host(&self, host: *mut u8, dev: DevAddr, bytes: usize) {
        // SAFETY: as in `copy_to_device`.
        unsafe { std::ptr::copy(dev as *const u8, host, bytes) };
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
        exec::run_chunks(DeviceKind::HostDiscrete, chunks, body);
    }

    fn concurrency(&self) -> usize {
        exec::threads()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_is_separate_poisoned_and_copied() {
        let d = HostDiscreteDevice::with_capacity(0, 1 << 20);
        let host = [1u32, 2, 3, 4];
        let dev = d.alloc(16).unwrap();
        assert_ne!(dev, host.as_ptr() as usize);
        let mut back = [0u32; 4];
        // SAFETY: `dev` is a live 16-byte allocation and `back` has 16 bytes.
        unsafe { d.copy_to_host(back.as_mut_ptr().cast(), dev, 16) };
        assert_eq!(back, [u32::MAX; 4], "new device memory is poisoned");
        // SAFETY: as above.
        unsafe {
            d.copy_to_device(dev, host.as_ptr().cast(), 16);
            d.copy_to_host(back.as_mut_ptr().cast(), dev, 16);
        }
        assert_eq!(back, host);
        d.free(dev).unwrap();
    }

    #[test]
    fn launch_runs_every_chunk_once_and_marks_the_device() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let d = HostDiscreteDevice::with_capacity(0, 1024);
        let hits: Vec<AtomicUsize> = (0..37).map(|_| AtomicUsize::new(0)).collect();
        d.launch(37, &|c| {
            assert_eq!(exec::running_on(), Some(DeviceKind::HostDiscrete));
            hits[c].fetch_add(1, Ordering::Relaxed);
        });
        assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
        assert_eq!(exec::running_on(), None);
    }
}
