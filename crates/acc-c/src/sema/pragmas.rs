//! `#pragma acc` directives: each parsed and attached to the statement it applies to, its
//! clauses' variables resolved, array parameters named whole widened to their array.
//!
//! It must not decide what a directive means (acc-engine's checks and plans do).

use super::*;

impl<'s> Walker<'s> {
    /// For a parameter declared as an array (`double x[N]`, `double A[N][M]`, `double y[]`):
    /// its declarator as the pointer C makes of it (`(*x)`, `(*A)[M]`), and its first
    /// dimension as written (`None` for `[]`).
    pub(super) fn array_parameter(
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
        // Qualifiers in the brackets (`double x[restrict]`, `[const 8]`) qualify the pointer.
        let mut c = arr.walk();
        let qualifiers: String = arr
            .children(&mut c)
            .filter(|q| q.node_kind() == "type_qualifier")
            .map(|q| format!("{} ", &src[q.byte_range()]))
            .collect();
        let adjusted = format!(
            "{}(*{qualifiers}{}){}",
            &whole[..lo],
            &src[ident.byte_range()],
            &whole[hi..]
        );
        Some((adjusted, extent))
    }

    /// A data clause that names an array parameter whole means its array, of the first
    /// dimension written in the declarator (`copy(x)` with `double x[8]` maps `x[0:8]`, where
    /// C would see only the 8-byte pointer); one without (`double x[]`) must name a section.
    pub(super) fn widen_array_parameters(
        &mut self,
        d: &mut Directive,
        clause_vars: &[Vec<Option<VarId>>],
    ) {
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

    pub(super) fn visit_pragma(
        &mut self,
        nodes: &[Node<'s>],
        substatement: bool,
        file_scope: bool,
        block: &[Node<'s>],
    ) -> usize {
        let node = nodes[0];
        let (pragma_span, base, text) = self.pragma(node).expect("checked by caller");
        let Some(mut d) = self.parse_pragma(node, base, text, file_scope) else {
            return 1;
        };
        let clause_vars = d
            .clauses
            .iter()
            .map(|c| {
                clause_items(&c.args)
                    .iter()
                    .map(|it| {
                        self.lookup(&it.base.name)
                            .or_else(|| self.header_var(&it.base.name))
                            .or_else(|| self.macro_var(&it.base.name))
                    })
                    .collect()
            })
            .collect::<Vec<Vec<Option<VarId>>>>();
        if self.for_runtime {
            self.widen_array_parameters(&mut d, &clause_vars);
        }
        self.sections_past_their_arrays(&d, &clause_vars);
        self.section_bounds_are_integers(&d);
        let consts = self.clause_consts(&d);
        // `cache` names what a loop's body should keep close (OpenACC 3.3 2.10): outside a
        // loop (at the top of a `kernels` block, say) it applies to nothing.
        let loops_around = self.loop_depth - self.computes.last().map_or(0, |c| c.loop_depth);
        if d.kind == DirectiveKind::Cache && loops_around == 0 {
            self.diags.push(
                Diagnostic::warning(d.name_span, "`acc cache` is in no loop, so it has no effect")
                    .with_note("a `cache` directive goes at the top of the loop whose body uses the data (OpenACC 3.3 2.10)"),
            );
        }
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
            entry_unread: Vec::new(),
            read_only: Vec::new(),
            members_used: Vec::new(),
        });
        if kind == DirectiveKind::Routine && !named_routine {
            self.pending_routines.push(id);
        }
        if is_declare && file_scope {
            self.file_scope_declare_clauses(id);
        }
        // Outside every function only `declare` and `routine` may stand: the others are
        // statements, or apply to one (the compiler read the file-scope `{` acc made of
        // `parallel`'s as a syntax error).
        if file_scope && !matches!(kind, DirectiveKind::Declare | DirectiveKind::Routine) {
            self.diags.push(
                Diagnostic::error(
                    self.unit.construct(id).directive.name_span,
                    format!(
                        "`acc {}` must be inside a function: outside one, only `declare` and \
                         `routine` may stand",
                        kind.name()
                    ),
                )
                .with_note(
                    "constructs apply to statements and executable directives are statements \
                     (OpenACC 3.3 2.1), which C has in function bodies only",
                ),
            );
            // Nothing else is said of it: its names are a function's (a directive between a
            // function's parameters and its body), which are not in scope here.
            self.unit.constructs.truncate(id.0 as usize);
            return 1;
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
        let used = self.construct_statement(id, nodes, file_scope, block);
        1 + used
    }

    /// The directive of an `acc` pragma (or `_Pragma("acc …")` operator) at `base`, parsed
    /// (macros in it expanded) and its clauses checked; `None` when it does not parse.
    fn parse_pragma(
        &mut self,
        node: Node<'s>,
        base: usize,
        text: PragmaText,
        file_scope: bool,
    ) -> Option<Directive> {
        let (parsed, diags) = if let PragmaText::Macro(at) = text {
            self.macro_directives_used.insert(at);
            let m = &self.macro_directives[&at];
            directive::parse_directive_mapped(&m.text, &m.map, 0)
        } else if text == PragmaText::Operator {
            let end = self.src[base..]
                .find('"')
                .map_or(self.src.len(), |e| base + e);
            // The pragma's text is macro-replaced as a `#pragma` line's is (C11 6.10.9 makes
            // the operator's destringized text one).
            let contents = &self.src[base..end];
            match directive::destringize(contents).and_then(|(text, in_contents)| {
                let (expanded, in_text) = self.expand_directive_macros(&text)?;
                let map: Vec<usize> = in_text.iter().map(|&k| in_contents[k]).collect();
                Some((expanded, map))
            }) {
                Some((expanded, map)) => directive::parse_directive_mapped(&expanded, &map, base),
                None => directive::parse_pragma_operator(contents, base),
            }
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
        let mut d = parsed?;
        let rules = if self.for_runtime {
            acc_engine::check_clauses::Rules::Acc
        } else {
            acc_engine::check_clauses::Rules::Clacc
        };
        if self.for_runtime {
            self.array_sections_privatized_whole(&mut d);
        }
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
        Some(d)
    }

    /// A section of an array in a `private` or `firstprivate` clause (`loop private(eq[0:MC])`;
    /// OpenACC 3.3 2.5.13-14 allow any subarray there) read as the whole array: each copy is
    /// of the whole array, which holds the section, and the elements outside it mean nothing
    /// in the region. A section of a pointer's target stays one (only a compute construct's
    /// gangs get copies of those).
    fn array_sections_privatized_whole(&self, d: &mut acc_engine::directive::Directive) {
        use acc_engine::directive::{Accessor, ClauseArgs};
        for c in d.clauses.iter_mut().filter(|c| {
            matches!(
                c.kind,
                directive::ClauseKind::Private | directive::ClauseKind::Firstprivate
            )
        }) {
            let ClauseArgs::Vars { items, .. } = &mut c.args else {
                continue;
            };
            for item in items.iter_mut() {
                let sections_only = !item.accessors.is_empty()
                    && item
                        .accessors
                        .iter()
                        .all(|a| matches!(a, Accessor::Section { .. }));
                let array = self
                    .lookup(&item.base.name)
                    .is_some_and(|v| self.unit.var(v).shape == acc_engine::facts::Shape::Array);
                if sections_only && array {
                    item.accessors.clear();
                }
            }
        }
    }

    /// Walks the statement construct `id` applies to (`nodes[1..]`), within it, and records
    /// what the construct needs of it (its body, loops, statements). Returns how many nodes
    /// after the directive it took.
    fn construct_statement(
        &mut self,
        id: ConstructId,
        nodes: &[Node<'s>],
        file_scope: bool,
        block: &[Node<'s>],
    ) -> usize {
        let kind = self.unit.construct(id).directive.kind;
        self.open.push(id);
        if kind.is_compute() {
            self.computes.push(ComputeCtx {
                construct: id,
                loop_depth: self.loop_depth,
                switch_depth: self.switch_depth,
            });
        }
        let skip = if kind.is_loop() {
            self.foreign_pragmas_before_loop(&nodes[1..])
        } else {
            0
        };
        let (used, body) = self.visit_unit(&nodes[1 + skip..], false, file_scope, block);
        let used = used + skip;
        if kind.is_compute() {
            self.computes.pop();
        }
        self.open.pop();
        match body {
            None => self.missing_statement(id, nodes[0]),
            Some(mut body) => {
                // A statement that starts with a macro's directive (`P(acc loop)` with
                // `#define P(x) _Pragma(#x)`) starts where the use does, not at the masked
                // statement the parse saw at its last byte.
                if let Some(start) = self.unit.constructs[id.0 as usize + 1..]
                    .iter()
                    .map(|c| c.pragma_span)
                    .filter(|p| p.start < body.start && body.start < p.end)
                    .map(|p| p.start)
                    .min()
                {
                    body = Span::new(start, body.end);
                }
                self.unit.constructs[id.0 as usize].body = Some(body);
                self.braces_from_macros(id, body);
                let first = nodes[1 + skip..].iter().copied().find(|n| !is_trivia(*n));
                if let Some(decl) = first
                    .filter(|n| kind == DirectiveKind::Atomic && n.node_kind() == "declaration")
                {
                    let name_span = self.unit.construct(id).directive.name_span;
                    self.diags.push(
                        Diagnostic::error(
                            Self::span(decl),
                            "`acc atomic` applies to an expression statement, and a declaration \
                             is not one",
                        )
                        .with_secondary(name_span, "the atomic construct")
                        .with_note(
                            "OpenACC 3.3 2.12: declare the variable before the directive and \
                             assign it in the statement (`t = a[i];` under `atomic read`)",
                        ),
                    );
                }
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
                if let Some(stmt) = first.filter(|_| kind.is_compute()) {
                    self.pending_entry.push((id, stmt));
                }
            }
        }
        used
    }

    /// How many of `nodes` (what follows a loop directive) are trivia and other compilers'
    /// pragmas before a `for` loop (`#pragma omp for` in Cray's hybrid examples, `#pragma GCC
    /// ivdep`): acc applies the directive to the loop and leaves such a pragma out, with a
    /// warning (`Unit::left_out_pragmas`); an unknown pragma is ignored by the C compiler, and
    /// one it knows would apply to acc's generated code, not the loop. 0 when no loop follows
    /// them (the directive's error then names the pragma).
    fn foreign_pragmas_before_loop(&mut self, nodes: &[Node<'s>]) -> usize {
        let foreign = |n: &Node| {
            n.node_kind() == "preproc_call"
                && n.child_by_field_id(fields().directive.get())
                    .is_some_and(|d| {
                        crate::syntax::directive_name(&self.src[d.byte_range()]) == "pragma"
                    })
        };
        let mut k = 0;
        let mut pragmas = Vec::new();
        while let Some(n) = nodes.get(k) {
            if is_trivia(*n) {
            } else if foreign(n) && self.pragma(*n).is_none() {
                pragmas.push(*n);
            } else {
                break;
            }
            k += 1;
        }
        if pragmas.is_empty()
            || nodes
                .get(k)
                .is_none_or(|n| n.node_kind() != "for_statement")
        {
            return 0;
        }
        for p in pragmas {
            let span = Span::new(
                p.start_byte(),
                p.start_byte() + self.src[p.byte_range()].trim_end().len(),
            );
            self.diags.push(
                Diagnostic::warning(
                    span,
                    format!(
                        "`{}` between a loop directive and its loop is left out: the directive \
                         applies to the loop",
                        &self.src[span.start..span.end]
                    ),
                )
                .with_note("put the pragma inside the loop's body to keep it"),
            );
            self.unit.left_out_pragmas.push(span);
        }
        k
    }

    /// The error for construct `id` (its pragma `node`) with no statement after it.
    fn missing_statement(&mut self, id: ConstructId, node: Node<'s>) {
        let kind = self.unit.construct(id).directive.kind;
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

    /// Whether a directive stands for the body of statement `n` (a loop or an `if`, maybe
    /// nested): tree-sitter ends `n` there, and the statement after it is the body.
    pub(super) fn stands_for_its_body(&self, n: Node<'s>) -> bool {
        ends_without_body(n)
            || ["body", "consequence"].iter().any(|f| {
                n.child_by_field_name(f)
                    .is_some_and(|b| self.pragma(b).is_some() || self.stands_for_its_body(b))
            })
    }

    /// The statements of a block, each with the directives in front of it,
    /// and those of them that are declarations.
    pub(super) fn statements(&self, block: Node<'s>) -> (Vec<Span>, Vec<Span>) {
        let mut c = block.walk();
        let children: Vec<Node> = block
            .named_children(&mut c)
            .filter(|n| !is_trivia(*n))
            .collect();
        // A loop or `if` whose body a directive stands for (`for (…)` / `#pragma acc loop` /
        // `for (…) …` without braces: tree-sitter ends the outer `for` at the directive) runs
        // on through the siblings up to the statement that completes it, as the walk reads it.
        let mut out = Vec::new();
        let mut declarations = Vec::new();
        let mut start = None;
        let mut rest = children.into_iter();
        while let Some(n) = rest.next() {
            let s = *start.get_or_insert(n.start_byte());
            if self.pragma(n).is_some() {
                continue;
            }
            let mut end = n;
            while self.stands_for_its_body(end) {
                match rest.find(|m| self.pragma(*m).is_none()) {
                    Some(m) => end = m,
                    None => break,
                }
            }
            out.push(Span::new(s, end.end_byte()));
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

    /// A construct's statement whose braces a macro gives (`#define SWEEP_END }`, Parboil's):
    /// acc reads and rewrites the statement as the file writes it, where the statement would
    /// run on to the macro's brace's partner: an error at the macro, saying so.
    fn braces_from_macros(&mut self, id: ConstructId, body: Span) {
        let text = &self.src[body.start..body.end];
        for word in crate::lex::code_words(text) {
            let name = &text[word.clone()];
            let replacement = self
                .env
                .constants
                .get(name)
                .or_else(|| self.env.function_macros.get(name).map(|(_, body)| body));
            let Some(replacement) = replacement else {
                continue;
            };
            // The replacement's own braces, outside its literals.
            let mut depth = 0i64;
            let rb = replacement.as_bytes();
            let mut k = 0;
            while k < rb.len() {
                match rb[k] {
                    b'"' | b'\'' => k = crate::lex::literal_end(rb, k).unwrap_or(rb.len()),
                    c => {
                        depth += i64::from(c == b'{') - i64::from(c == b'}');
                        k += 1;
                    }
                }
            }
            if depth != 0 {
                let at = Span::new(body.start + word.start, body.start + word.end);
                let kind = self.unit.construct(id).directive.kind.name();
                self.diags.push(
                    Diagnostic::error(
                        at,
                        format!(
                            "`{name}` expands to `{}`, a brace of the `acc {kind}` construct's \
                             statement: acc reads the statement as the file writes it",
                            replacement.trim()
                        ),
                    )
                    .with_note("write the statement's braces out in the file"),
                );
                return;
            }
        }
    }

    /// Integer constant values of the clause arguments.
    /// A warning for each section of an array whose bounds and extent are constants and that
    /// reaches past the array (`copyin(a[0:N*N])` of `float a[N][N]`): the transfer would
    /// read or write memory the array does not have, which the C compiler cannot see.
    /// The variable an object-like macro in a clause's list stands for (`#define ARR buf`,
    /// then `copy(ARR[0:n])`, `reduction(+:SUM)`): OpenACC 3.3 2.1 replaces the macros of a
    /// directive, as C does. The definition in effect here: the file's as the walk met them,
    /// else the headers'. The item keeps its text (the generated C names the macro, which the
    /// compiler replaces as the program's own code would).
    fn macro_var(&mut self, name: &str) -> Option<VarId> {
        let mut name = name.to_string();
        for _ in 0..8 {
            let def = match self.macro_events.iter().rev().find(|e| e.name == name) {
                Some(e) => e.def.clone()?,
                None => self.env.macros.get(&name).cloned()?,
            };
            let body = def.body.trim();
            if def.params.is_some()
                || body.is_empty()
                || !body.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
            {
                return None;
            }
            if let Some(v) = self.lookup(body).or_else(|| self.header_var(body)) {
                return Some(v);
            }
            name = body.to_string();
        }
        None
    }

    /// OpenACC 3.3 2.13: at file scope, `declare` takes `create`, `copyin`, `deviceptr`,
    /// `device_resident` and `link` only. A `copy` or `copyout` there would copy back at no
    /// point of the program (the data stays mapped for its whole run): the host never saw what
    /// the device wrote, on separate memory only.
    fn file_scope_declare_clauses(&mut self, id: ConstructId) {
        use directive::ClauseKind as K;
        let wrong: Vec<(Span, &'static str)> = self
            .unit
            .construct(id)
            .directive
            .clauses
            .iter()
            .filter(|c| c.kind.is_data_clause())
            .filter(|c| {
                !matches!(
                    c.kind,
                    K::Create | K::Copyin | K::Deviceptr | K::DeviceResident | K::Link
                )
            })
            .map(|c| (c.name_span, c.kind.name()))
            .collect();
        for (at, name) in wrong {
            self.diags.push(
                Diagnostic::error(
                    at,
                    format!("`{name}` is not allowed on a `declare` outside a function"),
                )
                .with_note(
                    "OpenACC 3.3 2.13: at file scope, `declare` takes `create`, `copyin`, \
                     `deviceptr`, `device_resident` and `link` (write `update self(...)` where \
                     the host needs the device's values)",
                ),
            );
        }
    }

    /// A section's bounds must be integers (OpenACC 3.3 2.7.1), and its length not negative:
    /// `a[0:2.5]` copied two elements, `a[8:-1]` asked for 2^64 - 8 bytes at run time. What the
    /// front end can tell as the file is compiled: floating constants, negative constant lengths.
    fn section_bounds_are_integers(&mut self, d: &Directive) {
        let floating = |text: &str| {
            let t = text.trim().trim_end_matches(['f', 'F', 'l', 'L']);
            !t.starts_with("0x")
                && !t.starts_with("0X")
                && (t.contains('.') || t.contains(['e', 'E']))
                && t.parse::<f64>().is_ok()
        };
        for c in &d.clauses {
            for item in clause_items(&c.args) {
                for a in &item.accessors {
                    let directive::Accessor::Section { lower, length, .. } = a else {
                        continue;
                    };
                    for bound in lower.iter().chain(length).filter(|e| floating(&e.text)) {
                        self.diags.push(Diagnostic::error(
                            bound.span,
                            format!(
                                "a subarray's bounds are integers (OpenACC 3.3 2.7.1); `{}` is not one",
                                bound.text
                            ),
                        ));
                    }
                    if let Some(length) = length {
                        if consts::eval(&length.text, &self.env).is_some_and(|n| n < 0) {
                            self.diags.push(Diagnostic::error(
                                length.span,
                                format!(
                                    "a subarray's length cannot be negative; `{}` is",
                                    length.text
                                ),
                            ));
                        }
                    }
                }
            }
        }
    }

    fn sections_past_their_arrays(&mut self, d: &Directive, clause_vars: &[Vec<Option<VarId>>]) {
        for (ci, c) in d.clauses.iter().enumerate() {
            for (ii, item) in clause_items(&c.args).iter().enumerate() {
                let Some(var) = clause_vars
                    .get(ci)
                    .and_then(|v| v.get(ii))
                    .copied()
                    .flatten()
                else {
                    continue;
                };
                let v = self.unit.var(var);
                if v.shape != acc_engine::facts::Shape::Array || v.vla {
                    continue;
                }
                let Some(dims) = crate::vla::bracket_groups(&v.decl_text[v.decl_name.end..]) else {
                    continue;
                };
                for (k, a) in item.accessors.iter().enumerate() {
                    let directive::Accessor::Section {
                        lower,
                        length: Some(length),
                        span,
                    } = a
                    else {
                        if matches!(a, directive::Accessor::Index(_)) {
                            continue;
                        }
                        break;
                    };
                    let lower = lower
                        .as_ref()
                        .map_or(Some(0), |e| consts::eval(&e.text, &self.env));
                    let (Some(lower), Some(len), Some(extent)) = (
                        lower,
                        consts::eval(&length.text, &self.env),
                        dims.get(k).and_then(|x| consts::eval(x, &self.env)),
                    ) else {
                        continue;
                    };
                    if lower < 0 || len < 0 || lower.saturating_add(len) > extent {
                        self.diags.push(
                            Diagnostic::warning(
                                *span,
                                format!(
                                    "this section of `{}` runs from element {lower} to {}, past the {extent} \
                                     elements its {} dimension has (`{}`): the transfer \
                                     reaches memory the array does not have",
                                    v.name,
                                    lower.saturating_add(len) - 1,
                                    ordinal(k + 1),
                                    dims[k].trim()
                                ),
                            )
                            .with_note(
                                "a section is `[first:length]`, for each dimension (OpenACC 3.3 \
                                 2.7.1): `a[0:N][0:N]`, or `a` whole",
                            ),
                        );
                    }
                }
            }
        }
    }

    pub(super) fn clause_consts(&self, d: &Directive) -> Vec<(Span, Option<i64>)> {
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
}

/// `first`, `second`, … for a dimension's number.
fn ordinal(n: usize) -> String {
    match n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        n => format!("{n}th"),
    }
}

#[cfg(test)]
mod tests;
