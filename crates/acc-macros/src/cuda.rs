//! The CUDA form of a partitioned loop: a subset of Rust translated to CUDA C, handed to
//! acc-engine's emitter ([`acc_engine::cuda`]).
//!
//! The translation is two steps. [`Translator`] reads the loop body (a `syn` block, after the
//! host expansion rewrote its inner loop directives) into a small typed tree, giving every
//! expression a type variable and unifying them as Rust's inference does for the subset
//! (unsuffixed literals default to `i32`/`f64` when nothing else decides). Then [`emit`] prints
//! C with every type resolved. Anything outside the subset, or any type the subset's inference
//! cannot decide, is an [`Unsupported`] with the Rust text that caused it: the loop then has no
//! CUDA form, never a guessed one.
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
//! with `return` and a tail expression.
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
use acc_engine::directive::ReductionOp;
use proc_macro2::Span;
use quote::ToTokens;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use syn::spanned::Spanned;
use syn::{BinOp, Expr, Lit, Pat, RangeLimits, Stmt, Type, UnOp};

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

/// How a variable of the enclosing function reaches the kernel.
#[derive(Clone, Debug)]
pub enum Outer {
    /// A slice parameter: element type, whether `&mut`.
    Slice(Ty, bool),
    /// A scalar parameter of a known type.
    Scalar(Ty),
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
    pub args: Vec<ArgTy>,
    /// The result's type; `None` when the value is not used, or the signature decides it.
    pub ret: Option<Ty>,
    /// Where the call is.
    pub span: Span,
}

/// The type a call passes for one parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgTy {
    Value(Ty),
    /// A value of the type the routine's signature gives (nothing around the call decides it).
    Signature,
    /// A slice of this element type; whether it is `&mut`.
    Slice(Ty, bool),
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
    pub ret: Option<Ty>,
    pub body: &'a syn::Block,
    pub locals: &'a HashSet<String>,
}

/// A routine as a CUDA `__device__` function: the runtime names it and writes
/// `static __device__ <ret> <name>(<params>) <body>`.
#[derive(Default)]
pub struct TranslatedRoutine {
    pub ret: String,
    pub params: String,
    /// Per Rust parameter, its C type (empty for a slice): callers name these types (see
    /// [`CallSite`]).
    pub param_types: Vec<&'static str>,
    pub body: String,
    pub calls: Vec<CallSite>,
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

// ---- types --------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Link(usize),
    Known(Ty),
    /// An unsuffixed integer literal's type: any integer, `i32` if nothing decides.
    Int,
    /// An unsuffixed float literal's type: `f32` or `f64`, `f64` if nothing decides.
    Float,
    Free,
}

type Tv = usize;

// ---- the typed tree ---------------------------------------------------------------------------

#[derive(Clone)]
enum E {
    /// Integer or float literal text (digits only) and its type.
    Num(String, Tv),
    Bool(bool),
    Var(String, Tv),
    /// A constant of a type: `f64::MAX`.
    Const(&'static str, Tv),
    Bin(BinOp, Box<E>, Box<E>, Tv),
    Neg(Box<E>, Tv),
    Not(Box<E>, Tv),
    Cast(Box<E>, Tv, Ty),
    /// Slice C name, index, element type, the Rust text for the message.
    Index(String, Box<E>, Tv, String),
    Len(String),
    /// Method (Rust name), receiver and arguments; result type.
    Call(&'static str, Vec<E>, Tv),
    /// A routine call: its index in `Translator::calls`, the arguments, the result type.
    Routine(usize, Vec<RArg>, Tv),
    Ternary(Box<E>, Box<E>, Box<E>, Tv),
}

/// An argument of a routine call.
#[derive(Clone)]
enum RArg {
    Value(E),
    /// A slice parameter, passed as its pointer and length.
    Slice(String),
}

impl E {
    /// The type variable the node carries, or the fixed type of a node
    /// that carries none (`true`, `x.len()`).
    fn stored_type(&self) -> Result<Tv, Ty> {
        match self {
            E::Num(_, t)
            | E::Var(_, t)
            | E::Const(_, t)
            | E::Bin(_, _, _, t)
            | E::Neg(_, t)
            | E::Not(_, t)
            | E::Cast(_, t, _)
            | E::Index(_, _, t, _)
            | E::Call(_, _, t)
            | E::Routine(_, _, t)
            | E::Ternary(_, _, _, t) => Ok(*t),
            E::Bool(_) => Err(Ty::Bool),
            E::Len(_) => Err(Ty::Usize),
        }
    }
}

#[derive(Clone)]
enum S {
    Let(String, Tv, Option<E>),
    Expr(E),
    /// Lvalue, operator (`None`: plain assignment), value.
    Assign(E, Option<BinOp>, E),
    If(E, Vec<S>, Vec<S>),
    For {
        var: Option<String>,
        tv: Tv,
        lo: E,
        hi: E,
        inclusive: bool,
        body: Vec<S>,
    },
    While(E, Vec<S>),
    Loop(Vec<S>),
    Break,
    Continue,
    Block(Vec<S>),
    /// In a routine.
    Return(Option<E>),
}

struct Var {
    c: String,
    tv: Tv,
    mutable: bool,
}

/// A call of a routine, as the tree records it (its types are resolved after the translation).
struct Call {
    path: syn::Path,
    alias: String,
    args: Vec<CallArg>,
    /// `None`: the value is not used.
    ret: Option<Tv>,
    span: Span,
}

enum CallArg {
    Value(Tv),
    Slice(Ty, bool),
}

struct Translator<'a> {
    params: &'a HashMap<String, Outer>,
    locals: &'a HashSet<String>,
    /// In a routine: its return type (`None`: `()`). Names that are neither locals nor
    /// parameters are then outside the subset (a kernel captures them from the function).
    routine: Option<Option<Tv>>,
    calls: Vec<Call>,
    /// Types only a routine's signature decides (root type variable → the `#define` that
    /// names the type of a parameter or result of a call; see [`Translator::call_sites`]).
    sym: HashMap<Tv, String>,
    slots: Vec<Slot>,
    scopes: Vec<HashMap<String, Var>>,
    /// Captured scalars of the enclosing function: Rust name, C name, type variable.
    captures: Vec<(String, String, Tv)>,
    slices: Vec<String>,
    names: HashMap<String, usize>,
    loops: usize,
}

impl<'a> Translator<'a> {
    fn new(params: &'a HashMap<String, Outer>, locals: &'a HashSet<String>) -> Self {
        Translator {
            params,
            locals,
            routine: None,
            calls: Vec::new(),
            sym: HashMap::new(),
            slots: Vec::new(),
            scopes: vec![HashMap::new()],
            captures: Vec::new(),
            slices: Vec::new(),
            names: HashMap::new(),
            loops: 0,
        }
    }

    fn fresh(&mut self, s: Slot) -> Tv {
        self.slots.push(s);
        self.slots.len() - 1
    }

    fn known(&mut self, t: Ty) -> Tv {
        self.fresh(Slot::Known(t))
    }

