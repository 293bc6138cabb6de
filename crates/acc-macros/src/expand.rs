//! Expansion of a function with a compute or data construct for the host path.
//!
//! The function's slice parameters are mapped on entry with their clause (or the implicit one:
//! `&[T]` is `copyin`, `&mut [T]` is `copy`) and shadowed by their device view; scalars are
//! firstprivate. Code outside partitioned loops runs once, on the calling thread. Each
//! partitioned loop becomes one launch: its iterations (the collapsed nest flattened) are split
//! into contiguous chunks, one per gang; inner loop levels run sequentially inside a chunk.

use crate::cuda;
use crate::facts;
use crate::owned;
use crate::text::{self, SpanTable};
use acc_engine::directive::{ClauseArgs, ClauseKind, ReductionOp, VarItem};
use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use std::collections::{BTreeSet, HashSet};
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Attribute, Expr, FnArg, ItemFn, Meta, Pat, RangeLimits, Stmt, Type};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Construct {
    Parallel,
    Kernels,
    Serial,
    Data,
}

impl Construct {
    fn name(self) -> &'static str {
        match self {
            Construct::Parallel => "parallel",
            Construct::Kernels => "kernels",
            Construct::Serial => "serial",
            Construct::Data => "data",
        }
    }
}

/// Expands `#[acc::<construct>(attr)]` on `item`; on any error, the errors and the function
/// without its `#[acc(...)]` attributes, so one mistake gives one error.
pub fn construct(c: Construct, attr: TokenStream, item: TokenStream) -> TokenStream {
    let func: ItemFn = match syn::parse2(item) {
        Ok(f) => f,
        Err(e) => {
            let msg = format!("`#[acc::{}]` goes on a function (`fn`); {e}", c.name());
            return syn::Error::new(e.span(), msg).to_compile_error();
        }
    };
    let mut errors = Vec::new();
    let out = expand_fn(c, attr, func.clone(), &mut errors);
    if errors.is_empty() {
        return out;
    }
    stub(func, errors)
}

/// `#[acc(...)]` that no compute construct consumed.
pub fn stray(_attr: TokenStream, item: TokenStream) -> TokenStream {
    let e = syn::Error::new(
        Span::call_site(),
        "`#[acc(loop ...)]` goes on a `for` loop inside a function marked \
         `#[acc::parallel]`, `#[acc::kernels]` or `#[acc::serial]`, which reads it",
    );
    let mut out = e.to_compile_error();
    out.extend(item);
    out
}

fn stub(mut func: ItemFn, errors: Vec<syn::Error>) -> TokenStream {
    StripAcc.visit_item_fn_mut(&mut func);
    let mut out = func.into_token_stream();
    for e in errors {
        out.extend(e.to_compile_error());
    }
    out
}

/// Removes every `#[acc(...)]` attribute.
struct StripAcc;

impl VisitMut for StripAcc {
    fn visit_attributes_mut(&mut self, attrs: &mut Vec<Attribute>) {
        attrs.retain(|a| !is_acc(a));
    }
}

