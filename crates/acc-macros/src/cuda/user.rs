//! User types in the subset: fields of `#[derive(acc::DeviceCopy)]` structs, struct literals,
//! elements of fixed arrays.
//!
//! A macro cannot read the struct's declaration, so the translation never knows a field's
//! type: it is whatever the code around the access decides (rustc checked that the program is
//! well typed), else the C text names it `decltype` of the member ([`Translator`]'s
//! `finish_members`). The struct's C declaration is the runtime's (the derive gives it). Owns
//! these rules only; the rest of the subset is [`super::subset`]'s.

use super::tree::{Member, Slot, Translator, Tv, E};
use super::{text, unsupported, Named, Ty, Unsupported};
use syn::{Expr, Member as SynMember};

impl Translator<'_> {
    /// Refuses an operator on a value of a user type (rustc accepts one only through a user
    /// `impl`, which has no CUDA form).
    pub(super) fn no_user_ops(&self, tv: Tv, at: &Expr) -> Result<(), Unsupported> {
        if let Slot::Named(k) = self.slots[self.root(tv)] {
            return Err(unsupported(
                at,
                &format!(
                    "an operator on a `{}` (a user `impl` of it has no CUDA form); operate on \
                     its fields, or in an `#[acc::routine]`",
                    self.named[k].rust
                ),
            ));
        }
        Ok(())
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
}
