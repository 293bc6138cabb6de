//! Reductions of host kernels: each chunk reduces into its own private slot, preset to the
//! operator's identity; after the chunks finish the runtime combines the slots with the
//! variable's original value. No atomics and no locks are on the kernel's path.

use std::ffi::c_void;

/// A reduction operator (`acc_rt.h`'s `ACC_RT_RED_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Mul,
    Max,
    Min,
    BitAnd,
    BitOr,
    BitXor,
    And,
    Or,
}

/// A reduction variable's type (`acc_rt.h`'s `ACC_RT_TYPE_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
    /// C's `_Bool`: one byte holding 0 or 1, kept normalized.
    Bool,
    /// `float _Complex` (`+` and `*` only).
    C32,
    /// `double _Complex` (`+` and `*` only).
    C64,
}

impl Op {
    pub fn from_code(c: u32) -> Option<Op> {
        use Op::*;
        Some(match c {
            1 => Add,
            2 => Mul,
            3 => Max,
            4 => Min,
            5 => BitAnd,
            6 => BitOr,
            7 => BitXor,
            8 => And,
            9 => Or,
            _ => return None,
        })
    }
}

impl Type {
    pub fn from_code(c: u32) -> Option<Type> {
        use Type::*;
        Some(match c {
            1 => I8,
            2 => I16,
            3 => I32,
            4 => I64,
            5 => U8,
            6 => U16,
            7 => U32,
            8 => U64,
            9 => F32,
            10 => F64,
            11 => Bool,
            12 => C32,
            13 => C64,
            _ => return None,
        })
    }

    pub fn size(self) -> usize {
        use Type::*;
        match self {
            I8 | U8 | Bool => 1,
            I16 | U16 => 2,
            I32 | U32 | F32 => 4,
            I64 | U64 | F64 | C32 => 8,
            C64 => 16,
        }
    }
}

/// A value type a reduction can work on.
trait Elem: Copy + PartialOrd {
    fn identity(op: Op) -> Option<Self>;
    fn apply(op: Op, a: Self, b: Self) -> Option<Self>;
}

macro_rules! int_elem {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            fn identity(op: Op) -> Option<$t> {
                Some(match op {
                    Op::Add | Op::BitOr | Op::BitXor | Op::Or => 0,
                    Op::Mul | Op::And => 1,
                    Op::Max => <$t>::MIN,
                    Op::Min => <$t>::MAX,
                    Op::BitAnd => !0,
                })
            }
            fn apply(op: Op, a: $t, b: $t) -> Option<$t> {
                Some(match op {
                    // C's unsigned arithmetic wraps; for signed overflow C promises nothing,
                    // and wrapping is what a GPU gives.
                    Op::Add => a.wrapping_add(b),
                    Op::Mul => a.wrapping_mul(b),
                    Op::Max => if b > a { b } else { a },
                    Op::Min => if b < a { b } else { a },
                    Op::BitAnd => a & b,
                    Op::BitOr => a | b,
                    Op::BitXor => a ^ b,
                    Op::And => (a != 0 && b != 0) as $t,
                    Op::Or => (a != 0 || b != 0) as $t,
                })
            }
        }
    )*};
}
int_elem!(i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! float_elem {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            fn identity(op: Op) -> Option<$t> {
                match op {
                    Op::Add | Op::Or => Some(0.0),
                    Op::Mul | Op::And => Some(1.0),
                    Op::Max => Some(<$t>::NEG_INFINITY),
                    Op::Min => Some(<$t>::INFINITY),
                    Op::BitAnd | Op::BitOr | Op::BitXor => None,
                }
            }
            fn apply(op: Op, a: $t, b: $t) -> Option<$t> {
                match op {
                    Op::Add => Some(a + b),
                    Op::Mul => Some(a * b),
                    Op::Max => Some(if b > a { b } else { a }),
                    Op::Min => Some(if b < a { b } else { a }),
                    Op::And => Some((a != 0.0 && b != 0.0) as u8 as $t),
                    Op::Or => Some((a != 0.0 || b != 0.0) as u8 as $t),
                    Op::BitAnd | Op::BitOr | Op::BitXor => None,
                }
            }
        }
    )*};
}
float_elem!(f32, f64);

