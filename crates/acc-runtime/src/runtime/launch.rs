//! Host kernel launches: the iterations split into balanced chunks run on the device's
//! executor, each chunk with its argument and reduction slots (`acc_rt_chunk`), the
//! reductions combined after every chunk ran.
//!
//! Invariants: the whole launch is one job of its queue; the slots outlive every chunk and
//! chunk `c` alone writes its reduction copies.

use super::args::ArgValues;
use super::{globals, Arg, DeviceState, Reduction};
use crate::error::{Error, ErrorKind, Result, Site};
use crate::prof;
use crate::queue::QueueSel;
use std::ffi::c_void;

/// What one chunk of a host kernel sees (`acc_rt_chunk` in `acc_rt.h`).
#[repr(C)]
pub struct Chunk {
    pub args: *const *mut c_void,
    pub red: *const *mut c_void,
    pub begin: i64,
    pub end: i64,
    pub index: i64,
    pub count: i64,
}

pub type HostFn = unsafe extern "C" fn(*const Chunk);

/// Launch geometry: iterations and the gang hint (workers and vector length only matter on
/// GPUs and are accepted for them).
#[derive(Clone, Copy, Debug, Default)]
pub struct Geometry {
    pub iterations: i64,
    pub num_gangs: i32,
    pub num_workers: i32,
    pub vector_length: i32,
}

/// The first iteration of chunk `c` of `chunks` over `0..n` (static, balanced partition).
pub(super) fn split(n: i64, chunks: usize, c: usize) -> i64 {
    ((n as i128 * c as i128) / chunks.max(1) as i128) as i64
}

impl DeviceState {
    /// Launches a host kernel: `iterations` split into chunks run on the device's executor,
    /// arguments translated to device addresses now, reductions combined after the chunks.
    ///
    /// # Safety
    /// `f` is safe to call with the chunk layout of `acc_rt.h`; every `Value` argument points at
    /// `bytes` readable bytes; every reduction variable is a valid value of its type that stays
    /// valid until the launch completed.
    pub unsafe fn launch(
        &'static self,
        f: HostFn,
        geom: Geometry,
        args: &[Arg<'_>],
        reds: &[Reduction<'_>],
        q: QueueSel,
        site: &Site<'_>,
    ) -> Result<()> {
        let n = geom.iterations;
        if n < 0 {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                site,
                format!("kernel launched with {n} iterations"),
            ));
        }
        let ArgValues {
            offsets,
            mut storage,
            privates,
        } = self.translate_args(args)?;
        let plan = self.plan_reductions(reds)?;
        let want = if geom.num_gangs > 0 {
            geom.num_gangs as usize
        } else {
            self.device.concurrency()
        };
        let chunks = (n as u64).min(want as u64) as usize;
        self.launch_event(prof::Event::EnqueueLaunchStart, q, site, (chunks, 1, 1));
        self.queues.submit(q, move || {
            // Each private section's storage, in host memory (every CPU device runs kernels
            // on the host): 16-byte aligned, as any C type needs.
            let private_storage: Vec<Vec<u128>> = privates
                .iter()
                .map(|p| {
                    let mut buf = vec![0u128; p.total(chunks).div_ceil(16)];
                    // SAFETY: `buf` has at least `bytes` bytes; `original` is empty or that long.
                    unsafe {
                        std::ptr::copy_nonoverlapping(
                            p.original.as_ptr(),
                            buf.as_mut_ptr().cast::<u8>(),
                            p.original.len(),
                        )
                    };
                    storage[p.word] = buf.as_ptr() as u64;
                    buf
                })
                .collect();
            let base = storage.as_ptr() as usize;
            let ptrs: Vec<usize> = offsets.iter().map(|&o| base + o * 8).collect();
            let nred = plan.len();
            // Each chunk's private copy of each reduction: `count` elements, packed as C
            // lays out an array, each copy starting on an 8-byte boundary.
            let words: Vec<usize> = (0..nred).map(|j| plan.bytes(j).div_ceil(8)).collect();
            // SAFETY: the launch's caller guarantees the reduction variables.
            let originals = unsafe { plan.originals(&*self.device) };
            let per_chunk: usize = words.iter().sum();
            let mut partials: Vec<u64> = vec![0; chunks * per_chunk];
            let mut starts = Vec::with_capacity(chunks * nred);
            for c in 0..chunks {
                let mut at = c * per_chunk;
                for (j, &w) in words.iter().enumerate() {
                    let copy = &mut partials[at..at + w];
                    // SAFETY: the words are `w * 8 >= plan.bytes(j)` writable bytes.
                    let copy = unsafe {
                        std::slice::from_raw_parts_mut(
                            copy.as_mut_ptr().cast::<u8>(),
                            plan.bytes(j),
                        )
                    };
                    // SAFETY: `copy` is one private copy of reduction `j`.
                    unsafe { plan.init_copy(j, copy, &originals) };
                    starts.push(at);
                    at += w;
                }
            }
            let pbase = partials.as_mut_ptr() as usize;
            let red_ptrs: Vec<usize> = starts.iter().map(|&w| pbase + w * 8).collect();
            let args_at = ptrs.as_ptr() as usize;
            let red_at = red_ptrs.as_ptr() as usize;
            let device = self as *const DeviceState as usize;
            let body = move |c: usize| {
                let chunk = Chunk {
                    args: args_at as *const *mut c_void,
                    red: (red_at + c * nred * size_of::<usize>()) as *const *mut c_void,
                    begin: split(n, chunks, c),
                    end: split(n, chunks, c + 1),
                    index: c as i64,
                    count: chunks as i64,
                };
                globals::in_chunk(device, || {
                    // SAFETY: the launch's caller guarantees `f`; the argument and reduction
                    // slots outlive the launch, and chunk `c` is the only one writing its
                    // reduction slots.
                    unsafe { f(&chunk) }
                });
            };
            self.device.launch(chunks, &body);
            for j in 0..nred {
                let parts = (0..chunks).map(|c| (pbase + starts[c * nred + j] * 8) as *const u8);
                // SAFETY: every chunk's copy was initialised above and written only by its
                // chunk; the caller guarantees the variable.
                unsafe { plan.combine(&*self.device, j, parts) };
            }
            drop(storage);
            drop(private_storage);
        });
        self.launch_event(prof::Event::EnqueueLaunchEnd, q, site, (chunks, 1, 1));
        Ok(())
    }
}
