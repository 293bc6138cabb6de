//! Which pointers a compute construct assigns before it reads them (`p = base + i;` then
//! `*p`, in every iteration): the value a pointer has when the construct starts is then never
//! used, so nothing needs to find a device copy of what it points to (the runtime otherwise
//! looks the target up at the launch, and warns that a GPU could not use the host address).
//! And which scalars it only reads (`Construct::read_only`): a `kernels` region gets those by
//! value. And which members of structs it names (`Construct::members_used`).
//!
//! It must not decide how a variable reaches a kernel (the engine's plan does, from
//! `Construct::entry_unread`, `read_only` and `members_used`); it reads the statement's tree and the
//! references, and is conservative: anything it does not follow counts as a read of the entry
//! value, and as a possible write.

use super::*;

/// Whether a statement reads the value a variable has before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    /// It does not name the variable.
    Untouched,
    /// It assigns the variable before any use of it, on every path.
    Assigned,
    /// It may read the value (or names the variable in a way not followed).
    Read,
}

impl<'s> Walker<'s> {
    /// Records, for compute construct `id` whose statement is `stmt`, the pointers it assigns
    /// before it reads them.
    pub(super) fn entry_unread(&mut self, id: ConstructId, stmt: Node<'s>) {
        let c = self.unit.construct(id);
        let Some(body) = c.body else {
            return;
        };
        let in_body = |s: Span| body.start <= s.start && s.end <= body.end;
        // Variables a directive inside names (a data clause reads the pointer's value).
        let named_by_directives: Vec<VarId> = self
            .unit
            .constructs
            .iter()
            .filter(|d| in_body(d.pragma_span) || d.pragma_span == c.pragma_span)
            .flat_map(|d| d.clause_vars.iter().flatten().flatten().copied())
            .collect();
        let first = self
            .unit
            .refs
            .partition_point(|r| r.span.start < body.start);
        let refs: Vec<Ref> = self.unit.refs[first..]
            .iter()
            .take_while(|r| r.span.start < body.end)
            .copied()
            .collect();
        // The variables of a shape the statement uses, declared outside it, that no directive
        // in it names, each once.
        let outside_named = |shape: acc_engine::facts::Shape, named_too: bool| {
            let mut vars: Vec<VarId> = refs
                .iter()
                .map(|r| r.var)
                .filter(|v| {
                    let var = self.unit.var(*v);
                    var.shape == shape
                        && !in_body(var.decl_span)
                        && (named_too || !named_by_directives.contains(v))
                })
                .collect();
            vars.sort_by_key(|v| v.0);
            vars.dedup();
            vars
        };
        let outside = |shape| outside_named(shape, false);
        let candidates: Vec<VarId> = outside(acc_engine::facts::Shape::Pointer)
            .into_iter()
            .filter(|v| !self.unit.var(*v).is_global)
            .collect();
        let scalars = outside(acc_engine::facts::Shape::Scalar);
        // A struct that a clause names by a member only (`present(s.x)`) is still copied
        // implicitly, and the members it uses are wanted (`plan::members`).
        let aggregates = outside_named(acc_engine::facts::Shape::Aggregate, true);
        let range = Span::new(stmt.start_byte(), stmt.end_byte());
        let mut unread = Vec::new();
        for v in candidates {
            let spans: Vec<Span> = refs.iter().filter(|r| r.var == v).map(|r| r.span).collect();
            // A use the tree does not show (a macro's, an implied one), or one outside the
            // statement (a repaired body): not followed.
            let followed = refs.iter().filter(|r| r.var == v).all(|r| !r.implied)
                && spans
                    .iter()
                    .all(|s| range.start <= s.start && s.end <= range.end);
            if followed && self.entry(stmt, &spans) != Entry::Read {
                unread.push(v);
            }
        }
        self.unit.constructs[id.0 as usize].entry_unread = unread;
        // The scalars the statement only reads.
        // The statement may be a `loop` directive's line, its loop the next node: the body's
        // uses are found from the root.
        let mut root = stmt;
        while let Some(p) = root.parent() {
            root = p;
        }
        let read_only = scalars
            .into_iter()
            .filter(|&v| {
                refs.iter()
                    .filter(|r| r.var == v)
                    .all(|r| !r.implied && !self.may_write(root, r.span))
            })
            .collect();
        self.unit.constructs[id.0 as usize].read_only = read_only;
        // The members of structs declared outside it that it names (`s.m`), each once.
        let mut members: Vec<(VarId, String)> = Vec::new();
        for v in aggregates {
            for r in refs.iter().filter(|r| r.var == v && !r.implied) {
                let Some(n) = root.descendant_for_byte_range(r.span.start, r.span.end) else {
                    continue;
                };
                let Some(field) = n
                    .parent()
                    .filter(|p| p.node_kind() == "field_expression")
                    .filter(|p| p.child_by_field_name("argument") == Some(n))
                    .filter(|p| {
                        p.child_by_field_name("operator")
                            .is_some_and(|o| o.node_kind() == ".")
                    })
                    .and_then(|p| p.child_by_field_name("field"))
                else {
                    continue;
                };
                let m = (v, self.src[field.byte_range()].to_string());
                if !members.contains(&m) {
                    members.push(m);
                }
            }
        }
        self.unit.constructs[id.0 as usize].members_used = members;
    }

