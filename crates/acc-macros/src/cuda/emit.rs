//! Emission: CUDA C text from the typed tree.
//!
//! Owns [`SUPPORT`] (the helpers that keep Rust's semantics on the GPU: wrapping integer
//! arithmetic, saturating float-to-int casts, checked indices and divisions, trapping with
//! Rust's panic messages) and the [`Emitter`], which prints statements and expressions with
//! every type resolved. It reads the tree ([`super::tree`]) and the inference's results and
//! never the function's syntax tree: every `Unsupported` it returns is a type the inference could not
//! decide, or a Rust rule the typed tree leaves to emission (no `-` on unsigned, ...).
//!
//! Invariants: every C expression it prints has the C type of its Rust type ([`CTy`]), and
//! integer `+ - *`, negation and shifts never overflow in C (they go through the unsigned type).

use super::tree::{Over, RArg, Slot, Translator, Tv, E, S};
use super::{text, Ty, Unsupported};
use syn::BinOp;

/// Helpers every Rust module adds to acc-engine's prelude: Rust's arithmetic, casts and checks.
pub const SUPPORT: &str = r#"/* Rust semantics (acc-macros' CUDA form of Rust kernels). */
#pragma nv_diag_suppress 186
extern "C" __device__ int vprintf(const char *, const char *);
static __device__ __noinline__ void __acc_rust_panic(const char *fn, const char *what, const char *msg,
                                                     unsigned long long a, unsigned long long b) {
  struct { const char *f; const char *w; const char *m; unsigned long long a, b; } args = {fn, what, msg, a, b};
  (void)vprintf("acc: Rust kernel %s panicked at `%s`: %s (%llu, %llu)\n", (const char *)&args);
  __trap();
}
static __device__ __forceinline__ unsigned long long __acc_index(unsigned long long i, unsigned long long len,
                                                                 const char *fn, const char *what) {
  if (i >= len) __acc_rust_panic(fn, what, "index out of bounds: (the len, the index) are", len, i);
  return i;
}
#define __ACC_INT(T, U, BITS, SIGNED)                                                              \
  static __device__ __forceinline__ T __acc_rs_add(T a, T b) { return (T)((U)a + (U)b); }            \
  static __device__ __forceinline__ T __acc_rs_sub(T a, T b) { return (T)((U)a - (U)b); }            \
  static __device__ __forceinline__ T __acc_rs_mul(T a, T b) { return (T)((U)a * (U)b); }            \
  static __device__ __forceinline__ T __acc_rs_neg(T a) { return (T)((U)0 - (U)a); }                 \
  static __device__ __forceinline__ T __acc_rs_not(T a) { return (T)~(U)a; }                         \
  static __device__ __forceinline__ T __acc_rs_and(T a, T b) { return (T)(a & b); }                  \
  static __device__ __forceinline__ T __acc_rs_or(T a, T b) { return (T)(a | b); }                   \
  static __device__ __forceinline__ T __acc_rs_xor(T a, T b) { return (T)(a ^ b); }                  \
  static __device__ __forceinline__ T __acc_rs_abs(T a) { return a < (T)0 ? __acc_rs_neg(a) : a; }     \
  static __device__ __forceinline__ T __acc_rs_min(T a, T b) { return b < a ? b : a; }               \
  static __device__ __forceinline__ T __acc_rs_max(T a, T b) { return b < a ? a : b; }               \
  static __device__ __forceinline__ T __acc_rs_clamp(T a, T lo, T hi) {                             \
    if (hi < lo) __acc_rust_panic("clamp", "clamp", "assertion failed: min <= max", 0, 0);         \
    return a < lo ? lo : (hi < a ? hi : a);                                                        \
  }                                                                                                \
  static __device__ __forceinline__ T __acc_rs_signum(T a) { return (T)((a > (T)0) - (a < (T)0)); }  \
  static __device__ __forceinline__ T __acc_rs_div(T a, T b, const char *fn, const char *w) {        \
    if (b == (T)0) __acc_rust_panic(fn, w, "attempt to divide by zero", 0, 0);                     \
    if (SIGNED && b == (T)-1 && (U)a == (U)1 << (BITS - 1))                                        \
      __acc_rust_panic(fn, w, "attempt to divide with overflow", 0, 0);                            \
    return (T)(a / b);                                                                             \
  }                                                                                                \
  static __device__ __forceinline__ T __acc_rs_rem(T a, T b, const char *fn, const char *w) {        \
    if (b == (T)0) __acc_rust_panic(fn, w, "attempt to calculate the remainder with a divisor of zero", 0, 0); \
    if (SIGNED && b == (T)-1 && (U)a == (U)1 << (BITS - 1))                                        \
      __acc_rust_panic(fn, w, "attempt to calculate the remainder with overflow", 0, 0);           \
    return (T)(a % b);                                                                             \
  }                                                                                                \
  template <class S> static __device__ __forceinline__ T __acc_rs_shl(T a, S s) {                     \
    return (T)((U)a << ((unsigned)s & (BITS - 1)));                                                \
  }                                                                                                \
  template <class S> static __device__ __forceinline__ T __acc_rs_shr(T a, S s) {                     \
    return (T)(a >> ((unsigned)s & (BITS - 1)));                                                   \
  }
