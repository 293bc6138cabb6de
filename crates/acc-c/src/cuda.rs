//! What a file's CUDA module needs of the file itself: its macros, types
//! and `routine` functions, taken from the top level of the source as
//! written (acc-engine's `cuda` module emits the kernels around them).
//!
//! NVRTC has no system headers, so only the file's own declarations come
//! along; `acc_engine::cuda::PRELUDE` supplies the common C types and
//! limits. Declarations inside `#if` blocks are taken as they stand,
//! without the condition (the host compiler has already chosen; a kernel
//! that depends on the other branch fails to compile with NVRTC's message).

use crate::split::derived;
use tree_sitter::Node;

/// The file's macros, type declarations and `routine` functions (made
/// `__device__`), in source order, with `#line` markers. An error (a line
/// and why) when the file's kernels cannot have a CUDA form: a routine that
/// uses a file-scope variable would need that variable's device copy, which
/// the GPU path does not make yet.
pub fn support(src: &str, file: &str) -> Result<String, (usize, String)> {
    let trees = crate::syntax::parse(src);
    let mut items: Vec<Node> = Vec::new();
    for t in &trees {
        collect(t.root_node(), &mut items);
    }
    // Routine names: `routine(name)` anywhere, and the function after an
    // unnamed `routine`.
    let mut routines: Vec<String> = Vec::new();
    for (i, n) in items.iter().enumerate() {
        let Some(rest) = acc_routine(*n, src) else {
            continue;
        };
        match rest.strip_prefix('(') {
            Some(named) => {
                if let Some(name) = named.split(')').next() {
                    routines.push(name.trim().to_string());
                }
            }
            None => {
                if let Some(name) = items[i + 1..]
                    .iter()
                    .find(|m| m.kind() != "comment")
                    .and_then(|m| function_name(*m, src))
                {
                    routines.push(name);
                }
            }
        }
    }
    let globals: Vec<&str> = items
        .iter()
        .filter(|n| n.kind() == "declaration")
        .flat_map(|n| declared_names(*n, src))
        .collect();
    for n in &items {
        if n.kind() != "function_definition"
            || !function_name(*n, src).is_some_and(|f| routines.contains(&f))
        {
            continue;
        }
        if let Some(used) = first_use(*n, src, &globals) {
            return Err((
                used.start_position().row + 1,
                format!(
                    "the routine uses the file-scope variable `{}`, and routines on a GPU cannot reach global variables yet",
                    &src[used.byte_range()]
                ),
            ));
        }
    }
    let mut out = String::new();
    for n in &items {
        let text = &src[n.byte_range()];
        let keep = match n.kind() {
            "preproc_def" | "preproc_function_def" | "type_definition" => Some(text.to_string()),
            "declaration" if is_type_only(*n) => Some(text.to_string()),
            "struct_specifier" | "union_specifier" | "enum_specifier" => Some(format!("{text};")),
            "declaration" | "function_definition" => function_name(*n, src)
                .filter(|f| routines.contains(f))
                .map(|_| format!("__device__ {}", without_acc_pragmas(text))),
            _ => None,
        };
        if let Some(text) = keep {
            let line = n.start_position().row + 1;
            out.push_str(&format!(
                "#line {line} \"{}\"\n{}\n",
                file.replace('\\', "\\\\"),
                text.trim_end()
            ));
        }
    }
    Ok(out)
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

/// The first identifier in `n` that names one of `names`.
fn first_use<'t>(n: Node<'t>, src: &str, names: &[&str]) -> Option<Node<'t>> {
    if n.kind() == "identifier" && names.contains(&&src[n.byte_range()]) {
        return Some(n);
    }
    let mut cursor = n.walk();
    let children: Vec<Node<'t>> = n.children(&mut cursor).collect();
    children.into_iter().find_map(|c| first_use(c, src, names))
}

/// Top-level items, looking inside `#if`/`#ifdef` blocks.
fn collect<'t>(node: Node<'t>, out: &mut Vec<Node<'t>>) {
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        match child.kind() {
            "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif" => collect(child, out),
            _ => out.push(child),
        }
    }
}

/// For `#pragma acc routine…`, the text after `routine`.
fn acc_routine<'s>(n: Node, src: &'s str) -> Option<&'s str> {
    if n.kind() != "preproc_call" {
        return None;
    }
    let text = src[n.byte_range()].trim();
    let rest = text.strip_prefix("#")?.trim_start();
    let rest = rest.strip_prefix("pragma")?.trim_start();
    let rest = rest.strip_prefix("acc")?.trim_start();
    Some(rest.strip_prefix("routine")?.trim_start())
}

/// `struct s { … };`, `enum e { … };` and the like: a declaration that
/// declares only a type.
fn is_type_only(n: Node) -> bool {
    n.child_by_field_name("declarator").is_none()
        && n.child_by_field_name("type").is_some_and(|t| {
            matches!(
                t.kind(),
                "struct_specifier" | "union_specifier" | "enum_specifier"
            ) && t.child_by_field_name("body").is_some()
        })
}

/// The name a function definition or prototype declares.
fn function_name(n: Node, src: &str) -> Option<String> {
    if !matches!(n.kind(), "function_definition" | "declaration") {
        return None;
    }
    match derived(n.child_by_field_name("declarator")?) {
        (Some("function_declarator"), Some(id)) => Some(src[id.byte_range()].to_string()),
        _ => None,
    }
}

/// A routine's text without its `#pragma acc` lines (its loops run in
/// order on the thread that calls it, as on the host).
fn without_acc_pragmas(text: &str) -> String {
    text.lines()
        .map(|l| {
            let t = l.trim_start();
            if t.starts_with("#pragma") && t["#pragma".len()..].trim_start().starts_with("acc") {
                ""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn macros_types_and_routines_come_along_and_nothing_else() {
        let src = "#include <stdio.h>\n#define N 10\ntypedef struct { int a; } pair;\nstruct s { int b; };\nstatic int sq(int x);\n#pragma acc routine(sq) seq\n#pragma acc routine seq\nstatic int poly(int x) {\n#pragma acc loop seq\n  for (;;) {}\n  return sq(x) + 1;\n}\nstatic int sq(int x) { return x * x; }\nint host_only(void) { return 1; }\nint global = 3;\n";
        let s = support(src, "t.c").unwrap();
        assert!(s.contains("#define N 10"));
        assert!(s.contains("typedef struct { int a; } pair;"));
        assert!(s.contains("struct s { int b; };"));
        assert!(s.contains("__device__ static int sq(int x);"));
        assert!(s.contains("__device__ static int poly(int x) {"));
        assert!(s.contains("__device__ static int sq(int x) { return x * x; }"));
        assert!(!s.contains("host_only"));
        assert!(!s.contains("global"));
        assert!(!s.contains("#include"));
        assert!(!s.contains("loop seq"));
    }

    #[test]
    fn a_routine_that_uses_a_global_has_no_cuda_form() {
        let src = "double g[4];\nint k = 2, *p;\n#pragma acc routine seq\nstatic double f(int i) {\n  return g[i] * k;\n}\n";
        let (line, why) = support(src, "t.c").unwrap_err();
        assert_eq!(line, 5);
        assert!(why.contains("`g`"), "{why}");
    }
}
