//! The program's own headers that hold OpenACC directives, put into the file at the `#include`
//! that brought them in, between `#line` markers, so that `acc cc` applies their directives as
//! it does the file's own (a `static inline` function with a compute construct in a header, a
//! style of whole books and codes). The C compiler sees the same translation unit: the
//! header's text where the preprocessor read it, its lines and file named as before
//! ([`crate::line_map`]).
//!
//! A header goes in at the inclusion where the preprocessor read its directives: the file's
//! `#include` of it, or of the header that includes it (to any depth, each level put in). A
//! header guarded by `#pragma once` alone goes in too, where it was first read, and the other
//! `#include`s of it in that text become comments; but where a header that stays one includes
//! it again (the C compiler would read its text a second time, since it is no longer that
//! file's), it stays a header, and its directives are reported
//! (`preprocess::header_directive_warnings`). It reads
//! the preprocessor's facts (`TypeEnv::header_directives`) and the headers' text; it must not
//! analyse C.

use std::path::{Path, PathBuf};

use crate::types::HeaderDirective;

/// The file with headers put in, and what changed.
#[derive(Clone, Debug, Default)]
pub struct Inlined {
    /// The file's text with the headers in it.
    pub text: String,
    /// For each header put in at a line of the file: that line, and how many lines the text
    /// grew there.
    grown: Vec<(usize, usize)>,
    /// The inclusion chains put in (see `HeaderDirective::chain`), each level.
    chains: Vec<Vec<(String, usize)>>,
    /// The headers put in that guard themselves with `#pragma once` alone.
    read_once: Vec<String>,
}

impl Inlined {
    /// The headers put in (as the preprocessor named them), in the order they were: each
    /// chain's last.
    pub fn headers(&self) -> Vec<String> {
        self.chains
            .iter()
            .filter_map(|c| c.last().map(|(h, _)| h.clone()))
            .collect()
    }

    /// Whether the inclusion that brought `d`'s header in was put in, at every level.
    pub fn put_in(&self, d: &HeaderDirective) -> bool {
        !d.chain.is_empty() && self.chains.contains(&d.chain)
    }

    /// The line of the new text that was line `line` of the file (1-based).
    pub fn line_in_text(&self, line: usize) -> usize {
        line + self
            .grown
            .iter()
            .filter(|(at, _)| *at < line)
            .map(|(_, n)| n)
            .sum::<usize>()
    }
}

/// The inclusions to put in below one file: by the line of its `#include`, the header and
/// what to put in below that header.
#[derive(Default)]
struct Wanted {
    below: Vec<(usize, String, Wanted)>,
    /// The header (the inclusion that leads here) holds directives itself.
    own: bool,
}

impl Wanted {
    fn add(&mut self, chain: &[(String, usize)]) {
        let Some(((header, line), rest)) = chain.split_first() else {
            self.own = true;
            return;
        };
        let i = match self
            .below
            .iter()
            .position(|(l, h, _)| l == line && h == header)
        {
            Some(i) => i,
            None => {
                self.below.push((*line, header.clone(), Wanted::default()));
                self.below.len() - 1
            }
        };
        self.below[i].2.add(rest);
    }
}

