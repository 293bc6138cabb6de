use super::gpu::launch_args;
use super::idents;
use super::reduction::op_marker;
use super::{is_acc, Construct, Ctx, LoopSpec, ParamKind};
use crate::cuda;
use crate::facts;
use crate::owned;
use crate::text;
use acc_engine::directive::ReductionOp;
use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Attribute, Expr, ItemFn, Meta, Pat, RangeLimits, Stmt};

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
    pub(super) fn loop_expr(&mut self, mut f: syn::ExprForLoop, spec: LoopSpec) -> Expr {
        if !self.partitioned(&spec) {
            // A sequential loop level partitions nothing: loops inside it may still be.
            self.visit_block_mut(&mut f.body);
            let privates = &spec.privates;
            let body = &f.body;
            let (label, pat, expr) = (&f.label, &f.pat, &f.expr);
            return syn::parse_quote! {
                #label for #pat in #expr {
                    #( let _ = &mut #privates; )*
                    #( #[allow(unused_mut, unused_variables, unused_assignments)] let mut #privates = #privates; )*
                    #body
                }
            };
        }
        let collapse = spec.collapse.max(1);
        // The loop nest: (pattern, range expression) per level, and the innermost body.
        let mut levels = Vec::new();
        let mut cur = f.clone();
        loop {
            let ok_pat = matches!(&*cur.pat, Pat::Ident(_) | Pat::Wild(_));
            if !ok_pat {
                self.errors.push(syn::Error::new_spanned(
                    &cur.pat,
                    "not supported: a partitioned loop binds its index to a name",
                ));
                return Expr::ForLoop(f);
            }
            let Expr::Range(r) = &*cur.expr else {
                self.errors.push(syn::Error::new_spanned(
                    &cur.expr,
                    "not supported: a partitioned loop iterates over a range (`a..b` or \
                     `a..=b`), whose trip count is known before the loop starts; iterate over \
                     indices instead",
                ));
                return Expr::ForLoop(f);
            };
            let (Some(lo), Some(hi)) = (&r.start, &r.end) else {
                self.errors.push(syn::Error::new_spanned(
                    r,
                    "not supported: an open range has no trip count; give both bounds",
                ));
                return Expr::ForLoop(f);
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
                        return Expr::ForLoop(f);
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
                    return Expr::ForLoop(f);
                }
            };
            cur = inner;
        }
        // Bounds of inner levels may not use outer indices: the nest must be rectangular.
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
        let mut body = cur.body.clone();
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
        let cuda_levels: Vec<cuda::Level> = levels
            .iter()
            .map(|(pat, lo, hi, _)| cuda::Level {
                var: match &**pat {
                    Pat::Ident(pi) => Some(pi.ident.to_string()),
                    _ => None,
                },
                lo: lo.clone(),
                hi: hi.clone(),
            })
            .collect();
        let red_names: Vec<(ReductionOp, String)> = spec
            .reductions
            .iter()
            .map(|(op, v)| (*op, v.to_string()))
            .collect();
        let per_chunk_names: Vec<String> =
            self.ctx.per_chunk.iter().map(|v| v.to_string()).collect();
        let private_names: Vec<String> = spec.privates.iter().map(|v| v.to_string()).collect();
        let translated = cuda::translate(&cuda::Input {
            function: &self.ctx.function,
            entry: entry.clone(),
            params: &self.ctx.outer,
            levels: &cuda_levels,
            body: &body,
            reductions: &red_names,
            per_chunk: &per_chunk_names,
            privates: &private_names,
            locals: &self.ctx.locals,
        });

        let n = levels.len();
        let los: Vec<_> = (0..n).map(|j| format_ident!("__acc_lo{}", j)).collect();
        let ns: Vec<_> = (0..n).map(|j| format_ident!("__acc_n{}", j)).collect();
        let mut setup = TokenStream::new();
        for (j, (_, lo, hi, inclusive)) in levels.iter().enumerate() {
            let (l, c) = (&los[j], &ns[j]);
            setup.extend(if *inclusive {
                quote!(let (#l, #c) = ::acc::__private::bounds_inclusive(#lo..=#hi);)
            } else {
                quote!(let (#l, #c) = ::acc::__private::bounds(#lo..#hi);)
            });
        }
        // Each chunk runs iterations `__acc_range` of the flattened nest. With one level the
        // iteration is the index; with more, the chunk walks runs of the innermost level (a
        // plain `for`, which the compiler can vectorize), the outer indices `__acc_at<j>`
        // computed by division once per chunk and carried like an odometer after each run.
        let privates_and_body = {
            let privates = &spec.privates;
            quote! {
                #( #[allow(unused_mut, unused_variables, unused_assignments)] let mut #privates = #privates; )*
                #body
            }
        };
        let last = n - 1;
        let iterate = if n == 1 {
            let (pat, l) = (&levels[0].0, &los[0]);
            quote! {
                for __acc_at in __acc_range {
                    let #pat = ::acc::__private::nth(#l, __acc_at);
                    #privates_and_body
                }
            }
        } else {
            let ats: Vec<_> = (0..n).map(|j| format_ident!("__acc_at{}", j)).collect();
            let mut start = quote!(let mut __acc_rest: i64 = __acc_range.start;);
            for j in (0..n).rev() {
                let (at, c) = (&ats[j], &ns[j]);
                start.extend(quote! {
                    let mut #at: i64 = __acc_rest % #c;
                    __acc_rest /= #c;
                });
            }
            let mut outer = TokenStream::new();
            for j in 0..last {
                let (pat, l, at) = (&levels[j].0, &los[j], &ats[j]);
                outer.extend(quote!(let #pat = ::acc::__private::nth(#l, #at);));
            }
            let mut carry = TokenStream::new();
            for j in 0..last {
                let (at, c) = (&ats[j], &ns[j]);
                carry = if j == 0 {
                    quote!(#at += 1;)
                } else {
                    quote!(#at += 1; if #at == #c { #at = 0; #carry })
                };
            }
            let (pat, l, at, c) = (&levels[last].0, &los[last], &ats[last], &ns[last]);
            quote! {
                #start
                let _ = __acc_rest;
                let mut __acc_k: i64 = __acc_range.start;
                while __acc_k < __acc_range.end {
                    let __acc_run: i64 = ::core::cmp::min(#c - #at, __acc_range.end - __acc_k);
                    #outer
                    for __acc_in in #at..#at + __acc_run {
                        let #pat = ::acc::__private::nth(#l, __acc_in);
                        #privates_and_body
                    }
                    __acc_k += __acc_run;
                    #at = 0;
                    #carry
                }
            }
        };
        let used = idents(&body.to_token_stream());
        let used = &used;
        let param_used = |k: ParamKind| {
            self.ctx
                .params
                .iter()
                .filter(move |p| p.kind == k && used.contains(&p.name.to_string()))
                .map(|p| p.name.clone())
                .collect::<Vec<_>>()
        };
        let (muts, shared_slices, scalars) = (
            param_used(ParamKind::Mut),
            param_used(ParamKind::Shared),
            param_used(ParamKind::Scalar),
        );
        let index_vars: Vec<syn::Ident> = levels
            .iter()
            .filter_map(|(pat, ..)| match &**pat {
                Pat::Ident(pi) => Some(pi.ident.clone()),
                _ => None,
            })
            .collect();
        let changing: Vec<syn::Ident> = self
            .ctx
            .per_chunk
            .iter()
            .chain(&spec.privates)
            .chain(spec.reductions.iter().map(|(_, v)| v))
            .cloned()
            .collect();
        let (access, errs) = owned::analyze(
            &owned::Scope {
                mut_slices: &muts,
                shared_slices: &shared_slices,
                indices: &index_vars,
                changing: &changing,
            },
            &body,
        );
        self.errors.extend(errs);
        // How each `&mut [T]` reaches the chunks: shared for reading, cut into owned windows
        // when written, or (in an `unsafe fn`) shared unchecked.
        let mut read_only = Vec::new();
        let mut windowed: Vec<(syn::Ident, &[owned::Site])> = Vec::new();
        let mut unchecked = Vec::new();
        for m in &muts {
            match access.get(&m.to_string()) {
                None => {}
                Some(owned::Access::Read) => read_only.push(m.clone()),
                Some(owned::Access::Written(_)) if self.ctx.unchecked => unchecked.push(m.clone()),
                Some(owned::Access::Written(sites)) => {
                    if let Some(e) = owned::unestimated(&m.to_string(), sites) {
                        self.errors.push(e);
                    }
                    windowed.push((m.clone(), sites));
                }
            }
        }
        // Values the chunks read are copied into locals, so the optimizer keeps them in
        // registers instead of reloading them through the closure's captures after every
        // store (parameters only: a body variable of that name may not be `Copy`).
        let rebind: Vec<&syn::Ident> = scalars
            .iter()
            .chain(&shared_slices)
            .filter(|v| {
                !self.ctx.bound.contains(&v.to_string()) && !changing.iter().any(|c| c == *v)
            })
            .chain(los.iter())
            .chain(ns.iter())
            .collect();
        let ro_tmp: Vec<_> = read_only
            .iter()
            .map(|m| format_ident!("__acc_read_{}", m))
            .collect();
        let shared: Vec<_> = unchecked
            .iter()
            .map(|m| format_ident!("__acc_shared_{}", m))
            .collect();
        let win_names: Vec<&syn::Ident> = windowed.iter().map(|(m, _)| m).collect();
        let win_strs: Vec<String> = win_names.iter().map(|m| m.to_string()).collect();
        let win_lens: Vec<syn::Ident> = win_strs.iter().map(|m| owned::len_ident(m)).collect();
        let extent = {
            let level_vars: Vec<Option<syn::Ident>> = levels
                .iter()
                .map(|(pat, ..)| match &**pat {
                    Pat::Ident(pi) => Some(pi.ident.clone()),
                    _ => None,
                })
                .collect();
            let sites: Vec<&[owned::Site]> = windowed.iter().map(|(_, s)| *s).collect();
            owned::extent(&level_vars, &los, &ns, &sites)
        };
        let per_chunk = &self.ctx.per_chunk;
        let privates = &spec.privates;
        let red_vars: Vec<&syn::Ident> = spec.reductions.iter().map(|(_, v)| v).collect();
        let red_init: Vec<TokenStream> = spec
            .reductions
            .iter()
            .map(|(op, v)| {
                let op = op_marker(*op, v.span());
                quote_spanned!(v.span()=> let mut #v = ::acc::__private::identity::<#op, _>(&#v);)
            })
            .collect();
        let red_combine: Vec<TokenStream> = spec
            .reductions
            .iter()
            .enumerate()
            .map(|(i, (op, v))| {
                let op = op_marker(*op, v.span());
                let i = syn::Index::from(i);
                quote_spanned!(v.span()=> #v = ::acc::__private::combine::<#op, _>(#v, __acc_part.#i);)
            })
            .collect();
        let gangs = match &self.ctx.num_gangs {
            Some(e) => quote!(::core::option::Option::Some((#e) as u32)),
            None => quote!(::core::option::Option::None),
        };
        let result = if red_vars.is_empty() {
            TokenStream::new()
        } else {
            quote!((#(#red_vars,)*))
        };
        let combine = if red_vars.is_empty() {
            quote!(let _ = __acc_parts;)
        } else {
            quote! {
                for __acc_part in __acc_parts {
                    #(#red_combine)*
                }
            }
        };
        let gpu = match translated {
            Err(why) => {
                self.missing
                    .push((why.span.unwrap_or(f.for_token.span), why.why));
                quote!(if false {})
            }
            Ok(t) => {
                self.kernels.push(t.kernel);
                self.calls.extend(t.calls);
                let args = launch_args(&t.args, &los, &ns);
                let reds = spec
                    .reductions
                    .iter()
                    .zip(&t.reductions)
                    .map(|((op, v), ty)| {
                        let op = op_marker(*op, v.span());
                        match ty {
                            Some(ty) => {
                                let ty = ty.rust();
                                quote!(::acc::__private::KRed::new::<#op, _>(&mut #v, #ty))
                            }
                            None => quote!(::acc::__private::KRed::signature::<#op, _>(&mut #v)),
                        }
                    });
                let module = format_ident!("__ACC_CUDA_{}", self.ctx.function.to_uppercase());
                quote! {
                    if let ::core::option::Option::Some(__acc_gpu) = ::acc::__private::gpu() {
                        ::acc::__private::launch_cuda(
                            __acc_gpu,
                            &#module,
                            #entry,
                            ::acc::__private::Loc { file: ::core::file!(), line: ::core::line!() },
                            __acc_total,
                            #gangs,
                            &[#(#args),*],
                            &mut [#(#reds),*],
                        );
                    }
                }
            }
        };
        let chunk_prologue = quote! {
            #( #[allow(unused_variables)] let #rebind = #rebind; )*
            #( #[allow(unused_variables)] let #read_only = #ro_tmp; )*
            #( #[allow(unused_mut, unused_variables)] let mut #unchecked = #shared; )*
            #( #[allow(unused_mut, unused_variables)] let mut #per_chunk = #per_chunk; )*
            #(#red_init)*
            #iterate
            #result
        };
        let loc = quote!(::acc::__private::Loc {
            file: ::core::file!(),
            line: ::core::line!()
        });
        let host_launch = if windowed.is_empty() {
            quote! {
                ::acc::__private::launch(
                    #loc,
                    __acc_total,
                    #gangs,
                    #balanced,
                    &|__acc_range: ::core::ops::Range<i64>| { #chunk_prologue },
                )
            }
        } else {
            quote! {
                ::acc::__private::launch_owned(
                    #loc,
                    __acc_total,
                    #gangs,
                    #balanced,
                    ( #( ::acc::__private::Owned::new(&mut *#win_names, #win_strs), )* ),
                    #extent,
                    &|__acc_range: ::core::ops::Range<i64>, __acc_windows| {
                        #[allow(unused_mut)]
                        let ( #( mut #win_names, )* ) = __acc_windows;
                        #chunk_prologue
                    },
                )
            }
        };
        syn::parse_quote! {
            {
                #setup
                #( let _ = &mut #privates; )*
                let __acc_total: i64 = 1 #(* #ns)*;
                #gpu else {
                #( let #ro_tmp: &[_] = &*#read_only; )*
                #( let #win_lens: usize = #win_names.len(); )*
                // SAFETY: the function is an `unsafe fn` whose callers promise that the
                // iterations of its partitioned loops write different elements.
                #( #[allow(unused_unsafe)] let #shared = unsafe { ::acc::__private::SliceMut::new(&mut *#unchecked) }; )*
                let __acc_parts = #host_launch;
                #combine
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