__ACC_INT(signed char, unsigned, 8, 1)
__ACC_INT(short, unsigned, 16, 1)
__ACC_INT(int, unsigned, 32, 1)
__ACC_INT(long long, unsigned long long, 64, 1)
__ACC_INT(unsigned char, unsigned, 8, 0)
__ACC_INT(unsigned short, unsigned, 16, 0)
__ACC_INT(unsigned int, unsigned, 32, 0)
__ACC_INT(unsigned long long, unsigned long long, 64, 0)
#undef __ACC_INT
static __device__ __forceinline__ bool __acc_rs_and(bool a, bool b) { return a & b; }
static __device__ __forceinline__ bool __acc_rs_or(bool a, bool b) { return a | b; }
static __device__ __forceinline__ bool __acc_rs_xor(bool a, bool b) { return a != b; }
static __device__ __forceinline__ bool __acc_rs_not(bool a) { return !a; }
#define __ACC_FLOAT(T, ADD, SUB, MUL, SQRT, SFX)                                                   \
  static __device__ __forceinline__ T __acc_rs_add(T a, T b) { return ADD(a, b); }                  \
  static __device__ __forceinline__ T __acc_rs_sub(T a, T b) { return SUB(a, b); }                  \
  static __device__ __forceinline__ T __acc_rs_mul(T a, T b) { return MUL(a, b); }                  \
  static __device__ __forceinline__ T __acc_rs_neg(T a) { return -a; }                               \
  static __device__ __forceinline__ T __acc_rs_div(T a, T b, const char *, const char *) { return a / b; } \
  static __device__ __forceinline__ T __acc_rs_rem(T a, T b, const char *, const char *) { return fmod##SFX(a, b); } \
  static __device__ __forceinline__ T __acc_rs_abs(T a) { return fabs##SFX(a); }                     \
  static __device__ __forceinline__ T __acc_rs_min(T a, T b) { return fmin##SFX(a, b); }             \
  static __device__ __forceinline__ T __acc_rs_max(T a, T b) { return fmax##SFX(a, b); }             \
  static __device__ __forceinline__ T __acc_rs_sqrt(T a) { return SQRT(a); }                         \
  static __device__ __forceinline__ T __acc_rs_powi(T a, int n) { return pow##SFX(a, (T)n); }        \
  static __device__ __forceinline__ T __acc_rs_powf(T a, T b) { return pow##SFX(a, b); }             \
  static __device__ __forceinline__ T __acc_rs_exp(T a) { return exp##SFX(a); }                      \
  static __device__ __forceinline__ T __acc_rs_ln(T a) { return log##SFX(a); }                       \
  static __device__ __forceinline__ T __acc_rs_sin(T a) { return sin##SFX(a); }                      \
  static __device__ __forceinline__ T __acc_rs_cos(T a) { return cos##SFX(a); }                      \
  static __device__ __forceinline__ T __acc_rs_floor(T a) { return floor##SFX(a); }                  \
  static __device__ __forceinline__ T __acc_rs_ceil(T a) { return ceil##SFX(a); }                    \
  static __device__ __forceinline__ T __acc_rs_mul_add(T a, T b, T c) { return fma##SFX(a, b, c); }   \
  static __device__ __forceinline__ T __acc_rs_clamp(T a, T lo, T hi) {                             \
    if (!(lo <= hi)) __acc_rust_panic("clamp", "clamp", "min > max, or either was NaN", 0, 0);    \
    return a < lo ? lo : (a > hi ? hi : a);                                                        \
  }                                                                                                \
  static __device__ __forceinline__ T __acc_rs_signum(T a) { return a != a ? a : copysign##SFX((T)1, a); } \
  static __device__ __forceinline__ T __acc_rs_recip(T a) { return (T)1 / a; }                       \
  static __device__ __forceinline__ T __acc_rs_tan(T a) { return tan##SFX(a); }                      \
  static __device__ __forceinline__ T __acc_rs_tanh(T a) { return tanh##SFX(a); }                    \
  static __device__ __forceinline__ T __acc_rs_sinh(T a) { return sinh##SFX(a); }                    \
  static __device__ __forceinline__ T __acc_rs_cosh(T a) { return cosh##SFX(a); }                    \
  static __device__ __forceinline__ T __acc_rs_asin(T a) { return asin##SFX(a); }                    \
  static __device__ __forceinline__ T __acc_rs_acos(T a) { return acos##SFX(a); }                    \
  static __device__ __forceinline__ T __acc_rs_atan(T a) { return atan##SFX(a); }                    \
  static __device__ __forceinline__ T __acc_rs_atan2(T a, T b) { return atan2##SFX(a, b); }          \
  static __device__ __forceinline__ T __acc_rs_hypot(T a, T b) { return hypot##SFX(a, b); }          \
  static __device__ __forceinline__ T __acc_rs_round(T a) { return round##SFX(a); }                  \
  static __device__ __forceinline__ T __acc_rs_trunc(T a) { return trunc##SFX(a); }                  \
  static __device__ __forceinline__ T __acc_rs_exp2(T a) { return exp2##SFX(a); }                    \
  static __device__ __forceinline__ T __acc_rs_log2(T a) { return log2##SFX(a); }                    \
  static __device__ __forceinline__ T __acc_rs_log10(T a) { return log10##SFX(a); }                  \
  static __device__ __forceinline__ T __acc_rs_cbrt(T a) { return cbrt##SFX(a); }
__ACC_FLOAT(float, __fadd_rn, __fsub_rn, __fmul_rn, __fsqrt_rn, f)
__ACC_FLOAT(double, __dadd_rn, __dsub_rn, __dmul_rn, __dsqrt_rn, )
#undef __ACC_FLOAT
/* `f as T` for an integer T: saturating, NaN to 0 (Rust's rule). */
template <class T> static __device__ __forceinline__ T __acc_f2i(double x, T lo, T hi) {
  if (x != x) return (T)0;
  if (x <= (double)lo) return lo;
  if (x >= (double)hi) return hi;
  return (T)x;
}
/* `v as To` where a routine's signature decides the type of `v` (a `#define`d name). */
template <class T> struct __acc_int_lim { enum { is = 0 }; };
#define __ACC_LIM(T, LO, HI)                                                                       \
  template <> struct __acc_int_lim<T> {                                                            \
    enum { is = 1 };                                                                               \
    static __device__ __forceinline__ T lo() { return LO; }                                        \
    static __device__ __forceinline__ T hi() { return HI; }                                        \
  };
__ACC_LIM(signed char, -128, 127)
__ACC_LIM(short, -32768, 32767)
__ACC_LIM(int, (-2147483647 - 1), 2147483647)
__ACC_LIM(long long, (-9223372036854775807LL - 1LL), 9223372036854775807LL)
__ACC_LIM(unsigned char, 0, 255)
__ACC_LIM(unsigned short, 0, 65535)
__ACC_LIM(unsigned int, 0, 4294967295U)
__ACC_LIM(unsigned long long, 0, 18446744073709551615ULL)
#undef __ACC_LIM
template <class To, int IsInt = __acc_int_lim<To>::is> struct __acc_from_float {
  static __device__ __forceinline__ To cast(double x) { return (To)x; }
};
template <class To> struct __acc_from_float<To, 1> {
  static __device__ __forceinline__ To cast(double x) {
    return __acc_f2i<To>(x, __acc_int_lim<To>::lo(), __acc_int_lim<To>::hi());
  }
};
/* A fixed array `[T; N]`: a struct, so that it is a value (`__acc_at` checks the index). */
template <class T, unsigned long long N> struct __acc_arr { T v[N]; };
template <class A> struct __acc_elem;
template <class T, unsigned long long N> struct __acc_elem<__acc_arr<T, N> > { typedef T type; };
template <class T, unsigned long long N>
static __device__ __forceinline__ T &__acc_at(__acc_arr<T, N> &a, unsigned long long i, const char *fn, const char *w) {
  return a.v[__acc_index(i, N, fn, w)];
}
template <class T, unsigned long long N>
static __device__ __forceinline__ const T &__acc_at(const __acc_arr<T, N> &a, unsigned long long i, const char *fn,
                                                    const char *w) {
  return a.v[__acc_index(i, N, fn, w)];
}
template <class T, unsigned long long N>
static __device__ __forceinline__ unsigned long long __acc_alen(const __acc_arr<T, N> &) { return N; }
template <class To, class From> static __device__ __forceinline__ To __acc_as(From v) { return (To)v; }
template <class To> static __device__ __forceinline__ To __acc_as(float v) { return __acc_from_float<To>::cast(v); }
template <class To> static __device__ __forceinline__ To __acc_as(double v) { return __acc_from_float<To>::cast(v); }
"#;

pub(super) struct Emitter<'t> {
    pub(super) t: &'t Translator<'t>,
    pub(super) out: String,
    pub(super) indent: usize,
    pub(super) func: String,
    pub(super) temps: usize,
}

/// A C type: one of the subset's, or one only a routine's signature decides, named by the
/// runtime's `#define`, with the kind of literal its values unified with ([`Slot::Int`],
/// [`Slot::Float`], or [`Slot::Free`]).
#[derive(Clone, PartialEq)]
pub(super) enum CTy {
    Ty(Ty),
    Sym(String, Slot),
}

impl CTy {
    /// The subset type; `None` when a signature decides it. The Rust rules that typed
    /// emission checks (no `-` on unsigned, no bit operations on floats, ...) rustc checks then.
    pub(super) fn known(&self) -> Option<Ty> {
        match self {
            CTy::Ty(t) => Some(*t),
            CTy::Sym(..) => None,
        }
    }

    pub(super) fn c(&self) -> &str {
        match self {
            CTy::Ty(t) => t.c(),
            CTy::Sym(name, _) => name,
        }
    }
}

impl Emitter<'_> {
    /// A subset type, as kernel parameters, loop levels and reductions need.
    pub(super) fn ty(&self, tv: Tv, what: &str) -> Result<Ty, Unsupported> {
        let user = match self.t.slots[self.t.root(tv)] {
            Slot::Named(k) => Some(self.t.named[k].rust.as_str()),
            Slot::Arr(_) => Some("array"),
            _ => None,
        };
        if let Some(user) = user {
            return Err(Unsupported::new(format!(
                "`{what}` is a `{user}`: a kernel receives numbers by value and other data in \
                 slices (and reduces numbers only)"
            )));
        }
        let sym = self.t.decided(tv).is_none() && self.t.sym.contains_key(&self.t.root(tv));
        self.t.resolve(tv).filter(|_| !sym).ok_or_else(|| {
            Unsupported::new(format!(
                "the type of `{what}` cannot be inferred for the CUDA translation; annotate it \
                 (`let {what}: f64 = ...`)"
            ))
        })
    }

    pub(super) fn cty(&self, tv: Tv, what: &str) -> Result<CTy, Unsupported> {
        match self.t.slots[self.t.root(tv)] {
            Slot::Named(k) => return Ok(CTy::Sym(self.t.named[k].alias.clone(), Slot::Named(k))),
            Slot::Generic(k) => {
                return Ok(CTy::Sym(self.t.generics[k].alias.clone(), Slot::Generic(k)))
            }
            Slot::Arr(k) => {
                let (e, n) = self.t.arrays[k];
                let et = self.cty(e, what)?;
                return Ok(CTy::Sym(
                    format!("__acc_arr<{}, {n}ULL>", et.c()),
                    Slot::Arr(k),
                ));
            }
            _ => {}
        }
        if self.t.decided(tv).is_none() {
            let r = self.t.root(tv);
            if let Some(name) = self.t.sym.get(&r) {
                return Ok(CTy::Sym(name.clone(), self.t.slots[r]));
            }
        }
        self.ty(tv, what).map(CTy::Ty)
    }

    pub(super) fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    pub(super) fn expr_ty(&self, e: &E) -> Result<CTy, Unsupported> {
        match e.stored_type() {
            Ok(t) => self.cty(t, &describe(e)),
            Err(ty) => Ok(CTy::Ty(ty)),
        }
    }

    pub(super) fn string(&self, s: &str) -> String {
        let mut out = String::from("\"");
        for ch in s.chars() {
            match ch {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                c if c.is_ascii() && !c.is_ascii_control() => out.push(c),
                _ => out.push('?'),
            }
        }
        out.push('"');
        out
    }

    pub(super) fn expr(&mut self, e: &E) -> Result<String, Unsupported> {
        let ct = self.expr_ty(e)?;
        let t = ct.known();
        Ok(match e {
            E::Num(text, _) => match (&ct, t) {
                (_, Some(Ty::F32)) => format!("{text}f"),
                (_, Some(Ty::F64)) => text.clone(),
                (_, Some(Ty::Bool)) => {
                    return Err(Unsupported::new("a number used as a `bool`".into()))
                }
                // The literal as Rust reads it for either width (not rounded twice).
                (CTy::Sym(n, Slot::Float), _) => {
                    format!("(sizeof({n}) == sizeof(float) ? ({n})({text}f) : ({n})({text}))")
                }
                // `T::zero()`, `T::one()`: exact at either width.
                (CTy::Sym(n, Slot::Generic(_)), _) => format!("(({n}){text})"),
                _ => format!("(({}){text}ULL)", ct.c()),
            },
            E::Bool(b) => b.to_string(),
            E::Var(c, _) => c.clone(),
            E::Const(c, _) => format!("(({}){c})", ct.c()),
            E::Len(s) => format!("{s}_len"),
            E::Index(s, ix, _, what) => {
                let i = self.expr(ix)?;
                let (f, w) = (self.string(&self.func), self.string(what));
                format!("{s}_ptr[__acc_index({i}, {s}_len, {f}, {w})]")
            }
            E::Neg(x, _) => {
                self.no_user_ops(x)?;
                if t == Some(Ty::Bool) {
                    return Err(Unsupported::new("`-` on a `bool`".into()));
                }
                if t.is_some_and(|t| !t.is_signed() && t.is_int()) {
                    return Err(Unsupported::new("`-` on an unsigned integer".into()));
                }
                format!("__acc_rs_neg({})", self.expr(x)?)
            }
            E::Not(x, _) => {
                self.no_user_ops(x)?;
                if t.is_some_and(Ty::is_float) {
                    return Err(Unsupported::new("`!` on a float".into()));
                }
                format!("__acc_rs_not({})", self.expr(x)?)
            }
            E::Cast(x, _, to) => {
                let v = self.expr(x)?;
                let Some(from) = self.expr_ty(x)?.known() else {
                    // Saturating when the signature's type is a float.
                    return Ok(format!("__acc_as<{}>({v})", to.c()));
                };
                if from == *to {
                    v
                } else if from.is_float() && to.is_int() {
                    let (lo, hi) = int_limits(*to);
                    format!(
                        "__acc_f2i<{c}>((double)({v}), ({c}){lo}, ({c}){hi})",
                        c = to.c()
                    )
                } else if *to == Ty::Bool {
                    return Err(Unsupported::new("a cast to `bool`".into()));
                } else if from == Ty::Bool && to.is_float() {
                    return Err(Unsupported::new("a cast from `bool` to a float".into()));
                } else {
                    format!("(({})({v}))", to.c())
                }
            }
            E::Bin(op, l, r, _) => self.binary(op, l, r)?,
            E::Call(m, args, _) => {
                self.no_user_ops(&args[0])?;
                let mut vs = Vec::new();
                for a in args {
                    vs.push(self.expr(a)?);
                }
                let int_ok = matches!(*m, "abs" | "min" | "max" | "clamp" | "signum");
                if let Some(t) = t.filter(|t| *t == Ty::Bool || (t.is_int() && !int_ok)) {
                    return Err(Unsupported::new(format!(
                        "`{m}` on a `{}` has no CUDA form",
                        t.rust()
                    )));
                }
                format!("__acc_rs_{m}({})", vs.join(", "))
            }
            E::Routine(i, args, _) => self.routine_call(*i, args)?,
            E::Ternary(c, a, b, _) => format!(
                "({} ? {} : {})",
                self.expr(c)?,
                self.expr(a)?,
                self.expr(b)?
            ),
            E::Field(b, f, _) => format!("({}).{f}", self.expr(b)?),
            E::Elem(b, ix, _, what) => {
                let (b, i) = (self.expr(b)?, self.expr(ix)?);
                let (f, w) = (self.string(&self.func), self.string(what));
                format!("__acc_at({b}, {i}, {f}, {w})")
            }
            E::Array(es, _) => {
                let mut vs = Vec::new();
                for x in es {
                    vs.push(self.expr(x)?);
                }
                format!("{}{{{{{}}}}}", ct.c(), vs.join(", "))
            }
            E::Repeat(x, n, _) => {
                // Rust evaluates the value once and copies it.
                let v = self.expr(x)?;
                format!(
                    "([&]() {{ {} __acc_a; const auto __acc_x = {v}; for (unsigned long long \
                     __acc_k = 0; __acc_k < {n}ULL; __acc_k++) __acc_a.v[__acc_k] = __acc_x; \
                     return __acc_a; }}())",
                    ct.c()
                )
            }
            E::ALen(a) => format!("__acc_alen({})", self.expr(a)?),
            E::Struct(fields, _) => {
                // Rust evaluates the fields in the order written.
                let mut s = format!("([&]() {{ {} __acc_s;", ct.c());
                for (name, v) in fields {
                    s.push_str(&format!(" __acc_s.{name} = {};", self.expr(v)?));
                }
                s.push_str(" return __acc_s; }())");
                s
            }
        })
    }

    /// Refuses operators on user types (rustc accepts them only through a user `impl`).
    fn no_user_ops(&self, e: &E) -> Result<(), Unsupported> {
        let user = match self.expr_ty(e)? {
            CTy::Sym(_, Slot::Named(k)) => self.t.named[k].rust.clone(),
            CTy::Sym(_, Slot::Arr(_)) => "array".into(),
            _ => return Ok(()),
        };
        Err(Unsupported::new(format!(
            "an operator on a `{user}` (a user `impl` of it has no CUDA form); operate on its \
             fields or elements, or in an `#[acc::routine]`"
        )))
    }

    pub(super) fn routine_call(&mut self, i: usize, args: &[RArg]) -> Result<String, Unsupported> {
        let mut vs = Vec::new();
        for a in args {
            match a {
                RArg::Value(e) => vs.push(self.expr(e)?),
                RArg::Slice(s) => {
                    vs.push(format!("{s}_ptr"));
                    vs.push(format!("{s}_len"));
                }
            }
        }
        Ok(format!("{}({})", self.t.calls[i].alias, vs.join(", ")))
    }

    pub(super) fn binary(&mut self, op: &BinOp, l: &E, r: &E) -> Result<String, Unsupported> {
        self.no_user_ops(l)?;
        let lt = self.expr_ty(l)?.known();
        let (a, b) = (self.expr(l)?, self.expr(r)?);
        let what = || self.string(&format!("{} {} {}", describe(l), text(op), describe(r)));
        let f = self.string(&self.func);
        let lt_bool = lt == Some(Ty::Bool);
        Ok(match op {
            BinOp::Add(_) | BinOp::Sub(_) | BinOp::Mul(_) if lt_bool => {
                return Err(Unsupported::new("arithmetic on `bool`".into()))
            }
            BinOp::Add(_) => format!("__acc_rs_add({a}, {b})"),
            BinOp::Sub(_) => format!("__acc_rs_sub({a}, {b})"),
            BinOp::Mul(_) => format!("__acc_rs_mul({a}, {b})"),
            BinOp::Div(_) if !lt_bool => format!("__acc_rs_div({a}, {b}, {f}, {})", what()),
            BinOp::Rem(_) if !lt_bool => format!("__acc_rs_rem({a}, {b}, {f}, {})", what()),
            BinOp::BitAnd(_) | BinOp::BitOr(_) | BinOp::BitXor(_)
                if lt.is_some_and(Ty::is_float) =>
            {
                return Err(Unsupported::new("bit operations on a float".into()))
            }
            BinOp::BitAnd(_) => format!("__acc_rs_and({a}, {b})"),
            BinOp::BitOr(_) => format!("__acc_rs_or({a}, {b})"),
            BinOp::BitXor(_) => format!("__acc_rs_xor({a}, {b})"),
            BinOp::Shl(_) | BinOp::Shr(_) => {
                let rt = self.expr_ty(r)?.known();
                if lt.is_some_and(|t| !t.is_int()) || rt.is_some_and(|t| !t.is_int()) {
                    return Err(Unsupported::new("a shift of anything but integers".into()));
                }
                let n = if matches!(op, BinOp::Shl(_)) {
                    "shl"
                } else {
                    "shr"
                };
                format!("__acc_rs_{n}({a}, {b})")
            }
            BinOp::Eq(_) => format!("({a} == {b})"),
            BinOp::Ne(_) => format!("({a} != {b})"),
            BinOp::Lt(_) => format!("({a} < {b})"),
            BinOp::Le(_) => format!("({a} <= {b})"),
            BinOp::Gt(_) => format!("({a} > {b})"),
            BinOp::Ge(_) => format!("({a} >= {b})"),
            BinOp::And(_) => format!("({a} && {b})"),
            BinOp::Or(_) => format!("({a} || {b})"),
            _ => return Err(Unsupported::new(format!("the operator `{}`", text(op)))),
        })
    }

    pub(super) fn stmts(&mut self, ss: &[S]) -> Result<(), Unsupported> {
        for s in ss {
            self.stmt(s)?;
        }
        Ok(())
    }

    pub(super) fn stmt(&mut self, s: &S) -> Result<(), Unsupported> {
        match s {
            S::Let(c, tv, init) => {
                let t = self.cty(
                    *tv,
                    c.trim_end_matches(|ch: char| ch == '_' || ch.is_ascii_digit()),
                )?;
                match init {
                    Some(e) => {
                        let v = self.expr(e)?;
                        self.line(&format!("{} {c} = {v};", t.c()));
                    }
                    None => self.line(&format!("{} {c};", t.c())),
                }
            }
            // A routine call's value may be unused, and of a type nothing decides.
            S::Expr(E::Routine(i, args, _)) => {
                let v = self.routine_call(*i, args)?;
                self.line(&format!("{v};"));
            }
            S::Expr(e) => {
                let v = self.expr(e)?;
                self.line(&format!("(void)({v});"));
            }
            S::Return(Some(e)) => {
                let v = self.expr(e)?;
                self.line(&format!("return {v};"));
            }
            S::Return(None) => self.line("return;"),
            S::Assign(place, op, value) => {
                let v = self.expr(value)?;
                let p = self.expr(place)?;
                match op {
                    None => self.line(&format!("{p} = {v};")),
                    Some(op) => {
                        self.no_user_ops(place)?;
                        let t = self.expr_ty(place)?;
                        self.temps += 1;
                        let (r, x) = (
                            format!("__acc_r{}", self.temps),
                            format!("__acc_v{}", self.temps),
                        );
                        // Rust evaluates the right operand first.
                        self.line(&format!(
                            "{{ const {} {x} = {v}; {} &{r} = {p};",
                            t.c(),
                            t.c()
                        ));
                        let lv = E::Var(r.clone(), 0);
                        let rv = E::Var(x, 0);
                        let combined = self.binary_known(op, &lv, &rv, t.known())?;
                        self.line(&format!("  {r} = {combined}; }}"));
                    }
                }
            }
            S::If(c, a, b) => {
                let c = self.expr(c)?;
                self.line(&format!("if ({c}) {{"));
                self.indent += 1;
                self.stmts(a)?;
                self.indent -= 1;
                if b.is_empty() {
                    self.line("}");
                } else {
                    self.line("} else {");
                    self.indent += 1;
                    self.stmts(b)?;
                    self.indent -= 1;
                    self.line("}");
                }
            }
            S::For {
                var,
                tv,
                lo,
                hi,
                inclusive,
                body,
            } => {
                let t = self.cty(*tv, var.as_deref().unwrap_or("_"))?;
                if t.known().is_some_and(|t| !t.is_int()) {
                    return Err(Unsupported::new(
                        "a `for` loop over a range of non-integers".into(),
                    ));
                }
                let (lo, hi) = (self.expr(lo)?, self.expr(hi)?);
                self.temps += 1;
                let (c, e) = (
                    format!("__acc_c{}", self.temps),
                    format!("__acc_e{}", self.temps),
                );
                let tc = t.c().to_string();
                if *inclusive {
                    // A do-while: `continue` reaches the test, and the counter never steps
                    // past `hi` (which may be the type's maximum).
                    self.line(&format!("{{ {tc} {c} = {lo}; const {tc} {e} = {hi};"));
                    self.line(&format!("  if ({c} <= {e}) do {{"));
                } else {
                    self.line(&format!(
                        "for ({tc} {c} = {lo}, {e} = {hi}; {c} < {e}; {c}++) {{"
                    ));
                }
                self.indent += 1;
                if let Some(v) = var {
                    self.line(&format!("{tc} {v} = {c};"));
                }
                self.stmts(body)?;
                self.indent -= 1;
                if *inclusive {
                    self.line(&format!("  }} while ({c} != {e} && (++{c}, true)); }}"));
                } else {
                    self.line("}");
                }
            }
            S::While(c, body) => {
                let c = self.expr(c)?;
                self.line(&format!("while ({c}) {{"));
                self.indent += 1;
                self.stmts(body)?;
                self.indent -= 1;
                self.line("}");
            }
            S::Loop(body) => {
                self.line("for (;;) {");
                self.indent += 1;
                self.stmts(body)?;
                self.indent -= 1;
                self.line("}");
            }
            S::ForEach {
                index,
                var,
                tv,
                over,
                body,
            } => self.for_each(index.as_deref(), var.as_deref(), *tv, over, body)?,
            S::Break => self.line("break;"),
            S::Continue => self.line("continue;"),
            S::Block(b) => {
                self.line("{");
                self.indent += 1;
                self.stmts(b)?;
                self.indent -= 1;
                self.line("}");
            }
        }
        Ok(())
    }

    /// `for x in a`: over an array value's elements (evaluated once) or a slice's.
    fn for_each(
        &mut self,
        index: Option<&str>,
        var: Option<&str>,
        tv: Tv,
        over: &Over,
        body: &[S],
    ) -> Result<(), Unsupported> {
        self.temps += 1;
        let (a, k) = (
            format!("__acc_f{}", self.temps),
            format!("__acc_k{}", self.temps),
        );
        let (len, elem) = match over {
            Over::Array(e) => {
                let v = self.expr(e)?;
                self.line(&format!("{{ const auto &{a} = {v};"));
                (format!("__acc_alen({a})"), format!("{a}.v[{k}]"))
            }
            Over::Slice(s) => {
                self.line("{");
                (format!("{s}_len"), format!("{s}_ptr[{k}]"))
            }
        };
        self.line(&format!(
            "for (unsigned long long {k} = 0; {k} < {len}; {k}++) {{"
        ));
        self.indent += 1;
        if let Some(i) = index {
            self.line(&format!("const unsigned long long {i} = {k};"));
        }
        if let Some(v) = var {
            let t = self.cty(
                tv,
                v.trim_end_matches(|c: char| c == '_' || c.is_ascii_digit()),
            )?;
            self.line(&format!("{} {v} = {elem};", t.c()));
        }
        self.stmts(body)?;
        self.indent -= 1;
        self.line("} }");
        Ok(())
    }

    /// `l op r` where both are C names of type `t` (`None`: a routine's signature decides it).
    pub(super) fn binary_known(
        &mut self,
        op: &BinOp,
        l: &E,
        r: &E,
        t: Option<Ty>,
    ) -> Result<String, Unsupported> {
        let (E::Var(a, _), E::Var(b, _)) = (l, r) else {
            unreachable!()
        };
        let f = self.string(&self.func);
        let w = self.string(&format!(
            "{} {}= ..",
            a.trim_start_matches("__acc_"),
            text(op)
        ));
        Ok(match op {
            _ if t == Some(Ty::Bool)
                && !matches!(op, BinOp::BitAnd(_) | BinOp::BitOr(_) | BinOp::BitXor(_)) =>
            {
                return Err(Unsupported::new("compound arithmetic on a `bool`".into()))
            }
            BinOp::Add(_) => format!("__acc_rs_add({a}, {b})"),
            BinOp::Sub(_) => format!("__acc_rs_sub({a}, {b})"),
            BinOp::Mul(_) => format!("__acc_rs_mul({a}, {b})"),
            BinOp::Div(_) => format!("__acc_rs_div({a}, {b}, {f}, {w})"),
            BinOp::Rem(_) => format!("__acc_rs_rem({a}, {b}, {f}, {w})"),
            _ if t.is_some_and(Ty::is_float) => {
                return Err(Unsupported::new("bit operations on a float".into()))
            }
            BinOp::BitAnd(_) => format!("__acc_rs_and({a}, {b})"),
            BinOp::BitOr(_) => format!("__acc_rs_or({a}, {b})"),
            BinOp::BitXor(_) => format!("__acc_rs_xor({a}, {b})"),
            BinOp::Shl(_) => format!("__acc_rs_shl({a}, {b})"),
            BinOp::Shr(_) => format!("__acc_rs_shr({a}, {b})"),
            _ => return Err(Unsupported::new(format!("the operator `{}=`", text(op)))),
        })
    }
}

pub(super) fn describe(e: &E) -> String {
    match e {
        E::Var(c, _) => c
            .trim_end_matches(|ch: char| ch == '_' || ch.is_ascii_digit())
            .to_string(),
        E::Index(_, _, _, w) => w.clone(),
        E::Num(t, _) => t.clone(),
        E::Len(s) => format!("{s}.len()"),
        E::Field(b, f, _) => format!("{}.{f}", describe(b)),
        E::Elem(_, _, _, w) => w.clone(),
        _ => "an expression".into(),
    }
}

pub(super) fn int_limits(t: Ty) -> (&'static str, &'static str) {
    match t {
        Ty::I8 => ("-128", "127"),
        Ty::I16 => ("-32768", "32767"),
        Ty::I32 => ("(-2147483647 - 1)", "2147483647"),
        Ty::I64 | Ty::Isize => ("(-9223372036854775807LL - 1LL)", "9223372036854775807LL"),
        Ty::U8 => ("0", "255"),
        Ty::U16 => ("0", "65535"),
        Ty::U32 => ("0", "4294967295U"),
        _ => ("0", "18446744073709551615ULL"),
    }
}
