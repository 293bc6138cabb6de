//! Kernels on an `nvidia` device: loading (NVRTC through `jit`, once per device and kernel),
//! launch shapes (gangs, workers and vector lanes as grid and block), launches on the calling
//! queue's stream, and the device buffers a launch borrows (scratch for private sections,
//! reduction buffers, the atomics' lock block).
//!
//! Invariant: a buffer taken from a pool goes back only once the kernel using it has
//! completed; `runtime` (which prepares parameters and reductions as `acc_rt.h` says) keeps it.

use super::{describe, lock, CudaDevice};
use crate::device::{DevAddr, DeviceError};
use crate::jit;
use cudarc::driver::result as cu;
use cudarc::driver::sys as cusys;
use std::ffi::{c_void, CString};
use std::sync::Arc;

/// A compiled kernel entry, loaded into this device's context.
#[derive(Clone, Copy, Debug)]
pub struct Function {
    handle: usize,
    /// The most threads a block of this kernel may have (fewer than the device's when the
    /// kernel needs many registers).
    pub max_threads: u32,
}

/// A loaded kernel with the words its launches' errors name it by (`file:line: kernel 'name'`),
/// made once at load rather than at every launch.
#[derive(Clone, Debug)]
pub struct LoadedKernel {
    pub function: Function,
    pub label: Arc<str>,
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

impl CudaDevice {
    /// The device-wide lock of `atomic` constructs (`acc_rt.h`: the entry after the
    /// reductions' in `__acc_red`): 16 bytes, a pointer to the word at +8, then the word, 0
    /// when free. Made with the context (see [`bind`](Self::bind)), so it is there before any
    /// memory count is taken. Returns the block's address.
    pub fn lock_block(&self) -> Result<DevAddr, String> {
        // Made once, by the first `bind`: a launch binds for its stream anyway, so only a
        // block not made yet needs the context here.
        if let Some(block) = self.lock_word.get() {
            return block.clone();
        }
        self.bind();
        self.lock_word
            .get()
            .cloned()
            .unwrap_or_else(|| Err("the atomics lock was not made".into()))
    }

    /// Allocates and clears the lock block; the context is current.
    pub(super) fn new_lock_block(&self) -> Result<DevAddr, String> {
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

    /// The kernel loaded for descriptor `key`, if it was (see [`function`](Self::function)).
    pub fn loaded_function(&self, key: (usize, usize)) -> Option<LoadedKernel> {
        lock(&self.functions).get(&key).cloned()
    }

    /// The kernel `entry` of `k.source`, compiled and loaded on first use. `key` identifies
    /// the descriptor (its source and entry pointers: generated code passes string literals,
    /// which live as long as the program).
    pub fn function(
        &self,
        key: (usize, usize),
        k: &jit::KernelSource<'_>,
        entry: &str,
        device_address: &dyn Fn(usize) -> Option<u64>,
    ) -> Result<LoadedKernel, String> {
        let mut m = lock(&self.functions);
        if let Some(loaded) = m.get(&key) {
            return Ok(loaded.clone());
        }
        let target = jit::target_for(self.cc).map_err(|e| {
            format!(
                "{}kernel '{}' cannot be compiled for device {}: {e}",
                k.location(),
                k.name,
                self.label()
            )
        })?;
        // A module whose kernels call another file's routines is linked with their libraries.
        let libraries = crate::device_code::link_plan(key.0).map_err(|why| {
            format!(
                "{}kernel '{}' cannot run on device {}: {why}",
                k.location(),
                k.name,
                self.label()
            )
        })?;
        // The linker's output is a CUBIN; NVRTC's PTX text needs its NUL.
        let image = match &libraries {
            Some(libraries) => self.linked_image(k, target, libraries)?,
            None => {
                let mut image = jit::image_for(k, target)?;
                if target.output == jit::Output::Ptx && image.last() != Some(&0) {
                    image.push(0);
                }
                image
            }
        };
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
        for lib in libraries.iter().flatten() {
            self.bind_library_globals(module, lib, device_address)
                .map_err(|why| format!("{}kernel '{}': {why}", k.location(), k.name))?;
        }
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
        let loaded = LoadedKernel {
            function: Function {
                handle: f as usize,
                max_threads,
            },
            label: format!("{}kernel '{}'", k.location(), k.name).into(),
        };
        m.insert(key, loaded.clone());
        Ok(loaded)
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
        let s = self.stream();
        // SAFETY: forwarded from the caller.
        unsafe { self.launch_on(s, f, shape, params) }?;
        // SAFETY: the stream is a live stream of this device.
        unsafe { cu::stream::synchronize(s) }
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
        // SAFETY: forwarded from the caller.
        unsafe { self.launch_on(self.stream(), f, shape, params) }
    }

    /// Launches `f` on stream `s`, a stream of the calling queue got by the caller (each
    /// lookup of the stream binds the context: one a launch).
    ///
    /// # Safety
    /// As for [`launch_kernel_unwaited`](Self::launch_kernel_unwaited).
    unsafe fn launch_on(
        &self,
        s: cusys::CUstream,
        f: Function,
        shape: Shape,
        params: &mut [*mut c_void],
    ) -> Result<(), String> {
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
}