/// `src` (the file named `file`) with the headers of `directives` put in at the `#include`s
/// that brought them in: a header the file includes itself, and one such a header includes
/// (to any depth), each where the preprocessor read its directives, and the headers of the
/// inclusion chains `also` (headers that define functions the file's compute constructs call,
/// or that are included inside a construct's statement);
/// `None` when none can be. `program_headers` are all the program's headers the preprocessor read: a header guarded
/// by `#pragma once` alone goes in only when none of them that stays a header includes it
/// (it would be read again there), and the other `#include`s of it in the text that went in
/// become comments (the compiler would read it again at each). `read` reads a header (the
/// file system; in tests a table).
pub fn headers_into_file(
    src: &str,
    file: &str,
    directives: &[HeaderDirective],
    also: &[Vec<(String, usize)>],
    program_headers: &[Vec<(String, usize)>],
    read: &mut dyn FnMut(&Path) -> Option<String>,
) -> Option<Inlined> {
    let mut wanted = Wanted::default();
    let chains = || directives.iter().map(|d| &d.chain).chain(also);
    for chain in chains() {
        wanted.add(chain);
    }
    let mut candidates: Vec<String> = chains()
        .flat_map(|c| c.iter().map(|(h, _)| h.clone()))
        .collect();
    // A header that includes one read once that goes in goes in too (where it was first
    // read), so that its `#include` of it can become a comment; and so on, to the headers
    // that include those.
    loop {
        let read_once: Vec<String> = candidates
            .iter()
            .filter(|h| {
                read(Path::new(h.as_str()))
                    .is_some_and(|t| matches!(unguarded(&t), Body::ReadOnce(_)))
            })
            .cloned()
            .collect();
        let mut more = false;
        for chain in program_headers {
            let Some((header, _)) = chain.last() else {
                continue;
            };
            if candidates.contains(header) {
                continue;
            }
            let includes_one = read(Path::new(header))
                .is_some_and(|t| t.lines().any(|l| read_once.iter().any(|h| includes(l, h))));
            if includes_one {
                wanted.add(chain);
                candidates.extend(chain.iter().map(|(h, _)| h.clone()));
                more = true;
            }
        }
        if !more {
            break;
        }
    }
    // A header read once goes in only where no header that stays one includes it; one that
    // was to go in may stay (its `#include` not found), so check what did go in, and again
    // without a header read once that such a one includes.
    let headers_texts: Vec<(String, String)> = program_headers
        .iter()
        .filter_map(|c| c.last())
        .filter_map(|(h, _)| read(Path::new(h)).map(|t| (h.clone(), t)))
        .collect();
    let includers = |h: &str, put: &dyn Fn(&str) -> bool| {
        headers_texts
            .iter()
            .filter(|(p, _)| !put(p))
            .any(|(_, t)| t.lines().any(|l| includes(l, h)))
    };
    let mut may_read_once: Vec<String> = candidates
        .iter()
        .filter(|h| !includers(h, &|p| candidates.iter().any(|c| c == p)))
        .cloned()
        .collect();
    let (mut out, text) = loop {
        let mut out = Inlined::default();
        let text = put_in(src, file, &wanted, &may_read_once, read, &mut out, &[])?;
        let went_in = out.headers();
        let reread: Vec<String> = out
            .read_once
            .iter()
            .filter(|h| includers(h, &|p| went_in.iter().any(|g| g == p)))
            .cloned()
            .collect();
        if reread.is_empty() {
            break (out, text);
        }
        may_read_once.retain(|h| !reread.contains(h));
    };
    out.text = if out.read_once.is_empty() {
        text
    } else {
        text.split_inclusive('\n')
            .map(|l| match out.read_once.iter().find(|h| includes(l, h)) {
                Some(_) => {
                    let end = l.trim_end_matches(['\n', '\r']);
                    format!(
                        "/* acc: {} (read once, where it went in: #pragma once) */{}",
                        end.trim().replace("*/", "* /"),
                        &l[end.len()..]
                    )
                }
                None => l.to_string(),
            })
            .collect()
    };
    Some(out)
}

