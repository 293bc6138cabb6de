//! Sound partitioned loops over written slices: each chunk of a launch owns a window of every
//! slice the loop writes, the windows are checked disjoint before any chunk runs, and every
//! access through a chunk's [`Window`] is checked against it.
//!
//! A loop directive promises, as in OpenACC, that iterations touch different elements. C takes
//! the promise on trust; safe Rust may not, since two chunks writing one element would be a
//! data race. The macro cannot prove the promise in general, but it can say, for each chunk,
//! which elements the chunk's iterations index: it evaluates every index expression of a
//! written slice at the chunk's first and last iterations (inner loops at their first and last
//! values) and takes the hull. That estimate is only a hint. What makes the scheme sound is
//! here, in code the macro does not write: [`launch_owned`] clips the hints to the slices,
//! refuses to run when two chunks' windows of one slice overlap, and hands each chunk
//! [`Window`]s that panic on any index outside the chunk's own window. A wrong hint costs a
//! panic with a clear message, never a race.

use super::{blocks, chunks_of, run_chunks, Loc};
use std::marker::PhantomData;
use std::ops::{Index, IndexMut, Range};
use std::sync::Mutex;

/// A slice a partitioned loop writes, handed whole to [`launch_owned`], which cuts it into the
/// chunks' windows.
pub struct Owned<'a, T> {
    ptr: *mut T,
    len: usize,
    name: &'static str,
    _borrow: PhantomData<&'a mut [T]>,
}

// SAFETY: an `Owned` is the exclusive borrow of a slice of `T: Send`; the chunks that share it
// reach its elements only through disjoint windows (see `launch_owned`).
unsafe impl<T: Send> Send for Owned<'_, T> {}
// SAFETY: as for `Send`: shared access only ever yields disjoint windows.
unsafe impl<T: Send> Sync for Owned<'_, T> {}

impl<'a, T> Owned<'a, T> {
    /// Takes the slice `name` for the length of one launch.
    pub fn new(s: &'a mut [T], name: &'static str) -> Self {
        Owned {
            ptr: s.as_mut_ptr(),
            len: s.len(),
            name,
            _borrow: PhantomData,
        }
    }
}

/// The elements `lo .. lo + len` of a written slice that one chunk owns: indexing takes the
/// slice's own indices, and any index outside the window panics.
pub struct Window<'c, T> {
    /// The slice's element 0.
    base: *mut T,
    lo: usize,
    /// The window's length.
    owned: usize,
    /// The slice's length.
    full: usize,
    name: &'static str,
    loc: Loc,
    _borrow: PhantomData<&'c mut [T]>,
}

// SAFETY: a window is the exclusive borrow of its elements (no other window of the launch
// overlaps it), like a `&mut [T]`.
unsafe impl<T: Send> Send for Window<'_, T> {}
// SAFETY: as for `&mut [T]`: shared access gives shared references only.
unsafe impl<T: Sync> Sync for Window<'_, T> {}

impl<T> Window<'_, T> {
    /// The length of the whole slice, as the loop body wrote `y.len()`.
    #[inline]
    pub fn len(&self) -> usize {
        self.full
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.full == 0
    }

    #[inline]
    fn offset(&self, i: usize) -> usize {
        let k = i.wrapping_sub(self.lo);
        if k >= self.owned {
            // The fields go by value: a reference would let the window's address escape, and
            // the optimizer would then reload them after every store through the window.
            outside(i, self.lo, self.owned, self.full, self.name, self.loc)
        }
        k
    }
}

#[cold]
#[inline(never)]
fn outside(i: usize, lo: usize, len: usize, full: usize, name: &str, loc: Loc) -> ! {
    if i >= full {
        panic!("index out of bounds: the len is {full} but the index is {i}");
    }
    let owns = if len == 0 {
        "no element of it".to_string()
    } else {
        format!("{lo}..{}", lo + len)
    };
    panic!(
        "`{name}[{i}]` is outside the part of `{name}` that this chunk of the partitioned loop \
         at {}:{} owns ({owns}, the elements its first and last iterations index): iterations \
         of a partitioned loop may only touch elements of a slice it writes that no other \
         chunk writes; if the iterations do write different elements in a way this estimate \
         cannot see, make the function `unsafe fn` and state that promise to its callers",
        loc.file, loc.line,
    )
}

