//! Expansion of a function with a compute or data construct for the host path.
//!
//! The function's slice parameters are mapped on entry with their clause (or the implicit one:
//! `&[T]` is `copyin`, `&mut [T]` is `copy`) and shadowed by their device view; scalars are
//! firstprivate. Code outside partitioned loops runs once, on the calling thread. Each
//! partitioned loop becomes one launch: its iterations (the collapsed nest flattened) are split
//! into contiguous chunks, one per gang; inner loop levels run sequentially inside a chunk.
//!
//! This module is the entry: the attribute's construct ([`Construct`]), the expansion of one
//! function ([`construct`], `expand_fn`, which only sequences the steps below), the context
//! the steps share ([`Ctx`]), and, on any error, the stub (the function without its
//! `#[acc(...)]` attributes, and the errors). The steps, in order: [`clauses`] (parameters and
//! clauses), [`engine`] (what acc-engine decides), [`data`] (the mappings), [`rewrite`] (each
//! loop directive) with [`launch`] (the host launch of a partitioned loop), [`reduction`] and
//! [`gpu`] (the CUDA launch, host statements as one-thread kernels, the module static).
//!
//! Invariants: on any error the expansion is the stub and the errors, never a half-expanded
//! function; Rust-side errors come before the engine's, which are not asked for when there
//! are some.

use crate::cuda;
use crate::text;
use acc_engine::directive::ReductionOp;
use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use std::collections::{BTreeSet, HashSet};
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Attribute, Expr, ItemFn};

mod clauses;
mod data;
mod engine;
mod gpu;
mod launch;
mod reduction;
mod rewrite;

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
    /// A generic function's one type parameter bounded by `acc::Float`.
    pub(super) generic: Option<String>,
}

fn expand_fn(
    c: Construct,
    attr: TokenStream,
    mut func: ItemFn,
    errors: &mut Vec<syn::Error>,
) -> TokenStream {
    let Some((d, table)) = text::directive(c.name(), attr, Span::call_site(), errors) else {
        // Still check the loop directives, so the user sees every error at once.
        check_loops_only(c, &mut func, errors);
        return TokenStream::new();
    };
    let (params, outer) = clauses::params(&func, errors);
    // Iterator loops over slice parameters (not shadowed in the body) become index loops.
    let shadowed = pattern_names(&func.block);
    let slices: BTreeSet<String> = params
        .iter()
        .filter(|p| p.kind != ParamKind::Scalar)
        .map(|p| p.name.to_string())
        .filter(|n| !shadowed.contains(n))
        .collect();
    crate::iters::rewrite(&mut func.block, &slices);
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
        generic: clauses::float_params(&func).into_iter().next(),
    };
    let combined = d.kind.is_combined();
    let mut spec = clauses::construct_clauses(&mut ctx, &d, &table, &func.sig.ident, errors);

    // The engine decides data attributes and loop partitioning, from the function laid out
    // as facts (`crate::facts`); loop directives become markers the rewriter looks up.
    let combined_loop = combined.then(|| engine::top_level_fors(&func.block));
    let decisions = engine::decide(
        &mut ctx,
        &d,
        table,
        &mut func.block,
        combined_loop.as_deref(),
        &mut spec,
        errors,
    );
    let prologue = data::prologue(&ctx, &func, &decisions);

    let mut rw = Rewriter::new(&ctx);
    // Host code that touches slice elements has no GPU form (checked on the function as
    // written, before the loops are rewritten).
    let original = func.block.clone();
    let combined_partitioned = rw.combined_loop(&mut func, combined_loop, spec, d.kind.name());
    rw.visit_block_mut(&mut func.block);
    errors.append(&mut rw.errors);

    if c == Construct::Data {
        return data::region(&func, prologue);
    }
    let missing = gpu::host_kernels(&ctx, &mut rw, &original, &mut func, combined_partitioned);
    gpu::with_module(&ctx, &func, prologue, &mut rw, missing)
}

/// The construct did not parse: only its loop directives are checked.
fn check_loops_only(c: Construct, func: &mut ItemFn, errors: &mut Vec<syn::Error>) {
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
        generic: None,
    };
    let mut rw = Rewriter::new(&ctx);
    rw.visit_block_mut(&mut func.block);
    errors.append(&mut rw.errors);
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