/// `text` (of `file`, reached through the inclusions `path`) with the headers `wanted` names
/// put in; `None` when none could be.
fn put_in(
    text: &str,
    file: &str,
    wanted: &Wanted,
    may_read_once: &[String],
    read: &mut dyn FnMut(&Path) -> Option<String>,
    out: &mut Inlined,
    path: &[(String, usize)],
) -> Option<String> {
    let mut below: Vec<&(usize, String, Wanted)> = wanted.below.iter().collect();
    below.sort_by_key(|(line, _, _)| *line);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut new = String::new();
    let mut next = 0usize;
    let mut any = false;
    for (line, header, deeper) in below {
        let line = *line;
        let Some(&include) = line.checked_sub(1).and_then(|i| lines.get(i)) else {
            continue;
        };
        if !includes(include, header) || line <= next {
            continue;
        }
        let mut read_once = false;
        let body = match read(Path::new(header)).map(|t| unguarded(&t)) {
            Some(Body::Guarded(b) | Body::Plain(b)) => b,
            Some(Body::ReadOnce(b)) if may_read_once.contains(header) => {
                read_once = true;
                b
            }
            _ => continue,
        };
        let mut here = path.to_vec();
        here.push((header.clone(), line));
        let body = match put_in(&body, header, deeper, may_read_once, read, out, &here) {
            Some(b) => b,
            // A header that only leads to one acc could not put in stays a header.
            None if !deeper.own => continue,
            None => body,
        };
        for l in &lines[next..line - 1] {
            new.push_str(l);
        }
        let before = new.len();
        new.push_str(&format!("#line 1 {}\n", quoted(header)));
        new.push_str(&body);
        if !body.ends_with('\n') {
            new.push('\n');
        }
        new.push_str(&format!("#line {} {}\n", line + 1, quoted(file)));
        if path.is_empty() {
            // The `#include` line itself gave way.
            let added = new[before..].matches('\n').count();
            out.grown.push((line, added - 1));
        }
        out.chains.push(here);
        if read_once {
            out.read_once.push(header.clone());
        }
        next = line;
        any = true;
    }
    if !any {
        return None;
    }
    for l in &lines[next..] {
        new.push_str(l);
    }
    Some(new)
}

/// Whether `line` is an `#include` naming `header` (the preprocessor's path of it, which ends
/// with the name the directive wrote).
fn includes(line: &str, header: &str) -> bool {
    let Some(rest) = line.trim_start().strip_prefix('#') else {
        return false;
    };
    let Some(rest) = rest.trim_start().strip_prefix("include") else {
        return false;
    };
    let rest = rest.trim_start();
    let (open, close) = match rest.chars().next() {
        Some('"') => ('"', '"'),
        Some('<') => ('<', '>'),
        _ => return false,
    };
    let Some(name) = rest[open.len_utf8()..].split(close).next() else {
        return false;
    };
    // `Path` keeps a leading `.` (`"./fn.h"`) but drops an inner one (the preprocessor's
    // `sub/./fn.h` for it): compare without them.
    fn parts(p: &str) -> Vec<std::path::Component<'_>> {
        Path::new(p)
            .components()
            .filter(|c| *c != std::path::Component::CurDir)
            .collect()
    }
    !name.is_empty() && parts(header).ends_with(&parts(name))
}

