//! The facts acc-engine needs of a Rust compute or data function (`acc_engine::facts::Unit`),
//! so that data attributes, loop partitioning and the dependence test of `kernels` loops are
//! decided by the same engine code as for C.
//!
//! The engine works on byte spans of one source text. A Rust function has no such text, so
//! [`build`] lays one out: the construct's directive text at offset 0, then one position per
//! parameter declaration, then the body, where every variable reference gets a position and
//! every loop directive's text is placed where its attribute stands (so it lies inside the
//! enclosing construct's body, as a pragma does in C). A table maps positions back to the
//! Rust tokens, so engine diagnostics land on what the user wrote.
//!
//! Loop directives are parsed here, once; each `#[acc(loop …)]` is replaced by a marker
//! `#[acc(__acc_loop_N)]` naming its entry in [`Facts::loops`] (construct `N + 1`), and a
//! `kernels` loop without a directive that the engine may parallelize by
//! `#[acc(__acc_plain_N)]` (entry `N` of the construct's `plain_loops`).

use crate::owned::{is_compound, root_name};
use crate::text::{self, SpanTable};
use acc_engine::directive::{ClauseArgs, Directive};
use acc_engine::facts::{
    Access, Cmp, Construct, ConstructId, DepFacts, LoopFacts, LoopHeader, Ref, ScalarType, Shape,
    Subscript, Unit, Var, VarId,
};
use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use std::collections::BTreeSet;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Attribute, BinOp, Expr, Pat, RangeLimits, Stmt, UnOp};

/// A parameter of the function, as the engine sees it.
pub struct ParamFact {
    pub name: syn::Ident,
    /// `&[T]` or `&mut [T]`: an array (of `elem`).
    pub slice: bool,
    /// `&[T]`: its elements cannot be written.
    pub shared: bool,
    /// The arithmetic type of the scalar or of the slice's elements, when the subset knows it.
    pub scalar: Option<ScalarType>,
}

/// A loop directive of the function.
pub struct LoopDirective {
    pub directive: Directive,
    pub table: SpanTable,
}

/// The laid-out function.
pub struct Facts {
    pub unit: Unit,
    /// Loop directives in source order: entry `N` is construct `N + 1`.
    pub loops: Vec<LoopDirective>,
    compute_table: SpanTable,
    /// Positions of references, declarations and loops: (start, end, token).
    positions: Vec<(usize, usize, Span)>,
    whole: Span,
}

impl Facts {
    /// The Rust token behind an engine span.
    pub fn span(&self, s: acc_engine::Span) -> Span {
        if s.start < self.compute_len() {
            return self.compute_table.span(s);
        }
        if let Some(l) = self
            .loops
            .iter()
            .zip(&self.unit.constructs[1..])
            .find(|(_, c)| {
                c.pragma_span.start <= s.start
                    && s.start < c.pragma_span.end.max(c.pragma_span.start + 1)
            })
        {
            return l.0.table.span(s);
        }
        self.positions
            .iter()
            .find(|&&(a, b, _)| a <= s.start && s.start < b)
            .map_or(self.whole, |p| p.2)
    }

    fn compute_len(&self) -> usize {
        self.unit.constructs[0].pragma_span.end
    }

    /// The variable a parameter is.
    pub fn param_var(&self, name: &syn::Ident) -> Option<VarId> {
        let name = name.to_string();
        (0..self.unit.vars.len())
            .map(|i| VarId(i as u32))
            .find(|&v| {
                self.unit.var(v).name == name
                    && self.unit.var(v).decl_span.start < self.body_start()
            })
    }

    fn body_start(&self) -> usize {
        self.unit.constructs[0].body.map_or(usize::MAX, |b| b.start)
    }
}

/// The ident of a loop-directive marker.
fn marker(kind: &str, n: usize) -> syn::Ident {
    syn::Ident::new(&format!("__acc_{kind}_{n}"), Span::call_site())
}

