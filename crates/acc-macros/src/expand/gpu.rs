use super::idents;
use super::is_acc;
use super::rewrite::Rewriter;
use crate::cuda;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use std::collections::BTreeSet;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Expr, Stmt};

/// Finds host code of a compute function (outside its partitioned loops) that reads or writes
/// slice elements: on a GPU that code would see the host copy, so the function has no CUDA form.
pub(super) struct HostUse<'a> {
    pub(super) rw: Rewriter<'a>,
    pub(super) slices: BTreeSet<String>,
    /// The combined construct's loop: whether it is partitioned.
    pub(super) combined: Option<bool>,
    pub(super) top: bool,
    pub(super) found: Vec<(Span, String)>,
    /// A partitioned loop was seen.
    pub(super) partitioned: bool,
}

impl<'ast> Visit<'ast> for HostUse<'_> {
    fn visit_block(&mut self, b: &'ast syn::Block) {
        let top = std::mem::replace(&mut self.top, false);
        for s in &b.stmts {
            if top && self.combined == Some(true) {
                if let Stmt::Expr(Expr::ForLoop(f), _) = s {
                    self.partitioned = true;
                    self.visit_expr(&f.expr);
                    continue;
                }
            }
            self.visit_stmt(s);
        }
    }
    fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
        if let Some(a) = f.attrs.iter().find(|a| is_acc(a)) {
            let spec = self.rw.loop_spec(a);
            if self.rw.partitioned(&spec) {
                self.partitioned = true;
                self.visit_expr(&f.expr);
                return;
            }
        }
        syn::visit::visit_expr_for_loop(self, f);
    }
    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        if let Expr::Path(p) = &*m.receiver {
            let is_slice = p
                .path
                .get_ident()
                .is_some_and(|i| self.slices.contains(&i.to_string()));
            if is_slice && (m.method == "len" || m.method == "is_empty") {
                for a in &m.args {
                    self.visit_expr(a);
                }
                return;
            }
        }
        syn::visit::visit_expr_method_call(self, m);
    }
    fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
        if let Some(i) = p.path.get_ident() {
            if self.slices.contains(&i.to_string()) {
                self.found.push((
                    i.span(),
                    format!(
                        "`{i}` is used outside a partitioned loop, by host code, which cannot \
                         reach its GPU copy (only `{i}.len()` can be)"
                    ),
                ));
            }
        }
    }
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        let used = idents(&m.tokens);
        if let Some(s) = self.slices.iter().find(|s| used.contains(*s)) {
            self.found.push((
                m.path.span(),
                format!("a macro outside a partitioned loop names the slice `{s}`"),
            ));
        }
    }
}

/// The arguments of a CUDA launch, as `KArg`s.
pub(super) fn launch_args(
    args: &[cuda::ArgSpec],
    los: &[syn::Ident],
    ns: &[syn::Ident],
) -> Vec<TokenStream> {
    args.iter()
        .map(|a| match a {
            cuda::ArgSpec::Slice(s) => {
                let s = format_ident!("{}", s);
                quote!(::acc::__private::KArg::slice(&*#s))
            }
            cuda::ArgSpec::Len(s) => {
                let s = format_ident!("{}", s);
                quote!(::acc::__private::KArg::value(&#s.len(), "usize"))
            }
            cuda::ArgSpec::Value(v, ty) => {
                let v = format_ident!("{}", v);
                let ty = ty.rust();
                quote!(::acc::__private::KArg::value(&#v, #ty))
            }
            cuda::ArgSpec::Signature(v) => {
                let v = format_ident!("{}", v);
                quote!(::acc::__private::KArg::signature(&#v))
            }
            cuda::ArgSpec::Lo(j, ty) => {
                let l = &los[*j];
                let ty = ty.rust();
                quote!(::acc::__private::KArg::value(&#l, #ty))
            }
            cuda::ArgSpec::Count(j) => {
                let c = &ns[*j];
                quote!(::acc::__private::KArg::value(&#c, "i64"))
            }
        })
        .collect()
}