    fn root(&self, mut v: Tv) -> Tv {
        while let Slot::Link(p) = self.slots[v] {
            v = p;
        }
        v
    }

    fn unify(&mut self, a: Tv, b: Tv, at: &impl ToTokens) -> Result<(), Unsupported> {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra == rb {
            return Ok(());
        }
        let merged = match (self.slots[ra], self.slots[rb]) {
            (Slot::Free, s) | (s, Slot::Free) => s,
            (Slot::Int, Slot::Int) => Slot::Int,
            (Slot::Float, Slot::Float) => Slot::Float,
            (Slot::Known(t), Slot::Int) | (Slot::Int, Slot::Known(t)) if t.is_int() => {
                Slot::Known(t)
            }
            (Slot::Known(t), Slot::Float) | (Slot::Float, Slot::Known(t)) if t.is_float() => {
                Slot::Known(t)
            }
            (Slot::Known(x), Slot::Known(y)) if x == y => Slot::Known(x),
            _ => {
                return Err(unsupported(
                    at,
                    "the types of its operands differ in a way the CUDA translation does not \
                     model",
                ))
            }
        };
        self.slots[rb] = merged;
        self.slots[ra] = Slot::Link(rb);
        Ok(())
    }

    /// The type of `v` when the code decided it, not a literal's default.
    fn decided(&self, v: Tv) -> Option<Ty> {
        match self.slots[self.root(v)] {
            Slot::Known(t) => Some(t),
            _ => None,
        }
    }

    fn resolve(&self, v: Tv) -> Option<Ty> {
        match self.slots[self.root(v)] {
            Slot::Known(t) => Some(t),
            Slot::Int => Some(Ty::I32),
            Slot::Float => Some(Ty::F64),
            _ => None,
        }
    }

    fn c_name(&mut self, rust: &str) -> String {
        let n = self.names.entry(rust.to_string()).or_insert(0);
        *n += 1;
        if *n == 1 {
            format!("{rust}_")
        } else {
            format!("{rust}_{n}")
        }
    }

    fn lookup(&self, name: &str) -> Option<&Var> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    fn declare(&mut self, name: &str, tv: Tv, mutable: bool) -> String {
        let c = self.c_name(name);
        self.scopes.last_mut().unwrap().insert(
            name.to_string(),
            Var {
                c: c.clone(),
                tv,
                mutable,
            },
        );
        c
    }

    /// A variable the body names: a local, a captured scalar, or an error for slices.
    fn var(&mut self, name: &str, at: &impl ToTokens) -> Result<(String, Tv, bool), Unsupported> {
        if let Some(v) = self.lookup(name) {
            return Ok((v.c.clone(), v.tv, v.mutable));
        }
        match self.params.get(name) {
            Some(Outer::Slice(..)) => Err(unsupported(
                at,
                "a slice is used other than as `x[i]`, `x.len()` or `x.is_empty()`, or as an \
                 argument of a routine",
            )),
            Some(Outer::Other) => Err(unsupported(
                at,
                "a parameter of a type outside the CUDA subset",
            )),
            _ if self.routine.is_some() => Err(unsupported(
                at,
                "a name from outside the routine (a constant or a static): a routine's CUDA form \
                 sees only its parameters and locals",
            )),
            Some(Outer::Scalar(t)) => {
                let t = *t;
                let tv = self.known(t);
                Ok((self.capture(name, tv), tv, false))
            }
            None => {
                // A local of the enclosing function: typed by its uses here; the launch
                // checks the type the translation assumed against the value's.
                let tv = self.fresh(Slot::Free);
                Ok((self.capture(name, tv), tv, false))
            }
        }
    }

    fn capture(&mut self, name: &str, tv: Tv) -> String {
        let c = format!("{name}_cap");
        self.captures.push((name.to_string(), c.clone(), tv));
        self.scopes[0].insert(
            name.to_string(),
            Var {
                c: c.clone(),
                tv,
                mutable: false,
            },
        );
        c
    }

    fn slice(&mut self, e: &Expr) -> Option<(String, Ty)> {
        if let Expr::Group(g) = e {
            return self.slice(&g.expr);
        }
        let Expr::Path(p) = e else { return None };
        let name = p.path.get_ident()?.to_string();
        if self.lookup(&name).is_some() {
            return None;
        }
        match self.params.get(&name) {
            Some(Outer::Slice(t, _)) => {
                if !self.slices.contains(&name) {
                    self.slices.push(name.clone());
                }
                Some((name, *t))
            }
            _ => None,
        }
    }

    fn block(&mut self, b: &syn::Block) -> Result<Vec<S>, Unsupported> {
        self.scopes.push(HashMap::new());
        let r = self.stmts(&b.stmts);
        self.scopes.pop();
        r
    }

    fn stmts(&mut self, stmts: &[Stmt]) -> Result<Vec<S>, Unsupported> {
        let mut out = Vec::new();
        for s in stmts {
            match s {
                Stmt::Local(l) => {
                    // `let _ = &mut x;` (the host expansion's borrow marker) does nothing.
                    if let Pat::Wild(_) = &l.pat {
                        if let Some(init) = &l.init {
                            if let Expr::Reference(r) = &*init.expr {
                                if matches!(&*r.expr, Expr::Path(_)) {
                                    continue;
                                }
                            }
                        }
                    }
                    let (pat, ty) = match &l.pat {
                        Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
                        p => (p, None),
                    };
                    let Pat::Ident(pi) = pat else {
                        return Err(unsupported(pat, "only `let name` patterns"));
                    };
                    if pi.by_ref.is_some() || pi.subpat.is_some() {
                        return Err(unsupported(pat, "only `let name` patterns"));
                    }
                    let tv = match ty {
                        Some(t) => {
                            let Some(t) = Ty::from_type(t) else {
                                return Err(unsupported(t, "a type outside the CUDA subset"));
                            };
                            self.known(t)
                        }
                        None => self.fresh(Slot::Free),
                    };
                    let init = match &l.init {
                        Some(i) => {
                            if i.diverge.is_some() {
                                return Err(unsupported(l, "`let ... else`"));
                            }
                            let e = self.value(&i.expr)?;
                            let et = self.type_of(&e);
                            self.unify(tv, et, &i.expr)?;
                            Some(e)
                        }
                        None => None,
                    };
                    let c = self.declare(&pi.ident.to_string(), tv, pi.mutability.is_some());
                    out.push(S::Let(c, tv, init));
                }
                Stmt::Expr(e, _) => out.push(self.stmt_expr(e)?),
                Stmt::Item(i) => return Err(unsupported(i, "items inside a kernel")),
                Stmt::Macro(m) => return Err(unsupported(m, "macros inside a kernel")),
            }
        }
        Ok(out)
    }

