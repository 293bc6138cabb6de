//! The CUDA form of a partitioned loop: a subset of Rust translated to CUDA C, handed to
//! acc-engine's emitter ([`acc_engine::cuda`]).
//!
//! The translation is two steps. The [`subset`] reads the loop body (a `syn` block, after the
//! host expansion rewrote its inner loop directives) into a small typed [`tree`], giving every
//! expression a type variable and unifying them as Rust's inference does for the subset
//! (unsuffixed literals default to `i32`/`f64` when nothing else decides). Then [`emit`] prints
//! C with every type resolved. Anything outside the subset, or any type the subset's inference
//! cannot decide, is an [`Unsupported`] with the Rust text that caused it: the loop then has no
//! CUDA form, never a guessed one.
//!
//! The modules, each importing only those before it: this one (the interface: [`Ty`], the
//! [`Input`]s and results, [`Unsupported`]), [`tree`] (the typed tree and its inference),
//! [`subset`] (Rust into the tree, and every reason for refusing Rust), [`emit`] (the tree into
//! CUDA C, and [`SUPPORT`]), [`assemble`] (a kernel's or routine's interface around the
//! emitted body: [`translate`], [`translate_routine`]).
//!
//! **The subset.** Slice parameters `&[T]`/`&mut [T]` (pointers; `x.len()`, `x.is_empty()`,
//! `x[e]`), scalar parameters and locals of the enclosing function (values), of types `f32 f64
//! i8..i64 isize u8..u64 usize bool`; literals (with suffixes), `+ - * / % & | ^ << >>`,
//! comparisons, `&& ||`, compound assignment, unary `-` and `!`, `as`, parentheses, `let`
//! (typed, or inferred), `if`/`else` (also as a value: `let v = if c { a } else { b };`),
//! nested `for i in a..b` / `a..=b`, `while`, `loop`, unlabelled `break`/`continue`, the float
//! methods `sqrt abs min max powi powf exp ln sin cos floor ceil mul_add` (and
//! `f64::max(a, b)` style paths), `abs min max` on integers, the constants `MIN`, `MAX`,
//! `INFINITY`, `NEG_INFINITY`, `EPSILON`, `NAN` of the number types and `std::f64::consts::PI`,
//! and calls of `#[acc::routine]` functions by name or path (slices passed as their pointer and
//! length). A routine ([`translate_routine`]) is the same subset over its parameters and locals,
//! with `return` and a tail expression. More float methods: `tan tanh sinh cosh asin acos atan
//! atan2 hypot signum clamp round trunc exp2 log2 log10 cbrt recip` (`clamp`, `signum` on
//! integers too), and every `f32`/`f64` `consts::` constant.
//!
//! **User types** ([`Named`], the `user` module). Slices of `#[derive(acc::DeviceCopy)]` structs
//! and of fixed arrays (`&[P]`, `&mut [[f64; 3]]`); field reads and writes (`p[i].x += v`),
//! struct literals (`P { x: 1.0, y }`, fields evaluated in the order written), `let` of a
//! struct or array type, routines taking and returning structs by value, and method routines
//! (`#[acc::routine]` on an inherent method taking `self` or `&self`, called as `v.m(..)` when
//! the translation sees `v`'s type: a slice element, a literal, a typed `let`, a parameter).
//! Arrays are values (`__acc_arr<T, N>`, a struct holding `T v[N]`, so they copy as Rust's do):
//! indexing with the bounds check, `a.len()`, literals `[a, b]` and `[x; n]` (`n` a literal),
//! and `for x in a` / `a.iter()` / `&a` / `a.iter().enumerate()` over arrays and slice
//! parameters. A macro cannot read a struct's declaration: a field's type is what the code
//! around it decides (rustc checked the program), else the C text names it
//! `decltype(((P *)0)->x)`; the C text names a type by an alias of the path written
//! (`__acc_type_P`), which the runtime binds to the declaration the derive gives
//! (`acc_runtime::rust::CudaType`), checked by `static_assert`s of Rust's size and alignment.
//! Operators on user types (a user `impl Add`) and methods outside routines are refused.
//!
//! **Calls.** The callee is another item, which this macro cannot read: the C text calls it
//! through an alias of the path (`util::half` is `__acc_call_4util_4half`) that the runtime
//! binds when it assembles the module ([`CallSite`]), and a call whose name is bound inside the
//! function (a closure, an import in the body), a constructor or a type's function has no
//! CUDA form. Where the code around a call does not decide a type that Rust takes from the
//! callee's signature (a literal argument, `let s = f(x);`), the C text names the type by the
//! runtime's `#define` from that signature (`__acc_call_4util_4half_a0`, `..._r`), and typed
//! emission becomes generic: the helpers are overloaded, casts from such a type go through
//! `__acc_as`, float literals are written for either width (never rounded twice). A call that
//! passes a `&mut` slice may write it, so it must be a statement's whole value: C does not keep
//! Rust's order of evaluation inside an expression.
//!
//! **Rust semantics kept.**
//! - Integer `+ - *`, unary `-` and shifts wrap (Rust's release behaviour; debug builds of the
//!   host path panic instead): signed arithmetic goes through the unsigned type, so C's
//!   undefined signed overflow never happens, and a shift amount is masked by the width.
//! - Division and remainder by zero, and `MIN / -1`, print Rust's panic message and trap, as
//!   Rust panics in every profile.
//! - `x[e]` is bounds-checked: an index past the end prints Rust's message (with the function
//!   and the indexing text) and traps (`__trap()`), which fails the launch.
//! - `as` from a float to an integer saturates and maps NaN to 0; other casts are C's, which
//!   agree with Rust's (truncation, rounding to nearest).
//! - Float `+ - *` use the `_rn` intrinsics, which the compiler never contracts into an FMA,
//!   so results match the host's bit for bit; `/` and `sqrt` are IEEE (NVRTC's defaults).
//!   `mul_add` is `fma`. The transcendental functions (`exp`, `ln`, `sin`, `cos`, `powf`,
//!   `powi`) are CUDA's, which may differ from the host's libm in the last bits.
//! - `usize`/`isize` are 64-bit.

