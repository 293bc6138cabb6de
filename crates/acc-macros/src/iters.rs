//! Iterator loops over slice parameters as the index loops they are.
//!
//! `for x in s.iter()`, `for (i, x) in s.iter().enumerate()`, `for (y, x) in
//! y.iter_mut().zip(x.iter())` (and `&s`, `&mut s`, `.enumerate()` of a `zip`) over slice
//! parameters become `for i in 0..s.len()` (`0..a.len().min(b.len())` for a `zip`) with each
//! element read and written as `s[i]`, before anything else reads the function: so the engine,
//! the partitioning, the owned windows and the CUDA form see a loop over a range. The element
//! binding `x` (a reference) and `*x` are both `s[i]`: the loop means what it meant for numbers
//! and structs. Owns only this rewriting; a loop it cannot rewrite is left as written (and
//! refused later where loops must be over ranges).
//!
//! Invariant: a loop is rewritten only when every name it binds is a plain name that the body
//! does not bind again (a shadowing `let x` would make the substitution wrong).

use std::collections::{BTreeSet, HashMap};
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Expr, Pat};

/// Rewrites the iterator loops over the slice parameters `slices` in `block`.
pub fn rewrite(block: &mut syn::Block, slices: &BTreeSet<String>) {
    let mut r = Rewrite { slices, fresh: 0 };
    r.visit_block_mut(block);
}

struct Rewrite<'a> {
    slices: &'a BTreeSet<String>,
    fresh: usize,
}

/// One slice a loop walks: its name, and the pattern bound to its element.
type Source = (syn::Ident, Pat);

impl Rewrite<'_> {
    /// `s.iter()`, `s.iter_mut()`, `&s`, `&mut s` with `s` a slice parameter.
    fn source(&self, e: &Expr) -> Option<syn::Ident> {
        let inner = match e {
            Expr::Paren(p) => return self.source(&p.expr),
            Expr::MethodCall(m)
                if (m.method == "iter" || m.method == "iter_mut") && m.args.is_empty() =>
            {
                &*m.receiver
            }
            Expr::Reference(r) => &*r.expr,
            _ => return None,
        };
        let Expr::Path(p) = inner else { return None };
        let id = p.path.get_ident()?;
        self.slices.contains(&id.to_string()).then(|| id.clone())
    }

    /// The slices a loop's expression walks, with the patterns of `pat`, and the index pattern
    /// of an `enumerate`.
    fn sources(&self, e: &Expr, pat: &Pat) -> Option<(Option<Pat>, Vec<Source>)> {
        let e = match e {
            Expr::Paren(p) => &*p.expr,
            e => e,
        };
        if let Expr::MethodCall(m) = e {
            if m.method == "enumerate" && m.args.is_empty() {
                let Pat::Tuple(t) = pat else { return None };
                let [i, rest] = [t.elems.first()?, t.elems.iter().nth(1)?];
                if t.elems.len() != 2 {
                    return None;
                }
                let (None, s) = self.sources(&m.receiver, rest)? else {
                    return None;
                };
                return Some((Some(i.clone()), s));
            }
            if m.method == "zip" && m.args.len() == 1 {
                let Pat::Tuple(t) = pat else { return None };
                if t.elems.len() != 2 {
                    return None;
                }
                let a = self.source(&m.receiver)?;
                let b = self.source(&m.args[0])?;
                return Some((None, vec![(a, t.elems[0].clone()), (b, t.elems[1].clone())]));
            }
        }
        Some((None, vec![(self.source(e)?, pat.clone())]))
    }
}

/// The name a pattern binds: `x`, `&x`, `mut x` (the element as a place).
fn bound(p: &Pat) -> Option<&syn::Ident> {
    match p {
        Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => Some(&pi.ident),
        Pat::Reference(r) => bound(&r.pat),
        Pat::Paren(p) => bound(&p.pat),
        _ => None,
    }
}

/// Every name a pattern in `b` binds.
fn names_bound(b: &syn::Block) -> BTreeSet<String> {
    struct Names(BTreeSet<String>);
    impl<'ast> Visit<'ast> for Names {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            self.0.insert(p.ident.to_string());
            syn::visit::visit_pat_ident(self, p);
        }
    }
    let mut n = Names(BTreeSet::new());
    n.visit_block(b);
    n.0
}

/// Replaces `x` and `*x` by the element each stands for.
struct Substitute(HashMap<String, Expr>);

impl VisitMut for Substitute {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        let name = match e {
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => match &*u.expr {
                Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
                _ => None,
            },
            Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
            _ => None,
        };
        if let Some(elem) = name.and_then(|n| self.0.get(&n)) {
            *e = elem.clone();
            return;
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}

impl VisitMut for Rewrite<'_> {
    fn visit_expr_for_loop_mut(&mut self, f: &mut syn::ExprForLoop) {
        syn::visit_mut::visit_expr_for_loop_mut(self, f);
        let Some((index, sources)) = self.sources(&f.expr, &f.pat) else {
            return;
        };
        let inner = names_bound(&f.body);
        let mut elems = HashMap::new();
        let index = match index {
            Some(Pat::Wild(_)) | None => {
                self.fresh += 1;
                syn::Ident::new(&format!("__acc_it{}", self.fresh), f.for_token.span)
            }
            Some(p) => match bound(&p) {
                Some(i) if matches!(p, Pat::Ident(_)) && !inner.contains(&i.to_string()) => {
                    i.clone()
                }
                _ => return,
            },
        };
        for (s, p) in &sources {
            if matches!(p, Pat::Wild(_)) {
                continue;
            }
            match bound(p) {
                Some(x) if !inner.contains(&x.to_string()) => {
                    elems.insert(x.to_string(), syn::parse_quote!(#s[#index]));
                }
                _ => return,
            }
        }
        let len = match sources.as_slice() {
            [(s, _)] => syn::parse_quote!(#s.len()),
            [(a, _), (b, _)] => syn::parse_quote!(#a.len().min(#b.len())),
            _ => return,
        };
        let len: Expr = len;
        Substitute(elems).visit_block_mut(&mut f.body);
        *f.pat = syn::parse_quote!(#index);
        *f.expr = syn::parse_quote!(0..#len);
    }
}
