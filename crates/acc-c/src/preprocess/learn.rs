//! Learning from the preprocessor: runs `$CC -E -dD` with `_OPENACC` defined and reads what
//! the headers give (typedefs, struct tags, macros, globals, `#pragma pack`), which of the main
//! file's macro lines the preprocessor obeyed, and the OpenACC directives that stand in the
//! program's own headers.
//!
//! It must not decide whether the preprocessor is worth running (the parent module scans the
//! original text for that) nor edit any text.

use std::path::Path;
use std::process::Command;

use super::OPENACC_VERSION;
use crate::types::TypeEnv;

/// Runs the preprocessor over `file` and learns the file-scope facts of
/// everything it includes. `args` are the user's `-I`, `-D`, `-U`, `-std=`.
pub fn header_facts(cc: &str, file: &Path, args: &[String]) -> Result<TypeEnv, String> {
    let out = Command::new(cc)
        .arg("-E")
        .arg("-dD")
        .arg(format!("-D_OPENACC={OPENACC_VERSION}"))
        .args(args)
        .arg(file)
        .output()
        .map_err(|e| format!("cannot run the preprocessor `{cc}`: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "the preprocessor `{cc} -E` failed on {}:\n{}",
            file.display(),
            String::from_utf8_lossy(&out.stderr).trim_end()
        ));
    }
    let text = crate::text::decode(out.stdout);
    Ok(learn_text(&text))
}

/// The facts of already preprocessed text.
pub fn learn_text(text: &str) -> TypeEnv {
    let mut env = TypeEnv::default();
    // `-dD` writes an empty macro as `#define NAME ` with a trailing space,
    // and tree-sitter then takes the next line as its value (swallowing,
    // say, the typedef after an include guard). Offsets do not matter
    // here, so trailing blanks go.
    let joined = join_marked_pieces(text);
    let trimmed: String = joined
        .lines()
        .map(|l| format!("{}\n", l.trim_end()))
        .collect();
    let text = trimmed.as_str();
    let origins = line_origins(text);
    let files = files_of_lines(text);
    env.header_directives = header_directives(text);
    env.program_headers = program_headers(text);
    env.early_feature_macros = early_feature_macros(text);
    env.live_macro_lines = Some(main_macro_lines(text));
    // `#pragma pack` as the headers set it: the alignment their structs are laid out with.
    let mut pack = PackState::default();
    for tree in crate::syntax::parse(text) {
        let root = tree.root_node();
        let mut c = root.walk();
        for n in root.children(&mut c) {
            if n.kind() == "preproc_call" {
                pack.read(&text[n.byte_range()]);
            }
            env.learn(n, text);
            if origins.get(n.start_position().row) == Some(&Origin::Program) {
                if n.kind() == "function_definition" {
                    let name = n
                        .child_by_field_name("declarator")
                        .and_then(crate::syntax::declared_identifier);
                    if let (Some(name), Some(header)) = (name, files.get(n.start_position().row)) {
                        env.header_functions
                            .push((text[name.byte_range()].to_string(), header.to_string()));
                    }
                }
                let known = env.header_items.len();
                env.learn_header_item(n, text);
                if env.header_items.len() > known {
                    let header = files.get(n.start_position().row).copied().unwrap_or("");
                    let item = env.header_items.last_mut().expect("just learned");
                    item.header = header.into();
                    if let Some(n) = pack.current() {
                        item.text = format!(
                            "#pragma pack(push, {n})\n{}\n#pragma pack(pop)",
                            item.text.trim_end()
                        );
                    }
                }
            }
        }
    }
    env
}

/// The alignment `#pragma pack` lines set, as the compiler reads them: `pack(N)`, `pack()`,
/// `pack(push[, N])`, `pack(pop)`.
#[derive(Default)]
struct PackState {
    current: Option<String>,
    saved: Vec<Option<String>>,
}