/// The header's text to put in at the inclusion where the preprocessor read it: its include
/// guard (`#ifndef X` then `#define X` as its first directives) kept but made `#if 1`, since
/// the preprocessor found X undefined there, so that acc's reading of the `#if` (which knows
/// only the macros of the whole unit, where X is defined) keeps the body. A `#pragma once`
/// becomes a comment (in the file it would say nothing): beside such a guard the guard keeps
/// a later `#include` of the header out; alone, the text is [`Body::ReadOnce`], which may go
/// in only where no later `#include` of the header can read it again (see
/// [`headers_into_file`]).
fn unguarded(text: &str) -> Body {
    let directives: Vec<(usize, &str)> = text
        .split_inclusive('\n')
        .scan(0usize, |at, l| {
            let start = *at;
            *at += l.len();
            Some((start, l))
        })
        .filter(|(_, l)| l.trim_start().starts_with('#'))
        .collect();
    let words = |l: &str| -> Vec<String> {
        l.trim_start()[1..]
            .split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == '!')
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let is_once = |l: &str| {
        if !l.trim_start().starts_with('#') {
            return false;
        }
        let w = words(l);
        w.len() >= 2 && w[0] == "pragma" && w[1] == "once"
    };
    let once: Vec<(usize, &str)> = directives
        .iter()
        .copied()
        .filter(|(_, l)| is_once(l))
        .collect();
    let directives: Vec<(usize, &str)> = directives
        .into_iter()
        .filter(|(_, l)| !is_once(l))
        .collect();
    let guard = match (directives.first(), directives.get(1)) {
        (Some(&(at, first)), Some(&(_, second)))
            if before_is_blank(
                &text[..at]
                    .split_inclusive('\n')
                    .filter(|l| !is_once(l))
                    .collect::<String>(),
            ) =>
        {
            let (w1, w2) = (words(first), words(second));
            let name = match w1.iter().map(String::as_str).collect::<Vec<_>>()[..] {
                ["ifndef", x] => Some(x.to_string()),
                ["if", "defined", x] if first.contains('!') => Some(x.to_string()),
                _ => None,
            };
            name.filter(|x| w2.len() >= 2 && w2[0] == "define" && w2[1] == *x)
                .map(|_| (at, first.trim_end_matches(['\n', '\r']).len()))
        }
        _ => None,
    };
    // The edits, from the end so the offsets before stay.
    let edit = |mut edits: Vec<(usize, usize, String)>| {
        edits.sort_by_key(|e| std::cmp::Reverse(e.0));
        let mut out = text.to_string();
        for (o, l, new) in edits {
            out.replace_range(o..o + l, &new);
        }
        out
    };
    let once_as_comments = |why: &str| -> Vec<(usize, usize, String)> {
        once.iter()
            .map(|&(o, l)| {
                let l = l.trim_end_matches(['\n', '\r']);
                (o, l.len(), format!("/* acc: {} ({why}) */", l.trim()))
            })
            .collect()
    };
    let Some((at, len)) = guard else {
        if once.is_empty() {
            return Body::Plain(text.to_string());
        }
        return Body::ReadOnce(edit(once_as_comments("the header is read once, here")));
    };
    let mut edits = once_as_comments("the header's guard keeps it once");
    edits.push((
        at,
        len,
        format!(
            "#if 1 /* acc: {} (the header, put in where it was first read) */",
            text[at..at + len].trim()
        ),
    ));
    Body::Guarded(edit(edits))
}

/// A header's text as it goes into the file (see [`unguarded`]).
#[derive(Debug, PartialEq, Eq)]
enum Body {
    /// Guarded by `#ifndef X` / `#define X`: a later `#include` of the header reads nothing.
    Guarded(String),
    /// Guarded by `#pragma once` alone: the compiler would read the header again at a later
    /// `#include` of it, since its text is now the file's.
    ReadOnce(String),
    /// Not guarded: read again at each `#include`, as before.
    Plain(String),
}

/// Whether only blanks and comments come before the first directive.
fn before_is_blank(text: &str) -> bool {
    let mut rest = text.trim_start();
    loop {
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.split_once('\n').map_or("", |(_, t)| t).trim_start();
        } else if let Some(r) = rest.strip_prefix("/*") {
            match r.split_once("*/") {
                Some((_, t)) => rest = t.trim_start(),
                None => return false,
            }
        } else {
            return rest.is_empty();
        }
    }
}

