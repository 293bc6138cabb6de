//! The CUDA module's text as NVRTC must read it: C's types that C++ lacks written as the
//! prelude's (`cxx_types`, `long_double_constants`), the file's macros as the preprocessor
//! left them (`as_preprocessed`), C names that C++ reserves renamed
//! (`cxx_keywords_renamed`), enumerated types as their integer types
//! (`enums_as_integers`), and the whole text in ASCII (`ascii_module`).
//!
//! It must not choose what goes into the module: the parent module does. The tokens C++ reads
//! otherwise are `tokens`'.

use crate::syntax::NodeKind;

/// `support` with each of the file's `#define`s as the preprocessor left the macro
/// (`macros`, from the headers' reading: `-D` flags and `#if` branches decided), so that a
/// `#ifndef N` / `#define N 16` default overridden by `-DN=32` means 32 in the module as in the
/// host code. A macro the preprocessor does not know (no reading, or `#undef`ined by the end)
/// keeps its text.
pub fn as_preprocessed(
    support: &str,
    macros: &std::collections::HashMap<String, crate::macro_expand::MacroDef>,
) -> String {
    if macros.is_empty() {
        return support.to_string();
    }
    let mut out = String::with_capacity(support.len());
    let mut lines = support.split_inclusive('\n');
    while let Some(line) = lines.next() {
        let name = crate::lex::macro_line(line)
            .filter(|(kind, _)| *kind == "define")
            .map(|(_, name)| name);
        let Some(def) = name.and_then(|n| macros.get(n).map(|d| (n, d))) else {
            out.push_str(line);
            continue;
        };
        // The definition's continuation lines go with it.
        let mut last = line;
        while last.trim_end_matches(['\n', '\r']).ends_with('\\') {
            match lines.next() {
                Some(next) => last = next,
                None => break,
            }
        }
        let (name, def) = def;
        let params = match &def.params {
            None => String::new(),
            Some(ps) => {
                let mut ps = ps.clone();
                if def.named_variadic {
                    if let Some(p) = ps.last_mut() {
                        p.push_str("...");
                    }
                } else if def.variadic {
                    ps.push("...".into());
                }
                format!("({})", ps.join(", "))
            }
        };
        let body = def.body.replace(['\n', '\r'], " ");
        let body = body.trim();
        let sep = if body.is_empty() { "" } else { " " };
        out.push_str(&format!("#define {name}{params}{sep}{body}\n"));
    }
    out
}

/// Words C leaves to the program that C++, the language of a CUDA module, reserves, and that
/// real C code uses as names (a local `new`, a member `this`): renamed wherever the file
/// uses them.
const CXX_ONLY_KEYWORDS: &[&str] = &[
    "class",
    "new",
    "delete",
    "this",
    "template",
    "typename",
    "namespace",
    "using",
    "virtual",
    "friend",
    "operator",
    "private",
    "protected",
    "public",
    "try",
    "catch",
    "throw",
    "explicit",
    "export",
    "mutable",
    "typeid",
    "noexcept",
    "concept",
    "requires",
    "const_cast",
    "static_cast",
    "dynamic_cast",
    "reinterpret_cast",
    // C++20's, which the modules are compiled as.
    "co_await",
    "co_yield",
    "co_return",
    "consteval",
    "constinit",
];

