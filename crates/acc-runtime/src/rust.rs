//! The safe Rust API of the runtime: what `#[acc::parallel]` expands to and what Rust programs
//! call directly (device selection, the mirrored buffer [`Mirror`]).
//!
//! It is a thin layer over [`crate::runtime`]: data clauses become structured enter/exit actions
//! on the current device's present table, a partitioned loop becomes a launch on the device's
//! executor. Errors end the process through [`crate::error::fatal`], as they do for C.
//!
//! **Why the device views are sound.** On `host_discrete` a kernel works on the device copy of
//! a slice: a `&[T]`/`&mut [T]` built from the device address the present table returned. The
//! device memory is CPU memory owned by the present-table entry, and the entry lives while the
//! guard ([`MapRef`]/[`MapMut`]) holds its structured reference count. The view borrows the
//! guard, and the guard borrows the host slice (mutably for a `&mut` view), so the host-to-device
//! mapping being one-to-one means Rust's borrow of the host slice carries over to its device
//! copy: no other view of the same device memory can exist while a `&mut` view does. Element
//! types are [`DeviceCopy`]: every bit pattern is a valid value, since new device memory is
//! poisoned.

use crate::device::DeviceKind;
use crate::error::{fatal, Site, Text};
use crate::present::Counter;
use crate::prof;
use crate::queue::QueueSel;
use crate::runtime::{self, Action, DeviceState, Flags};
use std::marker::PhantomData;
use std::ops::{Index, IndexMut, Range};
use std::sync::Mutex;

mod owned;
pub use owned::{
    est, est_div, est_rem, est_shl, est_shr, launch_owned, widen, EstimateValue, Extent, Owned,
    Owners, Window, NO_INDEX,
};

/// Element types that may live in device memory: plain numbers, for which every bit pattern is
/// a valid value (new device memory is poisoned) and a byte copy is a copy.
///
/// # Safety
/// Every bit pattern of `size_of::<Self>()` bytes is a valid `Self`, and `Self` has no padding
/// and no pointers.
pub unsafe trait DeviceCopy: Copy + Send + Sync + 'static {}

macro_rules! device_copy {
    ($($t:ty)*) => { $(
        // SAFETY: a primitive number: no padding, every bit pattern valid.
        unsafe impl DeviceCopy for $t {}
    )* };
}
device_copy!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64);
// SAFETY: an array of such values has no padding and every bit pattern is valid.
unsafe impl<T: DeviceCopy, const N: usize> DeviceCopy for [T; N] {}

/// The device types a Rust program can select (`ACC_DEVICE_TYPE` chooses the initial one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceType {
    /// The host, sharing memory with the program.
    Host,
    /// Separate memory on the CPU: every transfer really happens.
    HostDiscrete,
    /// An NVIDIA GPU: kernels run their CUDA form (see [`CudaModule`]).
    Nvidia,
}

/// Makes `ty` (device 0 of it) the calling thread's current device.
pub fn set_device_type(ty: DeviceType) {
    let kind = match ty {
        DeviceType::Host => DeviceKind::Host,
        DeviceType::HostDiscrete => DeviceKind::HostDiscrete,
        DeviceType::Nvidia => DeviceKind::Nvidia,
    };
    let site = Site::routine("acc::set_device_type");
    if let Err(e) = runtime::set_current(kind, 0, &site) {
        fatal(&e)
    }
}

/// The calling thread's current device type.
pub fn device_type() -> DeviceType {
    match current(&Site::routine("acc::device_type")).kind() {
        DeviceKind::HostDiscrete => DeviceType::HostDiscrete,
        DeviceKind::Nvidia => DeviceType::Nvidia,
        _ => DeviceType::Host,
    }
}

/// How many data mappings the current device holds (0 on a shared-memory device), for tests.
pub fn mapped_count() -> usize {
    current(&Site::routine("acc::mapped_count")).mapped_count()
}

/// Whether `data` is present on the current device (always, on a shared-memory device).
pub fn is_present<T>(data: &[T]) -> bool {
    current(&Site::routine("acc::is_present")).is_present(data.as_ptr() as usize, size_of_val(data))
}

