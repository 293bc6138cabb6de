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

use super::{exec, DevAddr, Device, DeviceError, DeviceKind, Properties};
use crate::error::{fatal, Error, ErrorKind, Site};
use crate::jit;
use cudarc::driver::result::{self as cu, DriverError};
use cudarc::driver::sys as cusys;
use std::collections::{BTreeMap, HashMap};
use std::ffi::{c_void, CString};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// The stream key of synchronous operations (queue keys are >= -1).
const SYNC_KEY: i32 = i32::MIN;

/// The size of each of the two staging buffers by default.
const STAGING_CHUNK: usize = 4 << 20;

/// `ACC_CUDA_STAGING` and `ACC_CUDA_STAGING_CHUNK`: the smallest copy staged (`None`: never,
/// the default) and the chunk size.
fn staging_config() -> (Option<usize>, usize) {
    static CONFIG: OnceLock<(Option<usize>, usize)> = OnceLock::new();
    *CONFIG.get_or_init(|| {
        let read = |name: &str, dflt: Option<usize>| match std::env::var(name) {
            Err(_) => dflt,
            Ok(v) if v.trim() == "off" => None,
            Ok(v) => super::env_bytes(name).or_else(|| {
                crate::error::warn_once(
                    &Site::routine("acc runtime"),
                    &format!("{name}={v} is not a byte count (such as 16M) or `off`: ignored"),
                );
                dflt
            }),
        };
        let min = read("ACC_CUDA_STAGING", None).filter(|&m| m > 0);
        let chunk = read("ACC_CUDA_STAGING_CHUNK", Some(STAGING_CHUNK))
            .filter(|&c| c > 0)
            .unwrap_or(STAGING_CHUNK);
        (min, chunk)
    })
}

/// Two pinned host buffers of one chunk each, and an event for each that completes when the
/// DMA last issued on it has.
pub struct Staging {
    bufs: [(usize, usize); 2],
    chunk: usize,
}

/// The chunks of a `bytes`-byte copy: (offset, length).
fn chunks(bytes: usize, chunk: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..bytes)
        .step_by(chunk.max(1))
        .map(move |at| (at, chunk.min(bytes - at)))
}

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

/// A compiled kernel entry, loaded into this device's context.
#[derive(Clone, Copy, Debug)]
pub struct Function {
    handle: usize,
    /// The most threads a block of this kernel may have (fewer than the device's when the
    /// kernel needs many registers).
    pub max_threads: u32,
}

/// Launch geometry of a CUDA kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub grid: u32,
    pub block: (u32, u32),
}

/// What a launch asks for: its iterations (`i64::MAX`: as many gangs as you like), the
/// clauses' `num_gangs`/`num_workers`/`vector_length` (0: unspecified), and the kernel's mode.
#[derive(Clone, Copy, Debug)]
pub struct Hints {
    pub iterations: i64,
    pub num_gangs: i32,
    pub num_workers: i32,
    pub vector_length: i32,
    pub lanes: Lanes,
}

/// A device buffer for a launch's reduction slots (`__acc_red` of `acc_rt.h`): its first words
/// point at the slots and at the lock, and a launch whose slots the kernel sets itself uploads
/// nothing when `header` (what those words hold on the device, from this buffer's last use)
/// already matches.
pub struct ReductionBuffer {
    pub addr: DevAddr,
    pub cap: usize,
    pub header: Vec<u64>,
}

/// How a kernel shares a gang iteration among a block's threads (`acc_rt_kernel.cuda_lanes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lanes {
    /// Every thread is a chunk of the gang loop (0).
    None,
    /// One gang iteration a block (1).
    Block,
    /// One gang iteration a block, worker loops over its rows and their vector loops over
    /// each row's lanes (2): a row must lie within one warp unless the block is one row.
    Rows,
    /// Every thread a chunk, and a block one thread, so that every thread is a gang (3):
    /// for gang-redundant code that must run once per gang where one thread of a larger
    /// block could not run it alone.
    ThreadGangs,
}

impl Lanes {
    pub fn from_code(code: i32) -> Lanes {
        match code {
            0 => Lanes::None,
            2 => Lanes::Rows,
            3 => Lanes::ThreadGangs,
            _ => Lanes::Block,
        }
    }
}

