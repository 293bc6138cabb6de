use acc_engine::directive::ReductionOp;
use proc_macro2::{Span, TokenStream};
use quote::quote_spanned;

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
