//! Which elements of each written slice a chunk of a partitioned loop indexes: the macro's half
//! of sound partitioned loops (the runtime's half, which makes them sound, is
//! `acc_runtime::rust::launch_owned`).
//!
//! For every `&mut [T]` parameter a loop body uses, [`analyze`] decides whether the loop only
//! reads it (the chunks then share a `&[T]`) or writes it. A written slice may only be indexed
//! (`y[e]`) or asked its length; each index expression is turned into an **estimate**: Rust
//! code over `i128` that evaluates the index at a chunk's first and last iteration, with the
//! loops inside the body at their first and last values and the body's immutable `let`s
//! replayed. [`extent`] writes the closure that takes the hull of those values per slice. An
//! index that depends on anything else (a value read from memory, a variable the body
//! changes) has no estimate: in a safe function that is a compile error, in an `unsafe fn`
//! the caller's promise stands in for the check.
//!
//! The estimate is a hint, never trusted: the runtime clips it, refuses overlapping windows
//! and checks every access, so a poor estimate costs a panic, not a race.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use std::collections::{BTreeMap, BTreeSet};
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{BinOp, Expr, Pat, RangeLimits, UnOp};

/// How a loop body uses one `&mut [T]` parameter.
pub enum Access {
    /// Only read (`y[e]` as a value, `y.len()`): the chunks share it.
    Read,
    /// Written: each index, estimated or not.
    Written(Vec<Site>),
}

/// One `y[e]` of a written slice.
pub struct Site {
    /// The estimate, or why there is none (where, and the reason).
    pub estimate: Result<Estimate, (Span, String)>,
}

/// The index as `i128` code, with the body's bindings it needs, outermost first.
pub struct Estimate {
    bindings: Vec<Binding>,
    index: TokenStream,
}

/// A body variable an estimate replays.
#[derive(Clone)]
struct Binding {
    name: syn::Ident,
    kind: BindingKind,
}

#[derive(Clone)]
enum BindingKind {
    /// `let name = value;`
    Let(TokenStream),
    /// `for name in lo..hi` (`last` is `hi - 1`, or `hi` for `..=`).
    Loop {
        first: TokenStream,
        last: TokenStream,
    },
}

/// What [`analyze`] needs to know of the loop.
pub struct Scope<'a> {
    /// The `&mut [T]` parameters.
    pub mut_slices: &'a [syn::Ident],
    /// The `&[T]` parameters.
    pub shared_slices: &'a [syn::Ident],
    /// The partitioned loop's index variables, outermost first.
    pub indices: &'a [syn::Ident],
    /// Variables that change inside a chunk: privates, per-chunk copies, reduction variables.
    pub changing: &'a [syn::Ident],
}

/// The uses of each `&mut [T]` parameter the body names, and the errors: uses of a written
/// slice other than indexing and `len()`.
pub fn analyze(
    scope: &Scope<'_>,
    body: &syn::Block,
) -> (BTreeMap<String, Access>, Vec<syn::Error>) {
    let mut pre = PreScan::default();
    pre.visit_block(body);
    let mut walk = Walk {
        scope,
        changing: pre
            .assigned
            .into_iter()
            .chain(pre.patterned)
            .chain(scope.changing.iter().map(|i| i.to_string()))
            .collect(),
        env: Vec::new(),
        uses: BTreeMap::new(),
        place: false,
    };
    walk.visit_block(body);
    let mut errors = Vec::new();
    let mut out = BTreeMap::new();
    for (name, u) in walk.uses {
        if u.sites.is_empty() && u.other.is_empty() {
            continue;
        }
        if !u.written && u.other.is_empty() {
            out.insert(name, Access::Read);
            continue;
        }
        for span in &u.other {
            errors.push(syn::Error::new(
                *span,
                format!(
                    "`{name}` is written in this partitioned loop, so its chunks may only \
                     index it (`{name}[i]`) or ask its length (`{name}.len()`): each chunk \
                     owns the elements its iterations index, and nothing else of `{name}`"
                ),
            ));
        }
        out.insert(name, Access::Written(u.sites));
    }
    (out, errors)
}