/// C++ keywords (and CUDA's global functions) that C headers also give a meaning C++ shares (`<stdbool.h>`'s `bool`, `true`,
/// `false`; `<iso646.h>`'s `and`; C23's `constexpr`, ...): renamed only where the file declares
/// the name itself (`typedef enum { false, true } logical;` of NPB, `typedef int bool;`, a
/// variable `bool`), which then means the file's own thing.
const CXX_KEYWORDS_WHEN_DECLARED: &[&str] = &[
    "bool",
    "true",
    "false",
    "and",
    "or",
    "not",
    "xor",
    "bitand",
    "bitor",
    "compl",
    "and_eq",
    "or_eq",
    "xor_eq",
    "not_eq",
    "char16_t",
    "char32_t",
    "wchar_t",
    "alignas",
    "alignof",
    "thread_local",
    "static_assert",
    "constexpr",
    "nullptr",
    // Not keywords: functions CUDA declares for every kernel, which C programs define for
    // themselves (a `routine` named `max`).
    "max",
    "min",
    "rsqrt",
    "rsqrtf",
    "saturate",
    // CUDA's vector types, which NVRTC declares for every module, and C programs for
    // themselves (`typedef struct { float x, y, z; } float3;`).
    "char1",
    "char2",
    "char3",
    "char4",
    "uchar1",
    "uchar2",
    "uchar3",
    "uchar4",
    "short1",
    "short2",
    "short3",
    "short4",
    "ushort1",
    "ushort2",
    "ushort3",
    "ushort4",
    "int1",
    "int2",
    "int3",
    "int4",
    "uint1",
    "uint2",
    "uint3",
    "uint4",
    "long1",
    "long2",
    "long3",
    "long4",
    "ulong1",
    "ulong2",
    "ulong3",
    "ulong4",
    "longlong1",
    "longlong2",
    "longlong3",
    "longlong4",
    "ulonglong1",
    "ulonglong2",
    "ulonglong3",
    "ulonglong4",
    "float1",
    "float2",
    "float3",
    "float4",
    "double1",
    "double2",
    "double3",
    "double4",
    "dim3",
];

/// `module` without the prelude's typedefs of `<stdint.h>`'s and `<stddef.h>`'s names that the
/// file (or its headers, in `declarations`) declares itself (`typedef unsigned long long
/// uint64_t;` in a file that never includes `<stdint.h>`): C++, like C, refuses a second
/// typedef of a name to another type, and the file's is the one its code means.
pub fn standard_typedefs_left_to_the_file(module: &str, declarations: &str) -> String {
    const STANDARD: &[&str] = &[
        "ptrdiff_t",
        "intptr_t",
        "uintptr_t",
        "int8_t",
        "int16_t",
        "int32_t",
        "int64_t",
        "uint8_t",
        "uint16_t",
        "uint32_t",
        "uint64_t",
        "ssize_t",
        "intmax_t",
        "uintmax_t",
        "int_least8_t",
        "int_least16_t",
        "int_least32_t",
        "int_least64_t",
        "uint_least8_t",
        "uint_least16_t",
        "uint_least32_t",
        "uint_least64_t",
        "int_fast8_t",
        "int_fast16_t",
        "int_fast32_t",
        "int_fast64_t",
        "uint_fast8_t",
        "uint_fast16_t",
        "uint_fast32_t",
        "uint_fast64_t",
        "off_t",
        "time_t",
        "pid_t",
        "float_t",
        "double_t",
        "sig_atomic_t",
        "wint_t",
    ];
    let Some(prelude) = module.find(acc_engine::cuda::PRELUDE) else {
        return module.to_string();
    };
    let mentioned = STANDARD.iter().any(|n| declarations.contains(n));
    if !mentioned {
        return module.to_string();
    }
    let declared = declared_in(declarations);
    let end = prelude + acc_engine::cuda::PRELUDE.len();
    let mut out = String::with_capacity(module.len());
    out.push_str(&module[..prelude]);
    for line in module[prelude..end].split_inclusive('\n') {
        let name = line
            .strip_prefix("typedef ")
            .and_then(|l| l.trim_end().strip_suffix(';'))
            .and_then(|l| l.rsplit(' ').next());
        match name {
            Some(n) if STANDARD.contains(&n) && declared.contains(n) => {
                out.push_str(&format!("/* {n}: the file's own */\n"));
            }
            _ => out.push_str(line),
        }
    }
    out.push_str(&module[end..]);
    out
}

