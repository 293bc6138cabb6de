//! The file-scope variables a file's `routine` functions use (`RoutineGlobal`): which they are
//! (the file's and its headers', not the names a routine's parameters and locals hide), and
//! how a CUDA module declares each (a device pointer to the `declare`d copy, or a constant of
//! its own). It reads the file's syntax trees; [`super::support`] writes the module's text.

use std::collections::HashMap;

use tree_sitter::Node;

use super::{function_name, items};
use crate::syntax::{derived, NodeKind};
use crate::types::HeaderGlobal;

/// A file-scope variable the file's `routine` functions use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoutineGlobal {
    pub name: String,
    /// Where its first use is (a byte offset of the file's text), for messages.
    pub at: usize,
    /// The byte ranges of its uses in routines: the host build reaches it there through
    /// `acc_rt_global`, so that a routine in a kernel on a device with separate memory sees
    /// the device copy, as on a GPU.
    pub uses: Vec<std::ops::Range<usize>>,
    /// Its declaration in one of the program's headers, without storage class or initializer,
    /// and where its name is in it, when the file itself does not declare it.
    pub header_declaration: Option<(String, std::ops::Range<usize>)>,
    /// Its definition in a CUDA module when it is a constant (`static const double pi =
    /// 3.14…;`, a `const` table): a module without a `declare` for it defines its own copy,
    /// as the value cannot change. OpenACC 3.3 (2.15.1, the routine directive's restrictions)
    /// asks for a `declare` of every global a routine uses, and GCC refuses one without; we
    /// take constants as LLVM's OpenACC does (its implicit-declare pass copies constant
    /// globals to the device), since no answer can depend on which copy is read.
    pub constant: Option<String>,
}

impl RoutineGlobal {
    /// Whether routines reach it through a device pointer to the `declare`d copy (`declared`:
    /// the names `declare` directives give), rather than a constant of the module's own.
    pub fn through_pointer(&self, declared: &[String]) -> bool {
        self.constant.is_none() || declared.contains(&self.name)
    }
}

/// The file-scope variables the file's `routine` functions use, in the order
/// the file declares them (each once; then those of the program's headers, `header_globals`,
/// by name), from its syntax `trees` ([`crate::syntax::parse`]) and its `routines`
/// ([`routine_names`]). A name a routine declares itself (a parameter, a local) is not a use.
/// A file without routines is not walked.
pub fn routine_globals(
    src: &str,
    trees: &[tree_sitter::Tree],
    routines: &[String],
    header_globals: &HashMap<String, HeaderGlobal>,
) -> Vec<RoutineGlobal> {
    if routines.is_empty() {
        return Vec::new();
    }
    let items = items(trees);
    let mut globals: Vec<&str> = items
        .iter()
        .filter(|n| n.node_kind() == "declaration")
        .flat_map(|n| declared_names(*n, src))
        .collect();
    let in_file = globals.clone();
    let mut from_headers: Vec<&str> = header_globals
        .keys()
        .map(String::as_str)
        .filter(|g| !globals.contains(g))
        .collect();
    from_headers.sort_unstable();
    globals.extend(from_headers);
    let mut used: Vec<RoutineGlobal> = Vec::new();
    for n in &items {
        if n.node_kind() != "function_definition"
            || !function_name(*n, src).is_some_and(|f| routines.contains(&f))
        {
            continue;
        }
        let mut uses = Vec::new();
        all_uses(*n, src, &globals, &mut uses);
        uses.retain(|u| !declared_within(*u, *n, src));
        for u in uses {
            let name = &src[u.byte_range()];
            match used.iter_mut().find(|g| g.name == name) {
                Some(g) => g.uses.push(u.byte_range()),
                None => used.push(RoutineGlobal {
                    name: name.to_string(),
                    at: u.start_byte(),
                    uses: vec![u.byte_range()],
                    header_declaration: header_globals
                        .get(name)
                        .filter(|_| !in_file.contains(&name))
                        .map(|h| (h.decl_text.clone(), h.decl_name.clone())),
                    constant: match header_globals.get(name) {
                        Some(h) if !in_file.contains(&name) => h
                            .constant_initializer
                            .as_ref()
                            .map(|init| format!("static __device__ {} = {init};", h.decl_text)),
                        _ => constant_definition(&items, src, name),
                    },
                }),
            }
        }
    }
    used.sort_by_key(|g| globals.iter().position(|x| *x == g.name));
    used
}

/// The file-scope declaration of object `g` among `items`: the declaration, its declarator of
/// `g` (an `init_declarator` where initialized) and the name in it.
fn object_declaration<'t>(
    items: &[Node<'t>],
    src: &str,
    g: &str,
) -> Option<(Node<'t>, Node<'t>, Node<'t>)> {
    items
        .iter()
        .filter(|n| n.node_kind() == "declaration")
        .find_map(|&n| {
            let mut cursor = n.walk();
            let declarators: Vec<Node> = n
                .children_by_field_name("declarator", &mut cursor)
                .collect();
            declarators.into_iter().find_map(|d| match derived(d) {
                (kind, Some(id))
                    if kind != Some("function_declarator") && &src[id.byte_range()] == g =>
                {
                    Some((n, d, id))
                }
                _ => None,
            })
        })
}