/// The launch shape `acc_rt.h` specifies: block = (vector_length or 128, num_workers or 1)
/// clamped to `max_threads`; grid = num_gangs, else 4 × SMs for "as many as you like"
/// (`iterations == i64::MAX`), else enough blocks for one iteration a thread (`lanes`: a
/// block), at most one full wave: the blocks of that size resident at once on every SM
/// (`resident(threads)`, the device's occupancy for the kernel; grid-stride loops cover the
/// rest); at least 1. Rows kernels default to 32 × 4 (a warp a worker) and
/// with more than one row keep `x` a power of two up to 32, so that a row is part of a warp
/// (`vector_length` is a hint OpenACC lets the implementation adjust).
pub fn launch_shape(
    hints: Hints,
    sm_count: u32,
    max_threads: u32,
    resident: &dyn Fn(u32) -> u32,
) -> Shape {
    let Hints {
        iterations,
        num_gangs,
        num_workers,
        vector_length,
        lanes,
    } = hints;
    let max_threads = max_threads.max(1);
    let rows = lanes == Lanes::Rows;
    let mut bx = if vector_length > 0 {
        vector_length as u32
    } else if rows {
        32
    } else {
        128
    }
    .min(max_threads);
    let by = if num_workers > 0 {
        num_workers as u32
    } else if rows && bx <= 32 {
        128 / bx.max(1)
    } else {
        1
    };
    if rows && by > 1 && 32 % bx != 0 {
        bx = 1 << bx.min(32).ilog2();
    }
    let (bx, by) = if lanes == Lanes::ThreadGangs {
        (1, 1)
    } else {
        (bx, by.clamp(1, max_threads / bx))
    };
    let sms = sm_count.max(1) as u64;
    let grid = if num_gangs > 0 {
        num_gangs as u64
    } else if iterations == i64::MAX {
        4 * sms
    } else {
        let threads = if matches!(lanes, Lanes::None | Lanes::ThreadGangs) {
            (bx * by) as u64
        } else {
            1
        };
        let wave = sms * u64::from(resident(bx * by).max(1));
        (iterations.max(0) as u64).div_ceil(threads).min(wave)
    };
    Shape {
        grid: grid.clamp(1, i32::MAX as u64) as u32,
        block: (bx, by),
    }
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
    streams: Mutex<HashMap<i32, (usize, bool)>>,
    /// Loaded kernels by (source pointer, entry pointer) of their descriptor.
    functions: Mutex<HashMap<(usize, usize), Function>>,
    /// Device buffers for launches' reductions, reused.
    scratch: Mutex<Vec<(DevAddr, usize)>>,
    /// Buffers for launches' reduction slots, with what their headers hold on the device.
    reduction_buffers: Mutex<Vec<ReductionBuffer>>,
    /// Pinned staging buffers not in use (one pair per copy under way).
    staging: Mutex<Vec<Staging>>,
    /// Blocks of a kernel resident on one SM, by (function, threads a block).
    occupancy: Mutex<HashMap<(usize, u32), u32>>,
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
            streams: Mutex::new(HashMap::new()),
            functions: Mutex::new(HashMap::new()),
            scratch: Mutex::new(Vec::new()),
            reduction_buffers: Mutex::new(Vec::new()),
            staging: Mutex::new(Vec::new()),
            occupancy: Mutex::new(HashMap::new()),
            lock_word: OnceLock::new(),
        })
    }

    /// The device-wide lock of `atomic` constructs (`acc_rt.h`: the entry after the
    /// reductions' in `__acc_red`): 16 bytes, a pointer to the word at +8, then the word, 0
    /// when free. Made with the context (see [`bind`](Self::bind)), so it is there before any
    /// memory count is taken. Returns the block's address.
    pub fn lock_block(&self) -> Result<DevAddr, String> {
        self.bind();
        self.lock_word
            .get()
            .cloned()
            .unwrap_or_else(|| Err("the atomics lock was not made".into()))
    }

    /// Allocates and clears the lock block; the context is current.
    fn new_lock_block(&self) -> Result<DevAddr, String> {
        // SAFETY: allocation has no preconditions beyond a current context.
        let p = unsafe { cu::malloc_sync(16) }
            .map_err(|e| format!("cuMemAlloc of the atomics lock: {}", describe(e)))?
            as DevAddr;
        let init: [u64; 2] = [(p + 8) as u64, 0];
        // SAFETY: `p` is a fresh 16-byte device allocation and `init` 16 bytes of host memory
        // that outlive the copy, which the default stream's synchronize waits for.
        unsafe {
            cusys::cuMemcpyHtoDAsync_v2(p as _, init.as_ptr().cast(), 16, std::ptr::null_mut())
                .result()
                .and_then(|()| cu::stream::synchronize(std::ptr::null_mut()))
        }
        .map_err(|e| format!("copying the atomics lock to the device: {}", describe(e)))?;
        Ok(p)
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

    /// The kernel loaded for descriptor `key`, if it was (see [`function`](Self::function)).
    pub fn loaded_function(&self, key: (usize, usize)) -> Option<Function> {
        lock(&self.functions).get(&key).copied()
    }

    /// The kernel `entry` of `k.source`, compiled and loaded on first use. `key` identifies
    /// the descriptor (its source and entry pointers: generated code passes string literals,
    /// which live as long as the program).
    pub fn function(
        &self,
        key: (usize, usize),
        k: &jit::KernelSource<'_>,
        entry: &str,
    ) -> Result<Function, String> {
        let mut m = lock(&self.functions);
        if let Some(&f) = m.get(&key) {
            return Ok(f);
        }
        let target = jit::target_for(self.cc).map_err(|e| {
            format!(
                "{}kernel '{}' cannot be compiled for device {}: {e}",
                k.location(),
                k.name,
                self.label()
            )
        })?;
        let mut image = jit::image_for(k, target)?;
        if target.output == jit::Output::Ptx && image.last() != Some(&0) {
            image.push(0);
        }
        self.bind();
        // SAFETY: `image` is a CUBIN or NUL-terminated PTX from NVRTC (or the cache, which
        // holds only what NVRTC produced); the module is never unloaded.
        let module = unsafe { cu::module::load_data(image.as_ptr().cast()) }.map_err(|e| {
            format!(
                "{}kernel '{}': loading its compiled image on device {} failed: {}",
                k.location(),
                k.name,
                self.label(),
                describe(e)
            )
        })?;
        let cname = CString::new(entry).map_err(|_| "a kernel entry name contains NUL")?;
        // SAFETY: `module` was just loaded.
        let f = unsafe { cu::module::get_function(module, cname) }.map_err(|e| {
            format!(
                "{}kernel '{}': its CUDA source has no entry '{entry}' (an extern \"C\" \
                 __global__ function): {}",
                k.location(),
                k.name,
                describe(e)
            )
        })?;
        // SAFETY: `f` was just loaded.
        let max_threads = unsafe {
            cu::function::get_function_attribute(
                f,
                cusys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
            )
        }
        .map_or(self.max_threads, |t| t.max(1) as u32);
        let f = Function {
            handle: f as usize,
            max_threads,
        };
        m.insert(key, f);
        Ok(f)
    }

    /// The launch shape of `f` on this device (see [`launch_shape`]; blocks are also kept
    /// within what the kernel's registers allow).
    pub fn shape(
        &self,
        f: Function,
        iterations: i64,
        num_gangs: i32,
        num_workers: i32,
        vector_length: i32,
        lanes: Lanes,
    ) -> Shape {
        // Asked once per kernel and block size: launches are a hot path.
        let resident = |threads: u32| {
            let key = (f.handle, threads);
            if let Some(&blocks) = lock(&self.occupancy).get(&key) {
                return blocks;
            }
            self.bind();
            let mut blocks = 0;
            // SAFETY: `f` is a loaded function of this device's context, current here.
            let r = unsafe {
                cusys::cuOccupancyMaxActiveBlocksPerMultiprocessor(
                    &mut blocks,
                    f.handle as cusys::CUfunction,
                    threads as i32,
                    0,
                )
            };
            let blocks = match r.result() {
                Ok(()) if blocks > 0 => blocks as u32,
                // A GPU of compute capability 8.0 or later holds 2048 threads an SM.
                _ => (2048 / threads.max(1)).clamp(1, 32),
            };
            lock(&self.occupancy).insert(key, blocks);
            blocks
        };
        let hints = Hints {
            iterations,
            num_gangs,
            num_workers,
            vector_length,
            lanes,
        };
        launch_shape(
            hints,
            self.sm_count,
            self.max_threads.min(f.max_threads).min(1024),
            &resident,
        )
    }

    /// Launches `f` on the calling queue's stream and waits for it; `Err` is the driver's
    /// error (a bad launch configuration, or a fault while the kernel ran).
    ///
    /// # Safety
    /// `params` holds one pointer per kernel parameter, each to a value of the parameter's
    /// size, and every device address among the values is live device memory of this device.
    pub unsafe fn launch_kernel(
        &self,
        f: Function,
        shape: Shape,
        params: &mut [*mut c_void],
    ) -> Result<(), String> {
        // SAFETY: forwarded from the caller.
        unsafe { self.launch_kernel_unwaited(f, shape, params) }?;
        // SAFETY: the stream is a live stream of this device.
        unsafe { cu::stream::synchronize(self.stream()) }
            .map_err(|e| format!("the kernel failed while it ran: {}", describe(e)))
    }

    /// Launches `f` on the calling queue's stream without waiting for it: the caller's next
    /// operation on that stream ([`download_after_launch`](Self::download_after_launch))
    /// waits, and reports a fault of the kernel.
    ///
    /// # Safety
    /// As for [`launch_kernel`](Self::launch_kernel), and the device addresses stay live
    /// until the stream has been waited for.
    pub unsafe fn launch_kernel_unwaited(
        &self,
        f: Function,
        shape: Shape,
        params: &mut [*mut c_void],
    ) -> Result<(), String> {
        let s = self.stream();
        // SAFETY: `f` was loaded into this device's context; the caller guarantees `params`.
        unsafe {
            cu::launch_kernel(
                f.handle as cusys::CUfunction,
                (shape.grid, 1, 1),
                (shape.block.0, shape.block.1, 1),
                0,
                s,
                params,
            )
        }
        .map_err(|e| format!("cuLaunchKernel failed: {}", describe(e)))
    }

    /// Copies a launch's inputs (its reduction slots) from the program's pageable memory to
    /// the device on the calling queue's stream, without waiting: a pageable copy returns once
    /// the driver holds the bytes, and the launch that follows on the same stream runs after
    /// the copy. One host round trip fewer per launch with reductions.
    ///
    /// # Safety
    /// `host` is `bytes` readable bytes of pageable memory; `dev` is live device memory of
    /// this device with room for them.
    pub unsafe fn upload_before_launch(
        &self,
        dev: DevAddr,
        host: *const u8,
        bytes: usize,
    ) -> Result<(), String> {
        let s = self.stream();
        // SAFETY: forwarded from the caller.
        unsafe { cusys::cuMemcpyHtoDAsync_v2(dev as _, host.cast(), bytes, s) }
            .result()
            .map_err(|e| format!("copying the reduction slots to the device: {}", describe(e)))
    }

    /// Copies a launch's results (its reduction slots) to the program's memory after the
    /// kernel launched on the same stream, and waits: an error here is most likely the
    /// kernel's own fault (CUDA errors are sticky), and is reported as such.
    ///
    /// # Safety
    /// `host` is `bytes` writable bytes; `dev` is live device memory holding them.
    pub unsafe fn download_after_launch(
        &self,
        host: *mut u8,
        dev: DevAddr,
        bytes: usize,
    ) -> Result<(), String> {
        let s = self.stream();
        // SAFETY: forwarded from the caller; the copy is waited for before returning.
        unsafe { cusys::cuMemcpyDtoHAsync_v2(host.cast(), dev as _, bytes, s) }
            .result()
            // SAFETY: `s` is a live stream of this device.
            .and_then(|()| unsafe { cu::stream::synchronize(s) })
            .map_err(|e| format!("the kernel failed while it ran: {}", describe(e)))
    }

    /// A device buffer of at least `bytes` bytes for one launch; give it back with
    /// [`put_scratch`](Self::put_scratch) once the launch has completed.
    pub fn take_scratch(&self, bytes: usize) -> Result<(DevAddr, usize), DeviceError> {
        {
            let mut pool = lock(&self.scratch);
            if let Some(i) = pool.iter().position(|&(_, cap)| cap >= bytes) {
                return Ok(pool.swap_remove(i));
            }
        }
        let cap = bytes.next_power_of_two().max(4096);
        self.bind();
        // SAFETY: allocation has no preconditions beyond a current context.
        match unsafe { cu::malloc_sync(cap) } {
            Ok(p) => Ok((p as DevAddr, cap)),
            Err(e) => Err(self.alloc_error(e, cap)),
        }
    }

    pub fn put_scratch(&self, buf: (DevAddr, usize)) {
        lock(&self.scratch).push(buf);
    }

    /// A buffer of at least `bytes` bytes for one launch's reduction slots; give it back with
    /// [`put_reduction_buffer`](Self::put_reduction_buffer) once the launch has completed.
    pub fn take_reduction_buffer(&self, bytes: usize) -> Result<ReductionBuffer, DeviceError> {
        {
            let mut pool = lock(&self.reduction_buffers);
            if let Some(i) = pool.iter().position(|b| b.cap >= bytes) {
                return Ok(pool.swap_remove(i));
            }
        }
        let (addr, cap) = self.take_scratch(bytes)?;
        Ok(ReductionBuffer {
            addr,
            cap,
            header: Vec::new(),
        })
    }

    pub fn put_reduction_buffer(&self, buf: ReductionBuffer) {
        lock(&self.reduction_buffers).push(buf);
    }

    /// A pair of staging buffers for a copy of `bytes` bytes, or `None` when the copy is
    /// better made directly (small, staging off) or pinned memory cannot be had (the copy is
    /// then direct too: slower, never wrong). The context is current.
    fn take_staging(&self, bytes: usize) -> Option<Staging> {
        let (min, chunk) = staging_config();
        if bytes < min? {
            return None;
        }
        if let Some(st) = lock(&self.staging).pop() {
            return Some(st);
        }
        let mut bufs = [(0usize, 0usize); 2];
        for b in &mut bufs {
            let mut p: *mut c_void = std::ptr::null_mut();
            let mut e: cusys::CUevent = std::ptr::null_mut();
            // SAFETY: out-pointers valid for writing; a current context.
            let ok = unsafe {
                cusys::cuMemAllocHost_v2(&mut p, chunk).result().is_ok()
                    && cusys::cuEventCreate(
                        &mut e,
                        cusys::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32,
                    )
                    .result()
                    .is_ok()
            };
            *b = (p as usize, e as usize);
            if !ok {
                crate::error::verbose(&format!(
                    "no pinned staging buffers of {chunk} bytes on {}: large copies go direct",
                    self.label()
                ));
                Self::free_staging(Staging { bufs, chunk });
                return None;
            }
        }
        Some(Staging { bufs, chunk })
    }

    fn free_staging(st: Staging) {
        for (p, e) in st.bufs {
            // SAFETY: made by `take_staging` and no longer in use (the copies that used them
            // were waited for).
            unsafe {
                if p != 0 {
                    let _ = cusys::cuMemFreeHost(p as *mut c_void);
                }
                if e != 0 {
                    let _ = cusys::cuEventDestroy_v2(e as cusys::CUevent);
                }
            }
        }
    }

    /// Waits for the DMA last issued on staging buffer `b`.
    fn wait_buffer(&self, b: (usize, usize)) {
        // SAFETY: a live event of this context.
        let r = unsafe { cusys::cuEventSynchronize(b.1 as cusys::CUevent) }.result();
        self.check("cuEventSynchronize", r);
    }

    /// Host to device through `st`: the CPU fills one buffer while the DMA engine empties the
    /// other.
    ///
    /// # Safety
    /// As [`Device::copy_to_device`].
    unsafe fn staged_to_device(
        &self,
        st: &Staging,
        dev: DevAddr,
        host: *const u8,
        bytes: usize,
        s: cusys::CUstream,
    ) {
        for (i, (at, len)) in chunks(bytes, st.chunk).enumerate() {
            let b = st.bufs[i % 2];
            if i >= 2 {
                self.wait_buffer(b);
            }
            // SAFETY: `host + at .. + len` is in the caller's range; the buffer holds a chunk
            // and no DMA reads it any more (waited for above, or never used).
            unsafe {
                std::ptr::copy_nonoverlapping(host.add(at), b.0 as *mut u8, len);
                let r = cusys::cuMemcpyHtoDAsync_v2((dev + at) as _, b.0 as *const c_void, len, s)
                    .result()
                    .and_then(|()| cusys::cuEventRecord(b.1 as cusys::CUevent, s).result());
                self.check("cuMemcpyHtoD", r);
            }
        }
    }

    /// Device to host through `st`: the DMA engine fills one buffer while the CPU empties the
    /// other.
    ///
    /// # Safety
    /// As [`Device::copy_to_host`].
    unsafe fn staged_to_host(
        &self,
        st: &Staging,
        host: *mut u8,
        dev: DevAddr,
        bytes: usize,
        s: cusys::CUstream,
    ) {
        let parts: Vec<(usize, usize)> = chunks(bytes, st.chunk).collect();
        let issue = |i: usize| {
            let ((at, len), b) = (parts[i], st.bufs[i % 2]);
            // SAFETY: `dev + at .. + len` is in the caller's range; the buffer is free (its
            // previous chunk was copied out before this is issued).
            let r = unsafe {
                cusys::cuMemcpyDtoHAsync_v2(b.0 as *mut c_void, (dev + at) as _, len, s)
                    .result()
                    .and_then(|()| cusys::cuEventRecord(b.1 as cusys::CUevent, s).result())
            };
            self.check("cuMemcpyDtoH", r);
        };
        issue(0);
        for (i, &(at, len)) in parts.iter().enumerate() {
            if i + 1 < parts.len() {
                issue(i + 1);
            }
            let b = st.bufs[i % 2];
            self.wait_buffer(b);
            // SAFETY: the chunk has arrived in the buffer (waited for above); `host + at ..
            // + len` is in the caller's range.
            unsafe { std::ptr::copy_nonoverlapping(b.0 as *const u8, host.add(at), len) };
        }
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
    use super::*;

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
