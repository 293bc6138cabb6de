//! Which of the file's own functions only compute a value from their arguments, so that a
//! loop calling one is no call of unknown effect for the dependence test (`crate::deps`): a
//! `kernels` loop calling a small `routine` helper (`static inline double sq(double x)`) may then
//! run in parallel, as one calling `sqrt` may.
//!
//! The test is syntactic and conservative, since a wrong "pure" changes answers: the body
//! writes only its own locals (arrays declared in it included), reads memory through no
//! pointer (no `*p`, `p[i]` or `p->f` but on its own arrays), keeps no `static` local, reads no
//! file-scope variable but a `const` one (the loop cannot write that), and calls only functions
//! that pass the same test (the C library's pure ones, the file's, macros that only compute).
//! It must not decide anything about loops: `deps` and the engine do.

use std::collections::HashSet;
use tree_sitter::Node;

use crate::syntax::{derived, NodeKind};
use crate::types::TypeEnv;

/// How deep calls of the file's functions are followed (recursion ends there: not pure).
const MAX_DEPTH: usize = 8;

/// What the test needs of the file: its tree and text, its top-level definitions and
/// file-scope objects, and the headers' globals and macros.
pub struct FileFunctions<'t, 's> {
    src: &'s str,
    root: Node<'t>,
    env: &'s TypeEnv,
    /// File-scope objects the loop may write: those not declared `const`.
    writable_globals: HashSet<&'s str>,
}

impl<'t, 's> FileFunctions<'t, 's> {
    /// The functions of the file whose tree `node` belongs to.
    pub fn of(node: Node<'t>, src: &'s str, env: &'s TypeEnv) -> Self {
        let mut root = node;
        while let Some(p) = root.parent() {
            root = p;
        }
        let mut writable_globals = HashSet::new();
        for item in top_level(root) {
            if item.node_kind() != "declaration" || declares_const(item, src) {
                continue;
            }
            let mut cursor = item.walk();
            let declarators: Vec<Node> = item
                .children_by_field_name("declarator", &mut cursor)
                .collect();
            for d in declarators {
                if let (kind, Some(id)) = derived(d) {
                    if kind != Some("function_declarator") {
                        writable_globals.insert(&src[id.byte_range()]);
                    }
                }
            }
        }
        FileFunctions {
            src,
            root,
            env,
            writable_globals,
        }
    }

    /// Whether calling `name` only computes a value from its arguments: a function of
    /// [`crate::deps`]'s pure list, a macro that only computes, or a function this file
    /// defines that passes the test of the module docs.
    pub fn is_pure(&self, name: &str) -> bool {
        self.pure_call(name, 0)
    }

    fn pure_call(&self, name: &str, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        if crate::deps::is_pure(name) || self.benign_macro(name, depth) {
            return true;
        }
        let Some(def) = top_level(self.root).into_iter().find(|n| {
            n.node_kind() == "function_definition" && function_name(*n, self.src) == Some(name)
        }) else {
            return false;
        };
        let mut locals = Locals::default();
        if let Some(d) = def.child_by_field_name("declarator") {
            collect_parameters(d, self.src, &mut locals);
        }
        let Some(body) = def.child_by_field_name("body") else {
            return false;
        };
        self.pure_node(body, &mut locals, depth)
    }