/// A declaration's specifiers and qualifiers without its storage class (`static const double`
/// is `const double`).
fn specifiers_without_storage(n: Node, src: &str) -> Option<String> {
    let first = n.child_by_field_name("declarator")?;
    Some(
        src[n.start_byte()..first.start_byte()]
            .split_whitespace()
            .filter(|w| !matches!(*w, "static" | "extern" | "_Thread_local" | "register"))
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// Where the file's first file-scope declaration of `g` starts.
pub(super) fn declaration_start(items: &[Node], src: &str, g: &str) -> Option<usize> {
    object_declaration(items, src, g).map(|(n, _, _)| n.start_byte())
}

/// `T (*__acc_gp_g)[N]` for the file-scope declaration of `g`: its type,
/// without storage class or initializer, with the name made a pointer.
pub(super) fn pointer_declaration(
    items: &[Node],
    src: &str,
    g: &str,
    pointers: &str,
) -> Option<String> {
    let (n, d, id) = object_declaration(items, src, g)?;
    let inner = if d.node_kind() == "init_declarator" {
        d.child_by_field_name("declarator")?
    } else {
        d
    };
    Some(format!(
        "{} {}(*{pointers}{g}){}",
        specifiers_without_storage(n, src)?,
        &src[inner.start_byte()..id.start_byte()],
        &src[id.end_byte()..inner.end_byte()]
    ))
}

/// `static __device__ const double pi = 3.14;` for the file-scope declaration of `g` when it
/// declares a constant ([`RoutineGlobal::constant`]): the object `const`, not a pointer,
/// initialized.
fn constant_definition(items: &[Node], src: &str, g: &str) -> Option<String> {
    let (n, d, _) = object_declaration(items, src, g)?;
    let mut cursor = n.walk();
    let is_const = n
        .children(&mut cursor)
        .any(|c| c.node_kind() == "type_qualifier" && &src[c.byte_range()] == "const");
    let inner = d.child_by_field_name("declarator")?;
    if !is_const || d.node_kind() != "init_declarator" || crate::types::holds_pointer(inner) {
        return None;
    }
    Some(format!(
        "static __device__ {} {};",
        specifiers_without_storage(n, src)?,
        &src[d.byte_range()]
    ))
}

/// The names a file-scope declaration declares as objects (not functions).
fn declared_names<'s>(n: Node, src: &'s str) -> Vec<&'s str> {
    let mut cursor = n.walk();
    let declarators: Vec<Node> = n
        .children_by_field_name("declarator", &mut cursor)
        .collect();
    declarators
        .into_iter()
        .filter_map(|d| match derived(d) {
            (Some("function_declarator"), _) => None,
            (_, name) => name.map(|id| &src[id.byte_range()]),
        })
        .collect()
}

/// Whether the identifier `u` names something `function` declares (a parameter, or a local
/// of a block around `u` declared before it), which hides a file-scope variable of the name.
fn declared_within(u: Node, function: Node, src: &str) -> bool {
    let name = &src[u.byte_range()];
    let declares = |d: Node| {
        let mut cursor = d.walk();
        let declarators: Vec<Node> = d
            .children_by_field_name("declarator", &mut cursor)
            .collect();
        declarators.into_iter().any(|x| {
            crate::syntax::declared_identifier(x).is_some_and(|id| &src[id.byte_range()] == name)
        })
    };
    if let Some(parameters) = function
        .child_by_field_name("declarator")
        .and_then(|d| d.child_by_field_name("parameters"))
    {
        let mut cursor = parameters.walk();
        let params: Vec<Node> = parameters.named_children(&mut cursor).collect();
        if params.into_iter().any(declares) {
            return true;
        }
    }
    let mut at = u;
    while let Some(parent) = at.parent() {
        if parent.id() == function.id() {
            break;
        }
        if matches!(parent.node_kind(), "compound_statement" | "for_statement") {
            let mut cursor = parent.walk();
            let earlier: Vec<Node> = parent
                .named_children(&mut cursor)
                .take_while(|c| c.start_byte() < u.start_byte())
                .filter(|c| c.node_kind() == "declaration")
                .collect();
            if earlier.into_iter().any(declares) {
                return true;
            }
        }
        at = parent;
    }
    false
}

/// Every identifier in `n` that names one of `names`.
fn all_uses<'t>(n: Node<'t>, src: &str, names: &[&str], out: &mut Vec<Node<'t>>) {
    if n.node_kind() == "identifier" && names.contains(&&src[n.byte_range()]) {
        out.push(n);
    }
    let mut cursor = n.walk();
    let children: Vec<Node<'t>> = n.children(&mut cursor).collect();
    for c in children {
        all_uses(c, src, names, out);
    }
}
