//! Header facts through the user's preprocessor.
//!
//! The original text is what we analyse and print, so macros and comments
//! survive; but typedefs, struct tags and macros from headers are only in
//! the preprocessed text. `$CC -E -dD` (with `_OPENACC` defined, as an
//! OpenACC compiler would) gives both, and we learn them from it.

use std::path::Path;
use std::process::Command;

use crate::types::TypeEnv;

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

/// Whether a header of the program's own that `file` includes mentions `_Pragma`: a macro
/// there may expand to an OpenACC directive where the file uses it, which only the headers'
/// facts show (see `sema::macro_directives`). The headers are those `#include "…"` names,
/// looked up beside the including file, then in the `-iquote` and `-I` directories of
/// `flags`, and what they include in turn, and those `-include` names. Reading them costs far
/// less than running the preprocessor, which a file that needs no header facts skips.
pub fn program_headers_mention_pragma(file: &Path, src: &str, flags: &[String]) -> bool {
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
        if path != file && text.windows(7).any(|w| w == b"_Pragma") {
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
    let trimmed: String = text
        .lines()
        .map(|l| format!("{}\n", l.trim_end()))
        .collect();
    let text = trimmed.as_str();
    let origins = line_origins(text);
    for tree in crate::syntax::parse(text) {
        let root = tree.root_node();
        let mut c = root.walk();
        for n in root.children(&mut c) {
            env.learn(n, text);
            if origins.get(n.start_position().row) == Some(&Origin::Program) {
                env.learn_header_item(n, text);
            }
        }
    }
    env
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

#[cfg(test)]
mod tests {
    use super::learn_text;

    #[test]
    fn the_programs_own_headers_give_globals_and_items() {
        let text = "# 0 \"m.c\"\n# 0 \"<built-in>\"\n#define __GNUC__ 12\n# 1 \"/usr/include/stdio.h\" 1 3 4\n\
                    typedef struct _IO_FILE FILE;\nextern FILE *stdin;\n# 2 \"m.c\" 2\n# 1 \"t.h\" 1\n\
                    #define N 10\nlong long n = N;\ntypedef double real_t;\nreal_t grid[N], *p;\n\
                    int f(int);\nenum color { RED, GREEN };\n# 3 \"m.c\" 2\nint main_global;\n";
        let env = learn_text(text);
        let mut globals: Vec<&str> = env.header_globals.keys().map(String::as_str).collect();
        globals.sort_unstable();
        assert_eq!(globals, ["grid", "n", "p"]);
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
    }

    #[test]
    fn empty_macros_do_not_swallow_the_next_line() {
        let env = learn_text("#define HEAT_H \ntypedef double real;\n#define N 8 \n");
        assert!(env.typedefs.contains_key("real"));
        assert_eq!(env.constants.get("N").map(String::as_str), Some("8"));
    }
}
