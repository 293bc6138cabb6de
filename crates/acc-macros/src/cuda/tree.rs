//! The typed tree of a translation and its type inference.
//!
//! Owns the tree the subset is read into ([`E`] expressions, [`S`] statements, the routine
//! [`Call`]s they make) and the [`Translator`]'s state: scopes, C names, captures and the type
//! variables ([`Slot`]) unified as Rust's inference does for the subset (an unsuffixed literal
//! is `i32`/`f64` when nothing else decides). It does not read `syn` beyond keeping the paths
//! and spans it is given, and knows nothing of C text ([`super::emit`] reads the tree).
//!
//! Invariants: a type variable is an index into `slots`; unification links one root to
//! another, so every chain ends at a root (no cycles); `resolve` and `call_sites` are only
//! meaningful after the whole body was read, when every unification Rust would make is made.

use super::{unsupported, ArgTy, CallSite, Elem, Named, Outer, Ty, Unsupported};
use proc_macro2::Span;
use quote::ToTokens;
use std::collections::{HashMap, HashSet};
use syn::BinOp;

// ---- types --------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    Link(usize),
    Known(Ty),
    /// An unsuffixed integer literal's type: any integer, `i32` if nothing decides.
    Int,
    /// An unsuffixed float literal's type: `f32` or `f64`, `f64` if nothing decides.
    Float,
    Free,
    /// A user type: its index in `Translator::named`.
    Named(usize),
    /// An array built in the kernel (`[a, b]`, `[x; 3]`): its index in `Translator::arrays`.
    Arr(usize),
    /// A generic compute function's type parameter: its index in `Translator::generics`.
    Generic(usize),
}

pub(super) type Tv = usize;

// ---- the typed tree ---------------------------------------------------------------------------

#[derive(Clone)]
pub(super) enum E {
    /// Integer or float literal text (digits only) and its type.
    Num(String, Tv),
    Bool(bool),
    Var(String, Tv),
    /// A constant of a type: `f64::MAX`.
    Const(String, Tv),
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
    /// A field of a struct value.
    Field(Box<E>, String, Tv),
    /// An element of an array value: the array, the index, the Rust text for the message.
    Elem(Box<E>, Box<E>, Tv, String),
    /// A struct literal: the fields in the order written, with their values.
    Struct(Vec<(String, E)>, Tv),
    /// `[a, b, c]`.
    Array(Vec<E>, Tv),
    /// `[x; n]`.
    Repeat(Box<E>, u64, Tv),
    /// `a.len()` of an array value.
    ALen(Box<E>),
}

/// What a `for` loop other than over a range goes over.
#[derive(Clone)]
pub(super) enum Over {
    /// An array value.
    Array(E),
    /// A slice parameter (its C name).
    Slice(String),
}

/// What a member access reads: a struct's field, or an array's element.
#[derive(Clone)]
pub(super) enum Member {
    Field(String),
    Elem,
}

/// An argument of a routine call.
#[derive(Clone)]
pub(super) enum RArg {
    Value(E),
    /// A slice parameter, passed as its pointer and length.
    Slice(String),
}

impl E {
    /// The type variable the node carries, or the fixed type of a node
    /// that carries none (`true`, `x.len()`).
    pub(super) fn stored_type(&self) -> Result<Tv, Ty> {
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
            | E::Ternary(_, _, _, t)
            | E::Field(_, _, t)
            | E::Elem(_, _, t, _)
            | E::Struct(_, t)
            | E::Array(_, t)
            | E::Repeat(_, _, t) => Ok(*t),
            E::Bool(_) => Err(Ty::Bool),
            E::Len(_) | E::ALen(_) => Err(Ty::Usize),
        }
    }
}

#[derive(Clone)]
pub(super) enum S {
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
    /// `for x in a` over an array or a slice's elements.
    ForEach {
        /// `for (k, x) in a.iter().enumerate()`: `k`.
        index: Option<String>,
        var: Option<String>,
        tv: Tv,
        over: Over,
        body: Vec<S>,
    },
    Break,
    Continue,
    Block(Vec<S>),
    /// In a routine.
    Return(Option<E>),
}

pub(super) struct Var {
    pub(super) c: String,
    pub(super) tv: Tv,
    pub(super) mutable: bool,
}

/// A call of a routine, as the tree records it (its types are resolved after the translation).
pub(super) struct Call {
    pub(super) path: syn::Path,
    pub(super) alias: String,
    /// A method routine: `path` is the type's path and the method's name.
    pub(super) method: bool,
    pub(super) args: Vec<CallArg>,
    /// `None`: the value is not used.
    pub(super) ret: Option<Tv>,
    pub(super) span: Span,
}

pub(super) enum CallArg {
    Value(Tv),
    Slice(Elem, bool),
}

