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
}
