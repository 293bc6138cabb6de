//! The GPU side of a compute function: the CUDA launch of each partitioned loop, host
//! statements that touch slices as one-thread kernels, and the function's module, the hidden
//! static `__ACC_CUDA_<NAME>` (its CUDA source and entries, or why it has none).
//!
//! Owns the calls of [`crate::cuda::translate`], `launch_cuda` and its `KArg`s, [`HostUse`]
//! (host code that would read the host copy on a GPU), and the `compile_error!`s for Rust
//! outside the CUDA subset. It must not know the translation's inside (only its `Input` and
//! `Translated`) nor the host launch ([`super::launch`]).
//!
//! Invariants: a kernel's entry is `__acc_rs_<function>_<k>`, `k` counting the kernels and
//! missing forms before it (partitioned loops first, then host statements); a function with any missing form has an empty source and no
//! routine calls, so a GPU run of it fails on entry naming the reason.

use super::idents;
use super::is_acc;
use super::launch::Bounds;
use super::reduction;
use super::rewrite::NestLevel;
use super::rewrite::Rewriter;
use super::{Ctx, LoopSpec, ParamKind};
use crate::cuda;
use acc_engine::directive::ReductionOp;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use std::collections::BTreeSet;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Expr, ItemFn, Pat, Stmt};

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
            cuda::ArgSpec::Bytes(v) => {
                let v = format_ident!("{}", v);
                quote!(::acc::__private::KArg::bytes(&#v))
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

/// Top-level statements of host code that touch slices run as one-thread kernels on a GPU
/// (a sequential `serial` loop, a `kernels` loop left sequential), when they translate: each
/// becomes a choice between the launch and the statement. Returns why the function has no
/// CUDA form (the loops' reasons first), empty when it has one.
pub(super) fn host_kernels(
    ctx: &Ctx,
    rw: &mut Rewriter<'_>,
    original: &syn::Block,
    func: &mut ItemFn,
    combined_partitioned: Option<bool>,
) -> Vec<(Span, String)> {
    let slices: BTreeSet<String> = ctx
        .params
        .iter()
        .filter(|p| p.kind != ParamKind::Scalar)
        .map(|p| p.name.to_string())
        .collect();
    let mut hu = HostUse {
        rw: Rewriter::new(ctx),
        slices,
        combined: combined_partitioned,
        top: true,
        found: Vec::new(),
        partitioned: false,
    };
    let mut missing = std::mem::take(&mut rw.missing);
    for (k, stmt) in original.stmts.iter().enumerate() {
        hu.found.clear();
        hu.partitioned = false;
        hu.top = combined_partitioned.is_some();
        if hu.top {
            // The combined construct's loop is this block's one top-level `for`.
            hu.visit_block(&syn::Block {
                brace_token: original.brace_token,
                stmts: vec![stmt.clone()],
            });
        } else {
            hu.visit_stmt(stmt);
        }
        if hu.found.is_empty() {
            continue;
        }
        let no_value = match stmt {
            Stmt::Expr(e, semi) => {
                semi.is_some() || matches!(e, Expr::ForLoop(_) | Expr::While(_) | Expr::Loop(_))
            }
            _ => false,
        };
        if hu.partitioned || !no_value {
            missing.push(hu.found[0].clone());
            continue;
        }
        let Stmt::Expr(e, semi) = &func.block.stmts[k] else {
            unreachable!()
        };
        let (e, semi) = (e.clone(), *semi);
        let entry = format!(
            "__acc_rs_{}_{}",
            ctx.function,
            rw.kernels.len() + missing.len()
        );
        match single_kernel(ctx, rw, &entry, &e, semi) {
            Ok(stmt) => func.block.stmts[k] = stmt,
            Err(why) => missing.push((why.span.unwrap_or(hu.found[0].0), why.why)),
        }
    }
    missing
}

/// One statement of host code as a one-thread kernel: the statement that launches it on a
/// GPU and runs `e` on the host otherwise.
fn single_kernel(
    ctx: &Ctx,
    rw: &mut Rewriter<'_>,
    entry: &str,
    e: &Expr,
    semi: Option<syn::Token![;]>,
) -> Result<Stmt, cuda::Unsupported> {
    let per_chunk: Vec<String> = ctx.per_chunk.iter().map(|v| v.to_string()).collect();
    let body = syn::Block {
        brace_token: Default::default(),
        stmts: vec![Stmt::Expr(e.clone(), semi)],
    };
    let t = cuda::translate(&cuda::Input {
        function: &ctx.function,
        entry: entry.to_string(),
        params: &ctx.outer,
        levels: &[],
        body: &body,
        reductions: &[],
        per_chunk: &per_chunk,
        privates: &[],
        locals: &ctx.locals,
    })?;
    rw.kernels.push(t.kernel);
    rw.calls.extend(t.calls);
    rw.add_types(t.types);
    let args = launch_args(&t.args, &[], &[]);
    let module = format_ident!("__ACC_CUDA_{}", ctx.function.to_uppercase());
    let entry = entry_of(ctx, entry);
    Ok(syn::parse_quote! {
        if let ::core::option::Option::Some(__acc_gpu) = ::acc::__private::gpu() {
            ::acc::__private::launch_cuda(
                __acc_gpu,
                &#module,
                #entry,
                ::acc::__private::Loc { file: ::core::file!(), line: ::core::line!() },
                1,
                ::core::option::Option::Some(1),
                &[#(#args),*],
                &mut [],
            );
        } else {
            #e #semi
        }
    })
}

/// The entry a launch runs: `entry`, or for a generic function the instantiation for its type
/// parameter (`<T as Float>::__acc_pick("..._f32", "..._f64")`).
fn entry_of(ctx: &Ctx, entry: &str) -> TokenStream {
    match &ctx.generic {
        None => quote!(#entry),
        Some(t) => {
            let t = format_ident!("{}", t);
            let (f, d) = (format!("{entry}_f32"), format!("{entry}_f64"));
            quote!(<#t as ::acc::__private::Float>::__acc_pick(#f, #d))
        }
    }
}

/// A generic function's kernels, once per float type: each in its namespace, where the type
/// parameter's C name is that type. Returns why there is no form when the function's generics
/// are not one `T: acc::Float`.
fn instantiate(ctx: &Ctx, func: &ItemFn, rw: &mut Rewriter<'_>) -> Option<(Span, String)> {
    let g = &func.sig.generics;
    let (types, consts) = (g.type_params().count(), g.const_params().count());
    if types + consts == 0 {
        return None;
    }
    let Some(t) = ctx.generic.as_ref().filter(|_| types == 1 && consts == 0) else {
        return Some((
            g.span(),
            "a generic compute function has a CUDA form when its one type parameter is bounded \
             by `acc::Float` (`fn f<T: acc::Float>(..)`)"
                .into(),
        ));
    };
    let alias = cuda::generic(t).alias;
    let mut out = Vec::new();
    for k in std::mem::take(&mut rw.kernels) {
        for (suffix, c) in [("f32", "float"), ("f64", "double")] {
            let mut k = k.clone();
            k.entry = format!("{}_{suffix}", k.entry);
            k.types = format!("typedef {c} {alias};\n{}", k.types);
            out.push(k);
        }
    }
    rw.kernels = out;
    None
}

/// The expanded compute function and its CUDA module: the hidden static
/// `__ACC_CUDA_<NAME>` with the kernels' source and entries, or why there is none (and a
/// compile error where each reason stands).
pub(super) fn with_module(
    ctx: &Ctx,
    func: &ItemFn,
    prologue: TokenStream,
    rw: &mut Rewriter<'_>,
    mut missing: Vec<(Span, String)>,
) -> TokenStream {
    missing.extend(instantiate(ctx, func, rw));
    let body = &func.block.stmts;
    let attrs = &func.attrs;
    let vis = &func.vis;
    let sig = &func.sig;
    let module = format_ident!("__ACC_CUDA_{}", ctx.function.to_uppercase());
    let function = &ctx.function;
    // Rust outside the device subset is a compile error where it stands: a compute function
    // runs on the GPU too, and finding out there would be too late.
    let mut no_form = TokenStream::new();
    for (span, why) in &missing {
        let msg = format!(
            "`{function}` has no CUDA form: {why}; the body of a compute function runs on the \
             GPU too (the `acc` crate docs list the Rust device code may use)"
        );
        no_form.extend(quote_spanned!(*span=> ::core::compile_error!(#msg);));
    }
    no_form.extend(crate::routine::require_routines(&rw.calls));
    let (source, kernels_at) = if missing.is_empty() {
        let head = acc_engine::cuda::emit_module(cuda::SUPPORT, &[]);
        let source = acc_engine::cuda::emit_module(cuda::SUPPORT, &rw.kernels);
        debug_assert!(source.starts_with(&head));
        (source, head.len())
    } else {
        rw.calls.clear();
        rw.types.clear();
        (String::new(), 0)
    };
    let entries: Vec<&str> = rw.kernels.iter().map(|k| k.entry.as_str()).collect();
    let missing = missing
        .iter()
        .map(|(span, why)| quote_spanned!(*span=> (::core::file!(), ::core::line!(), #why)));
    let calls = crate::routine::calls(&rw.calls);
    let types = crate::routine::types(&rw.types);
    quote! {
        #(#attrs)*
        #vis #sig {
            ::acc::__private::cuda_form(&#module);
            #prologue
            #(#body)*
        }

        #no_form

        /// The CUDA form of the function (acc-macros): its module, or why it has none.
        #[doc(hidden)]
        #[allow(non_upper_case_globals)]
        #vis static #module: ::acc::__private::CudaModule = ::acc::__private::CudaModule {
            function: #function,
            source: #source,
            entries: &[#(#entries),*],
            missing: &[#(#missing),*],
            calls: &[#(#calls),*],
            types: &[#(#types),*],
            kernels_at: #kernels_at,
            assembled: ::acc::__private::Assembled::new(),
        };
    }
}

impl Rewriter<'_> {
    /// Adds the user types a kernel names to the module's, each once.
    fn add_types(&mut self, types: Vec<cuda::Named>) {
        for n in types {
            if !self.types.contains(&n) {
                self.types.push(n);
            }
        }
    }

    /// The CUDA form of a partitioned loop: its nest of `levels` around `body`.
    pub(super) fn translate_launch(
        &self,
        entry: &str,
        levels: &[NestLevel],
        body: &syn::Block,
        spec: &LoopSpec,
    ) -> Result<cuda::Translated, cuda::Unsupported> {
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
        cuda::translate(&cuda::Input {
            function: &self.ctx.function,
            entry: entry.to_string(),
            params: &self.ctx.outer,
            levels: &cuda_levels,
            body,
            reductions: &red_names,
            per_chunk: &per_chunk_names,
            privates: &private_names,
            locals: &self.ctx.locals,
        })
    }

    /// The GPU branch of a partitioned loop's block: `if let Some(gpu) = gpu() { launch_cuda }`
    /// when it has a CUDA form (its kernel joins the module), else `if false {}` (the reason
    /// joins the module's `missing`, `for_span` where none is more precise).
    pub(super) fn gpu_launch(
        &mut self,
        translated: Result<cuda::Translated, cuda::Unsupported>,
        for_span: Span,
        entry: &str,
        spec: &LoopSpec,
        b: &Bounds,
        gangs: &TokenStream,
    ) -> TokenStream {
        let t = match translated {
            Err(why) => {
                self.missing.push((why.span.unwrap_or(for_span), why.why));
                return quote!(if false {});
            }
            Ok(t) => t,
        };
        self.kernels.push(t.kernel);
        self.calls.extend(t.calls);
        self.add_types(t.types);
        let args = launch_args(&t.args, &b.los, &b.ns);
        let reds = reduction::kernel_reductions(&spec.reductions, &t.reductions);
        let module = format_ident!("__ACC_CUDA_{}", self.ctx.function.to_uppercase());
        let entry = entry_of(self.ctx, entry);
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
}
