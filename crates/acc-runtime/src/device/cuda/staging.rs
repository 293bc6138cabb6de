//! Staged copies (`ACC_CUDA_STAGING`): copies between device memory and pageable host memory
//! through two pinned buffers in turn, so the CPU's copy into one overlaps the DMA of the other.
//!
//! Invariant: a staging buffer is reused only after the copy that last used it has completed
//! (`wait_buffer`); off by default (see the parent module).

use super::{lock, CudaDevice};

use crate::device::{env_bytes, DevAddr};
use crate::error::Site;
use cudarc::driver::sys as cusys;
use std::ffi::c_void;
use std::sync::OnceLock;

/// The size of each of the two staging buffers by default.
pub(super) const STAGING_CHUNK: usize = 4 << 20;

/// `ACC_CUDA_STAGING` and `ACC_CUDA_STAGING_CHUNK`: the smallest copy staged (`None`: never,
/// the default) and the chunk size.
pub(super) fn staging_config() -> (Option<usize>, usize) {
    static CONFIG: OnceLock<(Option<usize>, usize)> = OnceLock::new();
    *CONFIG.get_or_init(|| {
        let read = |name: &str, dflt: Option<usize>| match std::env::var(name) {
            Err(_) => dflt,
            Ok(v) if v.trim() == "off" => None,
            Ok(v) => env_bytes(name).or_else(|| {
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
pub(super) fn chunks(bytes: usize, chunk: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..bytes)
        .step_by(chunk.max(1))
        .map(move |at| (at, chunk.min(bytes - at)))
}

impl CudaDevice {
    /// A pair of staging buffers for a copy of `bytes` bytes, or `None` when the copy is
    /// better made directly (small, staging off) or pinned memory cannot be had (the copy is
    /// then direct too: slower, never wrong). The context is current.
    pub(super) fn take_staging(&self, bytes: usize) -> Option<Staging> {
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

    pub(super) fn free_staging(st: Staging) {
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
    pub(super) fn wait_buffer(&self, b: (usize, usize)) {
        // SAFETY: a live event of this context.
        let r = unsafe { cusys::cuEventSynchronize(b.1 as cusys::CUevent) }.result();
        self.check("cuEventSynchronize", r);
    }

    /// Host to device through `st`: the CPU fills one buffer while the DMA engine empties the
    /// other.
    ///
    /// # Safety
    /// As [`Device::copy_to_device`](crate::device::Device::copy_to_device).
    pub(super) unsafe fn staged_to_device(
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
    /// As [`Device::copy_to_host`](crate::device::Device::copy_to_host).
    pub(super) unsafe fn staged_to_host(
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
}
