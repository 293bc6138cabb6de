//! The few C tokens that text read without tree-sitter must step over whole: character and
//! string constants, block comments, and preprocessing numbers (whose exponent sign is no
//! operator); and the name a `#define`/`#undef` line gives. Used on atomic statements
//! (`atomic`), on CUDA module text (`cuda`) and on the file's macro lines (`lower`).

/// A byte of a name or a number (or of a multi-byte character).
pub(crate) fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

/// The words of C text (names, keywords, the word parts of numbers) outside its comments and
/// its string and character constants, as byte ranges in order: what the rewritings of a
/// module's or a statement's text look at.
pub(crate) fn code_words(text: &str) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let b = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            match b[i] {
                b'/' if b.get(i + 1) == Some(&b'*') => i = comment_end(text, i).unwrap_or(b.len()),
                b'/' if b.get(i + 1) == Some(&b'/') => {
                    i = text[i..].find('\n').map_or(b.len(), |k| i + k)
                }
                b'"' | b'\'' => i = literal_end(b, i).unwrap_or(b.len()),
                c if is_word(c) => {
                    let start = i;
                    while i < b.len() && is_word(b[i]) {
                        i += 1;
                    }
                    return Some(start..i);
                }
                _ => i += 1,
            }
        }
        None
    })
}

/// The end of the character or string constant that starts at `b[i]` (after its closing
/// quote); `None` when it does not end.
pub(crate) fn literal_end(b: &[u8], mut i: usize) -> Option<usize> {
    let quote = b[i];
    i += 1;
    while i < b.len() && b[i] != quote {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    (i < b.len()).then_some(i + 1)
}

/// The end of the `/* */` comment that starts at `text[i..]` (after its `*/`); `None` when it
/// does not end.
pub(crate) fn comment_end(text: &str, i: usize) -> Option<usize> {
    text[i + 2..].find("*/").map(|j| i + 2 + j + 2)
}

/// `text` with its comments each made one blank, as the preprocessor reads a macro's
/// replacement text (tree-sitter's `#define` value runs to the end of the line, a trailing
/// `// …` included), trimmed.
pub(crate) fn without_comments(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut i, mut last) = (0, 0);
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => i = literal_end(b, i).unwrap_or(b.len()),
            b'/' if matches!(b.get(i + 1), Some(b'/' | b'*')) => {
                let end = if b[i + 1] == b'/' {
                    text[i..].find('\n').map_or(b.len(), |k| i + k)
                } else {
                    comment_end(text, i).unwrap_or(b.len())
                };
                out.push_str(&text[last..i]);
                out.push(' ');
                (i, last) = (end, end);
            }
            _ => i += 1,
        }
    }
    out.push_str(&text[last..]);
    out.trim().to_string()
}

/// Whether a preprocessing number starts at `b[i]`: a digit, or `.` and a digit, not inside a
/// name.
pub(crate) fn number_starts(b: &[u8], i: usize) -> bool {
    (b[i].is_ascii_digit() || (b[i] == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)))
        && (i == 0 || !is_word(b[i - 1]))
}

/// The end of the preprocessing number that starts at `b[i]`: digits, letters, `.`, and a
/// sign after an exponent letter (`1e-3`, `0x1p+2`).
pub(crate) fn number_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len()
        && (is_word(b[i])
            || b[i] == b'.'
            || (matches!(b[i], b'+' | b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P')))
    {
        i += 1;
    }
    i
}

/// The directive and macro name of a `#define NAME…` or `#undef NAME` line (spaces allowed
/// around `#`): `Some(("define", "NAME"))`; `None` for any other line.
pub(crate) fn macro_line(line: &str) -> Option<(&str, &str)> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let kind = ["define", "undef"]
        .into_iter()
        .find(|k| rest.starts_with(k))?;
    let rest = &rest[kind.len()..];
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let rest = rest.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| (kind, &rest[..end]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_words_skip_comments_and_literals() {
        let text = "int a /* b */ = f('c', \"d e\"); // g\nh2_x";
        let words: Vec<&str> = super::code_words(text).map(|r| &text[r]).collect();
        assert_eq!(words, ["int", "a", "f", "h2_x"]);
    }

    #[test]
    fn comments_leave_a_macros_replacement_text() {
        assert_eq!(super::without_comments("64 // points along x"), "64");
        assert_eq!(super::without_comments("(a /* x */ + b)"), "(a   + b)");
        assert_eq!(super::without_comments("\"//not\" '/' /*"), "\"//not\" '/'");
    }

    #[test]
    fn macro_lines_give_their_name() {
        assert_eq!(
            super::macro_line("  # define N(x) x"),
            Some(("define", "N"))
        );
        assert_eq!(super::macro_line("#undef\tAT"), Some(("undef", "AT")));
        assert_eq!(super::macro_line("#defined X"), None);
        assert_eq!(super::macro_line("int define = 1;"), None);
    }

    #[test]
    fn constants_comments_and_numbers_end_where_c_ends_them() {
        let t = r#"'\'' "a\"b" x"#;
        assert_eq!(literal_end(t.as_bytes(), 0), Some(4));
        assert_eq!(literal_end(t.as_bytes(), 5), Some(11));
        assert_eq!(literal_end(b"\"open", 0), None);
        assert_eq!(comment_end("/* a */ b", 0), Some(7));
        assert_eq!(comment_end("/* a", 0), None);
        let n = b"x1e5 1.5e-3f+2 .5 0x1p+2";
        assert!(!number_starts(n, 1));
        assert!(number_starts(n, 5));
        assert_eq!(number_end(n, 5), 12);
        assert!(number_starts(n, 15));
        assert_eq!(number_end(n, 19), n.len());
    }
}
