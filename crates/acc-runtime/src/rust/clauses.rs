//! The data clause builders of `acc::data` (`copy`, `copyin`, `copyout`, `create`,
//! `present`, `no_create`), tuples of them ([`Clauses`]), and [`data`], which maps them for
//! the body's duration and hands it the device views.
//!
//! It maps only through the guards of `map`, so reference counts are structured and released
//! in reverse order when the body returns.

use super::{DataClause, DeviceCopy, Loc, MapMut, MapRef};

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