    fn stmt_expr(&mut self, e: &Expr) -> Result<S, Unsupported> {
        Ok(match e {
            Expr::Assign(a) => {
                let l = self.place(&a.left)?;
                let r = self.value(&a.right)?;
                let (lt, rt) = (self.type_of(&l), self.type_of(&r));
                self.unify(lt, rt, e)?;
                S::Assign(l, None, r)
            }
            Expr::Binary(b) if compound(&b.op).is_some() => {
                let op = compound(&b.op).unwrap();
                let l = self.place(&b.left)?;
                let r = self.value(&b.right)?;
                if !matches!(op, BinOp::Shl(_) | BinOp::Shr(_)) {
                    let (lt, rt) = (self.type_of(&l), self.type_of(&r));
                    self.unify(lt, rt, e)?;
                }
                S::Assign(l, Some(op), r)
            }
            Expr::If(i) => {
                let c = self.expr(&i.cond)?;
                let ct = self.type_of(&c);
                let b = self.known(Ty::Bool);
                self.unify(ct, b, &i.cond)?;
                let then = self.block(&i.then_branch)?;
                let els = match &i.else_branch {
                    None => Vec::new(),
                    Some((_, e)) => match &**e {
                        Expr::Block(b) if b.label.is_none() => self.block(&b.block)?,
                        e => vec![self.stmt_expr(e)?],
                    },
                };
                S::If(c, then, els)
            }
            Expr::ForLoop(f) => {
                if f.label.is_some() {
                    return Err(unsupported(&f.label, "labelled loops"));
                }
                let Expr::Range(r) = &*f.expr else {
                    return Err(unsupported(&f.expr, "`for` over anything but a range"));
                };
                let (Some(lo), Some(hi)) = (&r.start, &r.end) else {
                    return Err(unsupported(r, "open ranges"));
                };
                let (lo, hi) = (self.expr(lo)?, self.expr(hi)?);
                let tv = self.type_of(&lo);
                let ht = self.type_of(&hi);
                self.unify(tv, ht, r)?;
                self.scopes.push(HashMap::new());
                let var = match &*f.pat {
                    Pat::Wild(_) => None,
                    Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                        Some(self.declare(&pi.ident.to_string(), tv, pi.mutability.is_some()))
                    }
                    p => {
                        self.scopes.pop();
                        return Err(unsupported(p, "loop patterns other than a name"));
                    }
                };
                self.loops += 1;
                let body = self.block(&f.body);
                self.loops -= 1;
                self.scopes.pop();
                S::For {
                    var,
                    tv,
                    lo,
                    hi,
                    inclusive: matches!(r.limits, RangeLimits::Closed(_)),
                    body: body?,
                }
            }
            Expr::While(w) => {
                if w.label.is_some() {
                    return Err(unsupported(&w.label, "labelled loops"));
                }
                let c = self.expr(&w.cond)?;
                let ct = self.type_of(&c);
                let b = self.known(Ty::Bool);
                self.unify(ct, b, &w.cond)?;
                self.loops += 1;
                let body = self.block(&w.body);
                self.loops -= 1;
                S::While(c, body?)
            }
            Expr::Loop(l) => {
                if l.label.is_some() {
                    return Err(unsupported(&l.label, "labelled loops"));
                }
                self.loops += 1;
                let body = self.block(&l.body);
                self.loops -= 1;
                S::Loop(body?)
            }
            Expr::Break(b) => {
                if b.label.is_some() || b.expr.is_some() || self.loops == 0 {
                    return Err(unsupported(b, "`break` other than out of an inner loop"));
                }
                S::Break
            }
            Expr::Continue(c) => {
                if c.label.is_some() {
                    return Err(unsupported(c, "labelled `continue`"));
                }
                S::Continue
            }
            Expr::Block(b) if b.label.is_none() => S::Block(self.block(&b.block)?),
            Expr::Paren(p) => self.stmt_expr(&p.expr)?,
            Expr::Call(c) => S::Expr(self.call(c, e, true, false)?),
            Expr::Return(r) if self.routine.is_some() => {
                let ret = self.routine.unwrap();
                match (&r.expr, ret) {
                    (Some(v), Some(rt)) => {
                        let v = self.value(v)?;
                        let vt = self.type_of(&v);
                        self.unify(vt, rt, e)?;
                        S::Return(Some(v))
                    }
                    (None, None) => S::Return(None),
                    _ => {
                        return Err(unsupported(
                            e,
                            "a `return` whose value is not of the routine's return type",
                        ))
                    }
                }
            }
            e => {
                let x = self.expr(e)?;
                S::Expr(x)
            }
        })
    }

    /// An assignable place: a mutable local or a slice element.
    fn place(&mut self, e: &Expr) -> Result<E, Unsupported> {
        match e {
            Expr::Path(p) => {
                let Some(id) = p.path.get_ident() else {
                    return Err(unsupported(e, "not an assignable place"));
                };
                let (c, tv, mutable) = self.var(&id.to_string(), e)?;
                if !mutable {
                    return Err(unsupported(
                        e,
                        "assigns a variable of the enclosing function that is neither private \
                         nor a reduction variable",
                    ));
                }
                Ok(E::Var(c, tv))
            }
            Expr::Index(_) => self.expr(e),
            Expr::Paren(p) => self.place(&p.expr),
            _ => Err(unsupported(e, "not an assignable place")),
        }
    }

    /// An expression whose value is the whole of a statement's (a `let` initializer, the
    /// value of an assignment, a `return`): a routine call there may write slices.
    fn value(&mut self, e: &Expr) -> Result<E, Unsupported> {
        match e {
            Expr::Paren(p) => self.value(&p.expr),
            Expr::Group(g) => self.value(&g.expr),
            Expr::Call(c) => self.call(c, e, true, true),
            e => self.expr(e),
        }
    }

