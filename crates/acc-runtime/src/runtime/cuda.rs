//! CUDA kernel launches on an `nvidia` device: the kernel compiled (NVRTC) or found when the
//! launch is made, then on the launch's queue the reduction slots and private sections set up
//! in the device's scratch buffers, the kernel run, and the slots combined.
//!
//! Invariant: scratch and reduction buffers go back to the device only after the kernel has
//! completed (the launch or the slots' download waited for it).

use super::args::ArgValues;
use super::reductions::Reds;
use super::{Arg, DeviceState, Geometry, Reduction};
use crate::device::cuda::{CudaDevice, Function, ReductionBuffer, Shape};
use crate::device::DevAddr;
use crate::error::{Error, ErrorKind, Result, Site, Text};
use crate::prof;
use crate::queue::QueueSel;
use std::ffi::c_void;

/// A kernel's CUDA version, from its descriptor.
#[derive(Clone, Copy, Debug)]
pub struct CudaKernel<'a> {
    /// The name, file and entry are read (checked to be UTF-8) only when the kernel is first
    /// loaded or an error names it: the loaded kernel keeps the words its errors use.
    pub name: Text<'a>,
    pub file: Text<'a>,
    pub line: u32,
    /// A complete CUDA C translation unit (NVRTC only, no headers): read (measured and
    /// checked to be UTF-8) only when the kernel is first loaded, as generated modules are
    /// tens of kilobytes and launches are many.
    pub source: Text<'a>,
    /// The `extern "C" __global__` function to launch.
    pub entry: Text<'a>,
    /// Identifies the descriptor for the loaded-kernel cache: generated code passes string
    /// literals, so their addresses do.
    pub key: (usize, usize),
    /// How a gang iteration is shared among a block's threads, which the launch shape must
    /// know.
    pub lanes: crate::device::cuda::Lanes,
}

impl DeviceState {
    /// Launches a CUDA kernel on an `nvidia` device, as `acc_rt.h` specifies: parameters
    /// `(P0, ..., P(nargs-1), void *const *__acc_red, long long __acc_iterations)`, one
    /// reduction slot per block, slots combined after the kernel like the host path's chunks.
    ///
    /// # Safety
    /// As for [`launch`](Self::launch); the kernel's parameters match the arguments; `k`'s
    /// texts are valid (a `Text::C` is a NUL-terminated string that lives for the program).
    pub unsafe fn launch_cuda(
        &'static self,
        k: &CudaKernel<'_>,
        geom: Geometry,
        args: &[Arg<'_>],
        reds: &[Reduction<'_>],
        q: QueueSel,
        site: &Site<'_>,
    ) -> Result<()> {
        let Some(gpu) = self.device.cuda() else {
            return Err(Error::new(
                ErrorKind::Internal,
                site,
                format!("device {} cannot run CUDA kernels", self.label),
            ));
        };
        let n = geom.iterations;
        if n < 0 {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                site,
                format!("kernel launched with {n} iterations"),
            ));
        }
        let vals = self.translate_args(args)?;
        let plan = self.plan_reductions(reds)?;
        // Compiled (or found) now, in the calling thread, so that an error names the launch.
        let crate::device::cuda::LoadedKernel {
            function: f,
            label: what,
        } = match gpu.loaded_function(k.key) {
            Some(f) => f,
            None => {
                // SAFETY: the descriptor's texts are NUL-terminated strings that live for the
                // program (`acc_rt.h`), or Rust text.
                let (name, file) = unsafe { (k.name.lossy(), k.file.lossy()) };
                // SAFETY: as above.
                let texts = unsafe { (k.source.as_str(), k.entry.as_str()) };
                let (Some(source), Some(entry)) = texts else {
                    return Err(Error::new(
                        ErrorKind::InvalidArgument,
                        site,
                        format!("kernel '{name}': its CUDA source or entry name is not UTF-8"),
                    ));
                };
                let ks = crate::jit::KernelSource {
                    name: &name,
                    file: &file,
                    line: k.line,
                    source,
                };
                // Where a linked routine library finds the file-scope variables it uses.
                let device_address = |host: usize| match self.table().lookup(host, 0) {
                    crate::present::Lookup::Present(e) => Some(e.dev_of(host) as u64),
                    _ => None,
                };
                gpu.function(k.key, &ks, entry, &device_address)
                    .map_err(|m| Error::new(ErrorKind::Device, &Site::default(), m))?
            }
        };
        if n == 0 {
            return Ok(());
        }
        let shape = gpu.shape(
            f,
            n,
            geom.num_gangs,
            geom.num_workers,
            geom.vector_length,
            k.lanes,
        );
        // Gangs are blocks, workers rows and vector lanes threads of a row (`Lanes`), or each
        // thread is a gang (`Threads`: the block's threads as the vector).
        let geometry = (
            shape.grid as usize,
            shape.block.1 as usize,
            shape.block.0 as usize,
        );
        self.launch_event(prof::Event::EnqueueLaunchStart, q, site, geometry);
        self.queues.submit(q, move || {
            // SAFETY: forwarded from the caller of `launch_cuda`.
            unsafe { self.run_cuda(f, shape, n, vals, plan, &what) }
        });
        self.launch_event(prof::Event::EnqueueLaunchEnd, q, site, geometry);
        Ok(())
    }