    /// Whether macro `name` (as the headers and the file define it) expands to a computation:
    /// no assignment or increment, calls only of pure functions and such macros, and no
    /// writable file-scope variable among its words.
    fn benign_macro(&self, name: &str, depth: usize) -> bool {
        let Some(def) = self.env.macros.get(name) else {
            return false;
        };
        if depth > MAX_DEPTH {
            return false;
        }
        let body = def.body.as_str();
        if crate::deps::writes_something(body) {
            return false;
        }
        let params = def.params.as_deref().unwrap_or(&[]);
        let mut at = 0;
        while at < body.len() {
            let rest = &body[at..];
            let Some(start) = rest.find(|c: char| c.is_ascii_alphanumeric() || c == '_') else {
                break;
            };
            let word_at = at + start;
            let len = body[word_at..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(body.len() - word_at);
            let word = &body[word_at..word_at + len];
            at = word_at + len;
            if word.starts_with(|c: char| c.is_ascii_digit()) || params.iter().any(|p| p == word) {
                continue;
            }
            let called = body[at..].trim_start().starts_with('(');
            let ok = if called {
                word == "sizeof" || self.pure_call(word, depth + 1)
            } else {
                !self.is_writable_global(word)
                    && (!self.env.macros.contains_key(word) || self.benign_macro(word, depth + 1))
            };
            if !ok {
                return false;
            }
        }
        true
    }

    fn is_writable_global(&self, name: &str) -> bool {
        self.writable_globals.contains(name)
            || self
                .env
                .header_globals
                .get(name)
                .is_some_and(|g| !g.type_text.split_whitespace().any(|w| w == "const"))
    }

    /// Whether `n` (in a function whose parameters and locals so far are `locals`) only
    /// computes: see the module docs.
    fn pure_node(&self, n: Node, locals: &mut Locals, depth: usize) -> bool {
        match n.node_kind() {
            "declaration" => {
                // A `static` local keeps state between calls; an `extern` one names a global.
                if crate::syntax::has_storage_class(n, self.src, &["static", "extern"]) {
                    return false;
                }
                let mut cursor = n.walk();
                let declarators: Vec<Node> = n
                    .children_by_field_name("declarator", &mut cursor)
                    .collect();
                for d in declarators {
                    // The initializer first: `int x = x0;` reads before it declares.
                    if let Some(v) = d.child_by_field_name("value") {
                        if !self.pure_node(v, locals, depth) {
                            return false;
                        }
                    }
                    if let (kind, Some(id)) = derived(d) {
                        locals
                            .declare(&self.src[id.byte_range()], kind == Some("array_declarator"));
                    }
                }
                true
            }
            "assignment_expression" => {
                let (Some(left), Some(right)) = (
                    n.child_by_field_name("left"),
                    n.child_by_field_name("right"),
                ) else {
                    return false;
                };
                self.local_place(left, locals, depth) && self.pure_node(right, locals, depth)
            }
            "update_expression" => n
                .child_by_field_name("argument")
                .is_some_and(|a| self.local_place(a, locals, depth)),
            "subscript_expression" => self.local_place(n, locals, depth),
            // `&x` and `s.f` read nothing through a pointer; `*p` and `p->f` do.
            "pointer_expression" | "field_expression" => {
                !matches!(self.operator(n), "*" | "->")
                    && n.child_by_field_name("argument")
                        .is_some_and(|a| self.pure_node(a, locals, depth))
            }
            "call_expression" => {
                let Some(func) = n.child_by_field_name("function") else {
                    return false;
                };
                func.node_kind() == "identifier"
                    && self.pure_call(&self.src[func.byte_range()], depth + 1)
                    && n.child_by_field_name("arguments")
                        .is_some_and(|a| self.pure_children(a, locals, depth))
            }
            "identifier" => {
                let name = &self.src[n.byte_range()];
                locals.has(name)
                    || (!self.is_writable_global(name)
                        && (!self.env.macros.contains_key(name) || self.benign_macro(name, depth)))
            }
            "gnu_asm_expression" | "preproc_call" | "macro_invocation" => false,
            "compound_statement" => {
                let mark = locals.names.len();
                let pure = self.pure_children(n, locals, depth);
                locals.leave(mark);
                pure
            }
            "for_statement" => {
                let mark = locals.names.len();
                let pure = self.pure_children(n, locals, depth);
                locals.leave(mark);
                pure
            }
            _ => self.pure_children(n, locals, depth),
        }
    }

    /// The operator of a pointer or field expression (`*`, `&`, `.`, `->`).
    fn operator(&self, n: Node) -> &str {
        n.child_by_field_name("operator")
            .map_or("", |o| &self.src[o.byte_range()])
    }

    fn pure_children(&self, n: Node, locals: &mut Locals, depth: usize) -> bool {
        let mut cursor = n.walk();
        let children: Vec<Node> = n.named_children(&mut cursor).collect();
        children
            .into_iter()
            .all(|c| self.pure_node(c, locals, depth))
    }

    /// Whether `place`, written, is the function's own: a local or parameter, or an element of
    /// an array declared in the function (its subscripts only computing).
    fn local_place(&self, place: Node, locals: &mut Locals, depth: usize) -> bool {
        match place.node_kind() {
            "identifier" => locals.has(&self.src[place.byte_range()]),
            "parenthesized_expression" => place
                .named_child(0)
                .is_some_and(|p| self.local_place(p, locals, depth)),
            "subscript_expression" => {
                let (Some(array), Some(index)) = (
                    place.child_by_field_name("argument"),
                    place.child_by_field_name("index"),
                ) else {
                    return false;
                };
                // One subscript of an array declared here: a second one may be through a
                // pointer the array holds.
                let own_array = array.node_kind() == "identifier"
                    && locals.is_array(&self.src[array.byte_range()]);
                own_array && self.pure_node(index, locals, depth)
            }
            "field_expression" => {
                self.operator(place) != "->"
                    && place
                        .child_by_field_name("argument")
                        .is_some_and(|a| self.local_place(a, locals, depth))
            }
            _ => false,
        }
    }
}

/// A function's parameters and locals in scope, innermost last; arrays marked.
#[derive(Default)]
struct Locals {
    names: Vec<(String, bool)>,
}

impl Locals {
    fn declare(&mut self, name: &str, array: bool) {
        self.names.push((name.to_string(), array));
    }