pub(super) struct Translator<'a> {
    pub(super) params: &'a HashMap<String, Outer>,
    pub(super) locals: &'a HashSet<String>,
    /// In a routine: its return type (`None`: `()`). Names that are neither locals nor
    /// parameters are then outside the subset (a kernel captures them from the function).
    pub(super) routine: Option<Option<Tv>>,
    pub(super) calls: Vec<Call>,
    /// Types only a routine's signature decides (root type variable → the `#define` that
    /// names the type of a parameter or result of a call; see [`Translator::call_sites`]).
    pub(super) sym: HashMap<Tv, String>,
    pub(super) slots: Vec<Slot>,
    pub(super) scopes: Vec<HashMap<String, Var>>,
    /// Captured scalars of the enclosing function: Rust name, C name, type variable.
    pub(super) captures: Vec<(String, String, Tv)>,
    pub(super) slices: Vec<String>,
    pub(super) names: HashMap<String, usize>,
    pub(super) loops: usize,
    /// The user types named so far.
    pub(super) named: Vec<Named>,
    /// Member accesses: the result's type variable, the accessed value's, what is read. Their
    /// types are Rust's, which only rustc knows: the C text names them by `decltype`.
    pub(super) members: Vec<(Tv, Tv, Member)>,
    /// Arrays built in the kernel: the elements' type variable, the length.
    pub(super) arrays: Vec<(Tv, u64)>,
    /// The type parameters named so far.
    pub(super) generics: Vec<Named>,
}