use acc_engine::directive::ReductionOp;
use proc_macro2::Span;
use quote::ToTokens;
use std::collections::{HashMap, HashSet};
use syn::{Expr, Type};

mod assemble;
mod emit;
mod subset;
mod tree;
mod user;

pub use assemble::{translate, translate_routine};
pub use emit::SUPPORT;

/// Why a piece of Rust has no CUDA form, and where: the offending syntax when one is to blame
/// (a compile error lands there), else the enclosing loop or function.
#[derive(Clone, Debug)]
pub struct Unsupported {
    pub why: String,
    pub span: Option<proc_macro2::Span>,
}

impl Unsupported {
    pub fn new(why: String) -> Unsupported {
        Unsupported { why, span: None }
    }
}

/// A scalar type of the subset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    I8,
    I16,
    I32,
    I64,
    Isize,
    U8,
    U16,
    U32,
    U64,
    Usize,
    F32,
    F64,
    Bool,
}

impl Ty {
    pub fn from_name(s: &str) -> Option<Ty> {
        Some(match s {
            "i8" => Ty::I8,
            "i16" => Ty::I16,
            "i32" => Ty::I32,
            "i64" => Ty::I64,
            "isize" => Ty::Isize,
            "u8" => Ty::U8,
            "u16" => Ty::U16,
            "u32" => Ty::U32,
            "u64" => Ty::U64,
            "usize" => Ty::Usize,
            "f32" => Ty::F32,
            "f64" => Ty::F64,
            "bool" => Ty::Bool,
            _ => return None,
        })
    }

    pub fn from_type(t: &Type) -> Option<Ty> {
        match t {
            Type::Path(p) if p.qself.is_none() => Ty::from_name(&p.path.get_ident()?.to_string()),
            Type::Paren(p) => Ty::from_type(&p.elem),
            Type::Group(g) => Ty::from_type(&g.elem),
            _ => None,
        }
    }