/// The device Rust kernels and data clauses use: the calling thread's current device.
fn current(site: &Site<'_>) -> &'static DeviceState {
    runtime::current(site).unwrap_or_else(|e| fatal(&e))
}

/// Whether the device is a GPU, whose memory the host cannot read: there a view of mapped
/// data is the host slice, and kernels run their CUDA form.
fn is_gpu(d: &DeviceState) -> bool {
    d.device.cuda().is_some()
}

/// Where generated code comes from, for error messages and profiling events.
#[derive(Clone, Copy, Debug)]
pub struct Loc {
    pub file: &'static str,
    pub line: u32,
}

/// The profiling events of an `#[acc::parallel]`/`kernels`/`serial`/`data` function's region:
/// made before its data clauses' guards (the construct's start and its data's entry start),
/// told when they are in place ([`Region::entered`]: entry end), and dropped after them (exit
/// end and the construct's end); [`RegionExit`], made after the guards, is dropped before
/// them (exit start). Nothing but one atomic load unless a profiling tool listens.
pub struct Region {
    loc: Loc,
    construct: prof::Construct,
    device: Option<&'static DeviceState>,
}

/// The start of a [`Region`]'s exit, when dropped.
pub struct RegionExit {
    loc: Loc,
    construct: prof::Construct,
    device: Option<&'static DeviceState>,
}

impl Region {
    /// `construct`: `acc_construct_t` of the function's directive; `function`: its name and
    /// its first and last lines.
    pub fn enter(loc: Loc, construct: u8, function: &'static str, lines: (u32, u32)) -> Region {
        let construct = match construct {
            1 => prof::Construct::Kernels,
            3 => prof::Construct::Data,
            16 => prof::Construct::Serial,
            _ => prof::Construct::Parallel,
        };
        let device = prof::active().then(|| current(&loc.site("")));
        if device.is_some() {
            prof::register_rust_site(loc.file, loc.line, construct, function, lines);
        }
        let region = Region {
            loc,
            construct,
            device,
        };
        region.raise(&[
            prof::Event::ComputeConstructStart,
            prof::Event::EnterDataStart,
        ]);
        region
    }

    /// The data clauses' guards are in place.
    pub fn entered(&self) -> RegionExit {
        self.raise(&[prof::Event::EnterDataEnd]);
        RegionExit {
            loc: self.loc,
            construct: self.construct,
            device: self.device,
        }
    }

    fn raise(&self, events: &[prof::Event]) {
        raise_region_events(self.loc, self.construct, self.device, events)
    }
}

/// Raises a Rust region's `events` (the construct's own only for a compute construct), when
/// a tool listened as it started (`device`).
fn raise_region_events(
    loc: Loc,
    construct: prof::Construct,
    device: Option<&'static DeviceState>,
    events: &[prof::Event],
) {
    let Some(d) = device else { return };
    let site = loc.site("");
    let at = d.prof_origin(QueueSel::Sync, &site);
    for &ev in events {
        let own = matches!(
            ev,
            prof::Event::ComputeConstructStart | prof::Event::ComputeConstructEnd
        );
        if !own || construct.is_compute() {
            prof::other(ev, &at, Some(construct));
        }
    }
}

impl Drop for RegionExit {
    fn drop(&mut self) {
        let exit = [prof::Event::ExitDataStart];
        raise_region_events(self.loc, self.construct, self.device, &exit);
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        self.raise(&[prof::Event::ExitDataEnd, prof::Event::ComputeConstructEnd]);
    }
}

impl Loc {
    fn site(self, var: &'static str) -> Site<'static> {
        Site {
            file: Text::Str(self.file),
            line: self.line,
            var: if var.is_empty() {
                Text::None
            } else {
                Text::Str(var)
            },
            routine: "",
        }
    }
}

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
    host: &'a [T],
    dev: usize,
    device: &'static DeviceState,
    clause: DataClause,
    loc: Loc,
    var: &'static str,
}

/// A structured mapping of a mutable slice, held for a construct; exits (copying out if the
/// clause says so) on drop.
pub struct MapMut<'a, T: DeviceCopy> {
    host: &'a mut [T],
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

/// Runs `body` over `0..n` on the current device's executor, split into one contiguous range
/// a chunk, or with `balanced` (iterations that differ in work: a triangular nest) into
/// [`blocks`] dealt out over the chunks; returns each range's result in range order.
/// `num_gangs` caps the number of chunks (the device's concurrency when `None`).
pub fn launch<R: Send>(
    loc: Loc,
    n: i64,
    num_gangs: Option<u32>,
    balanced: bool,
    body: &(dyn Fn(Range<i64>) -> R + Sync),
) -> Vec<R> {
    let Some((device, chunks)) = chunks_of(loc, n, num_gangs) else {
        return Vec::new();
    };
    let (ranges, runs) = blocks(n, chunks, balanced);
    let parts: Vec<Mutex<Option<R>>> = ranges.iter().map(|_| Mutex::new(None)).collect();
    let run = |c: usize| {
        for &b in &runs[c] {
            let r = body(ranges[b].clone());
            *parts[b].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
        }
    };
    run_chunks(device, loc, chunks, &run);
    parts
        .into_iter()
        .filter_map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}

/// Runs chunks `0..chunks` of a host launch on `device`, between its launch events.
fn run_chunks(device: &'static DeviceState, loc: Loc, chunks: usize, run: &(dyn Fn(usize) + Sync)) {
    let events = prof::active().then(|| {
        let name = format!("loop at {}:{}", loc.file, loc.line);
        (
            loc.site(""),
            std::ffi::CString::new(name).unwrap_or_default(),
        )
    });
    let launch_event = |ev| {
        if let Some((site, name)) = &events {
            let launch = prof::Launch {
                construct: None,
                kernel_name: Some(name.as_c_str()),
                num_gangs: chunks,
                num_workers: 1,
                vector_length: 1,
            };
            prof::launch(ev, &device.prof_origin(QueueSel::Sync, site), &launch);
        }
    };
    launch_event(prof::Event::EnqueueLaunchStart);
    device.device.launch(chunks, run);
    launch_event(prof::Event::EnqueueLaunchEnd);
}

/// The device and the chunk count of a host launch of `n` iterations (`None`: nothing to run).
/// `num_gangs` caps the number of chunks (the device's concurrency when `None`).
fn chunks_of(loc: Loc, n: i64, num_gangs: Option<u32>) -> Option<(&'static DeviceState, usize)> {
    let device = current(&loc.site(""));
    if is_gpu(device) {
        // Generated code checks the function's CUDA form on entry (`cuda_form`) and launches
        // `launch_cuda` on a GPU; a host launch there would read host copies.
        fatal(&crate::error::Error::new(
            crate::error::ErrorKind::Internal,
            &loc.site(""),
            format!("a host kernel launched on device {}", device.label),
        ))
    }
    if n <= 0 {
        return None;
    }
    let want = match num_gangs {
        Some(g) if g > 0 => g as usize,
        _ => device.device.concurrency(),
    };
    Some((device, (n as u64).min(want.max(1) as u64) as usize))
}

/// The ranges of a host launch of `n` iterations on `chunks` chunks, and the ranges each chunk
/// runs, in order: one contiguous range a chunk; with `balanced`, 16 blocks a chunk dealt out
/// in a zigzag (rounds alternately forwards and backwards over the chunks, as the C path's
/// `__ACC_BLOCK`), so every chunk gets early and late iterations alike.
pub(crate) fn blocks(n: i64, chunks: usize, balanced: bool) -> (Vec<Range<i64>>, Vec<Vec<usize>>) {
    let count = if balanced {
        (n as u64).min(chunks as u64 * 16) as usize
    } else {
        chunks
    };
    let ranges = (0..count)
        .map(|b| split(n, count, b)..split(n, count, b + 1))
        .collect();
    let mut runs = vec![Vec::new(); chunks];
    for b in 0..count {
        let (round, at) = (b / chunks, b % chunks);
        let chunk = if round % 2 == 1 { chunks - 1 - at } else { at };
        runs[chunk].push(b);
    }
    (ranges, runs)
}

/// The first iteration of chunk `c` of `chunks` over `0..n` (the C path's partition).
fn split(n: i64, chunks: usize, c: usize) -> i64 {
    ((n as i128 * c as i128) / chunks.max(1) as i128) as i64
}

/// A mutable slice shared by the chunks of a kernel, unchecked: each chunk indexes its own
/// elements because the caller of an `unsafe fn` promised so.
///
/// This is how a loop body of an `unsafe fn` writes `y[i]` from every chunk at once, as the C
/// kernel does, trusting the loop directive's promise that iterations touch different
/// elements. (Safe functions get checked [`Window`]s instead.) Every access is bounds-checked.
pub struct SliceMut<'a, T> {
    ptr: *mut T,
    len: usize,
    _borrow: PhantomData<&'a mut [T]>,
}

