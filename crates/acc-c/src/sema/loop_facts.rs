//! Loop facts: the canonical form of the loops a loop directive or a `kernels` region
//! partitions (control variable, bounds, step), read from the `for` statements.
//!
//! It must not decide how a loop is partitioned.

use super::*;

impl<'s> Walker<'s> {
    /// The associated loop nest of a loop construct, as deep as `collapse`.
    /// The name of the function-like macro a statement starts with, when its replacement is a
    /// `for` loop's header (`#define FOR_EACH(i, n) for (i = 0; i < (n); i++)`).
    fn loop_macro(&self, n: Node<'s>) -> Option<String> {
        let text = self.text(n).trim_start();
        let name: String = text
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let def = self.env.function_macros.get(&name)?;
        def.1.trim_start().starts_with("for").then_some(name)
    }

    pub(super) fn loop_facts(&mut self, id: ConstructId, first: Option<Node<'s>>) {
        let d = &self.unit.construct(id).directive;
        // `collapse(n)`: a constant (OpenACC 3.3 2.9.1), which says how many loops follow.
        let unknown_count = d.clauses.iter().find_map(|c| match &c.args {
            ClauseArgs::Collapse { count, .. }
                if consts::eval(&count.text, &self.env).is_none() =>
            {
                Some(count.clone())
            }
            _ => None,
        });
        if let Some(count) = unknown_count {
            self.diags.push(
                Diagnostic::error(
                    count.span,
                    format!(
                        "`collapse` needs a constant positive integer, which `{}` is not",
                        count.text
                    ),
                )
                .with_note(
                    "OpenACC 3.3 2.9.1: the argument says how many loops the directive \
                     applies to, so it must be known as the program is compiled",
                ),
            );
        }
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
        // A tile's sizes are computed in the kernel: the variables they name are the
        // construct's (implied uses at the loop, whose text names them elsewhere).
        if let Some(loop_node) = first.filter(|n| n.node_kind() == "for_statement") {
            let sizes: Vec<String> = d
                .clauses
                .iter()
                .filter(|c| c.kind == directive::ClauseKind::Tile)
                .flat_map(|c| match &c.args {
                    ClauseArgs::Exprs(sizes) => sizes.iter().map(|e| e.text.clone()).collect(),
                    _ => Vec::new(),
                })
                .collect();
            let at = Span::new(loop_node.start_byte(), loop_node.start_byte() + 3);
            for size in sizes {
                for word in size
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
                {
                    if let Some(var) = self.lookup(word).or_else(|| self.header_var(word)) {
                        self.unit.refs.push(Ref {
                            var,
                            span: at,
                            implied: true,
                        });
                    }
                }
            }
        }
        let Some(mut node) = first.filter(|n| n.node_kind() == "for_statement") else {
            let foreign_pragma = first.filter(|n| {
                n.node_kind() == "preproc_call"
                    && n.child_by_field_id(fields().directive.get())
                        .is_some_and(|d| {
                            crate::syntax::directive_name(&self.src[d.byte_range()]) == "pragma"
                        })
            });
            let note = match first.map(|n| n.node_kind()) {
                _ if foreign_pragma.is_some() => format!(
                    "`{}` stands between the directive and its loop: acc partitions the loop \
                     right after the directive, so put the other pragma inside the loop's body \
                     or leave it out",
                    self.src[foreign_pragma.map_or(0..0, |n| n.byte_range())].trim_end()
                ),
                Some(k) if k.starts_with("preproc_") => "the directive ends a `#if` branch: the \
                    loop after `#endif` is its loop only where acc can tell that the compiler \
                    sees this branch (its condition names macros the preprocessor knows); \
                    otherwise put the loop inside each branch"
                    .to_string(),
                // A macro that expands to the loop's header (`FOR_EACH(i, n) body;`): what the
                // directive applies to must be written as a `for` loop.
                _ if first.and_then(|n| self.loop_macro(n)).is_some() => format!(
                    "`{}` is a macro that expands to a `for` loop: acc reads the loop a \
                     directive partitions as written, so write the `for` out",
                    first.and_then(|n| self.loop_macro(n)).unwrap_or_default()
                ),
                Some(k) => {
                    let what = k.replace('_', " ");
                    let article = if what.starts_with(['a', 'e', 'i', 'o', 'u']) {
                        "an"
                    } else {
                        "a"
                    };
                    format!("{article} {what} comes next instead")
                }
                None => "nothing comes next".to_string(),
            };
            self.diags.push(
                Diagnostic::error(
                    name_span,
                    format!(
                        "`acc {}` must be followed by a `for` loop",
                        self.unit.construct(id).directive.kind.name()
                    ),
                )
                .with_note(note),
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
        // The nest's trip counts must be known before it runs (OpenACC 3.3 2.9.1): an inner
        // loop whose bounds or step name an outer loop's variable (a triangular nest) cannot
        // be collapsed or tiled.
        for (k, inner) in loops.iter().enumerate().skip(1) {
            let Some(h) = &inner.header else { continue };
            let names = |text: &str, var: &str| {
                text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .any(|w| w == var)
            };
            let outer = loops[..k]
                .iter()
                .filter_map(|l| l.header.as_ref())
                .find(|o| {
                    [&h.lower, &h.upper, &h.step]
                        .iter()
                        .any(|t| names(t, &o.var))
                });
            if let Some(o) = outer {
                self.diags.push(
                    Diagnostic::error(
                        inner.span,
                        format!(
                            "the loops `collapse`/`tile` joins must have trip counts that do not \
                             depend on each other (OpenACC 3.3 2.9.1): this loop's bounds use \
                             `{}`, the variable of a loop around it",
                            o.var
                        ),
                    )
                    .with_secondary(name_span, "loop directive here")
                    .with_note(
                        "collapse fewer loops (the outer ones whose bounds are fixed), or make \
                         the nest rectangular and skip the iterations outside it with an `if`",
                    ),
                );
                break;
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
    pub(super) fn kernels_plain_loops(&mut self, id: ConstructId, first: Option<Node<'s>>) {
        let loops: Vec<Node<'s>> = match first {
            // Not one whose body a directive stands for (`for (…)` / `#pragma acc atomic` /
            // the statement): tree-sitter's `for` ends at the directive.
            Some(n) if n.node_kind() == "for_statement" && !self.stands_for_its_body(n) => {
                vec![n]
            }
            Some(n) if n.node_kind() == "compound_statement" => {
                let mut c = n.walk();
                let children: Vec<Node> = n
                    .named_children(&mut c)
                    .filter(|x| !is_trivia(*x))
                    .collect();
                // Not a loop a directive precedes, nor one that stands for the body of the
                // statement before it (`for (…)` / `_Pragma("acc loop")` / `for (…)`), nor one
                // whose own body a directive stands for: tree-sitter's node for that one ends
                // before its body, which its facts would not see.
                let mut open_before = false;
                let mut loops = Vec::new();
                for (i, x) in children.iter().enumerate() {
                    if self.pragma(*x).is_some() {
                        continue;
                    }
                    let open = self.stands_for_its_body(*x);
                    if x.node_kind() == "for_statement"
                        && !open_before
                        && !open
                        && (i == 0 || self.pragma(children[i - 1]).is_none())
                    {
                        loops.push(*x);
                    }
                    open_before = open;
                }
                loops
            }
            _ => Vec::new(),
        };
        for node in loops {
            let mut facts = self.for_facts(node);
            if let (false, Some(h)) = (facts.declared_in_init, &facts.header) {
                let global = facts.control.is_some_and(|v| self.unit.var(v).is_global);
                facts.control_live_after =
                    global || crate::loops::used_after(node, self.src, &h.var);
            }
            let k = self.unit.constructs[id.0 as usize].plain_loops.len();
            self.unit.constructs[id.0 as usize]
                .plain_loops
                .push((Self::span(node), facts));
            self.pending_deps.push((id, DepsAt::Plain(k), node));
        }
    }

    pub(super) fn for_facts(&self, node: Node<'s>) -> LoopFacts {
        let mut facts = LoopFacts {
            span: Self::span(node),
            control: None,
            declared_in_init: false,
            header: crate::loops::header(node, self.src),
            deps: None,
            body_statements: Vec::new(),
            body_declarations: Vec::new(),
            uneven_trips: false,
            control_live_after: false,
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
}
