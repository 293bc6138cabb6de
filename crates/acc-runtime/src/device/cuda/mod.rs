//! The `nvidia` device: one NVIDIA GPU through the CUDA driver API (cudarc, with libcuda opened
//! at run time, so the runtime links no CUDA library and starts on any machine).
//!
//! - **Start-up** ([`probe`]): libcuda present, `cuInit` succeeds, at least one GPU — else a
//!   reason string ("libcuda.so not found ...", "cuInit failed: CUDA_ERROR_NO_DEVICE ...") that
//!   the runtime keeps for messages. The device's primary context is retained on first use.
//! - **Memory**: `cuMemAlloc`/`cuMemFree`, with a map of live allocations for `check_range`;
//!   copies and fills are issued on the stream of the calling queue (see below) and waited
//!   for before they return. Copies between the device and the program's (pageable) memory
//!   are the driver's pageable copies unless `ACC_CUDA_STAGING` names the smallest copy to
//!   stage (a byte count such as `16M`): such copies go through two pinned staging buffers
//!   of `ACC_CUDA_STAGING_CHUNK` bytes in turn ([`Staging`]), so the CPU's copy into one
//!   overlaps the DMA of the other. Staging is off by default because it lost where it was
//!   measured (an H200 in a virtual machine, `scripts/gpu-check`, benches/gpu/README.md):
//!   256 MiB host to device 8.5–9.0 GB/s staged against 6.8–9.5 pageable (within the
//!   noise), device to host 8.1 staged against 11.8–17.5 pageable, and 64 MiB chunks no
//!   better than 4 MiB. The driver's own pageable path already overlaps its staging with the
//!   DMA.
//! - **Streams**: each async queue has its own CUDA stream (non-blocking, created on first use
//!   or set by `acc_set_cuda_stream`); synchronous operations use one more stream. The
//!   runtime's deferred queues run a queue's operations on its worker thread, which
//!   [`crate::queue::worker_queue`] names, so a device operation knows its stream. Every
//!   operation waits for its stream, so an operation counts as completed only when the GPU has
//!   finished it: `acc_wait` and `acc_async_test` need nothing from CUDA, and the queues of one
//!   device overlap on the GPU.
//! - **Kernels**: [`CudaDevice::function`] JIT-compiles a kernel's CUDA source (see
//!   [`crate::jit`]) once per device and keeps the module loaded; [`CudaDevice::launch_kernel`]
//!   launches it. The runtime (`DeviceState::launch_cuda`) prepares the parameters and
//!   reductions as `acc_rt.h` describes.
//!
//! Layout: this module holds the device itself (start-up, contexts, streams, memory, the
//! `Device` implementation); `kernels` loads and launches kernels and lends launches their
//! buffers; `staging` makes the staged copies.

use super::{exec, DevAddr, Device, DeviceError, DeviceKind, Properties};
use crate::error::{fatal, Error, ErrorKind, Site};
use cudarc::driver::result::{self as cu, DriverError};
use cudarc::driver::sys as cusys;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Mutex, MutexGuard, OnceLock};

mod kernels;
mod link;
mod staging;

pub use kernels::{launch_shape, Function, Hints, Lanes, LoadedKernel, ReductionBuffer, Shape};
pub use staging::Staging;

/// A map keyed by a few machine words (queue numbers, the addresses of a kernel's literals),
/// looked up on every launch.
type WordMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;

/// Hashing of whole words by a folded multiply (the 128-bit product's halves XORed, as
/// foldhash does). The standard SipHash resists keys chosen to collide, which these maps' keys
/// (fixed by the program's binary and its queue numbers) cannot be, and it cost about as much
/// as the rest of a launch's lookups together.
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, word: u64) {
        // Every bit of the product's high half depends on every bit of the word, so keys
        // that differ only above their alignment still differ in the low bits the table
        // indexes by.
        let product = u128::from(self.0 ^ word) * 0x9e37_79b9_7f4a_7c15;
        self.0 = (product as u64) ^ ((product >> 64) as u64);
    }
    fn write_u32(&mut self, word: u32) {
        self.write_u64(u64::from(word));
    }
    fn write_i32(&mut self, word: i32) {
        self.write_u64(u64::from(word as u32));
    }
    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }
}

