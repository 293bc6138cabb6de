//! The lowered file as two translation units, compiled in parallel: the
//! host part (the user's code with its launches) and the kernels.
//!
//! The kernel unit is the user's file as lowered (types, macros, includes,
//! static helpers and `routine` functions are all there, with the same
//! edits as on the host, so an `atomic` in a routine is lowered alike),
//! where every non-static object or function *definition* becomes a
//! declaration, followed by the kernels. The C compiler drops the static
//! functions no kernel calls before optimizing them, so the host code
//! costs only its parse there. Kernels and custom-reduction helpers get
//! external linkage, hidden visibility and a per-file unique symbol (an
//! `__asm__` label: the C name stays `__acc_kernelN_P`) so that several
//! files link together.
//!
//! The user's part of the kernel unit is marked as a system header (a
//! `# 1 "file" 3` line marker), so its warnings are said once, by the host
//! unit; the kernels follow a marker without the flag, so warnings in their
//! bodies are shown. `#line` keeps the flag in GCC and clang.
//!
//! Rewritten at file scope, from the tree-sitter tree:
//! - a non-static function definition: body → `;` (keeping the `#pragma push_macro` lines
//!   of its constructs, whose kernels restore those macros); when a kernel names the
//!   function (a `routine`), it stays as a GNU `extern inline` definition
//!   instead, so a kernel can still inline it, and never emits a symbol;
//! - a non-static object definition: `extern`, without its initializer; an
//!   array of unknown size with an initializer (`int t[] = {…}`) gets its
//!   size from an unused static copy (`static int __acc_szN[] = {…};
//!   extern int t[sizeof __acc_szN / sizeof __acc_szN[0]];`), which the
//!   compiler drops when optimizing;
//! - a file-scope `declare` (a constructor) is left out.
//!
//! The file stays one unit ([`Lowered::split`] says why) when the tree has
//! errors, when a file-scope item is not a plain declaration or definition
//! (a macro that may expand to a definition), for non-static `inline` or
//! K&R definitions, and when a kernel may reach static mutable state
//! (a static function named by a kernel while the file has static
//! non-const objects): the kernel unit's copy of such an object would not
//! be the host's. A definition that an included header makes twice (one in
//! each unit) fails the combining link; `acc cc` then compiles one unit.

use std::collections::HashSet;
use std::fmt::Write;

use tree_sitter::Node;

use crate::lower::{CWriter, Edit, Lowered};
use crate::syntax::NodeKind;

/// The two translation units of a lowered file.
#[derive(Clone, Debug)]
pub struct SplitTu {
    /// The user's code with its launches; kernels declared, not defined.
    pub host: String,
    /// The kernels, after the user's code reduced to declarations.
    pub kernels: String,
}

/// What kernels and prototypes look like in the lowered text.
const STATIC_HELPER: &str = "static void __acc_";
/// What a file-scope `declare` is lowered to.
const CONSTRUCTOR: &str = "__attribute__((constructor))";

