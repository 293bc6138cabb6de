//! Edits of the user's text and their application: an [`Edit`] replaces a byte range with
//! generated text; [`apply`] writes the whole file with `#line` directives after each edit that
//! asks for one, [`apply_in`] one span (a kernel's body) without them.
//!
//! Owns the order edits apply in and how generated statements are laid out on lines; it must
//! not know OpenACC (what the edits mean) nor the tree.

use super::*;

#[derive(Clone, Debug)]
pub(crate) struct Edit {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) text: String,
    /// Among edits at one place, lower goes first.
    pub(crate) order: i64,
    /// Resynchronise line numbers after this edit.
    pub(crate) line_after: bool,
}

impl Edit {
    /// Deletes `span` (a directive the lowered code has no use for).
    pub(crate) fn remove(span: Span) -> Edit {
        Edit {
            start: span.start,
            end: span.end,
            text: String::new(),
            order: 0,
            line_after: false,
        }
    }
}

/// Puts the statement `s` between `<name>_BEGIN` and `<name>_END`, outside every other edit
/// at its ends.
pub(super) fn enclose(edits: &mut Vec<Edit>, s: Span, name: &str) {
    edits.push(Edit {
        start: s.start,
        end: s.start,
        text: format!("{name}_BEGIN "),
        order: -10_000,
        line_after: false,
    });
    edits.push(Edit {
        start: s.end,
        end: s.end,
        text: format!(" {name}_END"),
        order: 10_000,
        line_after: false,
    });
}

/// Generated statements one to a line (after `; `), indented like the
/// directive they replace, so `--keep` output reads as code.
pub(super) fn one_statement_a_line(code: &str, indent: &str) -> String {
    let mut out = String::with_capacity(code.len() + 64);
    let mut in_string = false;
    let mut prev = '\0';
    for ch in code.chars() {
        if ch == '"' && prev != '\\' {
            in_string = !in_string;
        }
        if ch == ' ' && prev == ';' && !in_string {
            out.push('\n');
            out.push_str(indent);
            out.push_str("  ");
        } else {
            out.push(ch);
        }
        prev = ch;
    }
    out
}

/// Applies edits to the whole file, resynchronising line numbers (and the file, where the
/// text's own `#line` directives name another) after each replaced region.
pub(crate) fn apply(src: &str, mut edits: Vec<Edit>, lines: &crate::line_map::LineMap) -> String {
    edits.sort_by_key(|e| (e.start, e.order, e.end));
    let mut out = String::with_capacity(src.len() * 2);
    let mut pos = 0;
    for e in edits {
        if e.start < pos {
            continue;
        }
        out.push_str(&src[pos..e.start]);
        out.push_str(&e.text);
        pos = e.end;
        if e.line_after {
            // Continue on a new line numbered as the original text is.
            let place = lines.place(pos);
            let (line, file) = (place.line, c_string(place.file));
            let col_start = src[..pos].rfind('\n').map_or(0, |i| i + 1);
            let _ = write!(
                out,
                "\n#line {line} {file}\n{}",
                " ".repeat(pos - col_start)
            );
        }
    }
    out.push_str(&src[pos..]);
    out
}

/// Applies edits inside `span` and returns its new text.
pub(super) fn apply_in(src: &str, span: Span, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|e| (e.start, e.order, e.end));
    let mut out = String::new();
    let mut pos = span.start;
    for e in edits {
        if e.start < pos || e.end > span.end {
            continue;
        }
        out.push_str(&src[pos..e.start]);
        out.push_str(&e.text);
        pos = e.end;
    }
    out.push_str(&src[pos..span.end]);
    out
}