/// The estimate closure of a launch: for the chunk's iterations `__acc_range` of the flattened
/// nest, the hull of every estimated index per written slice, in `slices` order.
///
/// `levels` are the nest's index variables (`None` for `_`), `los` and `ns` the idents holding
/// each level's first index and trip count. A written slice `y`'s length must be saved in
/// [`len_ident`]`("y")` before the launch, which borrows the slice.
pub fn extent(
    levels: &[Option<syn::Ident>],
    los: &[syn::Ident],
    ns: &[syn::Ident],
    slices: &[&[Site]],
) -> TokenStream {
    let w = slices.len();
    let n = levels.len();
    let mut decompose = quote!(let mut __acc_rest: i64 = __acc_it;);
    for j in (0..n).rev() {
        let (at, c) = (format_ident!("__acc_at{}", j), &ns[j]);
        decompose.extend(quote! {
            let #at: i64 = __acc_rest % #c;
            __acc_rest /= #c;
        });
    }
    for (j, v) in levels.iter().enumerate() {
        if let Some(v) = v {
            let (at, l) = (format_ident!("__acc_at{}", j), &los[j]);
            decompose.extend(quote! {
                #[allow(unused_variables)]
                let #v: i128 = ::acc::__private::est(#l) + ::acc::__private::est(#at);
            });
        }
    }
    let mut sites = TokenStream::new();
    for (k, ss) in slices.iter().enumerate() {
        for s in ss.iter() {
            if let Ok(e) = &s.estimate {
                sites.extend(site(k, e));
            }
        }
    }
    quote! {
        &|__acc_range: ::core::ops::Range<i64>| -> ::acc::__private::Extent<#w> {
            let mut __acc_ext = [::acc::__private::NO_INDEX; #w];
            for __acc_it in [__acc_range.start, __acc_range.end - 1] {
                #decompose
                let _ = __acc_rest;
                #sites
            }
            __acc_ext
        }
    }
}

/// The ident holding written slice `name`'s length during its launch.
pub fn len_ident(name: &str) -> syn::Ident {
    format_ident!("__acc_len_{}", name)
}