impl Lowered {
    /// The file as two translation units, or why it stays one. `src` is
    /// the text that was lowered.
    pub fn split(&self, src: &str) -> Result<SplitTu, String> {
        let p = &self.parts;
        if p.prototypes.is_empty() {
            return Err("no kernels".into());
        }
        let tag = format!("{:016x}", fnv(&[p.file.as_bytes(), src.as_bytes()]));
        let protos = extern_prototypes(&p.prototypes, &tag)?;
        let kernels = p.kernels.replace(
            &format!("\n{STATIC_HELPER}"),
            &format!("\n{}", &STATIC_HELPER["static ".len()..]),
        );
        if kernels.contains(STATIC_HELPER) {
            return Err("a kernel is not where it was expected".into());
        }
        let names = identifiers(&kernels);
        let (mut edits, routines) = declarations_only(src, &p.trees, &names)?;
        // A body that becomes `;` keeps, in their order, its own `#define` and `#undef` lines
        // (the preprocessor knows no scopes: a macro a function defines holds for the rest of
        // the file, kernels included) and the `#pragma push_macro` lines its constructs' sites
        // have (see `lower::macro_scope`: the kernels restore those macros as they were at the
        // constructs, so the saves must happen in this unit too).
        for stub in edits
            .iter_mut()
            .filter(|e| e.text.starts_with(';') && e.end > e.start)
        {
            let mut kept = body_macro_lines(&src[stub.start..stub.end], stub.start);
            kept.extend(
                p.edits
                    .iter()
                    .filter(|e| stub.start <= e.start && e.start < stub.end)
                    .flat_map(|e| e.text.lines().map(move |l| (e.start, l)))
                    .filter(|(_, l)| l.trim_start().starts_with("#pragma push_macro("))
                    .map(|(at, l)| (at, l.trim_start().to_string())),
            );
            kept.sort_by_key(|(at, _)| *at);
            if !kept.is_empty() {
                let lines: String = kept.iter().map(|(_, l)| format!("{l}\n")).collect();
                stub.text = format!("{}\n{lines}", stub.text.trim_end_matches('\n'));
            }
        }
        edits.extend(p.edits.iter().map(|e| {
            let mut e = e.clone();
            if e.text.contains(CONSTRUCTOR) {
                e.text.clear();
            }
            e
        }));

        let mut host = CWriter::new();
        host.text(&p.prelude)
            .text(&p.cuda_decl)
            .text(&protos)
            .line_marker(1, &p.file)
            .text(&self.host_c[p.user.clone()]);
        if !routines.is_empty() {
            // Static functions only kernels call are used, as the compiler
            // of the host unit should know: `-Wunused-function`.
            let uses: String = routines.iter().map(|r| format!(" (void)&{r};")).collect();
            host.line(&format!(
                "__attribute__((unused)) static void __acc_uses(void) {{{uses} }}"
            ));
        }

        let user = crate::lower::apply(src, edits, &p.lines);
        let mut kern = CWriter::new();
        // The user's code here is never run (only the kernels are), but it
        // names the module in its launches.
        kern.text(&p.prelude)
            .directive("#define __acc_cuda_module 0")
            .text(&protos)
            .line_marker_system(1, &p.file)
            .text(&user);
        if !kern.as_str().ends_with('\n') {
            kern.end_line();
        }
        // The kernels follow the user's last line, as in the one-unit form.
        let after = p.lines.place(src.len());
        let after_line = after.line + usize::from(!src.ends_with('\n'));
        kern.line_marker_flagless(after_line, &crate::lower::c_string(after.file))
            .text(&kernels);
        let (host, kern) = (host.finish(), kern.finish());
        Ok(SplitTu {
            host,
            kernels: kern,
        })
    }
}

/// The preprocessor lines of a function body (`body`, at `offset` in the file) that define or
/// undefine macros, each where it starts and as one logical line, with the conditional lines
/// around them when those are balanced within the body (so a `#define` in an arm the compiler
/// skips stays skipped).
fn body_macro_lines(body: &str, offset: usize) -> Vec<(usize, String)> {
    const CONDITIONALS: [&str; 8] = [
        "ifdef", "ifndef", "if", "elifdef", "elifndef", "elif", "else", "endif",
    ];
    let mut lines = Vec::new();
    let (mut depth, mut balanced) = (0i32, true);
    let mut at = offset;
    let mut raw = body.split_inclusive('\n');
    while let Some(line) = raw.next() {
        let start = at;
        at += line.len();
        let Some(rest) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        let word: String = rest
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        let conditional = CONDITIONALS.contains(&word.as_str());
        if !conditional && crate::lex::macro_line(line).is_none() {
            continue;
        }
        match word.as_str() {
            "if" | "ifdef" | "ifndef" => depth += 1,
            "endif" => depth -= 1,
            _ => {}
        }
        balanced &= depth >= 0;
        let mut logical = line.trim().to_string();
        while logical.ends_with('\\') {
            let Some(next) = raw.next() else { break };
            at += next.len();
            logical.pop();
            logical.push(' ');
            logical.push_str(next.trim());
        }
        lines.push((start, logical, conditional));
    }
    if lines.iter().all(|(_, _, conditional)| *conditional) {
        return Vec::new();
    }
    let keep_conditionals = balanced && depth == 0;
    lines
        .into_iter()
        .filter(|(_, _, conditional)| keep_conditionals || !conditional)
        .map(|(at, l, _)| (at, l))
        .collect()
}