impl PackState {
    /// Takes in a preprocessor line (any: only `#pragma pack` ones count).
    fn read(&mut self, line: &str) {
        let Some(args) = line
            .trim_start()
            .strip_prefix('#')
            .map(str::trim_start)
            .and_then(|l| l.strip_prefix("pragma"))
            .map(str::trim_start)
            .and_then(|l| l.strip_prefix("pack"))
            .map(str::trim)
            .and_then(|l| l.strip_prefix('('))
            .and_then(|l| l.strip_suffix(')'))
        else {
            return;
        };
        let parts: Vec<&str> = args.split(',').map(str::trim).collect();
        match parts.as_slice() {
            [""] => self.current = None,
            ["push", rest @ ..] => {
                self.saved.push(self.current.clone());
                if let Some(n) = rest.last().filter(|n| n.parse::<u32>().is_ok()) {
                    self.current = Some(n.to_string());
                }
            }
            ["pop", ..] => self.current = self.saved.pop().flatten(),
            [n] if n.parse::<u32>().is_ok() => self.current = Some(n.to_string()),
            _ => {}
        }
    }

    fn current(&self) -> Option<&str> {
        self.current.as_deref()
    }
}

/// The OpenACC directives of `$CC -E` output that come from the program's own headers (not
/// the main file, not system headers), where they stand in the header, and the line of the
/// main file whose `#include` brought the header in (from the line markers: `# 1 "t.h" 1`
/// enters a header, flag 2 returns; `_Pragma` comes out as a `#pragma` line where it was
/// used).
pub fn header_directives(text: &str) -> Vec<crate::types::HeaderDirective> {
    let mut out = Vec::new();
    let mut main: Option<String> = None;
    // The file the next line belongs to, its line number, whether it is a program header,
    // and the main file's line when a header was entered from it.
    let mut file = String::new();
    let mut line = 0usize;
    let mut program = false;
    let mut include_line = 0usize;
    // The headers entered below the main file, each with its includer's line of the
    // `#include`.
    let mut chain: Vec<(String, usize)> = Vec::new();
    for l in text.lines() {
        if let Some((n, name, flags)) = line_marker(l) {
            let main_name = main.get_or_insert_with(|| name.to_string()).clone();
            if file == main_name && name != main_name && flags.contains(&1) {
                // Entered from the main file: its current line is the `#include`.
                include_line = line;
            }
            if flags.contains(&1) && !file.is_empty() {
                chain.push((name.to_string(), line));
            } else if flags.contains(&2) {
                // Back in `name`: the headers below it are done.
                while chain.last().is_some_and(|(h, _)| h != name) {
                    chain.pop();
                }
            }
            program = name != main_name
                && name != "<command-line>"
                && name != "<built-in>"
                && !flags.contains(&3);
            file = name.to_string();
            line = n;
            continue;
        }
        let t = l.trim_start();
        if program {
            if let Some(rest) = t.strip_prefix('#').map(str::trim_start) {
                if let Some(rest) = rest.strip_prefix("pragma").map(str::trim_start) {
                    let is_acc = rest.starts_with("acc")
                        && !rest[3..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
                    if is_acc {
                        out.push(crate::types::HeaderDirective {
                            header: file.clone(),
                            line,
                            text: rest.trim_end().to_string(),
                            include_line,
                            chain: chain.clone(),
                        });
                    }
                }
            }
        }
        line += 1;
    }
    out
}

/// The lines of the main file whose `#define` or `#undef` the preprocessor's `-dD` output
/// shows (it writes each where the file has it, and none of an arm it skipped).
fn main_macro_lines(text: &str) -> std::collections::HashSet<usize> {
    let mut out = std::collections::HashSet::new();
    let mut main: Option<String> = None;
    let (mut in_main, mut line) = (false, 0usize);
    for l in text.lines() {
        if let Some((n, name, _)) = line_marker(l) {
            let main_name = main.get_or_insert_with(|| name.to_string());
            in_main = name == main_name.as_str();
            line = n;
            continue;
        }
        if in_main && crate::lex::macro_line(l).is_some() {
            out.insert(line);
        }
        line += 1;
    }
    out
}

/// The program's own headers the preprocessor entered (not system headers, not the main file),
/// each once, in the order it first entered them: the inclusions that led there, as
/// `HeaderDirective::chain` (its last is the header).
fn program_headers(text: &str) -> Vec<Vec<(String, usize)>> {
    let mut main: Option<String> = None;
    let (mut file, mut line) = (String::new(), 0usize);
    let mut chain: Vec<(String, usize)> = Vec::new();
    let mut out: Vec<Vec<(String, usize)>> = Vec::new();
    for l in text.lines() {
        let Some((n, name, flags)) = line_marker(l) else {
            line += 1;
            continue;
        };
        let main_name = main.get_or_insert_with(|| name.to_string()).clone();
        if flags.contains(&1) && !file.is_empty() {
            chain.push((name.to_string(), line));
            let program = name != main_name
                && name != "<command-line>"
                && name != "<built-in>"
                && !flags.contains(&3);
            if program && !out.iter().any(|c| c.last().is_some_and(|(h, _)| h == name)) {
                out.push(chain.clone());
            }
        } else if flags.contains(&2) {
            while chain.last().is_some_and(|(h, _)| h != name) {
                chain.pop();
            }
        }
        file = name.to_string();
        line = n;
    }
    out
}

/// The `#define`s (`-dD` output) of feature-test macros ([`crate::lower::FEATURE_TEST_MACROS`])
/// in the program's own headers before the file or one of them enters the first system
/// header (`<stdc-predef.h>`, which the compiler reads ahead of the file, is not one of them).
fn early_feature_macros(text: &str) -> Vec<String> {
    let mut main: Option<&str> = None;
    let mut in_program_header = false;
    // The file's text starts at its first marker after the compiler's own (`<built-in>`,
    // `<command-line>` and what they include): the very first names the file too.
    let mut seen_special = false;
    let mut in_unit = false;
    let mut out: Vec<String> = Vec::new();
    for l in text.lines() {
        if let Some((_, name, flags)) = line_marker(l) {
            let main = *main.get_or_insert(name);
            let special = name == "<built-in>" || name == "<command-line>";
            seen_special |= special;
            if flags.contains(&3) {
                if in_unit && flags.contains(&1) {
                    break;
                }
                continue;
            }
            in_unit |= name == main && seen_special;
            in_program_header = in_unit && name != main && !special;
            continue;
        }
        if !in_program_header {
            continue;
        }
        if let Some(("define", name)) = crate::lex::macro_line(l) {
            if crate::lower::FEATURE_TEST_MACROS.contains(&name) && !out.iter().any(|d| d == l) {
                out.push(l.trim_end().to_string());
            }
        }
    }
    out
}

/// The file each line of `$CC -E` output comes from, by the last line marker before it.
fn files_of_lines(text: &str) -> Vec<&str> {
    let mut file = "";
    text.lines()
        .map(|l| {
            if let Some((_, name, _)) = line_marker(l) {
                file = name;
            }
            file
        })
        .collect()
}

/// `$CC -E` output with the pieces of a line put back together. GCC marks the tokens a
/// system header's macro gave (`complex` from `<complex.h>` becomes `_Complex`) with line
/// markers inside the line: `typedef double`, `# 4 "s.h" 3 4`, `_Complex`, `# 4 "s.h"`,
/// `d_complex;`. The parser would read the markers as directives cutting the declaration (a
/// header's `typedef double complex d_complex` named nothing, and the CUDA module lacked it);
/// a marker that names the current file at the line just written (and neither enters nor
/// leaves a file) goes, and the piece after it joins that line, which keeps every later line's
/// number.
fn join_marked_pieces(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut file = String::new();
    // The number of the next line of `file`, and whether the next piece continues the last.
    let mut next = 0usize;
    let mut join = false;
    for l in text.lines() {
        if let Some((n, name, flags)) = line_marker(l) {
            // `<built-in>` and `<command-line>` number every line 0: their markers between
            // two macros mark no piece of a line.
            let continues = name == file
                && !name.starts_with('<')
                && n + 1 == next
                && !flags.contains(&1)
                && !flags.contains(&2)
                && out.ends_with('\n');
            if continues {
                join = true;
                continue;
            }
            file = name.to_string();
            next = n;
            join = false;
            out.push_str(l);
            out.push('\n');
            continue;
        }
        // A directive starts a line of its own: no piece of another line.
        if std::mem::take(&mut join) && !l.trim_start().starts_with('#') {
            out.pop();
            out.push(' ');
        } else {
            next += 1;
        }
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// A line marker `# N "file" flags…` of `$CC -E` output.
fn line_marker(l: &str) -> Option<(usize, &str, Vec<u8>)> {
    let rest = l.strip_prefix("# ")?;
    let (n, tail) = rest.split_once(' ')?;
    let n: usize = n.parse().ok()?;
    let tail = tail.strip_prefix('"')?;
    let end = tail.find('"')?;
    let flags = tail[end + 1..]
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    Some((n, &tail[..end], flags))
}

/// Where a line of preprocessed text comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// The file being compiled (what acc reads itself).
    Main,
    /// One of the program's own headers, or a `-D` option (`<command-line>`).
    Program,
    /// A system header, or the compiler's built-in macros.
    System,
}

/// The origin of every line of `$CC -E` output, from its line markers
/// (`# 12 "file.h" 1 3`: flag 3 is a system header). The first marker names the main file.
fn line_origins(text: &str) -> Vec<Origin> {
    let mut main: Option<&str> = None;
    let mut current = Origin::System;
    text.lines()
        .map(|line| {
            let Some(rest) = line.strip_prefix("# ") else {
                return current;
            };
            let mut words = rest.splitn(2, ' ');
            let is_marker = words
                .next()
                .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()));
            let Some(tail) = words.next().filter(|_| is_marker) else {
                return current;
            };
            let Some(tail) = tail.strip_prefix('"') else {
                return current;
            };
            let Some(end) = tail.find('"') else {
                return current;
            };
            let (file, flags) = (&tail[..end], &tail[end + 1..]);
            let main = *main.get_or_insert(file);
            current = if file == main {
                Origin::Main
            } else if file == "<command-line>" {
                Origin::Program
            } else if file == "<built-in>" || flags.split_whitespace().any(|f| f == "3") {
                Origin::System
            } else {
                Origin::Program
            };
            Origin::System
        })
        .collect()
}

