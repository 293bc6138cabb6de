//! User types in the subset: fields of `#[derive(acc::DeviceCopy)]` structs, struct literals,
//! elements of fixed arrays.
//!
//! A macro cannot read the struct's declaration, so the translation never knows a field's
//! type: it is whatever the code around the access decides (rustc checked that the program is
//! well typed), else the C text names it `decltype` of the member ([`Translator`]'s
//! `finish_members`). The struct's C declaration is the runtime's (the derive gives it). Owns
//! these rules only; the rest of the subset is [`super::subset`]'s.

use super::tree::{Member, Over, Slot, Translator, Tv, E, S};
use super::{text, unsupported, Named, Ty, Unsupported};
use std::collections::HashMap;
use syn::{Expr, Member as SynMember, Pat};

impl Translator<'_> {
    /// Refuses an operator on a value of a user type (rustc accepts one only through a user
    /// `impl`, which has no CUDA form).
    pub(super) fn no_user_ops(&self, tv: Tv, at: &Expr) -> Result<(), Unsupported> {
        let user = match self.slots[self.root(tv)] {
            Slot::Named(k) => self.named[k].rust.clone(),
            Slot::Arr(_) => "array".into(),
            _ => return Ok(()),
        };
        Err(unsupported(
            at,
            &format!(
                "an operator on a `{user}` (a user `impl` of it has no CUDA form); operate on \
                 its fields or elements, or in an `#[acc::routine]`"
            ),
        ))
    }

    /// `v.name(args)` where `v` is of a user type: a call of the method routine `name` of that
    /// type (`#[acc::routine]` on a method taking `self` or `&self`), `v` passed by value.
    pub(super) fn method_routine(
        &mut self,
        k: usize,
        receiver: E,
        m: &syn::ExprMethodCall,
        at: &Expr,
    ) -> Result<E, Unsupported> {
        let ty = self.named[k].rust.clone();
        let Ok(mut path) = syn::parse_str::<syn::Path>(&ty) else {
            return Err(unsupported(at, &format!("a method of `{ty}`")));
        };
        path.segments.push(m.method.clone().into());
        let segs: Vec<String> = path
            .segments
            .iter()
            .map(|s| syn::ext::IdentExt::unraw(&s.ident).to_string())
            .collect();
        let alias = super::subset::alias(path.leading_colon.is_some(), &segs);
        self.routine_call(path, alias, true, Some(receiver), &m.args, at, false, true)
    }

    /// `v.field`.
    pub(super) fn field(&mut self, f: &syn::ExprField, at: &Expr) -> Result<E, Unsupported> {
        let SynMember::Named(name) = &f.member else {
            return Err(unsupported(
                at,
                "a tuple field (tuples have Rust's layout); use a struct with named fields",
            ));
        };
        let base = self.expr(&f.base)?;
        let bt = self.type_of(&base);
        let tv = self.fresh(Slot::Free);
        let name = syn::ext::IdentExt::unraw(name).to_string();
        self.members.push((tv, bt, Member::Field(name.clone())));
        Ok(E::Field(Box::new(base), name, tv))
    }

    /// `a[i]` where `a` is an array value (not a slice parameter).
    pub(super) fn array_elem(&mut self, i: &syn::ExprIndex, at: &Expr) -> Result<E, Unsupported> {
        if matches!(&*i.index, Expr::Range(_)) {
            return Err(unsupported(at, "subslices"));
        }
        let base = self.expr(&i.expr)?;
        if matches!(base, E::Var(..) | E::Index(..) | E::Field(..) | E::Elem(..)) {
            let ix = self.expr(&i.index)?;
            let it = self.type_of(&ix);
            let u = self.known(Ty::Usize);
            self.unify(it, u, &i.index)?;
            let bt = self.type_of(&base);
            let tv = self.fresh(Slot::Free);
            self.members.push((tv, bt, Member::Elem));
            return Ok(E::Elem(Box::new(base), Box::new(ix), tv, text(at)));
        }
        Err(unsupported(
            at,
            "indexing anything but a slice parameter or an array variable",
        ))
    }

    /// `P { x: a, y: b }`: every field given, in any order (evaluated in the order written).
    pub(super) fn struct_lit(&mut self, s: &syn::ExprStruct, at: &Expr) -> Result<E, Unsupported> {
        if s.rest.is_some() || s.dot2_token.is_some() {
            return Err(unsupported(
                at,
                "`..base` in a struct literal; give every field",
            ));
        }
        let ty = syn::Type::Path(syn::TypePath {
            qself: s.qself.clone(),
            path: s.path.clone(),
        });
        let Some(named) = Named::from_type(&ty) else {
            return Err(unsupported(
                &s.path,
                "a struct literal of a type outside the CUDA subset (a \
                 `#[derive(acc::DeviceCopy)]` struct without generic arguments)",
            ));
        };
        let tv = self.named_tv(&named);
        let mut fields = Vec::new();
        for f in &s.fields {
            let SynMember::Named(name) = &f.member else {
                return Err(unsupported(f, "a tuple struct's literal"));
            };
            let name = syn::ext::IdentExt::unraw(name).to_string();
            let v = self.expr(&f.expr)?;
            let vt = self.type_of(&v);
            self.members.push((vt, tv, Member::Field(name.clone())));
            fields.push((name, v));
        }
        Ok(E::Struct(fields, tv))
    }

    /// `[a, b, c]`: every element of one type.
    pub(super) fn array_lit(&mut self, a: &syn::ExprArray, at: &Expr) -> Result<E, Unsupported> {
        if a.elems.is_empty() {
            return Err(unsupported(at, "an empty array"));
        }
        let et = self.fresh(Slot::Free);
        let mut es = Vec::new();
        for x in &a.elems {
            let v = self.expr(x)?;
            let vt = self.type_of(&v);
            self.unify(et, vt, x)?;
            es.push(v);
        }
        self.arrays.push((et, es.len() as u64));
        let tv = self.fresh(Slot::Arr(self.arrays.len() - 1));
        Ok(E::Array(es, tv))
    }

    /// `[x; n]` with `n` a literal.
    pub(super) fn repeat(&mut self, r: &syn::ExprRepeat) -> Result<E, Unsupported> {
        let n = match &*r.len {
            Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(i),
                ..
            }) => i.base10_parse::<u64>().ok(),
            _ => None,
        };
        let Some(n) = n.filter(|n| *n > 0) else {
            return Err(unsupported(
                &r.len,
                "an array length other than a positive integer literal; write the number",
            ));
        };
        let v = self.expr(&r.expr)?;
        let et = self.type_of(&v);
        self.arrays.push((et, n));
        let tv = self.fresh(Slot::Arr(self.arrays.len() - 1));
        Ok(E::Repeat(Box::new(v), n, tv))
    }

    /// `for x in a`, `for x in a.iter()`, `for &x in a.iter()`, `for x in &a` over an array
    /// value or a slice parameter: its elements, in order.
    pub(super) fn for_each(&mut self, f: &syn::ExprForLoop) -> Result<S, Unsupported> {
        let mut over = &*f.expr;
        let mut by_ref = false;
        let mut enumerate = false;
        if let Expr::MethodCall(m) = over {
            if m.method == "enumerate" && m.args.is_empty() {
                enumerate = true;
                over = &m.receiver;
            }
        }
        loop {
            match over {
                Expr::Reference(r) if r.mutability.is_none() => {
                    by_ref = true;
                    over = &r.expr;
                }
                Expr::MethodCall(m) if m.method == "iter" && m.args.is_empty() => {
                    by_ref = true;
                    over = &m.receiver;
                }
                Expr::Paren(p) => over = &p.expr,
                _ => break,
            }
        }
        let (over, tv) = match self.slice(over) {
            Some((s, elem)) => (Over::Slice(s), self.elem_tv(&elem)),
            None => {
                let a = self.expr(over)?;
                let at = self.type_of(&a);
                if !self.is_array(at) {
                    return Err(unsupported(
                        &f.expr,
                        "`for` over anything but a range, an array or a slice parameter",
                    ));
                }
                let tv = self.fresh(Slot::Free);
                self.members.push((tv, at, Member::Elem));
                (Over::Array(a), tv)
            }
        };
        let mut pat = &*f.pat;
        self.scopes.push(HashMap::new());
        let mut index = None;
        if enumerate {
            let (k, x) = match pat {
                Pat::Tuple(t) if t.elems.len() == 2 => (&t.elems[0], &t.elems[1]),
                p => {
                    self.scopes.pop();
                    return Err(unsupported(p, "an `enumerate` pattern other than `(i, x)`"));
                }
            };
            let u = self.known(Ty::Usize);
            index = match k {
                Pat::Wild(_) => None,
                Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                    Some(self.declare(&pi.ident.to_string(), u, false))
                }
                p => {
                    self.scopes.pop();
                    return Err(unsupported(p, "an index pattern other than a name"));
                }
            };
            pat = x;
        }
        let pat = match pat {
            Pat::Reference(r) if by_ref && r.mutability.is_none() => &*r.pat,
            p => p,
        };
        let var = match pat {
            Pat::Wild(_) => None,
            Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                Some(self.declare(&pi.ident.to_string(), tv, pi.mutability.is_some()))
            }
            p => {
                self.scopes.pop();
                return Err(unsupported(p, "loop patterns other than a name or `&name`"));
            }
        };
        self.loops += 1;
        let body = self.block(&f.body);
        self.loops -= 1;
        self.scopes.pop();
        Ok(S::ForEach {
            index,
            var,
            tv,
            over,
            body: body?,
        })
    }
}