/// `static void NAME(ARGS);` lines as hidden external declarations of the
/// unique symbol `NAME_TAG`.
fn extern_prototypes(prototypes: &str, tag: &str) -> Result<String, String> {
    let mut out = String::new();
    for line in prototypes.lines() {
        let decl = line
            .strip_prefix(STATIC_HELPER)
            .and_then(|l| l.strip_suffix(");"))
            .ok_or_else(|| format!("unexpected prototype `{line}`"))?;
        let name_end = decl.find('(').ok_or("a prototype without arguments")?;
        let name = &decl[..name_end];
        let _ = writeln!(
            out,
            "extern void __acc_{decl}) __asm__(\"__acc_{name}_{tag}\") __attribute__((visibility(\"hidden\")));"
        );
    }
    Ok(out)
}

/// The words of `text` that may be identifiers (a superset: comments and
/// strings add words, never remove them).
fn identifiers(text: &str) -> HashSet<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
        .collect()
}

/// 64-bit FNV-1a.
pub(crate) fn fnv(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for &b in *p {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The edits that leave only declarations of the file's external
/// definitions. `kernel_names`: the words of the kernels.
/// Also the static functions the kernels name.
fn declarations_only(
    src: &str,
    trees: &[tree_sitter::Tree],
    kernel_names: &HashSet<&str>,
) -> Result<(Vec<Edit>, Vec<String>), String> {
    let mut s = Scan {
        src,
        kernel_names,
        edits: Vec::new(),
        static_state: Vec::new(),
        static_fns_called: Vec::new(),
        external_fns_kept: Vec::new(),
        sizes: 0,
        depth: 0,
    };
    for t in trees {
        let root = t.root_node();
        if root.has_error() {
            return Err("the file does not parse cleanly".into());
        }
        s.items(root)?;
    }
    if let (Some(v), Some(f)) = (s.static_state.first(), s.static_fns_called.first()) {
        return Err(format!(
            "a kernel calls the static function `{f}`, and the file has static state (`{v}`)"
        ));
    }
    if let Some(v) = s
        .static_state
        .iter()
        .find(|v| kernel_names.contains(v.as_str()))
    {
        return Err(format!("a kernel names the static variable `{v}`"));
    }
    if !s.static_state.is_empty() && !s.external_fns_kept.is_empty() {
        // A routine's inline copy could read the kernel unit's copy of the
        // static state: declare it only.
        let kept: HashSet<usize> = s.external_fns_kept.iter().map(|k| k.0).collect();
        s.edits.retain(|e| !kept.contains(&e.start));
        for (_, stub) in std::mem::take(&mut s.external_fns_kept) {
            s.edits.push(stub);
        }
    }
    Ok((s.edits, s.static_fns_called))
}

struct Scan<'s, 'k> {
    src: &'s str,
    kernel_names: &'k HashSet<&'k str>,
    edits: Vec<Edit>,
    /// Static objects that are not constant.
    static_state: Vec<String>,
    /// Static functions the kernels name.
    static_fns_called: Vec<String>,
    /// External functions kept as inline definitions: where the inserted
    /// text is, and the edit that would declare them only instead.
    external_fns_kept: Vec<(usize, Edit)>,
    /// Static copies made for array sizes.
    sizes: usize,
    /// How many `#if` groups the scan is in.
    depth: usize,
}

fn edit(start: usize, end: usize, text: String) -> Edit {
    Edit {
        start,
        end,
        text,
        order: 0,
        line_after: false,
    }
}

impl<'s> Scan<'s, '_> {
    fn text(&self, n: Node) -> &'s str {
        &self.src[n.byte_range()]
    }

    /// The file-scope items under `parent` (the root or a `#if` group).
    fn items(&mut self, parent: Node) -> Result<(), String> {
        let mut c = parent.walk();
        let mut children: Vec<(Node, Option<&str>)> = Vec::new();
        if c.goto_first_child() {
            loop {
                children.push((c.node(), c.field_name()));
                if !c.goto_next_sibling() {
                    break;
                }
            }
        }
        for (n, field) in children {
            if !n.is_named() || matches!(field, Some("condition" | "name")) {
                continue;
            }
            match n.node_kind() {
                "function_definition" => self.function(n)?,
                "declaration" => self.declaration(n)?,
                "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif"
                | "preproc_elifdef" => {
                    self.depth += 1;
                    let r = self.items(n);
                    self.depth -= 1;
                    r?
                }
                "type_definition"
                | "preproc_include"
                | "preproc_def"
                | "preproc_function_def"
                | "preproc_call"
                | "comment"
                | "struct_specifier"
                | "union_specifier"
                | "enum_specifier" => {}
                // An empty statement: what a directive a macro expands to parses as (see
                // `sema::macro_directives`), or a stray `;`; nothing to declare either way.
                "expression_statement" if n.named_child_count() == 0 => {}
                k => return Err(format!("a file-scope `{k}` at byte {}", n.start_byte())),
            }
        }
        Ok(())
    }

    fn storage(&self, n: Node) -> Vec<&'s str> {
        let mut c = n.walk();
        let v = n
            .children(&mut c)
            .filter(|ch| ch.node_kind() == "storage_class_specifier")
            .map(|ch| self.text(ch))
            .collect();
        v
    }

    fn function(&mut self, n: Node) -> Result<(), String> {
        let f = crate::syntax::fields();
        let storage = self.storage(n);
        let (Some(decl), Some(body)) = (
            n.child_by_field_id(f.declarator.get()),
            n.child_by_field_id(f.body.get()),
        ) else {
            return Err("a function definition without declarator or body".into());
        };
        let name = declarator_name(decl).map(|d| self.text(d)).unwrap_or("");
        if storage.contains(&"static") {
            if self.kernel_names.contains(name) {
                if self.depth > 0 {
                    // Naming it on the host could name a function that
                    // the preprocessor leaves out.
                    return Err(format!("a kernel calls `{name}`, defined under `#if`"));
                }
                self.static_fns_called.push(name.to_string());
            }
            return Ok(());
        }
        if storage.iter().any(|s| s.contains("inline")) {
            return Err(format!("the non-static inline function `{name}`"));
        }
        if decl.end_byte() != body.start_byte()
            && !self.src[decl.end_byte()..body.start_byte()]
                .trim()
                .is_empty()
        {
            return Err(format!("the function `{name}` has old-style parameters"));
        }
        let newlines = self.src[decl.end_byte()..body.end_byte()]
            .matches('\n')
            .count();
        let stub = edit(
            decl.end_byte(),
            body.end_byte(),
            format!(";{}", "\n".repeat(newlines)),
        );
        if name != "main" && self.kernel_names.contains(name) && !has_static_local(body, self.src) {
            let ext = if storage.contains(&"extern") {
                ""
            } else {
                "extern "
            };
            let start = n.start_byte();
            self.edits.push(edit(
                start,
                start,
                format!("{ext}__inline __attribute__((__gnu_inline__)) "),
            ));
            self.external_fns_kept.push((start, stub));
        } else {
            self.edits.push(stub);
        }
        Ok(())
    }

    fn declaration(&mut self, n: Node) -> Result<(), String> {
        let f = crate::syntax::fields();
        let storage = self.storage(n);
        let mut c = n.walk();
        let declarators: Vec<Node> = n.children_by_field_id(f.declarator, &mut c).collect();
        let Some(first) = declarators.first() else {
            return Ok(());
        };
        let specs = &self.src[n.start_byte()..first.start_byte()];
        if storage.contains(&"static") {
            let constant = has_const(n, self.src);
            for d in &declarators {
                let (inner, name) = crate::syntax::derived(*d);
                let object = inner.is_none_or(|k| k != "function_declarator");
                if object && !(constant && inner != Some("pointer_declarator")) {
                    if let Some(name) = name {
                        self.static_state.push(self.text(name).to_string());
                    }
                }
            }
            return Ok(());
        }
        if storage.iter().any(|s| *s == "typedef" || *s == "constexpr") {
            return Ok(());
        }
        let mut edits = Vec::new();
        let mut before = String::new();
        let mut any_object = false;
        for d in &declarators {
            let (inner, name) = crate::syntax::derived(*d);
            if inner == Some("function_declarator") {
                continue;
            }
            any_object = true;
            if d.node_kind() != "init_declarator" {
                continue;
            }
            let (Some(target), Some(value)) = (
                d.child_by_field_id(f.declarator.get()),
                d.child_by_field_id(f.value.get()),
            ) else {
                return Err("an initialised declarator without its parts".into());
            };
            let mut c = d.walk();
            let eq = d
                .children(&mut c)
                .find(|ch| ch.node_kind() == "=")
                .map_or(target.end_byte(), |ch| ch.start_byte());
            let newlines = self.src[eq..value.end_byte()].matches('\n').count();
            let mut value_lines = 0;
            if inner == Some("array_declarator") && unsized_array(target) {
                let Some(name) = name else {
                    return Err("an array without a name".into());
                };
                if specs.contains('{') || storage.contains(&"extern") {
                    return Err("an array of unknown size that defines a type".into());
                }
                self.sizes += 1;
                let copy = format!("__acc_sz{}", self.sizes);
                let mut copy_decl = self.text(target).to_string();
                let at = name.start_byte() - target.start_byte();
                copy_decl.replace_range(at..at + name.byte_range().len(), &copy);
                let _ = write!(
                    before,
                    "static {} {copy_decl} = {}; ",
                    specs.trim_end(),
                    self.text(value)
                );
                value_lines = self.text(value).matches('\n').count();
                // The outermost `[]` of the declarator is the unsized one.
                let (open, close) = unsized_brackets(target, self.src)
                    .ok_or("an array declarator without brackets")?;
                edits.push(edit(
                    open + 1,
                    close,
                    format!("sizeof {copy} / sizeof {copy}[0]"),
                ));
            }
            edits.push(edit(
                eq,
                value.end_byte(),
                "\n".repeat(newlines - value_lines),
            ));
        }
        if !any_object {
            return Ok(());
        }
        let ext = if storage.contains(&"extern") {
            ""
        } else {
            "extern "
        };
        self.edits.push(edit(
            n.start_byte(),
            n.start_byte(),
            format!("{before}{ext}"),
        ));
        self.edits.extend(edits);
        Ok(())
    }
}