/// The marker an attribute is, if it is one: (`"loop"` or `"plain"`, index).
pub fn read_marker(a: &Attribute) -> Option<(&'static str, usize)> {
    let syn::Meta::List(list) = &a.meta else {
        return None;
    };
    let s = list.tokens.to_string();
    for kind in ["loop", "plain"] {
        if let Some(n) = s.strip_prefix(&format!("__acc_{kind}_")) {
            return n
                .parse()
                .ok()
                .map(|n| (if kind == "loop" { "loop" } else { "plain" }, n));
        }
    }
    None
}

/// Lays out `block`, the body of a function whose construct is `compute` (parsed at offset 0
/// with `table`), and rewrites its loop directives into markers. `combined`: the construct's
/// loop part applies to the body's one top-level `for` (its index in `block.stmts`).
pub fn build(
    compute: &Directive,
    compute_table: SpanTable,
    whole: Span,
    params: &[ParamFact],
    block: &mut syn::Block,
    combined: Option<usize>,
    errors: &mut Vec<syn::Error>,
) -> Facts {
    let text_len = compute.span.end;
    let mut l = Layout {
        pos: text_len + 1,
        unit: Unit::default(),
        scopes: vec![Vec::new()],
        positions: Vec::new(),
        loops: Vec::new(),
        parents: vec![ConstructId(0)],
        errors,
    };
    // The construct; its body is filled in below.
    l.unit.constructs.push(Construct {
        directive: compute.clone(),
        pragma_span: acc_engine::Span::new(0, text_len),
        parent: None,
        body: None,
        loops: Vec::new(),
        clause_vars: Vec::new(),
        is_substatement: false,
        function: None,
        block_rest: None,
        consts: consts(compute),
        statements: Vec::new(),
        declarations: Vec::new(),
        plain_loops: Vec::new(),
        entry_unread: Vec::new(),
        read_only: Vec::new(),
        members_used: Vec::new(),
    });
    for p in params {
        let (shape, scalar, elem_scalar) = if p.slice {
            (Shape::Array, None, p.scalar)
        } else {
            (Shape::Scalar, p.scalar, None)
        };
        l.declare(&p.name, shape, p.shared, scalar, elem_scalar);
    }
    let start = l.pos;
    match combined {
        Some(k) => {
            for (i, s) in block.stmts.iter_mut().enumerate() {
                if i != k {
                    l.visit_stmt_mut(s);
                    continue;
                }
                let Stmt::Expr(Expr::ForLoop(f), _) = s else {
                    unreachable!("the combined construct's loop is a `for`")
                };
                // Its clauses name variables in scope at the loop.
                l.unit.constructs[0].clause_vars = l.resolve_clauses(compute);
                let from = l.pos;
                let depth = collapse_depth(compute);
                let facts = l.nest(f, depth);
                let to = l.pos;
                let c = &mut l.unit.constructs[0];
                c.body = Some(acc_engine::Span::new(from, to));
                c.loops = facts;
            }
        }
        None => {
            l.unit.constructs[0].clause_vars = l.resolve_clauses(compute);
            let kernels = compute.kind == acc_engine::directive::DirectiveKind::Kernels;
            l.scopes.push(Vec::new());
            for s in block.stmts.iter_mut() {
                let plain = kernels
                    && matches!(s, Stmt::Expr(Expr::ForLoop(f), _) if !f.attrs.iter().any(is_acc));
                if plain {
                    let Stmt::Expr(Expr::ForLoop(f), _) = s else {
                        unreachable!()
                    };
                    let from = l.pos;
                    let mut facts = l.nest(f, 1);
                    let to = l.pos;
                    let n = l.unit.constructs[0].plain_loops.len();
                    if let Some(lf) = facts.pop() {
                        l.unit.constructs[0]
                            .plain_loops
                            .push((acc_engine::Span::new(from, to), lf));
                        let m = marker("plain", n);
                        f.attrs.push(syn::parse_quote!(#[acc(#m)]));
                    }
                } else {
                    l.visit_stmt_mut(s);
                }
            }
            l.scopes.pop();
            l.unit.constructs[0].body = Some(acc_engine::Span::new(start, l.pos));
        }
    }
    l.unit.refs.sort_by_key(|r| r.span.start);
    Facts {
        unit: l.unit,
        loops: l.loops,
        compute_table,
        positions: l.positions,
        whole,
    }
}

fn is_acc(a: &Attribute) -> bool {
    a.path().is_ident("acc")
}

fn collapse_depth(d: &Directive) -> usize {
    d.clauses
        .iter()
        .find_map(|c| match &c.args {
            ClauseArgs::Collapse { count, .. } => count.int_value().map(|n| n.max(1) as usize),
            ClauseArgs::Exprs(es) if c.kind == acc_engine::directive::ClauseKind::Tile => {
                Some(es.len().max(1))
            }
            _ => None,
        })
        .unwrap_or(1)
}

/// The integer values of the directive's integer-literal arguments.
fn consts(d: &Directive) -> Vec<(acc_engine::Span, Option<i64>)> {
    let mut out = Vec::new();
    for c in &d.clauses {
        match &c.args {
            ClauseArgs::Expr(e) => out.push((e.span, e.text.trim().parse().ok())),
            ClauseArgs::Exprs(es) => {
                out.extend(es.iter().map(|e| (e.span, e.text.trim().parse().ok())));
            }
            _ => {}
        }
    }
    out
}

struct Layout<'e> {
    pos: usize,
    unit: Unit,
    /// Names in scope, innermost last.
    scopes: Vec<Vec<(String, VarId)>>,
    positions: Vec<(usize, usize, Span)>,
    loops: Vec<LoopDirective>,
    /// The constructs the walk is inside, innermost last.
    parents: Vec<ConstructId>,
    errors: &'e mut Vec<syn::Error>,
}

impl Layout<'_> {
    fn take(&mut self, span: Span) -> acc_engine::Span {
        let s = acc_engine::Span::new(self.pos, self.pos + 1);
        self.positions.push((s.start, s.end, span));
        self.pos += 1;
        s
    }

    fn declare(
        &mut self,
        name: &syn::Ident,
        shape: Shape,
        is_const: bool,
        scalar: Option<ScalarType>,
        elem_scalar: Option<ScalarType>,
    ) -> VarId {
        let decl_span = self.take(name.span());
        let id = VarId(self.unit.vars.len() as u32);
        let n = name.to_string();
        self.unit.vars.push(Var {
            name: n.clone(),
            decl_span,
            shape,
            is_const,
            is_complete: true,
            decl_text: String::new(),
            is_global: false,
            vla: false,
            decl_name: 0..0,
            scalar,
            elem_scalar,
            fields: Vec::new(),
        });
        self.scopes
            .last_mut()
            .expect("a scope is open")
            .push((n, id));
        id
    }

    fn lookup(&self, name: &str) -> Option<VarId> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|(n, _)| n == name)
            .map(|x| x.1)
    }

    /// Every name the directive's clauses name, resolved in the scope the walk is in.
    fn resolve_clauses(&self, d: &Directive) -> Vec<Vec<Option<VarId>>> {
        d.clauses
            .iter()
            .map(|c| {
                acc_engine::attrs::clause_items(&c.args)
                    .iter()
                    .map(|item| self.lookup(&item.base.name))
                    .collect()
            })
            .collect()
    }

    fn declare_pat(&mut self, p: &Pat) {
        struct Names(Vec<syn::Ident>);
        impl<'ast> Visit<'ast> for Names {
            fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
                self.0.push(p.ident.clone());
                syn::visit::visit_pat_ident(self, p);
            }
        }
        let mut n = Names(Vec::new());
        n.visit_pat(p);
        for i in n.0 {
            self.declare(&i, Shape::Scalar, false, None, None);
        }
    }

    /// Lays out a `for` nest of `depth` levels (a loop construct's loops), returning the facts
    /// of each level. The caller has placed the directive.
    fn nest(&mut self, f: &mut syn::ExprForLoop, depth: usize) -> Vec<LoopFacts> {
        let start = self.pos;
        self.visit_expr_mut(&mut f.expr);
        self.scopes.push(Vec::new());
        let control = match &*f.pat {
            Pat::Ident(pi) => {
                Some(self.declare(&pi.ident.clone(), Shape::Scalar, false, None, None))
            }
            p => {
                let p = p.clone();
                self.declare_pat(&p);
                None
            }
        };
        let header = header(f);
        let deps = control.map(|_| self.dep_facts(f));
        let mut inner = Vec::new();
        if depth > 1 {
            if let [Stmt::Expr(Expr::ForLoop(g), _)] = f.body.stmts.as_mut_slice() {
                inner = self.nest(g, depth - 1);
            } else {
                self.visit_block_mut(&mut f.body);
            }
        } else {
            self.visit_block_mut(&mut f.body);
        }
        self.scopes.pop();
        let mut out = vec![LoopFacts {
            span: acc_engine::Span::new(start, self.pos),
            control,
            declared_in_init: true,
            header,
            deps,
            body_statements: Vec::new(),
            body_declarations: Vec::new(),
            uneven_trips: false,
            control_live_after: false,
        }];
        out.extend(inner);
        out
    }

    /// What the loop's body reads and writes, for the dependence test.
    fn dep_facts(&self, f: &syn::ExprForLoop) -> DepFacts {
        let Pat::Ident(pi) = &*f.pat else {
            return DepFacts::default();
        };
        let mut pre = Changed::default();
        pre.visit_block(&f.body);
        let mut d = DepWalk {
            layout: self,
            control: pi.ident.to_string(),
            changed: pre.0,
            facts: DepFacts::default(),
            nested: 0,
            place: false,
        };
        d.visit_block(&f.body);
        d.facts
    }
}