impl<T> Clone for SliceMut<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for SliceMut<'_, T> {}

// SAFETY: the chunks of one launch share the slice; the loop directive's independence promise
// keeps their element accesses disjoint (see the type's documentation).
unsafe impl<T: Send> Send for SliceMut<'_, T> {}
// SAFETY: as for `Send`.
unsafe impl<T: Send> Sync for SliceMut<'_, T> {}

impl<'a, T> SliceMut<'a, T> {
    /// # Safety
    /// While copies of the result live, no two threads access one element through them unless
    /// both only read it.
    pub unsafe fn new(s: &'a mut [T]) -> Self {
        SliceMut {
            ptr: s.as_mut_ptr(),
            len: s.len(),
            _borrow: PhantomData,
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn check(&self, i: usize) {
        if i >= self.len {
            out_of_bounds(self.len, i)
        }
    }
}

#[cold]
#[inline(never)]
fn out_of_bounds(len: usize, i: usize) -> ! {
    panic!("index out of bounds: the len is {len} but the index is {i}");
}

impl<T> Index<usize> for SliceMut<'_, T> {
    type Output = T;
    #[inline]
    fn index(&self, i: usize) -> &T {
        self.check(i);
        // SAFETY: `i` is in bounds of the borrowed slice; see the type's documentation.
        unsafe { &*self.ptr.add(i) }
    }
}

impl<T> IndexMut<usize> for SliceMut<'_, T> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        self.check(i);
        // SAFETY: `i` is in bounds of the borrowed slice; see the type's documentation.
        unsafe { &mut *self.ptr.add(i) }
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

