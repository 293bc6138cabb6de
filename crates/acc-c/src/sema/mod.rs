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

mod conditionals;
mod declarations;
mod entry_values;
mod expressions;
mod loop_facts;
pub mod macro_directives;
mod macro_statements;
mod pragmas;
mod preprocessor;
mod statements;

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
    let w = walk(roots, src, env, for_runtime, HashMap::new());
    (w.unit, w.diags)
}

/// What [`analyze_trees`] gives.
pub struct Analyzed {
    pub unit: Unit,
    pub diags: Vec<Diagnostic>,
    /// The trees the unit is of: the file's, or those of a copy (see [`analyze_trees`]).
    pub trees: Vec<tree_sitter::Tree>,
    /// The text the trees are the parse of when it is not `src` itself (the file with `#if`
    /// chains resolved, see `conditionals`).
    pub view: Option<String>,
    /// The uses of macros whose expansion is a directive and code (see
    /// [`macro_directives::find`]), each with its expansion's text: the walk refuses them,
    /// and the text with them replaced is what a compiler of the file must analyse instead.
    pub code_macros: Vec<(Span, String)>,
}

/// As [`analyze`], for the file's syntax trees ([`crate::syntax::parse`]), with the directives
/// that macro uses expand to (see [`macro_directives`]): when there are some, the file is
/// parsed again with the uses masked, and those trees are returned in place of `trees`.
pub fn analyze_trees(
    trees: Vec<tree_sitter::Tree>,
    src: &str,
    env: TypeEnv,
    for_runtime: bool,
) -> Analyzed {
    let (first, unread) = analyze_text(trees, src, src, env, for_runtime);
    // Braces split across `#if` branches, or directives in code tree-sitter could not read:
    // read the file again as the compiler will see it, the `#if` chains acc can evaluate
    // resolved (see `conditionals`). Split braces alone are reason enough: tree-sitter then
    // nests what follows into the branch, which a dead branch would hide from the walk.
    if let Some((view, env)) = unread {
        let view_trees = crate::syntax::parse(&view);
        let (second, unread2) = analyze_text(view_trees, src, &view, env, for_runtime);
        if unread2.is_none() {
            return Analyzed {
                view: Some(view),
                ..second
            };
        }
    }
    first
}

/// The analysis of `src` from `trees`, the parse of `text` (`src`, or `src` with `#if` chains
/// resolved: the same bytes where it matters, see `conditionals`) (its `view` is not set).
/// The second item, when directives stood in code the parse could not read: the resolved
/// text to try instead, and the environment back.
fn analyze_text(
    trees: Vec<tree_sitter::Tree>,
    src: &str,
    text: &str,
    env: TypeEnv,
    for_runtime: bool,
) -> (Analyzed, Option<(String, TypeEnv)>) {
    if !crate::may_expand_to_pragma(text, &env) && !may_use_empty_macro(text, &env) {
        let roots: Vec<_> = trees.iter().map(|t| t.root_node()).collect();
        let mut w = walk(&roots, src, env, for_runtime, HashMap::new());
        let unread = w.unread_view(text);
        let analyzed = Analyzed {
            unit: w.unit,
            diags: w.diags,
            trees,
            view: None,
            code_macros: Vec::new(),
        };
        return (analyzed, unread);
    }
    let header_macros = env.macros.clone();
    let again = env.clone();
    let roots: Vec<_> = trees.iter().map(|t| t.root_node()).collect();
    let mut first = walk(&roots, src, env, for_runtime, HashMap::new());
    let defs = macro_directives::Definitions::new(&first.macro_events, &header_macros);
    let found = macro_directives::find(text, &defs, &first.dead_branches);
    let Some(masked) = found.masked else {
        let unread = first.unread_view(text);
        let mut diags = first.diags;
        diags.extend(found.diags);
        let analyzed = Analyzed {
            unit: first.unit,
            diags,
            trees,
            view: None,
            code_macros: found.code_uses,
        };
        return (analyzed, unread);
    };
    drop(first);
    let masked_trees = crate::syntax::parse(&masked);
    let roots: Vec<_> = masked_trees.iter().map(|t| t.root_node()).collect();
    let mut w = walk(&roots, src, again, for_runtime, found.directives);
    w.diags.extend(found.diags);
    let mut unused: Vec<&macro_directives::MacroDirective> = w
        .macro_directives
        .iter()
        .filter(|(at, _)| !w.macro_directives_used.contains(at))
        .map(|(_, d)| d)
        .collect();
    unused.sort_by_key(|d| d.span.start);
    let unused: Vec<Diagnostic> = unused
        .into_iter()
        .map(|d| {
            Diagnostic::error(
                d.span,
                format!(
                    "`{}` expands to an OpenACC directive where no directive may stand",
                    d.name
                ),
            )
            .with_note(
                "use it on a line of its own, before the statement or declaration it applies to",
            )
        })
        .collect();
    w.diags.extend(unused);
    let unread = w.unread_view(text);
    let analyzed = Analyzed {
        unit: w.unit,
        diags: w.diags,
        trees: masked_trees,
        view: None,
        code_macros: found.code_uses,
    };
    (analyzed, unread)
}

