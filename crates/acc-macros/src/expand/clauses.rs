//! The attribute: the function's parameters and the construct's clauses, read into the
//! expansion's context, and the loop clauses of a loop directive.
//!
//! Owns what a Rust function may say in its attribute (data clauses naming whole slice
//! parameters, `private`/`firstprivate`/`num_gangs`, a combined construct's loop part; loop
//! clauses `collapse`, `tile`, `reduction`, `private`) and the errors for the rest. The clause
//! text was parsed and checked by acc-engine ([`crate::text`]); this module must not decide
//! partitioning or implicit data attributes ([`super::engine`] does) nor emit code.
//!
//! Invariant: a list item is a plain variable name or an error under the token written.

use super::{Ctx, LoopSpec, Param, ParamKind};
use crate::cuda;
use crate::text::SpanTable;
use acc_engine::directive::{Clause, ClauseArgs, ClauseKind, Directive, VarItem};
use proc_macro2::Span;
use std::collections::HashMap;
use syn::{Expr, FnArg, ItemFn, Pat, Type};

pub(super) fn is_loop_clause(k: ClauseKind) -> bool {
    matches!(
        k,
        ClauseKind::Gang
            | ClauseKind::Worker
            | ClauseKind::Vector
            | ClauseKind::Seq
            | ClauseKind::Auto
            | ClauseKind::Independent
            | ClauseKind::Collapse
            | ClauseKind::Tile
            | ClauseKind::Reduction
            | ClauseKind::Private
    )
}

pub(super) fn loop_clause(
    spec: &mut LoopSpec,
    cl: &acc_engine::directive::Clause,
    table: &SpanTable,
    errors: &mut Vec<syn::Error>,
) {
    match (&cl.kind, &cl.args) {
        // Partitioning is the engine's decision (`LoopSpec::partitioned`).
        (
            ClauseKind::Gang
            | ClauseKind::Worker
            | ClauseKind::Vector
            | ClauseKind::Independent
            | ClauseKind::Seq
            | ClauseKind::Auto,
            _,
        ) => {}
        (ClauseKind::Collapse, ClauseArgs::Collapse { count, .. }) => match count.int_value() {
            Some(n) if n >= 1 => spec.collapse = n as usize,
            _ => errors.push(syn::Error::new(
                table.span(count.span),
                "`collapse` takes a positive integer literal",
            )),
        },
        (ClauseKind::Tile, ClauseArgs::Exprs(es)) => spec.collapse = spec.collapse.max(es.len()),
        (ClauseKind::Reduction, ClauseArgs::Reduction { op, items, .. }) => {
            for item in items {
                if let Some(id) = plain_name(item, table, errors) {
                    spec.reductions.push((*op, id));
                }
            }
        }
        (ClauseKind::Private, _) => {
            for item in cl.items() {
                if let Some(id) = plain_name(item, table, errors) {
                    spec.privates.push(id);
                }
            }
        }
        _ => errors.push(syn::Error::new(
            table.span(cl.name_span),
            format!(
                "not supported yet by the Rust front end: the `{}` clause on a loop",
                cl.spelling
            ),
        )),
    }
}

/// The variable of a list item, which must be a plain name.
pub(super) fn plain_name(
    item: &VarItem,
    table: &SpanTable,
    errors: &mut Vec<syn::Error>,
) -> Option<syn::Ident> {
    let span = table.span(item.base.span);
    if item.is_subarray() {
        errors.push(syn::Error::new(
            span,
            format!(
                "not supported yet: subarrays in Rust clauses (`{}`); name the whole slice",
                item.text
            ),
        ));
        return None;
    }
    if !item.accessors.is_empty() {
        errors.push(syn::Error::new(
            span,
            format!(
                "`{}`: clauses name variables, not members or elements",
                item.text
            ),
        ));
        return None;
    }
    match syn::parse_str::<syn::Ident>(&item.base.name) {
        Ok(mut id) => {
            id.set_span(span);
            Some(id)
        }
        Err(_) => {
            errors.push(syn::Error::new(span, "expected a variable name"));
            None
        }
    }
}