impl<'a> Translator<'a> {
    pub(super) fn new(params: &'a HashMap<String, Outer>, locals: &'a HashSet<String>) -> Self {
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
            named: Vec::new(),
            members: Vec::new(),
            arrays: Vec::new(),
            generics: Vec::new(),
        }
    }

    /// A type variable of the user type `n`.
    pub(super) fn named_tv(&mut self, n: &Named) -> Tv {
        let k = match self.named.iter().position(|m| m.alias == n.alias) {
            Some(k) => k,
            None => {
                self.named.push(n.clone());
                self.named.len() - 1
            }
        };
        self.fresh(Slot::Named(k))
    }

    /// Whether `tv` is an array type (built in the kernel, or a user `[T; N]`).
    pub(super) fn is_array(&self, tv: Tv) -> bool {
        match self.slots[self.root(tv)] {
            Slot::Arr(_) => true,
            Slot::Named(k) => self.named[k].rust.starts_with('['),
            _ => false,
        }
    }

    /// A type variable of the type parameter `n`.
    pub(super) fn generic_tv(&mut self, n: &Named) -> Tv {
        let k = match self.generics.iter().position(|m| m.alias == n.alias) {
            Some(k) => k,
            None => {
                self.generics.push(n.clone());
                self.generics.len() - 1
            }
        };
        self.fresh(Slot::Generic(k))
    }

    /// The type parameter named `t` of the generic compute function, found through a parameter
    /// of that type (`a: T`, `x: &[T]`).
    pub(super) fn type_param(&self, t: &str) -> Option<Named> {
        self.params.values().find_map(|o| match o {
            Outer::Generic(n) | Outer::Slice(Elem::Generic(n), _) if n.rust == t => Some(n.clone()),
            _ => None,
        })
    }

    /// `T::zero()` or `T::one()` of the type parameter `n`: a literal of that type.
    pub(super) fn type_param_call(
        &mut self,
        n: &Named,
        m: &str,
        at: &syn::Expr,
    ) -> Result<E, Unsupported> {
        let v = match m {
            "zero" => "0.0",
            "one" => "1.0",
            _ => {
                return Err(unsupported(
                    at,
                    "a function of a type parameter other than `zero()` and `one()`",
                ))
            }
        };
        let tv = self.generic_tv(n);
        Ok(E::Num(v.into(), tv))
    }

    /// A type variable of `e`.
    pub(super) fn elem_tv(&mut self, e: &Elem) -> Tv {
        match e {
            Elem::Ty(t) => self.known(*t),
            Elem::Named(n) => self.named_tv(n),
            Elem::Generic(n) => self.generic_tv(n),
        }
    }

    pub(super) fn fresh(&mut self, s: Slot) -> Tv {
        self.slots.push(s);
        self.slots.len() - 1
    }

    pub(super) fn known(&mut self, t: Ty) -> Tv {
        self.fresh(Slot::Known(t))
    }

    pub(super) fn root(&self, mut v: Tv) -> Tv {
        while let Slot::Link(p) = self.slots[v] {
            v = p;
        }
        v
    }

    pub(super) fn unify(&mut self, a: Tv, b: Tv, at: &impl ToTokens) -> Result<(), Unsupported> {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra == rb {
            return Ok(());
        }
        match (self.slots[ra], self.slots[rb]) {
            (Slot::Arr(x), Slot::Arr(y)) => {
                let ((ex, nx), (ey, ny)) = (self.arrays[x], self.arrays[y]);
                if nx != ny {
                    return Err(unsupported(at, "arrays of different lengths"));
                }
                self.unify(ex, ey, at)?;
            }
            // An array built in the kernel where a user type is wanted: its elements are the
            // type's.
            (Slot::Arr(x), Slot::Named(_)) => {
                self.members.push((self.arrays[x].0, rb, Member::Elem));
            }
            (Slot::Named(_), Slot::Arr(y)) => {
                self.members.push((self.arrays[y].0, ra, Member::Elem));
            }
            _ => {}
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
            // Two spellings of one type (rustc checked the program).
            (Slot::Named(x), Slot::Named(_)) => Slot::Named(x),
            (Slot::Arr(x), Slot::Arr(_)) => Slot::Arr(x),
            (Slot::Generic(x), Slot::Generic(y)) if x == y => Slot::Generic(x),
            (Slot::Arr(_), Slot::Named(x)) | (Slot::Named(x), Slot::Arr(_)) => Slot::Named(x),
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
    pub(super) fn decided(&self, v: Tv) -> Option<Ty> {
        match self.slots[self.root(v)] {
            Slot::Known(t) => Some(t),
            _ => None,
        }
    }

    pub(super) fn resolve(&self, v: Tv) -> Option<Ty> {
        match self.slots[self.root(v)] {
            Slot::Known(t) => Some(t),
            Slot::Int => Some(Ty::I32),
            Slot::Float => Some(Ty::F64),
            _ => None,
        }
    }

    pub(super) fn c_name(&mut self, rust: &str) -> String {
        let n = self.names.entry(rust.to_string()).or_insert(0);
        *n += 1;
        if *n == 1 {
            format!("{rust}_")
        } else {
            format!("{rust}_{n}")
        }
    }

    pub(super) fn lookup(&self, name: &str) -> Option<&Var> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    pub(super) fn declare(&mut self, name: &str, tv: Tv, mutable: bool) -> String {
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

    /// The calls with their types. The translation cannot see a routine's signature: where
    /// the code around a call does not decide a type (`gcd(i, 36)`, `let s = f(x);`), Rust
    /// takes it from the signature, and so does the C text, which names it by a `#define` the
    /// runtime gives from the routine's own (`__acc_call_3gcd_a1`, `__acc_call_1f_r`).
    pub(super) fn call_sites(&mut self) -> Vec<CallSite> {
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
                    CallArg::Slice(t, m) => ArgTy::Slice(t.clone(), *m),
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
                method: c.method,
                args,
                ret,
                span: c.span,
            });
        }
        self.sym = sym;
        self.finish_members();
        out
    }

    /// Names the type of each member access nothing else decided: `decltype` of the member of
    /// the accessed value's C type (inner accesses first, so a nested one finds its base's).
    fn finish_members(&mut self) {
        // An element of an array built in the kernel is of its element type.
        // (and of a `[T; N]` written with a number type `T`, that type).
        for (tv, base, m) in self.members.clone() {
            let e = match (self.slots[self.root(base)], &m) {
                (Slot::Arr(k), Member::Elem) => self.arrays[k].0,
                (Slot::Named(k), Member::Elem) => {
                    match syn::parse_str::<syn::Type>(&self.named[k].rust) {
                        Ok(syn::Type::Array(a)) => match Ty::from_type(&a.elem) {
                            Some(t) => self.known(t),
                            None => continue,
                        },
                        _ => continue,
                    }
                }
                _ => continue,
            };
            let _ = self.unify(tv, e, &proc_macro2::TokenStream::new());
        }
        for (tv, base, m) in self.members.clone() {
            let r = self.root(tv);
            if matches!(
                self.slots[r],
                Slot::Known(_) | Slot::Named(_) | Slot::Arr(_)
            ) {
                continue;
            }
            let rb = self.root(base);
            let b = match self.slots[rb] {
                Slot::Named(k) => self.named[k].alias.clone(),
                _ => match self.sym.get(&rb) {
                    Some(n) => n.clone(),
                    None => continue,
                },
            };
            let text = match m {
                Member::Field(f) => format!("decltype((({b} *)0)->{f})"),
                Member::Elem => format!("__acc_elem<{b}>::type"),
            };
            self.sym.entry(r).or_insert(text);
        }
    }

    pub(super) fn type_of(&mut self, e: &E) -> Tv {
        match e.stored_type() {
            Ok(t) => t,
            Err(ty) => self.known(ty),
        }
    }
}