/// C's complex types: real and imaginary parts, as C lays them out.
#[derive(Clone, Copy, PartialEq)]
#[repr(C)]
struct Complex<T>(T, T);

macro_rules! complex_elem {
    ($($t:ty),*) => {$(
        /// Complex numbers have no order; `max`/`min` are not defined on them.
        impl PartialOrd for Complex<$t> {
            fn partial_cmp(&self, _: &Self) -> Option<std::cmp::Ordering> {
                None
            }
        }

        impl Elem for Complex<$t> {
            fn identity(op: Op) -> Option<Self> {
                match op {
                    Op::Add => Some(Complex(0.0, 0.0)),
                    Op::Mul => Some(Complex(1.0, 0.0)),
                    _ => None,
                }
            }
            fn apply(op: Op, a: Self, b: Self) -> Option<Self> {
                match op {
                    Op::Add => Some(Complex(a.0 + b.0, a.1 + b.1)),
                    Op::Mul => Some(Complex(a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)),
                    _ => None,
                }
            }
        }
    )*};
}
complex_elem!(f32, f64);

/// `_Bool`: every operator's result converted back to 0 or 1, as C does
/// when it stores into a `_Bool` (so `+` is `||` and `*` is `&&`).
#[derive(Clone, Copy, PartialEq, PartialOrd)]
#[repr(transparent)]
struct Bool(u8);

impl Elem for Bool {
    fn identity(op: Op) -> Option<Bool> {
        Some(Bool(match op {
            Op::Add | Op::Max | Op::BitOr | Op::BitXor | Op::Or => 0,
            Op::Mul | Op::Min | Op::BitAnd | Op::And => 1,
        }))
    }
    fn apply(op: Op, a: Bool, b: Bool) -> Option<Bool> {
        let (a, b) = (a.0 != 0, b.0 != 0);
        Some(Bool(match op {
            Op::Add | Op::Max | Op::BitOr | Op::Or => a || b,
            Op::Mul | Op::Min | Op::BitAnd | Op::And => a && b,
            Op::BitXor => a ^ b,
        } as u8))
    }
}

macro_rules! dispatch {
    ($ty:expr, $f:ident($($arg:expr),*)) => {
        match $ty {
            Type::I8 => $f::<i8>($($arg),*),
            Type::I16 => $f::<i16>($($arg),*),
            Type::I32 => $f::<i32>($($arg),*),
            Type::I64 => $f::<i64>($($arg),*),
            Type::U8 => $f::<u8>($($arg),*),
            Type::U16 => $f::<u16>($($arg),*),
            Type::U32 => $f::<u32>($($arg),*),
            Type::U64 => $f::<u64>($($arg),*),
            Type::F32 => $f::<f32>($($arg),*),
            Type::F64 => $f::<f64>($($arg),*),
            Type::Bool => $f::<Bool>($($arg),*),
            Type::C32 => $f::<Complex<f32>>($($arg),*),
            Type::C64 => $f::<Complex<f64>>($($arg),*),
        }
    };
}

/// Whether `op` is defined on `ty` (no bitwise operators on floating point).
pub fn valid(op: Op, ty: Type) -> bool {
    fn has<T: Elem>(op: Op) -> bool {
        T::identity(op).is_some()
    }
    dispatch!(ty, has(op))
}

/// Writes the identity of `op` into each of the `buf.len() / size` elements of `buf`.
pub fn init_elems(op: Op, ty: Type, buf: &mut [u8]) {
    fn go<T: Elem>(op: Op, buf: &mut [u8]) {
        if let Some(v) = T::identity(op) {
            for e in buf.chunks_exact_mut(size_of::<T>()) {
                // SAFETY: `e` has `size_of::<T>()` bytes; unaligned writes are allowed.
                unsafe { e.as_mut_ptr().cast::<T>().write_unaligned(v) };
            }
        }
    }
    dispatch!(ty, go(op, buf))
}