    /// A call: a number type's method (`f64::max(a, b)`) or a routine. `whole`: the call is
    /// all of its statement's value; `used`: its value is used.
    fn call(
        &mut self,
        c: &syn::ExprCall,
        at: &Expr,
        whole: bool,
        used: bool,
    ) -> Result<E, Unsupported> {
        let mut func = &*c.func;
        while let Expr::Paren(syn::ExprParen { expr, .. })
        | Expr::Group(syn::ExprGroup { expr, .. }) = func
        {
            func = expr;
        }
        let Expr::Path(p) = func else {
            return Err(unsupported(at, "calls through an expression"));
        };
        let path = &p.path;
        let segs: Vec<String> = path
            .segments
            .iter()
            .map(|s| syn::ext::IdentExt::unraw(&s.ident).to_string())
            .collect();
        if let (None, [t, m]) = (&p.qself, segs.as_slice()) {
            if let Some(ty) = Ty::from_name(t) {
                let m = m.clone();
                let mut args = Vec::new();
                for a in &c.args {
                    args.push(self.expr(a)?);
                }
                if args.is_empty() {
                    return Err(unsupported(at, "a call outside the CUDA subset"));
                }
                return self.method(&m, args, Some(ty), at);
            }
        }
        if p.qself.is_some() || path.segments.iter().any(|s| !s.arguments.is_none()) {
            return Err(unsupported(
                at,
                "calls of generic functions or through a qualified path",
            ));
        }
        if let [only] = segs.as_slice() {
            if self.lookup(only).is_some()
                || self.params.contains_key(only)
                || self.locals.contains(only)
            {
                return Err(Unsupported::new(format!(
                    "`{}`: `{only}` is a local variable, a parameter or a function declared \
                     inside the function; only `#[acc::routine]` functions declared outside it \
                     have a CUDA form",
                    text(at)
                )));
            }
        }
        let not_a_function = |s: &String| {
            s == "Self"
                || s.starts_with(|c: char| c.is_uppercase())
                || Ty::from_name(s).is_some()
                || matches!(s.as_str(), "str" | "char" | "i128" | "u128")
        };
        if segs.iter().any(not_a_function) {
            return Err(unsupported(
                at,
                "calls outside the CUDA subset (only `#[acc::routine]` functions and the number \
                 types' methods, such as `f64::max(a, b)`, have a CUDA form)",
            ));
        }
        let mut args = Vec::new();
        let mut arg_tys = Vec::new();
        let mut writes = false;
        for a in &c.args {
            if let Some((s, elem)) = self.slice(a) {
                let mutable = matches!(self.params.get(&s), Some(Outer::Slice(_, true)));
                writes |= mutable;
                args.push(RArg::Slice(s));
                arg_tys.push(CallArg::Slice(elem, mutable));
            } else {
                let v = self.expr(a)?;
                arg_tys.push(CallArg::Value(self.type_of(&v)));
                args.push(RArg::Value(v));
            }
        }
        if writes && !whole {
            return Err(unsupported(
                at,
                "a call that may write a slice (it passes a `&mut` slice) inside a larger \
                 expression, whose order of evaluation the CUDA form does not keep; give its \
                 value a name first (`let v = f(y);`)",
            ));
        }
        let ret = self.fresh(Slot::Free);
        self.calls.push(Call {
            path: path.clone(),
            alias: alias(path.leading_colon.is_some(), &segs),
            args: arg_tys,
            ret: used.then_some(ret),
            span: at.span(),
        });
        Ok(E::Routine(self.calls.len() - 1, args, ret))
    }

    /// The calls with their types. The translation cannot see a routine's signature: where
    /// the code around a call does not decide a type (`gcd(i, 36)`, `let s = f(x);`), Rust
    /// takes it from the signature, and so does the C text, which names it by a `#define` the
    /// runtime gives from the routine's own (`__acc_call_3gcd_a1`, `__acc_call_1f_r`).
    fn call_sites(&mut self) -> Vec<CallSite> {
        let mut out = Vec::new();
        let mut sym = std::mem::take(&mut self.sym);
        for c in &self.calls {
            let mut args = Vec::new();
            for (k, a) in c.args.iter().enumerate() {
                args.push(match a {
                    CallArg::Value(tv) => match self.decided(*tv) {
                        Some(t) => ArgTy::Value(t),
                        None => {
                            let r = self.root(*tv);
                            sym.entry(r).or_insert_with(|| format!("{}_a{k}", c.alias));
                            ArgTy::Signature
                        }
                    },
                    CallArg::Slice(t, m) => ArgTy::Slice(*t, *m),
                });
            }
            let ret = c.ret.and_then(|tv| {
                let t = self.decided(tv);
                if t.is_none() {
                    let r = self.root(tv);
                    sym.entry(r).or_insert_with(|| format!("{}_r", c.alias));
                }
                t
            });
            out.push(CallSite {
                path: c.path.clone(),
                alias: c.alias.clone(),
                args,
                ret,
                span: c.span,
            });
        }
        self.sym = sym;
        out
    }

    /// A routine's body: its statements, the tail expression (if any) returned.
    fn value_block(&mut self, b: &syn::Block) -> Result<Vec<S>, Unsupported> {
        self.scopes.push(HashMap::new());
        let r = self.value_stmts(&b.stmts);
        self.scopes.pop();
        r
    }

    fn value_stmts(&mut self, stmts: &[Stmt]) -> Result<Vec<S>, Unsupported> {
        let (init, tail) = match stmts.split_last() {
            Some((Stmt::Expr(e, None), init)) => (init, Some(e)),
            _ => (stmts, None),
        };
        let mut out = self.stmts(init)?;
        if let Some(e) = tail {
            out.extend(self.tail(e)?);
        }
        Ok(out)
    }

    /// A routine's tail expression: `return` its value, through `if`/`else` and blocks.
    fn tail(&mut self, e: &Expr) -> Result<Vec<S>, Unsupported> {
        let Some(Some(ret)) = self.routine else {
            return Ok(vec![self.stmt_expr(e)?]);
        };
        Ok(match e {
            Expr::Paren(p) => self.tail(&p.expr)?,
            Expr::Group(g) => self.tail(&g.expr)?,
            Expr::Block(b) if b.label.is_none() => vec![S::Block(self.value_block(&b.block)?)],
            Expr::If(i) if i.else_branch.is_some() => {
                let c = self.expr(&i.cond)?;
                let ct = self.type_of(&c);
                let b = self.known(Ty::Bool);
                self.unify(ct, b, &i.cond)?;
                let then = self.value_block(&i.then_branch)?;
                let Some((_, els)) = &i.else_branch else {
                    unreachable!()
                };
                let els = match &**els {
                    Expr::Block(b) if b.label.is_none() => self.value_block(&b.block)?,
                    e => self.tail(e)?,
                };
                vec![S::If(c, then, els)]
            }
            Expr::Return(_)
            | Expr::ForLoop(_)
            | Expr::While(_)
            | Expr::Loop(_)
            | Expr::Break(_)
            | Expr::Continue(_) => vec![self.stmt_expr(e)?],
            e => {
                let v = self.value(e)?;
                let vt = self.type_of(&v);
                self.unify(vt, ret, e)?;
                vec![S::Return(Some(v))]
            }
        })
    }

    fn type_of(&mut self, e: &E) -> Tv {
        match e.stored_type() {
            Ok(t) => t,
            Err(ty) => self.known(ty),
        }
    }

