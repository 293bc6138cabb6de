//! A routine's parameters as CUDA C++ can declare them (the module's text of a function or
//! prototype; the host's C keeps the user's spelling).
//!
//! C adjusts an array parameter to a pointer: the extent nearest the name is ignored
//! (`double a[n]` is `double *a`), and C++ refuses it where it names another parameter, so it
//! goes. The inner extents are the pointee's: `double a[n][m]` points to rows of `m`. Where
//! one names a parameter, C has a variable-length array type, which C++ lacks; the parameter
//! becomes the prelude's `__acc_vla_arg<T>` (any pointer, or a kernel's `__acc_vla`, converts
//! to it) and the body declares the array under the parameter's name as the prelude's
//! `__acc_vla<T, R>` from the extents, so the body's `a[i][j]` reads as written.

use crate::syntax::NodeKind;
use std::ops::Range;
use tree_sitter::Node;

/// The text of a function (or prototype) `n` with its parameters as CUDA declares them.
pub(super) fn device_parameters(n: Node, src: &str) -> String {
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    let mut arrays = String::new();
    let defined = n.node_kind() == "function_definition";
    if let Some(list) = parameter_list(n) {
        let names = parameter_names(list, src);
        let mut c = list.walk();
        for p in list.named_children(&mut c) {
            if p.node_kind() == "parameter_declaration" {
                parameter(p, src, &names, defined, &mut edits, &mut arrays);
            }
        }
    }
    if let Some(body) = n.child_by_field_name("body") {
        void_pointer_conversions_cast(n, body, src, &mut edits);
        if !arrays.is_empty() {
            let open = body.start_byte() + 1;
            edits.push((open..open, arrays));
        }
    }
    let mut text = src[n.byte_range()].to_string();
    edits.sort_by_key(|(r, _)| r.start);
    for (r, with) in edits.iter().rev() {
        text.replace_range(r.start - n.start_byte()..r.end - n.start_byte(), with);
    }
    text
}

/// Each pointer a declaration in `body` initializes (`const double *d = base;` with `base` a
/// `const void *`, `char *s = "…"`), and each one `body` assigns by name (`p = base;`), gets
/// its value cast to its type: C converts from `void *` implicitly, the GPU's C++ only by a
/// cast (NVRTC refuses the routine otherwise). The cast names the variable's own type
/// (`decltype`), which C++ puts in scope before the initializer, and which is the type of
/// whatever the name means where it is assigned (a value of another pointer type the host
/// compiler already checked; one of the same type it leaves as it is). The names assigned are
/// those `scope` (the function, its parameters included, or the kernel's body) declares as
/// pointers: a global's assignment inside a kernel is rare enough to leave alone.
fn void_pointer_conversions_cast(
    scope: Node,
    body: Node,
    src: &str,
    edits: &mut Vec<(Range<usize>, String)>,
) {
    let pointers = pointer_names(scope, src);
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        if n.node_kind() == "init_declarator" {
            let (Some(d), Some(v)) = (
                n.child_by_field_name("declarator"),
                n.child_by_field_name("value"),
            ) else {
                continue;
            };
            if d.node_kind() == "pointer_declarator" && v.node_kind() != "initializer_list" {
                if let (_, Some(id)) = crate::syntax::derived(d) {
                    edits.push((
                        v.byte_range(),
                        cast_to_type_of(&src[id.byte_range()], v, src),
                    ));
                }
            }
            stack.push(v);
            continue;
        }
        if n.node_kind() == "assignment_expression" {
            let assigned = n
                .child_by_field_name("left")
                .filter(|l| l.node_kind() == "identifier")
                .map(|l| &src[l.byte_range()]);
            let plain = n
                .child_by_field_name("operator")
                .is_some_and(|o| &src[o.byte_range()] == "=");
            if let (Some(name), true, Some(v)) = (assigned, plain, n.child_by_field_name("right")) {
                if pointers.contains(name) {
                    edits.push((v.byte_range(), cast_to_type_of(name, v, src)));
                    stack.push(v);
                    continue;
                }
            }
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
}

/// `value` cast to the type of the variable `name`.
fn cast_to_type_of(name: &str, value: Node, src: &str) -> String {
    format!("(decltype({name}))({})", &src[value.byte_range()])
}

/// The names `scope` declares as pointers (the declarator nearest the name is `*`).
fn pointer_names<'s>(scope: Node, src: &'s str) -> std::collections::HashSet<&'s str> {
    let mut names = std::collections::HashSet::new();
    let mut stack = vec![scope];
    while let Some(n) = stack.pop() {
        if n.node_kind() == "pointer_declarator" {
            if let (Some("pointer_declarator"), Some(id)) = crate::syntax::derived(n) {
                names.insert(&src[id.byte_range()]);
            }
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    names
}

/// A kernel's statements (C text) with [`void_pointer_conversions_cast`]'s casts, for its CUDA
/// version.
pub fn kernel_void_pointer_conversions_cast(body: &str) -> String {
    if !body.contains('*') {
        return body.to_string();
    }
    const HEAD: &str = "void __acc_k(void) {\n";
    let text = statement_markers_as_empty_statements(&format!("{HEAD}{body}\n}}\n"));
    let Some(tree) = crate::syntax::parser().parse(&text, None) else {
        return body.to_string();
    };
    let Some(function_body) = tree
        .root_node()
        .named_child(0)
        .and_then(|f| f.child_by_field_name("body"))
    else {
        return body.to_string();
    };
    let mut edits = Vec::new();
    void_pointer_conversions_cast(function_body, function_body, &text, &mut edits);
    let mut out = body.to_string();
    edits.sort_by_key(|(r, _)| r.start);
    for (r, with) in edits.iter().rev() {
        if r.start >= HEAD.len() && r.end - HEAD.len() <= out.len() {
            out.replace_range(r.start - HEAD.len()..r.end - HEAD.len(), with);
        }
    }
    out
}

/// `text` with the emitter's statement markers (`__ACC_VSINGLE_BEGIN`, `__ACC_WSYNC`, …:
/// object-like macros that stand between statements) as empty statements of their length, so
/// that the parse reads `__ACC_VSINGLE_BEGIN *p = v;` as the assignment it is, not as a
/// declaration of a pointer `p` of type `__ACC_VSINGLE_BEGIN`.
fn statement_markers_as_empty_statements(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut from = 0;
    while let Some(k) = text[from..].find("__ACC_") {
        let at = from + k;
        let end = at
            + b[at..]
                .iter()
                .take_while(|&&c| crate::lex::is_word(c))
                .count();
        from = end;
        let word = &text[at..end];
        let marker = word.ends_with("_BEGIN") || word.ends_with("_END") || word.ends_with("SYNC");
        let call = text[end..].trim_start().starts_with('(');
        if marker && !call && (at == 0 || !crate::lex::is_word(b[at - 1])) {
            out[at] = b';';
            out[at + 1..end].fill(b' ');
        }
    }
    // Only ASCII words became ASCII: still UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// The function's own parameter list (not one of a function-pointer parameter).
fn parameter_list(n: Node) -> Option<Node> {
    let mut d = n.child_by_field_name("declarator");
    while let Some(x) = d {
        if x.node_kind() == "function_declarator" {
            return x.child_by_field_name("parameters");
        }
        d = x.child_by_field_name("declarator");
    }
    None
}

fn parameter_names<'s>(list: Node, src: &'s str) -> Vec<&'s str> {
    let mut names = Vec::new();
    let mut c = list.walk();
    for p in list.named_children(&mut c) {
        let mut d = p.child_by_field_name("declarator");
        while let Some(x) = d {
            if x.node_kind() == "identifier" {
                names.push(&src[x.byte_range()]);
                break;
            }
            d = x.child_by_field_name("declarator");
        }
    }
    names
}