/// The names the file declares: variables, parameters, typedefs, enumerators, tags, members.
fn declared_in(src: &str) -> std::collections::HashSet<&str> {
    fn visit<'s>(n: tree_sitter::Node, src: &'s str, out: &mut std::collections::HashSet<&'s str>) {
        let name = match n.node_kind() {
            "enumerator" => n.child_by_field_name("name"),
            "init_declarator"
            | "declaration"
            | "function_definition"
            | "parameter_declaration"
            | "field_declaration"
            | "type_definition" => {
                let mut c = n.walk();
                let ds: Vec<tree_sitter::Node> =
                    n.children_by_field_name("declarator", &mut c).collect();
                for d in ds {
                    if let (_, Some(id)) = crate::syntax::derived(d) {
                        out.insert(&src[id.byte_range()]);
                    } else if src[d.byte_range()]
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_')
                    {
                        // A typedef's or member's name; the grammar reads `bool` as a type.
                        out.insert(&src[d.byte_range()]);
                    }
                }
                None
            }
            _ => None,
        };
        if let Some(id) = name {
            out.insert(&src[id.byte_range()]);
        }
        let mut c = n.walk();
        let children: Vec<tree_sitter::Node> = n.named_children(&mut c).collect();
        for child in children {
            visit(child, src, out);
        }
    }
    let mut out = std::collections::HashSet::new();
    for t in crate::syntax::parse(src) {
        visit(t.root_node(), src, &mut out);
    }
    out
}

/// `module` with each name of the file that C++ reserves ([`CXX_ONLY_KEYWORDS`], and those of
/// [`CXX_KEYWORDS_WHEN_DECLARED`] the file declares) renamed `__acc_cxx_NAME`, outside the
/// preludes, the string and character constants and the comments: the module's C++ then means
/// the file's C.
pub fn cxx_keywords_renamed(module: &str, src: &str) -> String {
    let words = |text: &str| -> Vec<(usize, usize)> {
        crate::lex::code_words(text)
            .map(|r| (r.start, r.end))
            .collect()
    };
    let mentioned: Vec<&str> = words(src).into_iter().map(|(a, b)| &src[a..b]).collect();
    let maybe_declared = mentioned
        .iter()
        .any(|w| CXX_KEYWORDS_WHEN_DECLARED.contains(w));
    let declared = if maybe_declared {
        declared_in(src)
    } else {
        Default::default()
    };
    let used: Vec<&str> = mentioned
        .into_iter()
        .filter(|w| {
            CXX_ONLY_KEYWORDS.contains(w)
                || (CXX_KEYWORDS_WHEN_DECLARED.contains(w) && declared.contains(w))
        })
        .collect();
    if used.is_empty() {
        return module.to_string();
    }
    let (head, rest) = module.split_at(after_preludes(module));
    let mut out = String::from(head);
    let mut last = 0;
    for (a, b) in words(rest) {
        if used.contains(&&rest[a..b]) {
            out.push_str(&rest[last..a]);
            out.push_str("__acc_cxx_");
            out.push_str(&rest[a..b]);
            last = b;
        }
    }
    out.push_str(&rest[last..]);
    out
}

/// Where the module's own text starts: after the preludes it holds (acc's C++, which the
/// rewritings of the file's C leave alone).
pub(super) fn after_preludes(module: &str) -> usize {
    [
        acc_engine::cuda::PRELUDE,
        acc_engine::cuda::PRELUDE_F80,
        acc_engine::cuda::PRELUDE_F80_COMPLEX,
    ]
    .iter()
    .filter_map(|p| module.find(p).map(|at| at + p.len()))
    .max()
    .unwrap_or(0)
}

