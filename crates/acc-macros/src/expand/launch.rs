//! The host launch of a partitioned loop: its iterations (the collapsed nest flattened) are
//! split into contiguous chunks, one per gang, run on the runtime's executor; the levels
//! inside a chunk run in order.
//!
//! Owns the bounds (`bounds`/`bounds_inclusive`), the walk of a chunk's iterations, how each
//! parameter reaches the chunks (rebound copies, shared reads, owned windows checked by
//! `launch_owned`, or, in an `unsafe fn`, shared unchecked writes: [`crate::owned`] estimates
//! the windows), and the block that chooses between the GPU launch ([`super::gpu`]) and the
//! host one. It must not decide which loops are partitioned ([`super::engine`] did) nor know
//! the CUDA translation beyond the `Result` it is handed.
//!
//! Invariants: a chunk sees exactly iterations `__acc_range` of the flattened nest, in order;
//! a written `&mut [T]` reaches a chunk only as its owned window (or under the `unsafe fn`'s
//! promise); reduction partials are combined in chunk order.

use super::idents;
use super::reduction;
use super::rewrite::{NestLevel, Rewriter};
use super::{LoopSpec, ParamKind};
use crate::owned;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, ToTokens};
use std::collections::{BTreeMap, BTreeSet};
use syn::{Expr, Pat};

