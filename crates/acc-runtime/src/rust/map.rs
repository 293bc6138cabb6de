//! Mappings: the guards of data clauses ([`MapRef`], [`MapMut`], from [`DataClause`]s) and the
//! mirrored buffer [`Mirror`].
//!
//! A guard holds one *structured* reference count of its slice's entry on the current device
//! from its creation to its drop (which copies out as its clause says), and its device view
//! borrows the guard; a `Mirror` holds a *dynamic* count while it is mapped. These are the only
//! reference counts the Rust API changes, always through `runtime`'s data actions.

use super::{current, is_gpu, DeviceCopy, Loc};
use crate::error::{fatal, Site};
use crate::present::Counter;
use crate::queue::QueueSel;
use crate::runtime::{Action, DeviceState, Flags};

/// A data clause of a compute or data construct on one slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataClause {
    Copy,
    CopyIn,
    CopyOut,
    Create,
    Present,
    NoCreate,
}

impl DataClause {
    fn action(self) -> Action {
        match self {
            DataClause::Copy => Action::Copy,
            DataClause::CopyIn => Action::CopyIn,
            DataClause::CopyOut => Action::CopyOut,
            DataClause::Create => Action::Create,
            DataClause::Present => Action::Present,
            DataClause::NoCreate => Action::NoCreate,
        }
    }
}

/// A structured mapping of a shared slice, held for a construct; exits on drop.
pub struct MapRef<'a, T: DeviceCopy> {
    pub(super) host: &'a [T],
    dev: usize,
    device: &'static DeviceState,
    clause: DataClause,
    loc: Loc,
    var: &'static str,
}

/// A structured mapping of a mutable slice, held for a construct; exits (copying out if the
/// clause says so) on drop.
pub struct MapMut<'a, T: DeviceCopy> {
    pub(super) host: &'a mut [T],
    dev: usize,
    device: &'static DeviceState,
    clause: DataClause,
    loc: Loc,
    var: &'static str,
}

fn enter(
    device: &'static DeviceState,
    clause: DataClause,
    host: usize,
    bytes: usize,
    site: &Site<'_>,
) -> usize {
    // SAFETY: `host` is a live slice of `bytes` bytes borrowed by the guard that calls this, and
    // the copy is synchronous.
    let r = unsafe {
        device.enter(
            clause.action(),
            Flags::default(),
            host,
            bytes,
            Counter::Structured,
            QueueSel::Sync,
            site,
        )
    };
    r.unwrap_or_else(|e| fatal(&e))
}

fn exit(device: &'static DeviceState, action: Action, host: usize, bytes: usize, site: &Site<'_>) {
    // SAFETY: `host` is a live slice of `bytes` bytes borrowed by the guard that calls this, and
    // the copy is synchronous.
    let r = unsafe {
        device.exit(
            action,
            Flags::default(),
            host,
            bytes,
            Counter::Structured,
            QueueSel::Sync,
            site,
        )
    };
    if let Err(e) = r {
        fatal(&e)
    }
}

impl<'a, T: DeviceCopy> MapRef<'a, T> {
    /// Enters `host` on the current device with `clause` (which must not copy out).
    pub fn new(host: &'a [T], clause: DataClause, var: &'static str, loc: Loc) -> Self {
        let device = current(&loc.site(var));
        let dev = enter(
            device,
            clause,
            host.as_ptr() as usize,
            size_of_val(host),
            &loc.site(var),
        );
        MapRef {
            host,
            dev,
            device,
            clause,
            loc,
            var,
        }
    }

    /// The device copy (the host slice itself on a shared-memory device, or when `no_create`
    /// found it absent).
    pub fn view(&self) -> &[T] {
        if self.dev == 0 || self.dev == self.host.as_ptr() as usize || is_gpu(self.device) {
            return self.host;
        }
        // SAFETY: `dev` is the device copy of `host` (same length, CPU memory of a CPU device),
        // kept alive by the structured count this guard holds; see the module documentation for
        // why no `&mut` view of it can exist at the same time.
        unsafe { std::slice::from_raw_parts(self.dev as *const T, self.host.len()) }
    }

    /// The host slice, for host code inside a data region.
    pub fn host(&self) -> &[T] {
        self.host
    }
}

impl<T: DeviceCopy> Drop for MapRef<'_, T> {
    fn drop(&mut self) {
        let action = match self.clause {
            // A shared slice cannot be written back.
            DataClause::Copy | DataClause::CopyOut => Action::Delete,
            c => c.action(),
        };
        let host = self.host.as_ptr() as usize;
        exit(
            self.device,
            action,
            host,
            size_of_val(self.host),
            &self.loc.site(self.var),
        );
    }
}

impl<'a, T: DeviceCopy> MapMut<'a, T> {
    /// Enters `host` on the current device with `clause`.
    pub fn new(host: &'a mut [T], clause: DataClause, var: &'static str, loc: Loc) -> Self {
        let device = current(&loc.site(var));
        let dev = enter(
            device,
            clause,
            host.as_ptr() as usize,
            size_of_val(host),
            &loc.site(var),
        );
        MapMut {
            host,
            dev,
            device,
            clause,
            loc,
            var,
        }
    }

    /// The device copy (the host slice itself on a shared-memory device, or when `no_create`
    /// found it absent).
    pub fn view(&mut self) -> &mut [T] {
        if self.dev == 0 || self.dev == self.host.as_ptr() as usize || is_gpu(self.device) {
            return self.host;
        }
        // SAFETY: `dev` is the device copy of `host` (same length, CPU memory of a CPU device),
        // kept alive by the structured count this guard holds. The view borrows the guard
        // mutably and the guard borrows `host` mutably, so no other view of this device memory
        // exists while it lives (see the module documentation).
        unsafe { std::slice::from_raw_parts_mut(self.dev as *mut T, self.host.len()) }
    }