/// Combines `count` elements of each partial (each `count * ty.size()` bytes) into the
/// `count` elements at `var`, element by element, with `op`.
///
/// # Safety
/// `var` points at `count` valid, writable values of type `ty` (they need not be aligned);
/// each partial points at `count` values of type `ty` written by [`init_elems`] or a kernel.
pub unsafe fn combine_elems(
    op: Op,
    ty: Type,
    var: *mut c_void,
    count: usize,
    partials: impl Iterator<Item = *const u8>,
) {
    /// # Safety
    /// As for `combine_elems`.
    unsafe fn go<T: Elem>(
        op: Op,
        var: *mut c_void,
        count: usize,
        partials: &mut dyn Iterator<Item = *const u8>,
    ) {
        let var = var.cast::<T>();
        let parts: Vec<*const u8> = partials.collect();
        for k in 0..count {
            // SAFETY: the caller guarantees `count` values at `var` and in each partial.
            unsafe {
                let mut acc = var.add(k).read_unaligned();
                for p in &parts {
                    let v = p.cast::<T>().add(k).read_unaligned();
                    acc = T::apply(op, acc, v).unwrap_or(acc);
                }
                var.add(k).write_unaligned(acc);
            }
        }
    }
    let mut partials = partials;
    // SAFETY: forwarded from the caller.
    unsafe { dispatch!(ty, go(op, var, count, &mut partials)) }
}

/// One slot per chunk and reduction: 8 bytes, enough for every scalar but `double _Complex`.
pub type Slot = u64;

/// Writes the identity of `op` into `slot`.
pub fn init(op: Op, ty: Type, slot: &mut Slot) {
    // SAFETY: a slot is 8 writable bytes.
    let bytes = unsafe { std::slice::from_raw_parts_mut((slot as *mut Slot).cast::<u8>(), 8) };
    init_elems(op, ty, &mut bytes[..ty.size().min(8)]);
}

/// Combines `partials` into the value at `var` with `op`.
///
/// # Safety
/// `var` points at a valid, writable value of type `ty` (it need not be aligned), at most 8
/// bytes wide.
pub unsafe fn combine_into(
    op: Op,
    ty: Type,
    var: *mut c_void,
    partials: impl Iterator<Item = Slot>,
) {
    let slots: Vec<Slot> = partials.collect();
    // SAFETY: forwarded from the caller; each slot holds one value.
    unsafe {
        combine_elems(
            op,
            ty,
            var,
            1,
            slots.iter().map(|s| (s as *const Slot).cast::<u8>()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slot_of<T: Copy>(v: T) -> Slot {
        let mut s: Slot = 0;
        // SAFETY: `T` is at most 8 bytes in these tests.
        unsafe { (&mut s as *mut Slot).cast::<T>().write(v) };
        s
    }

    #[test]
    fn combines_with_the_original_value() {
        let mut x = 10.0f64;
        let parts = [1.5f64, 2.5].map(slot_of);
        // SAFETY: `x` is a valid f64.
        unsafe {
            combine_into(
                Op::Add,
                Type::F64,
                (&mut x as *mut f64).cast(),
                parts.into_iter(),
            )
        };
        assert_eq!(x, 14.0);
        let mut m = 3i32;
        let parts = [7i32, -2, 5].map(slot_of);
        // SAFETY: `m` is a valid i32.
        unsafe {
            combine_into(
                Op::Max,
                Type::I32,
                (&mut m as *mut i32).cast(),
                parts.into_iter(),
            )
        };
        assert_eq!(m, 7);
    }

    #[test]
    fn identities_leave_values_unchanged() {
        for op in [
            Op::Add,
            Op::Mul,
            Op::Max,
            Op::Min,
            Op::BitAnd,
            Op::BitOr,
            Op::BitXor,
        ] {
            let mut s = 0;
            init(op, Type::U16, &mut s);
            let mut v = 0x1234u16;
            // SAFETY: `v` is a valid u16.
            unsafe { combine_into(op, Type::U16, (&mut v as *mut u16).cast(), [s].into_iter()) };
            assert_eq!(v, 0x1234, "{op:?}");
        }
        assert!(!valid(Op::BitXor, Type::F32));
        assert!(valid(Op::Min, Type::F32));
    }
}
