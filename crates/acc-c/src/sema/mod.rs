//! The walk over a C syntax tree that builds the engine's [`Unit`]: scopes
//! and declarations, name resolution, the statement each directive applies
//! to, loop control variables, and the checks that need C syntax (a loop
//! directive needs a `for`; no branch into or out of a compute construct).
//!
//! The walk is one `Walker`, its state here and its work by concern in `impl Walker` blocks:
//! `statements` (the walk and its scopes), `declarations`, `expressions`, `pragmas` (the
//! directives and what they apply to), `loop_facts` (canonical loops), `preprocessor` (live
//! `#if` branches and macros). It owns C syntax and names; it must not decide OpenACC
//! semantics (acc-engine does) nor parse the file itself: it takes the tree.

use std::collections::HashMap;

use acc_engine::attrs::clause_items;
use acc_engine::directive::{self, ClauseArgs, Directive, DirectiveKind};
use acc_engine::facts::{Construct, ConstructId, LoopFacts, Ref, Unit, Var, VarId};
use acc_engine::{Diagnostic, Span};
use tree_sitter::Node;

use crate::syntax::fields;

use crate::consts;
use crate::syntax::NodeKind;
use crate::types::{TypeEnv, TypeFacts};

mod declarations;
mod expressions;
mod loop_facts;
mod pragmas;
mod preprocessor;
mod statements;

/// Builds the unit for `root`, the tree of `src`.
/// How the warning about a type name the file does not define starts (the
/// lowering asks for header facts when it sees one).
pub const UNKNOWN_TYPE: &str = "unknown type";

/// Builds the unit for the trees of `src` (one, or several for the pieces
/// of a large file, in source order).
///
/// `for_runtime`: the unit is for acc's own lowering, not for printing OpenMP as Clacc does;
/// then a data clause that names an array parameter whole maps the array its declarator gives
/// (see `widen_array_parameters`), where Clacc's OpenMP maps the pointer C makes of it.
pub fn analyze(
    roots: &[Node],
    src: &str,
    env: TypeEnv,
    for_runtime: bool,
) -> (Unit, Vec<Diagnostic>) {
    let mut w = Walker {
        for_runtime,
        src,
        env,
        unit: Unit::default(),
        diags: Vec::new(),
        scopes: vec![HashMap::new()],
        open: Vec::new(),
        computes: Vec::new(),
        blocks: Vec::new(),
        loop_depth: 0,
        switch_depth: 0,
        var_by_decl: HashMap::new(),
        pending_routines: Vec::new(),
        gotos: Vec::new(),
        labels: HashMap::new(),
        unknown_types: Vec::new(),
        pending_deps: Vec::new(),
        header_vars: HashMap::new(),
        array_params: HashMap::new(),
        extent_vars: HashMap::new(),
        variable_typedefs: Vec::new(),
    };
    for root in roots {
        let mut c = root.walk();
        let children: Vec<Node> = root.children(&mut c).collect();
        w.visit_seq(&children, true);
    }
    w.diags
        .extend(preprocessor::directives_in_macros(roots, src));
    for id in w.pending_routines.drain(..) {
        let span = w.unit.construct(id).directive.name_span;
        w.diags.push(
            Diagnostic::error(
                span,
                "`routine` without a name must be followed by a function",
            )
            .with_note("name the function, as in `#pragma acc routine(f) seq`"),
        );
    }
    w.unit.refs.sort_by_key(|r| r.span.start);
    for (id, at, node) in std::mem::take(&mut w.pending_deps) {
        let c = &w.unit.constructs[id.0 as usize];
        let facts = match at {
            DepsAt::Loop => c.loops.first(),
            DepsAt::Plain(k) => c.plain_loops.get(k).map(|x| &x.1),
        };
        let Some(control) = facts.and_then(|l| l.header.as_ref()).map(|h| h.var.clone()) else {
            continue;
        };
        let deps = crate::deps::dep_facts(node, src, &control, &w.unit, &w.env.function_macros);
        let c = &mut w.unit.constructs[id.0 as usize];
        let slot = match at {
            DepsAt::Loop => c.loops.first_mut(),
            DepsAt::Plain(k) => c.plain_loops.get_mut(k).map(|x| &mut x.1),
        };
        if let Some(l) = slot {
            l.deps = Some(deps);
        }
    }
    w.report_unknown_types();
    (w.unit, w.diags)
}

struct ComputeCtx {
    construct: ConstructId,
    loop_depth: usize,
    switch_depth: usize,
}

