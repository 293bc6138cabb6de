//! Header facts through the user's preprocessor.
//!
//! The original text is what we analyse and print, so macros and comments
//! survive; but typedefs, struct tags and macros from headers are only in
//! the preprocessed text. `$CC -E -dD` (with `_OPENACC` defined, as an
//! OpenACC compiler would) gives both, and we learn them from it ([`learn`]).
//!
//! This module owns the cheap scans of the original text that decide whether running the
//! preprocessor is needed at all (a program header, a directive or macro inside `#if`, braces
//! split across branches) and where the first directive stands. It must not run the
//! preprocessor or read its output; [`learn`] does.

mod learn;

use std::path::Path;

pub use learn::{header_directive_warnings, header_directives, header_facts, learn_text};

/// `_OPENACC` for OpenACC 3.3 (November 2022).
pub const OPENACC_VERSION: &str = "202211";

/// Whether the file includes a header with `#include "…"`, the form for a program's own
/// (whose globals, types and macros a construct may use: worth reading the headers for).
pub fn includes_program_header(src: &str) -> bool {
    src.lines().any(|l| {
        let l = l.trim_start();
        l.strip_prefix('#')
            .map(str::trim_start)
            .and_then(|l| l.strip_prefix("include"))
            .is_some_and(|l| l.trim_start().starts_with('"'))
    })
}

/// Whether the preprocessor's view of the file is needed beyond what its text shows: macros
/// given or removed on the command line (`-D`, `-U`) decide `#if` branches and the values
/// of the file's macros, which a CUDA module must define as the host compiler saw them; or
/// the program's headers may hold directives ([`program_headers_may_hold_directives`]).
pub fn needs_headers(file: &Path, src: &str, flags: &[String]) -> bool {
    let command_line_macros = flags
        .iter()
        .any(|f| f.starts_with("-D") || f.starts_with("-U"));
    (command_line_macros && src.contains("acc"))
        || directive_in_conditional(src)
        || (src.contains("acc") && macro_in_conditional(src))
        || (src.contains("acc") && braces_split_by_conditionals(src))
        || program_headers_may_hold_directives(file, src, flags)
}

/// Whether a `#if` branch of the text opens more braces than it closes, or closes more than
/// it opens (a loop's `{` in one `#ifdef`, its `}` in another): acc then reads the file as
/// the compiler will see it (`sema::conditionals`), which needs every macro's answer.
pub(crate) fn braces_split_by_conditionals(src: &str) -> bool {
    let mut arms: Vec<i64> = Vec::new();
    let mut in_comment = false;
    for line in src.lines() {
        if !in_comment {
            if let Some(d) = line.trim_start().strip_prefix('#').map(str::trim_start) {
                if d.starts_with("if") {
                    arms.push(0);
                } else if d.starts_with("el") || d.starts_with("endif") {
                    if arms.last().is_some_and(|&b| b != 0) {
                        return true;
                    }
                    if d.starts_with("endif") {
                        arms.pop();
                    }
                }
                continue;
            }
        }
        let Some(depth) = arms.last_mut() else {
            in_comment = in_comment && !line.contains("*/");
            continue;
        };
        let (b, mut i, mut quote) = (line.as_bytes(), 0, None::<u8>);
        while i < b.len() {
            let c = b[i];
            if in_comment {
                if c == b'*' && b.get(i + 1) == Some(&b'/') {
                    in_comment = false;
                    i += 1;
                }
            } else if let Some(q) = quote {
                if c == b'\\' {
                    i += 1;
                } else if c == q {
                    quote = None;
                }
            } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
                break;
            } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
                in_comment = true;
                i += 1;
            } else if c == b'"' || c == b'\'' {
                quote = Some(c);
            } else if c == b'{' {
                *depth += 1;
            } else if c == b'}' {
                *depth -= 1;
            }
            i += 1;
        }
    }
    false
}

/// Whether a `#pragma acc` line stands inside a `#if`/`#ifdef` block of the text: which branch
/// the compiler sees (and so which directive owns the statement after `#endif`) is then the
/// preprocessor's answer.
fn directive_in_conditional(src: &str) -> bool {
    line_in_conditional(src, |_, d| {
        d.starts_with("pragma") && d["pragma".len()..].trim_start().starts_with("acc")
    })
}

/// Whether a `#if` arm of the text defines or undefines a macro (`#ifndef BIG` / `#define
/// SCALE 2` / `#else` / `#define SCALE 1000`): which definition holds takes the preprocessor's
/// answer for every name the conditions test (a CUDA module must define the one the host
/// compiler saw).
fn macro_in_conditional(src: &str) -> bool {
    line_in_conditional(src, |line, _| crate::lex::macro_line(line).is_some())
}

/// Whether a preprocessor line inside a `#if` block of the text is one `wanted` takes (given
/// the line and its directive, from the word after `#`).
fn line_in_conditional(src: &str, wanted: impl Fn(&str, &str) -> bool) -> bool {
    let mut depth = 0usize;
    for line in src.lines() {
        let Some(d) = line.trim_start().strip_prefix('#').map(str::trim_start) else {
            continue;
        };
        if d.starts_with("if") {
            depth += 1;
        } else if d.starts_with("endif") {
            depth = depth.saturating_sub(1);
        } else if depth > 0 && wanted(line, d) {
            return true;
        }
    }
    false
}