    /// Whether the name at `at` (found from `root`) may be written there: assigned (itself, a member,
    /// an element), incremented or decremented, its address taken, or handed to a
    /// function-like macro (whose replacement may assign it).
    fn may_write(&self, root: Node<'s>, at: Span) -> bool {
        let Some(mut n) = root.descendant_for_byte_range(at.start, at.end) else {
            return true;
        };
        if n.node_kind() != "identifier" {
            return true;
        }
        loop {
            let Some(p) = n.parent() else { return false };
            match p.node_kind() {
                "parenthesized_expression" => {}
                "field_expression" | "subscript_expression"
                    if p.child_by_field_id(fields().argument.get()) == Some(n) => {}
                "assignment_expression" => {
                    return p.child_by_field_id(fields().left.get()) == Some(n);
                }
                "update_expression" => return true,
                "pointer_expression" => {
                    return p
                        .child_by_field_id(fields().operator.get())
                        .is_some_and(|o| self.text(o) == "&");
                }
                "argument_list" => {
                    let callee = p
                        .parent()
                        .and_then(|c| c.child_by_field_id(fields().function.get()));
                    return callee
                        .is_none_or(|f| self.env.function_macros.contains_key(self.text(f)));
                }
                _ => return false,
            }
            n = p;
        }
    }

    /// What `node` does with the variable whose uses are at `uses` (sorted).
    fn entry(&self, node: Node<'s>, uses: &[Span]) -> Entry {
        let names = |n: Node| {
            let k = uses.partition_point(|s| s.start < n.start_byte());
            uses.get(k).is_some_and(|s| s.end <= n.end_byte())
        };
        if !names(node) {
            return Entry::Untouched;
        }
        let field = |name: &str| node.child_by_field_name(name);
        match node.node_kind() {
            "compound_statement" => {
                let mut c = node.walk();
                for child in node.named_children(&mut c) {
                    match self.entry(child, uses) {
                        Entry::Untouched => {}
                        decided => return decided,
                    }
                }
                Entry::Untouched
            }
            "expression_statement" => {
                let assigns = node.named_child(0).is_some_and(|e| {
                    e.node_kind() == "assignment_expression"
                        && e.child_by_field_id(fields().operator.get())
                            .is_some_and(|o| self.text(o) == "=")
                        && e.child_by_field_id(fields().left.get()).is_some_and(|l| {
                            l.node_kind() == "identifier"
                                && uses.iter().any(|s| s.start == l.start_byte())
                        })
                        && e.child_by_field_id(fields().right.get())
                            .is_some_and(|r| !names(r))
                });
                if assigns {
                    Entry::Assigned
                } else {
                    Entry::Read
                }
            }
            // The body runs any number of times: what it assigns may not be assigned after
            // the loop, but a body that assigns before it reads never reads the entry value.
            "for_statement" | "while_statement" => {
                let header_names = ["initializer", "condition", "update"]
                    .iter()
                    .filter_map(|f| field(f))
                    .any(names);
                match field("body").map(|b| self.entry(b, uses)) {
                    _ if header_names => Entry::Read,
                    Some(Entry::Read) => Entry::Read,
                    _ => Entry::Untouched,
                }
            }
            "do_statement" => match field("body").map(|b| self.entry(b, uses)) {
                Some(Entry::Assigned) => Entry::Assigned,
                Some(Entry::Read) => Entry::Read,
                _ if field("condition").is_some_and(names) => Entry::Read,
                _ => Entry::Untouched,
            },
            "if_statement" => {
                if field("condition").is_some_and(names) {
                    return Entry::Read;
                }
                let then = field("consequence").map_or(Entry::Untouched, |b| self.entry(b, uses));
                let other = field("alternative").map_or(Entry::Untouched, |b| self.entry(b, uses));
                match (then, other) {
                    (Entry::Read, _) | (_, Entry::Read) => Entry::Read,
                    (Entry::Assigned, Entry::Assigned) => Entry::Assigned,
                    _ => Entry::Untouched,
                }
            }
            "else_clause" => {
                let mut c = node.walk();
                let inner = node.named_children(&mut c).next();
                inner.map_or(Entry::Untouched, |b| self.entry(b, uses))
            }
            _ => Entry::Read,
        }
    }
}