/// `module` with C's enumerated types, where the file's text names them, written as the
/// integer types C makes them compatible with: `enum shape s = i % 3;` and a `kind_t` of
/// `typedef enum { … } kind_t;` take an `int` in C, which C++ converts to an enum only by a
/// cast. `__underlying_type` is that type in C++ as in C (`unsigned int` without negative
/// enumerators, else `int`, for GCC's C and C++ alike), so values, sizes and comparisons stay
/// C's; the enumerators keep their enum type, which converts to an integer by itself. The
/// preludes, comments and literals stay, and so does an enum's definition (`enum t { … }`)
/// and a forward declaration (`enum t;`).
pub fn enums_as_integers(module: &str) -> String {
    let start = after_preludes(module);
    let text = &module[start..];
    let b = text.as_bytes();
    let skip_blanks = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    let word_at = |i: usize| {
        i + b[i..]
            .iter()
            .take_while(|&&c| crate::lex::is_word(c))
            .count()
    };
    let mut out = String::with_capacity(module.len() + 64);
    out.push_str(&module[..start]);
    let mut last = 0;
    let mut previous_word = "";
    for w in crate::lex::code_words(text) {
        let word = &text[w.clone()];
        // Words this rewriting already wrote out (a typedef's name).
        if w.start < last {
            continue;
        }
        if word == "enum" {
            let after = skip_blanks(w.end);
            let tag_end = word_at(after);
            let next = skip_blanks(tag_end);
            match b.get(next) {
                // `typedef enum [tag] { … } name;`: the enum gets a name of its own, and `name`
                // becomes its integer type.
                Some(b'{') if previous_word == "typedef" => {
                    let close = text[next..].find('}').map_or(b.len(), |k| next + k);
                    let name_at = skip_blanks((close + 1).min(b.len()));
                    let name_end = word_at(name_at);
                    if name_end > name_at && b.get(skip_blanks(name_end)) == Some(&b';') {
                        let name = &text[name_at..name_end];
                        out.push_str(&text[last..name_at]);
                        out.push_str(&format!(
                            "__acc_enum_{name}; typedef __underlying_type(__acc_enum_{name}) {name}"
                        ));
                        last = name_end;
                    }
                }
                // A definition or a forward declaration stays.
                Some(b'{' | b';') => {}
                _ if tag_end > after => {
                    out.push_str(&text[last..w.start]);
                    out.push_str(&format!("__underlying_type({})", &text[w.start..tag_end]));
                    last = tag_end;
                }
                _ => {}
            }
        }
        previous_word = word;
    }
    out.push_str(&text[last..]);
    out
}

/// The module with C's types that CUDA lacks written as the prelude's C++ ones: `float
/// _Complex` (and `_Complex float`, `float complex`, ...) as `__acc_cfloat`, likewise for
/// `double`, and, in a file that includes `<complex.h>`, its `I` as `__acc_I`; `long double`
/// as `__acc_f80`, and its constants as `__acc_f80` values (see [`long_double_constants`]).
/// NVRTC, a C++ compiler, has no `_Complex` and its `long double` is a `double`; the prelude's
/// types have the host's layout, so device copies are the host's bytes.
pub fn cxx_types(module: &str, complex_h: bool) -> String {
    let mut rewritten = String::with_capacity(module.len());
    let mut at = 0;
    for (range, value) in long_double_constants(module) {
        rewritten.push_str(&module[at..range.start]);
        rewritten.push_str(&value);
        at = range.end;
    }
    rewritten.push_str(&module[at..]);
    let module = rewritten.as_str();
    // Tokens: identifiers (and numbers), runs of whitespace, single other characters.
    let mut tokens: Vec<&str> = Vec::new();
    let b = module.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        if word(b[i]) {
            while i < b.len() && word(b[i]) {
                i += 1;
            }
        } else if b[i] == b' ' || b[i] == b'\t' {
            while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                i += 1;
            }
        } else {
            i += module[i..].chars().next().map_or(1, char::len_utf8);
        }
        tokens.push(&module[start..i]);
    }
    let complex = |t: &str| t == "_Complex" || (complex_h && t == "complex");
    let long_double =
        |a: &str, b: &str| (a == "long" && b == "double") || (a == "double" && b == "long");
    let real = |t: &str| match t {
        "float" => Some("__acc_cfloat"),
        "double" => Some("__acc_cdouble"),
        _ => None,
    };
    let mut out = String::with_capacity(module.len());
    let mut k = 0;
    while k < tokens.len() {
        let (t, next) = (tokens[k], tokens.get(k + 2).copied().unwrap_or(""));
        let spaced = tokens
            .get(k + 1)
            .is_some_and(|s| s.trim().is_empty() && !s.is_empty());
        // `long double _Complex` (or `_Complex long double`, `long double complex`): the
        // prelude's `__acc_cldouble`.
        let word_at = |j: usize| tokens.get(j).copied().unwrap_or("");
        let gap = |j: usize| {
            tokens
                .get(j)
                .is_some_and(|s| s.trim().is_empty() && !s.is_empty())
        };
        if spaced && gap(k + 3) {
            let (a, b, c) = (t, next, word_at(k + 4));
            if (long_double(a, b) && complex(c)) || (complex(a) && long_double(b, c)) {
                out.push_str("__acc_cldouble");
                k += 5;
                continue;
            }
        }
        if spaced {
            if long_double(t, next) {
                out.push_str("__acc_f80");
                k += 3;
                continue;
            }
            if let (Some(c), true) = (real(t), complex(next)) {
                out.push_str(c);
                k += 3;
                continue;
            }
            if let (true, Some(c)) = (complex(t), real(next)) {
                out.push_str(c);
                k += 3;
                continue;
            }
        }
        if complex_h && t == "I" {
            out.push_str("__acc_I");
        } else {
            out.push_str(t);
        }
        k += 1;
    }
    out
}