impl<T> Index<usize> for Window<'_, T> {
    type Output = T;
    #[inline]
    fn index(&self, i: usize) -> &T {
        let k = self.offset(i);
        // SAFETY: `lo + k` is inside this window, which lies inside the borrowed slice and which
        // no other window of the launch overlaps.
        unsafe { &*self.base.add(self.lo + k) }
    }
}

impl<T> IndexMut<usize> for Window<'_, T> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        let k = self.offset(i);
        // SAFETY: as for `index`; `&mut self` makes the reference unique within the chunk.
        unsafe { &mut *self.base.add(self.lo + k) }
    }
}

/// The written slices of one launch: an [`Owned`] or a tuple of them.
pub trait Owners: Sync {
    /// How many slices.
    const COUNT: usize;
    /// One [`Window`] per slice, in order. A window keeps the slice's borrow: windows are
    /// disjoint, so they may outlive the launch as `split_at_mut`'s halves may.
    type Windows: Send;
    /// The length and name of slice `k`.
    fn slice(&self, k: usize) -> (usize, &'static str);
    /// The windows `parts[k] = (lo, len)` of the slices.
    ///
    /// # Safety
    /// The windows are inside their slices, and no window given out at the same time overlaps
    /// another window of the same slice.
    unsafe fn windows(&self, parts: &[(usize, usize)], loc: Loc) -> Self::Windows;
}

impl<'a, T: Send> Owned<'a, T> {
    /// # Safety
    /// As for [`Owners::windows`], for this slice.
    unsafe fn window(&self, (lo, len): (usize, usize), loc: Loc) -> Window<'a, T> {
        Window {
            base: self.ptr,
            lo,
            owned: len,
            full: self.len,
            name: self.name,
            loc,
            _borrow: PhantomData,
        }
    }
}

impl<'a, T: Send> Owners for Owned<'a, T> {
    const COUNT: usize = 1;
    type Windows = Window<'a, T>;
    fn slice(&self, _k: usize) -> (usize, &'static str) {
        (self.len, self.name)
    }
    unsafe fn windows(&self, parts: &[(usize, usize)], loc: Loc) -> Window<'a, T> {
        // SAFETY: the caller's promise.
        unsafe { self.window(parts[0], loc) }
    }
}

macro_rules! tuple_owners {
    ($count:literal; $($t:ident $i:tt),*) => {
        impl<'a, $($t: Send),*> Owners for ($(Owned<'a, $t>,)*) {
            const COUNT: usize = $count;
            type Windows = ($(Window<'a, $t>,)*);
            fn slice(&self, k: usize) -> (usize, &'static str) {
                match k {
                    $($i => (self.$i.len, self.$i.name),)*
                    _ => (0, ""),
                }
            }
            unsafe fn windows(&self, parts: &[(usize, usize)], loc: Loc) -> Self::Windows {
                // SAFETY: the caller's promise, slice by slice.
                unsafe { ($(self.$i.window(parts[$i], loc),)*) }
            }
        }
    };
}
tuple_owners!(1; A 0);
tuple_owners!(2; A 0, B 1);
tuple_owners!(3; A 0, B 1, C 2);
tuple_owners!(4; A 0, B 1, C 2, D 3);
tuple_owners!(5; A 0, B 1, C 2, D 3, E 4);
tuple_owners!(6; A 0, B 1, C 2, D 3, E 4, F 5);
tuple_owners!(7; A 0, B 1, C 2, D 3, E 4, F 5, G 6);
tuple_owners!(8; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);

/// The hull of the indices a chunk's iterations use, per written slice, as the macro estimates
/// it: `(min, max)`, with `min > max` when the chunk indexes none.
pub type Extent<const W: usize> = [(i128, i128); W];

/// No index yet: the start of an [`Extent`].
pub const NO_INDEX: (i128, i128) = (i128::MAX, i128::MIN);

/// Widens `e` to take in the index `v`.
#[inline]
pub fn widen(e: &mut (i128, i128), v: i128) {
    e.0 = e.0.min(v);
    e.1 = e.1.max(v);
}

/// A value an index estimate may use: a number (or `bool`) fixed before the loop.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be part of an index of a written slice",
    label = "an index of a slice a partitioned loop writes is arithmetic on numbers"
)]
pub trait EstimateValue: Copy {
    fn to_i128(self) -> i128;
}

macro_rules! estimate_value {
    ($($t:ty)*) => { $(
        impl EstimateValue for $t {
            #[inline]
            fn to_i128(self) -> i128 {
                self as i128
            }
        }
    )* };
}
estimate_value!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 bool);

