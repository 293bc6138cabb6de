//! The canonical form of a `for` header, which partitioned loops need.

use acc_engine::facts::{Cmp, LoopHeader};
use acc_engine::Span;
use tree_sitter::Node;

use crate::syntax::fields;

/// `for (init; cond; update)` in canonical form, or `None`.
pub fn header(node: Node, src: &str) -> Option<LoopHeader> {
    let f = fields();
    let text = |n: Node| src[n.byte_range()].trim().to_string();
    let init = node.child_by_field_id(f.initializer.get())?;
    let sp = |n: Node| Span::new(n.start_byte(), n.end_byte());
    let (var, var_type, lower, lower_span) = match init.kind() {
        "declaration" => {
            let ty = init.child_by_field_id(f.ty.get())?;
            let d = init.child_by_field_id(f.declarator.get())?;
            if d.kind() != "init_declarator" {
                return None;
            }
            let name = d.child_by_field_id(f.declarator.get())?;
            if name.kind() != "identifier" {
                return None;
            }
            let value = d.child_by_field_id(f.value.get())?;
            // Qualifiers before the type belong to it (`unsigned int` is one
            // sized type; `const` would make the loop impossible anyway).
            let type_text = src[init.start_byte()..ty.end_byte()].trim().to_string();
            (text(name), Some(type_text), text(value), sp(value))
        }
        "assignment_expression" => {
            let left = init.child_by_field_id(f.left.get())?;
            let op = init.child_by_field_id(f.operator.get())?;
            if left.kind() != "identifier" || &src[op.byte_range()] != "=" {
                return None;
            }
            let right = init.child_by_field_id(f.right.get())?;
            (text(left), None, text(right), sp(right))
        }
        _ => return None,
    };
    let cond = node.child_by_field_id(f.condition.get())?;
    if cond.kind() != "binary_expression" {
        return None;
    }
    let (l, r) = (
        cond.child_by_field_id(f.left.get())?,
        cond.child_by_field_id(f.right.get())?,
    );
    let op = &src[cond.child_by_field_id(f.operator.get())?.byte_range()];
    let (cmp, upper, upper_span) = if text(l) == var {
        (
            match op {
                "<" => Cmp::Lt,
                "<=" => Cmp::Le,
                ">" => Cmp::Gt,
                ">=" => Cmp::Ge,
                "!=" => Cmp::Ne,
                _ => return None,
            },
            text(r),
            sp(r),
        )
    } else if text(r) == var {
        (
            match op {
                ">" => Cmp::Lt,
                ">=" => Cmp::Le,
                "<" => Cmp::Gt,
                "<=" => Cmp::Ge,
                "!=" => Cmp::Ne,
                _ => return None,
            },
            text(l),
            sp(l),
        )
    } else {
        return None;
    };
    let update = node.child_by_field_id(f.update.get())?;
    let mut step_span = None;
    let step = match update.kind() {
        "update_expression" => {
            let arg = update.child_by_field_id(f.argument.get())?;
            if text(arg) != var {
                return None;
            }
            let op = &src[update.child_by_field_id(f.operator.get())?.byte_range()];
            if op == "++" {
                "1".to_string()
            } else {
                "-1".to_string()
            }
        }
        "assignment_expression" => {
            let left = update.child_by_field_id(f.left.get())?;
            if text(left) != var {
                return None;
            }
            let right = update.child_by_field_id(f.right.get())?;
            match &src[update.child_by_field_id(f.operator.get())?.byte_range()] {
                "+=" => {
                    step_span = Some((sp(right), false));
                    format!("({})", text(right))
                }
                "-=" => {
                    step_span = Some((sp(right), true));
                    format!("-({})", text(right))
                }
                "=" if right.kind() == "binary_expression" => {
                    let rl = right.child_by_field_id(f.left.get())?;
                    let rr = right.child_by_field_id(f.right.get())?;
                    let rop = &src[right.child_by_field_id(f.operator.get())?.byte_range()];
                    let (e, neg) = match rop {
                        "+" if text(rl) == var => (rr, false),
                        "+" if text(rr) == var => (rl, false),
                        "-" if text(rl) == var => (rr, true),
                        _ => return None,
                    };
                    step_span = Some((sp(e), neg));
                    format!("{}({})", if neg { "-" } else { "" }, text(e))
                }
                _ => return None,
            }
        }
        _ => return None,
    };
    let body = node.child_by_field_id(f.body.get())?;
    let close = body.prev_sibling()?;
    Some(LoopHeader {
        var,
        var_type,
        lower,
        upper,
        cmp,
        step,
        lower_span,
        upper_span,
        step_span,
        header_span: Span::new(node.start_byte(), close.end_byte()),
        body: Span::new(body.start_byte(), body.end_byte()),
    })
}