/// `for i in lo..hi` as a canonical header, for the dependence test (which only asks that
/// there is one).
fn header(f: &syn::ExprForLoop) -> Option<LoopHeader> {
    let Pat::Ident(pi) = &*f.pat else { return None };
    let Expr::Range(r) = &*f.expr else {
        return None;
    };
    let (Some(lo), Some(hi)) = (&r.start, &r.end) else {
        return None;
    };
    let dummy = acc_engine::Span::new(0, 0);
    Some(LoopHeader {
        var: pi.ident.to_string(),
        var_type: None,
        lower: lo.to_token_stream().to_string(),
        upper: hi.to_token_stream().to_string(),
        cmp: match r.limits {
            RangeLimits::HalfOpen(_) => Cmp::Lt,
            RangeLimits::Closed(_) => Cmp::Le,
        },
        step: "1".into(),
        lower_span: dummy,
        upper_span: dummy,
        step_span: None,
        header_span: dummy,
        body: dummy,
    })
}

impl VisitMut for Layout<'_> {
    fn visit_block_mut(&mut self, b: &mut syn::Block) {
        self.scopes.push(Vec::new());
        for s in &mut b.stmts {
            self.visit_stmt_mut(s);
        }
        self.scopes.pop();
    }

    fn visit_local_mut(&mut self, l: &mut syn::Local) {
        if let Some(init) = &mut l.init {
            self.visit_expr_mut(&mut init.expr);
            if let Some((_, e)) = &mut init.diverge {
                self.visit_expr_mut(e);
            }
        }
        let p = l.pat.clone();
        self.declare_pat(&p);
    }

    fn visit_arm_mut(&mut self, a: &mut syn::Arm) {
        self.scopes.push(Vec::new());
        let p = a.pat.clone();
        self.declare_pat(&p);
        if let Some((_, g)) = &mut a.guard {
            self.visit_expr_mut(g);
        }
        self.visit_expr_mut(&mut a.body);
        self.scopes.pop();
    }

    fn visit_expr_closure_mut(&mut self, c: &mut syn::ExprClosure) {
        self.scopes.push(Vec::new());
        for p in c.inputs.clone() {
            self.declare_pat(&p);
        }
        self.visit_expr_mut(&mut c.body);
        self.scopes.pop();
    }

    fn visit_expr_let_mut(&mut self, e: &mut syn::ExprLet) {
        self.visit_expr_mut(&mut e.expr);
        let p = (*e.pat).clone();
        self.declare_pat(&p);
    }

    fn visit_expr_path_mut(&mut self, p: &mut syn::ExprPath) {
        if let Some(i) = p.path.get_ident() {
            if let Some(var) = self.lookup(&i.to_string()) {
                let span = self.take(i.span());
                self.unit.refs.push(Ref {
                    var,
                    span,
                    implied: false,
                });
            }
        }
    }

    fn visit_macro_mut(&mut self, m: &mut syn::Macro) {
        // A macro's arguments may name variables: each is a reference.
        fn walk(l: &mut Layout<'_>, t: TokenStream) {
            for tt in t {
                match tt {
                    proc_macro2::TokenTree::Ident(i) => {
                        if let Some(var) = l.lookup(&i.to_string()) {
                            let span = l.take(i.span());
                            l.unit.refs.push(Ref {
                                var,
                                span,
                                implied: false,
                            });
                        }
                    }
                    proc_macro2::TokenTree::Group(g) => walk(l, g.stream()),
                    _ => {}
                }
            }
        }
        walk(self, m.tokens.clone());
    }

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        let Expr::ForLoop(f) = e else {
            return syn::visit_mut::visit_expr_mut(self, e);
        };
        let Some(i) = f.attrs.iter().position(is_acc) else {
            self.nest(f, 1);
            return;
        };
        let attr = f.attrs[i].clone();
        let syn::Meta::List(list) = &attr.meta else {
            // The rewriter reports the malformed attribute.
            return syn::visit_mut::visit_expr_mut(self, e);
        };
        let starts_with_loop = matches!(
            list.tokens.clone().into_iter().next(),
            Some(proc_macro2::TokenTree::Ident(i)) if i == "loop"
        );
        let parent = *self.parents.last().expect("inside the construct");
        let is_data =
            self.unit.constructs[0].directive.kind == acc_engine::directive::DirectiveKind::Data;
        if !starts_with_loop || is_data {
            return syn::visit_mut::visit_expr_mut(self, e);
        }
        let base = self.pos;
        let parsed = text::directive_at("", list.tokens.clone(), attr.span(), base, self.errors);
        let Some((d, table)) = parsed else {
            // Errors are reported; the loop stays as written, without its attribute.
            f.attrs.remove(i);
            return syn::visit_mut::visit_expr_mut(self, e);
        };
        let n = self.loops.len();
        let id = ConstructId(self.unit.constructs.len() as u32);
        let text_end = d.span.end.max(base + 1);
        self.pos = text_end + 1;
        let clause_vars = self.resolve_clauses(&d);
        self.unit.constructs.push(Construct {
            directive: d.clone(),
            pragma_span: acc_engine::Span::new(base, text_end),
            parent: Some(parent),
            body: None,
            loops: Vec::new(),
            clause_vars,
            is_substatement: false,
            function: None,
            block_rest: None,
            consts: consts(&d),
            statements: Vec::new(),
            declarations: Vec::new(),
            plain_loops: Vec::new(),
            entry_unread: Vec::new(),
            read_only: Vec::new(),
            members_used: Vec::new(),
        });
        let depth = collapse_depth(&d);
        self.loops.push(LoopDirective {
            directive: d,
            table,
        });
        let m = marker("loop", n);
        f.attrs[i] = syn::parse_quote!(#[acc(#m)]);
        self.parents.push(id);
        let from = self.pos;
        let facts = self.nest(f, depth);
        let to = self.pos;
        self.parents.pop();
        let c = &mut self.unit.constructs[id.0 as usize];
        c.body = Some(acc_engine::Span::new(from, to));
        c.loops = facts;
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

/// Names a loop body assigns or binds: subscripts that use one vary.
#[derive(Default)]
struct Changed(BTreeSet<String>);

impl<'ast> Visit<'ast> for Changed {
    fn visit_expr_assign(&mut self, e: &'ast syn::ExprAssign) {
        self.0.extend(root_name(&e.left));
        syn::visit::visit_expr_assign(self, e);
    }
    fn visit_expr_binary(&mut self, e: &'ast syn::ExprBinary) {
        if is_compound(&e.op) {
            self.0.extend(root_name(&e.left));
        }
        syn::visit::visit_expr_binary(self, e);
    }
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.0.insert(p.ident.to_string());
    }
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// Float and integer methods without side effects, which a loop the dependence test proves
/// independent may call.
const PURE_METHODS: &[&str] = &[
    "len",
    "is_empty",
    "sqrt",
    "abs",
    "min",
    "max",
    "powi",
    "powf",
    "exp",
    "ln",
    "log2",
    "log10",
    "sin",
    "cos",
    "tan",
    "atan",
    "atan2",
    "tanh",
    "floor",
    "ceil",
    "round",
    "trunc",
    "mul_add",
    "hypot",
    "signum",
    "clamp",
    "wrapping_add",
    "wrapping_sub",
    "wrapping_mul",
];

struct DepWalk<'l, 'e> {
    layout: &'l Layout<'e>,
    control: String,
    changed: BTreeSet<String>,
    facts: DepFacts,
    /// Depth of loops inside the body (`break` in them stays inside).
    nested: usize,
    place: bool,
}

impl DepWalk<'_, '_> {
    /// A slice parameter, by name (accesses through it are what the test compares).
    fn slice(&self, e: &Expr) -> Option<VarId> {
        let Expr::Path(p) = e else { return None };
        let i = p.path.get_ident()?;
        let v = self.layout.lookup(&i.to_string())?;
        (self.layout.unit.var(v).shape == Shape::Array).then_some(v)
    }

    fn subscript(&self, e: &Expr) -> Subscript {
        use Subscript::*;
        match e {
            Expr::Path(p) => match p.path.get_ident() {
                Some(i) if *i == self.control => Affine(1),
                Some(i) if self.changed.contains(&i.to_string()) => Unknown,
                _ => Invariant,
            },
            Expr::Lit(_) => Invariant,
            Expr::Paren(p) => self.subscript(&p.expr),
            Expr::Group(g) => self.subscript(&g.expr),
            Expr::Cast(c) => self.subscript(&c.expr),
            Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => match self.subscript(&u.expr) {
                Affine(c) => Affine(-c),
                s => s,
            },
            Expr::Binary(b) => {
                let (l, r) = (self.subscript(&b.left), self.subscript(&b.right));
                let literal = |x: &Expr| match x {
                    Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Int(i),
                        ..
                    }) => i.base10_parse::<i64>().ok(),
                    _ => None,
                };
                match (&b.op, l, r) {
                    (_, Invariant, Invariant) => Invariant,
                    (BinOp::Add(_), Affine(c), Invariant)
                    | (BinOp::Add(_), Invariant, Affine(c))
                    | (BinOp::Sub(_), Affine(c), Invariant) => Affine(c),
                    (BinOp::Sub(_), Invariant, Affine(c)) => Affine(-c),
                    (BinOp::Mul(_), Affine(c), Invariant) => literal(&b.right)
                        .and_then(|k| c.checked_mul(k))
                        .map_or(Unknown, Affine),
                    (BinOp::Mul(_), Invariant, Affine(c)) => literal(&b.left)
                        .and_then(|k| c.checked_mul(k))
                        .map_or(Unknown, Affine),
                    _ => Unknown,
                }
            }
            _ => {
                let mut names = IdentNames::default();
                names.visit_expr(e);
                if names
                    .0
                    .iter()
                    .any(|n| *n == self.control || self.changed.contains(n))
                {
                    Unknown
                } else {
                    Invariant
                }
            }
        }
    }

    fn access(&mut self, var: VarId, index: &Expr, write: bool) {
        let text: String = index
            .to_token_stream()
            .to_string()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let s = self.subscript(index);
        self.facts.accesses.push(Access {
            var,
            write,
            subscripts: vec![(text, s)],
            span: acc_engine::Span::new(0, 0),
        });
    }
}

