//! Host launches of partitioned loops: the iterations split into chunks (balanced blocks for
//! triangular loops) run on the current device's executor, the shared mutable slice
//! [`SliceMut`] a chunk writes through, firstprivate checks and loop indices.
//!
//! Invariants: every iteration runs in exactly one chunk (`blocks` covers `0..n` once, each
//! block run by one chunk); a launch raises the enqueue-launch events around its chunks and
//! never touches the present table: a kernel's slices are the views the guards made.

use super::{current, is_gpu, Loc};
use crate::error::fatal;
use crate::prof;
use crate::queue::QueueSel;
use crate::runtime::DeviceState;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut, Range};
use std::sync::Mutex;

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
pub(super) fn run_chunks(
    device: &'static DeviceState,
    loc: Loc,
    chunks: usize,
    run: &(dyn Fn(usize) + Sync),
) {
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
pub(super) fn chunks_of(
    loc: Loc,
    n: i64,
    num_gangs: Option<u32>,
) -> Option<(&'static DeviceState, usize)> {
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
/// elements. (Safe functions get checked [`Window`](super::Window)s instead.) Every access is
/// bounds-checked.
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