    fn has(&self, name: &str) -> bool {
        self.names.iter().any(|(n, _)| n == name)
    }

    fn is_array(&self, name: &str) -> bool {
        self.names
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .is_some_and(|(_, array)| *array)
    }

    fn leave(&mut self, mark: usize) {
        self.names.truncate(mark);
    }
}

/// The parameters of a function declarator (an array parameter is a pointer: not an array of
/// the function's own).
fn collect_parameters(declarator: Node, src: &str, locals: &mut Locals) {
    let mut d = declarator;
    while d.node_kind() != "function_declarator" {
        match d.child_by_field_name("declarator") {
            Some(inner) => d = inner,
            None => return,
        }
    }
    let Some(params) = d.child_by_field_name("parameters") else {
        return;
    };
    let mut cursor = params.walk();
    for p in params.named_children(&mut cursor) {
        if let Some((_, Some(id))) = p.child_by_field_name("declarator").map(derived) {
            locals.declare(&src[id.byte_range()], false);
        }
    }
}

/// The top-level items of the tree, looking inside `#if` blocks.
fn top_level(root: Node) -> Vec<Node> {
    let mut out = Vec::new();
    crate::cuda::collect(root, &mut out);
    out
}

fn function_name<'s>(n: Node, src: &'s str) -> Option<&'s str> {
    match derived(n.child_by_field_name("declarator")?) {
        (Some("function_declarator"), Some(id)) => Some(&src[id.byte_range()]),
        _ => None,
    }
}

/// Whether a declaration's type has `const` among its own qualifiers (`const double dt`): its
/// objects cannot be written. (`double *const p` has it on the declarator: counted writable.)
fn declares_const(n: Node, src: &str) -> bool {
    let mut cursor = n.walk();
    let found = n
        .children(&mut cursor)
        .any(|c| c.node_kind() == "type_qualifier" && &src[c.byte_range()] == "const");
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pure(src: &str, name: &str) -> bool {
        let tree = crate::syntax::parse(src);
        let env = TypeEnv::default();
        let root = tree[0].root_node();
        FileFunctions::of(root, src, &env).is_pure(name)
    }

    #[test]
    fn functions_that_only_compute_are_pure() {
        let src = "static const double k = 2.0;\nenum { TWO = 2 };\n\
                   static inline double sq(double x) { return x * x; }\n\
                   double poly(double x) { double t = sq(x) * k; t += TWO; return sqrt(t) + x; }\n\
                   double sum3(double x) { double v[3]; for (int i = 0; i < 3; i++) v[i] = x * i; return v[0] + v[1] + v[2]; }\n\
                   typedef struct { double re, im; } cplx;\n\
                   double mag(cplx z) { z.re = z.re * z.re; return z.re + z.im * z.im; }\n";
        for f in ["sq", "poly", "sum3", "mag"] {
            assert!(pure(src, f), "{f}");
        }
    }

    #[test]
    fn functions_with_effects_or_hidden_reads_are_not() {
        let src = "double g;\nint calls;\nextern void log_it(double);\n\
                   double reads_global(double x) { return x + g; }\n\
                   double counts(double x) { calls++; return x; }\n\
                   double through(const double *p, int i) { return p[i]; }\n\
                   double deref(double *p) { return *p; }\n\
                   double arrow(struct s *p) { return p->v; }\n\
                   void writes(double *p) { p[0] = 1; }\n\
                   double keeps(double x) { static double last; last = x; return last; }\n\
                   double logs(double x) { log_it(x); return x; }\n\
                   double self(double x) { return self(x); }\n\
                   double calls_impure(double x) { return counts(x); }\n\
                   double hidden(double x) { extern double g; return x + g; }\n\
                   void nested(double *p) { double *rows[1] = {p}; rows[0][0] = 1; }\n";
        for f in [
            "reads_global",
            "counts",
            "through",
            "deref",
            "arrow",
            "writes",
            "keeps",
            "logs",
            "self",
            "calls_impure",
            "hidden",
            "nested",
            "undefined",
        ] {
            assert!(!pure(src, f), "{f}");
        }
    }
}