#[derive(Default)]
struct IdentNames(Vec<String>);

impl<'ast> Visit<'ast> for IdentNames {
    fn visit_ident(&mut self, i: &'ast syn::Ident) {
        self.0.push(i.to_string());
    }
}

impl<'ast> Visit<'ast> for DepWalk<'_, '_> {
    fn visit_expr(&mut self, e: &'ast Expr) {
        if !matches!(e, Expr::Index(_) | Expr::Paren(_) | Expr::Group(_)) {
            self.place = false;
        }
        syn::visit::visit_expr(self, e);
    }

    fn visit_expr_index(&mut self, e: &'ast syn::ExprIndex) {
        let place = std::mem::replace(&mut self.place, false);
        if let Some(v) = self.slice(&e.expr) {
            self.access(v, &e.index, place);
        } else {
            self.place = place;
            self.visit_expr(&e.expr);
            self.place = false;
        }
        self.visit_expr(&e.index);
    }

    fn visit_expr_assign(&mut self, e: &'ast syn::ExprAssign) {
        self.scalar_write(&e.left);
        self.place = true;
        self.visit_expr(&e.left);
        self.place = false;
        self.visit_expr(&e.right);
    }

    fn visit_expr_binary(&mut self, e: &'ast syn::ExprBinary) {
        if is_compound(&e.op) {
            self.scalar_write(&e.left);
            self.place = true;
        }
        self.visit_expr(&e.left);
        self.place = false;
        self.visit_expr(&e.right);
    }

