//! Devices behind one trait: memory, transfers and kernel execution for one device.
//!
//! The layering follows cudarc: a device implementation only moves bytes and runs chunks; the
//! present table, reference counts, queues and errors that name variables live above it in
//! `runtime`. Three devices exist:
//!
//! - [`host::HostDevice`] — shared memory: a device address *is* the host address, so nothing is
//!   ever copied and, as the specification says, all data is present.
//! - [`host_discrete::HostDiscreteDevice`] — separate memory on the CPU: allocations are distinct
//!   from the host's, poisoned on creation, and every transfer really happens, so a missing
//!   `copyout` or `update` gives a wrong answer as it would on a GPU.
//! - [`cuda::CudaDevice`] — an NVIDIA GPU through cudarc, with libcuda loaded at run time:
//!   `alloc`/`free` are `cuMemAlloc`/`cuMemFree`, the copies `cuMemcpy*Async` on the calling
//!   queue's stream, and kernels are not host closures but the descriptor's `cuda_source`,
//!   compiled by [`crate::jit`] and launched through [`Device::cuda`] by
//!   `runtime::DeviceState::launch_cuda`. [`cuda::probe`] finds the GPUs or says why there are
//!   none; the runtime then falls back to `host`.

pub mod cuda;
pub mod exec;
pub mod host;
pub mod host_discrete;
mod memory;

use std::fmt;

/// The device types this runtime knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeviceKind {
    Host,
    HostDiscrete,
    Nvidia,
}

impl DeviceKind {
    /// The name used in messages and in `ACC_DEVICE_TYPE`.
    pub fn name(self) -> &'static str {
        match self {
            DeviceKind::Host => "host",
            DeviceKind::HostDiscrete => "host-discrete",
            DeviceKind::Nvidia => "nvidia",
        }
    }
}

/// A device-side address. On shared-memory devices it is also a valid host pointer.
pub type DevAddr = usize;

/// Why a device operation failed; `runtime` turns these into errors that name the variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceError {
    OutOfMemory {
        requested: usize,
        free: usize,
        total: usize,
    },
    NotAllocated {
        addr: DevAddr,
    },
    OutOfRange {
        addr: DevAddr,
        bytes: usize,
    },
}

impl fmt::Display for DeviceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DeviceError::OutOfMemory {
                requested,
                free,
                total,
            } => write!(
                f,
                "out of device memory: {requested} bytes requested, {free} of {total} bytes free"
            ),
            DeviceError::NotAllocated { addr } => {
                write!(f, "{addr:#x} is not the start of a live device allocation")
            }
            DeviceError::OutOfRange { addr, bytes } => {
                write!(
                    f,
                    "{bytes} bytes at {addr:#x} are not inside one live device allocation"
                )
            }
        }
    }
}

/// Static facts about a device, for `acc_get_property`.
#[derive(Clone, Debug)]
pub struct Properties {
    pub name: String,
    pub vendor: String,
    pub driver: String,
    pub total_memory: usize,
    /// A sentence about the device (`acc_property_description`, an acc extension).
    pub description: String,
}

/// One device: memory, transfers, and an executor for kernels.
///
/// Every method may be called from any thread at any time.
pub trait Device: Send + Sync {
    fn kind(&self) -> DeviceKind;

    /// This device's number among the devices of its kind.
    fn number(&self) -> usize;

    /// Whether device addresses are host addresses (then data is always present).
    fn shares_host_memory(&self) -> bool;

    fn properties(&self) -> &Properties;

    fn free_memory(&self) -> usize;

    /// Allocates `bytes` (at least one) bytes of device memory, aligned for any type.
    fn alloc(&self, bytes: usize) -> Result<DevAddr, DeviceError>;

    /// Frees an allocation `alloc` returned.
    fn free(&self, addr: DevAddr) -> Result<(), DeviceError>;

    /// Whether `[addr, addr + bytes)` lies inside one live allocation of this device.
    fn check_range(&self, addr: DevAddr, bytes: usize) -> Result<(), DeviceError>;

    /// Whether `addr` is inside memory `alloc` returned and `free` has not taken back (on a
    /// shared-memory device, where every host address is a device address, only those).
    fn allocated(&self, addr: DevAddr) -> bool {
        self.check_range(addr, 1).is_ok()
    }

    /// Copies host memory to the device.
    ///
    /// # Safety
    /// `host` is readable for `bytes` bytes and `[dev, dev + bytes)` is live device memory.
    unsafe fn copy_to_device(&self, dev: DevAddr, host: *const u8, bytes: usize);

    /// Copies device memory to the host.
    ///
    /// # Safety
    /// `host` is writable for `bytes` bytes and `[dev, dev + bytes)` is live device memory.
    unsafe fn copy_to_host(&self, host: *mut u8, dev: DevAddr, bytes: usize);

    /// Copies within this device's memory (the ranges may overlap).
    ///
    /// # Safety
    /// Both ranges are live device memory.
    unsafe fn copy_on_device(&self, dst: DevAddr, src: DevAddr, bytes: usize);

    /// Sets device memory to `byte`.
    ///
    /// # Safety
    /// `[dev, dev + bytes)` is live device memory.
    unsafe fn fill(&self, dev: DevAddr, byte: u8, bytes: usize);

    /// Runs `body(chunk)` for every chunk in `0..chunks` on the device's executor and returns
    /// when all have finished. This is a kernel launch for kernels compiled for the host.
    fn launch(&self, chunks: usize, body: &(dyn Fn(usize) + Sync));

    /// The number of chunks the executor runs at once; the default chunk count of a launch.
    fn concurrency(&self) -> usize;

    /// The CUDA device behind this device, which launches CUDA kernels instead of host
    /// closures.
    fn cuda(&self) -> Option<&cuda::CudaDevice> {
        None
    }
}

/// Reads a byte count such as `512M`, `4G` or `1048576` from the environment.
pub(crate) fn env_bytes(name: &str) -> Option<usize> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    let (digits, mult) = match v.chars().last()? {
        'k' | 'K' => (&v[..v.len() - 1], 1usize << 10),
        'm' | 'M' => (&v[..v.len() - 1], 1 << 20),
        'g' | 'G' => (&v[..v.len() - 1], 1 << 30),
        _ => (v, 1),
    };
    digits.trim().parse::<usize>().ok()?.checked_mul(mult)
}

/// The machine's physical memory, from `/proc/meminfo` where there is one.
pub(crate) fn physical_memory() -> usize {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("MemTotal:"))?;
            let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
            kb.checked_mul(1024)
        })
        .unwrap_or(8 << 30)
}