impl Rewriter<'_> {
    /// The block a partitioned loop becomes: the bounds, then the GPU launch when the current
    /// device is a GPU and the loop has a CUDA form (`translated`), else the host launch.
    pub(super) fn launch(
        &mut self,
        f: &syn::ExprForLoop,
        spec: &LoopSpec,
        levels: &[NestLevel],
        body: &syn::Block,
        balanced: bool,
        entry: &str,
    ) -> Expr {
        let translated = self.translate_launch(entry, levels, body, spec);
        let ctx = self.ctx;
        let n = levels.len();
        let b = Bounds {
            los: (0..n).map(|j| format_ident!("__acc_lo{}", j)).collect(),
            ns: (0..n).map(|j| format_ident!("__acc_n{}", j)).collect(),
        };
        let (los, ns) = (&b.los, &b.ns);
        let setup = bounds(levels, &b);
        let privates_and_body = {
            let privates = &spec.privates;
            quote! {
                #( #[allow(unused_mut, unused_variables, unused_assignments)] let mut #privates = #privates; )*
                #body
            }
        };
        let used = idents(&body.to_token_stream());
        let (muts, shared_slices, scalars) = (
            self.params_used(ParamKind::Mut, &used),
            self.params_used(ParamKind::Shared, &used),
            self.params_used(ParamKind::Scalar, &used),
        );
        let index_vars: Vec<syn::Ident> = levels
            .iter()
            .filter_map(|(pat, ..)| match &**pat {
                Pat::Ident(pi) => Some(pi.ident.clone()),
                _ => None,
            })
            .collect();
        let changing: Vec<syn::Ident> = ctx
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
            body,
        );
        self.errors.extend(errs);
        let (read_only, windowed, unchecked) = self.windows(&muts, &access);
        // Values the chunks read are copied into locals, so the optimizer keeps them in
        // registers instead of reloading them through the closure's captures after every
        // store (parameters only: a body variable of that name may not be `Copy`).
        let rebind: Vec<&syn::Ident> = scalars
            .iter()
            .chain(&shared_slices)
            .filter(|v| !ctx.bound.contains(&v.to_string()) && !changing.iter().any(|c| c == *v))
            .chain(los.iter())
            .chain(ns.iter())
            .collect();
        let slices_read: Vec<&syn::Ident> = shared_slices
            .iter()
            .filter(|v| rebind.contains(v))
            .chain(&read_only)
            .collect();
        let resliced = indexed_only_by_the_loop(levels, body, &slices_read);
        let iterate = iterate(levels, &b, &privates_and_body, &resliced);
        let ro_tmp: Vec<_> = read_only
            .iter()
            .map(|m| format_ident!("__acc_read_{}", m))
            .collect();
        let shared: Vec<_> = unchecked
            .iter()
            .map(|m| format_ident!("__acc_shared_{}", m))
            .collect();
        let win_names: Vec<&syn::Ident> = windowed.iter().map(|(m, _)| m).collect();
        let win_lens: Vec<syn::Ident> = win_names
            .iter()
            .map(|m| owned::len_ident(&m.to_string()))
            .collect();
        let per_chunk = &ctx.per_chunk;
        let privates = &spec.privates;
        let reds = reduction::Reductions::new(&spec.reductions);
        let gangs = match &ctx.num_gangs {
            Some(e) => quote!(::core::option::Option::Some((#e) as u32)),
            None => quote!(::core::option::Option::None),
        };
        let gpu = self.gpu_launch(translated, f.for_token.span, entry, spec, &b, &gangs);
        let (red_init, result) = (&reds.init, &reds.result);
        let chunk_prologue = quote! {
            #( #[allow(unused_variables)] let #rebind = #rebind; )*
            #( #[allow(unused_variables)] let #read_only = #ro_tmp; )*
            #( #[allow(unused_mut, unused_variables)] let mut #unchecked = #shared; )*
            #( #[allow(unused_mut, unused_variables)] let mut #per_chunk = #per_chunk; )*
            #(#red_init)*
            #iterate
            #result
        };
        let host_launch = host_launch(levels, &b, &windowed, &gangs, balanced, chunk_prologue);
        let combine = &reds.combine;
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

    /// The parameters of kind `k` the loop body names.
    fn params_used(&self, k: ParamKind, used: &BTreeSet<String>) -> Vec<syn::Ident> {
        self.ctx
            .params
            .iter()
            .filter(move |p| p.kind == k && used.contains(&p.name.to_string()))
            .map(|p| p.name.clone())
            .collect::<Vec<_>>()
    }

    /// How each `&mut [T]` reaches the chunks: shared for reading, cut into owned windows
    /// when written, or (in an `unsafe fn`) shared unchecked.
    fn windows<'s>(
        &mut self,
        muts: &[syn::Ident],
        access: &'s BTreeMap<String, owned::Access>,
    ) -> (Vec<syn::Ident>, Windows<'s>, Vec<syn::Ident>) {
        let mut read_only = Vec::new();
        let mut windowed: Windows<'s> = Vec::new();
        let mut unchecked = Vec::new();
        for m in muts {
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
        (read_only, windowed, unchecked)
    }
}

/// The names of a launch's bounds: level `j`'s first index `__acc_lo<j>` and trip count
/// `__acc_n<j>`.
pub(super) struct Bounds {
    pub(super) los: Vec<syn::Ident>,
    pub(super) ns: Vec<syn::Ident>,
}

/// The written `&mut [T]` cut into owned windows, with the sites that index them.
type Windows<'s> = Vec<(syn::Ident, &'s [owned::Site])>;

/// The first index and trip count of each level.
fn bounds(levels: &[NestLevel], b: &Bounds) -> TokenStream {
    let mut setup = TokenStream::new();
    for (j, (_, lo, hi, inclusive)) in levels.iter().enumerate() {
        let (l, c) = (&b.los[j], &b.ns[j]);
        setup.extend(if *inclusive {
            quote!(let (#l, #c) = ::acc::__private::bounds_inclusive(#lo..=#hi);)
        } else {
            quote!(let (#l, #c) = ::acc::__private::bounds(#lo..#hi);)
        });
    }
    setup
}

/// The slices a one-level loop over a half-open range reads only as `s[i]`, `i` its own
/// unshadowed, immutable index: a chunk may cut them to end at its last index, which lets the
/// compiler drop their bounds checks (no other use would see the shorter length, and `s[i]` is
/// in bounds in the cut slice exactly when it is in the whole one).
fn indexed_only_by_the_loop(
    levels: &[NestLevel],
    body: &syn::Block,
    slices: &[&syn::Ident],
) -> Vec<syn::Ident> {
    let [(pat, _, _, false)] = levels else {
        return Vec::new();
    };
    let Pat::Ident(index) = &**pat else {
        return Vec::new();
    };
    if index.mutability.is_some()
        || index.by_ref.is_some()
        || index.subpat.is_some()
        || super::pattern_names(body).contains(&index.ident.to_string())
    {
        return Vec::new();
    }
    /// The `s[i]` reads of each slice the parsed body holds (a macro's tokens are not parsed,
    /// so a use there counts only in `occurrences`).
    struct IndexedBy<'a> {
        index: &'a syn::Ident,
        seen: BTreeMap<String, usize>,
    }
    impl<'ast> syn::visit::Visit<'ast> for IndexedBy<'_> {
        fn visit_expr_index(&mut self, e: &'ast syn::ExprIndex) {
            let is_ident = |e: &Expr, want: Option<&syn::Ident>| match e {
                Expr::Path(p) if p.qself.is_none() => p
                    .path
                    .get_ident()
                    .filter(|i| want.is_none_or(|w| *i == w))
                    .map(|i| i.to_string()),
                _ => None,
            };
            if let (Some(s), Some(_)) = (
                is_ident(&e.expr, None),
                is_ident(&e.index, Some(self.index)),
            ) {
                *self.seen.entry(s).or_default() += 1;
            }
            syn::visit::visit_expr_index(self, e);
        }
    }
    let mut indexed = IndexedBy {
        index: &index.ident,
        seen: BTreeMap::new(),
    };
    syn::visit::Visit::visit_block(&mut indexed, body);
    let tokens = body.to_token_stream();
    slices
        .iter()
        .filter(|s| {
            let n = indexed.seen.get(&s.to_string()).copied().unwrap_or(0);
            n > 0 && n == occurrences(&tokens, s)
        })
        .map(|s| (*s).clone())
        .collect()
}

/// How many times the identifier `name` occurs in `tokens`, inside groups and macros too.
fn occurrences(tokens: &TokenStream, name: &syn::Ident) -> usize {
    tokens
        .clone()
        .into_iter()
        .map(|tt| match tt {
            proc_macro2::TokenTree::Ident(i) => usize::from(i == *name),
            proc_macro2::TokenTree::Group(g) => occurrences(&g.stream(), name),
            _ => 0,
        })
        .sum()
}

/// Each chunk runs iterations `__acc_range` of the flattened nest. With one level over a
/// half-open range the chunk walks its indices as a range of the index type (whose end cannot
/// overflow it, as an inclusive range's could), and, when the slices in `resliced` are long
/// enough, over those slices cut to the chunk's end: the loop Rust users write over a
/// sub-slice, without bounds checks (in the other case the body runs as written, and fails
/// where it would have). With more levels, the chunk walks runs of the innermost level (a plain
/// `for`, which the compiler can vectorize), the outer indices `__acc_at<j>` computed by
/// division once per chunk and carried like an odometer after each run.
fn iterate(
    levels: &[NestLevel],
    b: &Bounds,
    privates_and_body: &TokenStream,
    resliced: &[syn::Ident],
) -> TokenStream {
    let (los, ns) = (&b.los, &b.ns);
    let n = levels.len();
    let last = n - 1;
    if let [(pat, _, _, false)] = levels {
        let l = &los[0];
        let walk = quote! {
            for #pat in ::acc::__private::nth(#l, __acc_range.start)..__acc_end {
                #privates_and_body
            }
        };
        let walk = if resliced.is_empty() {
            walk
        } else {
            quote! {
                if #( __acc_end <= #resliced.len() )&&* {
                    #( let #resliced = &#resliced[..__acc_end]; )*
                    #walk
                } else {
                    #walk
                }
            }
        };
        return quote! {
            let __acc_end = ::acc::__private::nth(#l, __acc_range.end);
            #walk
        };
    }
    if n == 1 {
        let (pat, l) = (&levels[0].0, &los[0]);
        return quote! {
            for __acc_at in __acc_range {
                let #pat = ::acc::__private::nth(#l, __acc_at);
                #privates_and_body
            }
        };
    }
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
}

/// The runtime's launch of the chunks: `launch`, or `launch_owned` when written slices are
/// cut into owned windows (the chunks' estimated extents checked disjoint).
fn host_launch(
    levels: &[NestLevel],
    b: &Bounds,
    windowed: &[(syn::Ident, &[owned::Site])],
    gangs: &TokenStream,
    balanced: bool,
    chunk_prologue: TokenStream,
) -> TokenStream {
    let loc = quote!(::acc::__private::Loc {
        file: ::core::file!(),
        line: ::core::line!()
    });
    if windowed.is_empty() {
        return quote! {
            ::acc::__private::launch(
                #loc,
                __acc_total,
                #gangs,
                #balanced,
                &|__acc_range: ::core::ops::Range<i64>| { #chunk_prologue },
            )
        };
    }
    let win_names: Vec<&syn::Ident> = windowed.iter().map(|(m, _)| m).collect();
    let win_strs: Vec<String> = win_names.iter().map(|m| m.to_string()).collect();
    let extent = {
        let level_vars: Vec<Option<syn::Ident>> = levels
            .iter()
            .map(|(pat, ..)| match &**pat {
                Pat::Ident(pi) => Some(pi.ident.clone()),
                _ => None,
            })
            .collect();
        let sites: Vec<&[owned::Site]> = windowed.iter().map(|(_, s)| *s).collect();
        owned::extent(&level_vars, &b.los, &b.ns, &sites)
    };
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
}