    fn update(&mut self, to_device: bool, routine: &'static str) {
        let site = Site::routine(routine);
        let host = self.data.as_mut_ptr() as usize;
        // SAFETY: the vector is live and borrowed mutably for the synchronous copy.
        let r = unsafe {
            self.device.update(
                to_device,
                false,
                host,
                size_of_val(self.data.as_slice()),
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

/// What a scalar parameter of a compute function must be: it is firstprivate, so every chunk
/// reads (or copies) it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a firstprivate scalar of a compute function",
    label = "parameters of a compute function are slices (`&[T]`, `&mut [T]`) or `Copy` scalars"
)]
pub trait Firstprivate: Copy + Send + Sync {}
impl<T: Copy + Send + Sync> Firstprivate for T {}

/// Checks at compile time that a parameter can be firstprivate.
#[inline]
pub fn firstprivate<T: Firstprivate>(_var: &T) {}

/// Integer types a partitioned loop may count with; iterations are numbered with `i64`, as in
/// the C path.
pub trait LoopIndex: Copy {
    fn to_i64(self) -> i64;
    fn from_i64(v: i64) -> Self;
}

macro_rules! loop_index {
    ($($t:ty)*) => { $(
        impl LoopIndex for $t {
            #[inline]
            fn to_i64(self) -> i64 {
                self as i64
            }
            #[inline]
            fn from_i64(v: i64) -> Self {
                v as $t
            }
        }
    )* };
}
loop_index!(i8 i16 i32 i64 isize u8 u16 u32 u64 usize);

/// The first index and the trip count of `lo..hi`.
#[inline]
pub fn bounds<T: LoopIndex>(r: Range<T>) -> (T, i64) {
    (r.start, (r.end.to_i64() - r.start.to_i64()).max(0))
}

/// The first index and the trip count of `lo..=hi`.
#[inline]
pub fn bounds_inclusive<T: LoopIndex>(r: std::ops::RangeInclusive<T>) -> (T, i64) {
    let (lo, hi) = r.into_inner();
    (lo, (hi.to_i64() - lo.to_i64() + 1).max(0))
}

/// The index of iteration `k` of a loop starting at `lo`.
#[inline]
pub fn nth<T: LoopIndex>(lo: T, k: i64) -> T {
    T::from_i64(lo.to_i64() + k)
}

/// Reduction operators, as marker types for [`Reduce`].
pub mod op {
    pub struct Add;
    pub struct Mul;
    pub struct Max;
    pub struct Min;
    pub struct BitAnd;
    pub struct BitOr;
    pub struct BitXor;
    pub struct LogAnd;
    pub struct LogOr;
}

/// A scalar type that can be the variable of a reduction with operator `Op`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a reduction variable for this operator",
    label = "reduction variables are integer or float scalars (`bool` or integers for `&&` and `||`; integers for `&`, `|`, `^`)"
)]
pub trait Reduce<Op>: Copy + Send {
    fn identity() -> Self;
    fn combine(a: Self, b: Self) -> Self;
}

/// The operator's identity, typed like `var`.
#[inline]
pub fn identity<Op, T: Reduce<Op>>(_var: &T) -> T {
    T::identity()
}

#[inline]
pub fn combine<Op, T: Reduce<Op>>(a: T, b: T) -> T {
    T::combine(a, b)
}

macro_rules! reduce_num {
    ($($t:ty)*) => { $(
        impl Reduce<op::Add> for $t {
            #[inline]
            fn identity() -> Self { 0 as $t }
            #[inline]
            fn combine(a: Self, b: Self) -> Self { a + b }
        }
        impl Reduce<op::Mul> for $t {
            #[inline]
            fn identity() -> Self { 1 as $t }
            #[inline]
            fn combine(a: Self, b: Self) -> Self { a * b }
        }
    )* };
}
reduce_num!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64);

macro_rules! reduce_int {
    ($($t:ty)*) => { $(
        impl Reduce<op::Max> for $t {
            #[inline]
            fn identity() -> Self { <$t>::MIN }
            #[inline]
            fn combine(a: Self, b: Self) -> Self { a.max(b) }
        }
        impl Reduce<op::Min> for $t {
            #[inline]
            fn identity() -> Self { <$t>::MAX }
            #[inline]
            fn combine(a: Self, b: Self) -> Self { a.min(b) }
        }
        impl Reduce<op::BitAnd> for $t {
            #[inline]
            fn identity() -> Self { !0 }
            #[inline]
            fn combine(a: Self, b: Self) -> Self { a & b }
        }
        impl Reduce<op::BitOr> for $t {
            #[inline]
            fn identity() -> Self { 0 }
            #[inline]
            fn combine(a: Self, b: Self) -> Self { a | b }
        }
        impl Reduce<op::BitXor> for $t {
            #[inline]
            fn identity() -> Self { 0 }
            #[inline]
            fn combine(a: Self, b: Self) -> Self { a ^ b }
        }
        impl Reduce<op::LogAnd> for $t {
            #[inline]
            fn identity() -> Self { 1 }
            #[inline]
            fn combine(a: Self, b: Self) -> Self { (a != 0 && b != 0) as $t }
        }
        impl Reduce<op::LogOr> for $t {
            #[inline]
            fn identity() -> Self { 0 }
            #[inline]
            fn combine(a: Self, b: Self) -> Self { (a != 0 || b != 0) as $t }
        }
    )* };
}
reduce_int!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize);

