//! Types with a flexible array member (`struct buf { size_t n; char data[]; }`) or a GNU
//! zero-length array (`double pad[0]`), which C allows and NVRTC's C++ refuses ("incomplete
//! type is not allowed", "the size of an array must be greater than zero"). The module takes
//! every type the file defines, so one such type the host alone uses would cost all the file's
//! kernels their CUDA version. Such a type goes into the module marked, and is left out when
//! nothing else in the module names it; one that device code uses stays, and NVRTC's message
//! says why that kernel cannot run on a GPU.
//!
//! It must not change any other type, nor a used one: giving the member a size would change
//! the struct's `sizeof` on the device only.

use crate::syntax::NodeKind;
use tree_sitter::Node;

const BEGIN: &str = "/* acc: a type with a flexible array member, left out unless named: ";
const END: &str = "/* acc: end of the type with a flexible array member */\n";

/// The names a file-scope item defines (typedef names, the struct's or union's tag) when it
/// defines a struct or union with a flexible array member or a zero-length array, at any depth.
pub(super) fn flexible_type_names(n: Node, src: &str) -> Option<Vec<String>> {
    let ty = match n.node_kind() {
        "type_definition" | "declaration" => n.child_by_field_name("type")?,
        "struct_specifier" | "union_specifier" => n,
        _ => return None,
    };
    if !has_flexible_member(ty, src) {
        return None;
    }
    let mut names = Vec::new();
    if let Some(tag) = ty.child_by_field_name("name") {
        names.push(src[tag.byte_range()].to_string());
    }
    if n.node_kind() == "type_definition" {
        let mut c = n.walk();
        for mut d in n.children_by_field_name("declarator", &mut c) {
            // `*padded_p`, `rows[4]`: the name under the pointer or array declarators.
            while let Some(inner) = d.child_by_field_name("declarator") {
                d = inner;
            }
            if matches!(d.node_kind(), "type_identifier" | "identifier") {
                names.push(src[d.byte_range()].to_string());
            }
        }
    }
    Some(names)
}

/// Whether the struct or union `ty` (or one it defines inside) has a member declared `[]` or
/// `[0]`.
fn has_flexible_member(ty: Node, src: &str) -> bool {
    if !matches!(ty.node_kind(), "struct_specifier" | "union_specifier") {
        return false;
    }
    let Some(body) = ty.child_by_field_name("body") else {
        return false;
    };
    let mut c = body.walk();
    let fields: Vec<Node> = body.named_children(&mut c).collect();
    fields.into_iter().any(|f| {
        if f.node_kind() != "field_declaration" {
            return false;
        }
        if f.child_by_field_name("type")
            .is_some_and(|t| has_flexible_member(t, src))
        {
            return true;
        }
        let mut c = f.walk();
        let declarators: Vec<Node> = f.children_by_field_name("declarator", &mut c).collect();
        declarators.into_iter().any(|d| {
            d.node_kind() == "array_declarator"
                && d.child_by_field_name("size")
                    .is_none_or(|s| src[s.byte_range()].trim() == "0")
        })
    })
}

/// `text`, the module's part for a type of [`flexible_type_names`], marked.
pub(super) fn marked(names: &[String], text: &str) -> String {
    format!("{BEGIN}{} */\n{text}{END}", names.join(" "))
}

/// `own` (the file's part of the module) without the marked types that nothing in `module`
/// (the whole module's text, kernels included) names outside them, from `own` on: the prelude
/// before it has names of its own (`V` for a value), which the file's types do not meet.
pub fn without_unnamed_flexible_types(own: &str, module: &str) -> String {
    if !own.contains(BEGIN) {
        return own.to_string();
    }
    let module = module.find(own).map_or(module, |k| &module[k..]);
    // The words of the module outside the marked types.
    let mut outside = String::new();
    let mut rest = module;
    while let Some(b) = rest.find(BEGIN) {
        outside.push_str(&rest[..b]);
        rest = rest[b..]
            .find(END)
            .map_or("", |e| &rest[b + e + END.len()..]);
    }
    outside.push_str(rest);
    let named: std::collections::HashSet<&str> = crate::lex::code_words(&outside)
        .map(|w| &outside[w.start..w.end])
        .collect();
    let mut out = String::new();
    let mut rest = own;
    while let Some(b) = rest.find(BEGIN) {
        out.push_str(&rest[..b]);
        let block = &rest[b..];
        let Some(e) = block.find(END) else {
            out.push_str(block);
            return out;
        };
        let names = &block[BEGIN.len()..block.find(" */\n").unwrap_or(BEGIN.len())];
        if names.split_whitespace().any(|n| named.contains(n)) {
            out.push_str(&block[..e + END.len()]);
        }
        rest = &block[e + END.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(src: &str) -> Vec<Option<Vec<String>>> {
        let tree = crate::syntax::parser().parse(src, None).unwrap();
        let root = tree.root_node();
        let mut c = root.walk();
        let items: Vec<Node> = root.named_children(&mut c).collect();
        items
            .into_iter()
            .map(|n| flexible_type_names(n, src))
            .collect()
    }

    #[test]
    fn flexible_and_zero_length_members_are_found_at_any_depth() {
        let found = names(
            "struct buf { int n; char data[]; };\n\
             typedef struct { int n; double pad[0]; } padded, *padded_p;\n\
             struct outer { struct { int k; int v[]; } in; };\n\
             struct plain { int a[4]; };\n\
             typedef int row[];\n",
        );
        assert_eq!(
            found,
            [
                Some(vec!["buf".to_string()]),
                Some(vec!["padded".to_string(), "padded_p".to_string()]),
                Some(vec!["outer".to_string()]),
                None,
                None,
            ]
        );
    }

    #[test]
    fn a_marked_type_stays_only_when_the_module_names_it() {
        let own = format!(
            "int x;\n{}{}",
            marked(&["buf".into()], "struct buf { int n; char d[]; };\n"),
            marked(&["used".into()], "struct used { int n; char d[]; };\n")
        );
        let module = format!(
            "#define buf(x) x\n{own}__global__ void k(struct used *u) {{ u->d[0] = 1; }}\n"
        );
        let kept = without_unnamed_flexible_types(&own, &module);
        assert!(!kept.contains("struct buf"), "{kept}");
        assert!(kept.contains("struct used"), "{kept}");
        assert!(kept.starts_with("int x;\n"), "{kept}");
    }
}