/// The identifier a declarator declares.
fn declarator_name(mut d: Node) -> Option<Node> {
    let f = crate::syntax::fields();
    loop {
        match d.node_kind() {
            "identifier" => return Some(d),
            "parenthesized_declarator" => d = d.named_child(0)?,
            _ => d = d.child_by_field_id(f.declarator.get())?,
        }
    }
}

/// Whether the array declarator closest to the name has no size.
fn unsized_array(d: Node) -> bool {
    innermost_array(d).is_some_and(|a| {
        a.child_by_field_id(crate::syntax::fields().size.get())
            .is_none()
    })
}

fn innermost_array(d: Node) -> Option<Node> {
    let f = crate::syntax::fields();
    let mut d = d;
    let mut last = None;
    loop {
        match d.node_kind() {
            "identifier" => return last,
            "parenthesized_declarator" => d = d.named_child(0)?,
            k => {
                last = (k == "array_declarator").then_some(d);
                d = d.child_by_field_id(f.declarator.get())?;
            }
        }
    }
}

/// The `[` and `]` of the unsized array declarator closest to the name.
fn unsized_brackets(d: Node, src: &str) -> Option<(usize, usize)> {
    let a = innermost_array(d)?;
    let inner = a.child_by_field_id(crate::syntax::fields().declarator.get())?;
    let open = inner.end_byte() + src[inner.end_byte()..a.end_byte()].find('[')?;
    let close = open + src[open..a.end_byte()].find(']')?;
    Some((open, close))
}