macro_rules! reduce_float {
    ($($t:ty)*) => { $(
        impl Reduce<op::Max> for $t {
            #[inline]
            fn identity() -> Self { <$t>::NEG_INFINITY }
            #[inline]
            fn combine(a: Self, b: Self) -> Self { a.max(b) }
        }
        impl Reduce<op::Min> for $t {
            #[inline]
            fn identity() -> Self { <$t>::INFINITY }
            #[inline]
            fn combine(a: Self, b: Self) -> Self { a.min(b) }
        }
    )* };
}
reduce_float!(f32 f64);

impl Reduce<op::LogAnd> for bool {
    #[inline]
    fn identity() -> Self {
        true
    }
    #[inline]
    fn combine(a: Self, b: Self) -> Self {
        a && b
    }
}

impl Reduce<op::LogOr> for bool {
    #[inline]
    fn identity() -> Self {
        false
    }
    #[inline]
    fn combine(a: Self, b: Self) -> Self {
        a || b
    }
}

/// A data clause on one slice, for [`data`]: built by [`copy`], [`copyin`], [`copyout`],
/// [`create`], [`present`] and [`no_create`].
pub struct Clause<S> {
    slice: S,
    kind: DataClause,
}

/// A slice a data clause can name: `&[T]` or `&mut [T]` (or a borrowed `Vec<T>`).
pub trait SliceRef {}
impl<T: DeviceCopy> SliceRef for &[T] {}
impl<T: DeviceCopy> SliceRef for &mut [T] {}
impl<T: DeviceCopy> SliceRef for &Vec<T> {}
impl<T: DeviceCopy> SliceRef for &mut Vec<T> {}

/// `copy`: copied in on entry and back out on exit.
pub fn copy<T: DeviceCopy>(s: &mut [T]) -> Clause<&mut [T]> {
    Clause {
        slice: s,
        kind: DataClause::Copy,
    }
}

/// `copyout`: allocated on entry, copied out on exit.
pub fn copyout<T: DeviceCopy>(s: &mut [T]) -> Clause<&mut [T]> {
    Clause {
        slice: s,
        kind: DataClause::CopyOut,
    }
}

/// `copyin`: copied in on entry.
pub fn copyin<S: SliceRef>(s: S) -> Clause<S> {
    Clause {
        slice: s,
        kind: DataClause::CopyIn,
    }
}

/// `create`: allocated (uninitialized, poisoned on `host_discrete`) on entry.
pub fn create<S: SliceRef>(s: S) -> Clause<S> {
    Clause {
        slice: s,
        kind: DataClause::Create,
    }
}

/// `present`: must already be present.
pub fn present<S: SliceRef>(s: S) -> Clause<S> {
    Clause {
        slice: s,
        kind: DataClause::Present,
    }
}

/// `no_create`: the device copy if present, the host data otherwise.
pub fn no_create<S: SliceRef>(s: S) -> Clause<S> {
    Clause {
        slice: s,
        kind: DataClause::NoCreate,
    }
}

/// Clauses [`data`] can enter: one [`Clause`] or a tuple of up to six.
pub trait Clauses {
    /// The mappings held while the region runs.
    type Guards: for<'b> Views<'b>;
    fn enter(self, loc: Loc) -> Self::Guards;
}

/// The host slices of held mappings, handed to the region's body.
pub trait Views<'b> {
    type Host;
    fn views(&'b mut self) -> Self::Host;
}

impl<'a, T: DeviceCopy> Clauses for Clause<&'a [T]> {
    type Guards = MapRef<'a, T>;
    fn enter(self, loc: Loc) -> MapRef<'a, T> {
        MapRef::new(self.slice, self.kind, "", loc)
    }
}

impl<'a, T: DeviceCopy> Clauses for Clause<&'a mut [T]> {
    type Guards = MapMut<'a, T>;
    fn enter(self, loc: Loc) -> MapMut<'a, T> {
        MapMut::new(self.slice, self.kind, "", loc)
    }
}

impl<'a, T: DeviceCopy> Clauses for Clause<&'a Vec<T>> {
    type Guards = MapRef<'a, T>;
    fn enter(self, loc: Loc) -> MapRef<'a, T> {
        MapRef::new(self.slice, self.kind, "", loc)
    }
}

impl<'a, T: DeviceCopy> Clauses for Clause<&'a mut Vec<T>> {
    type Guards = MapMut<'a, T>;
    fn enter(self, loc: Loc) -> MapMut<'a, T> {
        MapMut::new(self.slice, self.kind, "", loc)
    }
}