/// A C string literal of `s` as a `#line` directive takes it.
fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The directories of the headers put in, for the C compiler's `-iquote`: their own
/// `#include "…"` lines look there first, as when they were files of their own.
pub fn quote_dirs(headers: &[String]) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    for h in headers {
        let dir = Path::new(h)
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn directive(header: &str, include_line: usize) -> HeaderDirective {
        HeaderDirective {
            header: header.into(),
            line: 3,
            text: "acc parallel loop".into(),
            include_line,
            chain: vec![(header.into(), include_line)],
        }
    }

    fn run(src: &str, dirs: &[HeaderDirective], files: &[(&str, &str)]) -> Option<Inlined> {
        let read: Vec<Vec<(String, usize)>> = files
            .iter()
            .map(|(n, _)| vec![(n.to_string(), 99)])
            .collect();
        headers_into_file(src, "m.c", dirs, &[], &read, &mut |p| {
            files
                .iter()
                .find(|(n, _)| Path::new(n) == p)
                .map(|(_, t)| t.to_string())
        })
    }

    #[test]
    fn a_header_goes_where_the_file_includes_it_with_its_lines_named() {
        let src = "#include <stdio.h>\n#include \"k.h\"\nint main(void) { return 0; }\n";
        let header = "/* k */\n#ifndef K_H\n#define K_H\nstatic void k(void) {}\n#endif\n";
        let got = run(src, &[directive("inc/k.h", 2)], &[("inc/k.h", header)]).unwrap();
        assert_eq!(
            got.text,
            "#include <stdio.h>\n#line 1 \"inc/k.h\"\n/* k */\n#if 1 /* acc: #ifndef K_H (the header, put in where it was first read) */\n#define K_H\nstatic void k(void) {}\n#endif\n#line 3 \"m.c\"\nint main(void) { return 0; }\n"
        );
        assert_eq!(got.headers(), ["inc/k.h"]);
        let map = crate::line_map::LineMap::new(&got.text, "m.c");
        let at = |s: &str| map.place(got.text.find(s).unwrap());
        assert_eq!((at("static").file, at("static").line), ("inc/k.h", 4));
        assert_eq!((at("int main").file, at("int main").line), ("m.c", 3));
        assert_eq!(got.line_in_text(1), 1);
        assert_eq!(got.line_in_text(3), 9);
    }

    #[test]
    fn headers_acc_cannot_put_in_stay_headers() {
        let src = "#include \"a.h\"\n#include \"once.h\"\nint x;\n";
        // b.h is included by a.h, not by the file; once.h guards itself with #pragma once,
        // and a header that stays one (c.h) includes it again.
        let dirs = [directive("b.h", 1), directive("once.h", 2)];
        let files = [
            ("b.h", "void b(void);\n"),
            ("once.h", "#pragma once\nvoid o(void);\n"),
            ("c.h", "#include \"once.h\"\n"),
        ];
        assert!(run(src, &dirs, &files).is_none());
        // A header that cannot be read stays too.
        assert!(run(src, &[directive("a.h", 1)], &[]).is_none());
    }

    /// The preprocessor names a header by the path the `#include` joins to its includer's
    /// directory, `.` parts and all (`inc/./fn.h` for `#include "./fn.h"` in `inc/wrap.h`).
    #[test]
    fn an_include_names_its_header_whatever_dot_parts_either_path_has() {
        assert!(includes("#include \"./fn.h\"", "inc/./fn.h"));
        assert!(includes("#include \"./fn.h\"", "./fn.h"));
        assert!(includes("#include \"fn.h\"", "inc/./fn.h"));
        assert!(includes("#include \"../up.h\"", "inc/../up.h"));
        assert!(!includes("#include \"./fn.h\"", "inc/./other.h"));
        assert!(!includes("#include \"sub/fn.h\"", "inc/./fn.h"));
    }

    /// A header that a header the file includes includes: both go in, each with its lines.
    #[test]
    fn a_nested_header_goes_in_inside_the_header_that_includes_it() {
        let src = "#include \"outer.h\"\nint main(void) { return 0; }\n";
        let outer = "#ifndef OUTER_H\n#define OUTER_H\n#include \"inner.h\"\nint o;\n#endif\n";
        let inner = "static void k(void) {}\n";
        let mut d = directive("inc/inner.h", 1);
        d.chain = vec![("inc/outer.h".into(), 1), ("inc/inner.h".into(), 3)];
        let got = run(
            src,
            &[d.clone()],
            &[("inc/outer.h", outer), ("inc/inner.h", inner)],
        )
        .unwrap();
        assert_eq!(
            got.text,
            "#line 1 \"inc/outer.h\"\n#if 1 /* acc: #ifndef OUTER_H (the header, put in where it was first read) */\n#define OUTER_H\n#line 1 \"inc/inner.h\"\nstatic void k(void) {}\n#line 4 \"inc/outer.h\"\nint o;\n#endif\n#line 2 \"m.c\"\nint main(void) { return 0; }\n"
        );
        assert!(got.put_in(&d));
        assert_eq!(got.headers(), ["inc/inner.h", "inc/outer.h"]);
        assert_eq!(got.line_in_text(2), 10);
        let map = crate::line_map::LineMap::new(&got.text, "m.c");
        let at = |s: &str| map.place(got.text.find(s).unwrap());
        assert_eq!((at("static").file, at("static").line), ("inc/inner.h", 1));
        assert_eq!((at("int o").file, at("int o").line), ("inc/outer.h", 4));
        // An inner header read once goes in too; one a header that stays one includes again
        // cannot, and the outer one then stays a header as well.
        let once = "#pragma once\nstatic void k(void) {}\n";
        let got = run(
            src,
            &[d.clone()],
            &[("inc/outer.h", outer), ("inc/inner.h", once)],
        );
        assert!(got
            .unwrap()
            .text
            .contains("#line 1 \"inc/inner.h\"\n/* acc: #pragma once"));
        let got = run(
            src,
            &[d.clone()],
            &[
                ("inc/outer.h", outer),
                ("inc/inner.h", once),
                ("inc/other.h", "#include \"inner.h\"\n"),
            ],
        );
        assert!(got.is_none(), "nothing of the chain's last header went in");
    }

    #[test]
    fn guards_are_recognised_only_as_the_first_directives() {
        assert_eq!(
            unguarded("#if !defined(G)\n#define G\nint g;\n#endif\n"),
            Body::Guarded("#if 1 /* acc: #if !defined(G) (the header, put in where it was first read) */\n#define G\nint g;\n#endif\n".into())
        );
        let not_a_guard = "#include <x.h>\n#ifndef G\n#define G\n#endif\n";
        assert_eq!(unguarded(not_a_guard), Body::Plain(not_a_guard.into()));
        let other_name = "#ifndef G\n#define H\n#endif\n";
        assert_eq!(unguarded(other_name), Body::Plain(other_name.into()));
        // `#pragma once` beside a guard: the guard does its work.
        assert_eq!(
            unguarded("#pragma once\n#ifndef G\n#define G\n#endif\n"),
            Body::Guarded("/* acc: #pragma once (the header's guard keeps it once) */\n#if 1 /* acc: #ifndef G (the header, put in where it was first read) */\n#define G\n#endif\n".into())
        );
        assert_eq!(
            unguarded("#pragma once\nint g;\n"),
            Body::ReadOnce(
                "/* acc: #pragma once (the header is read once, here) */\nint g;\n".into()
            )
        );
    }

    /// A header guarded by `#pragma once` alone goes in where it was first read, and the
    /// file's later `#include`s of it say nothing (the compiler would read its text again).
    #[test]
    fn a_header_read_once_goes_in_once() {
        let src = "#include \"once.h\"\nint x;\n#include \"once.h\"\r\nint y;\n";
        let files = [("inc/once.h", "#pragma once\nstruct s { int a; };\n")];
        let got = run(src, &[directive("inc/once.h", 1)], &files).unwrap();
        assert_eq!(
            got.text,
            "#line 1 \"inc/once.h\"\n/* acc: #pragma once (the header is read once, here) */\nstruct s { int a; };\n#line 2 \"m.c\"\nint x;\n/* acc: #include \"once.h\" (read once, where it went in: #pragma once) */\r\nint y;\n"
        );
    }

    #[test]
    fn two_headers_and_the_lines_after_them() {
        let src = "#include \"a.h\"\nint x;\n#include \"b.h\"\nint y;\n";
        let files = [("a.h", "int a;\n"), ("b.h", "int b;")];
        let got = run(src, &[directive("b.h", 3), directive("a.h", 1)], &files).unwrap();
        assert_eq!(
            got.text,
            "#line 1 \"a.h\"\nint a;\n#line 2 \"m.c\"\nint x;\n#line 1 \"b.h\"\nint b;\n#line 4 \"m.c\"\nint y;\n"
        );
        assert_eq!(got.headers(), ["a.h", "b.h"]);
        assert_eq!(got.line_in_text(2), 4);
        assert_eq!(got.line_in_text(4), 8);
        let map = crate::line_map::LineMap::new(&got.text, "m.c");
        let y = map.place(got.text.find("int y").unwrap());
        assert_eq!((y.file, y.line), ("m.c", 4));
    }
}