/// The stream key of synchronous operations (queue keys are >= -1).
const SYNC_KEY: i32 = i32::MIN;

/// `CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)`.
pub fn describe(e: DriverError) -> String {
    let name = e
        .error_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|_| format!("{:?}", e.0));
    match e.error_string() {
        Ok(s) => format!("{name} ({})", s.to_string_lossy()),
        Err(_) => name,
    }
}

/// Whether libcuda can be opened, without initialising it.
pub fn driver_present() -> bool {
    // SAFETY: opening libcuda runs its initialisers, which have no preconditions; the probe
    // closes it again.
    unsafe { cusys::is_culib_present() }
}

/// The GPUs of this machine, or why there are none.
pub fn probe() -> Result<Vec<CudaDevice>, String> {
    if !driver_present() {
        return Err(
            "libcuda.so not found (is the NVIDIA driver installed? cudarc looked for libcuda.so \
             and libcuda.so.1 on the library path)"
                .into(),
        );
    }
    cu::init().map_err(|e| format!("cuInit failed: {}", describe(e)))?;
    let n =
        cu::device::get_count().map_err(|e| format!("cuDeviceGetCount failed: {}", describe(e)))?;
    if n <= 0 {
        return Err("the NVIDIA driver reports no CUDA device".into());
    }
    (0..n).map(CudaDevice::open).collect()
}

pub struct CudaDevice {
    number: usize,
    dev: cusys::CUdevice,
    /// The primary context, retained on first use (`usize`: a `CUcontext`).
    ctx: OnceLock<Result<usize, String>>,
    props: Properties,
    /// Compute capability as one number: 90 for 9.0.
    pub cc: u32,
    pub sm_count: u32,
    pub max_threads: u32,
    /// Live allocations: start → size.
    allocs: Mutex<BTreeMap<DevAddr, usize>>,
    /// Queue key → stream (`usize`: a `CUstream`); `owned` says whether we created it.
    streams: Mutex<WordMap<i32, (usize, bool)>>,
    /// Loaded kernels by (source pointer, entry pointer) of their descriptor.
    functions: Mutex<WordMap<(usize, usize), LoadedKernel>>,
    /// Device buffers for launches' reductions, reused.
    scratch: Mutex<Vec<(DevAddr, usize)>>,
    /// Buffers for launches' reduction slots, with what their headers hold on the device.
    reduction_buffers: Mutex<Vec<ReductionBuffer>>,
    /// Pinned staging buffers not in use (one pair per copy under way).
    staging: Mutex<Vec<Staging>>,
    /// Blocks of a kernel resident on one SM, by (function, threads a block).
    occupancy: Mutex<WordMap<(usize, u32), u32>>,
    /// The lock word every kernel's atomics share, after a pointer to it (so the block's
    /// address is a one-entry `__acc_red` array for launches without reductions).
    lock_word: OnceLock<Result<DevAddr, String>>,
}