    /// The host slice, for host code inside a data region.
    pub fn host(&mut self) -> &mut [T] {
        self.host
    }
}

impl<T: DeviceCopy> Drop for MapMut<'_, T> {
    fn drop(&mut self) {
        // On unwind the host slice is left as it was: only the mapping is removed.
        let action = if std::thread::panicking() {
            Action::Delete
        } else {
            self.clause.action()
        };
        let host = self.host.as_mut_ptr() as usize;
        exit(
            self.device,
            action,
            host,
            size_of_val(self.host),
            &self.loc.site(self.var),
        );
    }
}

/// An owning buffer mirrored on the current device: mapped (copied in) when created, unmapped
/// when dropped, so the present table can never hold the address of freed host memory.
/// Kernels called with [`as_slice`](Mirror::as_slice)/[`as_mut_slice`](Mirror::as_mut_slice)
/// find it present and use the device copy; move data explicitly with
/// [`update_device`](Mirror::update_device) and [`update_self`](Mirror::update_self).
pub struct Mirror<T: DeviceCopy> {
    data: Vec<T>,
    device: &'static DeviceState,
    mapped: bool,
}

impl<T: DeviceCopy> Mirror<T> {
    /// Takes `data` and copies it to the current device (`enter data copyin`).
    pub fn new(data: Vec<T>) -> Self {
        let site = Site::routine("acc::Mirror::new");
        let device = current(&site);
        // SAFETY: `data` is a live allocation of that many bytes and the copy is synchronous;
        // the mapping is removed in `drop`, before the vector is freed.
        let r = unsafe {
            device.enter(
                Action::CopyIn,
                Flags::default(),
                data.as_ptr() as usize,
                size_of_val(data.as_slice()),
                Counter::Dynamic,
                QueueSel::Sync,
                &site,
            )
        };
        if let Err(e) = r {
            fatal(&e)
        }
        Mirror {
            data,
            device,
            mapped: true,
        }
    }

    pub fn as_slice(&self) -> &[T] {
        &self.data
    }

    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.data
    }

    pub fn len(&self) -> usize {
        self.data.len()
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Copies the device copy to the host (`update self`).
    pub fn update_self(&mut self) {
        self.update(false, "acc::Mirror::update_self");
    }

    /// Copies the host data to the device copy (`update device`).
    pub fn update_device(&mut self) {
        self.update(true, "acc::Mirror::update_device");
    }

    /// The address of the device copy of the first element (`host_data use_device`), for a
    /// library that reads device memory, such as a CUDA-aware MPI. On `host` it is the host
    /// address, on `host_discrete` the runtime's separate memory (ordinary memory of this
    /// process), on a GPU device memory the host must not dereference. It stays valid while
    /// the mirror lives; kernels see what is written there.
    pub fn device_ptr(&self) -> *const T {
        self.device.deviceptr(self.data.as_ptr() as usize) as *const T
    }

    /// [`device_ptr`](Mirror::device_ptr), for writing (an MPI receive into device memory).
    pub fn device_ptr_mut(&mut self) -> *mut T {
        self.device.deviceptr(self.data.as_mut_ptr() as usize) as *mut T
    }

    /// Copies the elements `range` of the device copy to the host (`update self(x[a:n])`): an
    /// MPI halo exchange moves only the rows that travel.
    ///
    /// # Panics
    /// When `range` is not within the buffer.
    pub fn update_self_range(&mut self, range: std::ops::Range<usize>) {
        self.update_range(false, range, "acc::Mirror::update_self_range");
    }

    /// Copies the host's elements `range` to the device copy (`update device(x[a:n])`).
    ///
    /// # Panics
    /// When `range` is not within the buffer.
    pub fn update_device_range(&mut self, range: std::ops::Range<usize>) {
        self.update_range(true, range, "acc::Mirror::update_device_range");
    }

    fn update(&mut self, to_device: bool, routine: &'static str) {
        self.update_range(to_device, 0..self.data.len(), routine);
    }

    fn update_range(
        &mut self,
        to_device: bool,
        range: std::ops::Range<usize>,
        routine: &'static str,
    ) {
        let site = Site::routine(routine);
        let whole = range.len() == self.data.len();
        // Indexing checks the range (and panics, as slicing does, when it is out of bounds).
        let part = &mut self.data[range];
        if part.is_empty() && !whole {
            return; // Nothing to copy (and its address may be one past the mapped bytes).
        }
        let host = part.as_mut_ptr() as usize;
        // SAFETY: the part is within the live vector, which is mapped whole and borrowed
        // mutably for the synchronous copy.
        let r = unsafe {
            self.device.update(
                to_device,
                false,
                host,
                size_of_val(part),
                QueueSel::Sync,
                &site,
            )
        };
        if let Err(e) = r {
            fatal(&e)
        }
    }

    /// Copies the device data back and returns the vector, unmapped.
    pub fn into_vec(mut self) -> Vec<T> {
        self.update_self();
        self.unmap();
        self.mapped = false;
        std::mem::take(&mut self.data)
    }

    fn unmap(&mut self) {
        let site = Site::routine("acc::Mirror::drop");
        // SAFETY: the vector is still live; `Delete` copies nothing.
        let r = unsafe {
            self.device.exit(
                Action::Delete,
                Flags::default(),
                self.data.as_ptr() as usize,
                size_of_val(self.data.as_slice()),
                Counter::Dynamic,
                QueueSel::Sync,
                &site,
            )
        };
        if let Err(e) = r {
            fatal(&e)
        }
    }
}

impl<T: DeviceCopy> Drop for Mirror<T> {
    fn drop(&mut self) {
        if self.mapped {
            self.unmap();
        }
    }
}