impl<'b, T: DeviceCopy> Views<'b> for MapRef<'_, T> {
    type Host = &'b [T];
    fn views(&'b mut self) -> &'b [T] {
        self.host
    }
}

impl<'b, T: DeviceCopy> Views<'b> for MapMut<'_, T> {
    type Host = &'b mut [T];
    fn views(&'b mut self) -> &'b mut [T] {
        self.host
    }
}

macro_rules! tuple_clauses {
    ($($c:ident $i:tt),*) => {
        impl<$($c: Clauses),*> Clauses for ($($c,)*) {
            type Guards = ($($c::Guards,)*);
            fn enter(self, loc: Loc) -> Self::Guards {
                ($(self.$i.enter(loc),)*)
            }
        }
        impl<'b, $($c: Views<'b>),*> Views<'b> for ($($c,)*) {
            type Host = ($($c::Host,)*);
            fn views(&'b mut self) -> Self::Host {
                ($(self.$i.views(),)*)
            }
        }
    };
}
tuple_clauses!(A 0);
tuple_clauses!(A 0, B 1);
tuple_clauses!(A 0, B 1, C 2);
tuple_clauses!(A 0, B 1, C 2, D 3);
tuple_clauses!(A 0, B 1, C 2, D 3, E 4);
tuple_clauses!(A 0, B 1, C 2, D 3, E 4, F 5);

/// A structured data region (`#pragma acc data`): enters `clauses` on the current device, runs
/// `body` with the host slices back, and exits them (copying out what the clauses say) when
/// `body` returns. Kernels called inside find the data present.
///
/// ```
/// use acc_runtime::rust::{copy, copyin, data};
/// let x = vec![1.0f32; 8];
/// let mut y = vec![0.0f32; 8];
/// data((copyin(&x), copy(&mut y)), |(x, y)| {
///     // call #[acc::parallel] functions with `x` and `y` here
///     assert_eq!(x.len(), y.len());
/// });
/// ```
#[track_caller]
pub fn data<C: Clauses, R>(
    clauses: C,
    body: impl for<'b> FnOnce(<C::Guards as Views<'b>>::Host) -> R,
) -> R {
    let at = std::panic::Location::caller();
    let loc = Loc {
        file: at.file(),
        line: at.line(),
    };
    let mut guards = clauses.enter(loc);
    body(guards.views())
}

// ---- the CUDA form of Rust kernels ---------------------------------------------------------------

mod routines;
pub use routines::{not_a_routine, Assembled, CudaRoutine, NotARoutine, RoutineCall};

/// The CUDA form of one `#[acc::parallel]`/`kernels`/`serial` function, which the macro emits
/// next to it as a hidden static `__ACC_CUDA_<NAME>`: one CUDA module with a kernel per
/// partitioned loop, following `acc_rt.h`'s launch convention, or why the function has none.
#[derive(Debug)]
pub struct CudaModule {
    /// The Rust function.
    pub function: &'static str,
    /// The CUDA C module without the routines its kernels call (empty when `missing` is not).
    pub source: &'static str,
    /// The kernels' entry names, one per partitioned loop, in source order.
    pub entries: &'static [&'static str],
    /// Why there is no CUDA form: where (file, line) and the reason, per construct.
    pub missing: &'static [(&'static str, u32, &'static str)],
    /// The kernels' calls of `#[acc::routine]` functions, one per call.
    pub calls: &'static [RoutineCall],
    /// Where in `source` the kernels start: the routines go before them.
    pub kernels_at: usize,
    /// The source with the routines, or why there is none: computed on first use.
    pub assembled: Assembled,
}

impl CudaModule {
    /// Whether every launch of the function has a CUDA form, routines included.
    pub fn complete(&'static self) -> bool {
        routines::assemble(self).is_ok()
    }

