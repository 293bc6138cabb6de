//! The file as the compiler will see it, for a parse that the file as written defeats: where a
//! statement's braces are split across `#if` branches (`#ifdef ITER` / `for (…) {` / `#endif`
//! … `#ifdef ITER` / `}` / `#endif`, as Rodinia's srad writes its iterations), tree-sitter,
//! which reads every branch, cannot read the code around the directives. Each `#if` chain whose
//! conditions acc can evaluate (see [`Walker::eval_condition`]) is resolved in a copy of the
//! text: its directive lines and its dead branches become spaces, newlines kept, so every byte
//! keeps its offset and the spans of the copy's parse are spans of the file. Chains acc cannot
//! evaluate stay as written.
//!
//! It must not change what any span means; it only blanks text.

use super::*;

/// One conditional directive line: what it is, its condition, and where the line is.
struct Line<'s> {
    kind: &'s str,
    rest: &'s str,
    span: std::ops::Range<usize>,
}

/// A `#if` chain: its directive lines (the `#if`, `#elif`s, `#else`, then `#endif`), the
/// index of the chain it sits in (and which arm of it), if any.
struct Chain {
    lines: Vec<usize>,
    parent: Option<(usize, usize)>,
}

impl<'s> Walker<'s> {
    /// The text with every chain acc can evaluate resolved, or `None` when there is none.
    pub(super) fn resolved_view(&self) -> Option<String> {
        let lines = conditional_lines(self.src);
        let mut chains: Vec<Chain> = Vec::new();
        let mut open: Vec<usize> = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            match l.kind {
                "if" | "ifdef" | "ifndef" => {
                    let parent = open
                        .last()
                        .map(|&c| (c, chains[c].lines.len().saturating_sub(1)));
                    chains.push(Chain {
                        lines: vec![i],
                        parent,
                    });
                    open.push(chains.len() - 1);
                }
                "elif" | "elifdef" | "elifndef" | "else" => {
                    if let Some(&c) = open.last() {
                        chains[c].lines.push(i);
                    }
                }
                _ => {
                    // `endif`
                    if let Some(c) = open.pop() {
                        chains[c].lines.push(i);
                    }
                }
            }
        }
        let mut bytes = self.src.as_bytes().to_vec();
        let mut changed = false;
        // A chain's arms: which is live (`Some(None)`: none), `None` when acc cannot tell.
        let mut live: Vec<Option<Option<usize>>> = Vec::with_capacity(chains.len());
        for chain in &chains {
            let closed = chain
                .lines
                .last()
                .is_some_and(|&i| lines[i].kind == "endif");
            live.push(if closed && self.src_splits_braces(chain, &lines) {
                self.live_arm_of(chain, &lines)
            } else {
                None
            });
        }
        for (ci, chain) in chains.iter().enumerate() {
            let Some(arm) = live[ci] else { continue };
            // Inside a dead arm of a resolved chain, everything is blank already.
            let mut up = chain.parent;
            let mut dead = false;
            while let Some((p, a)) = up {
                if live[p].is_some_and(|l| l != Some(a)) {
                    dead = true;
                    break;
                }
                up = chains[p].parent;
            }
            if dead {
                continue;
            }
            changed = true;
            for (k, &li) in chain.lines.iter().enumerate() {
                blank(&mut bytes, lines[li].span.clone());
                let is_arm = k + 1 < chain.lines.len();
                if is_arm && arm != Some(k) {
                    let next = lines[chain.lines[k + 1]].span.start;
                    blank(&mut bytes, lines[li].span.end..next);
                }
            }
        }
        if !changed {
            return None;
        }
        String::from_utf8(bytes).ok()
    }

    /// Whether an arm of `chain` opens or closes more braces than it closes or opens (the
    /// split that defeats the parse), and no arm defines or undefines a macro (the conditions
    /// are evaluated with the macros the file ends with, which such a chain would change).
    /// Other chains parse as written and are left so.
    fn src_splits_braces(&self, chain: &Chain, lines: &[Line]) -> bool {
        let mut split = false;
        for w in chain.lines.windows(2) {
            let body = &self.src[lines[w[0]].span.end..lines[w[1]].span.start];
            let code = strip_comments(body);
            if code.lines().any(|l| {
                let t = l.trim_start();
                t.starts_with('#')
                    && matches!(t[1..].split_whitespace().next(), Some("define" | "undef"))
            }) {
                return false;
            }
            let mut depth = 0i64;
            let mut in_str: Option<char> = None;
            let mut prev = ' ';
            for c in code.chars() {
                match in_str {
                    Some(q) if c == q && prev != '\\' => in_str = None,
                    Some(_) => {}
                    None if c == '"' || c == '\'' => in_str = Some(c),
                    None if c == '{' => depth += 1,
                    None if c == '}' => depth -= 1,
                    None => {}
                }
                prev = if prev == '\\' && c == '\\' { ' ' } else { c };
            }
            split |= depth != 0;
        }
        split
    }

    /// The live arm of `chain`, when every condition up to it is certain.
    fn live_arm_of(&self, chain: &Chain, lines: &[Line]) -> Option<Option<usize>> {
        for (k, &li) in chain.lines[..chain.lines.len() - 1].iter().enumerate() {
            let l = &lines[li];
            let name = || {
                let r = l.rest.trim_start();
                let end = r
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(r.len());
                &r[..end]
            };
            let truth = match l.kind {
                "ifdef" | "elifdef" => self.macro_defined(name(), l.span.start)?,
                "ifndef" | "elifndef" => !self.macro_defined(name(), l.span.start)?,
                "if" | "elif" => {
                    let cond = l.rest.replace("\\\r\n", " ").replace("\\\n", " ");
                    self.eval_condition(strip_comments(&cond).trim(), l.span.start)? != 0
                }
                _ => true,
            };
            if truth {
                return Some(Some(k));
            }
        }
        Some(None)
    }
}

