//! Structure, union and enumeration types defined inside a structure (`struct outer { struct
//! inner { int a; } in; };`), as the module must declare them: C gives such a tag the scope of
//! the outer definition (file scope, for a file-scope type), C++ the outer class's, so a kernel's
//! `struct inner t` would name an incomplete type of its own and NVRTC refuse it. Each nested
//! definition goes before the outer one, innermost first, and the outer one names it by tag.
//!
//! It owns that rewriting of a declaration's text; it must not choose which declarations the
//! module holds (the parent module does).

use crate::syntax::NodeKind;
use tree_sitter::Node;

/// `text` (one file-scope declaration) with the tagged types it defines inside a structure or
/// union moved before it, or `None` when it defines none.
pub(super) fn nested_tags_hoisted(text: &str) -> Option<String> {
    if text.matches('{').count() < 2 {
        return None;
    }
    let tree = crate::syntax::parser().parse(text, None)?;
    let mut nested = Vec::new();
    collect(tree.root_node(), false, &mut nested);
    if nested.is_empty() {
        return None;
    }
    let mut out = String::new();
    for n in &nested {
        out.push_str(&with_tags(text, n.byte_range(), &nested));
        out.push_str(";\n");
    }
    out.push_str(&with_tags(text, 0..text.len(), &nested));
    Some(out)
}

/// The tagged definitions under `n` that stand inside a member list, innermost first.
fn collect<'t>(n: Node<'t>, in_members: bool, out: &mut Vec<Node<'t>>) {
    let inside = in_members || n.node_kind() == "field_declaration_list";
    let mut cursor = n.walk();
    for child in n.named_children(&mut cursor) {
        collect(child, inside, out);
    }
    let tagged_definition = matches!(
        n.node_kind(),
        "struct_specifier" | "union_specifier" | "enum_specifier"
    ) && n.child_by_field_name("name").is_some()
        && n.child_by_field_name("body").is_some();
    if in_members && tagged_definition {
        out.push(n);
    }
}

/// `text[range]` with each definition of `nested` strictly inside it (the outermost ones)
/// replaced by its keyword and tag.
fn with_tags(text: &str, range: std::ops::Range<usize>, nested: &[Node]) -> String {
    let mut inner: Vec<&Node> = nested
        .iter()
        .filter(|n| range.start <= n.start_byte() && n.end_byte() <= range.end)
        .filter(|n| n.byte_range() != range)
        .collect();
    inner.sort_by_key(|n| (n.start_byte(), std::cmp::Reverse(n.end_byte())));
    let mut out = String::new();
    let mut at = range.start;
    for n in inner {
        if n.start_byte() < at {
            continue;
        }
        let Some(body) = n.child_by_field_name("body") else {
            continue;
        };
        out.push_str(&text[at..n.start_byte()]);
        out.push_str(text[n.start_byte()..body.start_byte()].trim_end());
        at = n.end_byte();
    }
    out.push_str(&text[at..range.end]);
    out
}

#[cfg(test)]
mod tests {
    use super::nested_tags_hoisted;

    #[test]
    fn nested_tagged_types_come_first_innermost_first() {
        let text = "typedef struct outer { struct mid { enum kind { A, B } k; struct { int x; } anon; } m; union u { int i; float f; } v; } outer;";
        assert_eq!(
            nested_tags_hoisted(text).as_deref(),
            Some(
                "enum kind { A, B };\n\
                 struct mid { enum kind k; struct { int x; } anon; };\n\
                 union u { int i; float f; };\n\
                 typedef struct outer { struct mid m; union u v; } outer;"
            )
        );
    }

    #[test]
    fn declarations_without_nested_tags_are_left_alone() {
        assert_eq!(
            nested_tags_hoisted("struct s { struct { int a; } in; struct t *next; };"),
            None
        );
        assert_eq!(nested_tags_hoisted("struct s { int a; };"), None);
    }
}