fn site(k: usize, e: &Estimate) -> TokenStream {
    let index = &e.index;
    let mut code = quote!(::acc::__private::widen(&mut __acc_ext[#k], #index););
    for (m, b) in e.bindings.iter().enumerate().rev() {
        let name = &b.name;
        code = match &b.kind {
            BindingKind::Let(v) => quote!({ let #name: i128 = #v; #code }),
            BindingKind::Loop { first, last } => {
                let c = format_ident!("__acc_corner{}", m);
                quote! {
                    for #c in [false, true] {
                        let (__acc_first, __acc_last): (i128, i128) = (#first, #last);
                        if __acc_last < __acc_first {
                            break;
                        }
                        let #name: i128 = if #c { __acc_last } else { __acc_first };
                        #code
                    }
                }
            }
        };
    }
    code
}

/// Names the body assigns (so their values change) and names bound by patterns other than a
/// plain `let x` or `for x` (whose scopes the walk does not follow).
#[derive(Default)]
struct PreScan {
    assigned: BTreeSet<String>,
    patterned: BTreeSet<String>,
}

/// The variable an assignment's target is based on (`y` of `y[i]`, `(*y).f`).
pub(crate) fn root_name(e: &Expr) -> Option<String> {
    match e {
        Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
        Expr::Index(i) => root_name(&i.expr),
        Expr::Field(f) => root_name(&f.base),
        Expr::Paren(p) => root_name(&p.expr),
        Expr::Unary(u) if matches!(u.op, UnOp::Deref(_)) => root_name(&u.expr),
        _ => None,
    }
}

fn pat_names(p: &Pat, out: &mut BTreeSet<String>) {
    struct Names<'o>(&'o mut BTreeSet<String>);
    impl<'ast> Visit<'ast> for Names<'_> {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            self.0.insert(p.ident.to_string());
            syn::visit::visit_pat_ident(self, p);
        }
    }
    Names(out).visit_pat(p);
}

/// The name of a plain immutable binding pattern (`x`, `x: T`).
fn plain_binding(p: &Pat) -> Option<&syn::Ident> {
    match p {
        Pat::Ident(pi) if pi.mutability.is_none() && pi.by_ref.is_none() && pi.subpat.is_none() => {
            Some(&pi.ident)
        }
        Pat::Type(t) => plain_binding(&t.pat),
        _ => None,
    }
}

impl<'ast> Visit<'ast> for PreScan {
    fn visit_expr_assign(&mut self, e: &'ast syn::ExprAssign) {
        if let Some(n) = root_name(&e.left) {
            self.assigned.insert(n);
        }
        syn::visit::visit_expr_assign(self, e);
    }
    fn visit_expr_binary(&mut self, e: &'ast syn::ExprBinary) {
        if is_compound(&e.op) {
            if let Some(n) = root_name(&e.left) {
                self.assigned.insert(n);
            }
        }
        syn::visit::visit_expr_binary(self, e);
    }
    fn visit_expr_reference(&mut self, e: &'ast syn::ExprReference) {
        if e.mutability.is_some() {
            if let Some(n) = root_name(&e.expr) {
                self.assigned.insert(n);
            }
        }
        syn::visit::visit_expr_reference(self, e);
    }
    fn visit_local(&mut self, l: &'ast syn::Local) {
        if plain_binding(&l.pat).is_none() {
            pat_names(&l.pat, &mut self.patterned);
        }
        if let Some(init) = &l.init {
            self.visit_local_init(init);
        }
    }
    fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
        if !matches!(&*f.pat, Pat::Ident(pi) if pi.mutability.is_none() && pi.subpat.is_none()) {
            pat_names(&f.pat, &mut self.patterned);
        }
        self.visit_expr(&f.expr);
        self.visit_block(&f.body);
    }
    fn visit_pat(&mut self, p: &'ast Pat) {
        // Patterns of `match`, `if let`, `while let` and closures.
        pat_names(p, &mut self.patterned);
    }
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// `e` as the user wrote it, near enough for a message.
fn text(e: &Expr) -> String {
    let t = e.to_token_stream().to_string();
    t.replace(" [", "[")
        .replace("[ ", "[")
        .replace(" ]", "]")
        .replace(" (", "(")
}

/// `+=` and the other compound assignments.
pub(crate) fn is_compound(op: &BinOp) -> bool {
    matches!(
        op,
        BinOp::AddAssign(_)
            | BinOp::SubAssign(_)
            | BinOp::MulAssign(_)
            | BinOp::DivAssign(_)
            | BinOp::RemAssign(_)
            | BinOp::BitXorAssign(_)
            | BinOp::BitAndAssign(_)
            | BinOp::BitOrAssign(_)
            | BinOp::ShlAssign(_)
            | BinOp::ShrAssign(_)
    )
}

#[derive(Default)]
struct Uses {
    written: bool,
    sites: Vec<Site>,
    /// Uses other than `y[e]` and `y.len()`.
    other: Vec<Span>,
}

/// A variable in scope inside the body: a binding an estimate may replay (with the bindings it
/// needs in turn), or one whose value the estimate cannot know.
struct Scoped {
    name: syn::Ident,
    known: Result<(Binding, BTreeSet<usize>), String>,
}

struct Walk<'s, 'a> {
    scope: &'s Scope<'a>,
    /// Variables whose value changes inside a chunk.
    changing: BTreeSet<String>,
    env: Vec<Scoped>,
    uses: BTreeMap<String, Uses>,
    /// Visiting the place of an assignment or `&mut`.
    place: bool,
}

impl Walk<'_, '_> {
    fn is_mut_slice(&self, e: &Expr) -> Option<String> {
        let Expr::Path(p) = e else { return None };
        let i = p.path.get_ident()?;
        self.scope
            .mut_slices
            .iter()
            .any(|s| s == i)
            .then(|| i.to_string())
    }

    /// `e` as `i128` code, and the bindings (indices into `env`) it needs.
    fn estimate(&self, e: &Expr) -> Result<(TokenStream, BTreeSet<usize>), (Span, String)> {
        let mut deps = BTreeSet::new();
        let t = self.est(e, &mut deps)?;
        Ok((t, deps))
    }

    fn est(&self, e: &Expr, deps: &mut BTreeSet<usize>) -> Result<TokenStream, (Span, String)> {
        let span = e.span();
        Ok(match e {
            Expr::Lit(l) => match &l.lit {
                syn::Lit::Int(i) => {
                    let v = syn::LitInt::new(&format!("{}i128", i.base10_digits()), i.span());
                    quote!(#v)
                }
                _ => return Err((span, "it is not an integer".into())),
            },
            Expr::Paren(p) => {
                let inner = self.est(&p.expr, deps)?;
                quote!((#inner))
            }
            Expr::Group(g) => self.est(&g.expr, deps)?,
            // The estimate is only a hint: a cast changes the value only past the type's
            // range, where the runtime's checks take over.
            Expr::Cast(c) => self.est(&c.expr, deps)?,
            Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => {
                let inner = self.est(&u.expr, deps)?;
                quote!((#inner).wrapping_neg())
            }
            Expr::Binary(b) => {
                let (l, r) = (self.est(&b.left, deps)?, self.est(&b.right, deps)?);
                match b.op {
                    BinOp::Add(_) => quote!((#l).wrapping_add(#r)),
                    BinOp::Sub(_) => quote!((#l).wrapping_sub(#r)),
                    BinOp::Mul(_) => quote!((#l).wrapping_mul(#r)),
                    BinOp::Div(_) => quote!(::acc::__private::est_div(#l, #r)),
                    BinOp::Rem(_) => quote!(::acc::__private::est_rem(#l, #r)),
                    BinOp::Shl(_) => quote!(::acc::__private::est_shl(#l, #r)),
                    BinOp::Shr(_) => quote!(::acc::__private::est_shr(#l, #r)),
                    _ => {
                        return Err((
                            span,
                            format!(
                                "the operator `{}` is not arithmetic",
                                b.op.to_token_stream()
                            ),
                        ))
                    }
                }
            }
            Expr::MethodCall(m) if m.method == "len" && m.args.is_empty() => {
                let Expr::Path(p) = &*m.receiver else {
                    return Err((span, "only a slice parameter's `len()` is known".into()));
                };
                let Some(i) = p.path.get_ident() else {
                    return Err((span, "only a slice parameter's `len()` is known".into()));
                };
                if self.scope.mut_slices.iter().any(|s| s == i) {
                    let saved = len_ident(&i.to_string());
                    quote!(::acc::__private::est(#saved))
                } else if self.scope.shared_slices.iter().any(|s| s == i) {
                    quote!(::acc::__private::est(#i.len()))
                } else {
                    return Err((span, "only a slice parameter's `len()` is known".into()));
                }
            }
            Expr::MethodCall(m)
                if (m.method == "min" || m.method == "max") && m.args.len() == 1 =>
            {
                let a = self.est(&m.receiver, deps)?;
                let b = self.est(&m.args[0], deps)?;
                let method = &m.method;
                quote!((#a).#method(#b))
            }
            Expr::Path(p) => {
                if let Some(i) = p.path.get_ident() {
                    return self.name(i, deps);
                }
                // A constant such as `N` through a path, or `usize::MAX`.
                quote_spanned!(span=> ::acc::__private::est(#p))
            }
            Expr::Index(_) => return Err((span, format!("`{}` reads memory", text(e)))),
            Expr::Call(_) | Expr::MethodCall(_) | Expr::Macro(_) => {
                return Err((span, format!("`{}` is a call", text(e))))
            }
            _ => return Err((span, format!("`{}` is not arithmetic", text(e)))),
        })
    }

    fn name(
        &self,
        i: &syn::Ident,
        deps: &mut BTreeSet<usize>,
    ) -> Result<TokenStream, (Span, String)> {
        let name = i.to_string();
        if let Some(k) = self.env.iter().rposition(|s| s.name == *i) {
            // Replayed by the estimate under its own name.
            return match &self.env[k].known {
                Ok((_, needs)) if !self.changing.contains(&name) => {
                    deps.insert(k);
                    deps.extend(needs.iter().copied());
                    Ok(quote!(#i))
                }
                Ok(_) => Err((i.span(), format!("`{i}` changes inside the loop"))),
                Err(why) => Err((i.span(), why.clone())),
            };
        }
        if self.changing.contains(&name) {
            return Err((i.span(), format!("`{i}` changes inside the loop")));
        }
        if self.scope.indices.iter().any(|x| x == i) {
            return Ok(quote!(#i));
        }
        if self
            .scope
            .mut_slices
            .iter()
            .chain(self.scope.shared_slices)
            .any(|s| s == i)
        {
            return Err((i.span(), format!("`{i}` is a slice")));
        }
        // A value fixed before the loop: a scalar parameter or a variable of the function.
        Ok(quote_spanned!(i.span()=> ::acc::__private::est(#i)))
    }

    fn bind(&mut self, name: syn::Ident, known: Result<(Binding, BTreeSet<usize>), String>) {
        self.env.push(Scoped { name, known });
    }

    fn record(&mut self, slice: String, index: &Expr, written: bool) {
        let estimate = self.estimate(index).map(|(index, deps)| Estimate {
            bindings: deps
                .iter()
                .map(|&k| match &self.env[k].known {
                    Ok((b, _)) => b.clone(),
                    Err(_) => unreachable!("only known bindings are dependencies"),
                })
                .collect(),
            index,
        });
        let u = self.uses.entry(slice).or_default();
        u.written |= written;
        u.sites.push(Site { estimate });
    }
}

impl<'ast> Visit<'ast> for Walk<'_, '_> {
    fn visit_block(&mut self, b: &'ast syn::Block) {
        let depth = self.env.len();
        for s in &b.stmts {
            self.visit_stmt(s);
        }
        self.env.truncate(depth);
    }

    fn visit_local(&mut self, l: &'ast syn::Local) {
        if let Some(init) = &l.init {
            self.visit_local_init(init);
        }
        let Some(name) = plain_binding(&l.pat) else {
            let mut names = BTreeSet::new();
            pat_names(&l.pat, &mut names);
            for n in names {
                let why = format!("`{n}` is a variable the loop body may change");
                self.bind(syn::Ident::new(&n, l.pat.span()), Err(why));
            }
            return;
        };
        let known = match &l.init {
            Some(init) if init.diverge.is_none() => self
                .estimate(&init.expr)
                .map(|(t, deps)| {
                    (
                        Binding {
                            name: name.clone(),
                            kind: BindingKind::Let(t),
                        },
                        deps,
                    )
                })
                .map_err(|(_, why)| format!("`{name}` is set from a value that {why}")),
            _ => Err(format!(
                "`{name}` has no value known before the loop body runs"
            )),
        };
        self.bind(name.clone(), known);
    }

    fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
        self.visit_expr(&f.expr);
        let depth = self.env.len();
        if let Pat::Ident(pi) = &*f.pat {
            let known = match &*f.expr {
                Expr::Range(r) => match (&r.start, &r.end) {
                    (Some(lo), Some(hi)) => match (self.estimate(lo), self.estimate(hi)) {
                        (Ok((first, mut deps)), Ok((hi, d2))) => {
                            deps.extend(d2);
                            let last = match r.limits {
                                RangeLimits::Closed(_) => hi,
                                RangeLimits::HalfOpen(_) => quote!((#hi).wrapping_sub(1)),
                            };
                            Ok((
                                Binding {
                                    name: pi.ident.clone(),
                                    kind: BindingKind::Loop { first, last },
                                },
                                deps,
                            ))
                        }
                        (Err((_, why)), _) | (_, Err((_, why))) => Err(format!(
                            "the bounds of the loop over `{}` use a value that {why}",
                            pi.ident
                        )),
                    },
                    _ => Err(format!("the loop over `{}` has an open range", pi.ident)),
                },
                _ => Err(format!("the loop over `{}` is not over a range", pi.ident)),
            };
            self.bind(pi.ident.clone(), known);
        }
        self.visit_block(&f.body);
        self.env.truncate(depth);
    }

    fn visit_expr_index(&mut self, e: &'ast syn::ExprIndex) {
        let place = std::mem::replace(&mut self.place, false);
        if let Some(slice) = self.is_mut_slice(&e.expr) {
            self.record(slice, &e.index, place);
        } else {
            // `y[i][k] = v` writes `y[i]`.
            self.place = place;
            self.visit_expr(&e.expr);
            self.place = false;
        }
        self.visit_expr(&e.index);
    }

    fn visit_expr_assign(&mut self, e: &'ast syn::ExprAssign) {
        self.place = true;
        self.visit_expr(&e.left);
        self.place = false;
        self.visit_expr(&e.right);
    }

    fn visit_expr_binary(&mut self, e: &'ast syn::ExprBinary) {
        self.place = is_compound(&e.op);
        self.visit_expr(&e.left);
        self.place = false;
        self.visit_expr(&e.right);
    }

    fn visit_expr_reference(&mut self, e: &'ast syn::ExprReference) {
        self.place = e.mutability.is_some();
        self.visit_expr(&e.expr);
        self.place = false;
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        if self.is_mut_slice(&m.receiver).is_some()
            && (m.method == "len" || m.method == "is_empty")
            && m.args.is_empty()
        {
            return;
        }
        self.place = false;
        syn::visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
        if let Some(slice) = self.is_mut_slice(&Expr::Path(p.clone())) {
            let u = self.uses.entry(slice).or_default();
            u.written = true;
            u.other.push(p.span());
        }
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        // Macro arguments are tokens the walk cannot read as expressions.
        for tt in m.tokens.clone() {
            mention_in_tokens(tt, self);
        }
    }

    fn visit_expr(&mut self, e: &'ast Expr) {
        // A place is the indexing expression itself (through parentheses and fields: `y[i].x
        // = v` writes `y[i]`), not what it contains.
        if !matches!(
            e,
            Expr::Index(_) | Expr::Field(_) | Expr::Paren(_) | Expr::Group(_)
        ) {
            self.place = false;
        }
        syn::visit::visit_expr(self, e);
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

fn mention_in_tokens(tt: proc_macro2::TokenTree, walk: &mut Walk<'_, '_>) {
    match tt {
        proc_macro2::TokenTree::Ident(i) if walk.scope.mut_slices.contains(&i) => {
            let u = walk.uses.entry(i.to_string()).or_default();
            u.written = true;
            u.other.push(i.span());
        }
        proc_macro2::TokenTree::Group(g) => {
            for t in g.stream() {
                mention_in_tokens(t, walk);
            }
        }
        _ => {}
    }
}

/// The first index of a written slice that has no estimate, as the error a safe function gets.
pub fn unestimated(name: &str, sites: &[Site]) -> Option<syn::Error> {
    sites.iter().find_map(|s| match &s.estimate {
        Ok(_) => None,
        Err((span, why)) => Some(syn::Error::new(
            *span,
            format!(
                "cannot tell which elements of `{name}` a chunk of this partitioned loop writes: \
                 {why}, and an index of a written slice must be arithmetic on the loop's \
                 indices and values fixed before the loop; if the iterations do write \
                 different elements (a permutation, say), make the function `unsafe fn` and \
                 state that promise to its callers",
            ),
        )),
    })
}