/// The function's parameters: how each is passed, and the CUDA translation's view of it.
pub(super) fn params(
    func: &ItemFn,
    errors: &mut Vec<syn::Error>,
) -> (Vec<Param>, HashMap<String, cuda::Outer>) {
    let mut params = Vec::new();
    let mut outer = HashMap::new();
    let generics = float_params(func);
    let elem = |t: &Type| match t {
        Type::Path(p) if p.qself.is_none() => match p.path.get_ident() {
            Some(i) if generics.contains(&i.to_string()) => {
                Some(cuda::Elem::Generic(cuda::generic(&i.to_string())))
            }
            _ => cuda::Elem::from_type(t),
        },
        t => cuda::Elem::from_type(t),
    };
    for arg in &func.sig.inputs {
        match arg {
            FnArg::Receiver(r) => errors.push(syn::Error::new_spanned(
                r,
                "not supported: methods; use a free function taking slices and scalars",
            )),
            FnArg::Typed(t) => {
                let Pat::Ident(pi) = &*t.pat else {
                    errors.push(syn::Error::new_spanned(
                        &t.pat,
                        "not supported: patterns in parameters; name the parameter",
                    ));
                    continue;
                };
                let kind = match &*t.ty {
                    Type::Reference(r) if slice_elem(&r.elem).is_some() => {
                        if r.mutability.is_some() {
                            ParamKind::Mut
                        } else {
                            ParamKind::Shared
                        }
                    }
                    Type::Reference(r) => {
                        errors.push(syn::Error::new_spanned(
                            r,
                            "not supported: references other than slices; pass a slice \
                             (`&[T]` or `&mut [T]`) or a scalar by value",
                        ));
                        continue;
                    }
                    _ => ParamKind::Scalar,
                };
                let o = match &*t.ty {
                    Type::Reference(r) => match slice_elem(&r.elem).and_then(elem) {
                        Some(e) => cuda::Outer::Slice(e, r.mutability.is_some()),
                        None => cuda::Outer::Other,
                    },
                    ty => match elem(ty) {
                        Some(cuda::Elem::Ty(t)) => cuda::Outer::Scalar(t),
                        Some(cuda::Elem::Generic(n)) => cuda::Outer::Generic(n),
                        Some(cuda::Elem::Named(n)) => cuda::Outer::Value(n),
                        None => cuda::Outer::Other,
                    },
                };
                outer.insert(pi.ident.to_string(), o);
                params.push(Param {
                    name: pi.ident.clone(),
                    kind,
                    clause: None,
                });
            }
        }
    }
    (params, outer)
}

/// The type parameters of a generic compute function bounded by `Float` (`T: acc::Float`):
/// its CUDA form has a kernel per float type.
pub(super) fn float_params(func: &ItemFn) -> Vec<String> {
    let is_float = |b: &syn::TypeParamBound| match b {
        syn::TypeParamBound::Trait(t) => t.path.segments.last().is_some_and(|s| s.ident == "Float"),
        _ => false,
    };
    let mut out = Vec::new();
    for p in func.sig.generics.type_params() {
        let mut bounds: Vec<&syn::TypeParamBound> = p.bounds.iter().collect();
        if let Some(w) = &func.sig.generics.where_clause {
            for pred in &w.predicates {
                if let syn::WherePredicate::Type(t) = pred {
                    if matches!(&t.bounded_ty, Type::Path(tp) if tp.path.is_ident(&p.ident)) {
                        bounds.extend(t.bounds.iter());
                    }
                }
            }
        }
        if bounds.into_iter().any(is_float) {
            out.push(p.ident.to_string());
        }
    }
    out
}