/// Whether a declaration's specifiers say `const`.
fn has_const(n: Node, src: &str) -> bool {
    let mut c = n.walk();
    let constant = n
        .children(&mut c)
        .any(|ch| ch.node_kind() == "type_qualifier" && src[ch.byte_range()].contains("const"));
    constant
}

/// Whether a function body declares a static variable.
fn has_static_local(body: Node, src: &str) -> bool {
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        if n.node_kind() == "storage_class_specifier" && &src[n.byte_range()] == "static" {
            return true;
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lower::{lower_file, LowerOptions};

    fn split(src: &str) -> Result<SplitTu, String> {
        let opts = LowerOptions {
            file_name: "f.c".into(),
            ..Default::default()
        };
        let (l, d) = lower_file(src, crate::TypeEnv::default(), &opts);
        let l = l.unwrap_or_else(|| panic!("{d:?}"));
        l.split(src)
    }

    #[test]
    fn a_body_keeps_its_macro_lines_and_their_conditionals_when_balanced() {
        let body = "{\n#define F(x) \\\n  (x)\n#ifdef A\n#undef F\n#endif\n  int i;\n#if B\n}";
        let kept: Vec<String> = body_macro_lines(body, 10)
            .into_iter()
            .map(|(at, l)| format!("{at}:{l}"))
            .collect();
        // `#if B` stays open in the body: no conditional line is kept.
        assert_eq!(kept, ["12:#define F(x)  (x)", "42:#undef F"]);
        let balanced = "{\n#ifdef A\n#undef F\n#endif\n}";
        let kept: Vec<String> = body_macro_lines(balanced, 0)
            .into_iter()
            .map(|(_, l)| l)
            .collect();
        assert_eq!(kept, ["#ifdef A", "#undef F", "#endif"]);
        assert!(body_macro_lines("{\n#ifdef A\n#endif\n}", 0).is_empty());
    }

    const KERNEL: &str = "void k(int n, double *a) {\n#pragma acc parallel loop copy(a[0:n])\n  for (int i = 0; i < n; i++) a[i] = twice(a[i]);\n}\n";

    #[test]
    fn external_definitions_become_declarations() {
        let src = format!(
            "#pragma acc routine seq\nstatic double twice(double x) {{ return 2 * x; }}\n\
             int g = 3, h, *p = &g;\nconst int t[] = {{1, 2,\n 3}};\nchar s[] = \"ab\";\nint f(int);\n\
             {KERNEL}int main(void) {{\n  return 0;\n}}\n"
        );
        let s = split(&src).unwrap();
        let k = &s.kernels;
        assert!(k.contains("extern int g , h, *p ;"), "{k}");
        assert!(
            k.contains("static const int __acc_sz1[] = {1, 2,\n 3}; extern const int t[sizeof __acc_sz1 / sizeof __acc_sz1[0]]"),
            "{k}"
        );
        assert!(k.contains("extern char s[sizeof __acc_sz2"), "{k}");
        assert!(k.contains("int f(int);"), "{k}");
        assert!(k.contains("int main(void);\n\n"), "{k}");
        assert!(k.contains("void k(int n, double *a);"), "{k}");
        assert!(k.contains("static double twice"), "{k}");
        assert!(k.contains("# 1 \"f.c\" 3\n"), "{k}");
        assert!(
            k.contains("\nvoid __acc_kernel1_0(const acc_rt_chunk *__acc_chunk) {"),
            "{k}"
        );
        assert!(!k.contains("static void __acc_"), "{k}");
        assert!(!s.host.contains("static void __acc_kernel"), "{}", s.host);
        assert!(s
            .host
            .contains("static void __acc_uses(void) { (void)&twice; }"));
        assert!(!s
            .host
            .contains("__acc_kernel1_0(const acc_rt_chunk *__acc_chunk) {"));
        let proto = "extern void __acc_kernel1_0(const acc_rt_chunk *) __asm__(\"__acc_kernel1_0_";
        assert!(s.host.contains(proto) && k.contains(proto), "{}", s.host);
    }

    /// Lowering a file with a routine and a `declare`d global (the CUDA module's support
    /// reads both), then splitting it, parses it once.
    #[test]
    fn the_file_is_parsed_once() {
        let src = format!(
            "double g;\n#pragma acc declare create(g)\n#pragma acc routine seq\ndouble twice(double x) {{ return g * x; }}\n{KERNEL}"
        );
        let before = crate::syntax::PARSES.with(|n| n.get());
        let tu = split(&src);
        assert_eq!(crate::syntax::PARSES.with(|n| n.get()) - before, 1);
        assert!(tu.is_ok(), "{tu:?}");
    }

    #[test]
    fn routines_stay_inline_definitions() {
        let src = format!(
            "#pragma acc routine seq\ndouble twice(double x) {{ return 2 * x; }}\n{KERNEL}"
        );
        let k = split(&src).unwrap().kernels;
        assert!(
            k.contains("extern __inline __attribute__((__gnu_inline__)) double twice(double x) { return 2 * x; }"),
            "{k}"
        );
    }

    #[test]
    fn static_state_reachable_from_a_kernel_keeps_one_unit() {
        let src = format!(
            "static int calls;\n#pragma acc routine seq\nstatic double twice(double x) {{ calls++; return 2 * x; }}\n{KERNEL}"
        );
        assert!(split(&src).unwrap_err().contains("static state"));
        let src = format!(
            "static const double two = 2;\n#pragma acc routine seq\nstatic double twice(double x) {{ return two * x; }}\n{KERNEL}"
        );
        assert!(split(&src).is_ok());
    }

    #[test]
    fn unknown_file_scope_items_keep_one_unit() {
        let src = format!("#define DEF(x) int x;\nDEF(y)\nstatic double twice(double x) {{ return x; }}\n{KERNEL}");
        assert!(split(&src).is_err());
        let src = "int main(void) { return 0; }\n";
        assert!(split(src).is_err());
    }
}