/// Whether a header of the program's own that `file` includes may hold an OpenACC directive
/// (a `#pragma acc` line, which acc does not apply there and says so) or mentions `_Pragma` (a
/// macro there may expand to a directive where the file uses it): what only the headers'
/// facts show (see `sema::macro_directives`, [`header_directives`]). The headers are those `#include "…"` names,
/// looked up beside the including file, then in the `-iquote` and `-I` directories of
/// `flags`, and what they include in turn, and those `-include` names. Reading them costs far
/// less than running the preprocessor, which a file that needs no header facts skips.
pub fn program_headers_may_hold_directives(file: &Path, src: &str, flags: &[String]) -> bool {
    let mut dirs: Vec<std::path::PathBuf> = Vec::new();
    let mut forced: Vec<std::path::PathBuf> = Vec::new();
    let mut it = flags.iter();
    while let Some(f) = it.next() {
        for (flag, list) in [("-iquote", 0), ("-I", 0), ("-include", 1)] {
            let value = match f.strip_prefix(flag) {
                Some("") => it.next().map(String::as_str),
                Some(v) if flag == "-I" => Some(v),
                _ => None,
            };
            if let Some(v) = value {
                if list == 0 {
                    dirs.push(v.into())
                } else {
                    forced.push(v.into())
                }
                break;
            }
        }
    }
    let mut seen: std::collections::HashSet<std::path::PathBuf> = std::collections::HashSet::new();
    let mut stack: Vec<(std::path::PathBuf, Vec<u8>)> =
        vec![(file.to_path_buf(), src.as_bytes().to_vec())];
    for f in forced {
        if let Ok(text) = std::fs::read(&f) {
            stack.push((f, text));
        }
    }
    while let Some((path, text)) = stack.pop() {
        if path != file && may_have_directives(&String::from_utf8_lossy(&text)) {
            return true;
        }
        let here = path.parent().map(Path::to_path_buf).unwrap_or_default();
        for name in quoted_includes(&String::from_utf8_lossy(&text)) {
            let found = std::iter::once(&here)
                .chain(&dirs)
                .map(|d| d.join(&name))
                .find(|p| p.is_file());
            // A bound on what is read: a program's own headers are few.
            if let Some(p) = found.filter(|p| seen.len() < 256 && seen.insert(p.clone())) {
                if let Ok(t) = std::fs::read(&p) {
                    stack.push((p, t));
                }
            }
        }
    }
    false
}

/// Whether the text may hold an OpenACC directive: `pragma`, then blanks or line splices,
/// then `acc`; or `_Pragma`, which may hide one. A false "yes" only costs reading further.
pub fn may_have_directives(src: &str) -> bool {
    if src.contains("_Pragma") {
        return true;
    }
    src.match_indices("pragma").any(|(at, m)| {
        let mut rest = &src[at + m.len()..];
        loop {
            let t = rest.trim_start_matches([' ', '\t']);
            match t.strip_prefix("\\\n").or_else(|| t.strip_prefix("\\\r\n")) {
                Some(r) => rest = r,
                None => {
                    rest = t;
                    break;
                }
            }
        }
        // `ACC` too: not a directive, but the analysis says so (the compiler would not).
        rest.get(..3)
            .filter(|w| w.eq_ignore_ascii_case("acc"))
            .is_some_and(|_| {
                !rest[3..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            })
    })
}

/// Where the text's first OpenACC directive is: `#pragma acc` or `_Pragma("acc …")`, outside
/// comments and literals.
pub fn first_directive(src: &str) -> Option<std::ops::Range<usize>> {
    let words: Vec<std::ops::Range<usize>> = crate::lex::code_words(src).collect();
    words.iter().enumerate().find_map(|(i, w)| {
        let word = &src[w.clone()];
        let next = words.get(i + 1).map(|n| &src[n.clone()]);
        let directive = match word {
            "pragma" => {
                src[..w.start].trim_end_matches([' ', '\t']).ends_with('#') && next == Some("acc")
            }
            "_Pragma" => src[w.end..]
                .trim_start()
                .strip_prefix('(')
                .is_some_and(|r| {
                    r.trim_start()
                        .trim_start_matches('"')
                        .trim_start()
                        .starts_with("acc")
                }),
            _ => false,
        };
        directive.then(|| w.clone())
    })
}

/// The names of a text's `#include "…"` lines.
fn quoted_includes(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim_start().strip_prefix('#')?.trim_start();
            let l = l.strip_prefix("include")?.trim_start().strip_prefix('"')?;
            Some(l[..l.find('"')?].to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::braces_split_by_conditionals;

    #[test]
    fn braces_split_across_branches_are_found_and_balanced_ones_are_not() {
        let split = "#ifdef ITER\n  for (;;) {\n#endif\n  x++;\n#ifdef ITER\n  }\n#endif\n";
        assert!(braces_split_by_conditionals(split));
        let balanced = "#if A\n  if (x) { y(\"{\"); } /* { */\n#else\n  z('}');\n#endif\n{ }\n";
        assert!(!braces_split_by_conditionals(balanced));
    }

    #[test]
    fn directives_are_found_conservatively() {
        use super::may_have_directives;
        assert!(may_have_directives("#pragma acc parallel\n"));
        assert!(may_have_directives("  #  pragma   acc loop\n"));
        assert!(may_have_directives("#pragma \\\n acc kernels\n"));
        assert!(may_have_directives("_Pragma(\"omp\")"));
        assert!(may_have_directives("/* #pragma acc is mentioned */"));
        assert!(!may_have_directives("#pragma once\n#pragma omp parallel\n"));
        assert!(!may_have_directives("#pragma accurate\nint pragma_acc;\n"));
        assert!(!may_have_directives("int main(void) { return 0; }\n"));
    }
}