/// Replaces the bytes of `range` but newlines with spaces.
fn blank(bytes: &mut [u8], range: std::ops::Range<usize>) {
    for b in &mut bytes[range] {
        if *b != b'\n' {
            *b = b' ';
        }
    }
}

/// A condition without its comments (`#if N > 4 /* big */`).
fn strip_comments(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find("/*").or_else(|| rest.find("//")) {
        out.push_str(&rest[..at]);
        if rest[at..].starts_with("//") {
            return out;
        }
        match rest[at + 2..].find("*/") {
            Some(end) => rest = &rest[at + 2 + end + 2..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// The conditional directive lines of `src` (logical lines: a backslash-newline continues),
/// outside block comments.
fn conditional_lines(src: &str) -> Vec<Line<'_>> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut in_comment) = (0, false);
    while i < b.len() {
        let start = i;
        let mut end = i;
        while end < b.len() && b[end] != b'\n' {
            if b[end] == b'\\' && b.get(end + 1) == Some(&b'\n') {
                end += 2;
            } else if b[end] == b'\\'
                && b.get(end + 1) == Some(&b'\r')
                && b.get(end + 2) == Some(&b'\n')
            {
                end += 3;
            } else {
                end += 1;
            }
        }
        let line = &src[start..end];
        let was_in_comment = in_comment;
        in_comment = crate::syntax::comment_open_after(line, in_comment);
        if !was_in_comment {
            if let Some(d) = line.trim_start().strip_prefix('#') {
                let d = d.trim_start();
                let kend = d
                    .find(|c: char| !c.is_ascii_alphabetic())
                    .unwrap_or(d.len());
                let kind = &d[..kend];
                if matches!(
                    kind,
                    "if" | "ifdef" | "ifndef" | "elif" | "elifdef" | "elifndef" | "else" | "endif"
                ) {
                    let line_end = if end > start && b[end - 1] == b'\r' {
                        end - 1
                    } else {
                        end
                    };
                    out.push(Line {
                        kind,
                        rest: &d[kend..],
                        span: start..line_end.max(start),
                    });
                }
            }
        }
        i = end + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{conditional_lines, strip_comments};

    #[test]
    fn conditional_lines_are_found_outside_comments_with_their_continuations() {
        let src = "#if A && \\\n  B\nx;\n/* #endif in a comment\n#else */\n  # elif C\n#endif\n";
        let lines: Vec<(&str, &str)> = conditional_lines(src)
            .iter()
            .map(|l| (l.kind, &src[l.span.clone()]))
            .collect();
        assert_eq!(
            lines,
            [
                ("if", "#if A && \\\n  B"),
                ("elif", "  # elif C"),
                ("endif", "#endif")
            ]
        );
    }

    #[test]
    fn comments_leave_a_condition() {
        assert_eq!(
            strip_comments(" N > 4 /* big */ && M // why"),
            " N > 4  && M "
        );
    }
}
