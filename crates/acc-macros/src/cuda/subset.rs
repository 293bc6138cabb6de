//! The CUDA subset: which Rust a kernel or routine may contain, and why the rest is refused.
//!
//! Reads the `syn` tree of a loop body or routine body into the typed tree ([`super::tree`]),
//! one construct at a time; anything else is an [`Unsupported`] with the Rust text that
//! caused it and the message the user sees. Owns every rule of the subset (names, slices,
//! literals, constants, methods, calls of routines, statements) and must not know how the tree
//! becomes C ([`super::emit`]).
//!
//! Invariants: a construct is either read whole or refused, never guessed; a call of a routine
//! that passes a `&mut` slice is accepted only as a statement's whole value (C does not keep
//! Rust's order of evaluation inside an expression).

use super::tree::{Call, CallArg, RArg, Slot, Translator, Tv, Var, E, S};
use super::user::float_const;
use super::{text, unsupported, Elem, Outer, Ty, Unsupported};
use quote::ToTokens;
use std::collections::HashMap;
use std::fmt::Write;
use syn::spanned::Spanned;
use syn::{BinOp, Expr, Lit, Pat, RangeLimits, Stmt, UnOp};

impl Translator<'_> {
    /// A variable the body names: a local, a captured scalar, or an error for slices.
    pub(super) fn var(
        &mut self,
        name: &str,
        at: &impl ToTokens,
    ) -> Result<(String, Tv, bool), Unsupported> {
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
                "a parameter of a type outside the CUDA subset (a kernel takes numbers by value \
                 and other data in slices)",
            )),
            Some(Outer::Value(n)) if self.routine.is_none() => {
                let n = n.clone();
                let tv = self.named_tv(&n);
                Ok((self.capture(name, tv), tv, false))
            }
            Some(Outer::Value(_)) => Err(unsupported(at, "a parameter outside the routine")),
            Some(Outer::Generic(n)) if self.routine.is_none() => {
                let n = n.clone();
                let tv = self.generic_tv(&n);
                Ok((self.capture(name, tv), tv, false))
            }
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
            Some(Outer::Generic(_)) => Err(unsupported(at, "a type parameter in a routine")),
            None => {
                // A local of the enclosing function: typed by its uses here; the launch
                // checks the type the translation assumed against the value's.
                let tv = self.fresh(Slot::Free);
                Ok((self.capture(name, tv), tv, false))
            }
        }
    }

    pub(super) fn capture(&mut self, name: &str, tv: Tv) -> String {
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

    pub(super) fn slice(&mut self, e: &Expr) -> Option<(String, Elem)> {
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
                Some((name, t.clone()))
            }
            _ => None,
        }
    }

    pub(super) fn block(&mut self, b: &syn::Block) -> Result<Vec<S>, Unsupported> {
        self.scopes.push(HashMap::new());
        let r = self.stmts(&b.stmts);
        self.scopes.pop();
        r
    }

    pub(super) fn stmts(&mut self, stmts: &[Stmt]) -> Result<Vec<S>, Unsupported> {
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
                            let Some(t) = Elem::from_type(t) else {
                                return Err(unsupported(t, "a type outside the CUDA subset"));
                            };
                            self.elem_tv(&t)
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

    pub(super) fn stmt_expr(&mut self, e: &Expr) -> Result<S, Unsupported> {
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
                let lt = self.type_of(&l);
                self.no_user_ops(lt, e)?;
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
                    return self.for_each(f);
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
    pub(super) fn place(&mut self, e: &Expr) -> Result<E, Unsupported> {
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
            Expr::Index(_) | Expr::Field(_) => self.expr(e),
            Expr::Paren(p) => self.place(&p.expr),
            _ => Err(unsupported(e, "not an assignable place")),
        }
    }

    /// An expression whose value is the whole of a statement's (a `let` initializer, the
    /// value of an assignment, a `return`): a routine call there may write slices.
    pub(super) fn value(&mut self, e: &Expr) -> Result<E, Unsupported> {
        match e {
            Expr::Paren(p) => self.value(&p.expr),
            Expr::Group(g) => self.value(&g.expr),
            Expr::Call(c) => self.call(c, e, true, true),
            e => self.expr(e),
        }
    }

    /// A call: a number type's method (`f64::max(a, b)`) or a routine. `whole`: the call is
    /// all of its statement's value; `used`: its value is used.
    pub(super) fn call(
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
        if let (None, [t, m], true) = (&p.qself, segs.as_slice(), c.args.is_empty()) {
            if let Some(n) = self.type_param(t).filter(|_| self.routine.is_none()) {
                return self.type_param_call(&n, m, at);
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
        let alias = alias(path.leading_colon.is_some(), &segs);
        self.routine_call(path.clone(), alias, false, None, &c.args, at, whole, used)
    }

    /// A call of a routine (a method routine when `receiver` is its `self`): the C text calls
    /// `alias`, the runtime finds the routine by `path`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn routine_call<'e>(
        &mut self,
        path: syn::Path,
        alias: String,
        method: bool,
        receiver: Option<E>,
        rest: impl IntoIterator<Item = &'e Expr>,
        at: &Expr,
        whole: bool,
        used: bool,
    ) -> Result<E, Unsupported> {
        let mut args = Vec::new();
        let mut arg_tys = Vec::new();
        if let Some(r) = receiver {
            arg_tys.push(CallArg::Value(self.type_of(&r)));
            args.push(RArg::Value(r));
        }
        let mut writes = false;
        for a in rest {
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
            path,
            alias,
            method,
            args: arg_tys,
            ret: used.then_some(ret),
            span: at.span(),
        });
        Ok(E::Routine(self.calls.len() - 1, args, ret))
    }

    /// A routine's body: its statements, the tail expression (if any) returned.
    pub(super) fn value_block(&mut self, b: &syn::Block) -> Result<Vec<S>, Unsupported> {
        self.scopes.push(HashMap::new());
        let r = self.value_stmts(&b.stmts);
        self.scopes.pop();
        r
    }

    pub(super) fn value_stmts(&mut self, stmts: &[Stmt]) -> Result<Vec<S>, Unsupported> {
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
    pub(super) fn tail(&mut self, e: &Expr) -> Result<Vec<S>, Unsupported> {
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

    pub(super) fn expr(&mut self, e: &Expr) -> Result<E, Unsupported> {
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
            Expr::Binary(b) => self.binary(b, e)?,
            Expr::Unary(u) => {
                let x = self.expr(&u.expr)?;
                let t = self.type_of(&x);
                self.no_user_ops(t, e)?;
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
                    return self.array_elem(i, e);
                };
                if matches!(&*i.index, Expr::Range(_)) {
                    return Err(unsupported(e, "subslices"));
                }
                let ix = self.expr(&i.index)?;
                let it = self.type_of(&ix);
                let u = self.known(Ty::Usize);
                self.unify(it, u, &i.index)?;
                let t = self.elem_tv(&elem);
                E::Index(c, Box::new(ix), t, text(e))
            }
            Expr::MethodCall(m) => self.method_call(m, e)?,
            Expr::Field(f) => self.field(f, e)?,
            Expr::Array(a) => self.array_lit(a, e)?,
            Expr::Repeat(r) => self.repeat(r)?,
            Expr::Struct(s) => self.struct_lit(s, e)?,
            Expr::Call(c) => self.call(c, e, false, true)?,
            Expr::If(i) => self.if_value(i, e)?,
            Expr::Block(b) if b.label.is_none() => match block_value(&b.block) {
                Some(x) => self.expr(x)?,
                None => return Err(unsupported(e, "a block as a value")),
            },
            _ => return Err(unsupported(e, "an expression outside the CUDA subset")),
        })
    }

    /// A binary operator: both operands' types unified as Rust's operators require.
    fn binary(&mut self, b: &syn::ExprBinary, e: &Expr) -> Result<E, Unsupported> {
        if compound(&b.op).is_some() {
            return Err(unsupported(e, "compound assignment as a value"));
        }
        let l = self.expr(&b.left)?;
        let r = self.expr(&b.right)?;
        let (lt, rt) = (self.type_of(&l), self.type_of(&r));
        self.no_user_ops(lt, e)?;
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
        Ok(E::Bin(b.op, Box::new(l), Box::new(r), t))
    }

    /// A method call: `len`/`is_empty` of a slice, or a number's method.
    fn method_call(&mut self, m: &syn::ExprMethodCall, e: &Expr) -> Result<E, Unsupported> {
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
        let receiver = self.expr(&m.receiver)?;
        let rt = self.type_of(&receiver);
        if name == "len" && m.args.is_empty() && self.is_array(rt) {
            return Ok(E::ALen(Box::new(receiver)));
        }
        match self.slots[self.root(rt)] {
            Slot::Named(k) => return self.method_routine(k, receiver, m, e),
            Slot::Free if !is_number_method(&name) => {
                return Err(unsupported(
                    &m.receiver,
                    &format!(
                        "a call of the method `{name}` on a value whose type the CUDA \
                         translation cannot see (a routine's result, a field); name its type \
                         (`let v: T = ...;`)"
                    ),
                ))
            }
            _ => {}
        }
        let mut args = vec![receiver];
        for a in &m.args {
            args.push(self.expr(a)?);
        }
        self.method(&name, args, None, e)
    }

    /// `if` as a value: `c ? a : b`, each branch a single expression.
    fn if_value(&mut self, i: &syn::ExprIf, e: &Expr) -> Result<E, Unsupported> {
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
        Ok(E::Ternary(Box::new(c), Box::new(a), Box::new(b), at))
    }

    pub(super) fn lit(&mut self, l: &Lit, at: &Expr) -> Result<E, Unsupported> {
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

    pub(super) fn constant(&mut self, p: &syn::Path, at: &Expr) -> Result<E, Unsupported> {
        let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        let segs: Vec<&str> = segs.iter().map(|s| s.as_str()).collect();
        let tail = match segs.as_slice() {
            ["std" | "core", rest @ ..] => rest,
            s => s,
        };
        let (ty, name) = match tail {
            [t, "consts", n] => {
                let Some(c) = Ty::from_name(t).and_then(|t| float_const(t, n)) else {
                    return Err(unsupported(at, "a constant outside the CUDA subset"));
                };
                let tv = self.known(Ty::from_name(t).expect("a float type"));
                return Ok(E::Const(c, tv));
            }
            [t, n] => (Ty::from_name(t), *n),
            _ => (None, ""),
        };
        let Some(ty) = ty else {
            return Err(unsupported(at, "a path outside the CUDA subset"));
        };
        let c: &'static str = match (ty, name) {
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
        Ok(E::Const(c.to_string(), tv))
    }

    pub(super) fn method(
        &mut self,
        name: &str,
        args: Vec<E>,
        ty: Option<Ty>,
        at: &Expr,
    ) -> Result<E, Unsupported> {
        let Some(m) = METHODS.iter().copied().find(|m| *m == name) else {
            return Err(unsupported(at, "a method outside the CUDA subset"));
        };
        let arity = match m {
            "min" | "max" | "powi" | "powf" | "atan2" | "hypot" => 2,
            "mul_add" | "clamp" => 3,
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
pub(super) fn alias(global: bool, segs: &[String]) -> String {
    let mut s = String::from("__acc_call");
    if global {
        s.push_str("_g");
    }
    for seg in segs {
        let _ = write!(s, "_{}{seg}", seg.len());
    }
    s
}

/// The number types' methods the subset has.
const METHODS: &[&str] = &[
    "sqrt", "abs", "min", "max", "powi", "powf", "exp", "ln", "sin", "cos", "floor", "ceil",
    "mul_add", "tan", "tanh", "sinh", "cosh", "asin", "acos", "atan", "atan2", "hypot", "signum",
    "clamp", "round", "trunc", "exp2", "log2", "log10", "cbrt", "recip",
];

/// A method of the number types the subset has (`sqrt`, `min`, ...).
fn is_number_method(name: &str) -> bool {
    METHODS.contains(&name)
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