    fn visit_expr_reference(&mut self, e: &'ast syn::ExprReference) {
        if e.mutability.is_some() {
            self.scalar_write(&e.expr);
            self.place = true;
        }
        self.visit_expr(&e.expr);
        self.place = false;
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        let name = c.func.to_token_stream().to_string().replace(' ', "");
        self.facts.calls.push((name, acc_engine::Span::new(0, 0)));
        syn::visit::visit_expr_call(self, c);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        if !PURE_METHODS.contains(&m.method.to_string().as_str()) {
            self.facts
                .calls
                .push((m.method.to_string(), acc_engine::Span::new(0, 0)));
        }
        self.place = false;
        syn::visit::visit_expr_method_call(self, m);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        let name = m.path.to_token_stream().to_string().replace(' ', "");
        self.facts
            .calls
            .push((format!("{name}!"), acc_engine::Span::new(0, 0)));
    }

    fn visit_expr_break(&mut self, e: &'ast syn::ExprBreak) {
        if self.nested == 0 || e.label.is_some() {
            self.facts.early_exit = Some(acc_engine::Span::new(0, 0));
        }
        syn::visit::visit_expr_break(self, e);
    }

    fn visit_expr_return(&mut self, e: &'ast syn::ExprReturn) {
        self.facts.early_exit = Some(acc_engine::Span::new(0, 0));
        syn::visit::visit_expr_return(self, e);
    }

