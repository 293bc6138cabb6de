//! Tracked device memory for the CPU devices: every live allocation is recorded in an ordered
//! map, so frees and device-address ranges are checked in O(log n) instead of trusted.

use super::{DevAddr, DeviceError};
use std::alloc::{alloc, dealloc, Layout};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Alignment of every allocation: enough for any C type and a cache line, as `cudaMalloc`'s
/// 256-byte alignment is more than enough for any C type.
const ALIGN: usize = 64;

pub(crate) struct Arena {
    capacity: usize,
    poison: Option<u8>,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Start address → size in bytes of every live allocation.
    live: BTreeMap<usize, usize>,
    used: usize,
}

impl Arena {
    /// An arena of `capacity` bytes; new memory is filled with `poison` when given.
    pub(crate) fn new(capacity: usize, poison: Option<u8>) -> Arena {
        Arena {
            capacity,
            poison,
            state: Mutex::new(State::default()),
        }
    }

    pub(crate) fn free_bytes(&self) -> usize {
        self.capacity.saturating_sub(self.lock().used)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn alloc(&self, bytes: usize) -> Result<DevAddr, DeviceError> {
        let size = bytes.max(1);
        let oom = |used: usize| DeviceError::OutOfMemory {
            requested: bytes,
            free: self.capacity.saturating_sub(used),
            total: self.capacity,
        };
        let layout = Layout::from_size_align(size, ALIGN).map_err(|_| oom(0))?;
        let mut st = self.lock();
        if st.used.checked_add(size).is_none_or(|u| u > self.capacity) {
            return Err(oom(st.used));
        }
        // SAFETY: `layout` has a non-zero size.
        let p = unsafe { alloc(layout) };
        if p.is_null() {
            return Err(oom(st.used));
        }
        if let Some(byte) = self.poison {
            // SAFETY: `p` was just allocated with `size` bytes.
            unsafe { p.write_bytes(byte, size) };
        }
        st.used += size;
        st.live.insert(p as usize, size);
        Ok(p as usize)
    }

    pub(crate) fn free(&self, addr: DevAddr) -> Result<(), DeviceError> {
        let mut st = self.lock();
        let size = st
            .live
            .remove(&addr)
            .ok_or(DeviceError::NotAllocated { addr })?;
        st.used -= size;
        drop(st);
        // SAFETY: `addr` was returned by `alloc` with this size and alignment and was live
        // until the `remove` above, so it is freed exactly once.
        unsafe {
            dealloc(
                addr as *mut u8,
                Layout::from_size_align_unchecked(size, ALIGN),
            )
        };
        Ok(())
    }

    pub(crate) fn check(&self, addr: DevAddr, bytes: usize) -> Result<(), DeviceError> {
        let st = self.lock();
        match st.live.range(..=addr).next_back() {
            Some((&start, &size)) if addr.checked_add(bytes).is_some_and(|e| e <= start + size) => {
                Ok(())
            }
            _ => Err(DeviceError::OutOfRange { addr, bytes }),
        }
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        let st = self.state.get_mut().unwrap_or_else(|e| e.into_inner());
        for (&addr, &size) in &st.live {
            // SAFETY: every live entry was allocated by `alloc` with this layout and not freed.
            unsafe {
                dealloc(
                    addr as *mut u8,
                    Layout::from_size_align_unchecked(size, ALIGN),
                )
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poisons_checks_ranges_and_refuses_double_free() {
        let a = Arena::new(1 << 20, Some(0xEE));
        let p = a.alloc(100).unwrap();
        // SAFETY: `p` is a live 100-byte allocation.
        let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, 100) };
        assert!(bytes.iter().all(|&b| b == 0xEE));
        assert!(a.check(p + 10, 90).is_ok());
        assert!(a.check(p + 10, 91).is_err());
        assert!(a.check(p - 1, 1).is_err());
        assert_eq!(a.free_bytes(), (1 << 20) - 100);
        a.free(p).unwrap();
        assert_eq!(a.free(p), Err(DeviceError::NotAllocated { addr: p }));
        assert_eq!(a.free_bytes(), 1 << 20);
    }

    #[test]
    fn capacity_is_enforced() {
        let a = Arena::new(1000, None);
        let p = a.alloc(600).unwrap();
        assert!(matches!(
            a.alloc(600),
            Err(DeviceError::OutOfMemory {
                requested: 600,
                free: 400,
                ..
            })
        ));
        a.free(p).unwrap();
        assert!(a.alloc(600).is_ok());
    }
}