/// The conditional directives in `span` of `src` whose chain reaches outside it (a
/// construct's statement that opens in one `#if` arm, as in `#ifndef ALT` / `#pragma acc
/// parallel` / `{` / `#elif …` / `#pragma acc kernels` / `{` / `#endif`, its loop and its `}`):
/// the byte ranges of those lines, in order, and the ranges the statement cannot contain
/// because the compiler does not see them (from an `#elif` or `#else` of the chain the
/// statement opened in to its `#endif`: the other arms).
pub(super) fn unmatched_conditionals(src: &str, span: Span) -> (Vec<Span>, Vec<Span>) {
    let (mut lines, mut dead) = (Vec::new(), Vec::new());
    // The chains opened in the statement and not closed yet: their opening lines.
    let mut open: Vec<Span> = Vec::new();
    let mut dead_from: Option<usize> = None;
    let mut at = span.start;
    for line in src[span.start..span.end].split_inclusive('\n') {
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
        let this = Span::new(start, start + line.trim_end_matches(['\n', '\r']).len());
        match word.as_str() {
            "if" | "ifdef" | "ifndef" => open.push(this),
            "elif" | "elifdef" | "elifndef" | "else" if open.is_empty() => {
                lines.push(this);
                dead_from.get_or_insert(start);
            }
            "endif" => match open.pop() {
                Some(_) => {}
                None => {
                    lines.push(this);
                    if let Some(from) = dead_from.take() {
                        dead.push(Span::new(from, this.end));
                    }
                }
            },
            _ => {}
        }
    }
    // Chains opened in the statement and closed after it.
    lines.extend(open);
    lines.sort_by_key(|s| s.start);
    if let Some(from) = dead_from {
        dead.push(Span::new(from, span.end));
    }
    (lines, dead)
}

/// Edits that blank what of `span` the compiler does not see as the statement's text: the
/// unmatched conditional lines and the other arms ([`unmatched_conditionals`]).
pub(super) fn conditional_blanks(src: &str, span: Span) -> Vec<Edit> {
    let (lines, dead) = unmatched_conditionals(src, span);
    let lone: Vec<Span> = lines
        .into_iter()
        .filter(|l| !dead.iter().any(|d| d.start <= l.start && l.end <= d.end))
        .collect();
    let mut all = dead;
    all.extend(lone);
    blanked(src, &all)
}

/// Edits that blank `ranges` of `src` but keep their line ends, so a copy of the text keeps
/// its lines.
pub(super) fn blanked(src: &str, ranges: &[Span]) -> Vec<Edit> {
    ranges
        .iter()
        .map(|r| Edit {
            start: r.start,
            end: r.end,
            text: src[r.start..r.end]
                .chars()
                .map(|c| if c == '\n' { '\n' } else { ' ' })
                .collect(),
            order: 0,
            line_after: false,
        })
        .collect()
}

#[cfg(test)]
mod conditional_tests {
    use super::*;

    #[test]
    fn a_statement_opened_in_one_arm_has_the_chains_other_lines_unmatched() {
        let src = "#ifndef ALT\n#pragma acc parallel\n{\n#elif ALT == 0\n#pragma acc kernels\n{\n#endif\n#ifdef X\n  x();\n#endif\n  f();\n}\n";
        let body = Span::new(src.find("{\n#elif").unwrap(), src.len() - 1);
        let (lines, dead) = unmatched_conditionals(src, body);
        let text = |s: &Span| &src[s.start..s.end];
        // The balanced `#ifdef X` inside is the statement's own.
        assert_eq!(
            lines.iter().map(text).collect::<Vec<_>>(),
            ["#elif ALT == 0", "#endif"]
        );
        assert_eq!(
            dead.iter().map(text).collect::<Vec<_>>(),
            ["#elif ALT == 0\n#pragma acc kernels\n{\n#endif"]
        );
        // Opened in a later arm: only the chain's end is the statement's to keep.
        let later = Span::new(src.rfind("{\n#endif").unwrap(), src.len() - 1);
        let (lines, dead) = unmatched_conditionals(src, later);
        assert_eq!(lines.iter().map(text).collect::<Vec<_>>(), ["#endif"]);
        assert!(dead.is_empty());
        // A blanked copy keeps every line.
        let blanks = conditional_blanks(src, body);
        let copy = apply_in(src, body, blanks);
        assert_eq!(
            copy.lines().count(),
            src[body.start..body.end].lines().count()
        );
        assert!(!copy.contains("#elif") && !copy.contains("kernels") && copy.contains("#ifdef X"));
    }
}
