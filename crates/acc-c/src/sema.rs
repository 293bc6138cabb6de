//! The walk over a C syntax tree that builds the engine's [`Unit`]: scopes
//! and declarations, name resolution, the statement each directive applies
//! to, loop control variables, and the checks that need C syntax (a loop
//! directive needs a `for`; no branch into or out of a compute construct).

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
    for (id, at, node) in std::mem::take(&mut w.pending_deps) {
        let c = &w.unit.constructs[id.0 as usize];
        let facts = match at {
            DepsAt::Loop => c.loops.first(),
            DepsAt::Plain(k) => c.plain_loops.get(k).map(|x| &x.1),
        };
        let Some(control) = facts.and_then(|l| l.header.as_ref()).map(|h| h.var.clone()) else {
            continue;
        };
        let deps = crate::deps::dep_facts(node, src, &control, &w.unit);
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
    for_runtime: bool,
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

    /// For a parameter declared as an array (`double x[N]`, `double A[N][M]`, `double y[]`):
    /// its declarator as the pointer C makes of it (`(*x)`, `(*A)[M]`), and its first
    /// dimension as written (`None` for `[]`).
    fn array_parameter(
        &self,
        src: &str,
        declarator: Node,
        ident: Node,
    ) -> Option<(String, Option<String>)> {
        // The array declarator nearest the name.
        let mut nearest = None;
        let mut x = Some(declarator);
        while let Some(n) = x {
            match n.node_kind() {
                "array_declarator" => nearest = Some(n),
                "identifier" => break,
                // `double (*p)[8]` is a pointer to arrays, not an array parameter.
                _ => nearest = None,
            }
            x = n.child_by_field_id(fields().declarator.get());
        }
        let arr = nearest?;
        if arr.child_by_field_id(fields().declarator.get()) != Some(ident) {
            return None;
        }
        let extent = arr
            .child_by_field_id(fields().size.get())
            .map(|s| src[s.byte_range()].to_string());
        let whole = &src[declarator.byte_range()];
        let (lo, hi) = (
            arr.start_byte() - declarator.start_byte(),
            arr.end_byte() - declarator.start_byte(),
        );
        let adjusted = format!(
            "{}(*{}){}",
            &whole[..lo],
            &src[ident.byte_range()],
            &whole[hi..]
        );
        Some((adjusted, extent))
    }

    /// A data clause that names an array parameter whole means its array, of the first
    /// dimension written in the declarator (`copy(x)` with `double x[8]` maps `x[0:8]`, where
    /// C would see only the 8-byte pointer); one without (`double x[]`) must name a section.
    fn widen_array_parameters(&mut self, d: &mut Directive, clause_vars: &[Vec<Option<VarId>>]) {
        for (ci, clause) in d.clauses.iter_mut().enumerate() {
            let moves = clause.kind.is_data_clause()
                && !matches!(
                    clause.kind,
                    directive::ClauseKind::Deviceptr
                        | directive::ClauseKind::Attach
                        | directive::ClauseKind::Detach
                )
                || (d.kind == DirectiveKind::Update
                    && matches!(
                        clause.kind,
                        directive::ClauseKind::Host
                            | directive::ClauseKind::Device
                            | directive::ClauseKind::SelfClause
                    ));
            if !moves {
                continue;
            }
            let ClauseArgs::Vars { items, .. } = &mut clause.args else {
                continue;
            };
            for (ii, item) in items.iter_mut().enumerate() {
                let Some(Some(var)) = clause_vars.get(ci).and_then(|v| v.get(ii)).copied() else {
                    continue;
                };
                if !item.accessors.is_empty() {
                    continue;
                }
                match self.array_params.get(&var) {
                    None => {}
                    Some(Some(len)) => {
                        let expr = |text: &str| directive::Expr {
                            text: text.to_string(),
                            span: item.span,
                        };
                        item.accessors.push(directive::Accessor::Section {
                            lower: Some(expr("0")),
                            length: Some(expr(len)),
                            span: item.span,
                        });
                        item.text = format!("{}[0:{len}]", item.text);
                    }
                    Some(None) => self.diags.push(
                        Diagnostic::error(
                            item.span,
                            format!(
                                "`{0}` is a pointer: the parameter was declared `{0}[]`, with no size to map",
                                item.text
                            ),
                        )
                        .with_note(format!("name a section, as in `{}[0:n]`", item.text)),
                    ),
                }
            }
        }
    }

    /// Whether the declarator's first array dimension (the one nearest the name) is an
    /// expression the front end cannot evaluate as a constant: a variable-length array.
    /// The variables named in the extents of an array declarator (`n`, `m` in `a[n][m]`).
    fn extent_vars_of(&mut self, src: &str, declarator: Node) -> Vec<VarId> {
        let mut sizes = Vec::new();
        let mut x = Some(declarator);
        while let Some(n) = x {
            if n.node_kind() == "array_declarator" {
                if let Some(size) = n.child_by_field_id(fields().size.get()) {
                    sizes.push(src[size.byte_range()].to_string());
                }
            }
            x = n.child_by_field_id(fields().declarator.get()).or_else(|| {
                (n.node_kind() == "parenthesized_declarator")
                    .then(|| n.named_child(0))
                    .flatten()
            });
        }
        let mut vars = Vec::new();
        for w in sizes.iter().flat_map(|t| {
            t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
                .map(str::to_string)
                .collect::<Vec<_>>()
        }) {
            if let Some(v) = self.lookup(&w).or_else(|| self.header_var(&w)) {
                if !vars.contains(&v) {
                    vars.push(v);
                }
            }
        }
        vars
    }

    fn first_dimension_is_variable(&self, src: &str, declarator: Node) -> bool {
        let mut first = None;
        let mut x = Some(declarator);
        while let Some(n) = x {
            if n.node_kind() == "array_declarator" {
                first = n.child_by_field_id(fields().size.get());
            }
            x = n.child_by_field_id(fields().declarator.get()).or_else(|| {
                (n.node_kind() == "parenthesized_declarator")
                    .then(|| n.named_child(0))
                    .flatten()
            });
        }
        first.is_some_and(|size| crate::consts::eval(&src[size.byte_range()], &self.env).is_none())
    }

    /// The items of the branch of a `#if`/`#ifdef` chain the compiler will see, when its
    /// conditions are certain: they name only `_OPENACC` (defined, as for any OpenACC
    /// compiler), `_OPENMP` (defined only where the preprocessor said so), and macros the file
    /// or its headers define, with `defined`, `!`, `&&`, `||`, comparisons and numbers. `None`
    /// otherwise (a name a `-D` option may define): then every branch is read.
    fn live_branch(&self, node: Node<'s>) -> Option<Vec<Node<'s>>> {
        let mut n = node;
        loop {
            let truth = match n.node_kind() {
                "preproc_ifdef" | "preproc_elifdef" => {
                    let name = self.text(n.child_by_field_id(fields().name.get())?);
                    let negated = self.text(n).trim_start().starts_with("#ifndef")
                        || self.text(n).trim_start().starts_with("#elifndef");
                    self.macro_defined(name)? != negated
                }
                "preproc_if" | "preproc_elif" => {
                    let cond = self.text(n.child_by_field_id(fields().condition.get())?);
                    self.eval_condition(cond)? != 0
                }
                "preproc_else" => true,
                _ => return None,
            };
            let alternative = n.child_by_field_id(fields().alternative.get());
            if truth {
                let mut c = n.walk();
                let items: Vec<Node<'s>> = n
                    .children(&mut c)
                    .filter(|x| {
                        x.is_named()
                            && Some(*x) != n.child_by_field_id(fields().condition.get())
                            && Some(*x) != n.child_by_field_id(fields().name.get())
                            && Some(*x) != alternative
                    })
                    .collect();
                return Some(items);
            }
            match alternative {
                Some(a) => n = a,
                None => return Some(Vec::new()),
            }
        }
    }

    /// Whether a macro is defined for the preprocessor, when acc can know.
    fn macro_defined(&self, name: &str) -> Option<bool> {
        if name == "_OPENACC" {
            return Some(true);
        }
        if self.env.constants.contains_key(name) || self.env.function_macros.contains_key(name) {
            return Some(true);
        }
        (name == "_OPENMP").then_some(false)
    }

    /// A `#if` condition's value, when every name in it is one `macro_defined` knows.
    fn eval_condition(&self, cond: &str) -> Option<i64> {
        // `defined X` and `defined(X)` first, then the constant expression.
        let mut text = String::with_capacity(cond.len());
        let mut rest = cond;
        while let Some(at) = rest.find("defined") {
            let before_ok = rest[..at]
                .chars()
                .last()
                .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
            let after = &rest[at + "defined".len()..];
            let trimmed = after.trim_start();
            let (name, tail) = if let Some(inner) = trimmed.strip_prefix('(') {
                let close = inner.find(')')?;
                (inner[..close].trim(), &inner[close + 1..])
            } else {
                let end = trimmed
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(trimmed.len());
                (&trimmed[..end], &trimmed[end..])
            };
            if !before_ok || name.is_empty() {
                text.push_str(&rest[..at + "defined".len()]);
                rest = after;
                continue;
            }
            text.push_str(&rest[..at]);
            text.push_str(if self.macro_defined(name)? { "1" } else { "0" });
            rest = tail;
        }
        text.push_str(rest);
        // Any name left must be a macro the file or its headers define.
        for w in text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty() && !w.starts_with(|c: char| c.is_ascii_digit()))
        {
            if w == "_OPENACC" {
                continue;
            }
            self.env.constants.get(w)?;
        }
        let text = text.replace("_OPENACC", crate::preprocess::OPENACC_VERSION);
        crate::consts::eval(&text, &self.env)
    }

    /// The variables a macro's expansion may use (`_PB_NI` for `POLYBENCH_LOOP_BOUND(NI, ni)`
    /// uses the parameter `ni`; `IDX(i, j)` for `((i) * n + (j))` uses `n`), as references at
    /// the macro's name: the construct uses what the compiler will see. Every name in the
    /// replacement text counts (nested macros expanded, a function-like macro's parameters
    /// left out, since its arguments are in the source): a superset, which costs at most an
    /// unused copy.
    fn macro_refs(&mut self, name: &str, span: Span) {
        if !self.env.constants.contains_key(name) && !self.env.function_macros.contains_key(name) {
            return;
        }
        let mut seen: Vec<String> = vec![name.to_string()];
        let mut queue: Vec<String> = vec![name.to_string()];
        let mut vars: Vec<VarId> = Vec::new();
        while let Some(m) = queue.pop() {
            if seen.len() > 256 {
                break;
            }
            let (text, params): (String, Vec<String>) = match self.env.function_macros.get(&m) {
                Some((params, body)) => (body.clone(), params.clone()),
                None => match self.env.constants.get(&m) {
                    Some(value) => (value.clone(), Vec::new()),
                    None => continue,
                },
            };
            for w in text
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty() && !w.starts_with(|c: char| c.is_ascii_digit()))
            {
                if params.iter().any(|p| p == w) || seen.iter().any(|s| s == w) {
                    continue;
                }
                seen.push(w.to_string());
                let found = self.lookup(w).or_else(|| self.header_var(w));
                match found {
                    Some(v) => vars.push(v),
                    None => queue.push(w.to_string()),
                }
            }
        }
        for var in vars {
            self.unit.refs.push(Ref {
                var,
                span,
                implied: true,
            });
        }
    }

    /// The file-scope variable `name` that one of the program's headers declares (made a
    /// variable of the unit on its first use): a construct's use of it is a use of a global,
    /// as of one the file declares. Its declaration is outside the file, so its span is empty
    /// at the file's start (before every construct).
    fn header_var(&mut self, name: &str) -> Option<VarId> {
        if let Some(&id) = self.header_vars.get(name) {
            return Some(id);
        }
        let g = self.env.header_globals.get(name)?.clone();
        let id = VarId(self.unit.vars.len() as u32);
        let scalar_text = self.env.resolve_scalar(&g.type_text);
        self.unit.vars.push(Var {
            name: name.to_string(),
            decl_span: Span::new(0, 0),
            shape: g.facts.shape,
            is_const: g.facts.is_const,
            is_complete: g.facts.is_complete,
            decl_name: g.decl_name.clone(),
            scalar: crate::types::scalar_type(&scalar_text, g.facts.shape),
            elem_scalar: crate::types::scalar_type(&scalar_text, acc_engine::facts::Shape::Scalar)
                .filter(|_| g.facts.shape != acc_engine::facts::Shape::Scalar),
            fields: if g.facts.shape == acc_engine::facts::Shape::Aggregate {
                self.env
                    .struct_fields
                    .get(
                        g.type_text
                            .trim_start_matches("const ")
                            .trim_start_matches("struct "),
                    )
                    .cloned()
                    .unwrap_or_default()
            } else {
                Vec::new()
            },
            decl_text: g.decl_text,
            is_global: true,
            vla: false,
        });
        self.header_vars.insert(name.to_string(), id);
        Some(id)
    }

    /// Walks a sequence of sibling items (a block or the file).
    fn visit_seq(&mut self, nodes: &[Node<'s>], file_scope: bool) {
        let mut i = 0;
        while i < nodes.len() {
            let n = nodes[i];
            if matches!(n.node_kind(), "{" | "}") {
                i += 1;
                continue;
            }
            let (k, _) = self.visit_unit(&nodes[i..], false, file_scope, nodes);
            i += k.max(1);
        }
    }

    /// Walks one statement, with any directives in front of it; returns how
    /// many siblings it used and its span.
    fn visit_unit(
        &mut self,
        nodes: &[Node<'s>],
        substatement: bool,
        file_scope: bool,
        block: &[Node<'s>],
    ) -> (usize, Option<Span>) {
        let mut i = 0;
        while i < nodes.len() && is_trivia(nodes[i]) {
            i += 1;
        }
        let Some(&n) = nodes.get(i) else {
            return (i, None);
        };
        if matches!(n.node_kind(), "}") {
            return (i, None);
        }
        let used = if acc_pragma(n, self.src).is_some() {
            self.visit_pragma(&nodes[i..], substatement, file_scope, block)
        } else {
            self.visit_stmt(n, &nodes[i + 1..], file_scope)
        };
        let last = nodes[i + used - 1];
        (i + used, Some(Span::new(n.start_byte(), last.end_byte())))
    }

    fn visit_pragma(
        &mut self,
        nodes: &[Node<'s>],
        substatement: bool,
        file_scope: bool,
        block: &[Node<'s>],
    ) -> usize {
        let node = nodes[0];
        let (pragma_span, base, is_operator) =
            acc_pragma(node, self.src).expect("checked by caller");
        let (parsed, diags) = if is_operator {
            let end = self.src[base..]
                .find('"')
                .map_or(self.src.len(), |e| base + e);
            directive::parse_pragma_operator(&self.src[base..end], base)
        } else {
            let end = node
                .child_by_field_id(fields().argument.get())
                .map_or(node.end_byte(), |a| a.end_byte());
            let text = &self.src[base..end];
            match self.expand_directive_macros(text) {
                Some((expanded, map)) => directive::parse_directive_mapped(&expanded, &map, base),
                None => directive::parse_directive(text, base),
            }
        };
        self.diags.extend(diags);
        let Some(mut d) = parsed else { return 1 };
        let rules = if self.for_runtime {
            acc_engine::check_clauses::Rules::Acc
        } else {
            acc_engine::check_clauses::Rules::Clacc
        };
        self.diags
            .extend(acc_engine::check_clauses::check_directive_as(&d, rules));
        if self.for_runtime && file_scope && d.kind == DirectiveKind::Declare {
            for c in &d.clauses {
                for item in clause_items(&c.args).iter().filter(|i| i.is_subarray()) {
                    self.diags.push(
                        Diagnostic::error(
                            item.span,
                            "acc cc does not map a subarray in a file-scope `declare` yet",
                        )
                        .with_note("declare the whole array, or map the section with `enter data` where the pointer is set"),
                    );
                }
            }
        }

        let clause_vars = d
            .clauses
            .iter()
            .map(|c| {
                clause_items(&c.args)
                    .iter()
                    .map(|it| {
                        self.lookup(&it.base.name)
                            .or_else(|| self.header_var(&it.base.name))
                    })
                    .collect()
            })
            .collect::<Vec<Vec<Option<VarId>>>>();
        if self.for_runtime {
            self.widen_array_parameters(&mut d, &clause_vars);
        }
        let consts = self.clause_consts(&d);
        let id = ConstructId(self.unit.constructs.len() as u32);
        let needs_block =
            d.kind.has_structured_block() || d.kind.is_loop() || d.kind == DirectiveKind::Atomic;
        let kind = d.kind;
        let is_declare = kind == DirectiveKind::Declare;
        let named_routine = matches!(d.arg, Some(directive::DirectiveArg::RoutineName(_)));
        let block_rest = (is_declare && !file_scope)
            .then(|| {
                let close = block.iter().rev().find(|b| b.node_kind() == "}")?;
                Some(Span::new(pragma_span.end, close.start_byte()))
            })
            .flatten();
        self.unit.constructs.push(Construct {
            directive: d,
            pragma_span,
            parent: self.open.last().copied(),
            body: None,
            loops: Vec::new(),
            clause_vars,
            is_substatement: substatement,
            function: None,
            block_rest,
            consts,
            statements: Vec::new(),
            declarations: Vec::new(),
            plain_loops: Vec::new(),
        });
        if kind == DirectiveKind::Routine && !named_routine {
            self.pending_routines.push(id);
        }
        if !needs_block {
            if substatement && kind.is_executable() {
                self.diags.push(
                    Diagnostic::error(
                        self.unit.construct(id).directive.name_span,
                        format!(
                            "`acc {}` may only be used in a compound statement",
                            kind.name()
                        ),
                    )
                    .with_note("enclose it in braces `{ … }`"),
                );
            }
            return 1;
        }
        self.open.push(id);
        if kind.is_compute() {
            self.computes.push(ComputeCtx {
                construct: id,
                loop_depth: self.loop_depth,
                switch_depth: self.switch_depth,
            });
        }
        let (used, body) = self.visit_unit(&nodes[1..], false, file_scope, block);
        if kind.is_compute() {
            self.computes.pop();
        }
        self.open.pop();
        match body {
            None => {
                let name_span = self.unit.construct(id).directive.name_span;
                let mut d = Diagnostic::error(
                    name_span,
                    format!("`acc {}` must be followed by a statement", kind.name()),
                );
                // `#else` / `#pragma acc ...` / `#endif` / `for (...)`: the compiler sees the
                // loop after preprocessing; acc reads the source as written.
                if node
                    .parent()
                    .is_some_and(|p| p.node_kind().starts_with("preproc_"))
                {
                    d = d.with_note(
                        "the directive ends a `#if` branch whose condition acc cannot evaluate \
                         (it names a macro that neither the file nor its headers define, which \
                         a -D option may): the statement must be in the same branch (move the \
                         `#endif` after the statement, repeating it in each branch)",
                    );
                }
                self.diags.push(d);
            }
            Some(body) => {
                self.unit.constructs[id.0 as usize].body = Some(body);
                let first = nodes[1..].iter().copied().find(|n| !is_trivia(*n));
                if kind.is_loop() {
                    self.loop_facts(id, first);
                }
                if let Some(block) =
                    first.filter(|n| kind.is_compute() && n.node_kind() == "compound_statement")
                {
                    let (statements, declarations) = self.statements(block);
                    let c = &mut self.unit.constructs[id.0 as usize];
                    c.statements = statements;
                    c.declarations = declarations;
                }
                if kind == DirectiveKind::Kernels {
                    self.kernels_plain_loops(id, first);
                }
            }
        }
        1 + used
    }

    /// The statements of a block, each with the directives in front of it,
    /// and those of them that are declarations.
    fn statements(&self, block: Node<'s>) -> (Vec<Span>, Vec<Span>) {
        let mut c = block.walk();
        let children: Vec<Node> = block
            .named_children(&mut c)
            .filter(|n| !is_trivia(*n))
            .collect();
        let mut out = Vec::new();
        let mut declarations = Vec::new();
        let mut start = None;
        for n in children {
            let s = *start.get_or_insert(n.start_byte());
            if acc_pragma(n, self.src).is_some() {
                continue;
            }
            out.push(Span::new(s, n.end_byte()));
            if n.node_kind() == "declaration" {
                declarations.push(Span::new(s, n.end_byte()));
            }
            start = None;
        }
        if let Some(s) = start {
            out.push(Span::new(s, block.end_byte() - 1));
        }
        (out, declarations)
    }

    /// Integer constant values of the clause arguments.
    fn clause_consts(&self, d: &Directive) -> Vec<(Span, Option<i64>)> {
        let mut out = Vec::new();
        for c in &d.clauses {
            let exprs: Vec<&directive::Expr> = match &c.args {
                ClauseArgs::Expr(e) => vec![e],
                ClauseArgs::Exprs(es) => es.iter().collect(),
                ClauseArgs::Collapse { count, .. } => vec![count],
                ClauseArgs::Worker(Some(e)) | ClauseArgs::Vector(Some(e)) => vec![e],
                _ => Vec::new(),
            };
            for e in exprs {
                out.push((e.span, consts::eval(&e.text, &self.env)));
            }
        }
        out
    }

    /// The associated loop nest of a loop construct, as deep as `collapse`.
    fn loop_facts(&mut self, id: ConstructId, first: Option<Node<'s>>) {
        let d = &self.unit.construct(id).directive;
        let depth = d
            .clauses
            .iter()
            .find_map(|c| match &c.args {
                ClauseArgs::Collapse { count, .. } => Some(
                    consts::eval(&count.text, &self.env)
                        .unwrap_or(1)
                        .clamp(1, 64) as usize,
                ),
                ClauseArgs::Exprs(sizes) if c.kind == directive::ClauseKind::Tile => {
                    Some(sizes.len().max(1))
                }
                _ => None,
            })
            .unwrap_or(1);
        let name_span = d.name_span;
        // `collapse(force:n)` allows code between the loops; then only the
        // loops that are tightly nested are collapsed.
        let force = d
            .clauses
            .iter()
            .any(|c| matches!(&c.args, ClauseArgs::Collapse { force: Some(_), .. }));
        let Some(mut node) = first.filter(|n| n.node_kind() == "for_statement") else {
            let found = first.map_or("nothing", |n| n.node_kind());
            self.diags.push(
                Diagnostic::error(
                    name_span,
                    format!(
                        "`acc {}` must be followed by a `for` loop",
                        self.unit.construct(id).directive.kind.name()
                    ),
                )
                .with_note(format!("found {}", found.replace('_', " "))),
            );
            return;
        };
        let mut loops = Vec::new();
        for level in 0..depth {
            loops.push(self.for_facts(node));
            if level + 1 == depth {
                break;
            }
            let mut body = node.child_by_field_id(fields().body.get());
            while let Some(b) = body.filter(|b| b.node_kind() == "compound_statement") {
                let mut c = b.walk();
                let stmts: Vec<Node> = b
                    .named_children(&mut c)
                    .filter(|n| !is_trivia(*n))
                    .collect();
                body = (stmts.len() == 1).then(|| stmts[0]);
            }
            match body.filter(|b| b.node_kind() == "for_statement") {
                Some(b) => node = b,
                None if force => break,
                None => {
                    self.diags.push(
                        Diagnostic::error(
                            Self::span(node),
                            format!("`collapse`/`tile` needs {depth} tightly nested `for` loops; this loop has no nested loop directly inside"),
                        )
                        .with_secondary(name_span, "loop directive here"),
                    );
                    break;
                }
            }
        }
        if let Some(outer) = first {
            self.pending_deps.push((id, DepsAt::Loop, outer));
        }
        let id = id.0 as usize;
        self.unit.constructs[id].loops = loops;
    }

    /// The loops without a directive that a `kernels` construct runs:
    /// its statement, or the statements of its block.
    fn kernels_plain_loops(&mut self, id: ConstructId, first: Option<Node<'s>>) {
        let loops: Vec<Node<'s>> = match first {
            Some(n) if n.node_kind() == "for_statement" => vec![n],
            Some(n) if n.node_kind() == "compound_statement" => {
                let mut c = n.walk();
                let children: Vec<Node> = n
                    .named_children(&mut c)
                    .filter(|x| !is_trivia(*x))
                    .collect();
                children
                    .iter()
                    .enumerate()
                    .filter(|(i, x)| {
                        x.node_kind() == "for_statement"
                            && (*i == 0 || acc_pragma(children[i - 1], self.src).is_none())
                    })
                    .map(|(_, x)| *x)
                    .collect()
            }
            _ => Vec::new(),
        };
        for node in loops {
            let facts = self.for_facts(node);
            let k = self.unit.constructs[id.0 as usize].plain_loops.len();
            self.unit.constructs[id.0 as usize]
                .plain_loops
                .push((Self::span(node), facts));
            self.pending_deps.push((id, DepsAt::Plain(k), node));
        }
    }

    fn for_facts(&self, node: Node<'s>) -> LoopFacts {
        let mut facts = LoopFacts {
            span: Self::span(node),
            control: None,
            declared_in_init: false,
            header: crate::loops::header(node, self.src),
            deps: None,
            body_statements: Vec::new(),
            body_declarations: Vec::new(),
            uneven_trips: false,
        };
        // Only acc's own lowering schedules iterations; printing OpenMP does not ask.
        if let Some(h) = facts.header.as_ref().filter(|_| self.for_runtime) {
            facts.uneven_trips = crate::loops::uneven_trips(node, self.src, &h.var);
        }
        if let Some(body) = node
            .child_by_field_id(fields().body.get())
            .filter(|b| b.node_kind() == "compound_statement")
        {
            (facts.body_statements, facts.body_declarations) = self.statements(body);
        }
        let Some(init) = node.child_by_field_id(fields().initializer.get()) else {
            return facts;
        };
        match init.node_kind() {
            "declaration" => {
                let first = {
                    let mut c = init.walk();
                    let d = init
                        .children_by_field_id(fields().declarator, &mut c)
                        .next();
                    d
                };
                if let Some(d) = first {
                    let mut n = d;
                    while n.node_kind() != "identifier" {
                        match n.child_by_field_id(fields().declarator.get()) {
                            Some(x) => n = x,
                            None => break,
                        }
                    }
                    facts.control = self.var_by_decl.get(&n.start_byte()).copied();
                    facts.declared_in_init = true;
                }
            }
            "assignment_expression" => {
                if let Some(l) = init
                    .child_by_field_id(fields().left.get())
                    .filter(|l| l.node_kind() == "identifier")
                {
                    facts.control = self.lookup(self.text(l));
                }
            }
            _ => {}
        }
        facts
    }

    /// Walks one statement; returns how many siblings it used (1, or more
    /// when its body was a directive and the following statement).
    fn visit_stmt(&mut self, node: Node<'s>, rest: &[Node<'s>], file_scope: bool) -> usize {
        self.env.learn(node, self.src);
        match node.node_kind() {
            "compound_statement" => {
                self.scopes.push(HashMap::new());
                self.blocks.push(Self::span(node));
                let mut c = node.walk();
                let children: Vec<Node> = node.children(&mut c).collect();
                self.visit_seq(&children, false);
                self.blocks.pop();
                self.scopes.pop();
                1
            }
            "function_definition" => {
                self.function(node);
                1
            }
            "declaration" => {
                // A type a function defines in a declaration of variables (`enum e { A } v;`):
                // kernels repeat the definition, and the variables' declarations refer to it.
                if let Some(ty) = node
                    .child_by_field_id(fields().ty.get())
                    .filter(|t| !file_scope && self.defines_type(*t))
                {
                    self.local_type(format!("{};", self.text(ty)), node);
                }
                self.declaration(node, file_scope);
                1
            }
            "for_statement" => {
                self.scopes.push(HashMap::new());
                if let Some(init) = node.child_by_field_id(fields().initializer.get()) {
                    if init.node_kind() == "declaration" {
                        self.declaration(init, false);
                    } else {
                        self.expr(init);
                    }
                }
                for f in ["condition", "update"] {
                    if let Some(x) = node.child_by_field_name(f) {
                        self.expr(x);
                    }
                }
                let used = self.loop_body(node, "body", rest);
                self.scopes.pop();
                used
            }
            "while_statement" => {
                if let Some(c) = node.child_by_field_id(fields().condition.get()) {
                    self.expr(c);
                }
                self.loop_body(node, "body", rest)
            }
            "do_statement" => {
                let used = self.loop_body(node, "body", rest);
                if let Some(c) = node.child_by_field_id(fields().condition.get()) {
                    self.expr(c);
                }
                used
            }
            "if_statement" => {
                if let Some(c) = node.child_by_field_id(fields().condition.get()) {
                    self.expr(c);
                }
                let used = self.sub_body(node, "consequence", rest);
                if let Some(alt) = node.child_by_field_id(fields().alternative.get()) {
                    let mut c = alt.walk();
                    let stmts: Vec<Node> = alt.named_children(&mut c).collect();
                    for s in stmts {
                        self.visit_stmt(s, &[], false);
                    }
                }
                used
            }
            "switch_statement" => {
                if let Some(c) = node.child_by_field_id(fields().condition.get()) {
                    self.expr(c);
                }
                self.switch_depth += 1;
                if let Some(b) = node.child_by_field_id(fields().body.get()) {
                    self.visit_stmt(b, &[], false);
                }
                self.switch_depth -= 1;
                1
            }
            "case_statement" => {
                if let Some(v) = node.child_by_field_id(fields().value.get()) {
                    self.expr(v);
                }
                let mut c = node.walk();
                let children: Vec<Node> = node
                    .children(&mut c)
                    .filter(|n| {
                        n.is_named() && Some(*n) != node.child_by_field_id(fields().value.get())
                    })
                    .collect();
                self.visit_seq(&children, false);
                1
            }
            "labeled_statement" => {
                if let Some(l) = node.child_by_field_id(fields().label.get()) {
                    self.labels.insert(self.text(l), Self::span(l));
                }
                let mut c = node.walk();
                let children: Vec<Node> = node.named_children(&mut c).skip(1).collect();
                self.visit_seq(&children, false);
                1
            }
            "return_statement" => {
                if let Some(ctx) = self.computes.last() {
                    let pragma = self.unit.construct(ctx.construct).directive.name_span;
                    self.diags.push(
                        Diagnostic::error(
                            Self::span(node),
                            "cannot return from inside a compute construct",
                        )
                        .with_secondary(pragma, "the compute construct"),
                    );
                }
                self.expr_children(node);
                1
            }
            "break_statement" | "continue_statement" => {
                if let Some(ctx) = self.computes.last() {
                    let leaves = if node.node_kind() == "break_statement" {
                        self.loop_depth == ctx.loop_depth && self.switch_depth == ctx.switch_depth
                    } else {
                        self.loop_depth == ctx.loop_depth
                    };
                    if leaves {
                        let pragma = self.unit.construct(ctx.construct).directive.name_span;
                        self.diags.push(
                            Diagnostic::error(
                                Self::span(node),
                                format!(
                                    "`{}` would branch out of the compute construct",
                                    self.text(node).trim_end_matches(';')
                                ),
                            )
                            .with_secondary(pragma, "the compute construct"),
                        );
                    }
                }
                1
            }
            "goto_statement" => {
                if let Some(l) = node.child_by_field_id(fields().label.get()) {
                    self.gotos.push((self.text(l), Self::span(node)));
                }
                1
            }
            "type_definition" | "struct_specifier" | "union_specifier" | "enum_specifier" => {
                if !file_scope {
                    let text = self.text(node).trim_end_matches(';');
                    self.local_type(format!("{text};"), node);
                }
                1
            }
            "preproc_if" | "preproc_ifdef" if self.live_branch(node).is_some() => {
                // The branch the compiler will see, with the statements after `#endif`: a
                // directive that ends the branch (`#ifdef _OPENMP … #else #pragma acc … #endif`
                // then the loop) takes the statement after it, as after preprocessing.
                let live = self.live_branch(node).unwrap_or_default();
                let k = live.len();
                let mut seq = live;
                seq.extend_from_slice(rest);
                let mut i = 0;
                while i < k {
                    let (used, _) = self.visit_unit(&seq[i..], false, file_scope, &seq);
                    i += used.max(1);
                }
                1 + i.saturating_sub(k)
            }
            "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif"
            | "preproc_elifdef" => {
                let mut c = node.walk();
                let children: Vec<Node> = node
                    .children(&mut c)
                    .filter(|n| {
                        n.is_named()
                            && Some(*n) != node.child_by_field_id(fields().condition.get())
                            && Some(*n) != node.child_by_field_id(fields().name.get())
                    })
                    .collect();
                self.visit_seq(&children, file_scope);
                1
            }
            "preproc_def"
            | "preproc_function_def"
            | "preproc_include"
            | "preproc_call"
            | "comment" => 1,
            _ => {
                self.expr_children(node);
                1
            }
        }
    }

    fn loop_body(&mut self, node: Node<'s>, field: &str, rest: &[Node<'s>]) -> usize {
        self.loop_depth += 1;
        let used = self.sub_body(node, field, rest);
        self.loop_depth -= 1;
        used
    }

    /// The body of a statement, repairing a directive in its place — also one nested deeper
    /// (`for (…) for (…) #pragma acc loop …`, where the inner `for` lacks the body): the
    /// siblings after the statement are the innermost body, and they belong to every statement
    /// around it. Returns how many of the statement and its siblings it used.
    fn sub_body(&mut self, node: Node<'s>, field: &str, rest: &[Node<'s>]) -> usize {
        if missing_body(node, field) {
            let (used, _) = self.visit_unit(rest, true, false, rest);
            return 1 + used;
        }
        match node.child_by_field_name(field) {
            Some(b) if ends_without_body(b) => self.visit_stmt(b, rest, false),
            Some(b) => {
                self.visit_stmt(b, &[], false);
                1
            }
            None => 1,
        }
    }

    /// Whether a type specifier inside a function defines a type a kernel can repeat: a struct,
    /// union or enum with a body and a tag, or an enum's constants.
    fn defines_type(&self, ty: Node) -> bool {
        let kind = ty.node_kind();
        matches!(
            kind,
            "struct_specifier" | "union_specifier" | "enum_specifier"
        ) && ty.child_by_field_id(fields().body.get()).is_some()
            && (kind == "enum_specifier" || ty.child_by_field_id(fields().name.get()).is_some())
            && !self.blocks.is_empty()
    }

    /// A declared variable's type as a kernel declares it: a type the function defines in the
    /// declaration itself by its tag (`enum color`), or `int` for an enum without one, since
    /// the kernel repeats the definition once ([`Self::local_type`]); any other as written.
    fn referring_type(&self, ty: Node) -> String {
        if !self.defines_type(ty) {
            return self.text(ty).to_string();
        }
        let keyword = ty.node_kind().trim_end_matches("_specifier");
        match ty.child_by_field_id(fields().name.get()) {
            Some(name) => format!("{keyword} {}", self.text(name)),
            None => "int".to_string(),
        }
    }

    /// Records a type a function declares for itself, visible in the innermost block.
    fn local_type(&mut self, text: String, node: Node<'s>) {
        let mut typedef_names = Vec::new();
        if node.node_kind() == "type_definition" {
            let mut c = node.walk();
            for mut d in node.children_by_field_id(fields().declarator, &mut c) {
                while d.node_kind() != "type_identifier" {
                    match d.child_by_field_id(fields().declarator.get()) {
                        Some(inner) => d = inner,
                        None => break,
                    }
                }
                if d.node_kind() == "type_identifier" {
                    typedef_names.push(self.text(d).to_string());
                }
            }
        }
        if let Some(&scope) = self.blocks.last() {
            self.unit.local_types.push(acc_engine::facts::LocalType {
                text,
                span: Self::span(node),
                scope,
                typedef_names,
            });
        }
    }

    fn function(&mut self, node: Node<'s>) {
        let name = node
            .child_by_field_id(fields().declarator.get())
            .and_then(|d| {
                let mut n = d;
                loop {
                    if n.node_kind() == "function_declarator" {
                        return n.child_by_field_id(fields().declarator.get());
                    }
                    n = n.child_by_field_id(fields().declarator.get())?;
                }
            })
            .map_or("", |n| self.text(n));
        for id in self.pending_routines.drain(..) {
            self.unit.constructs[id.0 as usize].function =
                Some((name.to_string(), Self::span(node)));
        }
        self.unit
            .functions
            .push((name.to_string(), Self::span(node)));
        self.scopes.push(HashMap::new());
        // Parameters.
        if let Some(fd) = find_descendant(
            node.child_by_field_id(fields().declarator.get()),
            "function_declarator",
        ) {
            if let Some(params) = fd.child_by_field_id(fields().parameters.get()) {
                let mut c = params.walk();
                let ps: Vec<Node> = params.named_children(&mut c).collect();
                for p in ps {
                    if p.node_kind() != "parameter_declaration" {
                        continue;
                    }
                    if let (Some(ty), Some(decl)) = (
                        p.child_by_field_id(fields().ty.get()),
                        p.child_by_field_id(fields().declarator.get()),
                    ) {
                        let base = self.env.base_facts(p, ty, self.src);
                        self.declare_var(p, ty, decl, base, true, false);
                    }
                }
            }
        }
        self.gotos.clear();
        self.labels.clear();
        if let Some(body) = node.child_by_field_id(fields().body.get()) {
            self.visit_stmt(body, &[], false);
        }
        self.check_gotos();
        self.scopes.pop();
    }

    /// No `goto` may jump into or out of a compute construct.
    fn check_gotos(&mut self) {
        let innermost = |unit: &Unit, at: Span| {
            unit.constructs
                .iter()
                .enumerate()
                .filter(|(_, c)| {
                    c.directive.kind.is_compute() && c.body.is_some_and(|b| b.contains(at))
                })
                .map(|(i, _)| i)
                .next_back()
        };
        for (label, span) in std::mem::take(&mut self.gotos) {
            let Some(&target) = self.labels.get(label) else {
                continue;
            };
            let from = innermost(&self.unit, span);
            let to = innermost(&self.unit, target);
            if from != to {
                let c = from.or(to).expect("one of them is in a compute construct");
                let pragma = self.unit.constructs[c].directive.name_span;
                self.diags.push(
                    Diagnostic::error(
                        span,
                        format!(
                            "`goto {label}` would branch {} a compute construct",
                            if from.is_some() { "out of" } else { "into" }
                        ),
                    )
                    .with_secondary(target, "the label")
                    .with_secondary(pragma, "the compute construct"),
                );
            }
        }
    }

    fn declaration(&mut self, node: Node<'s>, file_scope: bool) {
        let Some(ty) = node.child_by_field_id(fields().ty.get()) else {
            return;
        };
        let base = self.env.base_facts(node, ty, self.src);
        let is_static = {
            let mut c = node.walk();
            let r = node.children(&mut c).any(|ch| {
                ch.node_kind() == "storage_class_specifier"
                    && matches!(self.text(ch), "static" | "extern")
            });
            r
        };
        let mut c = node.walk();
        let decls: Vec<Node> = node
            .children_by_field_id(fields().declarator, &mut c)
            .collect();
        for d in decls {
            self.declare_var(node, ty, d, base, false, file_scope || is_static);
            if let Some(v) = d.child_by_field_id(fields().value.get()) {
                self.expr(v);
            }
        }
    }

    fn declare_var(
        &mut self,
        decl: Node<'s>,
        ty: Node<'s>,
        d: Node<'s>,
        base: TypeFacts,
        param: bool,
        global: bool,
    ) {
        // Array sizes are expressions that use variables.
        let mut x = Some(d);
        while let Some(n) = x {
            if n.node_kind() == "array_declarator" {
                if let Some(size) = n.child_by_field_id(fields().size.get()) {
                    self.expr(size);
                }
            }
            x = n.child_by_field_id(fields().declarator.get());
        }
        if let Some((expanded, name_node)) = self.macro_declarator(d) {
            self.declare_expanded(decl, ty, &expanded, name_node, base, param, global);
            return;
        }
        let Some((name, facts)) = self.env.declarator_facts(base, d, self.src, param) else {
            return;
        };
        let ident = find_identifier(d).unwrap_or(d);
        let declarator = if d.node_kind() == "init_declarator" {
            d.child_by_field_id(fields().declarator.get()).unwrap_or(d)
        } else {
            d
        };
        let qualifiers: String = {
            let mut c = decl.walk();
            let r: Vec<&str> = decl
                .children(&mut c)
                .filter(|ch| ch.node_kind() == "type_qualifier")
                .map(|ch| self.text(ch))
                .collect();
            r.join(" ")
        };
        let type_text = if qualifiers.is_empty() {
            self.referring_type(ty)
        } else {
            format!("{qualifiers} {}", self.referring_type(ty))
        };
        // Before the variable's id is taken: a header's global named in an extent becomes a
        // variable of the unit here.
        let extent_vars = self.extent_vars_of(self.src, declarator);
        let id = VarId(self.unit.vars.len() as u32);
        if !extent_vars.is_empty() {
            self.extent_vars.insert(id, extent_vars);
        }
        // An array parameter is a pointer (C adjusts `double x[8]` to `double *x`): declare it
        // so, and keep the first dimension as written for data clauses that name it whole.
        let array_param = if param {
            self.array_parameter(self.src, declarator, ident)
        } else {
            None
        };
        let (decl_text, decl_name) = match &array_param {
            Some((adjusted, _)) => {
                let text = format!("{type_text} {adjusted}");
                let start = type_text.len() + 1 + adjusted.find(name).unwrap_or(0);
                (text, start..start + name.len())
            }
            None => {
                let start = type_text.len() + 1 + (ident.start_byte() - declarator.start_byte());
                (
                    format!("{type_text} {}", self.text(declarator)),
                    start..start + name.len(),
                )
            }
        };
        if let Some((_, extent)) = array_param {
            self.array_params.insert(id, extent);
        }
        self.unit.vars.push(Var {
            name: name.to_string(),
            decl_span: Self::span(ident),
            shape: facts.shape,
            is_const: facts.is_const,
            is_complete: facts.is_complete,
            decl_name,
            scalar: crate::types::scalar_type(&self.env.resolve_scalar(&type_text), facts.shape),
            elem_scalar: crate::types::scalar_type(
                &self.env.resolve_scalar(&type_text),
                acc_engine::facts::Shape::Scalar,
            )
            .filter(|_| facts.shape != acc_engine::facts::Shape::Scalar),
            fields: if facts.shape == acc_engine::facts::Shape::Aggregate {
                self.struct_fields_of(ty)
            } else {
                Vec::new()
            },
            decl_text,
            is_global: global,
            vla: !param && self.first_dimension_is_variable(self.src, declarator),
        });
        if ty.node_kind() == "type_identifier" && !self.env.knows_type(self.text(ty)) {
            self.unknown_types.push((id, Self::span(ty)));
        }
        self.var_by_decl.insert(ident.start_byte(), id);
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name, id);
        }
    }

    /// The directive's text with the macros among its words replaced, as the preprocessor
    /// replaces them in `#pragma acc` lines (`#define LOOP loop` then `#pragma acc parallel LOOP
    /// copy(x)`; `#define DATA copy(a[0:n])`), and the map from the result's bytes to the
    /// text's (a replacement's bytes map into the macro's name). Only words outside
    /// parentheses are replaced: arguments keep their text (the compiler expands them where
    /// acc writes them) and their spans. `None` when no word is a macro.
    fn expand_directive_macros(&self, text: &str) -> Option<(String, Vec<usize>)> {
        let is_macro = |w: &str| {
            self.env.constants.contains_key(w) || self.env.function_macros.contains_key(w)
        };
        let bytes = text.as_bytes();
        let word_at = |i: usize| -> usize {
            let mut j = i;
            while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
                j += 1;
            }
            j
        };
        // A first pass: is any top-level word (after `acc`) a macro?
        let mut depth = 0i32;
        let mut i = 0;
        let mut any = false;
        let mut first_word = true;
        while i < bytes.len() {
            let b = bytes[i];
            if b == b'(' {
                depth += 1;
            } else if b == b')' {
                depth -= 1;
            } else if (b.is_ascii_alphabetic() || b == b'_')
                && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric())
            {
                let j = word_at(i);
                if depth == 0 && !first_word && is_macro(&text[i..j]) {
                    any = true;
                    break;
                }
                first_word = false;
                i = j;
                continue;
            }
            i += 1;
        }
        if !any {
            return None;
        }
        let mut out = String::with_capacity(text.len() + 32);
        let mut map: Vec<usize> = Vec::with_capacity(text.len() + 33);
        let mut depth = 0i32;
        let mut i = 0;
        let mut first_word = true;
        while i < bytes.len() {
            let b = bytes[i];
            let starts_word = (b.is_ascii_alphabetic() || b == b'_')
                && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric());
            if starts_word {
                let j = word_at(i);
                let word = &text[i..j];
                if depth == 0 && !first_word && is_macro(word) {
                    let (replacement, end) = self.expand_word(text, i, j, 0);
                    let len = (end - i).max(1);
                    for (k, _) in replacement.bytes().enumerate() {
                        map.push(i + k.min(len - 1));
                    }
                    out.push_str(&replacement);
                    i = end;
                    continue;
                }
                first_word = false;
                out.push_str(word);
                map.extend(i..j);
                i = j;
                continue;
            }
            if b == b'(' {
                depth += 1;
            } else if b == b')' {
                depth -= 1;
            }
            let ch_len = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&text[i..i + ch_len]);
            map.extend(i..i + ch_len);
            i += ch_len;
        }
        map.push(text.len());
        Some((out, map))
    }

    /// The replacement of the macro named by `text[i..j]`, its top-level words expanded in
    /// turn (a few levels deep), and where the macro's use ends (after a function-like
    /// macro's arguments).
    fn expand_word(&self, text: &str, i: usize, j: usize, depth: usize) -> (String, usize) {
        let word = &text[i..j];
        let (body, end) = if let Some((params, body)) = self.env.function_macros.get(word) {
            let rest = &text[j..];
            let open = rest.len() - rest.trim_start().len();
            if !rest[open..].starts_with('(') {
                return (word.to_string(), j);
            }
            let mut level = 0i32;
            let mut close = None;
            for (k, c) in rest[open..].char_indices() {
                match c {
                    '(' => level += 1,
                    ')' => {
                        level -= 1;
                        if level == 0 {
                            close = Some(j + open + k);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let Some(close) = close else {
                return (word.to_string(), j);
            };
            let args = split_macro_args(&text[j + open + 1..close]);
            if args.len() != params.len() {
                return (word.to_string(), j);
            }
            (substitute(body, params, &args), close + 1)
        } else if let Some(value) = self.env.constants.get(word) {
            (value.clone(), j)
        } else {
            return (word.to_string(), j);
        };
        if depth >= 8 {
            return (body, end);
        }
        // Words of the replacement that are macros too, outside its parentheses.
        let mut out = String::with_capacity(body.len());
        let b = body.as_bytes();
        let (mut k, mut level) = (0, 0i32);
        while k < b.len() {
            let c = b[k];
            if (c.is_ascii_alphabetic() || c == b'_')
                && (k == 0 || !b[k - 1].is_ascii_alphanumeric())
            {
                let mut e = k;
                while e < b.len() && (b[e].is_ascii_alphanumeric() || b[e] == b'_') {
                    e += 1;
                }
                let w = &body[k..e];
                if level == 0
                    && w != word
                    && (self.env.constants.contains_key(w)
                        || self.env.function_macros.contains_key(w))
                {
                    let (r, stop) = self.expand_word(&body, k, e, depth + 1);
                    out.push_str(&r);
                    k = stop;
                } else {
                    out.push_str(w);
                    k = e;
                }
                continue;
            }
            if c == b'(' {
                level += 1;
            } else if c == b')' {
                level -= 1;
            }
            let n = body[k..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&body[k..k + n]);
            k += n;
        }
        (out, end)
    }

    /// A declarator written through a function-like macro (`POLYBENCH_2D(A, N, M, n, m)` with
    /// `#define POLYBENCH_2D(var, d1, d2, dd1, dd2) var[d1][d2]`, which tree-sitter reads as a
    /// function declarator): the declarator the compiler sees (`A[N][M]`), and the node of the
    /// name in the source (an argument of the macro).
    fn macro_declarator(&self, d: Node<'s>) -> Option<(String, Node<'s>)> {
        let d = if d.node_kind() == "init_declarator" {
            d.child_by_field_id(fields().declarator.get())?
        } else {
            d
        };
        if d.node_kind() != "function_declarator" {
            return None;
        }
        let callee = d.child_by_field_id(fields().declarator.get())?;
        if callee.node_kind() != "identifier" {
            return None;
        }
        let (params, body) = self.env.function_macros.get(self.text(callee))?;
        let list = d.child_by_field_id(fields().parameters.get())?;
        let inner = self
            .text(list)
            .trim()
            .strip_prefix('(')?
            .strip_suffix(')')?;
        let args = split_macro_args(inner);
        if args.len() != params.len() {
            return None;
        }
        let expanded = substitute(body, params, &args);
        // The declared name: the first identifier of the expansion, found among the macro's
        // arguments in the source.
        let name = expanded
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .find(|w| !w.is_empty() && !w.starts_with(|c: char| c.is_ascii_digit()))?
            .to_string();
        let mut c = list.walk();
        let name_node = find_named_identifier(list, &mut c, &name, self.src)?;
        Some((expanded, name_node))
    }

    /// Declares a variable whose declarator came from a macro (see `macro_declarator`): read
    /// from the expansion, with its name's place in the source.
    #[allow(clippy::too_many_arguments)]
    fn declare_expanded(
        &mut self,
        decl: Node<'s>,
        ty: Node<'s>,
        expanded: &str,
        name_node: Node<'s>,
        base: TypeFacts,
        param: bool,
        global: bool,
    ) {
        let snippet = format!("int {expanded};");
        let Some(tree) = crate::syntax::parser().parse(&snippet, None) else {
            return;
        };
        let root = tree.root_node();
        let Some(d) = root
            .named_child(0)
            .and_then(|n| n.child_by_field_id(fields().declarator.get()))
        else {
            return;
        };
        let Some((name, facts)) = self.env.declarator_facts(base, d, &snippet, param) else {
            return;
        };
        let Some(ident) = find_identifier(d) else {
            return;
        };
        let qualifiers: Vec<&str> = {
            let mut c = decl.walk();
            let r: Vec<&str> = decl
                .children(&mut c)
                .filter(|ch| ch.node_kind() == "type_qualifier")
                .map(|ch| self.text(ch))
                .collect();
            r
        };
        let type_text = if qualifiers.is_empty() {
            self.text(ty).to_string()
        } else {
            format!("{} {}", qualifiers.join(" "), self.text(ty))
        };
        let id = VarId(self.unit.vars.len() as u32);
        let array_param = if param {
            self.array_parameter(&snippet, d, ident)
        } else {
            None
        };
        let declarator_text = match &array_param {
            Some((adjusted, _)) => adjusted.clone(),
            None => snippet[d.byte_range()].to_string(),
        };
        let decl_text = format!("{type_text} {declarator_text}");
        let start = type_text.len() + 1 + declarator_text.find(name).unwrap_or(0);
        if let Some((_, extent)) = array_param {
            self.array_params.insert(id, extent);
        }
        let resolved = self.env.resolve_scalar(&type_text);
        let vla = !param && self.first_dimension_is_variable(&snippet, d);
        self.unit.vars.push(Var {
            name: name.to_string(),
            decl_span: Self::span(name_node),
            shape: facts.shape,
            is_const: facts.is_const,
            is_complete: facts.is_complete,
            decl_name: start..start + name.len(),
            scalar: crate::types::scalar_type(&resolved, facts.shape),
            elem_scalar: crate::types::scalar_type(&resolved, acc_engine::facts::Shape::Scalar)
                .filter(|_| facts.shape != acc_engine::facts::Shape::Scalar),
            fields: Vec::new(),
            decl_text,
            is_global: global,
            vla,
        });
        self.var_by_decl.insert(name_node.start_byte(), id);
        let key = self.text(name_node);
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(key, id);
        }
    }

    /// The members of the struct type `ty` names (a tag, a typedef of one,
    /// or an inline definition).
    fn struct_fields_of(&self, ty: Node<'s>) -> Vec<acc_engine::facts::Field> {
        let f = crate::syntax::fields();
        match ty.node_kind() {
            "struct_specifier" => {
                if let Some(body) = ty.child_by_field_id(f.body.get()) {
                    return crate::types::struct_fields(body, self.src);
                }
                ty.child_by_field_id(f.name.get())
                    .and_then(|n| self.env.struct_fields.get(self.text(n)).cloned())
                    .unwrap_or_default()
            }
            "type_identifier" => self
                .env
                .struct_fields
                .get(self.text(ty))
                .cloned()
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    fn expr_children(&mut self, node: Node<'s>) {
        let mut c = node.walk();
        let children: Vec<Node> = node.named_children(&mut c).collect();
        for ch in children {
            self.expr(ch);
        }
    }

    /// Records every variable reference in an expression.
    fn expr(&mut self, node: Node<'s>) {
        // Only references inside constructs matter to the engine (and a
        // nested statement expression cannot hold a directive).
        if self.open.is_empty() {
            return;
        }
        match node.node_kind() {
            "identifier" => {
                let name = self.text(node);
                if let Some(var) = self.lookup(name).or_else(|| self.header_var(name)) {
                    self.unit.refs.push(Ref {
                        var,
                        span: Self::span(node),
                        implied: false,
                    });
                    for &extent in self.extent_vars.get(&var).into_iter().flatten() {
                        self.unit.refs.push(Ref {
                            var: extent,
                            span: Self::span(node),
                            implied: true,
                        });
                    }
                } else {
                    self.macro_refs(name, Self::span(node));
                }
            }
            "field_expression" => {
                if let Some(a) = node.child_by_field_id(fields().argument.get()) {
                    self.expr(a);
                }
            }
            "sizeof_expression" | "cast_expression" | "compound_literal_expression" => {
                for f in ["value", "argument"] {
                    if let Some(v) = node.child_by_field_name(f) {
                        self.expr(v);
                    }
                }
            }
            "type_descriptor" | "string_literal" | "number_literal" | "char_literal" => {}
            "compound_statement" => {
                self.visit_stmt(node, &[], false);
            }
            _ => self.expr_children(node),
        }
    }

    /// A variable of an unknown type name is treated as a scalar; say so
    /// where it matters, on variables OpenACC constructs use.
    fn report_unknown_types(&mut self) {
        for (var, ty_span) in std::mem::take(&mut self.unknown_types) {
            let used = self.unit.constructs.iter().any(|c| {
                c.clause_vars.iter().flatten().any(|v| *v == Some(var))
                    || c.body
                        .is_some_and(|b| self.unit.refs_in(b).iter().any(|r| r.var == var))
            });
            if used {
                let v = self.unit.var(var);
                self.diags.push(
                    Diagnostic::warning(
                        ty_span,
                        format!(
                            "{UNKNOWN_TYPE} `{}` of `{}` is treated as a scalar",
                            &self.src[ty_span.range()],
                            v.name
                        ),
                    )
                    .with_note(
                        "pass the include paths (-I) so the header that defines it can be read",
                    ),
                );
            }
        }
    }
}

/// A macro call's arguments: its text split at the commas outside parentheses and brackets.
fn split_macro_args(text: &str) -> Vec<&str> {
    let mut args = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                args.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    args.push(text[start..].trim());
    args
}

/// A function-like macro's replacement with its parameters replaced by the arguments, word
/// by word (no `#` or `##`, which declarators do not use).
fn substitute(body: &str, params: &[String], args: &[&str]) -> String {
    let mut out = String::with_capacity(body.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match params.iter().position(|p| p == word) {
            Some(k) => out.push_str(args[k]),
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in body.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The first identifier (or type identifier) under `node` whose text is `name`.
fn find_named_identifier<'t>(
    node: Node<'t>,
    c: &mut tree_sitter::TreeCursor<'t>,
    name: &str,
    src: &str,
) -> Option<Node<'t>> {
    let kids: Vec<Node<'t>> = node.named_children(c).collect();
    for k in kids {
        if matches!(k.node_kind(), "identifier" | "type_identifier") && &src[k.byte_range()] == name
        {
            return Some(k);
        }
        let mut kc = k.walk();
        if let Some(found) = find_named_identifier(k, &mut kc, name, src) {
            return Some(found);
        }
    }
    None
}

fn find_identifier(mut n: Node) -> Option<Node> {
    loop {
        if n.node_kind() == "identifier" {
            return Some(n);
        }
        n = n
            .child_by_field_id(fields().declarator.get())
            .or_else(|| n.named_child(0))?;
    }
}

fn find_descendant<'t>(mut n: Option<Node<'t>>, kind: &str) -> Option<Node<'t>> {
    while let Some(x) = n {
        if x.node_kind() == kind {
            return Some(x);
        }
        n = x.child_by_field_id(fields().declarator.get());
    }
    None
}
