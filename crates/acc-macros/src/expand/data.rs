//! Data clauses as structured mappings: the function's prologue maps each slice parameter on
//! the current device with its clause (explicit, or the engine's implicit one) and shadows it
//! by its device view (by its host view in a `data` region); scalars are firstprivate. The
//! region's profiling events (`acc_construct_t`) enclose the mappings.
//!
//! Owns `Region::enter`/`entered`, `MapRef`/`MapMut` and `firstprivate` in the expansion, and
//! the whole expansion of a `data` construct. It must not decide clauses (the clauses and
//! [`super::engine`] did) nor touch loops.
//!
//! Invariants: the guards are locals of the function body, dropped in reverse order at its
//! end, so every mapping is structured; a parameter without a clause is not mapped.

use super::engine::Decisions;
use super::{Construct, Ctx, ParamKind};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::ItemFn;

/// The statements that open the region and map the parameters, in parameter order.
pub(super) fn prologue(ctx: &Ctx, func: &ItemFn, decisions: &Decisions) -> TokenStream {
    let c = ctx.construct;
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
        let clause = match (p.clause, decisions.implicit(p)) {
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
    prologue
}

/// A `data` construct's function: its body inside the region (no CUDA form: it launches
/// nothing).
pub(super) fn region(func: &ItemFn, prologue: TokenStream) -> TokenStream {
    let body = &func.block.stmts;
    let attrs = &func.attrs;
    let vis = &func.vis;
    let sig = &func.sig;
    quote! {
        #(#attrs)*
        #vis #sig {
            #prologue
            #(#body)*
        }
    }
}
