//! The rewriter of a compute function's loops: each `#[acc(loop ...)]` (or the engine's
//! marker of one, see [`crate::facts`]) becomes a sequential loop or, when partitioned, a
//! launch ([`super::launch`], [`super::gpu`]); a directive anywhere else is an error.
//!
//! Owns the reading of a loop directive into a [`LoopSpec`], the partitioned nest (a perfect,
//! rectangular nest of `for` loops over ranges, `collapse` deep), the control flow a chunk
//! cannot have ([`Escapes`]) and the combined construct's loop. It must not emit the launch
//! itself.
//!
//! Invariants: loops inside a partitioned loop run sequentially in the chunk (`inside`); a
//! nested item is not part of the construct and is left alone.

use super::idents;
use super::{is_acc, Construct, Ctx, LoopSpec};
use crate::cuda;
use crate::facts;
use crate::text;
use proc_macro2::{Span, TokenTree};
use quote::quote;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Attribute, Expr, ItemFn, Meta, Pat, RangeLimits, Stmt};

/// One level of a partitioned nest: its pattern, its bounds, whether the range is inclusive.
pub(super) type NestLevel = (Box<Pat>, Expr, Expr, bool);

/// Rewrites the `#[acc(loop ...)]` loops of a compute function.
pub(super) struct Rewriter<'a> {
    pub(super) ctx: &'a Ctx,
    pub(super) errors: Vec<syn::Error>,
    /// Inside a partitioned loop: nested loops run sequentially in the chunk.
    pub(super) inside: bool,
    /// The CUDA kernels of the partitioned loops, in order.
    pub(super) kernels: Vec<acc_engine::cuda::CudaKernel>,
    /// Why a partitioned loop has no CUDA form: where, and the reason.
    pub(super) missing: Vec<(Span, String)>,
    /// The routine calls of `kernels`.
    pub(super) calls: Vec<cuda::CallSite>,
    /// The user types `kernels` name.
    pub(super) types: Vec<cuda::Named>,
}

impl<'a> Rewriter<'a> {
    pub(super) fn new(ctx: &'a Ctx) -> Self {
        Rewriter {
            ctx,
            errors: Vec::new(),
            inside: false,
            kernels: Vec::new(),
            missing: Vec::new(),
            calls: Vec::new(),
            types: Vec::new(),
        }
    }
}

pub(super) fn expr_attrs(e: &mut Expr) -> Option<&mut Vec<Attribute>> {
    Some(match e {
        Expr::While(x) => &mut x.attrs,
        Expr::Loop(x) => &mut x.attrs,
        Expr::Block(x) => &mut x.attrs,
        Expr::If(x) => &mut x.attrs,
        Expr::Match(x) => &mut x.attrs,
        Expr::Call(x) => &mut x.attrs,
        Expr::MethodCall(x) => &mut x.attrs,
        Expr::Assign(x) => &mut x.attrs,
        Expr::Binary(x) => &mut x.attrs,
        Expr::Unsafe(x) => &mut x.attrs,
        _ => return None,
    })
}

impl VisitMut for Rewriter<'_> {
    // A nested item is not part of the construct (`facts::build` skips it too).
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if let Expr::ForLoop(f) = e {
            if let Some(i) = f.attrs.iter().position(is_acc) {
                let attr = f.attrs.remove(i);
                let spec = self.loop_spec(&attr);
                let f = f.clone();
                *e = self.loop_expr(f, spec);
                return;
            }
        } else if let Some(attrs) = expr_attrs(e) {
            if let Some(i) = attrs.iter().position(is_acc) {
                let attr = attrs.remove(i);
                let what = match e {
                    Expr::While(_) => "a `while` loop has no trip count to split into chunks",
                    Expr::Loop(_) => "a `loop` has no trip count to split into chunks",
                    _ => "it is not a loop",
                };
                self.errors.push(syn::Error::new_spanned(
                    &attr,
                    format!(
                        "not supported: `#[acc(loop ...)]` applies to a `for` loop over a range \
                         (`for i in a..b`); {what}"
                    ),
                ));
            }
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}

