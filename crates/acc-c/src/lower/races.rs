//! Warnings about races the program asked for: a scalar that every iteration of an
//! `independent` loop in `kernels` assigns, which the region shares (its implicit data clause
//! is `copy`) and no clause of the loop makes private or a reduction. OpenACC 3.3 2.9.9 makes
//! that the program's promise to keep; running the loop in parallel as promised, the last
//! writer wins, at random (the training materials' `error = fmax(error, …)` in a `kernels
//! loop independent` without `reduction(max:error)` is the common case). And the mirror case
//! in `parallel` and `serial`: a scalar with no data clause is `firstprivate` there (OpenACC
//! 3.3 2.5.1, 2.5.2), so what the region assigns to it never reaches the host, which reads it
//! after the construct (the same `error = fmax(error, …)` in a `parallel loop`: 0 comes back).
//!
//! It must not change the plan: it only reads it.

use super::*;

impl Lowerer<'_> {
    pub(super) fn warn_shared_scalar_writes(&mut self) {
        let mut warnings = Vec::new();
        for plan in self.plans {
            let ConstructPlan::Kernel(k) = plan else {
                continue;
            };
            if k.kind != EffKind::Kernels {
                continue;
            }
            // An assignment inside nested `independent` loops is reported once, for the first
            // loop in the text that it races in.
            let mut warned: Vec<(VarId, Span)> = Vec::new();
            let mut loops: Vec<&LoopPlan> = k
                .loops
                .iter()
                .filter(|l| l.partition.is_parallelized())
                .collect();
            loops.sort_by_key(|l| self.unit.construct(l.construct).pragma_span.start);
            for l in loops {
                let c = self.unit.construct(l.construct);
                if c.directive
                    .clauses_of(ClauseKind::Independent)
                    .next()
                    .is_none()
                {
                    continue;
                }
                let Some(deps) = c.loops.first().and_then(|f| f.deps.as_ref()) else {
                    continue;
                };
                let mut own: Vec<VarId> = l.private.clone();
                for (ci, clause) in c.directive.clauses.iter().enumerate() {
                    if clause.kind == ClauseKind::Reduction {
                        own.extend(c.clause_vars.get(ci).into_iter().flatten().flatten());
                    }
                }
                if let Some(body) = c.body {
                    own.extend(self.unit.nested_counters(body));
                }
                own.extend(&deps.iteration_locals);
                own.extend(&k.private);
                own.extend(
                    k.params
                        .iter()
                        .filter(|p| p.pass == acc_engine::plan::Pass::Value)
                        .map(|p| p.var),
                );
                let mut named: Vec<VarId> = Vec::new();
                for &(v, at) in &deps.scalar_writes {
                    // Private to an inner loop where it is written (`private(t)` on the
                    // vector loop inside): each iteration has its own there.
                    if own.contains(&v)
                        || named.contains(&v)
                        || warned.contains(&(v, at))
                        || loop_private_at(self.unit, k, v, at)
                    {
                        continue;
                    }
                    named.push(v);
                    warned.push((v, at));
                    let name = &self.unit.var(v).name;
                    warnings.push(
                        Diagnostic::warning(
                            at,
                            format!(
                                "every iteration of this `independent` loop assigns `{name}`, \
                                 which the `kernels` region shares: run in parallel, as the \
                                 clause allows, the iterations race and one of them wins"
                            ),
                        )
                        .with_secondary(c.directive.name_span, "the loop")
                        .with_note(format!(
                            "add `reduction(op:{name})` (`max` for `{name} = fmax({name}, …)`) \
                             or `private({name})` to the loop, as the computation needs"
                        )),
                    );
                }
            }
        }
        self.diags.extend(warnings);
    }

    /// A scalar that a `parallel` or `serial` construct gets as an implicit `firstprivate`,
    /// assigns, and that the host reads after the construct: the assignment is lost.
    pub(super) fn warn_lost_firstprivate_writes(&mut self) {
        let mut warnings = Vec::new();
        for (ci, plan) in self.plans.iter().enumerate() {
            let ConstructPlan::Kernel(k) = plan else {
                continue;
            };
            if !matches!(k.kind, EffKind::Parallel | EffKind::Serial) {
                continue;
            }
            let c = &self.unit.constructs[ci];
            let Some(body) = c.body else { continue };
            let Some(function) = self.enclosing_function(c.pragma_span) else {
                continue;
            };
            let explicit = |v: VarId| {
                c.directive.clauses.iter().enumerate().any(|(i, clause)| {
                    clause.kind == ClauseKind::Firstprivate
                        && c.clause_vars.get(i).is_some_and(|vs| vs.contains(&Some(v)))
                })
            };
            for p in k.params.iter().filter(|p| p.pass == Pass::Value) {
                let var = self.unit.var(p.var);
                // A loop construct's control variable is private to it (OpenACC 3.3 2.6.1),
                // not this: a host that reads it after the loop reads its own copy whatever
                // clause the construct has.
                let controls = self.unit.constructs.iter().any(|l| {
                    (l.pragma_span == c.pragma_span || body.contains(l.pragma_span))
                        && l.loops
                            .iter()
                            .any(|f| f.header.as_ref().is_some_and(|h| h.var == var.name))
                });
                if var.shape != acc_engine::facts::Shape::Scalar || explicit(p.var) || controls {
                    continue;
                }
                let Some(written) = self.unit.refs_in(body).iter().find(|r| {
                    r.var == p.var
                        && !r.implied
                        && !loop_private_at(self.unit, k, p.var, r.span)
                        && self.writes_at(r.span)
                }) else {
                    continue;
                };
                // The host's next use of it, in the same function: a read means it expected
                // the region's value.
                // None after it: a loop around the construct tests it before the construct
                // runs again (`while (!done) { #pragma acc parallel loop … done = 1; }`).
                let Some(read) = self
                    .next_use(&var.name, Span::new(body.end, function.end))
                    .or_else(|| self.loop_test_use(&var.name, c.pragma_span, function))
                else {
                    continue;
                };
                if self.writes_at(read) {
                    continue;
                }
                let name = &var.name;
                warnings.push(
                    Diagnostic::warning(
                        written.span,
                        format!(
                            "`{name}` is firstprivate in this `{}` construct (a scalar with no \
                             data clause, OpenACC 3.3 2.5.1): what the region assigns to it \
                             does not reach the host, which reads it after the construct",
                            c.directive.kind.name()
                        ),
                    )
                    .with_secondary(read, "read here")
                    .with_note(if k.loops.is_empty() {
                        format!("add `copy({name})` to the construct")
                    } else {
                        format!(
                            "add `reduction(op:{name})` to the loop if its iterations combine \
                             into `{name}` (`max` for `{name} = fmax({name}, …)`), or \
                             `copy({name})` to the construct"
                        )
                    }),
                );
            }
        }
        self.diags.extend(warnings);
    }

    /// A use of `name` in the test (or `for` update) of a loop of the host around `at`, within
    /// `function`: what the host reads when the loop goes round again.
    fn loop_test_use(&self, name: &str, at: Span, function: Span) -> Option<Span> {
        let mut n = self.node_at(at)?;
        while let Some(p) = n.parent() {
            n = p;
            if n.start_byte() < function.start {
                return None;
            }
            if !matches!(
                n.node_kind(),
                "for_statement" | "while_statement" | "do_statement"
            ) {
                continue;
            }
            for field in ["condition", "update"] {
                if let Some(test) = n.child_by_field_name(field) {
                    let span = Span::new(test.start_byte(), test.end_byte());
                    if let Some(read) = self.next_use(name, span) {
                        return Some(read);
                    }
                }
            }
        }
        None
    }

    /// The first use of the name `name` in `span` (host code, which the analysis does not
    /// record): `None` when there is none, or when it declares a new variable of that name.
    fn next_use(&self, name: &str, span: Span) -> Option<Span> {
        fn first<'t>(
            n: tree_sitter::Node<'t>,
            src: &str,
            name: &str,
            span: Span,
        ) -> Option<tree_sitter::Node<'t>> {
            // `sizeof x` does not read `x`.
            if n.end_byte() <= span.start
                || n.start_byte() >= span.end
                || matches!(n.node_kind(), "sizeof_expression" | "alignof_expression")
            {
                return None;
            }
            if n.node_kind() == "identifier" && &src[n.byte_range()] == name {
                return Some(n);
            }
            let mut c = n.walk();
            let children: Vec<tree_sitter::Node<'t>> = n.children(&mut c).collect();
            children
                .into_iter()
                .find_map(|ch| first(ch, src, name, span))
        }
        let tree = self
            .trees
            .iter()
            .find(|t| t.root_node().byte_range().contains(&span.start))?;
        let n = first(tree.root_node(), self.src, name, span)?;
        let declares = n.parent().is_some_and(|p| {
            matches!(
                p.node_kind(),
                "init_declarator" | "declaration" | "array_declarator" | "pointer_declarator"
            )
        });
        (!declares).then(|| Span::new(n.start_byte(), n.end_byte()))
    }
}