    fn visit_expr_try(&mut self, e: &'ast syn::ExprTry) {
        self.facts.early_exit = Some(acc_engine::Span::new(0, 0));
        syn::visit::visit_expr_try(self, e);
    }

    fn visit_expr_for_loop(&mut self, e: &'ast syn::ExprForLoop) {
        self.nested += 1;
        syn::visit::visit_expr_for_loop(self, e);
        self.nested -= 1;
    }

    fn visit_expr_while(&mut self, e: &'ast syn::ExprWhile) {
        self.nested += 1;
        syn::visit::visit_expr_while(self, e);
        self.nested -= 1;
    }

    fn visit_expr_loop(&mut self, e: &'ast syn::ExprLoop) {
        self.nested += 1;
        syn::visit::visit_expr_loop(self, e);
        self.nested -= 1;
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

impl DepWalk<'_, '_> {
    /// An assignment to a variable declared outside the loop (not an element of a slice).
    fn scalar_write(&mut self, target: &Expr) {
        if matches!(target, Expr::Index(_)) {
            return;
        }
        let Some(name) = root_name(target) else {
            return;
        };
        if let Some(v) = self.layout.lookup(&name) {
            if self.layout.unit.var(v).shape != Shape::Array {
                self.facts
                    .scalar_writes
                    .push((v, acc_engine::Span::new(0, 0)));
            }
        }
    }
}
