//! Expressions: the references to variables (and macros) an expression makes.
//!
//! It must not declare anything.

use super::*;

impl<'s> Walker<'s> {
    pub(super) fn expr_children(&mut self, node: Node<'s>) {
        let mut c = node.walk();
        let children: Vec<Node> = node.named_children(&mut c).collect();
        for ch in children {
            self.expr(ch);
        }
    }

    /// Records every variable reference in an expression.
    pub(super) fn expr(&mut self, node: Node<'s>) {
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
                if let Some(t) = node.child_by_field_id(fields().ty.get()) {
                    self.variable_typedef_in_kernel(t);
                    if let Some(inner) = t.child_by_field_id(fields().ty.get()) {
                        self.typeof_refs(inner);
                    }
                }
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

    /// The variables a GNU `typeof` names (`__typeof__(out[0]) c = …;`, which tree-sitter reads
    /// as a macro type with a type descriptor): references, as the compiler sees them, so a
    /// kernel names its own copy.
    pub(super) fn typeof_refs(&mut self, ty: Node<'s>) {
        if self.open.is_empty() || ty.node_kind() != "macro_type_specifier" {
            return;
        }
        let named_typeof = ty
            .child_by_field_id(fields().name.get())
            .is_some_and(|n| matches!(self.text(n), "typeof" | "__typeof__" | "__typeof"));
        let Some(inner) = ty.child_by_field_id(fields().ty.get()) else {
            return;
        };
        if !named_typeof {
            return;
        }
        let mut stack = vec![inner];
        while let Some(n) = stack.pop() {
            if matches!(n.node_kind(), "type_identifier" | "identifier") {
                let name = self.text(n);
                if !self.env.typedefs.contains_key(name) {
                    if let Some(var) = self.lookup(name) {
                        self.unit.refs.push(Ref {
                            var,
                            span: Self::span(n),
                            implied: false,
                        });
                    }
                }
                continue;
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
    }
}