    /// The reasons, one per line, as errors print them.
    pub fn reasons(&'static self) -> String {
        self.problems()
            .iter()
            .map(|(file, line, why)| format!("{file}:{line}: {why}"))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The CUDA C module the runtime compiles: `source` with the routines the kernels call
    /// (`None` without a CUDA form).
    pub fn cuda_source(&'static self) -> Option<&'static str> {
        routines::assemble(self).as_deref().ok()
    }

    fn problems(&'static self) -> &'static [routines::Problem] {
        match routines::assemble(self) {
            Ok(_) => &[],
            Err(p) => p,
        }
    }
}

/// Called on entry to a compute function: on a GPU, a function without a CUDA form is an error
/// (naming the function, where and why), never a silent run on the host with stale data.
pub fn cuda_form(m: &'static CudaModule) {
    if m.complete() {
        return;
    }
    let site = Site::routine("acc");
    let d = current(&site);
    if !is_gpu(d) {
        return;
    }
    let (file, line, _) = m.problems()[0];
    let at = Site {
        file: Text::Str(file),
        line,
        var: Text::None,
        routine: "",
    };
    fatal(&crate::error::Error::new(
        crate::error::ErrorKind::NoDevice,
        &at,
        format!(
            "the Rust function `{}` has no CUDA form, so it cannot run on device {}: {}",
            m.function,
            d.label,
            m.reasons()
        ),
    ))
}

/// The current device when it is a GPU: partitioned loops then launch their CUDA form.
#[derive(Clone, Copy)]
pub struct Gpu(&'static DeviceState);

/// The current device, if it is a GPU.
#[inline]
pub fn gpu() -> Option<Gpu> {
    let d = current(&Site::routine("acc"));
    is_gpu(d).then_some(Gpu(d))
}

/// Scalar types a CUDA kernel receives by value or reduces, with the names the CUDA
/// translation checks its inferred types against.
pub trait KernelValue: Copy + 'static {
    const NAME: &'static str;
    const TYPE: crate::reduce::Type;
}

macro_rules! kernel_value {
    ($($t:ty => $ty:ident),*) => { $(
        impl KernelValue for $t {
            const NAME: &'static str = stringify!($t);
            const TYPE: crate::reduce::Type = crate::reduce::Type::$ty;
        }
    )* };
}
kernel_value!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, isize => I64, u8 => U8, u16 => U16,
    u32 => U32, u64 => U64, usize => U64, f32 => F32, f64 => F64, bool => Bool);

/// One argument of a CUDA launch (see `acc_rt.h`).
pub enum KArg<'a> {
    /// A slice: its device copy's address (it must be present).
    Slice {
        host: usize,
        bytes: usize,
        _borrow: PhantomData<&'a [u8]>,
    },
    /// A value's bytes.
    Value { bytes: [u8; 8], len: usize },
    /// The translation assumed another type than the value has.
    Mismatch {
        want: &'static str,
        got: &'static str,
    },
}

impl<'a> KArg<'a> {
    pub fn slice<T: DeviceCopy>(s: &'a [T]) -> Self {
        KArg::Slice {
            host: s.as_ptr() as usize,
            bytes: size_of_val(s),
            _borrow: PhantomData,
        }
    }

    /// `v` by value; `want` is the Rust type the translation assumed.
    pub fn value<T: KernelValue>(v: &T, want: &'static str) -> Self {
        if T::NAME != want {
            return KArg::Mismatch { want, got: T::NAME };
        }
        Self::signature(v)
    }

    /// `v` by value, where the kernel takes the type from a routine's signature: rustc checked
    /// that `v` has it.
    pub fn signature<T: KernelValue>(v: &T) -> Self {
        let mut bytes = [0u8; 8];
        let len = size_of::<T>();
        // SAFETY: `T` is a primitive number or `bool` of at most 8 bytes, copied as bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(v as *const T as *const u8, bytes.as_mut_ptr(), len)
        };
        KArg::Value { bytes, len }
    }
}

/// One reduction of a CUDA launch: the variable (holding its original value; the result is
/// combined into it), the operator and the type.
pub struct KRed<'a> {
    var: usize,
    op: crate::reduce::Op,
    ty: crate::reduce::Type,
    mismatch: Option<(&'static str, &'static str)>,
    _borrow: PhantomData<&'a mut u8>,
}

/// The runtime's code for a reduction operator marker.
pub trait OpCode {
    const OP: crate::reduce::Op;
}
macro_rules! op_code {
    ($($m:ident => $o:ident),*) => { $( impl OpCode for op::$m { const OP: crate::reduce::Op = crate::reduce::Op::$o; } )* };
}
op_code!(Add => Add, Mul => Mul, Max => Max, Min => Min, BitAnd => BitAnd, BitOr => BitOr,
    BitXor => BitXor, LogAnd => And, LogOr => Or);

impl<'a> KRed<'a> {
    pub fn new<Op: OpCode, T: KernelValue>(var: &'a mut T, want: &'static str) -> Self {
        KRed {
            var: var as *mut T as usize,
            op: Op::OP,
            ty: T::TYPE,
            mismatch: (T::NAME != want).then_some((want, T::NAME)),
            _borrow: PhantomData,
        }
    }

    /// A reduction whose type the kernel takes from a routine's signature: rustc checked that
    /// `var` has it.
    pub fn signature<Op: OpCode, T: KernelValue>(var: &'a mut T) -> Self {
        Self::new::<Op, T>(var, T::NAME)
    }
}