/// Warnings for the directives of the program's own headers that acc does not apply (all of
/// them for `acc translate` and `acc check`; for `acc cc`, those of the headers it could not put
/// into the file, see [`crate::inline`]): one
/// for each header, at the `#include` of the file that brings it in. `routine` directives are
/// left out: on the host they change nothing, and a GPU kernel that calls a function defined
/// only in a header fails to compile with the GPU compiler's message.
pub fn header_directive_warnings(
    src: &str,
    directives: &[crate::types::HeaderDirective],
) -> Vec<acc_engine::Diagnostic> {
    let mut out: Vec<acc_engine::Diagnostic> = Vec::new();
    let mut done: Vec<(&str, usize)> = Vec::new();
    let applies = |d: &&crate::types::HeaderDirective| {
        let rest = d.text["acc".len()..].trim_start();
        let routine = rest
            .strip_prefix("routine")
            .is_some_and(|r| !r.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'));
        !routine
    };
    for d in directives.iter().filter(applies) {
        if done.contains(&(d.header.as_str(), d.include_line)) {
            continue;
        }
        done.push((d.header.as_str(), d.include_line));
        let more = directives
            .iter()
            .filter(applies)
            .filter(|e| e.header == d.header && e.include_line == d.include_line)
            .count()
            - 1;
        // The `#include` line, where the file names the header.
        let span = src
            .split_inclusive('\n')
            .scan(0usize, |at, l| {
                let start = *at;
                *at += l.len();
                Some((start, l))
            })
            .nth(d.include_line.saturating_sub(1))
            .filter(|_| d.include_line > 0)
            .map_or(acc_engine::Span::new(0, 0), |(start, l)| {
                let lead = l.len() - l.trim_start().len();
                acc_engine::Span::new(start + lead, start + l.trim_end().len())
            });
        let and_more = match more {
            0 => String::new(),
            1 => " and one more".to_string(),
            n => format!(" and {n} more"),
        };
        out.push(
            acc_engine::Diagnostic::warning(
                span,
                format!(
                    "acc does not apply the OpenACC directives of the program's headers: `#pragma {}` at {}:{}{} is ignored",
                    d.text, d.header, d.line, and_more
                ),
            )
            .with_note(
                "acc cc applies the directives of the program's headers by putting them into \
                 the file at their `#include`, but not of a header that guards itself with \
                 `#pragma once` alone and that another header includes too (the compiler \
                 would read its text again there), nor of one it cannot read: this header's \
                 code runs as plain C on the host, with the host's data. Guard it with \
                 `#ifndef`, or move the code that holds the directives into a .c file",
            ),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::learn_text;

    /// Each program header once, by the inclusions that first led there; system headers and
    /// the compiler's own text are none of them.
    #[test]
    fn program_headers_come_with_their_first_inclusions() {
        let text = "# 0 \"m.c\"\n# 0 \"<built-in>\"\n# 0 \"<command-line>\"\n# 1 \"/usr/include/stdc-predef.h\" 1 3 4\n# 0 \"<command-line>\" 2\n# 1 \"m.c\"\nint a;\n# 1 \"v.h\" 1\nint v;\n# 3 \"m.c\" 2\n# 1 \"w.h\" 1\n# 1 \"/usr/include/stdio.h\" 1 3 4\n# 2 \"w.h\" 2\n# 1 \"x.h\" 1\n# 3 \"w.h\" 2\n# 4 \"m.c\" 2\n# 1 \"x.h\" 1\n";
        let chain = |c: &[(&str, usize)]| -> Vec<(String, usize)> {
            c.iter().map(|(h, l)| (h.to_string(), *l)).collect()
        };
        assert_eq!(
            super::program_headers(text),
            [
                chain(&[("v.h", 2)]),
                chain(&[("w.h", 3)]),
                chain(&[("w.h", 3), ("x.h", 2)]),
            ]
        );
    }

    /// gcc's and clang's `-E -dD` markers: the file first, the compiler's own text (gcc reads
    /// `<stdc-predef.h>` there), then the file again; a header's feature-test macros count until
    /// the first system header, and so do neither the file's own nor later ones.
    #[test]
    fn feature_test_macros_of_headers_count_until_the_first_system_header() {
        let gcc = "# 0 \"m.c\"\n# 0 \"<built-in>\"\n#define __STDC__ 1\n# 0 \"<command-line>\"\n# 1 \"/usr/include/stdc-predef.h\" 1 3 4\n#define __STDC_IEC_559__ 1\n# 0 \"<command-line>\" 2\n# 1 \"m.c\"\n#define _DEFAULT_SOURCE 1\n# 1 \"defs.h\" 1\n#define _XOPEN_SOURCE 700\n#define N 4\n# 1 \"inner.h\" 1\n#define _GNU_SOURCE\n# 2 \"defs.h\" 2\n# 1 \"/usr/include/math.h\" 1 3 4\n#define _POSIX_C_SOURCE 1\n# 3 \"defs.h\" 2\n#define _ISOC11_SOURCE\n";
        assert_eq!(
            super::early_feature_macros(gcc),
            ["#define _XOPEN_SOURCE 700", "#define _GNU_SOURCE"]
        );
        let clang = "# 1 \"m.c\"\n# 1 \"<built-in>\" 1\n# 1 \"<built-in>\" 3\n#define __clang__ 1\n# 1 \"<command-line>\" 1\n# 1 \"<built-in>\" 2\n# 1 \"m.c\" 2\n# 1 \"./defs.h\" 1\n#define _XOPEN_SOURCE 700\n# 2 \"./defs.h\" 2\n";
        assert_eq!(
            super::early_feature_macros(clang),
            ["#define _XOPEN_SOURCE 700"]
        );
    }

    #[test]
    fn the_programs_own_headers_give_globals_and_items() {
        let text = "# 0 \"m.c\"\n# 0 \"<built-in>\"\n#define __GNUC__ 12\n# 1 \"/usr/include/stdio.h\" 1 3 4\n\
                    typedef struct _IO_FILE FILE;\nextern FILE *stdin;\n# 2 \"m.c\" 2\n# 1 \"t.h\" 1\n\
                    #define N 10\nlong long n = N;\ntypedef double real_t;\nreal_t grid[N], *p;\n\
                    static const double pi = 3.14, *q = &pi;\nconst int table[2] = {1, 2};\n\
                    int f(int);\nenum color { RED, GREEN };\n# 3 \"m.c\" 2\nint main_global;\n";
        let env = learn_text(text);
        let mut globals: Vec<&str> = env.header_globals.keys().map(String::as_str).collect();
        globals.sort_unstable();
        assert_eq!(globals, ["grid", "n", "p", "pi", "q", "table"]);
        let constants: Vec<Option<&str>> = ["n", "pi", "q", "table"]
            .iter()
            .map(|g| env.header_globals[*g].constant_initializer.as_deref())
            .collect();
        assert_eq!(constants, [None, Some("3.14"), None, Some("{1, 2}")]);
        assert_eq!(env.header_globals["n"].decl_text, "long long n");
        assert_eq!(
            &env.header_globals["n"].decl_text[env.header_globals["n"].decl_name.clone()],
            "n"
        );
        let names: Vec<Vec<String>> = env.header_items.iter().map(|i| i.names.clone()).collect();
        assert_eq!(
            names,
            [
                vec!["N".to_string()],
                vec!["real_t".into()],
                vec!["color".into(), "RED".into(), "GREEN".into()]
            ]
        );
        // Each names the header it comes from (a header acc puts into the file leaves its
        // items out of the CUDA module's, which the file's text gives).
        assert!(env.header_items.iter().all(|i| i.header == "t.h"));
    }

    /// A typedef of a complex type (C99 `double _Complex`, as `complex` expands) names its
    /// type, also where GCC cut the line with markers around the system macro's tokens: a
    /// CUDA module whose struct has such members takes the typedef along.
    #[test]
    fn a_complex_typedef_names_its_type() {
        let text = "# 0 \"m.c\"\n# 1 \"t.h\" 1\n# 3 \"t.h\"\ntypedef double \n# 3 \"t.h\" 3 4\n\
                    _Complex \n# 3 \"t.h\"\n    d_complex;\n\
                    typedef float _Complex f_complex, *f_complex_ptr;\n#pragma acc routine seq\n\
                    # 2 \"m.c\" 2\n";
        let env = learn_text(text);
        let names: Vec<Vec<String>> = env.header_items.iter().map(|i| i.names.clone()).collect();
        assert_eq!(
            names,
            [
                vec!["d_complex".to_string()],
                vec!["f_complex".into(), "f_complex_ptr".into()]
            ]
        );
        // The lines after the joined one keep their numbers: the directive is t.h's line 5.
        let d = super::header_directives(&super::join_marked_pieces(text));
        assert_eq!((d[0].header.as_str(), d[0].line), ("t.h", 5));
    }

    /// `-dD` output gives every built-in and command-line macro after a marker of line 0: all
    /// of them are learned (the marker joined each to the one before, and the second of two
    /// was lost: a `-DN=32` never reached the CUDA module), and a header's directive after a
    /// marker of the line just written stays a line of its own.
    #[test]
    fn macros_after_markers_are_all_learned() {
        let text = "# 0 \"m.c\"\n# 0 \"<built-in>\"\n#define __STDC__ 1\n# 0 \"<built-in>\"\n\
                    #define __GNUC__ 12\n# 0 \"<command-line>\"\n#define _OPENACC 202211\n\
                    # 0 \"<command-line>\"\n#define N 32\n# 1 \"m.c\"\n# 1 \"h.h\" 1\n\
                    int x;\n# 1 \"h.h\"\n#define M 4\n# 2 \"m.c\" 2\n";
        let env = learn_text(text);
        for name in ["__STDC__", "__GNUC__", "_OPENACC", "N", "M"] {
            assert!(
                env.macros.contains_key(name),
                "{name}: {:?}",
                env.macros.keys()
            );
        }
        assert_eq!(env.macros["N"].body, "32");
    }

    /// The main file's `#define`s the preprocessor obeyed are those its `-dD` output shows,
    /// by their lines; a skipped arm's are not, nor a header's.
    #[test]
    fn the_main_files_obeyed_macro_lines_are_known() {
        let text = "# 0 \"m.c\"\n# 0 \"<command-line>\"\n#define MODE 1\n# 1 \"m.c\"\n\n\n\n\n\
                    # 6 \"m.c\"\n#define SCALE 3\n# 1 \"h.h\" 1\n#define H 1\n# 8 \"m.c\" 2\n#undef SCALE\n";
        let mut lines: Vec<usize> = super::main_macro_lines(text).into_iter().collect();
        lines.sort_unstable();
        assert_eq!(lines, [6, 8]);
    }

    #[test]
    fn pack_pragmas_are_followed_as_the_compiler_does() {
        let mut pack = super::PackState::default();
        let mut seen = Vec::new();
        for line in [
            "#pragma pack(2)",
            "#pragma pack(push, 1)",
            "#pragma once",
            "#pragma pack(pop)",
            "#pragma pack()",
            "# pragma pack (push)",
            "#pragma pack(pop)",
        ] {
            pack.read(line);
            seen.push(pack.current().map(str::to_string));
        }
        let two = Some("2".to_string());
        let one = Some("1".to_string());
        assert_eq!(seen, [two.clone(), one.clone(), one, two, None, None, None]);
    }

    #[test]
    fn directives_of_program_headers_are_found_with_the_include_that_brings_them() {
        let text = "# 0 \"m.c\"\n# 0 \"<built-in>\"\n# 1 \"m.c\"\n# 1 \"/usr/include/x.h\" 1 3 4\n\
                    #pragma acc parallel\n# 2 \"m.c\" 2\nint a;\n# 1 \"t.h\" 1\n\
                    extern double A[4];\n#pragma acc declare create(A)\n\
                    # 1 \"u.h\" 1\n#pragma acc routine seq\nint f(int);\n#pragma acc kernels\n\
                    # 4 \"t.h\" 2\n# 4 \"m.c\" 2\n#pragma acc parallel loop\n";
        let found = super::header_directives(text);
        let seen: Vec<(&str, usize, &str, usize)> = found
            .iter()
            .map(|d| (d.header.as_str(), d.line, d.text.as_str(), d.include_line))
            .collect();
        assert_eq!(
            seen,
            [
                ("t.h", 2, "acc declare create(A)", 3),
                ("u.h", 1, "acc routine seq", 3),
                ("u.h", 3, "acc kernels", 3)
            ]
        );
        // The inclusions that lead to each: t.h from the file's line 3, u.h from t.h's line 3.
        assert_eq!(found[0].chain, [("t.h".to_string(), 3)]);
        assert_eq!(
            found[2].chain,
            [("t.h".to_string(), 3), ("u.h".to_string(), 3)]
        );
        let src = "#include <x.h>\nint a;\n  #include \"t.h\"\nint main(void) { return 0; }\n";
        let w = super::header_directive_warnings(src, &found);
        assert_eq!(w.len(), 2, "routine is left out, one per header: {w:?}");
        assert_eq!(&src[w[0].span.start..w[0].span.end], "#include \"t.h\"");
        assert!(w[0]
            .message
            .contains("`#pragma acc declare create(A)` at t.h:2 is ignored"));
    }

    #[test]
    fn empty_macros_do_not_swallow_the_next_line() {
        let env = learn_text("#define HEAT_H \ntypedef double real;\n#define N 8 \n");
        assert!(env.typedefs.contains_key("real"));
        assert_eq!(env.constants.get("N").map(String::as_str), Some("8"));
    }
}