// SAFETY: the raw CUDA handles (context, streams, functions) are process-wide driver objects
// usable from any thread once the context is current there, which every method ensures; all
// mutable state is behind mutexes.
unsafe impl Send for CudaDevice {}
// SAFETY: as above.
unsafe impl Sync for CudaDevice {}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl CudaDevice {
    fn open(ordinal: i32) -> Result<CudaDevice, String> {
        let what = |call: &str, e: DriverError| {
            format!("{call} failed for GPU {ordinal}: {}", describe(e))
        };
        let dev = cu::device::get(ordinal).map_err(|e| what("cuDeviceGet", e))?;
        let name = cu::device::get_name(dev).map_err(|e| what("cuDeviceGetName", e))?;
        // SAFETY: `dev` came from `cuDeviceGet`.
        let total =
            unsafe { cu::device::total_mem(dev) }.map_err(|e| what("cuDeviceTotalMem", e))?;
        let attr = |a: cusys::CUdevice_attribute| {
            // SAFETY: `dev` came from `cuDeviceGet`.
            unsafe { cu::device::get_attribute(dev, a) }
                .map_err(|e| what("cuDeviceGetAttribute", e))
        };
        use cusys::CUdevice_attribute as A;
        let major = attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?;
        let minor = attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?;
        let sms = attr(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?;
        let max_threads = attr(A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?;
        let mut version = 0;
        // SAFETY: `version` is valid for writing.
        unsafe { cusys::cuDriverGetVersion(&mut version) }
            .result()
            .map_err(|e| what("cuDriverGetVersion", e))?;
        let description = format!(
            "{name}: compute capability {major}.{minor}, {sms} multiprocessors, {} MiB",
            total >> 20
        );
        Ok(CudaDevice {
            number: ordinal as usize,
            dev,
            ctx: OnceLock::new(),
            props: Properties {
                name,
                vendor: "NVIDIA".into(),
                driver: format!("CUDA {}.{}", version / 1000, (version % 1000) / 10),
                total_memory: total,
                description,
            },
            cc: (major * 10 + minor) as u32,
            sm_count: sms.max(1) as u32,
            max_threads: max_threads.max(1) as u32,
            allocs: Mutex::new(BTreeMap::new()),
            streams: Mutex::new(WordMap::default()),
            functions: Mutex::new(WordMap::default()),
            scratch: Mutex::new(Vec::new()),
            reduction_buffers: Mutex::new(Vec::new()),
            staging: Mutex::new(Vec::new()),
            occupancy: Mutex::new(WordMap::default()),
            lock_word: OnceLock::new(),
        })
    }

    fn label(&self) -> String {
        format!("nvidia {}", self.number)
    }

    /// Ends the process with a driver error: a failed copy or launch leaves the device in an
    /// unknown state (CUDA errors after a faulting kernel are sticky).
    fn die(&self, what: &str, e: DriverError) -> ! {
        fatal(&Error::new(
            ErrorKind::Device,
            &Site::routine("acc runtime"),
            format!("{what} failed on device {}: {}", self.label(), describe(e)),
        ))
    }

    fn check(&self, what: &str, r: Result<(), DriverError>) {
        if let Err(e) = r {
            self.die(what, e)
        }
    }

    /// Makes this device's primary context current on the calling thread.
    pub fn bind(&self) {
        let ctx = self.ctx.get_or_init(|| {
            // SAFETY: `self.dev` came from `cuDeviceGet`; the context is never released, so
            // it outlives every use.
            unsafe { cu::primary_ctx::retain(self.dev) }
                .map(|c| c as usize)
                .map_err(|e| {
                    format!(
                        "cuDevicePrimaryCtxRetain failed on device {}: {}",
                        self.label(),
                        describe(e)
                    )
                })
        });
        match ctx {
            Ok(c) => {
                // SAFETY: a retained primary context stays valid for the process.
                let r = unsafe { cu::ctx::set_current(*c as cusys::CUcontext) };
                self.check("cuCtxSetCurrent", r);
                self.lock_word.get_or_init(|| self.new_lock_block());
            }
            Err(msg) => fatal(&Error::new(
                ErrorKind::Device,
                &Site::routine("acc runtime"),
                msg.clone(),
            )),
        }
    }

    /// The handles profiling events give a tool (`acc_api_info`): the address of this GPU's
    /// `CUdevice`, its primary context and the stream of queue `key`.
    pub fn api_handles(&self, key: Option<i32>) -> [*const std::ffi::c_void; 3] {
        // The stream first: making it makes the context, which a tool expects of an event on
        // the device.
        let stream = self.stream_for(key) as *const std::ffi::c_void;
        let ctx = self.ctx.get().and_then(|c| c.as_ref().ok()).copied();
        [
            (&self.dev as *const cusys::CUdevice).cast(),
            ctx.unwrap_or(0) as *const std::ffi::c_void,
            stream,
        ]
    }

    /// The stream of queue `key` (created on first use), or of synchronous operations for
    /// `None`.
    pub fn stream_for(&self, key: Option<i32>) -> cusys::CUstream {
        let key = key.unwrap_or(SYNC_KEY);
        let mut m = lock(&self.streams);
        if let Some(&(s, _)) = m.get(&key) {
            return s as cusys::CUstream;
        }
        self.bind();
        let s = match cu::stream::create(cu::stream::StreamKind::NonBlocking) {
            Ok(s) => s,
            Err(e) => self.die("cuStreamCreate", e),
        };
        m.insert(key, (s as usize, true));
        s
    }

    /// Makes queue `key` use `stream` (`acc_set_cuda_stream`); the caller has waited for the
    /// queue. A stream the runtime created for the queue is destroyed once no queue uses it:
    /// the program may hand a queue its own stream back (`acc_get_cuda_stream`), or give one
    /// queue's stream to another, which then keeps it.
    ///
    /// # Safety
    /// `stream` is a valid stream of this device's primary context and outlives its use.
    pub unsafe fn set_stream(&self, key: i32, stream: cusys::CUstream) {
        self.bind();
        let mut m = lock(&self.streams);
        let Some((s, true)) = m.insert(key, (stream as usize, false)) else {
            return;
        };
        if let Some(user) = m.values_mut().find(|(other, _)| *other == s) {
            // Still some queue's stream (maybe this one's again): that queue owns it now.
            user.1 = true;
            return;
        }
        // SAFETY: the runtime created `s`, no queue uses it any more, and this queue (its only
        // user) has no work left on it.
        let _ = unsafe { cu::stream::destroy(s as cusys::CUstream) };
    }

    /// The stream of the calling thread's queue, with the context made current.
    fn stream(&self) -> cusys::CUstream {
        self.bind();
        self.stream_for(crate::queue::worker_queue())
    }

    fn sync(&self, s: cusys::CUstream, what: &str) {
        // SAFETY: `s` is a live stream of this device.
        self.check(what, unsafe { cu::stream::synchronize(s) });
    }

    fn alloc_error(&self, e: DriverError, bytes: usize) -> DeviceError {
        if e.0 == cusys::CUresult::CUDA_ERROR_OUT_OF_MEMORY {
            let (free, total) = cu::mem_get_info().unwrap_or((0, self.props.total_memory));
            return DeviceError::OutOfMemory {
                requested: bytes,
                free,
                total,
            };
        }
        self.die(&format!("cuMemAlloc of {bytes} bytes"), e)
    }
}

impl Device for CudaDevice {
    fn kind(&self) -> DeviceKind {
        DeviceKind::Nvidia
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
        self.bind();
        cu::mem_get_info().map_or(0, |(free, _)| free)
    }

    fn alloc(&self, bytes: usize) -> Result<DevAddr, DeviceError> {
        self.bind();
        // SAFETY: allocation has no preconditions beyond a current context.
        let p = match unsafe { cu::malloc_sync(bytes.max(1)) } {
            Ok(p) => p as DevAddr,
            Err(e) => return Err(self.alloc_error(e, bytes)),
        };
        lock(&self.allocs).insert(p, bytes.max(1));
        Ok(p)
    }

    fn free(&self, addr: DevAddr) -> Result<(), DeviceError> {
        if lock(&self.allocs).remove(&addr).is_none() {
            return Err(DeviceError::NotAllocated { addr });
        }
        self.bind();
        // SAFETY: `addr` was a live allocation of `alloc`, now removed from the map, so it is
        // freed once; `cuMemFree` waits for work still using it.
        self.check("cuMemFree", unsafe { cu::free_sync(addr as _) });
        Ok(())
    }

    fn check_range(&self, addr: DevAddr, bytes: usize) -> Result<(), DeviceError> {
        let m = lock(&self.allocs);
        match m.range(..=addr).next_back() {
            Some((&start, &size)) if addr + bytes <= start + size => Ok(()),
            _ => Err(DeviceError::OutOfRange { addr, bytes }),
        }
    }

    unsafe fn copy_to_device(&self, dev: DevAddr, host: *const u8, bytes: usize) {
        if bytes == 0 {
            return;
        }
        let s = self.stream();
        if let Some(st) = self.take_staging(bytes) {
            // SAFETY: forwarded from the caller.
            unsafe { self.staged_to_device(&st, dev, host, bytes, s) };
            self.sync(s, "cuMemcpyHtoD");
            lock(&self.staging).push(st);
            return;
        }
        // SAFETY: the caller guarantees both ranges; the copy is waited for below, so `host`
        // need only live for this call.
        let r = unsafe { cusys::cuMemcpyHtoDAsync_v2(dev as _, host.cast(), bytes, s) }.result();
        self.check("cuMemcpyHtoD", r);
        self.sync(s, "cuMemcpyHtoD");
    }

    unsafe fn copy_to_host(&self, host: *mut u8, dev: DevAddr, bytes: usize) {
        if bytes == 0 {
            return;
        }
        let s = self.stream();
        if let Some(st) = self.take_staging(bytes) {
            // SAFETY: forwarded from the caller.
            unsafe { self.staged_to_host(&st, host, dev, bytes, s) };
            self.sync(s, "cuMemcpyDtoH");
            lock(&self.staging).push(st);
            return;
        }
        // SAFETY: as in `copy_to_device`.
        let r = unsafe { cusys::cuMemcpyDtoHAsync_v2(host.cast(), dev as _, bytes, s) }.result();
        self.check("cuMemcpyDtoH", r);
        self.sync(s, "cuMemcpyDtoH");
    }

    unsafe fn copy_on_device(&self, dst: DevAddr, src: DevAddr, bytes: usize) {
        if bytes == 0 || dst == src {
            return;
        }
        let s = self.stream();
        if dst < src + bytes && src < dst + bytes {
            // `cuMemcpyDtoD` does not allow overlap: go through a scratch buffer.
            let tmp = match self.take_scratch(bytes) {
                Ok(t) => t,
                Err(e) => fatal(&Error::new(
                    ErrorKind::OutOfMemory,
                    &Site::routine("acc_memcpy_device"),
                    format!("{e} on device {}", self.label()),
                )),
            };
            // SAFETY: the caller guarantees both ranges; `tmp` has `bytes` bytes.
            unsafe {
                let r = cusys::cuMemcpyDtoDAsync_v2(tmp.0 as _, src as _, bytes, s).result();
                self.check("cuMemcpyDtoD", r);
                let r = cusys::cuMemcpyDtoDAsync_v2(dst as _, tmp.0 as _, bytes, s).result();
                self.check("cuMemcpyDtoD", r);
            }
            self.sync(s, "cuMemcpyDtoD");
            self.put_scratch(tmp);
            return;
        }
        // SAFETY: the caller guarantees both ranges, which do not overlap.
        let r = unsafe { cusys::cuMemcpyDtoDAsync_v2(dst as _, src as _, bytes, s) }.result();
        self.check("cuMemcpyDtoD", r);
        self.sync(s, "cuMemcpyDtoD");
    }

    unsafe fn fill(&self, dev: DevAddr, byte: u8, bytes: usize) {
        if bytes == 0 {
            return;
        }
        let s = self.stream();
        // SAFETY: the caller guarantees the range.
        let r = unsafe { cu::memset_d8_async(dev as _, byte, bytes, s) };
        self.check("cuMemsetD8", r);
        self.sync(s, "cuMemsetD8");
    }

    /// Host closures run on the CPU: a CUDA kernel goes through `DeviceState::launch_cuda`.
    /// Nothing in the runtime launches host code on this device (the Rust API runs on the host
    /// device when the current device is a GPU).
    fn launch(&self, chunks: usize, body: &(dyn Fn(usize) + Sync)) {
        exec::run_chunks(DeviceKind::Host, chunks, body);
    }

    fn concurrency(&self) -> usize {
        exec::threads()
    }

    fn cuda(&self) -> Option<&CudaDevice> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::staging::chunks;
    use super::*;
    use std::hash::BuildHasher;

    /// Keys that differ only above their alignment (string literals' addresses, small queue
    /// numbers) still spread over a table's buckets, which the low bits of the hash pick.
    #[test]
    fn word_hashes_spread_aligned_keys_over_the_low_bits() {
        let build = BuildHasherDefault::<WordHasher>::default();
        let buckets = |keys: &mut dyn Iterator<Item = u64>| {
            let mut seen = std::collections::HashSet::new();
            for k in keys {
                seen.insert(build.hash_one(k) & 1023);
            }
            seen.len()
        };
        for align in [1u64, 16, 256, 4096] {
            let spread = buckets(&mut (0..1024).map(|i| 0x5555_0000_0000 + i * align));
            assert!(
                spread > 600,
                "1024 keys {align} apart fill {spread} of 1024 buckets"
            );
        }
        let pairs = (0..1024u64)
            .map(|i| build.hash_one((0x4000_0000usize + 64 * i as usize, 0x4100_0000usize)) & 1023);
        let spread = pairs.collect::<std::collections::HashSet<_>>().len();
        assert!(
            spread > 600,
            "pairs of addresses fill {spread} of 1024 buckets"
        );
    }

    fn hints(iterations: i64, gangs: i32, workers: i32, vector: i32, lanes: Lanes) -> Hints {
        Hints {
            iterations,
            num_gangs: gangs,
            num_workers: workers,
            vector_length: vector,
            lanes,
        }
    }

    /// The shape on a GPU of 132 SMs for a kernel with few registers (sm_80+ occupancy).
    fn shape(iterations: i64, gangs: i32, workers: i32, vector: i32, lanes: Lanes) -> Shape {
        let resident = |threads: u32| (2048 / threads).clamp(1, 32);
        launch_shape(
            hints(iterations, gangs, workers, vector, lanes),
            132,
            1024,
            &resident,
        )
    }

    #[test]
    fn launch_shape_follows_the_header() {
        // Defaults: 128 threads, enough blocks for one iteration each, capped at one wave
        // (16 blocks of 128 threads on each of 132 SMs).
        assert_eq!(
            shape(1000, 0, 0, 0, Lanes::None),
            Shape {
                grid: 8,
                block: (128, 1)
            }
        );
        assert_eq!(shape(1 << 40, 0, 0, 0, Lanes::None).grid, 16 * 132);
        let low_occupancy = |_| 3;
        assert_eq!(
            launch_shape(
                hints(1 << 40, 0, 0, 0, Lanes::None),
                132,
                1024,
                &low_occupancy
            )
            .grid,
            3 * 132
        );
        assert_eq!(shape(i64::MAX, 0, 0, 0, Lanes::None).grid, 4 * 132);
        assert_eq!(shape(0, 0, 0, 0, Lanes::None).grid, 1);
        // One iteration a block.
        assert_eq!(shape(64, 0, 0, 0, Lanes::Block).grid, 64);
        assert_eq!(shape(1 << 20, 0, 0, 0, Lanes::Block).grid, 16 * 132);
        // Hints: gangs, workers and vector length; x * y clamped to the maximum.
        assert_eq!(
            shape(10, 7, 4, 32, Lanes::None),
            Shape {
                grid: 7,
                block: (32, 4)
            }
        );
        assert_eq!(shape(10, 1, 64, 256, Lanes::None).block, (256, 4));
        assert_eq!(shape(10, 1, 1, 4096, Lanes::None).block, (1024, 1));
        // Rows: a warp a worker by default; more than one row keeps each within a warp.
        assert_eq!(shape(64, 0, 0, 0, Lanes::Rows).block, (32, 4));
        assert_eq!(shape(64, 0, 0, 0, Lanes::Rows).grid, 64);
        assert_eq!(shape(64, 0, 0, 8, Lanes::Rows).block, (8, 16));
        assert_eq!(shape(64, 0, 4, 128, Lanes::Rows).block, (32, 4));
        assert_eq!(shape(64, 0, 3, 24, Lanes::Rows).block, (16, 3));
        // One thread a gang: blocks of one thread, as many as the gangs.
        assert_eq!(
            shape(64, 4, 8, 128, Lanes::ThreadGangs),
            Shape {
                grid: 4,
                block: (1, 1)
            }
        );
        assert_eq!(shape(1 << 20, 0, 0, 0, Lanes::ThreadGangs).grid, 32 * 132);
        // One row may be as wide as the block.
        assert_eq!(shape(64, 0, 0, 256, Lanes::Rows).block, (256, 1));
        assert_eq!(shape(64, 0, 1, 96, Lanes::Rows).block, (96, 1));
    }

    #[test]
    fn staged_copies_cover_the_range_in_chunks() {
        let parts: Vec<_> = chunks(10, 4).collect();
        assert_eq!(parts, [(0, 4), (4, 4), (8, 2)]);
        assert_eq!(chunks(8, 4).collect::<Vec<_>>(), [(0, 4), (4, 4)]);
        assert_eq!(chunks(0, 4).count(), 0);
    }

    #[test]
    fn probe_gives_a_reason_without_a_driver() {
        if driver_present() {
            return; // A machine with the NVIDIA driver: the reason depends on its GPUs.
        }
        let reason = probe().err().expect("no driver, no devices");
        assert!(reason.starts_with("libcuda.so not found"), "{reason}");
    }
}