/// `v` in an index estimate.
#[inline]
pub fn est<T: EstimateValue>(v: T) -> i128 {
    v.to_i128()
}

/// Quotient for index estimates: never panics (a zero divisor gives 0; the estimate is only a
/// hint, see the module documentation).
#[inline]
pub fn est_div(a: i128, b: i128) -> i128 {
    a.checked_div(b).unwrap_or(0)
}

/// Remainder for index estimates (see [`est_div`]).
#[inline]
pub fn est_rem(a: i128, b: i128) -> i128 {
    a.checked_rem(b).unwrap_or(0)
}

/// Left shift for index estimates (see [`est_div`]).
#[inline]
pub fn est_shl(a: i128, b: i128) -> i128 {
    u32::try_from(b)
        .ok()
        .and_then(|b| a.checked_shl(b))
        .unwrap_or(0)
}

/// Right shift for index estimates (see [`est_div`]).
#[inline]
pub fn est_shr(a: i128, b: i128) -> i128 {
    u32::try_from(b)
        .ok()
        .and_then(|b| a.checked_shr(b))
        .unwrap_or(0)
}

/// Like [`super::launch`], for a loop that writes the slices `owners`: each chunk's iterations
/// `range` get one [`Window`] per slice, the part `extent(range)` estimates it indexes.
/// Panics, before any chunk runs, when two chunks' windows of one slice overlap.
pub fn launch_owned<O: Owners, R: Send, const W: usize>(
    loc: Loc,
    n: i64,
    num_gangs: Option<u32>,
    balanced: bool,
    owners: O,
    extent: &(dyn Fn(Range<i64>) -> Extent<W> + Sync),
    body: &(dyn Fn(Range<i64>, O::Windows) -> R + Sync),
) -> Vec<R> {
    assert_eq!(W, O::COUNT, "acc: an extent per written slice");
    let Some((device, chunks)) = chunks_of(loc, n, num_gangs) else {
        return Vec::new();
    };
    let (ranges, runs) = blocks(n, chunks, balanced);
    let mut parts: Vec<[(usize, usize); W]> = ranges
        .iter()
        .map(|r| {
            let e = extent(r.clone());
            std::array::from_fn(|k| clip(e[k], owners.slice(k).0))
        })
        .collect();
    for k in 0..W {
        let (len, name) = owners.slice(k);
        check_disjoint(loc, name, &ranges, parts.iter().map(|p| p[k]));
        let grown = grow(len, parts.iter().map(|p| p[k]));
        for (p, g) in parts.iter_mut().zip(grown) {
            p[k] = g;
        }
    }
    let results: Vec<Mutex<Option<R>>> = ranges.iter().map(|_| Mutex::new(None)).collect();
    let run = |c: usize| {
        for &b in &runs[c] {
            // SAFETY: every window is inside its slice (`clip`), and the windows of one slice
            // are pairwise disjoint across ranges (`check_disjoint`); each range's windows
            // are made once, here, by the one chunk that runs it, and `owners` holds the
            // slices' exclusive borrows, which the windows keep.
            let windows = unsafe { owners.windows(&parts[b], loc) };
            let r = body(ranges[b].clone(), windows);
            *results[b].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
        }
    };
    run_chunks(device, loc, chunks, &run);
    results
        .into_iter()
        .filter_map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}

/// The estimate `(min, max)` as a window `(lo, len)` inside a slice of `len` elements.
fn clip((min, max): (i128, i128), len: usize) -> (usize, usize) {
    let lo = min.max(0);
    let hi = max.min(len as i128 - 1);
    if lo > hi {
        (0, 0)
    } else {
        (lo as usize, (hi - lo + 1) as usize)
    }
}

/// Disjoint windows grown to fill the gaps between them (and the slice's ends), so an estimate
/// that was too narrow costs a panic only where another chunk's window begins: one chunk owns
/// the whole slice.
fn grow(len: usize, windows: impl Iterator<Item = (usize, usize)>) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = windows.collect();
    let mut order: Vec<usize> = (0..out.len()).filter(|&c| out[c].1 > 0).collect();
    order.sort_unstable_by_key(|&c| out[c].0);
    // Each window reaches up to where the next one starts.
    let starts: Vec<usize> = order.iter().map(|&c| out[c].0).collect();
    for (j, &c) in order.iter().enumerate() {
        let lo = if j == 0 { 0 } else { starts[j] };
        let hi = starts.get(j + 1).copied().unwrap_or(len);
        out[c] = (lo, hi - lo);
    }
    out
}