#[cfg(test)]
mod tests {
    /// The names of the pointers the first compute construct of `body` (in a function with
    /// `double *a, *p, *q`) assigns before reading.
    fn unread(body: &str) -> Vec<String> {
        let src = format!("void f(int n, double *a) {{\n  double *p = a, *q = a;\n{body}\n}}\n");
        let an = crate::analyze_for(&src, Default::default(), None);
        let c = an
            .unit
            .constructs
            .iter()
            .find(|c| c.directive.kind.is_compute())
            .unwrap();
        c.entry_unread
            .iter()
            .map(|v| an.unit.var(*v).name.clone())
            .collect()
    }

    #[test]
    fn an_assignment_on_every_path_before_any_read_counts() {
        let loop_body = "#pragma acc parallel loop copy(a[0:n])\n  for (int i = 0; i < n; i++) { p = a + i; *p += 1; }";
        assert_eq!(unread(loop_body), ["p"]);
        let both_arms = "#pragma acc serial copy(a[0:n])\n  { if (n > 1) p = a; else { p = a + 1; } p[0] = 1; }";
        assert_eq!(unread(both_arms), ["p"]);
        let do_body = "#pragma acc serial copy(a[0:n])\n  do { q = a; } while (q[0] > 1);";
        assert_eq!(unread(do_body), ["q"]);
    }

    #[test]
    fn a_possible_read_of_the_entry_value_does_not() {
        for body in [
            // One arm only.
            "#pragma acc serial copy(a[0:n])\n  { if (n > 1) p = a; p[0] = 1; }",
            // After a loop that may not run.
            "#pragma acc serial copy(a[0:n])\n  { for (int i = 0; i < n; i++) p = a + i; *p = 1; }",
            // Read in its own assignment, or through another name.
            "#pragma acc serial copy(a[0:n])\n  { p = p + 1; *p = 1; }",
            "#pragma acc serial copy(a[0:n])\n  { a[0] = p[0]; p = a; *p = 1; }",
            // Named by a clause of the construct or of one inside it.
            "#pragma acc parallel loop copy(a[0:n]) firstprivate(p)\n  for (int i = 0; i < n; i++) { p = a; *p = 1; }",
            "#pragma acc serial copy(a[0:n])\n  { p = a;\n#pragma acc loop private(p)\n  for (int i = 0; i < n; i++) *p = 1; }",
        ] {
            assert_eq!(unread(body), Vec::<String>::new(), "{body}");
        }
    }

    #[test]
    fn the_struct_members_a_construct_names_are_recorded_once() {
        let src = "struct v { int n; double *x, *y; };\nvoid f(struct v s, struct v *p) {\n#pragma acc parallel loop\n  for (int i = 0; i < s.n; i++) s.x[i] = s . x[i] + p->y[i];\n}\n";
        let an = crate::analyze_for(src, Default::default(), None);
        let c = an
            .unit
            .constructs
            .iter()
            .find(|c| c.directive.kind.is_compute())
            .unwrap();
        let names: Vec<(String, &str)> = c
            .members_used
            .iter()
            .map(|(v, m)| (an.unit.var(*v).name.clone(), m.as_str()))
            .collect();
        assert_eq!(names, [("s".to_string(), "n"), ("s".to_string(), "x")]);
    }
}