    /// The Rust name (what the runtime checks values against).
    pub fn rust(self) -> &'static str {
        match self {
            Ty::I8 => "i8",
            Ty::I16 => "i16",
            Ty::I32 => "i32",
            Ty::I64 => "i64",
            Ty::Isize => "isize",
            Ty::U8 => "u8",
            Ty::U16 => "u16",
            Ty::U32 => "u32",
            Ty::U64 => "u64",
            Ty::Usize => "usize",
            Ty::F32 => "f32",
            Ty::F64 => "f64",
            Ty::Bool => "bool",
        }
    }

    pub fn c(self) -> &'static str {
        match self {
            Ty::I8 => "signed char",
            Ty::I16 => "short",
            Ty::I32 => "int",
            Ty::I64 | Ty::Isize => "long long",
            Ty::U8 => "unsigned char",
            Ty::U16 => "unsigned short",
            Ty::U32 => "unsigned int",
            Ty::U64 | Ty::Usize => "unsigned long long",
            Ty::F32 => "float",
            Ty::F64 => "double",
            Ty::Bool => "bool",
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }

    fn is_int(self) -> bool {
        !self.is_float() && self != Ty::Bool
    }

    fn is_signed(self) -> bool {
        matches!(self, Ty::I8 | Ty::I16 | Ty::I32 | Ty::I64 | Ty::Isize)
    }
}

/// A user type a CUDA text names (a `#[derive(acc::DeviceCopy)]` struct, a fixed array): the
/// Rust type as written, and the C alias the text uses, which the runtime binds to the type's
/// C declaration (`acc_runtime::rust::CudaType`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    pub rust: String,
    pub alias: String,
}

impl Named {
    /// A type outside the subset's numbers that may be device data: a path without generic
    /// arguments (a struct; rustc checks it is `DeviceCopy`), or an array of such types.
    pub fn from_type(t: &Type) -> Option<Named> {
        match t {
            Type::Paren(p) => return Named::from_type(&p.elem),
            Type::Group(g) => return Named::from_type(&g.elem),
            Type::Path(p)
                if p.qself.is_none()
                    && p.path.segments.iter().all(|s| s.arguments.is_none())
                    && Ty::from_type(t).is_none() => {}
            Type::Array(a) if Elem::from_type(&a.elem).is_some() => {}
            _ => return None,
        }
        let rust = text(t);
        let mut alias = String::from("__acc_type_");
        for ch in rust.chars() {
            match ch {
                c if c.is_ascii_alphanumeric() => alias.push(c),
                ' ' => {}
                c => {
                    let _ =
                        std::fmt::Write::write_fmt(&mut alias, format_args!("_{:x}_", c as u32));
                }
            }
        }
        Some(Named { rust, alias })
    }
}

/// A value or element type: one of the subset's numbers, or a user type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Elem {
    Ty(Ty),
    Named(Named),
    /// A type parameter of a generic compute function (`T: acc::Float`): `rust` is its name,
    /// `alias` the C name each instantiation's kernel `typedef`s (`__acc_gen_T`).
    Generic(Named),
}

impl From<Ty> for Elem {
    fn from(t: Ty) -> Elem {
        Elem::Ty(t)
    }
}

/// The C name of type parameter `t` in a generic kernel.
pub fn generic(t: &str) -> Named {
    Named {
        rust: t.to_string(),
        alias: format!("__acc_gen_{t}"),
    }
}

impl Elem {
    pub fn from_type(t: &Type) -> Option<Elem> {
        Ty::from_type(t)
            .map(Elem::Ty)
            .or_else(|| Named::from_type(t).map(Elem::Named))
    }

    pub fn c(&self) -> &str {
        match self {
            Elem::Ty(t) => t.c(),
            Elem::Named(n) | Elem::Generic(n) => &n.alias,
        }
    }

    /// The Rust type as the runtime compares signatures (`_`: a user type, which rustc checks).
    pub fn rust(&self) -> &str {
        match self {
            Elem::Ty(t) => t.rust(),
            Elem::Named(_) | Elem::Generic(_) => "_",
        }
    }
}

/// How a variable of the enclosing function reaches the kernel.
#[derive(Clone, Debug)]
pub enum Outer {
    /// A slice parameter: element type, whether `&mut`.
    Slice(Elem, bool),
    /// A scalar parameter of a known type.
    Scalar(Ty),
    /// A parameter of a user type, by value.
    Value(Named),
    /// A scalar parameter of a generic compute function's type parameter.
    Generic(Named),
    /// A parameter of a type outside the subset.
    Other,
}

/// One level of the partitioned nest.
pub struct Level {
    /// The index variable (`None` for `_`).
    pub var: Option<String>,
    pub lo: Expr,
    pub hi: Expr,
}

