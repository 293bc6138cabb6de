//! Expansion of `#[acc::routine]`, and the routine calls of every CUDA form.
//!
//! A macro sees one item, so a caller cannot read the routine it calls. Next to `fn foo` the
//! routine's expansion declares a hidden `struct foo {}` (types and functions live in different
//! namespaces, and `use m::foo` imports both) whose `foo::__acc_routine()` returns the routine's
//! `CudaRoutine`: its `__device__` function's parts, its signature and its own calls, or why it
//! has none. A caller's module (or routine) lists its calls as `RoutineCall`s ([`calls`]), each
//! finding the callee by the path the user wrote; the runtime assembles the module from them
//! (`acc_runtime::rust::routines`).

use crate::cuda;
use crate::cuda::Unsupported;
use crate::expand::idents;
use acc_engine::directive::{ClauseKind, Directive};
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};
use std::collections::HashSet;
use syn::visit::Visit;
use syn::{FnArg, ItemFn, Pat, Type};

/// `#[acc::routine(...)]`: checks the directive; the host path uses the function as is. Next to
/// a free function it emits the routine's CUDA form for callers to find (see the module docs).
pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Vec::new();
    let d = crate::text::directive("routine", attr, Span::call_site(), &mut errors);
    let func = match syn::parse2::<ItemFn>(item.clone()) {
        Ok(f) if errors.is_empty() && (!is_method(&f) || receiver(&f).is_some()) => f,
        // An associated function without `self` lives in an `impl`, where the struct cannot:
        // calls of such functions have no CUDA form anyway.
        _ => {
            let mut out = item;
            for e in errors {
                out.extend(e.to_compile_error());
            }
            return out;
        }
    };
    let ident = &func.sig.ident;
    let name = syn::ext::IdentExt::unraw(ident).to_string();
    let mut no_form = TokenStream::new();
    let (form, missing) = match form(&func, d.as_ref().map(|(d, _)| d)) {
        Ok(r) => (r, None),
        Err(why) => {
            // A routine is device code: Rust outside the subset is a compile error there.
            let msg = format!(
                "the routine `{name}` has no CUDA form: {}; a routine runs on the GPU too (the \
                 `acc` crate docs list the Rust device code may use)",
                why.why
            );
            no_form =
                quote_spanned!(why.span.unwrap_or(ident.span())=> ::core::compile_error!(#msg););
            let why = why.why;
            let at = quote_spanned!(ident.span()=> (::core::file!(), ::core::line!(), #why));
            (cuda::TranslatedRoutine::default(), Some(at))
        }
    };
    let cuda::TranslatedRoutine {
        ret,
        params,
        param_types,
        body,
        calls,
        types,
    } = form;
    let checks = require_routines(&calls);
    let calls = self::calls(&calls);
    let types = self::types(&types);
    let signature = func.sig.inputs.iter().map(|a| match a {
        FnArg::Typed(t) => type_text(&t.ty),
        FnArg::Receiver(_) => "_".into(),
    });
    let rust_ret = match &func.sig.output {
        syn::ReturnType::Default => "()".into(),
        syn::ReturnType::Type(_, t) => type_text(t),
    };
    let missing = missing.into_iter();
    let routine = quote! {
        ::acc::__private::CudaRoutine {
            function: #name,
            file: ::core::file!(),
            line: ::core::line!(),
            signature: &[#(#signature),*],
            rust_ret: #rust_ret,
            ret: #ret,
            params: #params,
            param_types: &[#(#param_types),*],
            body: #body,
            calls: &[#(#calls),*],
            types: &[#(#types),*],
            missing: &[#(#missing),*],
        }
    };
    let vis = &func.vis;
    let cfgs = func.attrs.iter().filter(|a| a.path().is_ident("cfg"));
    let cfgs = quote!(#(#cfgs)*);
    if receiver(&func).is_some() {
        // A method: its form is an associated const of the type (where `Self` is the type),
        // found by callers as `<Type>::__acc_method_<name>`.
        let konst = quote::format_ident!("__ACC_METHOD_{}", name);
        let getter = quote::format_ident!("__acc_method_{}", name);
        return quote! {
            #func

            #no_form

            #cfgs
            #[doc(hidden)]
            #[allow(non_upper_case_globals, dead_code)]
            pub const #konst: ::acc::__private::CudaRoutine = #routine;

            #cfgs
            /// The CUDA form of the method routine (acc-macros).
            #[doc(hidden)]
            #[allow(dead_code)]
            pub fn #getter() -> &'static ::acc::__private::CudaRoutine {
                #checks
                &Self::#konst
            }
        };
    }
    quote! {
        #func

        #no_form
        #checks

        #cfgs
        #[doc(hidden)]
        #[allow(non_camel_case_types, dead_code)]
        #vis struct #ident {}

        #cfgs
        impl #ident {
            /// Marks the routine for callers' compile-time check (`require_routines`).
            #[doc(hidden)]
            #[allow(dead_code)]
            pub const __ACC_IS_ROUTINE: bool = true;

            /// The CUDA form of the routine (acc-macros).
            #[doc(hidden)]
            #[allow(dead_code)]
            pub fn __acc_routine() -> &'static ::acc::__private::CudaRoutine {
                static ROUTINE: ::acc::__private::CudaRoutine = #routine;
                &ROUTINE
            }
        }
    }
}

/// A method's receiver (`self`, `&self`, `mut self`, `&mut self`).
fn receiver(f: &ItemFn) -> Option<&syn::Receiver> {
    match f.sig.inputs.first() {
        Some(FnArg::Receiver(r)) => Some(r),
        _ => None,
    }
}

/// A compile-time check per call site that the callee is an `#[acc::routine]`: device code
/// can call nothing else. Found as `calls` finds it, a function that is not a routine resolves
/// to the fallback, whose marker is `false`, and the constant's evaluation fails with the
/// message at the call.
pub fn require_routines(sites: &[cuda::CallSite]) -> TokenStream {
    let mut out = TokenStream::new();
    // A method routine is found as an associated function of its type: rustc names it if it
    // is missing.
    for site in sites.iter().filter(|s| !s.method) {
        let (path, span) = (&site.path, site.span);
        let name = path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect::<Vec<_>>()
            .join("::");
        let msg = format!(
            "`{name}` is not an `#[acc::routine]` function, so device code cannot call it; mark \
             it `#[acc::routine(seq)]`"
        );
        out.extend(quote_spanned! {span=>
            const _: () = {
                #[allow(unused_imports)]
                use #path as __acc_callee;
                #[allow(unused_imports)]
                use ::acc::__private::not_a_routine::*;
                if !__acc_callee::__ACC_IS_ROUTINE {
                    ::core::panic!(#msg)
                }
            };
        });
    }
    out
}

/// The routine calls of a CUDA form, as `RoutineCall`s: the callee found by the path the user
/// wrote, with the types the translation assumed, which the runtime compares with the routine's
/// signature. The lookup is `use <path> as __acc_callee;` beside a glob import of a fallback:
/// the explicit import shadows the glob in the namespaces it finds, so a routine's struct wins,
/// and a function that is not a routine (no struct) finds "not a routine" instead of failing
/// to compile.
pub fn calls(sites: &[cuda::CallSite]) -> Vec<TokenStream> {
    sites
        .iter()
        .map(|site| {
            let (path, span, alias) = (&site.path, site.span, &site.alias);
            let segs: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
            let global = if path.leading_colon.is_some() {
                "::"
            } else {
                ""
            };
            let name = format!("{global}{}", segs.join("::"));
            let args = site.args.iter().map(|a| match a {
                cuda::ArgTy::Value(t) => t.rust().to_string(),
                cuda::ArgTy::Signature => "_".into(),
                cuda::ArgTy::Slice(cuda::Elem::Named(_), _) => "_".into(),
                cuda::ArgTy::Slice(t, false) => format!("&[{}]", t.rust()),
                cuda::ArgTy::Slice(t, true) => format!("&mut [{}]", t.rust()),
            });
            let ret = site.ret.map_or("_", cuda::Ty::rust);
            let routine = if site.method {
                let mut ty = path.clone();
                let m = ty.segments.pop().expect("a type and a method").into_value();
                ty.segments.pop_punct();
                let f = quote::format_ident!("__acc_method_{}", m.ident);
                quote_spanned!(span=> #ty::#f)
            } else {
                quote_spanned! {span=> {
                    #[allow(unused_imports)]
                    use #path as __acc_callee;
                    #[allow(unused_imports)]
                    use ::acc::__private::not_a_routine::*;
                    __acc_callee::__acc_routine
                }}
            };
            quote_spanned! {span=>
                ::acc::__private::RoutineCall {
                    routine: #routine,
                    name: #name,
                    alias: #alias,
                    file: ::core::file!(),
                    line: ::core::line!(),
                    args: &[#(#args),*],
                    ret: #ret,
                }
            }
        })
        .collect()
}

/// The user types a CUDA text names, as `CudaType`s: the alias the text uses, and the type's C
/// declaration (`DeviceCopy::__acc_c_type`), found by the type as written where the text is.
pub fn types(named: &[cuda::Named]) -> Vec<TokenStream> {
    named
        .iter()
        .map(|n| {
            let alias = &n.alias;
            let ty: Type = syn::parse_str(&n.rust).expect("a type read from the source");
            quote! {
                ::acc::__private::CudaType {
                    alias: #alias,
                    c: <#ty as ::acc::__private::DeviceCopy>::__acc_c_type,
                }
            }
        })
        .collect()
}

/// Names bound inside a function: its parameters, every pattern's bindings, and the items and
/// imports its body declares. A call through one of them is not a call of a routine declared
/// outside, which is all a CUDA form can call (the lookup runs in the function's scope).
pub fn bound_names(func: &ItemFn) -> HashSet<String> {
    #[derive(Default)]
    struct Names(HashSet<String>);
    impl Names {
        fn add(&mut self, i: &syn::Ident) {
            self.0.insert(syn::ext::IdentExt::unraw(i).to_string());
        }
    }
    impl<'ast> Visit<'ast> for Names {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            self.add(&p.ident);
            syn::visit::visit_pat_ident(self, p);
        }
        fn visit_item(&mut self, i: &'ast syn::Item) {
            match i {
                syn::Item::Fn(f) => self.add(&f.sig.ident),
                syn::Item::Const(c) => self.add(&c.ident),
                syn::Item::Static(s) => self.add(&s.ident),
                syn::Item::Mod(m) => self.add(&m.ident),
                _ => {}
            }
            syn::visit::visit_item(self, i);
        }
        fn visit_use_name(&mut self, u: &'ast syn::UseName) {
            self.add(&u.ident);
        }
        fn visit_use_rename(&mut self, u: &'ast syn::UseRename) {
            self.add(&u.rename);
        }
    }
    let mut names = Names::default();
    for arg in &func.sig.inputs {
        names.visit_fn_arg(arg);
    }
    names.visit_block(&func.block);
    names.0
}

/// A function in an `impl` or a trait: it takes `self` or names `Self`.
fn is_method(f: &ItemFn) -> bool {
    matches!(f.sig.inputs.first(), Some(FnArg::Receiver(_)))
        || idents(&f.sig.to_token_stream()).contains("Self")
}

/// A type as the runtime compares a routine's signature with a call's (`f32`, `&[f64]`,
/// `&mut [u8]`, `()`): lifetimes and spacing aside.
fn type_text(t: &Type) -> String {
    match t {
        Type::Reference(r) => {
            let m = if r.mutability.is_some() { "mut " } else { "" };
            format!("&{m}{}", type_text(&r.elem))
        }
        Type::Slice(s) => format!("[{}]", type_text(&s.elem)),
        Type::Paren(p) => type_text(&p.elem),
        Type::Group(g) => type_text(&g.elem),
        Type::Tuple(u) if u.elems.is_empty() => "()".into(),
        t => cuda::text(t),
    }
}

/// A method routine's `self`: the struct by value (for `&self` too, which cannot write it).
fn method_self(r: &syn::Receiver) -> Result<(String, cuda::Outer, bool), Unsupported> {
    if r.colon_token.is_some() {
        return Err(cuda::unsupported(
            r,
            "a typed `self`; take `self` or `&self`",
        ));
    }
    if r.reference.is_some() && r.mutability.is_some() {
        return Err(cuda::unsupported(
            r,
            "a method taking `&mut self`; take `self` and return the new value",
        ));
    }
    let this: Type = syn::parse_quote!(Self);
    let named = cuda::Named::from_type(&this).expect("`Self` is a path");
    let mutable = r.reference.is_none() && r.mutability.is_some();
    Ok(("self".into(), cuda::Outer::Value(named), mutable))
}

/// The CUDA form of a routine, or why it has none.
fn form(func: &ItemFn, d: Option<&Directive>) -> Result<cuda::TranslatedRoutine, Unsupported> {
    if let Some(c) = d
        .into_iter()
        .flat_map(|d| &d.clauses)
        .find(|c| c.kind == ClauseKind::Bind)
    {
        return Err(Unsupported::new(format!(
            "`{}`: a routine's CUDA form is its own body",
            c.spelling
        )));
    }
    let sig = &func.sig;
    if !sig.generics.params.is_empty() || sig.asyncness.is_some() || sig.variadic.is_some() {
        return Err(cuda::unsupported(
            sig,
            "a generic, `async` or variadic function",
        ));
    }
    let mut params = Vec::new();
    for arg in &sig.inputs {
        let t = match arg {
            FnArg::Receiver(r) => {
                params.push(method_self(r)?);
                continue;
            }
            FnArg::Typed(t) => t,
        };
        let name = match &*t.pat {
            Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => pi,
            p => {
                return Err(cuda::unsupported(
                    p,
                    "a parameter pattern other than a name",
                ))
            }
        };
        let outer = match &*t.ty {
            Type::Reference(r) => match &*r.elem {
                Type::Slice(sl) => cuda::Elem::from_type(&sl.elem)
                    .map(|e| cuda::Outer::Slice(e, r.mutability.is_some())),
                _ => None,
            },
            ty => match cuda::Elem::from_type(ty) {
                Some(cuda::Elem::Ty(t)) => Some(cuda::Outer::Scalar(t)),
                Some(cuda::Elem::Named(n)) => Some(cuda::Outer::Value(n)),
                Some(cuda::Elem::Generic(_)) | None => None,
            },
        };
        let Some(outer) = outer else {
            return Err(cuda::unsupported(
                t,
                "a parameter of a type outside the CUDA subset (scalars of the number types and \
                 `bool`, and slices of them)",
            ));
        };
        let mutable = name.mutability.is_some();
        params.push((
            syn::ext::IdentExt::unraw(&name.ident).to_string(),
            outer,
            mutable,
        ));
    }
    let ret = match &sig.output {
        syn::ReturnType::Default => None,
        syn::ReturnType::Type(_, t) => match &**t {
            Type::Tuple(u) if u.elems.is_empty() => None,
            t => Some(
                cuda::Elem::from_type(t)
                    .ok_or_else(|| cuda::unsupported(t, "a return type outside the CUDA subset"))?,
            ),
        },
    };
    let locals = bound_names(func);
    cuda::translate_routine(&cuda::RoutineInput {
        function: &syn::ext::IdentExt::unraw(&sig.ident).to_string(),
        params: &params,
        ret,
        body: &func.block,
        locals: &locals,
    })
}