    fn expr(&mut self, e: &Expr) -> Result<E, Unsupported> {
        Ok(match e {
            Expr::Lit(l) => self.lit(&l.lit, e)?,
            Expr::Paren(p) => self.expr(&p.expr)?,
            Expr::Group(g) => self.expr(&g.expr)?,
            Expr::Path(p) => {
                if p.qself.is_none() && p.path.segments.len() >= 2 {
                    return self.constant(&p.path, e);
                }
                let Some(id) = p.path.get_ident() else {
                    return Err(unsupported(e, "a path outside the CUDA subset"));
                };
                let (c, tv, _) = self.var(&id.to_string(), e)?;
                E::Var(c, tv)
            }
            Expr::Binary(b) => {
                if compound(&b.op).is_some() {
                    return Err(unsupported(e, "compound assignment as a value"));
                }
                let l = self.expr(&b.left)?;
                let r = self.expr(&b.right)?;
                let (lt, rt) = (self.type_of(&l), self.type_of(&r));
                let t = match b.op {
                    BinOp::Add(_)
                    | BinOp::Sub(_)
                    | BinOp::Mul(_)
                    | BinOp::Div(_)
                    | BinOp::Rem(_)
                    | BinOp::BitAnd(_)
                    | BinOp::BitOr(_)
                    | BinOp::BitXor(_) => {
                        self.unify(lt, rt, e)?;
                        lt
                    }
                    BinOp::Shl(_) | BinOp::Shr(_) => lt,
                    BinOp::Eq(_)
                    | BinOp::Ne(_)
                    | BinOp::Lt(_)
                    | BinOp::Le(_)
                    | BinOp::Gt(_)
                    | BinOp::Ge(_) => {
                        self.unify(lt, rt, e)?;
                        self.known(Ty::Bool)
                    }
                    BinOp::And(_) | BinOp::Or(_) => {
                        let bt = self.known(Ty::Bool);
                        self.unify(lt, bt, &b.left)?;
                        self.unify(rt, bt, &b.right)?;
                        bt
                    }
                    _ => return Err(unsupported(e, "an operator outside the CUDA subset")),
                };
                E::Bin(b.op, Box::new(l), Box::new(r), t)
            }
            Expr::Unary(u) => {
                let x = self.expr(&u.expr)?;
                let t = self.type_of(&x);
                match u.op {
                    UnOp::Neg(_) => E::Neg(Box::new(x), t),
                    UnOp::Not(_) => E::Not(Box::new(x), t),
                    _ => return Err(unsupported(e, "dereference")),
                }
            }
            Expr::Cast(c) => {
                let Some(to) = Ty::from_type(&c.ty) else {
                    return Err(unsupported(
                        &c.ty,
                        "a cast to a type outside the CUDA subset",
                    ));
                };
                let x = self.expr(&c.expr)?;
                let t = self.known(to);
                E::Cast(Box::new(x), t, to)
            }
            Expr::Index(i) => {
                let Some((c, elem)) = self.slice(&i.expr) else {
                    return Err(unsupported(e, "indexing anything but a slice parameter"));
                };
                if matches!(&*i.index, Expr::Range(_)) {
                    return Err(unsupported(e, "subslices"));
                }
                let ix = self.expr(&i.index)?;
                let it = self.type_of(&ix);
                let u = self.known(Ty::Usize);
                self.unify(it, u, &i.index)?;
                let t = self.known(elem);
                E::Index(c, Box::new(ix), t, text(e))
            }
            Expr::MethodCall(m) => {
                if m.turbofish.is_some() {
                    return Err(unsupported(e, "turbofish"));
                }
                let name = m.method.to_string();
                if name == "len" || name == "is_empty" {
                    if let Some((c, _)) = self.slice(&m.receiver) {
                        if !m.args.is_empty() {
                            return Err(unsupported(e, "arguments to `len`"));
                        }
                        return Ok(if name == "len" {
                            E::Len(c)
                        } else {
                            let z = self.known(Ty::Usize);
                            let b = self.known(Ty::Bool);
                            E::Bin(
                                syn::parse_quote!(==),
                                Box::new(E::Len(c)),
                                Box::new(E::Num("0".into(), z)),
                                b,
                            )
                        });
                    }
                }
                let mut args = vec![self.expr(&m.receiver)?];
                for a in &m.args {
                    args.push(self.expr(a)?);
                }
                self.method(&name, args, None, e)?
            }
            Expr::Call(c) => self.call(c, e, false, true)?,
            Expr::If(i) => {
                let then = block_value(&i.then_branch);
                let els = match &i.else_branch {
                    Some((_, e)) => match &**e {
                        Expr::Block(b) => block_value(&b.block),
                        e @ Expr::If(_) => Some(e),
                        _ => None,
                    },
                    None => None,
                };
                let (Some(a), Some(b)) = (then, els) else {
                    return Err(unsupported(
                        e,
                        "`if` as a value whose branches are not single expressions",
                    ));
                };
                let c = self.expr(&i.cond)?;
                let ct = self.type_of(&c);
                let bt = self.known(Ty::Bool);
                self.unify(ct, bt, &i.cond)?;
                let (a, b) = (self.expr(a)?, self.expr(b)?);
                let (at, btv) = (self.type_of(&a), self.type_of(&b));
                self.unify(at, btv, e)?;
                E::Ternary(Box::new(c), Box::new(a), Box::new(b), at)
            }
            Expr::Block(b) if b.label.is_none() => match block_value(&b.block) {
                Some(x) => self.expr(x)?,
                None => return Err(unsupported(e, "a block as a value")),
            },
            _ => return Err(unsupported(e, "an expression outside the CUDA subset")),
        })
    }

    fn lit(&mut self, l: &Lit, at: &Expr) -> Result<E, Unsupported> {
        Ok(match l {
            Lit::Bool(b) => E::Bool(b.value),
            Lit::Int(i) => {
                let slot = match i.suffix() {
                    "" => Slot::Int,
                    s => match Ty::from_name(s) {
                        Some(t) => Slot::Known(t),
                        None => return Err(unsupported(at, "a literal outside the CUDA subset")),
                    },
                };
                let v: u64 = i
                    .base10_parse()
                    .map_err(|_| unsupported(at, "an integer literal wider than 64 bits"))?;
                let tv = self.fresh(slot);
                E::Num(v.to_string(), tv)
            }
            Lit::Float(f) => {
                let slot = match f.suffix() {
                    "" => Slot::Float,
                    "f32" => Slot::Known(Ty::F32),
                    "f64" => Slot::Known(Ty::F64),
                    _ => return Err(unsupported(at, "a literal outside the CUDA subset")),
                };
                let digits = f.base10_digits().replace('_', "");
                let tv = self.fresh(slot);
                let mut d = digits;
                if !d.contains(['.', 'e', 'E']) {
                    d.push_str(".0");
                }
                E::Num(d, tv)
            }
            _ => return Err(unsupported(at, "a literal outside the CUDA subset")),
        })
    }