impl Rewriter<'_> {
    pub(super) fn loop_spec(&mut self, attr: &Attribute) -> LoopSpec {
        match facts::read_marker(attr) {
            Some(("loop", n)) => return self.ctx.loops[n].clone(),
            Some((_, n)) => {
                return LoopSpec {
                    partitioned: self.ctx.plain[n],
                    ..LoopSpec::default()
                }
            }
            None => {}
        }
        let spec = LoopSpec::default();
        let Meta::List(list) = &attr.meta else {
            self.errors.push(syn::Error::new_spanned(
                attr,
                "write the loop directive in parentheses: `#[acc(loop gang vector)]`",
            ));
            return spec;
        };
        let starts_with_loop = matches!(
            list.tokens.clone().into_iter().next(),
            Some(TokenTree::Ident(i)) if i == "loop"
        );
        if !starts_with_loop {
            self.errors.push(syn::Error::new_spanned(
                &list.tokens,
                "inside a compute function `#[acc(...)]` takes a loop directive: \
                 `#[acc(loop ...)]`",
            ));
            return spec;
        }
        if self.ctx.construct == Construct::Data {
            self.errors.push(syn::Error::new_spanned(
                attr,
                "a loop directive needs a compute construct; `#[acc::data]` is a data region: \
                 call a `#[acc::parallel]` function from it",
            ));
            return spec;
        }
        if self.ctx.laid_out {
            // `facts::build` turned every loop directive it reached into a marker.
            self.errors.push(syn::Error::new_spanned(
                attr,
                "this loop directive is not inside the compute function's own body",
            ));
        } else {
            // The construct has errors: report the loop directive's too, all at once.
            let _ = text::directive("", list.tokens.clone(), attr.span(), &mut self.errors);
        }
        spec
    }

    /// Whether the loop runs as a launch of chunks: the engine partitions it and it is not
    /// inside another such loop (levels inside a chunk run in order, as on the host in C).
    pub(super) fn partitioned(&self, spec: &LoopSpec) -> bool {
        spec.partitioned && !self.inside && self.ctx.construct != Construct::Data
    }

    /// The expansion of one loop with a loop directive.
    pub(super) fn loop_expr(&mut self, f: syn::ExprForLoop, spec: LoopSpec) -> Expr {
        if !self.partitioned(&spec) {
            return self.sequential_loop(f, &spec);
        }
        let collapse = spec.collapse.max(1);
        let Some((levels, mut body)) = self.nest(&f, collapse) else {
            return Expr::ForLoop(f);
        };
        self.check_rectangular(&levels);
        // Iterations that differ in work are dealt out in balanced blocks on the host.
        let balanced = match (&*levels[0].0, levels.len()) {
            (Pat::Ident(p), 1) => crate::uneven::uneven_trips(&p.ident, &body),
            _ => false,
        };
        let was = self.inside;
        self.inside = true;
        self.visit_block_mut(&mut body);
        self.inside = was;
        let mut esc = Escapes {
            depth: 0,
            errors: &mut self.errors,
        };
        esc.visit_block(&body);

        // The CUDA form of this launch.
        let entry = format!(
            "__acc_rs_{}_{}",
            self.ctx.function,
            self.kernels.len() + self.missing.len()
        );
        self.launch(&f, &spec, &levels, &body, balanced, &entry)
    }

    /// A sequential loop level partitions nothing: loops inside it may still be.
    fn sequential_loop(&mut self, mut f: syn::ExprForLoop, spec: &LoopSpec) -> Expr {
        self.visit_block_mut(&mut f.body);
        let privates = &spec.privates;
        let body = &f.body;
        let (label, pat, expr) = (&f.label, &f.pat, &f.expr);
        syn::parse_quote! {
            #label for #pat in #expr {
                #( let _ = &mut #privates; )*
                #( #[allow(unused_mut, unused_variables, unused_assignments)] let mut #privates = #privates; )*
                #body
            }
        }
    }

    /// The loop nest a partitioned loop with `collapse` levels heads: (pattern, range
    /// expression) per level, and the innermost body; `None` (after an error) when it is not
    /// a perfect nest of `for` loops over ranges.
    fn nest(
        &mut self,
        f: &syn::ExprForLoop,
        collapse: usize,
    ) -> Option<(Vec<NestLevel>, syn::Block)> {
        let mut levels = Vec::new();
        let mut cur = f.clone();
        loop {
            let ok_pat = matches!(&*cur.pat, Pat::Ident(_) | Pat::Wild(_));
            if !ok_pat {
                self.errors.push(syn::Error::new_spanned(
                    &cur.pat,
                    "not supported: a partitioned loop binds its index to a name",
                ));
                return None;
            }
            let Expr::Range(r) = &*cur.expr else {
                self.errors.push(syn::Error::new_spanned(
                    &cur.expr,
                    "not supported: a partitioned loop iterates over a range (`a..b` or \
                     `a..=b`), whose trip count is known before the loop starts; iterate over \
                     indices instead",
                ));
                return None;
            };
            let (Some(lo), Some(hi)) = (&r.start, &r.end) else {
                self.errors.push(syn::Error::new_spanned(
                    r,
                    "not supported: an open range has no trip count; give both bounds",
                ));
                return None;
            };
            let inclusive = matches!(r.limits, RangeLimits::Closed(_));
            levels.push((cur.pat.clone(), (**lo).clone(), (**hi).clone(), inclusive));
            if levels.len() == collapse {
                break;
            }
            let inner = match cur.body.stmts.as_slice() {
                [Stmt::Expr(Expr::ForLoop(g), _)] => {
                    if let Some(a) = g.attrs.iter().find(|a| is_acc(a)) {
                        self.errors.push(syn::Error::new_spanned(
                            a,
                            format!(
                                "this loop belongs to the `collapse({collapse})` nest above, \
                                 which the outer directive partitions; remove its own directive"
                            ),
                        ));
                        return None;
                    }
                    g.clone()
                }
                _ => {
                    self.errors.push(syn::Error::new_spanned(
                        &cur.body,
                        format!(
                            "collapse({collapse}) needs {collapse} perfectly nested `for` loops \
                             over ranges: the body of this loop must be one `for` loop and \
                             nothing else"
                        ),
                    ));
                    return None;
                }
            };
            cur = inner;
        }
        Some((levels, cur.body.clone()))
    }

    /// Bounds of inner levels may not use outer indices: the nest must be rectangular.
    fn check_rectangular(&mut self, levels: &[NestLevel]) {
        for (j, (_, lo, hi, _)) in levels.iter().enumerate().skip(1) {
            let used = idents(&quote!(#lo #hi));
            for (pat, ..) in &levels[..j] {
                if let Pat::Ident(pi) = &**pat {
                    if used.contains(&pi.ident.to_string()) {
                        self.errors.push(syn::Error::new_spanned(
                            quote!(#lo..#hi),
                            format!(
                                "not supported: the bounds of a collapsed loop may not depend \
                                 on `{}`; the nest must be rectangular",
                                pi.ident
                            ),
                        ));
                    }
                }
            }
        }
    }
}

/// Finds control flow that would leave a partitioned loop's body, which runs as a closure per
/// chunk.
pub(super) struct Escapes<'a> {
    depth: usize,
    errors: &'a mut Vec<syn::Error>,
}

impl<'ast> Visit<'ast> for Escapes<'_> {
    fn visit_expr_return(&mut self, e: &'ast syn::ExprReturn) {
        self.errors.push(syn::Error::new_spanned(
            e,
            "not supported: `return` inside a partitioned loop; its iterations run in chunks \
             on other threads, so they cannot return from the function",
        ));
    }
    fn visit_expr_try(&mut self, e: &'ast syn::ExprTry) {
        self.errors.push(syn::Error::new_spanned(
            e,
            "not supported: `?` inside a partitioned loop; its iterations run in chunks on \
             other threads, so they cannot return from the function",
        ));
    }
    fn visit_expr_break(&mut self, e: &'ast syn::ExprBreak) {
        if self.depth == 0 || e.label.is_some() {
            self.errors.push(syn::Error::new_spanned(
                e,
                "not supported: `break` out of a partitioned loop; OpenACC loops run every \
                 iteration",
            ));
        }
        syn::visit::visit_expr_break(self, e);
    }
    fn visit_expr_continue(&mut self, e: &'ast syn::ExprContinue) {
        if e.label.is_some() {
            self.errors.push(syn::Error::new_spanned(
                e,
                "not supported: labelled `continue` inside a partitioned loop",
            ));
        }
    }
    fn visit_expr_for_loop(&mut self, e: &'ast syn::ExprForLoop) {
        self.depth += 1;
        syn::visit::visit_expr_for_loop(self, e);
        self.depth -= 1;
    }
    fn visit_expr_while(&mut self, e: &'ast syn::ExprWhile) {
        self.depth += 1;
        syn::visit::visit_expr_while(self, e);
        self.depth -= 1;
    }
    fn visit_expr_loop(&mut self, e: &'ast syn::ExprLoop) {
        self.depth += 1;
        syn::visit::visit_expr_loop(self, e);
        self.depth -= 1;
    }
    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

impl Rewriter<'_> {
    /// Applies a combined construct's loop part (`spec`) to the body's one top-level `for`
    /// (`fors`: the top-level `for` loops); whether that loop is partitioned, `None` when
    /// the construct is not combined or the loop is not there.
    pub(super) fn combined_loop(
        &mut self,
        func: &mut ItemFn,
        fors: Option<Vec<usize>>,
        spec: LoopSpec,
        construct: &str,
    ) -> Option<bool> {
        let fors = fors?;
        if fors.len() != 1 {
            self.errors.push(syn::Error::new_spanned(
                &func.sig.ident,
                format!(
                    "the combined `{}` applies its loop part to the one `for` loop at the top \
                     of the function body; `{}` has {}",
                    construct,
                    func.sig.ident,
                    fors.len()
                ),
            ));
            return None;
        }
        let Stmt::Expr(e @ Expr::ForLoop(_), _) = &mut func.block.stmts[fors[0]] else {
            return None;
        };
        let Expr::ForLoop(f) = e.clone() else {
            unreachable!()
        };
        if let Some(a) = f.attrs.iter().find(|a| is_acc(a)) {
            self.errors.push(syn::Error::new_spanned(
                a,
                format!(
                    "the combined `{}` already applies to this loop; move these clauses \
                     into it",
                    construct
                ),
            ));
            return None;
        }
        let partitioned = self.partitioned(&spec);
        *e = self.loop_expr(f, spec);
        Some(partitioned)
    }
}