/// Whether `src` may use an object-like macro that expands to nothing or to qualifiers (see
/// [`macro_directives::find`]): one the headers define, or one the file defines itself on a
/// line of its own, named in a line of code. A cheap test before the search proper.
fn may_use_empty_macro(src: &str, env: &TypeEnv) -> bool {
    let mut names: std::collections::HashSet<&str> = env
        .macros
        .iter()
        .filter(|(_, d)| d.is_empty_object() || d.is_qualifier_object())
        .map(|(n, _)| n.as_str())
        .collect();
    let is_word =
        |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    for line in src.lines() {
        let Some(rest) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        let Some(def) = rest.trim_start().strip_prefix("define") else {
            continue;
        };
        let def = def.split("//").next().unwrap_or("");
        let def = def.split("/*").next().unwrap_or("").trim();
        let (name, body) = def.split_once(char::is_whitespace).unwrap_or((def, ""));
        if is_word(name) && (body.trim().is_empty() || crate::macro_expand::is_qualifier_list(body))
        {
            names.insert(name);
        }
    }
    !names.is_empty()
        && src
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .any(|l| {
                l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .any(|w| names.contains(w))
            })
}

/// The walk over `roots`, the trees of `src`; `macro_directives` are the directives macro
/// uses expand to, by where their masked statements stand.
fn walk<'s>(
    roots: &[Node<'s>],
    src: &'s str,
    env: TypeEnv,
    for_runtime: bool,
    macro_directives: HashMap<usize, macro_directives::MacroDirective>,
) -> Walker<'s> {
    let own_macro_lines = own_macro_lines(src, env.live_macro_lines.as_ref());
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
        pending_entry: Vec::new(),
        header_vars: HashMap::new(),
        array_params: HashMap::new(),
        extent_vars: HashMap::new(),
        variable_typedefs: Vec::new(),
        macro_events: Vec::new(),
        dead_branches: Vec::new(),
        undecided_chains: Vec::new(),
        own_macro_lines,
        macro_directives,
        macro_directives_used: std::collections::HashSet::new(),
        unread_directives: 0,
    };
    for root in roots {
        let mut c = root.walk();
        let children: Vec<Node> = root.children(&mut c).collect();
        w.visit_seq(&children, true);
    }
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
    for (id, stmt) in std::mem::take(&mut w.pending_entry) {
        w.entry_unread(id, stmt);
    }
    for (id, at, node) in std::mem::take(&mut w.pending_deps) {
        let c = &w.unit.constructs[id.0 as usize];
        let facts = match at {
            DepsAt::Loop => c.loops.first(),
            DepsAt::Plain(k) => c.plain_loops.get(k).map(|x| &x.1),
        };
        let Some(control) = facts.and_then(|l| l.header.as_ref()).map(|h| h.var.clone()) else {
            continue;
        };
        let deps = crate::deps::dep_facts(node, src, &control, &w.unit, &w.env);
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
    w.unit.dead_branches = w.dead_branches.clone();
    for root in roots {
        w.report_unread_directives(*root, false);
    }
    w
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
    /// Compute constructs and their statements, whose pointers' entry values are read once
    /// every reference is known (see `entry_values`).
    pending_entry: Vec<(ConstructId, Node<'s>)>,
    /// The variables of the program's headers the file uses, by name.
    header_vars: HashMap<String, VarId>,
    /// Parameters declared as arrays, with their first dimension as written.
    array_params: HashMap<VarId, Option<String>>,
    /// The variables a variable-length array's extents name (`n` and `m` for
    /// `double a[n][m]`): a use of the array uses them, as its type needs them.
    extent_vars: HashMap<VarId, Vec<VarId>>,
    /// Variably modified typedefs of the function, innermost last.
    variable_typedefs: Vec<VariableTypedef>,
    /// The `#define`s and `#undef`s of the live branches, in order.
    macro_events: Vec<macro_directives::MacroEvent>,
    /// The branches of `#if`s the compiler will not see.
    dead_branches: Vec<Span>,
    /// The `#if` chains whose live arm the walk could not tell.
    undecided_chains: Vec<Span>,
    /// The file's own `#define` (`true`) and `#undef` lines: the name and where the line is.
    own_macro_lines: Vec<(&'s str, usize, bool)>,
    /// The directives that macro uses expand to, by where their masked statements stand.
    macro_directives: HashMap<usize, macro_directives::MacroDirective>,
    macro_directives_used: std::collections::HashSet<usize>,
    /// Directives in code tree-sitter could not read (see `report_unread_directives`).
    unread_directives: usize,
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

/// Where the text of a directive is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PragmaText {
    /// A `#pragma acc` line.
    Line,
    /// A `_Pragma("acc …")` operator written in the code.
    Operator,
    /// The expansion of a macro use, by where its masked statement stands.
    Macro(usize),
}

/// The span, text offset and kind of an OpenACC pragma node, if it is one.
fn acc_pragma(node: Node, src: &str) -> Option<(Span, usize, PragmaText)> {
    match node.node_kind() {
        "preproc_call" => {
            let dir = node.child_by_field_id(fields().directive.get())?;
            if crate::syntax::directive_name(&src[dir.byte_range()]) != "pragma" {
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
                PragmaText::Line,
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
            Some((
                Span::new(call.start_byte(), call.end_byte()),
                start,
                PragmaText::Operator,
            ))
        }
        _ => None,
    }
}

fn is_trivia(node: Node) -> bool {
    // A statement tree-sitter could not read is no trivia: a macro used as a whole statement
    // without `;` (`{ BODY }`, `UPDATE(i)` expanding to a block) is an ERROR node, and the
    // variables the macro names are the construct's.
    matches!(node.node_kind(), "comment")
        || (node.is_extra() && !matches!(node.node_kind(), "preproc_call" | "ERROR"))
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
    /// A directive in code tree-sitter could not read as C (braces or statements split across
    /// `#if` branches, say) is seen by no construct: it would be dropped without a word and
    /// its code run on the host. An error instead, at the directive.
    /// After a walk that met directives it could not read: `text` with its `#if` chains
    /// resolved, when that changes it, and the environment (for a walk of that text).
    fn unread_view(&mut self, text: &str) -> Option<(String, TypeEnv)> {
        let split = || {
            self.src.contains("acc") && crate::preprocess::braces_split_by_conditionals(self.src)
        };
        if text != self.src || (self.unread_directives == 0 && !split()) {
            return None;
        }
        let view = self.resolved_view()?;
        Some((view, std::mem::take(&mut self.env)))
    }

    fn report_unread_directives(&mut self, node: Node, in_error: bool) {
        let in_error = in_error || node.is_error();
        if in_error && node.node_kind() == "preproc_call" {
            if let Some((span, _, _)) = acc_pragma(node, self.src) {
                let seen = self
                    .unit
                    .constructs
                    .iter()
                    .any(|c| c.pragma_span.start == span.start);
                let dead = self.dead_branches.iter().any(|d| d.contains(span));
                if !seen && !dead {
                    self.unread_directives += 1;
                    self.diags.push(
                        Diagnostic::error(
                            span,
                            "acc cannot read the code around this directive as C, so it cannot apply it",
                        )
                        .with_note(
                            "acc reads the file as written; keep each statement's braces within one \
                             `#if` branch (or write the statement once, outside the `#if`)",
                        ),
                    );
                }
            }
            return;
        }
        if !node.has_error() {
            return;
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        for c in children {
            self.report_unread_directives(c, in_error);
        }
    }

    /// [`acc_pragma`], and the empty statements that stand for macro uses' directives.
    fn pragma(&self, node: Node) -> Option<(Span, usize, PragmaText)> {
        if !self.macro_directives.is_empty() && node.node_kind() == "expression_statement" {
            if let Some(d) = self.macro_directives.get(&node.start_byte()) {
                return Some((d.span, 0, PragmaText::Macro(node.start_byte())));
            }
        }
        acc_pragma(node, self.src)
    }

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

/// The file's `#define` and `#undef` lines, in order: the name, the line's offset, and whether
/// it defines.
fn own_macro_lines<'s>(
    src: &'s str,
    live: Option<&std::collections::HashSet<usize>>,
) -> Vec<(&'s str, usize, bool)> {
    let mut out = Vec::new();
    let mut at = 0;
    for (k, line) in src.split_inclusive('\n').enumerate() {
        if let Some((directive, name)) = crate::lex::macro_line(line) {
            // One in an arm the preprocessor skipped says nothing.
            if live.is_none_or(|l| l.contains(&(k + 1))) {
                out.push((name, at, directive == "define"));
            }
        }
        at += line.len();
    }
    out
}