/// Rewrites one parameter: an array's ignored extent removed, or a variable-length array's
/// parameter and, in a definition, the body's declaration of it (added to `arrays`).
fn parameter(
    p: Node,
    src: &str,
    names: &[&str],
    defined: bool,
    edits: &mut Vec<(Range<usize>, String)>,
    arrays: &mut String,
) {
    let Some(top) = p.child_by_field_name("declarator") else {
        return;
    };
    // The array declarators, outermost (`[m]` of `a[n][m]`) first.
    let mut brackets = Vec::new();
    let mut d = Some(top);
    while let Some(x) = d.filter(|x| x.node_kind() == "array_declarator") {
        let inner_end = x
            .child_by_field_name("declarator")
            .map_or(x.start_byte(), |y| y.end_byte());
        if let Some(open) = src[inner_end..x.end_byte()].find('[') {
            brackets.push(inner_end + open + 1..x.end_byte() - 1);
        }
        d = x.child_by_field_name("declarator");
    }
    let Some(nearest) = brackets.last().cloned() else {
        return;
    };
    // `double (*a)[M]` is a pointer to arrays, no array parameter: C adjusts nothing, and
    // every extent is the pointee's.
    let Some(name) = d.filter(|x| x.node_kind() == "identifier") else {
        return;
    };
    let inner = &brackets[..brackets.len() - 1];
    let names_a_parameter = |r: &Range<usize>| {
        src[r.clone()]
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| names.contains(&w))
    };
    match name {
        name if inner.iter().any(names_a_parameter) => {
            let name = &src[name.byte_range()];
            let element = src[p.start_byte()..top.start_byte()].trim();
            let extents: Vec<String> = inner
                .iter()
                .rev()
                .map(|r| format!("(long long)({})", src[r.clone()].trim()))
                .collect();
            let rank = inner.len() + 1;
            let parameter = if defined {
                format!("__acc_vla_arg_{name}")
            } else {
                name.to_string()
            };
            edits.push((
                p.byte_range(),
                format!("__acc_vla_arg<{element}> {parameter}"),
            ));
            if defined {
                arrays.push_str(&format!(
                    " __acc_vla<{element}, {rank}> {name} = {{({element} *){parameter}.p, {{{}}}}}; (void){name};",
                    extents.join(", ")
                ));
            }
        }
        // Everything between the brackets: the extent, and C99's `static` and qualifiers
        // there (`w[static 4]`, `a[const n]`), which C++ lacks.
        _ if nearest.start <= nearest.end => edits.push((nearest, String::new())),
        _ => {}
    }
}