/// Launches kernel `entry` of `module` on the GPU over `n` iterations and waits for it; the
/// reductions' results are combined into their variables.
#[allow(clippy::too_many_arguments)]
pub fn launch_cuda(
    gpu: Gpu,
    module: &'static CudaModule,
    entry: &'static str,
    loc: Loc,
    n: i64,
    num_gangs: Option<u32>,
    args: &[KArg<'_>],
    reds: &mut [KRed<'_>],
) {
    let site = loc.site("");
    let mismatch = args
        .iter()
        .filter_map(|a| match a {
            KArg::Mismatch { want, got } => Some((*want, *got)),
            _ => None,
        })
        .chain(reds.iter().filter_map(|r| r.mismatch))
        .next();
    if let Some((want, got)) = mismatch {
        fatal(&crate::error::Error::new(
            crate::error::ErrorKind::NoDevice,
            &site,
            format!(
                "the CUDA form of the Rust function `{}` assumed a value of type `{want}`, but \
                 it is `{got}`; annotate the variable's type (`let v: {got} = ...`) so the \
                 translation agrees",
                module.function
            ),
        ))
    }
    let rt_args: Vec<runtime::Arg<'_>> = args
        .iter()
        .map(|a| match a {
            KArg::Slice { host, bytes, .. } if *bytes > 0 => runtime::Arg::Mapped {
                host: *host,
                bytes: *bytes,
                site,
            },
            KArg::Slice { .. } => runtime::Arg::DevicePtr(0),
            KArg::Value { bytes, len } => runtime::Arg::Value {
                ptr: bytes.as_ptr() as usize,
                bytes: *len,
            },
            KArg::Mismatch { .. } => unreachable!("reported above"),
        })
        .collect();
    let rt_reds: Vec<runtime::Reduction<'_>> = reds
        .iter()
        .map(|r| runtime::Reduction {
            op: r.op,
            ty: r.ty,
            var: r.var,
            count: 1,
            custom: None,
            // acc-macros' CUDA kernels set every scalar reduction's slots themselves.
            kernel_sets_slots: true,
            site,
        })
        .collect();
    // Generated code checked `cuda_form` on entry. The source lives as long as the program, so
    // its address identifies it in the loaded-kernel cache.
    let Some(source) = module.cuda_source() else {
        fatal(&crate::error::Error::new(
            crate::error::ErrorKind::NoDevice,
            &site,
            format!(
                "the Rust function `{}` has no CUDA form: {}",
                module.function,
                module.reasons()
            ),
        ))
    };
    let k = runtime::CudaKernel {
        name: entry,
        file: loc.file,
        line: loc.line,
        source: crate::error::Text::Str(source),
        entry,
        key: (source.as_ptr() as usize, entry.as_ptr() as usize),
        lanes: crate::device::cuda::Lanes::None,
    };
    let geom = runtime::Geometry {
        iterations: n.max(0),
        num_gangs: num_gangs.map_or(0, |g| g.min(i32::MAX as u32) as i32),
        num_workers: 0,
        vector_length: 0,
    };
    // SAFETY: the module was generated by acc-macros for this launch: the kernel's parameters
    // are `args` in order (slices as device addresses of present data, values of the types
    // checked above) and its reductions `reds`, whose variables are live and borrowed
    // mutably for this synchronous launch.
    let r = unsafe {
        gpu.0
            .launch_cuda(&k, geom, &rt_args, &rt_reds, QueueSel::Sync, &site)
    };
    if let Err(e) = r {
        fatal(&e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every iteration in exactly one range, every range run by exactly one chunk.
    fn check_cover(n: i64, chunks: usize, balanced: bool) -> (Vec<Range<i64>>, Vec<Vec<usize>>) {
        let (ranges, runs) = blocks(n, chunks, balanced);
        let mut seen = vec![0; n as usize];
        for r in &ranges {
            for i in r.clone() {
                seen[i as usize] += 1;
            }
        }
        assert!(seen.iter().all(|&s| s == 1), "{n} over {chunks}");
        let mut run: Vec<usize> = runs.iter().flatten().copied().collect();
        run.sort();
        assert_eq!(run, (0..ranges.len()).collect::<Vec<_>>());
        (ranges, runs)
    }

    #[test]
    fn blocks_cover_the_iterations_once() {
        for n in [0, 1, 5, 31, 32, 33, 1000] {
            for chunks in [1, 2, 3, 7] {
                check_cover(n, chunks, false);
                check_cover(n, chunks, true);
            }
        }
    }

    #[test]
    fn balanced_blocks_even_out_a_triangle() {
        // Row i costs i + 1: contiguous chunks give the last chunk most of the work.
        let (n, chunks) = (1536, 4);
        let work = |ranges: &[Range<i64>], run: &[usize]| -> i64 {
            run.iter()
                .flat_map(|&b| ranges[b].clone())
                .map(|i| i + 1)
                .sum()
        };
        let (ranges, runs) = check_cover(n, chunks, false);
        let plain: Vec<i64> = runs.iter().map(|r| work(&ranges, r)).collect();
        let (ranges, runs) = check_cover(n, chunks, true);
        let balanced: Vec<i64> = runs.iter().map(|r| work(&ranges, r)).collect();
        let spread = |w: &[i64]| *w.iter().max().unwrap() as f64 / *w.iter().min().unwrap() as f64;
        assert!(spread(&plain) > 5.0, "{plain:?}");
        assert!(spread(&balanced) < 1.01, "{balanced:?}");
    }
}