struct Walker<'s> {
    src: &'s str,
    env: TypeEnv,
    unit: Unit,
    diags: Vec<Diagnostic>,
    scopes: Vec<HashMap<&'s str, VarId>>,
    /// Constructs whose statement is being walked, innermost last.
    open: Vec<ConstructId>,
    computes: Vec<ComputeCtx>,
    /// The blocks (compound statements) around the statement being walked, innermost last.
    blocks: Vec<Span>,
    loop_depth: usize,
    switch_depth: usize,
    var_by_decl: HashMap<usize, VarId>,
    /// Unnamed `routine` directives waiting for the next function.
    pending_routines: Vec<ConstructId>,
    /// `goto` statements and labels of the current function.
    gotos: Vec<(&'s str, Span)>,
    labels: HashMap<&'s str, Span>,
    /// Variables whose type name was unknown, with the type name's span.
    unknown_types: Vec<(VarId, Span)>,
    /// Loops whose dependence facts are read once every reference is known.
    pending_deps: Vec<(ConstructId, DepsAt, Node<'s>)>,
    /// The variables of the program's headers the file uses, by name.
    header_vars: HashMap<String, VarId>,
    /// Parameters declared as arrays, with their first dimension as written.
    array_params: HashMap<VarId, Option<String>>,
    /// The variables a variable-length array's extents name (`n` and `m` for
    /// `double a[n][m]`): a use of the array uses them, as its type needs them.
    extent_vars: HashMap<VarId, Vec<VarId>>,
    /// Variably modified typedefs of the function, innermost last.
    variable_typedefs: Vec<VariableTypedef>,
    for_runtime: bool,
}

/// A typedef of a variably modified type that a function defines (`typedef double
/// row_t[n];`).
struct VariableTypedef {
    name: String,
    /// How many scopes were open where it was defined.
    depth: usize,
    /// The base type (`double`) and the declarator with `\0` in the name's place (`\0[n]`).
    type_text: String,
    template: String,
    base: crate::types::TypeFacts,
}

/// Which loop of a construct dependence facts belong to.
#[derive(Clone, Copy)]
enum DepsAt {
    /// The (outer) associated loop of a loop construct.
    Loop,
    /// A plain loop of a `kernels` construct.
    Plain(usize),
}

/// The text and base offset of an OpenACC pragma node, if it is one.
fn acc_pragma(node: Node, src: &str) -> Option<(Span, usize, bool)> {
    match node.node_kind() {
        "preproc_call" => {
            let dir = node.child_by_field_id(fields().directive.get())?;
            if &src[dir.byte_range()] != "#pragma" {
                return None;
            }
            let arg = node.child_by_field_id(fields().argument.get())?;
            let text = &src[arg.byte_range()];
            if !(text.starts_with("acc ")
                || text == "acc"
                || text.starts_with("acc\t")
                || text.starts_with("acc\\"))
            {
                return None;
            }
            Some((
                // Not the whitespace before a trailing comment.
                Span::new(node.start_byte(), arg.start_byte() + text.trim_end().len()),
                arg.start_byte(),
                false,
            ))
        }
        "expression_statement" => {
            let call = node.named_child(0)?;
            if call.node_kind() != "call_expression" {
                return None;
            }
            let f = call.child_by_field_id(fields().function.get())?;
            if &src[f.byte_range()] != "_Pragma" {
                return None;
            }
            let args = call.child_by_field_id(fields().arguments.get())?;
            let lit = args.named_child(0)?;
            if lit.node_kind() != "string_literal" {
                return None;
            }
            let start = lit.start_byte() + 1;
            let end = lit.end_byte().saturating_sub(1).max(start);
            let text = &src[start..end];
            if !text.trim_start().starts_with("acc") {
                return None;
            }
            Some((Span::new(call.start_byte(), call.end_byte()), start, true))
        }
        _ => None,
    }
}

fn is_trivia(node: Node) -> bool {
    matches!(node.node_kind(), "comment") || (node.is_extra() && node.node_kind() != "preproc_call")
}

/// Whether `node` is a statement whose innermost body is missing (see [`missing_body`]): a
/// `for`, `while` or `if` ending in one, however deeply nested.
fn ends_without_body(node: Node) -> bool {
    let field = match node.node_kind() {
        "for_statement" | "while_statement" => "body",
        "if_statement" if node.child_by_field_name("alternative").is_none() => "consequence",
        _ => return false,
    };
    missing_body(node, field)
        || node
            .child_by_field_name(field)
            .is_some_and(ends_without_body)
}

/// A statement whose body tree-sitter could not find because a directive
/// stood there (`for (…) #pragma acc loop …`): it parsed as a MISSING `;`.
fn missing_body(node: Node, field: &str) -> bool {
    node.child_by_field_name(field).is_some_and(|b| {
        b.node_kind() == "expression_statement"
            && b.child_count() == 1
            && b.child(0).is_some_and(|c| c.is_missing())
    })
}

impl<'s> Walker<'s> {
    fn text(&self, node: Node) -> &'s str {
        &self.src[node.byte_range()]
    }

    fn span(node: Node) -> Span {
        Span::new(node.start_byte(), node.end_byte())
    }

    fn lookup(&self, name: &str) -> Option<VarId> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }
}
