//! Reductions of Rust kernels: the operators as marker types ([`op`]), and [`Reduce`] with
//! each operator's identity and combination for the numeric types and `bool`.
//!
//! Pure functions: no state, no device.

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