    fn constant(&mut self, p: &syn::Path, at: &Expr) -> Result<E, Unsupported> {
        let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        let segs: Vec<&str> = segs.iter().map(|s| s.as_str()).collect();
        let tail = match segs.as_slice() {
            ["std" | "core", rest @ ..] => rest,
            s => s,
        };
        let (ty, name) = match tail {
            [t, "consts", "PI"] => (Ty::from_name(t), "PI"),
            [t, n] => (Ty::from_name(t), *n),
            _ => (None, ""),
        };
        let Some(ty) = ty else {
            return Err(unsupported(at, "a path outside the CUDA subset"));
        };
        let c: &'static str = match (ty, name) {
            (Ty::F64, "PI") => "3.141592653589793",
            (Ty::F32, "PI") => "3.14159265f",
            (Ty::F64, "MAX") => "1.7976931348623157e308",
            (Ty::F64, "MIN") => "-1.7976931348623157e308",
            (Ty::F32, "MAX") => "3.40282347e38f",
            (Ty::F32, "MIN") => "-3.40282347e38f",
            (Ty::F64, "EPSILON") => "2.220446049250313e-16",
            (Ty::F32, "EPSILON") => "1.1920929e-7f",
            (Ty::F64, "INFINITY") => "__longlong_as_double(0x7ff0000000000000LL)",
            (Ty::F64, "NEG_INFINITY") => "__longlong_as_double((long long)0xfff0000000000000ULL)",
            (Ty::F64, "NAN") => "__longlong_as_double(0x7ff8000000000000LL)",
            (Ty::F32, "INFINITY") => "__int_as_float(0x7f800000)",
            (Ty::F32, "NEG_INFINITY") => "__int_as_float((int)0xff800000U)",
            (Ty::F32, "NAN") => "__int_as_float(0x7fc00000)",
            (t, "MAX") if t.is_int() => match t {
                Ty::I8 => "((signed char)127)",
                Ty::I16 => "((short)32767)",
                Ty::I32 => "2147483647",
                Ty::I64 | Ty::Isize => "9223372036854775807LL",
                Ty::U8 => "((unsigned char)255)",
                Ty::U16 => "((unsigned short)65535)",
                Ty::U32 => "4294967295U",
                _ => "18446744073709551615ULL",
            },
            (t, "MIN") if t.is_int() => match t {
                Ty::I8 => "((signed char)-128)",
                Ty::I16 => "((short)-32768)",
                Ty::I32 => "(-2147483647 - 1)",
                Ty::I64 | Ty::Isize => "(-9223372036854775807LL - 1LL)",
                Ty::U8 => "((unsigned char)0)",
                Ty::U16 => "((unsigned short)0)",
                Ty::U32 => "0U",
                _ => "0ULL",
            },
            _ => return Err(unsupported(at, "a constant outside the CUDA subset")),
        };
        let tv = self.known(ty);
        Ok(E::Const(c, tv))
    }

    fn method(
        &mut self,
        name: &str,
        args: Vec<E>,
        ty: Option<Ty>,
        at: &Expr,
    ) -> Result<E, Unsupported> {
        let m: &'static str = match name {
            "sqrt" => "sqrt",
            "abs" => "abs",
            "min" => "min",
            "max" => "max",
            "powi" => "powi",
            "powf" => "powf",
            "exp" => "exp",
            "ln" => "ln",
            "sin" => "sin",
            "cos" => "cos",
            "floor" => "floor",
            "ceil" => "ceil",
            "mul_add" => "mul_add",
            _ => return Err(unsupported(at, "a method outside the CUDA subset")),
        };
        let arity = match m {
            "min" | "max" | "powi" | "powf" => 2,
            "mul_add" => 3,
            _ => 1,
        };
        if args.len() != arity {
            return Err(unsupported(at, "a call with the wrong number of arguments"));
        }
        let t = self.type_of(&args[0]);
        if let Some(ty) = ty {
            let k = self.known(ty);
            self.unify(t, k, at)?;
        }
        for (i, a) in args.iter().enumerate().skip(1) {
            let at_ = self.type_of(a);
            if m == "powi" {
                let k = self.known(Ty::I32);
                self.unify(at_, k, at)?;
            } else {
                self.unify(t, at_, at)?;
            }
            let _ = i;
        }
        Ok(E::Call(m, args, t))
    }
}

/// The C name a routine call goes through, from the path as written: each segment prefixed
/// with its length, so two paths never share one (`util::half` is `__acc_call_4util_4half`).
fn alias(global: bool, segs: &[String]) -> String {
    let mut s = String::from("__acc_call");
    if global {
        s.push_str("_g");
    }
    for seg in segs {
        let _ = write!(s, "_{}{seg}", seg.len());
    }
    s
}

fn block_value(b: &syn::Block) -> Option<&Expr> {
    match b.stmts.as_slice() {
        [Stmt::Expr(e, None)] => Some(e),
        _ => None,
    }
}

fn compound(op: &BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::AddAssign(_) => syn::parse_quote!(+),
        BinOp::SubAssign(_) => syn::parse_quote!(-),
        BinOp::MulAssign(_) => syn::parse_quote!(*),
        BinOp::DivAssign(_) => syn::parse_quote!(/),
        BinOp::RemAssign(_) => syn::parse_quote!(%),
        BinOp::BitAndAssign(_) => syn::parse_quote!(&),
        BinOp::BitOrAssign(_) => syn::parse_quote!(|),
        BinOp::BitXorAssign(_) => syn::parse_quote!(^),
        BinOp::ShlAssign(_) => syn::parse_quote!(<<),
        BinOp::ShrAssign(_) => syn::parse_quote!(>>),
        _ => return None,
    })
}

// ---- emission ---------------------------------------------------------------------------------

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
  static __device__ __forceinline__ T __acc_rs_mul_add(T a, T b, T c) { return fma##SFX(a, b, c); }
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
template <class To, class From> static __device__ __forceinline__ To __acc_as(From v) { return (To)v; }
template <class To> static __device__ __forceinline__ To __acc_as(float v) { return __acc_from_float<To>::cast(v); }
template <class To> static __device__ __forceinline__ To __acc_as(double v) { return __acc_from_float<To>::cast(v); }
"#;

struct Emitter<'t> {
    t: &'t Translator<'t>,
    out: String,
    indent: usize,
    func: String,
    temps: usize,
}

/// A C type: one of the subset's, or one only a routine's signature decides, named by the
/// runtime's `#define`, with the kind of literal its values unified with ([`Slot::Int`],
/// [`Slot::Float`], or [`Slot::Free`]).
#[derive(Clone, PartialEq)]
enum CTy {
    Ty(Ty),
    Sym(String, Slot),
}

impl CTy {
    /// The subset type; `None` when a signature decides it. The Rust rules that typed
    /// emission checks (no `-` on unsigned, no bit operations on floats, ...) rustc checks then.
    fn known(&self) -> Option<Ty> {
        match self {
            CTy::Ty(t) => Some(*t),
            CTy::Sym(..) => None,
        }
    }

    fn c(&self) -> &str {
        match self {
            CTy::Ty(t) => t.c(),
            CTy::Sym(name, _) => name,
        }
    }
}