fn check_disjoint(
    loc: Loc,
    name: &str,
    ranges: &[Range<i64>],
    windows: impl Iterator<Item = (usize, usize)>,
) {
    let mut owned: Vec<(usize, usize, usize)> = windows
        .enumerate()
        .filter(|(_, (_, len))| *len > 0)
        .map(|(c, (lo, len))| (lo, lo + len, c))
        .collect();
    owned.sort_unstable();
    for pair in owned.windows(2) {
        let ((lo_a, hi_a, a), (lo_b, hi_b, b)) = (pair[0], pair[1]);
        if lo_b < hi_a {
            let (a, b) = (a.min(b), a.max(b));
            panic!(
                "the partitioned loop at {}:{} would let two chunks write the same elements of \
                 `{name}`: the chunk of iterations {:?} indexes `{name}` in {lo_a}..{hi_a} and \
                 the chunk of iterations {:?} in {lo_b}..{hi_b} (estimated from the indices of \
                 each chunk's first and last iterations); iterations of a partitioned loop must \
                 write different elements — if they do in a way this estimate cannot see (a \
                 transpose, say), make the function `unsafe fn` and state that promise to its \
                 callers",
                loc.file, loc.line, ranges[a], ranges[b],
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_keeps_windows_inside_the_slice() {
        assert_eq!(clip((2, 5), 10), (2, 4));
        assert_eq!(clip((-3, 2), 10), (0, 3));
        assert_eq!(clip((8, 30), 10), (8, 2));
        assert_eq!(clip(NO_INDEX, 10), (0, 0));
        assert_eq!(clip((12, 20), 10), (0, 0));
        assert_eq!(clip((0, 5), 0), (0, 0));
    }

    #[test]
    fn estimates_never_panic() {
        assert_eq!(est_div(7, 0), 0);
        assert_eq!(est_rem(7, 0), 0);
        assert_eq!(est_div(i128::MIN, -1), 0);
        assert_eq!(est_shl(1, 200), 0);
        assert_eq!(est_shr(1, -1), 0);
        assert_eq!(est_shl(3, 2), 12);
    }

    fn loc() -> Loc {
        Loc {
            file: "k.rs",
            line: 7,
        }
    }

    #[test]
    fn windows_grow_into_the_gaps() {
        assert_eq!(grow(10, [(2, 2)].into_iter()), [(0, 10)]);
        assert_eq!(
            grow(20, [(12, 3), (0, 0), (2, 4)].into_iter()),
            [(12, 8), (0, 0), (0, 12)]
        );
    }

    #[test]
    fn disjoint_windows_pass_and_overlaps_name_both_chunks() {
        let ranges = [0..4, 4..8, 8..12];
        check_disjoint(loc(), "y", &ranges, [(0, 4), (4, 4), (0, 0)].into_iter());
        let err = std::panic::catch_unwind(|| {
            check_disjoint(loc(), "y", &ranges, [(0, 5), (4, 4), (9, 1)].into_iter())
        })
        .unwrap_err();
        let msg = err.downcast_ref::<String>().unwrap();
        assert!(msg.contains("k.rs:7"), "{msg}");
        assert!(msg.contains("iterations 0..4 indexes `y` in 0..5"), "{msg}");
        assert!(msg.contains("iterations 4..8 in 4..8"), "{msg}");
    }

    #[test]
    fn a_window_indexes_with_the_slice_indices_and_refuses_the_rest() {
        let mut v: Vec<u32> = (0..10).collect();
        let owned = Owned::new(&mut v, "v");
        // SAFETY: one window, inside the slice.
        let mut w = unsafe { owned.window((3, 4), loc()) };
        assert_eq!(w.len(), 10);
        assert_eq!(w[3], 3);
        w[6] = 60;
        assert_eq!(w[6], 60);
        let outside = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| w[7]));
        let msg = outside.unwrap_err();
        let msg = msg.downcast_ref::<String>().unwrap();
        assert!(msg.contains("`v[7]` is outside"), "{msg}");
        assert!(msg.contains("owns (3..7"), "{msg}");
        let past = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| w[10]));
        let msg = past.unwrap_err();
        let msg = msg.downcast_ref::<String>().unwrap();
        assert!(msg.contains("the len is 10 but the index is 10"), "{msg}");
        assert_eq!(v[6], 60);
    }
}