fn is_acc(a: &Attribute) -> bool {
    a.path().is_ident("acc")
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ParamKind {
    Shared,
    Mut,
    Scalar,
}

struct Param {
    name: syn::Ident,
    kind: ParamKind,
    /// The data clause naming it, with the clause name's span.
    clause: Option<(&'static str, Span)>,
}

/// The loop part of a directive, with the engine's verdict on it.
#[derive(Default, Clone)]
struct LoopSpec {
    /// The engine partitions the loop (see `acc_engine::attrs::Partition`; in `kernels`, a
    /// loop the dependence test proved independent).
    partitioned: bool,
    collapse: usize,
    reductions: Vec<(ReductionOp, syn::Ident)>,
    privates: Vec<syn::Ident>,
}

struct Ctx {
    construct: Construct,
    /// The function's name, for kernel entries and messages.
    function: String,
    /// The CUDA translation's view of the parameters.
    outer: std::collections::HashMap<String, cuda::Outer>,
    params: Vec<Param>,
    num_gangs: Option<Expr>,
    /// Compute-level `private` and `firstprivate`: copied once per chunk.
    per_chunk: Vec<syn::Ident>,
    /// An `unsafe fn`: its callers promise that partitioned loops write different elements,
    /// so written slices are shared unchecked instead of cut into owned windows.
    unchecked: bool,
    /// Names bound by some pattern of the function body, which may shadow a parameter.
    bound: BTreeSet<String>,
    /// The loop directives (`#[acc(__acc_loop_N)]` markers, see `facts`), read once.
    loops: Vec<LoopSpec>,
    /// For each `kernels` loop without a directive (`#[acc(__acc_plain_N)]`): whether the
    /// engine's dependence test lets it run partitioned.
    plain: Vec<bool>,
    /// The function was laid out for the engine, so its loop directives are markers (else
    /// its construct did not parse, and the loop directives are only checked).
    laid_out: bool,
    /// Names bound inside the function ([`crate::routine::bound_names`]).
    locals: HashSet<String>,
}

fn expand_fn(
    c: Construct,
    attr: TokenStream,
    mut func: ItemFn,
    errors: &mut Vec<syn::Error>,
) -> TokenStream {
    let Some((d, table)) = text::directive(c.name(), attr, Span::call_site(), errors) else {
        // Still check the loop directives, so the user sees every error at once.
        let ctx = Ctx {
            construct: c,
            function: String::new(),
            outer: Default::default(),
            params: Vec::new(),
            num_gangs: None,
            per_chunk: Vec::new(),
            unchecked: false,
            bound: BTreeSet::new(),
            loops: Vec::new(),
            plain: Vec::new(),
            laid_out: false,
            locals: HashSet::new(),
        };
        let mut rw = Rewriter::new(&ctx);
        rw.visit_block_mut(&mut func.block);
        errors.append(&mut rw.errors);
        return TokenStream::new();
    };
    let mut params = Vec::new();
    let mut outer = std::collections::HashMap::new();
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
                    Type::Reference(r) if matches!(&*r.elem, Type::Slice(_)) => {
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
                    Type::Reference(r) => match &*r.elem {
                        Type::Slice(sl) => match cuda::Ty::from_type(&sl.elem) {
                            Some(e) => cuda::Outer::Slice(e, r.mutability.is_some()),
                            None => cuda::Outer::Other,
                        },
                        _ => cuda::Outer::Other,
                    },
                    ty => cuda::Ty::from_type(ty).map_or(cuda::Outer::Other, cuda::Outer::Scalar),
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
    let mut ctx = Ctx {
        construct: c,
        function: syn::ext::IdentExt::unraw(&func.sig.ident).to_string(),
        outer,
        params,
        num_gangs: None,
        per_chunk: Vec::new(),
        unchecked: func.sig.unsafety.is_some(),
        bound: pattern_names(&func.block),
        loops: Vec::new(),
        plain: Vec::new(),
        laid_out: true,
        locals: crate::routine::bound_names(&func),
    };
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
            | ClauseKind::NoCreate => {
                let name = match cl.kind {
                    ClauseKind::Copy => "Copy",
                    ClauseKind::Copyin => "CopyIn",
                    ClauseKind::Copyout => "CopyOut",
                    ClauseKind::Create => "Create",
                    ClauseKind::Present => "Present",
                    _ => "NoCreate",
                };
                for item in cl.items() {
                    let Some(ident) = plain_name(item, &table, errors) else {
                        continue;
                    };
                    let Some(p) = ctx.params.iter_mut().find(|p| p.name == ident) else {
                        errors.push(syn::Error::new(
                            ident.span(),
                            format!(
                                "`{ident}` is not a parameter of `{}`; data clauses name the \
                                 function's slice parameters",
                                func.sig.ident
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
                        ParamKind::Shared
                            if matches!(cl.kind, ClauseKind::Copy | ClauseKind::Copyout) =>
                        {
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
            ClauseKind::Firstprivate | ClauseKind::Private
                if !(combined && cl.kind == ClauseKind::Private) =>
            {
                for item in cl.items() {
                    if let Some(ident) = plain_name(item, &table, errors) {
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
            k if combined && is_loop_clause(k) => loop_clause(&mut spec, cl, &table, errors),
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

    // The engine decides data attributes and loop partitioning, from the function laid out
    // as facts (`crate::facts`); loop directives become markers the rewriter looks up.
    let combined_loop = combined.then(|| {
        let fors: Vec<usize> = func
            .block
            .stmts
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s, Stmt::Expr(Expr::ForLoop(_), _)))
            .map(|(i, _)| i)
            .collect();
        fors
    });
    let combined_at = match &combined_loop {
        Some(fors) if fors.len() == 1 => Some(fors[0]),
        _ => None,
    };
    let param_facts: Vec<facts::ParamFact> = ctx
        .params
        .iter()
        .map(|p| {
            let scalar = match ctx.outer.get(&p.name.to_string()) {
                Some(cuda::Outer::Slice(t, _) | cuda::Outer::Scalar(t)) => scalar_type(*t),
                _ => None,
            };
            facts::ParamFact {
                name: p.name.clone(),
                slice: p.kind != ParamKind::Scalar,
                shared: p.kind == ParamKind::Shared,
                scalar,
            }
        })
        .collect();
    let facts = facts::build(
        &d,
        table,
        Span::call_site(),
        &param_facts,
        &mut func.block,
        if combined { combined_at } else { None },
        errors,
    );
    // Rust-side errors first: the engine's would repeat them in OpenACC's terms.
    let engine_plan = if errors.is_empty() {
        let mut diags = acc_engine::check::check_unit(&facts.unit);
        let (an, more) = acc_engine::attrs::analyze(&facts.unit);
        diags.extend(more);
        for diag in diags.iter().filter(|d| d.is_error()) {
            let mut message = diag.message.clone();
            for note in &diag.notes {
                message = format!("{message}; {note}");
            }
            errors.push(syn::Error::new(facts.span(diag.span), message));
        }
        let plans = acc_engine::plan::plan(&facts.unit, &an);
        Some((an, plans))
    } else {
        None
    };
    let kernel = engine_plan.as_ref().and_then(|(_, plans)| match &plans[0] {
        acc_engine::plan::ConstructPlan::Kernel(k) => Some(k),
        _ => None,
    });
    let verdict = |construct: u32| {
        kernel.is_some_and(|k| {
            k.loops
                .iter()
                .any(|l| l.construct.0 == construct && l.partition.is_parallelized())
        })
    };
    for (n, l) in facts.loops.iter().enumerate() {
        let mut s = LoopSpec::default();
        for cl in &l.directive.clauses {
            loop_clause(&mut s, cl, &l.table, errors);
        }
        s.partitioned = verdict(n as u32 + 1);
        ctx.loops.push(s);
    }
    ctx.plain = kernel.map_or_else(Vec::new, |k| {
        k.plain_loops.iter().map(|(_, v)| v.is_ok()).collect()
    });
    spec.partitioned = verdict(0);
    // The data actions: explicit clauses, and the engine's implicit ones (`copy` of every
    // slice the body uses, `present` under `default(present)`); a data construct has no
    // implicit ones.
    let implicit = |p: &Param| -> Option<&'static str> {
        let var = facts.param_var(&p.name)?;
        let data = match engine_plan.as_ref().map(|(_, plans)| &plans[0]) {
            Some(acc_engine::plan::ConstructPlan::Kernel(k)) => &k.data,
            Some(acc_engine::plan::ConstructPlan::Region { data, .. }) => data,
            _ => return None,
        };
        data.iter()
            .find(|i| i.var == var && i.implicit)
            .and_then(|i| match i.action {
                acc_engine::plan::Action::Copy => Some("Copy"),
                acc_engine::plan::Action::Present => Some("Present"),
                _ => None,
            })
    };
    let mut prologue = TokenStream::new();
    let loc = quote!(::acc::__private::Loc {
        file: ::core::file!(),
        line: ::core::line!()
    });
    // Profiling: the region's events around its data clauses' guards (`acc_construct_t`).
    let construct_code: u8 = match c {
        Construct::Parallel => 0,
        Construct::Kernels => 1,
        Construct::Serial => 16,
        Construct::Data => 3,
    };
    let function_name = ctx.function.to_string();
    // The function's first and last lines, as `line!()` where its `fn` and its closing brace
    // stand.
    let first_line = quote_spanned!(func.sig.fn_token.span=> ::core::line!());
    let last_line = quote_spanned!(func.block.brace_token.span.close()=> ::core::line!());
    prologue.extend(quote! {
        let __acc_region = ::acc::__private::Region::enter(
            #loc,
            #construct_code,
            #function_name,
            (#first_line, #last_line),
        );
    });
    for p in &ctx.params {
        let name = &p.name;
        if p.kind == ParamKind::Scalar {
            if c != Construct::Data {
                prologue
                    .extend(quote_spanned!(name.span()=> ::acc::__private::firstprivate(&#name);));
            }
            continue;
        }
        let clause = match (p.clause, implicit(p)) {
            (Some((c, sp)), _) => syn::Ident::new(c, sp),
            (None, Some(c)) => syn::Ident::new(c, name.span()),
            (None, None) => continue,
        };
        let clause = quote!(::acc::__private::DataClause::#clause);
        let guard = format_ident!("__acc_guard_{}", name);
        let var = name.to_string();
        let access = if c == Construct::Data {
            quote!(host)
        } else {
            quote!(view)
        };
        prologue.extend(match p.kind {
            ParamKind::Shared => quote! {
                let #guard = ::acc::__private::MapRef::new(#name, #clause, #var, #loc);
                #[allow(unused_variables)]
                let #name = #guard.#access();
            },
            _ => quote! {
                let mut #guard = ::acc::__private::MapMut::new(#name, #clause, #var, #loc);
                #[allow(unused_variables)]
                let #name = #guard.#access();
            },
        });
    }

    prologue.extend(quote! {
        let __acc_region_exit = __acc_region.entered();
    });

    let mut rw = Rewriter::new(&ctx);
    // Host code that touches slice elements has no GPU form (checked on the function as
    // written, before the loops are rewritten).
    let original = func.block.clone();
    let mut combined_partitioned = None;
    if let Some(fors) = combined_loop {
        if fors.len() != 1 {
            rw.errors.push(syn::Error::new_spanned(
                &func.sig.ident,
                format!(
                    "the combined `{}` applies its loop part to the one `for` loop at the top \
                     of the function body; `{}` has {}",
                    d.kind.name(),
                    func.sig.ident,
                    fors.len()
                ),
            ));
        } else if let Stmt::Expr(e @ Expr::ForLoop(_), _) = &mut func.block.stmts[fors[0]] {
            let Expr::ForLoop(f) = e.clone() else {
                unreachable!()
            };
            if let Some(a) = f.attrs.iter().find(|a| is_acc(a)) {
                rw.errors.push(syn::Error::new_spanned(
                    a,
                    format!(
                        "the combined `{}` already applies to this loop; move these clauses \
                         into it",
                        d.kind.name()
                    ),
                ));
            } else {
                combined_partitioned = Some(rw.partitioned(&spec));
                *e = rw.loop_expr(f, spec);
            }
        }
    }
    rw.visit_block_mut(&mut func.block);
    errors.append(&mut rw.errors);

    if c == Construct::Data {
        let body = &func.block.stmts;
        let attrs = &func.attrs;
        let vis = &func.vis;
        let sig = &func.sig;
        return quote! {
            #(#attrs)*
            #vis #sig {
                #prologue
                #(#body)*
            }
        };
    }
    // The CUDA module of the function: every partitioned loop's kernel, or why some loop (or
    // host code touching slices) has none.
    let slices: BTreeSet<String> = ctx
        .params
        .iter()
        .filter(|p| p.kind != ParamKind::Scalar)
        .map(|p| p.name.to_string())
        .collect();
    let mut hu = HostUse {
        rw: Rewriter::new(&ctx),
        slices,
        combined: combined_partitioned,
        top: true,
        found: Vec::new(),
        partitioned: false,
    };
    // Top-level statements of host code that touch slices run as one-thread kernels on a GPU
    // (a sequential `serial` loop, a `kernels` loop left sequential), when they translate.
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
        let per_chunk: Vec<String> = ctx.per_chunk.iter().map(|v| v.to_string()).collect();
        let body = syn::Block {
            brace_token: Default::default(),
            stmts: vec![Stmt::Expr(e.clone(), semi)],
        };
        let t = match cuda::translate(&cuda::Input {
            function: &ctx.function,
            entry: entry.clone(),
            params: &ctx.outer,
            levels: &[],
            body: &body,
            reductions: &[],
            per_chunk: &per_chunk,
            privates: &[],
            locals: &ctx.locals,
        }) {
            Ok(t) => t,
            Err(why) => {
                missing.push((why.span.unwrap_or(hu.found[0].0), why.why));
                continue;
            }
        };
        rw.kernels.push(t.kernel);
        rw.calls.extend(t.calls);
        let args = launch_args(&t.args, &[], &[]);
        let module = format_ident!("__ACC_CUDA_{}", ctx.function.to_uppercase());
        func.block.stmts[k] = syn::parse_quote! {
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
        };
    }
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
        (String::new(), 0)
    };
    let entries: Vec<&str> = rw.kernels.iter().map(|k| k.entry.as_str()).collect();
    let missing = missing
        .iter()
        .map(|(span, why)| quote_spanned!(*span=> (::core::file!(), ::core::line!(), #why)));
    let calls = crate::routine::calls(&rw.calls);
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
            kernels_at: #kernels_at,
            assembled: ::acc::__private::Assembled::new(),
        };
    }
}

/// Finds host code of a compute function (outside its partitioned loops) that reads or writes
/// slice elements: on a GPU that code would see the host copy, so the function has no CUDA form.
struct HostUse<'a> {
    rw: Rewriter<'a>,
    slices: BTreeSet<String>,
    /// The combined construct's loop: whether it is partitioned.
    combined: Option<bool>,
    top: bool,
    found: Vec<(Span, String)>,
    /// A partitioned loop was seen.
    partitioned: bool,
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

fn is_loop_clause(k: ClauseKind) -> bool {
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

fn loop_clause(
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
fn plain_name(
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

/// Every identifier in `tokens`.
pub(crate) fn idents(tokens: &TokenStream) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    fn walk(t: &TokenStream, out: &mut BTreeSet<String>) {
        for tt in t.clone() {
            match tt {
                TokenTree::Ident(i) => {
                    out.insert(i.to_string());
                }
                TokenTree::Group(g) => walk(&g.stream(), out),
                _ => {}
            }
        }
    }
    walk(tokens, &mut out);
    out
}

/// The engine's arithmetic type of a subset type.
fn scalar_type(t: cuda::Ty) -> Option<acc_engine::facts::ScalarType> {
    use acc_engine::facts::ScalarType as S;
    Some(match t {
        cuda::Ty::I8 => S::I8,
        cuda::Ty::I16 => S::I16,
        cuda::Ty::I32 => S::I32,
        cuda::Ty::I64 | cuda::Ty::Isize => S::I64,
        cuda::Ty::U8 => S::U8,
        cuda::Ty::U16 => S::U16,
        cuda::Ty::U32 => S::U32,
        cuda::Ty::U64 | cuda::Ty::Usize => S::U64,
        cuda::Ty::F32 => S::F32,
        cuda::Ty::F64 => S::F64,
        cuda::Ty::Bool => S::Bool,
    })
}

/// Every name a pattern in `block` binds.
fn pattern_names(block: &syn::Block) -> BTreeSet<String> {
    struct Names(BTreeSet<String>);
    impl<'ast> Visit<'ast> for Names {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            self.0.insert(p.ident.to_string());
            syn::visit::visit_pat_ident(self, p);
        }
    }
    let mut n = Names(BTreeSet::new());
    n.visit_block(block);
    n.0
}

/// Rewrites the `#[acc(loop ...)]` loops of a compute function.
struct Rewriter<'a> {
    ctx: &'a Ctx,
    errors: Vec<syn::Error>,
    /// Inside a partitioned loop: nested loops run sequentially in the chunk.
    inside: bool,
    /// The CUDA kernels of the partitioned loops, in order.
    kernels: Vec<acc_engine::cuda::CudaKernel>,
    /// Why a partitioned loop has no CUDA form: where, and the reason.
    missing: Vec<(Span, String)>,
    /// The routine calls of `kernels`.
    calls: Vec<cuda::CallSite>,
}

impl<'a> Rewriter<'a> {
    fn new(ctx: &'a Ctx) -> Self {
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

fn expr_attrs(e: &mut Expr) -> Option<&mut Vec<Attribute>> {
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
    fn loop_spec(&mut self, attr: &Attribute) -> LoopSpec {
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
    fn partitioned(&self, spec: &LoopSpec) -> bool {
        spec.partitioned && !self.inside && self.ctx.construct != Construct::Data
    }

    /// The expansion of one loop with a loop directive.
    fn loop_expr(&mut self, mut f: syn::ExprForLoop, spec: LoopSpec) -> Expr {
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

/// The arguments of a CUDA launch, as `KArg`s.
fn launch_args(args: &[cuda::ArgSpec], los: &[syn::Ident], ns: &[syn::Ident]) -> Vec<TokenStream> {
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

fn op_marker(op: ReductionOp, span: Span) -> TokenStream {
    let name = match op {
        ReductionOp::Add => "Add",
        ReductionOp::Mul => "Mul",
        ReductionOp::Max => "Max",
        ReductionOp::Min => "Min",
        ReductionOp::BitAnd => "BitAnd",
        ReductionOp::BitOr => "BitOr",
        ReductionOp::BitXor => "BitXor",
        ReductionOp::LogAnd => "LogAnd",
        ReductionOp::LogOr => "LogOr",
    };
    let id = syn::Ident::new(name, span);
    quote_spanned!(span=> ::acc::__private::op::#id)
}

/// Finds control flow that would leave a partitioned loop's body, which runs as a closure per
/// chunk.
struct Escapes<'a> {
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