/// The element type of a slice parameter's referent: `[T]`, or `Vec<T>` (a `&Vec<T>` or
/// `&mut Vec<T>` is mapped as its slice; inside the function the name is the slice).
fn slice_elem(t: &Type) -> Option<&Type> {
    match t {
        Type::Slice(s) => Some(&s.elem),
        Type::Paren(p) => slice_elem(&p.elem),
        Type::Group(g) => slice_elem(&g.elem),
        Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
                return None;
            };
            match (last.ident == "Vec", a.args.first(), a.args.len()) {
                (true, Some(syn::GenericArgument::Type(t)), 1) => Some(t),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The construct's clauses: data clauses onto `ctx.params`, `private`/`firstprivate` and
/// `num_gangs` into `ctx`; the loop part of a combined construct is returned.
pub(super) fn construct_clauses(
    ctx: &mut Ctx,
    d: &Directive,
    table: &SpanTable,
    function: &syn::Ident,
    errors: &mut Vec<syn::Error>,
) -> LoopSpec {
    let combined = d.kind.is_combined();
    let mut spec = LoopSpec::default();
    for cl in &d.clauses {
        let at = table.span(cl.name_span);
        match cl.kind {
            ClauseKind::Copy
            | ClauseKind::Copyin
            | ClauseKind::Copyout
            | ClauseKind::Create
            | ClauseKind::Present
            | ClauseKind::NoCreate => data_clause(ctx, cl, at, table, function, errors),
            ClauseKind::Firstprivate | ClauseKind::Private
                if !(combined && cl.kind == ClauseKind::Private) =>
            {
                for item in cl.items() {
                    if let Some(ident) = plain_name(item, table, errors) {
                        ctx.per_chunk.push(ident);
                    }
                }
            }
            ClauseKind::NumGangs => {
                if let ClauseArgs::Exprs(es) = &cl.args {
                    if let Some(e) = es.first() {
                        match syn::parse_str::<Expr>(&e.text) {
                            Ok(e) => ctx.num_gangs = Some(e),
                            Err(_) => errors.push(syn::Error::new(
                                table.span(e.span),
                                "expected a Rust expression",
                            )),
                        }
                    }
                }
            }
            // `default` acts through the engine's data attributes.
            ClauseKind::NumWorkers | ClauseKind::VectorLength | ClauseKind::Default => {}
            k if combined && is_loop_clause(k) => loop_clause(&mut spec, cl, table, errors),
            ClauseKind::Reduction => errors.push(syn::Error::new(
                at,
                "not supported yet: `reduction` on the compute construct; put it on the \
                 loop (`#[acc(loop reduction(...))]`) or use the combined form",
            )),
            _ => errors.push(syn::Error::new(
                at,
                format!(
                    "not supported yet by the Rust front end: the `{}` clause",
                    cl.spelling
                ),
            )),
        }
    }
    spec
}

/// A data clause (`copy`, `copyin`, ...): each item names a slice parameter, which gets the
/// clause.
fn data_clause(
    ctx: &mut Ctx,
    cl: &Clause,
    at: Span,
    table: &SpanTable,
    function: &syn::Ident,
    errors: &mut Vec<syn::Error>,
) {
    let name = match cl.kind {
        ClauseKind::Copy => "Copy",
        ClauseKind::Copyin => "CopyIn",
        ClauseKind::Copyout => "CopyOut",
        ClauseKind::Create => "Create",
        ClauseKind::Present => "Present",
        _ => "NoCreate",
    };
    for item in cl.items() {
        let Some(ident) = plain_name(item, table, errors) else {
            continue;
        };
        let Some(p) = ctx.params.iter_mut().find(|p| p.name == ident) else {
            errors.push(syn::Error::new(
                ident.span(),
                format!(
                    "`{ident}` is not a parameter of `{}`; data clauses name the \
                     function's slice parameters",
                    function
                ),
            ));
            continue;
        };
        match p.kind {
            ParamKind::Scalar => errors.push(syn::Error::new(
                ident.span(),
                format!(
                    "`{ident}` is a scalar: scalars are firstprivate; data clauses \
                     name slice parameters (`&[T]`, `&mut [T]`)"
                ),
            )),
            ParamKind::Shared if matches!(cl.kind, ClauseKind::Copy | ClauseKind::Copyout) => {
                errors.push(syn::Error::new(
                    ident.span(),
                    format!(
                        "`{}({ident})` writes `{ident}` back, but it is a shared \
                         slice `&[T]`; use `copyin` or take `&mut [T]`",
                        cl.spelling
                    ),
                ))
            }
            _ => p.clause = Some((name, at)),
        }
    }
}
