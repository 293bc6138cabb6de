//! The canonical form of a `for` header, which partitioned loops need.

use acc_engine::facts::{Cmp, LoopHeader};
use acc_engine::Span;
use tree_sitter::Node;

use crate::syntax::fields;
use crate::syntax::NodeKind;

/// `for (init; cond; update)` in canonical form, or `None`.
pub fn header(node: Node, src: &str) -> Option<LoopHeader> {
    let f = fields();
    let text = |n: Node| src[n.byte_range()].trim().to_string();
    let init = node.child_by_field_id(f.initializer.get())?;
    let sp = |n: Node| Span::new(n.start_byte(), n.end_byte());
    let (var, var_type, lower, lower_span) = match init.node_kind() {
        "declaration" => {
            let ty = init.child_by_field_id(f.ty.get())?;
            // One variable: a second (`int k = 0, m = 1`) would be no iteration's own.
            let mut c = init.walk();
            if init.children_by_field_id(f.declarator, &mut c).count() != 1 {
                return None;
            }
            let d = init.child_by_field_id(f.declarator.get())?;
            if d.node_kind() != "init_declarator" {
                return None;
            }
            // A pointer (`double *p = a`: OpenACC 3.3 2.9 allows C's pointer loop variables).
            let mut name = d.child_by_field_id(f.declarator.get())?;
            let mut stars = String::new();
            while name.node_kind() == "pointer_declarator" {
                stars.push('*');
                name = name.child_by_field_id(f.declarator.get())?;
            }
            if name.node_kind() != "identifier" {
                return None;
            }
            let value = d.child_by_field_id(f.value.get())?;
            // Qualifiers before the type belong to it (`unsigned int` is one
            // sized type; `const` would make the loop impossible anyway).
            let mut type_text = src[init.start_byte()..ty.end_byte()].trim().to_string();
            if !stars.is_empty() {
                type_text = format!("{type_text} {stars}");
            }
            (text(name), Some(type_text), text(value), sp(value))
        }
        "assignment_expression" => {
            let left = init.child_by_field_id(f.left.get())?;
            let op = init.child_by_field_id(f.operator.get())?;
            if left.node_kind() != "identifier" || &src[op.byte_range()] != "=" {
                return None;
            }
            let right = init.child_by_field_id(f.right.get())?;
            (text(left), None, text(right), sp(right))
        }
        _ => return None,
    };
    let cond = node.child_by_field_id(f.condition.get())?;
    if cond.node_kind() != "binary_expression" {
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
    let step = match update.node_kind() {
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
                "=" if right.node_kind() == "binary_expression" => {
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

/// Whether the iterations of the `for` at `node`, with control variable `var`, differ in
/// work: its body holds a loop whose bounds depend on `var`, directly or through a variable
/// the body declares from it. That is the shape of triangular nests (`for (j = i; …)`, as in
/// factorizations and symmetric updates) and of sparse rows (`for (k = row[i]; k < row[i +
/// 1]; …)`), which equal contiguous chunks leave mostly to one core.
///
/// A scheduling hint only: a wrong answer costs balance, never a result.
pub fn uneven_trips(node: Node, src: &str, var: &str) -> bool {
    let f = fields();
    let Some(body) = node.child_by_field_id(f.body.get()) else {
        return false;
    };
    let mut derived: Vec<&str> = vec![var];
    derive(body, src, &mut derived);
    let mut uneven = false;
    walk(body, &mut |n| {
        let bounds: &[_] = match n.node_kind() {
            "for_statement" => &[f.initializer, f.condition],
            "while_statement" | "do_statement" => &[f.condition],
            _ => &[],
        };
        uneven = bounds
            .iter()
            .filter_map(|&field| n.child_by_field_id(field.get()))
            .any(|b| names_any(b, src, &derived));
        if uneven {
            Visit::Stop
        } else {
            Visit::Descend
        }
    });
    uneven
}

/// Adds to `derived` the names that declarations under `root` initialise from one of them
/// (a `for` header's declarations are that loop's own counters, not bounds).
/// Whether the variable `name` that the `for` statement `node` steps may be read after the
/// loop (its final value used): the first statement after it (in its block, then in the
/// blocks around, up to the function) that mentions `name` does not simply assign it first
/// (`name = …;`, `for (name = …; …)` with the right-hand side not naming it, also as the first
/// statement of a block that names it). A loop around it runs the code before it again: its
/// body's first mention must then assign too, and its header must not name the variable.
pub fn used_after(node: Node, src: &str, name: &str) -> bool {
    let mut cur = node;
    loop {
        let mut sibling = cur.next_named_sibling();
        while let Some(s) = sibling {
            // A loop whose passes assign it before reading it reads no value left before it
            // (and, run no time, leaves that value to the statements after it).
            if let Some(writes) = first_access(s, src, name) {
                return !writes;
            }
            sibling = s.next_named_sibling();
        }
        let Some(parent) = cur.parent() else {
            return false;
        };
        match parent.node_kind() {
            "function_definition" | "translation_unit" => return false,
            // A loop around it runs its body again: the value left at the end of one pass is
            // read by the next unless the body's first mention assigns it first, and its
            // header must not read it.
            "for_statement" | "while_statement" | "do_statement" => {
                if !loop_assigns_first(parent, src, name) {
                    return true;
                }
                cur = parent;
            }
            _ => cur = parent,
        }
    }
}

/// Whether every pass of a loop whose body is `body` assigns `name` before it reads it (see
/// [`first_access`]): no pass reads a value from before it.
pub fn assigned_before_read(body: Node, src: &str, name: &str) -> bool {
    names_any(body, src, &[name]) && first_access(body, src, name) != Some(false)
}

/// How statement `s` meets the value `name` holds before it: `Some(true)` when it assigns
/// `name` before anything reads it (`name = e;`, `for (name = e; …)`, with `e` not naming it),
/// `Some(false)` when it may read it, `None` when it reads no value from before and may leave
/// the one there (it does not name `name`; a loop whose passes assign it first, which may run
/// no pass; a block of such statements). A block's first statement that decides, decides.
fn first_access(s: Node, src: &str, name: &str) -> Option<bool> {
    if !names_any(s, src, &[name]) || loop_assigns_first(s, src, name) {
        return None;
    }
    if s.node_kind() == "compound_statement" {
        let mut cursor = s.walk();
        let children: Vec<Node> = s.named_children(&mut cursor).collect();
        return children
            .into_iter()
            .find_map(|c| first_access(c, src, name));
    }
    Some(assigns_first(s, src, name))
}

/// Whether the header of the `for` statement `node` (its initialization, condition or step)
/// names `name`.
pub fn header_names(node: Node, src: &str, name: &str) -> bool {
    let body = node.child_by_field_name("body");
    let mut cursor = node.walk();
    let parts: Vec<Node> = node.named_children(&mut cursor).collect();
    parts
        .into_iter()
        .filter(|c| Some(*c) != body)
        .any(|c| names_any(c, src, &[name]))
}

/// Whether the function around `node` takes the address of `name` anywhere (`&name`): its
/// value may then be read through a pointer where its name is not written.
pub fn address_taken(node: Node, src: &str, name: &str) -> bool {
    let mut function = node;
    while let Some(p) = function.parent() {
        function = p;
        if p.node_kind() == "function_definition" {
            break;
        }
    }
    !walk(function, &mut |x| {
        if x.node_kind() == "pointer_expression"
            && x.child_by_field_name("operator")
                .is_some_and(|o| &src[o.byte_range()] == "&")
        {
            let mut arg = x.child_by_field_name("argument");
            while let Some(a) = arg.filter(|a| a.node_kind() == "parenthesized_expression") {
                arg = a.named_child(0);
            }
            if arg.is_some_and(|a| a.node_kind() == "identifier" && &src[a.byte_range()] == name) {
                return Visit::Stop;
            }
        }
        Visit::Descend
    })
}

/// Whether `s` is a loop whose header does not name `name` and whose body's first mention of
/// it assigns it: no pass reads a value from before the pass.
fn loop_assigns_first(s: Node, src: &str, name: &str) -> bool {
    if !matches!(
        s.node_kind(),
        "for_statement" | "while_statement" | "do_statement"
    ) {
        return false;
    }
    let body = s.child_by_field_name("body");
    let mut cursor = s.walk();
    let header_reads = s
        .named_children(&mut cursor)
        .filter(|c| Some(*c) != body)
        .any(|c| names_any(c, src, &[name]));
    !header_reads && body.is_some_and(|b| first_access(b, src, name) != Some(false))
}

/// Whether statement `s`, which names `name` and is no block, writes it before anything reads
/// it: `name = e;` or `for (name = e; …)`, with `e` not naming it.
fn assigns_first(s: Node, src: &str, name: &str) -> bool {
    let assignment = match s.node_kind() {
        "expression_statement" => s.named_child(0),
        "for_statement" => s.child_by_field_name("initializer"),
        _ => None,
    };
    let Some(a) = assignment.filter(|a| a.node_kind() == "assignment_expression") else {
        return false;
    };
    let plain = a
        .child_by_field_name("operator")
        .is_some_and(|o| &src[o.byte_range()] == "=");
    let (Some(left), Some(right)) = (
        a.child_by_field_name("left"),
        a.child_by_field_name("right"),
    ) else {
        return false;
    };
    plain
        && left.node_kind() == "identifier"
        && &src[left.byte_range()] == name
        && !names_any(right, src, &[name])
}

fn derive<'s>(root: Node, src: &'s str, derived: &mut Vec<&'s str>) {
    let f = fields();
    walk(root, &mut |n| match n.node_kind() {
        "for_statement" => {
            if let Some(b) = n.child_by_field_id(f.body.get()) {
                derive(b, src, derived);
            }
            Visit::Skip
        }
        "init_declarator" => {
            if let (Some(d), Some(v)) = (
                n.child_by_field_id(f.declarator.get()),
                n.child_by_field_id(f.value.get()),
            ) {
                if names_any(v, src, derived) {
                    if let Some(name) = declared_name(d) {
                        derived.push(&src[name.byte_range()]);
                    }
                }
            }
            Visit::Descend
        }
        _ => Visit::Descend,
    });
}

/// What [`walk`] does after visiting a node.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Visit {
    Descend,
    /// Not into this node's children.
    Skip,
    /// Nowhere else.
    Stop,
}

/// Visits `n` and its descendants in source order as `f` says; false when `f` stopped it.
fn walk<'t>(n: Node<'t>, f: &mut dyn FnMut(Node<'t>) -> Visit) -> bool {
    let mut cursor = n.walk();
    loop {
        let visit = if cursor.node().is_named() {
            f(cursor.node())
        } else {
            Visit::Descend
        };
        if visit == Visit::Stop {
            return false;
        }
        if visit == Visit::Descend && cursor.goto_first_child() {
            continue;
        }
        // The next sibling of this node or of the nearest ancestor below `n` that has one.
        loop {
            if cursor.node() == n {
                return true;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return true;
            }
        }
    }
}

/// Whether an identifier under `n` is one of `names`.
fn names_any(n: Node, src: &str, names: &[&str]) -> bool {
    !walk(n, &mut |x| {
        if x.node_kind() == "identifier" && names.contains(&&src[x.byte_range()]) {
            Visit::Stop
        } else {
            Visit::Descend
        }
    })
}

/// The identifier a declarator declares (`x`, `*x`, `x[n]`).
fn declared_name(mut d: Node) -> Option<Node> {
    while d.node_kind() != "identifier" {
        d = d.child_by_field_id(fields().declarator.get())?;
    }
    Some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `check` of the first `for` of `src`.
    fn first_for<T>(src: &str, check: impl Fn(Node, &str) -> T) -> T {
        let trees = crate::syntax::parse(src);
        let mut found = None;
        walk(trees[0].root_node(), &mut |n| {
            if n.node_kind() == "for_statement" {
                found = Some(n);
                return Visit::Stop;
            }
            Visit::Descend
        });
        check(found.expect("a for loop"), src)
    }

    /// `uneven_trips` of the first `for` in `body` (wrapped in a function).
    fn uneven(body: &str) -> bool {
        let src = format!("void f(int n, int *r, double *a) {{ {body} }}");
        first_for(&src, |node, src| {
            let var = header(node, src).expect("a canonical header").var;
            uneven_trips(node, src, &var)
        })
    }

    /// `used_after` of the first `for` in `body` (wrapped in a function).
    /// `used_after` of the first `for (i = …` in `body` (wrapped in a function).
    fn live(body: &str) -> bool {
        let src = format!("int f(int n, double *a) {{ int i, j; {body} }}");
        let trees = crate::syntax::parse(&src);
        let mut found = None;
        walk(trees[0].root_node(), &mut |n| {
            let steps_i = n.node_kind() == "for_statement"
                && n.child_by_field_name("initializer")
                    .is_some_and(|init| src[init.byte_range()].starts_with("i ="));
            if steps_i {
                found = Some(n);
                return Visit::Stop;
            }
            Visit::Descend
        });
        used_after(found.expect("a `for (i = …` loop"), &src, "i")
    }

    #[test]
    fn a_loop_variable_read_after_the_loop_is_live() {
        assert!(live("for (i = 0; i < n; i++) a[i] = 0; return i;"));
        assert!(live("{ for (i = 0; i < n; i++) a[i] = 0; } a[0] = i;"));
        assert!(live(
            "for (i = 0; i < n; i++) a[i] = 0; for (j = 0; j < i; j++) a[j] = 1;"
        ));
        assert!(live("for (i = 0; i < n; i++) a[i] = 0; i = i + 1;"));
        assert!(live(
            "while (n--) { a[i] = 1; for (i = 0; i < n; i++) a[i] = 0; }"
        ));
        assert!(!live(
            "for (i = 0; i < n; i++) a[i] = 0; for (i = 0; i < n; i++) a[i] += 1;"
        ));
        assert!(!live("for (i = 0; i < n; i++) a[i] = 0; i = 7; return i;"));
        assert!(!live("for (i = 0; i < n; i++) a[i] = 0; return 0;"));
        assert!(!live(
            "for (i = 0; i < n; i++) a[i] = 0; { a[0] = 1; for (i = 0; i < n; i++) a[i] += 1; }"
        ));
        assert!(live("for (i = 0; i < n; i++) a[i] = 0; { a[i] = 1; }"));
    }

    #[test]
    fn triangular_and_sparse_nests_are_uneven() {
        assert!(uneven(
            "for (int i = 0; i < n; i++) for (int j = 0; j <= i; j++) a[j] += 1;"
        ));
        assert!(uneven(
            "for (int i = 0; i < n; i++) { for (int j = i; j < n; j++) a[j] += 1; }"
        ));
        assert!(uneven(
            "for (int i = 0; i < n; i++) for (int k = r[i]; k < r[i + 1]; k++) a[k] = 0;"
        ));
        // Through a local derived from the variable, and in a `while` bound.
        assert!(uneven(
            "for (int i = 0; i < n; i++) { const int m = 2 * i; for (int j = 0; j < m; j++) a[j] = 1; }"
        ));
        assert!(uneven(
            "for (int i = 0; i < n; i++) { int j = 0; while (j < i) j++; a[i] = j; }"
        ));
    }

    #[test]
    fn rectangular_nests_are_even() {
        assert!(!uneven("for (int i = 0; i < n; i++) a[i] = 0;"));
        assert!(!uneven(
            "for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) a[i] += j;"
        ));
        // A triangle inside each iteration is the same work for every iteration.
        assert!(!uneven(
            "for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) for (int k = 0; k < j; k++) a[i] += k;"
        ));
        // A local that does not depend on the variable.
        assert!(!uneven(
            "for (int i = 0; i < n; i++) { int m = n / 2; for (int j = 0; j < m; j++) a[i] += j; }"
        ));
    }
}
