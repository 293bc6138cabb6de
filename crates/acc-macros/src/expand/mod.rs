//! Expansion of a function with a compute or data construct for the host path.
//!
//! The function's slice parameters are mapped on entry with their clause (or the implicit one:
//! `&[T]` is `copyin`, `&mut [T]` is `copy`) and shadowed by their device view; scalars are
//! firstprivate. Code outside partitioned loops runs once, on the calling thread. Each
//! partitioned loop becomes one launch: its iterations (the collapsed nest flattened) are split
//! into contiguous chunks, one per gang; inner loop levels run sequentially inside a chunk.

use crate::cuda;
use crate::facts;
use crate::text;
use acc_engine::directive::{ClauseArgs, ClauseKind, ReductionOp};
use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use std::collections::{BTreeSet, HashSet};
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Attribute, Expr, FnArg, ItemFn, Pat, Stmt, Type};

mod clauses;
mod gpu;
mod reduction;
mod rewrite;

use clauses::{is_loop_clause, loop_clause, plain_name};
use gpu::{launch_args, HostUse};
use rewrite::Rewriter;

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
pub(super) enum ParamKind {
    Shared,
    Mut,
    Scalar,
}

pub(super) struct Param {
    pub(super) name: syn::Ident,
    pub(super) kind: ParamKind,
    /// The data clause naming it, with the clause name's span.
    pub(super) clause: Option<(&'static str, Span)>,
}

/// The loop part of a directive, with the engine's verdict on it.
#[derive(Default, Clone)]
pub(super) struct LoopSpec {
    /// The engine partitions the loop (see `acc_engine::attrs::Partition`; in `kernels`, a
    /// loop the dependence test proved independent).
    pub(super) partitioned: bool,
    pub(super) collapse: usize,
    pub(super) reductions: Vec<(ReductionOp, syn::Ident)>,
    pub(super) privates: Vec<syn::Ident>,
}

pub(super) struct Ctx {
    pub(super) construct: Construct,
    /// The function's name, for kernel entries and messages.
    pub(super) function: String,
    /// The CUDA translation's view of the parameters.
    pub(super) outer: std::collections::HashMap<String, cuda::Outer>,
    pub(super) params: Vec<Param>,
    pub(super) num_gangs: Option<Expr>,
    /// Compute-level `private` and `firstprivate`: copied once per chunk.
    pub(super) per_chunk: Vec<syn::Ident>,
    /// An `unsafe fn`: its callers promise that partitioned loops write different elements,
    /// so written slices are shared unchecked instead of cut into owned windows.
    pub(super) unchecked: bool,
    /// Names bound by some pattern of the function body, which may shadow a parameter.
    pub(super) bound: BTreeSet<String>,
    /// The loop directives (`#[acc(__acc_loop_N)]` markers, see `facts`), read once.
    pub(super) loops: Vec<LoopSpec>,
    /// For each `kernels` loop without a directive (`#[acc(__acc_plain_N)]`): whether the
    /// engine's dependence test lets it run partitioned.
    pub(super) plain: Vec<bool>,
    /// The function was laid out for the engine, so its loop directives are markers (else
    /// its construct did not parse, and the loop directives are only checked).
    pub(super) laid_out: bool,
    /// Names bound inside the function ([`crate::routine::bound_names`]).
    pub(super) locals: HashSet<String>,
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
