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