impl Emitter<'_> {
    /// A subset type, as kernel parameters, loop levels and reductions need.
    fn ty(&self, tv: Tv, what: &str) -> Result<Ty, Unsupported> {
        let sym = self.t.decided(tv).is_none() && self.t.sym.contains_key(&self.t.root(tv));
        self.t.resolve(tv).filter(|_| !sym).ok_or_else(|| {
            Unsupported::new(format!(
                "the type of `{what}` cannot be inferred for the CUDA translation; annotate it \
                 (`let {what}: f64 = ...`)"
            ))
        })
    }

    fn cty(&self, tv: Tv, what: &str) -> Result<CTy, Unsupported> {
        if self.t.decided(tv).is_none() {
            let r = self.t.root(tv);
            if let Some(name) = self.t.sym.get(&r) {
                return Ok(CTy::Sym(name.clone(), self.t.slots[r]));
            }
        }
        self.ty(tv, what).map(CTy::Ty)
    }

    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn expr_ty(&self, e: &E) -> Result<CTy, Unsupported> {
        match e.stored_type() {
            Ok(t) => self.cty(t, &describe(e)),
            Err(ty) => Ok(CTy::Ty(ty)),
        }
    }

    fn string(&self, s: &str) -> String {
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

    fn expr(&mut self, e: &E) -> Result<String, Unsupported> {
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
                if t == Some(Ty::Bool) {
                    return Err(Unsupported::new("`-` on a `bool`".into()));
                }
                if t.is_some_and(|t| !t.is_signed() && t.is_int()) {
                    return Err(Unsupported::new("`-` on an unsigned integer".into()));
                }
                format!("__acc_rs_neg({})", self.expr(x)?)
            }
            E::Not(x, _) => {
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
                let mut vs = Vec::new();
                for a in args {
                    vs.push(self.expr(a)?);
                }
                let int_ok = matches!(*m, "abs" | "min" | "max");
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
        })
    }

    fn routine_call(&mut self, i: usize, args: &[RArg]) -> Result<String, Unsupported> {
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

    fn binary(&mut self, op: &BinOp, l: &E, r: &E) -> Result<String, Unsupported> {
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

    fn stmts(&mut self, ss: &[S]) -> Result<(), Unsupported> {
        for s in ss {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &S) -> Result<(), Unsupported> {
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

    /// `l op r` where both are C names of type `t` (`None`: a routine's signature decides it).
    fn binary_known(
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

fn describe(e: &E) -> String {
    match e {
        E::Var(c, _) => c
            .trim_end_matches(|ch: char| ch == '_' || ch.is_ascii_digit())
            .to_string(),
        E::Index(_, _, _, w) => w.clone(),
        E::Num(t, _) => t.clone(),
        E::Len(s) => format!("{s}.len()"),
        _ => "an expression".into(),
    }
}

fn int_limits(t: Ty) -> (&'static str, &'static str) {
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

/// Translates one partitioned loop (the nest of `levels` around `body`) into a kernel; with no
/// levels, host code that touches slices, run once on one GPU thread ([`Mode::Single`]).
///
/// [`Mode::Single`]: acc_engine::cuda::Mode::Single
pub fn translate(input: &Input<'_>) -> Result<Translated, Unsupported> {
    let mut t = Translator::new(input.params, input.locals);
    // The bounds are evaluated on the host; here they only type the index variables.
    let mut level_tvs = Vec::new();
    for l in input.levels {
        let lo = t.expr(&l.lo);
        let hi = t.expr(&l.hi);
        let tv = t.fresh(Slot::Free);
        if let Ok(lo) = &lo {
            let lt = t.type_of(lo);
            t.unify(tv, lt, &l.lo)?;
        }
        if let Ok(hi) = &hi {
            let ht = t.type_of(hi);
            t.unify(tv, ht, &l.hi)?;
        }
        level_tvs.push(tv);
    }
    // Bounds may name things outside the subset (the host evaluates them): forget what they
    // captured, so the kernel does not receive them.
    t.captures.clear();
    t.slices.clear();
    t.calls.clear();
    t.scopes = vec![HashMap::new()];
    t.names.clear();
    let mut level_names = Vec::new();
    t.scopes.push(HashMap::new());
    for (l, tv) in input.levels.iter().zip(&level_tvs) {
        level_names.push(l.var.as_ref().map(|v| t.declare(v, *tv, false)));
    }
    // Per-thread copies (compute-level private/firstprivate) and reduction copies.
    let mut per_thread = Vec::new();
    for name in input
        .per_chunk
        .iter()
        .chain(input.reductions.iter().map(|(_, v)| v))
    {
        if input
            .levels
            .iter()
            .any(|l| l.var.as_deref() == Some(name.as_str()))
        {
            continue;
        }
        let (outer, tv, _) = t
            .var(name, &syn::Ident::new("x", proc_macro2::Span::call_site()))
            .map_err(|_| {
                Unsupported::new(format!(
                    "`{name}` is a slice: only scalars are private or reduced here"
                ))
            })?;
        t.scopes.push(HashMap::new());
        let c = t.declare(name, tv, true);
        // Keep the declaration visible to the body: move it into the level scope.
        let v = t.scopes.pop().unwrap().remove(name).unwrap();
        t.scopes.last_mut().unwrap().insert(name.clone(), v);
        per_thread.push((name.clone(), outer, c, tv));
    }
    // The body, with loop-private copies made per iteration.
    let privates: Vec<syn::Ident> = input
        .privates
        .iter()
        .map(|p| syn::Ident::new(p, proc_macro2::Span::call_site()))
        .collect();
    let mut block_stmts: Vec<Stmt> = privates
        .iter()
        .map(|p| syn::parse_quote!(let mut #p = #p;))
        .collect();
    block_stmts.extend(input.body.stmts.iter().cloned());
    let body = t.stmts(&block_stmts)?;
    let calls = t.call_sites();

    // Emission.
    let red_names: Vec<&str> = input.reductions.iter().map(|(_, v)| v.as_str()).collect();
    let mut em = Emitter {
        t: &t,
        out: String::new(),
        indent: 1,
        func: input.function.to_string(),
        temps: 0,
    };
    let mut args = Vec::new();
    let mut params = Vec::new();
    let mut decls = String::new();
    for s in &t.slices {
        let Some(Outer::Slice(elem, mutable)) = input.params.get(s) else {
            unreachable!()
        };
        let i = args.len();
        let cst = if *mutable { "" } else { "const " };
        let _ = writeln!(
            decls,
            "  {cst}{} *const {s}_ptr = *({cst}{} *const *)__acc_args[{i}];",
            elem.c(),
            elem.c()
        );
        args.push(ArgSpec::Slice(s.clone()));
        params.push(acc_engine::cuda::CudaParam::Pointer);
        let i = args.len();
        let _ = writeln!(
            decls,
            "  const unsigned long long {s}_len = *(const unsigned long long *)__acc_args[{i}];"
        );
        args.push(ArgSpec::Len(s.clone()));
        params.push(acc_engine::cuda::CudaParam::Value {
            decl: "unsigned long long v".into(),
        });
    }
    let mut seen = Vec::new();
    for (name, c, tv) in &t.captures {
        if seen.contains(name) || red_names.contains(&name.as_str()) {
            continue;
        }
        seen.push(name.clone());
        let ty = em.cty(*tv, name)?;
        let i = args.len();
        let _ = writeln!(
            decls,
            "  const {} {c} = *(const {} *)__acc_args[{i}];",
            ty.c(),
            ty.c()
        );
        args.push(match ty.known() {
            Some(t) => ArgSpec::Value(name.clone(), t),
            None => ArgSpec::Signature(name.clone()),
        });
        params.push(acc_engine::cuda::CudaParam::Value {
            decl: format!("{} v", ty.c()),
        });
    }
    let mut level_tys = Vec::new();
    for (j, (l, tv)) in input.levels.iter().zip(&level_tvs).enumerate() {
        let ty = em.ty(*tv, l.var.as_deref().unwrap_or("_"))?;
        if !ty.is_int() {
            return Err(Unsupported::new(
                "a partitioned loop over a range of non-integers".into(),
            ));
        }
        level_tys.push(ty);
        let i = args.len();
        let _ = writeln!(
            decls,
            "  const {} __acc_lo{j} = *(const {} *)__acc_args[{i}];",
            ty.c(),
            ty.c()
        );
        args.push(ArgSpec::Lo(j, ty));
        params.push(acc_engine::cuda::CudaParam::Value {
            decl: format!("{} v", ty.c()),
        });
        let i = args.len();
        let _ = writeln!(
            decls,
            "  const long long __acc_n{j} = *(const long long *)__acc_args[{i}];"
        );
        args.push(ArgSpec::Count(j));
        params.push(acc_engine::cuda::CudaParam::Value {
            decl: "long long v".into(),
        });
    }
    let mut reductions = Vec::new();
    let mut cuda_reds = Vec::new();
    let mut slot_bytes = Vec::new();
    for (name, outer, c, tv) in &per_thread {
        let ty = em.cty(*tv, name)?;
        if let Some(j) = red_names.iter().position(|r| r == name) {
            let _ = writeln!(decls, "  {} {c} = *({} *)__acc_slot[{j}];", ty.c(), ty.c());
            let _ = outer;
        } else {
            let _ = writeln!(decls, "  {} {c} = {outer};", ty.c());
        }
    }
    for (op, name) in input.reductions {
        let Some((_, _, c, tv)) = per_thread.iter().find(|p| &p.0 == name) else {
            return Err(Unsupported::new(format!(
                "the reduction variable `{name}` is a loop index"
            )));
        };
        let ty = em.cty(*tv, name)?;
        if let Some(t) = ty.known() {
            let ok = match op {
                ReductionOp::BitAnd | ReductionOp::BitOr | ReductionOp::BitXor => t.is_int(),
                ReductionOp::LogAnd | ReductionOp::LogOr => !t.is_float(),
                _ => t != Ty::Bool,
            };
            if !ok {
                return Err(Unsupported::new(format!(
                    "reduction on `{name}`: `{}`",
                    t.rust()
                )));
            }
        }
        reductions.push(ty.known());
        slot_bytes.push(format!("sizeof({})", ty.c()));
        cuda_reds.push(acc_engine::cuda::CudaReduction {
            op: *op,
            ty: ty.c().into(),
            var: c.clone(),
            slot: cuda_reds.len(),
        });
    }
    // The grid-stride loop over the flattened nest, outer levels first.
    let total = if input.levels.is_empty() {
        "1".to_string()
    } else {
        (0..input.levels.len())
            .map(|j| format!("__acc_n{j}"))
            .collect::<Vec<_>>()
            .join(" * ")
    };
    em.line(&format!("const long long __acc_total = {total};"));
    em.line("for (long long __acc_k = __ACC_FIRST(__acc_total); __acc_k < __ACC_END(__acc_total); __acc_k += __ACC_STEP) {");
    em.indent += 1;
    em.line("long long __acc_rest = __acc_k;");
    let n = input.levels.len();
    let mut at = vec![String::new(); n];
    for j in (0..n).rev() {
        em.line(&format!(
            "const long long __acc_at{j} = __acc_rest % __acc_n{j}; __acc_rest /= __acc_n{j};"
        ));
        at[j] = format!("__acc_at{j}");
    }
    for (j, name) in level_names.iter().enumerate() {
        if let Some(c) = name {
            let ty = level_tys[j];
            // lo + k in the index type, wrapping as `nth` does on the host.
            em.line(&format!(
                "const {} {c} = ({})((unsigned long long)__acc_lo{j} + (unsigned long long)__acc_at{j});",
                ty.c(),
                ty.c()
            ));
        }
    }
    em.line("{");
    em.indent += 1;
    em.stmts(&body)?;
    em.indent -= 1;
    em.line("}");
    em.indent -= 1;
    em.line("}");
    let body_text = std::mem::take(&mut em.out);
    let kernel = acc_engine::cuda::CudaKernel {
        entry: input.entry.clone(),
        file: input.function.to_string(),
        line: 1,
        params,
        slot_bytes,
        reductions: cuda_reds,
        types: String::new(),
        decls,
        body: body_text,
        store: String::new(),
        mode: if input.levels.is_empty() {
            acc_engine::cuda::Mode::Single
        } else {
            acc_engine::cuda::Mode::Threads
        },
    };
    Ok(Translated {
        kernel,
        args,
        reductions,
        calls,
    })
}

/// Translates an `#[acc::routine]` function into the parts of a `__device__` function. Scalar
/// parameters are C parameters of their type, slices a pointer and a length (`x_ptr`,
/// `x_len`), as in kernels.
pub fn translate_routine(input: &RoutineInput<'_>) -> Result<TranslatedRoutine, Unsupported> {
    let mut slices = HashMap::new();
    for (name, outer, _) in input.params {
        match outer {
            Outer::Slice(..) => {
                slices.insert(name.clone(), outer.clone());
            }
            Outer::Scalar(_) => {}
            Outer::Other => {
                return Err(Unsupported::new(format!(
                    "the parameter `{name}` has a type outside the CUDA subset"
                )))
            }
        }
    }
    let mut t = Translator::new(&slices, input.locals);
    let ret = input.ret.map(|r| t.known(r));
    t.routine = Some(ret);
    let mut params = Vec::new();
    let mut param_types = Vec::new();
    for (name, outer, mutable) in input.params {
        param_types.push(match outer {
            Outer::Scalar(ty) => ty.c(),
            _ => "",
        });
        match outer {
            Outer::Scalar(ty) => {
                let tv = t.known(*ty);
                let c = t.declare(name, tv, *mutable);
                let cst = if *mutable { "" } else { "const " };
                params.push(format!("{cst}{} {c}", ty.c()));
            }
            Outer::Slice(elem, mutable) => {
                let cst = if *mutable { "" } else { "const " };
                params.push(format!("{cst}{} *const {name}_ptr", elem.c()));
                params.push(format!("const unsigned long long {name}_len"));
            }
            Outer::Other => unreachable!("rejected above"),
        }
    }
    let body = t.value_block(input.body)?;
    let calls = t.call_sites();
    let mut em = Emitter {
        t: &t,
        out: String::new(),
        indent: 1,
        func: input.function.to_string(),
        temps: 0,
    };
    em.stmts(&body)?;
    let body = format!("{{\n{}}}\n", em.out);
    Ok(TranslatedRoutine {
        ret: input.ret.map_or("void", Ty::c).to_string(),
        params: if params.is_empty() {
            "void".into()
        } else {
            params.join(", ")
        },
        param_types,
        body,
        calls,
    })
}

#[cfg(test)]
mod tests;
