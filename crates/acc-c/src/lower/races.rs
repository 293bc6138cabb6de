//! Warnings about races the program asked for: a scalar that every iteration of an
//! `independent` loop in `kernels` assigns, which the region shares (its implicit data clause
//! is `copy`) and no clause of the loop makes private or a reduction. OpenACC 3.3 2.9.9 makes
//! that the program's promise to keep; running the loop in parallel as promised, the last
//! writer wins, at random (the training materials' `error = fmax(error, …)` in a `kernels
//! loop independent` without `reduction(max:error)` is the common case). And the mirror case
//! in `parallel` and `serial`: a scalar with no data clause is `firstprivate` there (OpenACC
//! 3.3 2.5.1, 2.5.2), so what the region assigns to it never reaches the host, which reads it
//! after the construct (the same `error = fmax(error, …)` in a `parallel loop`: 0 comes back).
//! And a scratch array the loop shares whose same elements every iteration writes (`tmp[j]`
//! for the inner `j`, without `private(tmp)`, which nvc's documentation asks for too).
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
                // An `atomic` update or capture is the program's way of sharing it.
                let atomics: Vec<Span> = c
                    .body
                    .map(|b| self.atomics_in(b).map(|(_, s)| s).collect())
                    .unwrap_or_default();
                let mut named: Vec<VarId> = Vec::new();
                for &(v, at) in &deps.scalar_writes {
                    // Private to an inner loop where it is written (`private(t)` on the
                    // vector loop inside): each iteration has its own there.
                    if own.contains(&v)
                        || atomics.iter().any(|s| s.contains(at))
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

    /// An array declared outside a partitioned loop, named by no `private` clause, that every
    /// iteration writes at the same elements: subscripts made of the counters of the loops
    /// inside it and of names the loop does not change (`tmp[j] = …` in an inner `for (j …)`,
    /// `buf[0] = …`). The iterations run in parallel share it and race (OpenACC 3.3 2.9.9,
    /// 2.6: only `private` gives each its own); on the CPU devices a chunk of iterations runs
    /// on one thread, which often hides the race a GPU shows. Not writes under `atomic`.
    pub(super) fn warn_shared_scratch_arrays(&mut self) {
        use acc_engine::facts::Shape;
        let mut warnings = Vec::new();
        for plan in self.plans {
            let ConstructPlan::Kernel(k) = plan else {
                continue;
            };
            let mut warned: Vec<VarId> = Vec::new();
            for l in k.loops.iter().filter(|l| l.partition.is_parallelized()) {
                let c = self.unit.construct(l.construct);
                let (Some(body), Some(facts)) = (c.body, c.loops.first()) else {
                    continue;
                };
                let (Some(deps), Some(header)) = (&facts.deps, &facts.header) else {
                    continue;
                };
                let controls: Vec<&str> = c
                    .loops
                    .iter()
                    .filter_map(|f| f.header.as_ref().map(|h| h.var.as_str()))
                    .collect();
                let declared: Vec<&str> = self
                    .unit
                    .vars
                    .iter()
                    .filter(|v| body.contains(v.decl_span))
                    .map(|v| v.name.as_str())
                    .collect();
                // The counters of the sequential loops inside (not the construct's own,
                // collapsed ones) whose bounds are the same in every iteration: so are their
                // values (`k` of `for (k = jb; k < jb + BS; k++)` in the loop over `jb` is not).
                let own: Vec<Span> = c.loops.iter().map(|f| f.span).collect();
                let varying: Vec<&str> = controls.iter().chain(&declared).copied().collect();
                let counters = self.inner_loop_counters(body, &own, &varying);
                // Names whose value is the iteration's: the body's own declarations.
                let locals: Vec<&str> = declared
                    .iter()
                    .copied()
                    .filter(|n| !counters.iter().any(|c| c == n))
                    .collect();
                let changed: Vec<&str> = deps
                    .scalar_writes
                    .iter()
                    .map(|w| self.unit.var(w.0).name.as_str())
                    .collect();
                let atomics: Vec<Span> = self.atomics_in(body).map(|(_, s)| s).collect();
                let repeated = |subscript: &str| {
                    let words: Vec<&str> = subscript
                        .split(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
                        .filter(|w| w.chars().next().is_some_and(|ch| !ch.is_ascii_digit()))
                        .collect();
                    words.iter().all(|w| {
                        *w != header.var
                            && !controls.contains(w)
                            && !locals.contains(w)
                            && (counters.iter().any(|c| c == w) || !changed.contains(w))
                    })
                };
                for a in deps.accesses.iter().filter(|a| a.write) {
                    let var = self.unit.var(a.var);
                    let scratch = matches!(var.shape, Shape::Array | Shape::Pointer)
                        && !body.contains(var.decl_span)
                        && !warned.contains(&a.var)
                        && !k.private.contains(&a.var)
                        && !k.reductions.iter().any(|r| r.var == a.var)
                        && !loop_private_at(self.unit, k, a.var, a.span)
                        && !l.private.contains(&a.var)
                        && !atomics.iter().any(|s| s.contains(a.span))
                        && !self.conditional_within(a.span, body)
                        && !self.named_private_by_construct(k.construct, a.var)
                        && !a.subscripts.is_empty()
                        && a.subscripts.iter().all(|(text, _)| repeated(text));
                    if !scratch {
                        continue;
                    }
                    warned.push(a.var);
                    let name = &var.name;
                    let element = &self.src[a.span.range()];
                    // An element every iteration accumulates into (`c[i] += a[i][j]` in the
                    // vector loop over `j`) wants the sum of all, which `private` would lose.
                    let note = match accumulation(self.src, a.span) {
                        Some(op) => format!(
                            "accumulate into a scalar declared just before the loop, `t`, with \
                             `reduction({op}:t)` on the loop, and store `t` in `{element}` after \
                             it (each iteration's own copy, as `private` gives, would lose the \
                             other iterations' part)"
                        ),
                        None => format!(
                            "add `private({name})` to the loop to give each iteration its own \
                             (a section, `private({name}[0:n])`, for a pointer)"
                        ),
                    };
                    warnings.push(
                        Diagnostic::warning(
                            a.span,
                            format!(
                                "every iteration of this loop writes `{element}`, elements of \
                                 `{name}` the other iterations write too: the loop shares \
                                 `{name}`, so run in parallel its iterations race"
                            ),
                        )
                        .with_secondary(c.directive.name_span, "the loop")
                        .with_note(note),
                    );
                }
            }
        }
        self.diags.extend(warnings);
    }

    /// The names the `for` loops inside `body` count with (declared in their header or
    /// assigned there), but those of the loops at `own` (the construct's).
    fn inner_loop_counters(&self, body: Span, own: &[Span], varying: &[&str]) -> Vec<String> {
        let mut names = Vec::new();
        let Some(root) = self.node_at(body) else {
            return names;
        };
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            let mut cursor = n.walk();
            stack.extend(n.named_children(&mut cursor));
            let at = Span::new(n.start_byte(), n.end_byte());
            if n.node_kind() != "for_statement" || own.contains(&at) || !body.contains(at) {
                continue;
            }
            let Some(init) = n.child_by_field_name("initializer") else {
                continue;
            };
            let target = match init.node_kind() {
                "declaration" => init
                    .child_by_field_name("declarator")
                    .and_then(|d| d.child_by_field_name("declarator").or(Some(d))),
                "assignment_expression" => init.child_by_field_name("left"),
                _ => None,
            };
            let Some(name) = target
                .filter(|t| t.node_kind() == "identifier")
                .map(|t| &self.src[t.byte_range()])
            else {
                continue;
            };
            let bounds_vary = [Some(init), n.child_by_field_name("condition")]
                .into_iter()
                .flatten()
                .any(|b| {
                    let text = &self.src[b.byte_range()];
                    crate::lex::code_words(text)
                        .map(|w| &text[w])
                        .any(|w| w != name && varying.contains(&w))
                });
            if !bounds_vary {
                names.push(name.to_string());
            }
        }
        names
    }

    /// Whether the code at `at` runs only when a condition inside `body` holds (`if`,
    /// `switch`, `?:`, `&&`/`||`): perhaps in one iteration only (`if (i == 0) …`).
    fn conditional_within(&self, at: Span, body: Span) -> bool {
        let mut n = self.node_at(at);
        while let Some(x) = n {
            let here = Span::new(x.start_byte(), x.end_byte());
            if !body.contains(here) || here == body {
                return false;
            }
            if matches!(
                x.node_kind(),
                "if_statement" | "switch_statement" | "conditional_expression"
            ) {
                return true;
            }
            n = x.parent();
        }
        false
    }

    /// Whether a `private` or `firstprivate` clause of compute construct `id` names `var`
    /// (each gang its own copy, a section of it included).
    fn named_private_by_construct(&self, id: ConstructId, var: VarId) -> bool {
        let c = self.unit.construct(id);
        c.directive.clauses.iter().enumerate().any(|(i, clause)| {
            matches!(clause.kind, ClauseKind::Private | ClauseKind::Firstprivate)
                && c.clause_vars
                    .get(i)
                    .is_some_and(|vs| vs.contains(&Some(var)))
        })
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

/// The reduction operator of the statement that writes the element at `at`, when it
/// accumulates into it: `e += x` and `e -= x` (`+`), `e *= x`, `e &= x`, `e |= x`, `e ^= x`,
/// `e++`, `++e`, `e--`, `--e`, and `e = e op x`.
fn accumulation(src: &str, at: Span) -> Option<char> {
    let element = &src[at.range()];
    let before = src[..at.start].trim_end();
    if before.ends_with("++") || before.ends_with("--") {
        return Some('+');
    }
    let after = src[at.end..].trim_start();
    let compound = [
        ("+=", '+'),
        ("-=", '+'),
        ("*=", '*'),
        ("&=", '&'),
        ("|=", '|'),
        ("^=", '^'),
        ("++", '+'),
        ("--", '+'),
    ];
    if let Some(&(_, op)) = compound.iter().find(|(t, _)| after.starts_with(t)) {
        return Some(op);
    }
    let value = after
        .strip_prefix('=')
        .filter(|v| !v.starts_with('='))?
        .trim_start();
    let rest = value.strip_prefix(element)?.trim_start();
    ['+', '-', '*', '&', '|', '^']
        .into_iter()
        .find(|&op| rest.starts_with(op) && !rest[1..].starts_with(['=', op]))
        .map(|op| if op == '-' { '+' } else { op })
}

#[cfg(test)]
mod tests {
    use crate::lower::lower_test_file;

    /// The accesses warned about as a scratch array the loop's iterations share.
    fn warned(body: &str) -> Vec<String> {
        let src = format!(
            "void f(int n, double *restrict out, int *restrict hist) {{\n  double tmp[16], buf[4];\n  int j;\n{body}\n}}\n"
        );
        let (_, diags) = lower_test_file(&src);
        diags
            .iter()
            .filter(|d| d.message.contains("the other iterations write too"))
            .map(|d| src[d.span.range()].to_string())
            .collect()
    }

    /// Every iteration writing the same elements of an array the loop shares (`tmp[j]` for the
    /// inner `j`, `buf[0]`) is warned about; not with `private`, not an array the body
    /// declares, not a write only one iteration makes (`if (i == 0)`), not under `atomic`,
    /// not an element the iteration computes its index of.
    #[test]
    fn scratch_arrays_every_iteration_writes_are_warned_about() {
        let lp = |clauses: &str, body: &str| {
            format!("#pragma acc parallel loop copyout(out[0:n]) {clauses}\n  for (int i = 0; i < n; i++) {{ {body} }}")
        };
        let scratch = "for (j = 0; j < 16; j++) tmp[j] = i + j; out[i] = tmp[3];";
        assert_eq!(warned(&lp("", scratch)), ["tmp[j]"]);
        let c99 = "for (int k = 0; k < 16; k++) tmp[k] = i; buf[0] = 1; out[i] = tmp[1];";
        assert_eq!(warned(&lp("", c99)), ["tmp[k]", "buf[0]"]);
        assert!(warned(&lp("private(tmp)", scratch)).is_empty());
        assert!(warned(&lp(
            "",
            "double t[4]; for (j = 0; j < 4; j++) t[j] = i; out[i] = t[0];"
        ))
        .is_empty());
        assert!(warned(&lp("", "if (i == 0) buf[0] = 1; out[i] = i;")).is_empty());
        assert!(warned(&lp(
            "",
            "#pragma acc atomic update\n hist[0]++; out[i] = i;"
        ))
        .is_empty());
        assert!(warned(&lp("", "int c = 2 * i; out[c / 2] = i;")).is_empty());
        // A strip of the iteration's own: the inner loop's bounds follow `i`.
        assert!(warned(&lp(
            "",
            "for (j = 4 * i; j < 4 * i + 4; j++) hist[j] = j; out[i] = i;"
        ))
        .is_empty());
        assert!(warned(&lp(
            "",
            "int lo = 4 * i; for (int k = lo; k < lo + 4; k++) hist[k] = k; out[i] = i;"
        ))
        .is_empty());
    }

    /// An element every iteration accumulates into gets the reduction's advice, not
    /// `private`'s (which would lose the other iterations' part); a plain store gets
    /// `private`'s.
    #[test]
    fn accumulations_are_advised_a_reduction() {
        let note = |body: &str| {
            let src = format!(
                "void f(int n, double *restrict a, double *restrict c) {{\n#pragma acc parallel loop gang copyin(a[0:n*n]) copyout(c[0:n])\n  for (int i = 0; i < n; i++) {{\n    c[i] = 0;\n#pragma acc loop vector\n    for (int j = 0; j < n; j++) {body}\n  }}\n}}\n"
            );
            let (_, diags) = lower_test_file(&src);
            diags
                .iter()
                .filter(|d| d.message.contains("the other iterations write too"))
                .flat_map(|d| d.notes.clone())
                .collect::<Vec<String>>()
                .join("\n")
        };
        for (body, op) in [
            ("c[i] += a[i * n + j];", "+"),
            ("c[i] -= a[i * n + j];", "+"),
            ("c[i] = c[i] * a[i * n + j];", "*"),
            ("c[i]++;", "+"),
        ] {
            let said = note(body);
            assert!(
                said.contains(&format!("`reduction({op}:t)`")),
                "{body}: {said}"
            );
        }
        let store = note("c[i] = a[i * n + j];");
        assert!(store.contains("add `private(c)`"), "{store}");
    }
}