    /// The body of a CUDA launch, on the launch's queue.
    ///
    /// # Safety
    /// As for [`launch_cuda`](Self::launch_cuda).
    pub(super) unsafe fn run_cuda(
        &self,
        f: Function,
        shape: Shape,
        iterations: i64,
        vals: ArgValues,
        plan: Reds,
        what: &str,
    ) {
        let Some(gpu) = self.device.cuda() else {
            return;
        };
        let fail = |m: String| -> ! { self.cuda_fail(what, m) };
        let blocks = shape.grid as usize;
        let lock = gpu.lock_block().unwrap_or_else(|m| fail(m));
        // SAFETY: forwarded from the caller of `run_cuda`.
        let mut slots = unsafe { self.cuda_reduction_slots(gpu, &plan, blocks, lock, what) };
        let mut vals = vals;
        let private_buffers = self.cuda_private_buffers(gpu, &mut vals, blocks, what);
        let mut iterations = iterations;
        let base = vals.storage.as_ptr() as usize;
        let mut params: Vec<*mut c_void> = Vec::with_capacity(vals.offsets.len() + 2);
        params.extend(vals.offsets.iter().map(|&o| (base + o * 8) as *mut c_void));
        params.push((&mut slots.red_dev as *mut u64).cast());
        params.push((&mut iterations as *mut i64).cast());
        // SAFETY: one pointer per parameter of the convention, each to a value of the
        // parameter's size (the caller's contract); the addresses among them were present.
        // With reductions, the download of the slots below waits for the kernel.
        let launched = unsafe {
            if slots.scratch.is_some() {
                gpu.launch_kernel_unwaited(f, shape, &mut params)
            } else {
                gpu.launch_kernel(f, shape, &mut params)
            }
        };
        if let Err(m) = launched {
            fail(m)
        }
        // SAFETY: the kernel was launched with these slots; the caller guarantees the variables.
        unsafe { self.cuda_combine(gpu, &plan, slots, blocks, what) };
        // The kernel has completed: the launch or the slots' download waited for it.
        for buf in private_buffers {
            gpu.put_scratch(buf);
        }
        drop(vals);
    }

    /// Ends the program on an error of a CUDA launch under way (`what`), which has no caller
    /// left to return it to.
    fn cuda_fail(&self, what: &str, m: String) -> ! {
        crate::error::fatal(&Error::new(
            ErrorKind::Device,
            &Site::default(),
            format!("{what} on device {}: {m}", self.label),
        ))
    }

    /// Lays out a launch's reduction buffer and takes it from the device's pool: its header
    /// uploaded when it changed, and the slots of arrays and custom reductions preset.
    /// Without reductions, the lock's own block serves (its first word points at the lock).
    ///
    /// # Safety
    /// As for [`launch_cuda`](Self::launch_cuda): the reduction variables are valid.
    unsafe fn cuda_reduction_slots(
        &self,
        gpu: &CudaDevice,
        plan: &Reds,
        blocks: usize,
        lock: DevAddr,
        what: &str,
    ) -> RedSlots {
        let fail = |m: String| -> ! { self.cuda_fail(what, m) };
        let nred = plan.len();
        // The reduction buffer: `nred` device pointers and one to the atomics' lock word,
        // then each reduction's slots (one private copy per block), each part on a 256-byte
        // boundary.
        let header = ((nred + 1) * 8).next_multiple_of(256);
        let mut starts = Vec::with_capacity(nred);
        let mut total = header;
        for j in 0..nred {
            starts.push(total);
            total += (blocks * plan.bytes(j)).next_multiple_of(256);
        }
        let mut slots = RedSlots {
            header,
            starts,
            total,
            host: Vec::new(),
            scratch: None,
            red_dev: lock as u64,
        };
        if nred == 0 {
            return slots;
        }
        slots.host = vec![0u128; total.div_ceil(16)];
        let mut buf = gpu
            .take_reduction_buffer(total)
            .unwrap_or_else(|e| fail(format!("no room for the reduction slots: {e}")));
        let mut header_words: Vec<u64> = slots
            .starts
            .iter()
            .map(|&start| (buf.addr + start) as u64)
            .collect();
        header_words.push(lock as u64 + 8);
        let hb = slots.host.as_mut_ptr().cast::<u8>();
        for (j, w) in header_words.iter().enumerate() {
            // SAFETY: the header has room for `nred + 1` pointers.
            unsafe { hb.add(j * 8).cast::<u64>().write_unaligned(*w) };
        }
        // Only arrays and custom reductions need their slots preset; a buffer whose header
        // is already on the device (the same layout, the last time it was used) then needs
        // no upload at all.
        let upload = if plan.cuda_preset.iter().any(|&p| p) {
            // SAFETY: the launch's caller guarantees the reduction variables.
            let originals = unsafe { plan.originals(&*self.device) };
            for (j, &start) in slots.starts.iter().enumerate() {
                if !plan.cuda_preset[j] {
                    continue;
                }
                let bytes = plan.bytes(j);
                for b in 0..blocks {
                    // SAFETY: slot `b` of reduction `j` lies inside `host` (`total` bytes).
                    let slot =
                        unsafe { std::slice::from_raw_parts_mut(hb.add(start + b * bytes), bytes) };
                    // SAFETY: `slot` is one private copy of reduction `j`.
                    unsafe { plan.init_copy(j, slot, &originals) };
                }
            }
            total
        } else if buf.header != header_words {
            header
        } else {
            0
        };
        if upload > 0 {
            // SAFETY: `buf` is a live device buffer of at least `total` bytes; `host` is a
            // fresh `Vec` (pageable memory) of `total` bytes, kept until the download.
            if let Err(m) = unsafe { gpu.upload_before_launch(buf.addr, hb, upload) } {
                fail(m)
            }
            buf.header = header_words;
        }
        slots.red_dev = buf.addr as u64;
        slots.scratch = Some(buf);
        slots
    }