/// `f64::consts::NAME` (and `f32`'s) as a C literal of the type, written from Rust's own value
/// (the shortest text that reads back to it).
pub(super) fn float_const(t: Ty, name: &str) -> Option<String> {
    macro_rules! consts {
        ($m:ident) => {{
            use std::$m::consts::*;
            Some(match name {
                "PI" => PI,
                "TAU" => TAU,
                "E" => E,
                "SQRT_2" => SQRT_2,
                "LN_2" => LN_2,
                "LN_10" => LN_10,
                "LOG2_E" => LOG2_E,
                "LOG10_E" => LOG10_E,
                "LOG2_10" => LOG2_10,
                "LOG10_2" => LOG10_2,
                "FRAC_PI_2" => FRAC_PI_2,
                "FRAC_PI_3" => FRAC_PI_3,
                "FRAC_PI_4" => FRAC_PI_4,
                "FRAC_PI_6" => FRAC_PI_6,
                "FRAC_PI_8" => FRAC_PI_8,
                "FRAC_1_PI" => FRAC_1_PI,
                "FRAC_2_PI" => FRAC_2_PI,
                "FRAC_2_SQRT_PI" => FRAC_2_SQRT_PI,
                "FRAC_1_SQRT_2" => FRAC_1_SQRT_2,
                _ => return None,
            })
        }};
    }
    match t {
        Ty::F64 => consts!(f64).map(|v| format!("{v:?}")),
        Ty::F32 => consts!(f32).map(|v| format!("{v:?}f")),
        _ => None,
    }
}
