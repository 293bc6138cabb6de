//! Diagnostics rendered the way clang renders them:
//! `file:line:col: error: message`, the source line, a caret under the
//! span, then notes pointing at the other places.

use acc_engine::{Diagnostic, Severity, Span};

use crate::line_map::LineMap;

/// Line and column (both 1-based, column in bytes as clang counts) of a
/// byte offset.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let line_start = src[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = src[..offset].matches('\n').count() + 1;
    (line, offset - line_start + 1)
}

/// Renders one diagnostic against the file it is about. Where the text's own `#line`
/// directives say its lines come from another file (a header `acc cc` inlined), the place
/// is that file's line, as the C compiler would say.
pub fn render(d: &Diagnostic, file: &str, src: &str) -> String {
    let sev = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let lines = LineMap::new(src, file);
    let mut out = String::new();
    let located = |out: &mut String, span: Span, sev: &str, msg: &str| {
        located(out, &lines, src, span, sev, msg)
    };
    located(&mut out, d.span, sev, &d.message);
    if !d.label.is_empty() {
        out.push_str(&format!("note: {}\n", d.label));
    }
    for l in &d.secondary {
        located(&mut out, l.span, "note", &l.message);
    }
    for n in &d.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    if let Some(fix) = &d.fix {
        let (_, col) = line_col(src, fix.span.start);
        let place = lines.place(fix.span.start);
        let (file, line) = (place.file, place.line);
        if fix.span.is_empty() {
            // An insertion (`acc check`'s directives to add): the text goes before that place.
            out.push_str(&format!(
                "{file}:{line}:{col}: note: {}: insert `{}`\n",
                fix.message,
                fix.replacement.trim_end()
            ));
        } else {
            out.push_str(&format!(
                "{file}:{line}:{col}: note: {}: replace with `{}`\n",
                fix.message, fix.replacement
            ));
        }
    }
    out
}

fn located(out: &mut String, lines: &LineMap, src: &str, span: Span, sev: &str, msg: &str) {
    let (_, col) = line_col(src, span.start);
    let place = lines.place(span.start);
    let (file, line) = (place.file, place.line);
    out.push_str(&format!("{file}:{line}:{col}: {sev}: {msg}\n"));
    let start = span.start.min(src.len());
    let line_start = src[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = src[start..].find('\n').map_or(src.len(), |i| start + i);
    let text = &src[line_start..line_end];
    out.push_str(text);
    out.push('\n');
    // Keep tabs so the caret lines up under tab-indented code.
    let pad: String = src[line_start..start]
        .chars()
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let width = span.end.min(line_end).saturating_sub(start);
    let width = src[start..start + width].chars().count();
    out.push_str(&pad);
    out.push('^');
    for _ in 1..width {
        out.push('~');
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_under_span() {
        let src = "int x;\n  #pragma acc parallel copyinn(a)\n";
        let start = src.find("copyinn").unwrap();
        let d = Diagnostic::error(Span::new(start, start + 7), "unknown clause");
        let r = render(&d, "t.c", src);
        assert_eq!(
            r,
            "t.c:2:24: error: unknown clause\n  #pragma acc parallel copyinn(a)\n                       ^~~~~~~\n"
        );
    }
}