    /// After the kernel: downloads the reduction slots (which waits for it), combines each
    /// reduction's slots into its variable and gives the buffer back to the pool.
    ///
    /// # Safety
    /// The kernel was launched with `slots`; the reduction variables are valid.
    unsafe fn cuda_combine(
        &self,
        gpu: &CudaDevice,
        plan: &Reds,
        mut slots: RedSlots,
        blocks: usize,
        what: &str,
    ) {
        let fail = |m: String| -> ! { self.cuda_fail(what, m) };
        let Some(buf) = slots.scratch.take() else {
            return;
        };
        let (header, total) = (slots.header, slots.total);
        let hb = slots.host.as_mut_ptr().cast::<u8>();
        // SAFETY: the slots were uploaded above and are written by the kernel, which this
        // download (on the same stream) waits for.
        let downloaded =
            unsafe { gpu.download_after_launch(hb.add(header), buf.addr + header, total - header) };
        if let Err(m) = downloaded {
            fail(m)
        }
        for (j, &start) in slots.starts.iter().enumerate() {
            let bytes = plan.bytes(j);
            let at = hb as usize + start;
            let parts = (0..blocks).map(|b| (at + b * bytes) as *const u8);
            // SAFETY: every slot holds a private copy initialised (above, or by its block
            // for a scalar) and reduced by
            // one block; the caller guarantees the variable.
            unsafe { plan.combine(&*self.device, j, parts) };
        }
        gpu.put_reduction_buffer(buf);
    }

    /// Private sections: device storage for every block (a block is a gang in every kernel that
    /// has them), the first copy uploaded for firstprivate; each section's argument word set to
    /// its storage.
    fn cuda_private_buffers(
        &self,
        gpu: &CudaDevice,
        vals: &mut ArgValues,
        blocks: usize,
        what: &str,
    ) -> Vec<(DevAddr, usize)> {
        let fail = |m: String| -> ! { self.cuda_fail(what, m) };
        let mut private_buffers = Vec::with_capacity(vals.privates.len());
        for p in &vals.privates {
            let buf = gpu
                .take_scratch(p.total(blocks))
                .unwrap_or_else(|e| fail(format!("no room for a private section: {e}")));
            if !p.original.is_empty() {
                // SAFETY: `buf` has room for the first copy; `original` lives until the kernel
                // (which the stream runs after the copy) has been waited for, by `run_cuda`.
                let uploaded =
                    unsafe { gpu.upload_before_launch(buf.0, p.original.as_ptr(), p.bytes) };
                if let Err(m) = uploaded {
                    fail(m)
                }
            }
            vals.storage[p.word] = buf.0 as u64;
            private_buffers.push(buf);
        }
        private_buffers
    }
}

/// A CUDA launch's reduction buffer: its layout, its host image, and the device buffer (none
/// without reductions).
struct RedSlots {
    /// The header's bytes: `nred` device pointers and one to the atomics' lock word.
    header: usize,
    /// Where each reduction's slots (one private copy per block) start.
    starts: Vec<usize>,
    total: usize,
    /// The buffer's host image (pageable memory), kept until the slots' download.
    host: Vec<u128>,
    scratch: Option<ReductionBuffer>,
    /// What the kernel's `__acc_red` parameter points at.
    red_dev: u64,
}
