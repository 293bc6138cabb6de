//! Reductions of a partitioned loop: the runtime's operator markers, each chunk's copies
//! (starting at the operator's identity), the partials combined in chunk order on the host,
//! and the `KRed`s a CUDA launch passes.
//!
//! Owns the tokens of a reduction; the variables and operators come from the loop clauses
//! ([`super::clauses`]) and the types from the CUDA translation. It must not know how the
//! chunks are launched.

use crate::cuda;
use acc_engine::directive::ReductionOp;
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

pub(super) fn op_marker(op: ReductionOp, span: Span) -> TokenStream {
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

/// A partitioned loop's reductions on the host: each chunk starts its copies at the
/// operator's identity and returns them; the partials are then combined in chunk order.
pub(super) struct Reductions {
    /// The chunk's copies, at the identity.
    pub(super) init: Vec<TokenStream>,
    /// The chunk's value: its copies as a tuple (nothing without reductions).
    pub(super) result: TokenStream,
    /// After the launch: the partials (`__acc_parts`) combined into the variables.
    pub(super) combine: TokenStream,
}

impl Reductions {
    pub(super) fn new(reductions: &[(ReductionOp, syn::Ident)]) -> Reductions {
        let red_vars: Vec<&syn::Ident> = reductions.iter().map(|(_, v)| v).collect();
        let init: Vec<TokenStream> = reductions
            .iter()
            .map(|(op, v)| {
                let op = op_marker(*op, v.span());
                quote_spanned!(v.span()=> let mut #v = ::acc::__private::identity::<#op, _>(&#v);)
            })
            .collect();
        let red_combine: Vec<TokenStream> = reductions
            .iter()
            .enumerate()
            .map(|(i, (op, v))| {
                let op = op_marker(*op, v.span());
                let i = syn::Index::from(i);
                quote_spanned!(v.span()=> #v = ::acc::__private::combine::<#op, _>(#v, __acc_part.#i);)
            })
            .collect();
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
        Reductions {
            init,
            result,
            combine,
        }
    }
}

/// A CUDA launch's reductions (`KRed`s), in clause order: each variable with the type the
/// translation gave it, or the type a routine's signature decides.
pub(super) fn kernel_reductions(
    reductions: &[(ReductionOp, syn::Ident)],
    tys: &[Option<cuda::Ty>],
) -> Vec<TokenStream> {
    reductions
        .iter()
        .zip(tys)
        .map(|((op, v), ty)| {
            let op = op_marker(*op, v.span());
            match ty {
                Some(ty) => {
                    let ty = ty.rust();
                    quote!(::acc::__private::KRed::new::<#op, _>(&mut #v, #ty))
                }
                None => quote!(::acc::__private::KRed::signature::<#op, _>(&mut #v)),
            }
        })
        .collect()
}
