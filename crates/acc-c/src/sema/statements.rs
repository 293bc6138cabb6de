//! Statements: the walk over a function's body and the file's top level, scopes opened and
//! closed, branches checked (no `goto`, `break` or `return` out of a compute construct).
//!
//! It must not read declarations or directives itself; it hands them to their modules.

use super::declarations::find_descendant;
use super::*;

impl<'s> Walker<'s> {
    /// Walks a sequence of sibling items (a block or the file).
    pub(super) fn visit_seq(&mut self, nodes: &[Node<'s>], file_scope: bool) {
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
    pub(super) fn visit_unit(
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
        let used = if self.pragma(n).is_some() {
            self.visit_pragma(&nodes[i..], substatement, file_scope, block)
        } else {
            self.visit_stmt(n, &nodes[i + 1..], file_scope)
        };
        let last = nodes[i + used - 1];
        (i + used, Some(Span::new(n.start_byte(), last.end_byte())))
    }

    /// Walks one statement; returns how many siblings it used (1, or more
    /// when its body was a directive and the following statement).
    pub(super) fn visit_stmt(
        &mut self,
        node: Node<'s>,
        rest: &[Node<'s>],
        file_scope: bool,
    ) -> usize {
        self.env.learn(node, self.src);
        match node.node_kind() {
            "compound_statement" => {
                self.scopes.push(HashMap::new());
                self.blocks.push(Self::span(node));
                let mut c = node.walk();
                let children: Vec<Node> = node.children(&mut c).collect();
                self.visit_seq(&children, false);
                self.blocks.pop();
                self.pop_scope();
                1
            }
            "function_definition" => {
                self.function(node);
                1
            }
            "declaration" if !file_scope && self.statement_macro_first(node).is_some() => {
                // `BODY` / `a[i] = 0;`, `BODY` a macro whose text is statements: tree-sitter
                // reads a declaration of `a` of type `BODY`; the compiler reads statements.
                if let Some(ty) = self.statement_macro_first(node) {
                    self.macro_refs(self.text(ty), Self::span(ty));
                }
                self.expr_children(node);
                self.declare_from_statement_macro(node);
                1
            }
            "declaration"
                if !file_scope
                    && node
                        .child_by_field_id(fields().ty.get())
                        .is_some_and(|t| t.node_kind() == "macro_type_specifier")
                    && self.statement_macro_expansion(node).is_some() =>
            {
                // `RESET(q)` / `double s = 0;`, `RESET` a function-like macro whose text ends a
                // statement: tree-sitter reads one declaration of type `RESET(q)`.
                if let Some(name) = node
                    .child_by_field_id(fields().ty.get())
                    .and_then(|t| t.child_by_field_id(fields().name.get()))
                {
                    self.macro_refs(self.text(name), Self::span(name));
                }
                self.expr_children(node);
                self.declare_from_statement_macro(node);
                1
            }
            "expression_statement"
                if !file_scope && self.statement_macro_expansion(node).is_some() =>
            {
                // `parse_arg(n, argv[1]);`: a macro whose text declares what the program
                // then uses.
                self.expr_children(node);
                self.declare_from_statement_macro(node);
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
                self.prototype_for_routines(node);
                self.declaration(node, file_scope);
                1
            }
            "for_statement" | "while_statement" | "do_statement" => self.visit_loop(node, rest),
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
            "return_statement" | "break_statement" | "continue_statement" => {
                self.branch_out_of_compute(node);
                if node.node_kind() == "return_statement" {
                    self.expr_children(node);
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
                // A variably modified typedef is not repeated in kernels (see
                // `variable_typedef`): the variables declared through it are.
                let variable = !file_scope
                    && node.node_kind() == "type_definition"
                    && self.variable_typedef(node);
                if !file_scope && !variable {
                    let text = self.text(node).trim_end_matches(';');
                    self.local_type(format!("{text};"), node);
                }
                1
            }
            "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif"
            | "preproc_elifdef" => self.visit_preproc(node, rest, file_scope),
            "preproc_def" | "preproc_function_def" | "preproc_call" => {
                self.warn_misspelt_sentinel(node);
                if let Some((name, def)) = macro_directives::macro_definition(node, self.src) {
                    self.macro_events.push(macro_directives::MacroEvent {
                        at: node.start_byte(),
                        name,
                        def,
                        span: Self::span(node),
                    });
                }
                1
            }
            "preproc_include" | "comment" => 1,
            _ => {
                self.expr_children(node);
                1
            }
        }
    }

    /// `#pragma ACC parallel` (or `Acc`): C's OpenACC sentinel is `acc`, in lower case
    /// (OpenACC 3.3 2.1); the compiler ignores any other pragma, so the directive would be
    /// lost without a word.
    fn warn_misspelt_sentinel(&mut self, node: Node<'s>) {
        if node.node_kind() != "preproc_call" {
            return;
        }
        let (Some(dir), Some(arg)) = (
            node.child_by_field_id(fields().directive.get()),
            node.child_by_field_id(fields().argument.get()),
        ) else {
            return;
        };
        if crate::syntax::directive_name(self.text(dir)) != "pragma" {
            return;
        }
        let text = self.text(arg);
        let word: String = text
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if word.eq_ignore_ascii_case("acc") && word != "acc" {
            let at = arg.start_byte();
            self.diags.push(
                Diagnostic::warning(
                    Span::new(at, at + word.len()),
                    format!("`#pragma {word}` is no OpenACC directive: the sentinel is `acc`, in lower case"),
                )
                .with_note("OpenACC 3.3 2.1; the compiler ignores this pragma"),
            );
        }
    }

    /// The type name of a declaration when it is an object-like macro whose text ends a
    /// statement (`#define BODY s += a[i];`, or `{ … }`) and no typedef: a macro used as a
    /// statement without `;`, which tree-sitter reads as the type of what follows.
    fn statement_macro_first(&self, node: Node<'s>) -> Option<Node<'s>> {
        let ty = node
            .child_by_field_id(fields().ty.get())
            .filter(|t| t.node_kind() == "type_identifier")?;
        let name = self.text(ty);
        let body = self.env.constants.get(name)?.trim_end();
        (!self.env.typedefs.contains_key(name) && (body.ends_with(';') || body.ends_with('}')))
            .then_some(ty)
    }

    /// A `for`, `while` or `do` statement; returns how many siblings it used.
    fn visit_loop(&mut self, node: Node<'s>, rest: &[Node<'s>]) -> usize {
        match node.node_kind() {
            "for_statement" => {
                self.scopes.push(HashMap::new());
                if let Some(init) = node.child_by_field_id(fields().initializer.get()) {
                    if init.node_kind() == "declaration" {
                        self.declaration(init, false);
                    } else {
                        self.expr(init);
                        self.loop_counter(node, init);
                    }
                }
                for f in ["condition", "update"] {
                    if let Some(x) = node.child_by_field_name(f) {
                        self.expr(x);
                    }
                }
                let used = self.loop_body(node, "body", rest);
                self.pop_scope();
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
            _ => unreachable!("visit_loop is called on loops"),
        }
    }

    /// Records a loop inside a compute construct whose initialization assigns a variable
    /// (`for (k = 0; …)`), for [`acc_engine::facts::Unit::loop_counters`].
    fn loop_counter(&mut self, node: Node<'s>, init: Node<'s>) {
        if self.computes.is_empty() || init.node_kind() != "assignment_expression" {
            return;
        }
        let (Some(left), Some(op)) = (
            init.child_by_field_id(fields().left.get()),
            init.child_by_field_name("operator"),
        ) else {
            return;
        };
        if left.node_kind() != "identifier" || self.text(op) != "=" {
            return;
        }
        if let Some(v) = self.lookup(self.text(left)) {
            self.unit.loop_counters.push((Self::span(node), v));
        }
    }

    /// The error for a `return`, or a `break` or `continue` that leaves the innermost compute
    /// construct.
    fn branch_out_of_compute(&mut self, node: Node<'s>) {
        match node.node_kind() {
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
            }
            _ => {}
        }
    }

    /// A preprocessor conditional: the live branch where the walk knows it (with the
    /// statements after `#endif`), otherwise every branch. Returns how many siblings it used.
    fn visit_preproc(&mut self, node: Node<'s>, rest: &[Node<'s>], file_scope: bool) -> usize {
        match node.node_kind() {
            "preproc_if" | "preproc_ifdef" if self.live_branch(node).is_some() => {
                let dead = self.dead_arms(node);
                self.dead_branches.extend(dead);
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
                if matches!(node.node_kind(), "preproc_if" | "preproc_ifdef") {
                    self.undecided_chains.push(Self::span(node));
                }
                let declares = |n: &Node| {
                    matches!(
                        n.node_kind(),
                        "declaration" | "type_definition" | "function_definition"
                    ) || n.node_kind().ends_with("_specifier")
                };
                if file_scope
                    && matches!(node.node_kind(), "preproc_if" | "preproc_ifdef")
                    && (children.iter().any(declares)
                        || alternatives(node).iter().any(|a| {
                            let mut c = a.walk();
                            let arm: Vec<Node> = a.named_children(&mut c).collect();
                            arm.iter().any(declares)
                        }))
                {
                    self.unit.undecided_declarations.push(Self::span(node));
                }
                self.visit_seq(&children, file_scope);
                1
            }
            _ => 1,
        }
    }

    pub(super) fn loop_body(&mut self, node: Node<'s>, field: &str, rest: &[Node<'s>]) -> usize {
        self.loop_depth += 1;
        let used = self.sub_body(node, field, rest);
        self.loop_depth -= 1;
        used
    }

    /// The body of a statement, repairing a directive in its place — also one nested deeper
    /// (`for (…) for (…) #pragma acc loop …`, where the inner `for` lacks the body): the
    /// siblings after the statement are the innermost body, and they belong to every statement
    /// around it. Returns how many of the statement and its siblings it used.
    pub(super) fn sub_body(&mut self, node: Node<'s>, field: &str, rest: &[Node<'s>]) -> usize {
        if missing_body(node, field) {
            let (used, _) = self.visit_unit(rest, true, false, rest);
            return 1 + used;
        }
        match node.child_by_field_name(field) {
            // A `_Pragma` operator (or a macro's directive) as the body: it applies to the
            // statement after it, which the parser left outside.
            Some(b) if self.pragma(b).is_some() => {
                let mut seq = vec![b];
                seq.extend_from_slice(rest);
                let (used, _) = self.visit_unit(&seq, true, false, &seq);
                used.max(1)
            }
            Some(b) if ends_without_body(b) => self.visit_stmt(b, rest, false),
            Some(b) => {
                self.visit_stmt(b, &[], false);
                1
            }
            None => 1,
        }
    }

    /// A function's prototype right after unnamed `routine` directives is the function they
    /// name (OpenACC 3.3 §2.15.1: the directive is followed by a definition or a prototype), not
    /// the next function the file defines.
    fn prototype_for_routines(&mut self, node: Node<'s>) {
        if self.pending_routines.is_empty() {
            return;
        }
        let declarator = node.child_by_field_id(fields().declarator.get());
        if declarator.is_some() && find_descendant(declarator, "function_declarator").is_none() {
            // A variable (`int g = 3;`): the directives name no function, and would otherwise
            // be taken for the next one's, which may have its own.
            for id in self.pending_routines.drain(..) {
                let span = self.unit.construct(id).directive.name_span;
                self.diags.push(
                    Diagnostic::error(
                        span,
                        "`routine` without a name must be followed by a function's declaration \
                         or definition",
                    )
                    .with_secondary(Self::span(node), "not a function")
                    .with_note("OpenACC 3.3 2.15.1"),
                );
            }
            return;
        }
        if find_descendant(declarator, "function_declarator").is_none() {
            return;
        }
        let Some(name) = declarator.and_then(crate::syntax::declared_identifier) else {
            return;
        };
        let name = self.text(name).to_string();
        for id in self.pending_routines.drain(..) {
            self.unit.constructs[id.0 as usize].function = Some((name.clone(), Self::span(node)));
        }
    }

    pub(super) fn function(&mut self, node: Node<'s>) {
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
        self.pop_scope();
    }

    /// No `goto` may jump into or out of a compute construct.
    pub(super) fn check_gotos(&mut self) {
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
}

/// The `#elif`/`#else` arms that follow a `#if` arm, in order.
fn alternatives(arm: Node) -> Vec<Node> {
    let mut out = Vec::new();
    let mut n = arm.child_by_field_id(fields().alternative.get());
    while let Some(a) = n {
        out.push(a);
        n = a.child_by_field_id(fields().alternative.get());
    }
    out
}