/// What the kernel needs from the launch, in parameter order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgSpec {
    /// The slice's address (its device copy).
    Slice(String),
    /// The slice's length, `usize`.
    Len(String),
    /// A scalar of the enclosing function, by value, of this type.
    Value(String, Ty),
    /// A scalar of the enclosing function, by value, of the type a routine's signature gives
    /// (rustc checked that the value has it).
    Signature(String),
    /// A value of a user type (`#[derive(acc::DeviceCopy)]` struct, array), by value.
    Bytes(String),
    /// Level `j`'s first index (`__acc_lo<j>`), of this type.
    Lo(usize, Ty),
    /// Level `j`'s trip count (`__acc_n<j>`), `i64`.
    Count(usize),
}

/// A translated launch.
pub struct Translated {
    pub kernel: acc_engine::cuda::CudaKernel,
    pub args: Vec<ArgSpec>,
    /// Per reduction, in clause order: the variable's type (`None`: a routine's signature
    /// decides it).
    pub reductions: Vec<Option<Ty>>,
    /// The calls of routines the kernel makes.
    pub calls: Vec<CallSite>,
    /// The user types the kernel names.
    pub types: Vec<Named>,
}

/// A call the translation takes for a call of an `#[acc::routine]` function. The callee is
/// another item, which this macro cannot read: the C text calls it through `alias`, and the
/// caller's expansion finds the routine's CUDA form by `path` and checks that its signature is
/// the one assumed here.
#[derive(Clone)]
pub struct CallSite {
    /// The function as written (`half`, `util::half`).
    pub path: syn::Path,
    /// The C name the text calls (a `#define` the runtime gives when it assembles the module).
    pub alias: String,
    /// A method routine (`v.norm()`): `path` is the receiver's type and the method's name.
    pub method: bool,
    pub args: Vec<ArgTy>,
    /// The result's type; `None` when the value is not used, or the signature decides it.
    pub ret: Option<Ty>,
    /// Where the call is.
    pub span: Span,
}

/// The type a call passes for one parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgTy {
    Value(Ty),
    /// A value of the type the routine's signature gives (nothing around the call decides it).
    Signature,
    /// A slice of this element type; whether it is `&mut`.
    Slice(Elem, bool),
}

/// Everything the translator reads about the launch.
pub struct Input<'a> {
    pub function: &'a str,
    pub entry: String,
    pub params: &'a HashMap<String, Outer>,
    pub levels: &'a [Level],
    pub body: &'a syn::Block,
    pub reductions: &'a [(ReductionOp, String)],
    /// Compute-level `private`/`firstprivate`: a copy per thread.
    pub per_chunk: &'a [String],
    /// Loop `private`: a copy per iteration.
    pub privates: &'a [String],
    /// Names bound inside the function (parameters, locals, nested functions): a call through
    /// one of them is not a call of a routine.
    pub locals: &'a HashSet<String>,
}

/// Everything the translator reads about an `#[acc::routine]` function.
pub struct RoutineInput<'a> {
    pub function: &'a str,
    /// In order: the name, its type, whether the binding is `mut`.
    pub params: &'a [(String, Outer, bool)],
    /// `None`: `()`.
    pub ret: Option<Elem>,
    pub body: &'a syn::Block,
    pub locals: &'a HashSet<String>,
}

/// A routine as a CUDA `__device__` function: the runtime names it and writes
/// `static __device__ <ret> <name>(<params>) <body>`.
#[derive(Default)]
pub struct TranslatedRoutine {
    pub ret: String,
    pub params: String,
    /// Per Rust parameter, its C type (empty for a slice; a user type's alias, which the
    /// runtime resolves): callers name these types (see [`CallSite`]).
    pub param_types: Vec<String>,
    pub body: String,
    pub calls: Vec<CallSite>,
    /// The user types the routine names.
    pub types: Vec<Named>,
}

pub(crate) fn unsupported(what: impl ToTokens, why: &str) -> Unsupported {
    let span = syn::spanned::Spanned::span(&what);
    Unsupported {
        why: format!("`{}`: {why}", text(&what)),
        span: Some(span),
    }
}

/// The Rust text of a piece of syntax, on one line.
pub fn text(t: &impl ToTokens) -> String {
    let s = t.to_token_stream().to_string();
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() > 80 {
        let cut: String = s.chars().take(77).collect();
        format!("{cut}…")
    } else {
        s
    }
}

#[cfg(test)]
mod tests;
