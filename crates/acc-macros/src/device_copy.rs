//! `#[derive(acc::DeviceCopy)]`: a user struct as device data.
//!
//! Owns the rules for which structs may be moved bit for bit between the host and a device
//! (`#[repr(C)]`, named fields of numbers, arrays of them and other such structs; no padding)
//! and the refusals, each on the offending token with what to write instead. The derived impl
//! declares the struct's C type for CUDA modules (`acc_runtime::rust::CTypes::declare`, with
//! `static_assert`s of Rust's size and alignment); it must not know how modules are assembled.
//!
//! Invariant: an impl is emitted only for a struct that passed every syntactic check; what only
//! rustc can check (a field type implements `DeviceCopy`, the struct is `Copy`, no padding) is
//! checked by the generated code at compile time.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Type};

pub fn derive(item: TokenStream) -> TokenStream {
    let input = match syn::parse2::<DeriveInput>(item) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    match expand(&input) {
        Ok(t) => t,
        Err(e) => e.to_compile_error(),
    }
}

fn expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let name = &input.ident;
    let s = match &input.data {
        Data::Struct(s) => s,
        Data::Enum(e) => {
            return Err(syn::Error::new(
                e.enum_token.span,
                "`DeviceCopy` is for structs: not every bit pattern is a valid enum; use an \
                 integer field instead",
            ))
        }
        Data::Union(u) => {
            return Err(syn::Error::new(
                u.union_token.span,
                "`DeviceCopy` is for structs with named fields, not unions",
            ))
        }
    };
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &input.generics,
            "`DeviceCopy` is derived for structs without generic parameters; write the struct \
             for the concrete types",
        ));
    }
    repr_c(input)?;
    let Fields::Named(fields) = &s.fields else {
        return Err(syn::Error::new(
            s.fields.span().join(name.span()).unwrap_or(name.span()),
            "`DeviceCopy` is derived for structs with named fields (`struct P { x: f32 }`)",
        ));
    };
    if fields.named.is_empty() {
        return Err(syn::Error::new_spanned(
            name,
            "`DeviceCopy` needs at least one field (C has no empty structs)",
        ));
    }
    let mut decl = Vec::new();
    let mut sizes = Vec::new();
    for f in &fields.named {
        field_type(&f.ty)?;
        let (id, ty) = (f.ident.as_ref().expect("named"), &f.ty);
        let fname = syn::ext::IdentExt::unraw(id).to_string();
        decl.push(quote!((#fname, <#ty as ::acc::__private::DeviceCopy>::__acc_c_type)));
        sizes.push(quote!(::core::mem::size_of::<#ty>()));
    }
    let padding = format!(
        "`{name}` has padding between or after its fields, which is not data a device copy may \
         move: order the fields from the widest type to the narrowest, or add explicit padding \
         fields"
    );
    // Each field's type is `DeviceCopy`: the impl's body names `<T as DeviceCopy>`.
    let no_padding = quote_spanned! {name.span()=>
        const _: () = ::core::assert!(
            ::core::mem::size_of::<#name>() == 0 #(+ #sizes)*,
            #padding
        );
    };
    let path = quote!(::core::concat!(
        ::core::module_path!(),
        "::",
        ::core::stringify!(#name)
    ));
    Ok(quote! {
        // SAFETY: `#name` is `#[repr(C)]` (checked by the derive), so its layout is C's: its
        // fields in order; each field is `DeviceCopy` (numbers, arrays of them, such structs:
        // every bit pattern valid, no pointers), and the assertion below proves there is no
        // padding, so every bit pattern of the struct is valid. The C declaration lists the
        // same fields in the same order with their C types, and the CUDA module checks its
        // size and alignment against Rust's with `static_assert`s.
        unsafe impl ::acc::__private::DeviceCopy for #name {
            fn __acc_c_type(out: &mut ::acc::__private::CTypes) -> ::std::string::String {
                out.declare::<Self>(#path, &[#(#decl),*])
            }
        }

        #no_padding
    })
}

/// The struct must be `#[repr(C)]` (and no more: `packed` and `align` have other C forms).
fn repr_c(input: &DeriveInput) -> syn::Result<()> {
    let mut c = false;
    for a in input.attrs.iter().filter(|a| a.path().is_ident("repr")) {
        a.parse_nested_meta(|m| {
            if m.path.is_ident("C") {
                c = true;
                Ok(())
            } else {
                Err(m.error(
                    "`DeviceCopy` takes `#[repr(C)]` alone: a packed or over-aligned struct has \
                     another C layout",
                ))
            }
        })?;
    }
    if !c {
        return Err(syn::Error::new_spanned(
            &input.ident,
            format!(
                "`{}` needs `#[repr(C)]` to be `DeviceCopy`: Rust's default layout may reorder \
                 fields, and the device's C code reads them in declaration order",
                input.ident
            ),
        ));
    }
    Ok(())
}

/// A field's type, refused when it cannot be data a device copy moves bit for bit.
fn field_type(t: &Type) -> syn::Result<()> {
    let refuse = |what: &str, instead: &str| {
        Err(syn::Error::new_spanned(
            t,
            format!(
                "{what} cannot be in a `DeviceCopy` struct; {instead} (device data is numbers, \
                 fixed arrays of them and other `#[derive(acc::DeviceCopy)]` structs)"
            ),
        ))
    };
    let indices = "store an index into another mapped slice";
    match t {
        Type::Paren(p) => field_type(&p.elem),
        Type::Group(g) => field_type(&g.elem),
        Type::Array(a) if matches!(&a.len, syn::Expr::Lit(l) if matches!(&l.lit, syn::Lit::Int(i) if i.base10_digits() == "0")) => {
            refuse("an empty array (C has none)", "leave the field out")
        }
        Type::Array(a) => field_type(&a.elem),
        Type::Reference(_) => refuse("a reference (a host address)", indices),
        Type::Ptr(_) => refuse("a pointer (a host address)", indices),
        Type::Slice(_) => refuse("a slice", "use a fixed array `[T; N]`"),
        Type::Tuple(_) => refuse("a tuple (its layout is Rust's)", "use a struct or an array"),
        Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last().expect("a path has a segment");
            let n = last.ident.to_string();
            match n.as_str() {
                "bool" => refuse(
                    "`bool` (not every byte is a valid `bool`, and new device memory is poisoned)",
                    "use a `u8` that is 0 or 1",
                ),
                "char" => refuse("`char` (not every `u32` is a `char`)", "use a `u32`"),
                "Vec" | "String" | "Box" | "Rc" | "Arc" | "HashMap" | "BTreeMap" | "VecDeque" => {
                    refuse(
                        &format!("`{n}` (it owns host memory: a copy would copy its pointer)"),
                        "use a fixed array `[T; N]`, or map the data as a separate slice",
                    )
                }
                "Option" | "Result" | "Cell" | "RefCell" | "NonNull" | "PhantomData" => refuse(
                    &format!("`{n}`"),
                    "use numbers (a flag field for an optional value)",
                ),
                _ if !last.arguments.is_none() => refuse("a generic type", "use a concrete struct"),
                _ => Ok(()),
            }
        }
        _ => refuse("this type", "use numbers, arrays or such structs"),
    }
}