/// The floating constants with an `L` suffix (`long double`) in C text, outside comments,
/// strings and character constants: where each is, and the prelude's `__acc_f80` value the
/// host compiler would make of it: `__acc_f80(0.125)` for one that is exactly a `double`
/// (C++ reads the constant without the suffix as that `double`),
/// else its bits (`0.1L`: `__acc_f80::bits(0xcccccccccccccccdull, 0x3ffb)`), computed by
/// [`crate::f80`].
pub fn long_double_constants(text: &str) -> Vec<(std::ops::Range<usize>, String)> {
    use crate::lex::{comment_end, literal_end, number_end, number_starts};
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(b.len(), |j| i + j);
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = comment_end(text, i).unwrap_or(b.len());
            }
            b'"' | b'\'' => i = literal_end(b, i).unwrap_or(b.len()),
            _ if number_starts(b, i) => {
                let start = i;
                i = number_end(b, i);
                let n = &text[start..i];
                let hex = n.starts_with("0x") || n.starts_with("0X");
                let floating = n.contains('.')
                    || (!hex && n.contains(['e', 'E']))
                    || (hex && n.contains(['p', 'P']));
                if floating && n.ends_with(['l', 'L']) {
                    let value = &n[..n.len() - 1];
                    if let Some((m, se)) = crate::f80::constant_bits(value) {
                        out.push((
                            start..i,
                            if crate::f80::is_a_double(m, se) {
                                format!("__acc_f80({value})")
                            } else {
                                format!("__acc_f80::bits({m:#x}ull, {se:#x})")
                            },
                        ));
                    }
                }
                continue;
            }
            _ => i += 1,
        }
    }
    out
}

/// The module's text in ASCII alone, meaning the same: the runtime hands NVRTC a C string and
/// keeps it as text, and a file's Latin-1 or UTF-8 bytes come along with its declarations. A
/// string or character constant keeps its bytes as three-digit octal escapes (the same bytes
/// in the compiled program); a comment loses them (`?`); elsewhere a non-ASCII byte could only
/// be part of an extended identifier, which NVRTC takes as UTF-8, so it stays unless it is one
/// of [`crate::text`]'s raw bytes (never valid C), which becomes `?`.
pub fn ascii_module(module: &str) -> String {
    if module.is_ascii() {
        return module.to_string();
    }
    use std::fmt::Write as _;
    let bytes = crate::text::encode(module);
    let b: &[u8] = &bytes;
    let mut out = String::with_capacity(b.len() + 64);
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'"' | b'\'' => {
                let end = crate::lex::literal_end(b, i).unwrap_or(b.len());
                for &x in &b[i..end] {
                    if x.is_ascii() {
                        out.push(x as char);
                    } else {
                        let _ = write!(out, "\\{x:03o}");
                    }
                }
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') || b.get(i + 1) == Some(&b'/') => {
                let end = if b[i + 1] == b'*' {
                    b[i + 2..]
                        .windows(2)
                        .position(|w| w == b"*/")
                        .map_or(b.len(), |j| i + 2 + j + 2)
                } else {
                    b[i..]
                        .iter()
                        .position(|&x| x == b'\n')
                        .map_or(b.len(), |j| i + j)
                };
                out.extend(
                    b[i..end]
                        .iter()
                        .map(|&x| if x.is_ascii() { x as char } else { '?' }),
                );
                i = end;
            }
            _ if c.is_ascii() => {
                out.push(c as char);
                i += 1;
            }
            _ => {
                // A whole UTF-8 character, or a raw byte.
                let len = match c {
                    0xC0..=0xDF => 2,
                    0xE0..=0xEF => 3,
                    0xF0..=0xF7 => 4,
                    _ => 1,
                };
                match std::str::from_utf8(&b[i..(i + len).min(b.len())]) {
                    Ok(ch) => {
                        out.push_str(ch);
                        i += len;
                    }
                    Err(_) => {
                        out.push('?');
                        i += 1;
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod ascii_tests {
    use super::ascii_module;

    #[test]
    fn literals_keep_their_bytes_and_comments_lose_them() {
        let raw = crate::text::decode(
            b"/* caf\xe9 */ const char *s = \"\xe9t\xe9\"; // \xff\nchar c = '\xe9';\r\n".to_vec(),
        );
        let m = ascii_module(&raw);
        assert!(m.is_ascii());
        assert_eq!(
            m,
            "/* caf? */ const char *s = \"\\351t\\351\"; // ?\nchar c = '\\351';\r\n"
        );
        let utf8 = "/* é */ const char *s = \"é\";";
        assert_eq!(
            ascii_module(utf8),
            "/* ?? */ const char *s = \"\\303\\251\";"
        );
    }
}

#[cfg(test)]
mod preprocessed_tests {
    use super::*;

    /// Names C++ reserves are renamed in the file's part of the module, never in the prelude,
    /// a string or a comment; `bool` only where the file declares it.
    #[test]
    fn cxx_keywords_of_the_file_are_renamed() {
        let src = "typedef int bool;\nint f(int new) { return new; }\n";
        let module = format!(
            "{}typedef int bool;\nint f(int new) {{ /* new */ return new + sizeof(\"new\"); }}\n",
            acc_engine::cuda::PRELUDE
        );
        let renamed = cxx_keywords_renamed(&module, src);
        assert!(renamed.starts_with(acc_engine::cuda::PRELUDE));
        assert!(renamed.ends_with(
            "typedef int __acc_cxx_bool;\nint f(int __acc_cxx_new) { /* new */ return __acc_cxx_new + sizeof(\"new\"); }\n"
        ));
        let stdbool = "#include <stdbool.h>\nbool b = true;\n";
        assert_eq!(
            cxx_keywords_renamed("bool b = true;\n", stdbool),
            "bool b = true;\n"
        );
        // NPB's logical type: its enumerators are the file's `false` and `true`.
        let npb = "typedef enum { false, true } logical;\nlogical ok = true;\n";
        assert_eq!(
            cxx_keywords_renamed(npb, npb),
            "typedef enum { __acc_cxx_false, __acc_cxx_true } logical;\nlogical ok = __acc_cxx_true;\n"
        );
    }

    /// The file's defaults give way to what the preprocessor decided (`-DN=32` over
    /// `#ifndef N` / `#define N 16`); macros it does not know keep their text.
    #[test]
    fn the_files_macros_are_defined_as_the_preprocessor_left_them() {
        let env = crate::preprocess::learn_text(
            "# 0 \"<command-line>\"\n#define N 32\n#define SQ(x, ...) ((x) * (x))\n",
        );
        let support = "#line 3 \"f.c\"\n#define N 16\n#line 4 \"f.c\"\n#define SQ(x) \\\n  (x)\n#line 6 \"f.c\"\n#define M 4\n";
        assert_eq!(
            as_preprocessed(support, &env.macros),
            "#line 3 \"f.c\"\n#define N 32\n#line 4 \"f.c\"\n#define SQ(x, ...) ((x) * (x))\n#line 6 \"f.c\"\n#define M 4\n"
        );
        assert_eq!(as_preprocessed(support, &Default::default()), support);
    }
}
