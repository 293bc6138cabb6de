//! Byte-level scanning of directive text: trivia, identifiers, literals,
//! balanced brackets and top-level separators.
//!
//! Every function takes the text as bytes plus an exclusive `end`, never
//! reads past either, and always makes progress, so the parser built on
//! top cannot loop forever or index out of bounds on any input. Positions
//! handed back are always on `char` boundaries: units are whole literals,
//! whole trivia runs, whole identifiers or whole UTF-8 characters.

/// One scanning unit, as seen by the bracket and separator logic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Unit {
    /// Whitespace, a backslash-newline continuation or a comment.
    Trivia,
    /// A string or character literal, quotes included.
    Literal,
    /// An ASCII punctuation or other ASCII byte that is not part of a literal.
    Byte(u8),
    /// An identifier or number (`[A-Za-z0-9_]+`).
    Word,
    /// Any non-ASCII character.
    Other,
}

pub(super) fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

pub(super) fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn at(s: &[u8], pos: usize, end: usize) -> Option<u8> {
    if pos < end {
        s.get(pos).copied()
    } else {
        None
    }
}

/// Length of the trivia run element starting at `pos`, or 0 when there is none.
fn trivia_len(s: &[u8], pos: usize, end: usize) -> usize {
    let Some(b) = at(s, pos, end) else { return 0 };
    match b {
        b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => 1,
        b'\\' => {
            // A continuation: backslash, optional blanks, optional CR, LF.
            let mut i = pos + 1;
            while matches!(at(s, i, end), Some(b' ' | b'\t')) {
                i += 1;
            }
            if at(s, i, end) == Some(b'\r') {
                i += 1;
            }
            if at(s, i, end) == Some(b'\n') {
                i + 1 - pos
            } else {
                0
            }
        }
        b'/' => match at(s, pos + 1, end) {
            Some(b'*') => {
                let mut i = pos + 2;
                while i < end {
                    if at(s, i, end) == Some(b'*') && at(s, i + 1, end) == Some(b'/') {
                        return i + 2 - pos;
                    }
                    i += 1;
                }
                end - pos
            }
            Some(b'/') => {
                let mut i = pos + 2;
                while i < end && at(s, i, end) != Some(b'\n') {
                    i += 1;
                }
                i - pos
            }
            _ => 0,
        },
        _ => 0,
    }
}

/// True if the trivia at `pos` is a backslash-newline continuation.
pub(super) fn is_continuation(s: &[u8], pos: usize, end: usize) -> bool {
    at(s, pos, end) == Some(b'\\') && trivia_len(s, pos, end) > 0
}

/// Length of the literal whose opening quote is at `pos` (it stops at the
/// closing quote, at a raw newline or at `end`).
fn literal_len(s: &[u8], pos: usize, end: usize) -> usize {
    let Some(q) = at(s, pos, end) else { return 0 };
    let mut i = pos + 1;
    while let Some(b) = at(s, i, end) {
        if b == b'\\' {
            // Skip the escaped character, which may be a multibyte one.
            i += 1;
            if let Some(c) = at(s, i, end) {
                i += utf8_len(c);
            }
        } else if b == q {
            return i + 1 - pos;
        } else if b == b'\n' {
            return i - pos;
        } else {
            i += utf8_len(b);
        }
    }
    i.min(end) - pos
}

fn utf8_len(lead: u8) -> usize {
    match lead {
        0xf0..=0xff => 4,
        0xe0..=0xef => 3,
        0xc0..=0xdf => 2,
        _ => 1,
    }
}

/// The unit starting at `pos` and its length (at least 1 when `pos < end`).
pub(super) fn unit(s: &[u8], pos: usize, end: usize) -> (Unit, usize) {
    let end = end.min(s.len());
    let Some(b) = at(s, pos, end) else {
        return (Unit::Trivia, 0);
    };
    let t = trivia_len(s, pos, end);
    if t > 0 {
        return (Unit::Trivia, t);
    }
    if b == b'"' || b == b'\'' {
        return (Unit::Literal, literal_len(s, pos, end).max(1));
    }
    if is_ident_continue(b) {
        let mut i = pos + 1;
        while at(s, i, end).is_some_and(is_ident_continue) {
            i += 1;
        }
        return (Unit::Word, i - pos);
    }
    if b.is_ascii() {
        return (Unit::Byte(b), 1);
    }
    (Unit::Other, utf8_len(b).min(end - pos).max(1))
}

/// The first position at or after `pos` that is not trivia.
pub(super) fn skip_trivia(s: &[u8], mut pos: usize, end: usize) -> usize {
    loop {
        let n = trivia_len(s, pos, end);
        if n == 0 {
            return pos;
        }
        pos += n;
    }
}

/// The end of the identifier starting at `pos`, if one starts there.
pub(super) fn ident_end(s: &[u8], pos: usize, end: usize) -> Option<usize> {
    if !at(s, pos, end).is_some_and(is_ident_start) {
        return None;
    }
    let mut i = pos + 1;
    while at(s, i, end).is_some_and(is_ident_continue) {
        i += 1;
    }
    Some(i)
}

/// The byte at `pos` if it is one, after no skipping.
pub(super) fn byte_at(s: &[u8], pos: usize, end: usize) -> Option<u8> {
    at(s, pos, end)
}

/// `lo..hi` without leading and trailing trivia.
pub(super) fn trim(s: &[u8], lo: usize, hi: usize) -> (usize, usize) {
    let lo = skip_trivia(s, lo, hi);
    let mut last = lo;
    let mut i = lo;
    while i < hi {
        let (u, len) = unit(s, i, hi);
        if len == 0 {
            break;
        }
        i += len;
        if u != Unit::Trivia {
            last = i;
        }
    }
    (lo, last)
}

fn is_open(b: u8) -> bool {
    matches!(b, b'(' | b'[' | b'{')
}

fn is_close(b: u8) -> bool {
    matches!(b, b')' | b']' | b'}')
}

/// The opening bracket that `close` closes.
pub(super) fn opener_of(close: u8) -> u8 {
    match close {
        b')' => b'(',
        b']' => b'[',
        _ => b'{',
    }
}

/// The closing bracket for `open`.
pub(super) fn closer_of(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        _ => b'}',
    }
}

/// The position of the bracket closing the one at `open`, counting depth
/// only (mismatches were diagnosed when the enclosing group was matched).
pub(super) fn matching(s: &[u8], open: usize, end: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < end {
        let (u, len) = unit(s, i, end);
        if let Unit::Byte(b) = u {
            if is_open(b) {
                depth += 1;
            } else if is_close(b) {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i);
                }
            }
        }
        i += len.max(1);
    }
    None
}

/// Splits `lo..hi` at the commas outside any brackets. Always returns at
/// least one (possibly empty) part.
pub(super) fn split_commas(s: &[u8], lo: usize, hi: usize) -> Vec<(usize, usize)> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = lo;
    let mut i = lo;
    while i < hi {
        let (u, len) = unit(s, i, hi);
        if let Unit::Byte(b) = u {
            if is_open(b) {
                depth += 1;
            } else if is_close(b) {
                depth = depth.saturating_sub(1);
            } else if b == b',' && depth == 0 {
                parts.push((start, i));
                start = i + 1;
            }
        }
        i += len.max(1);
    }
    parts.push((start, hi));
    parts
}

/// The first `:` in `lo..hi` outside any brackets that is not the `:` of a
/// conditional expression (`c ? x : y`).
pub(super) fn find_colon(s: &[u8], lo: usize, hi: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut pending_questions = 0usize;
    let mut i = lo;
    while i < hi {
        let (u, len) = unit(s, i, hi);
        if let Unit::Byte(b) = u {
            if is_open(b) {
                depth += 1;
            } else if is_close(b) {
                depth = depth.saturating_sub(1);
            } else if depth == 0 && b == b'?' {
                pending_questions += 1;
            } else if depth == 0 && b == b':' {
                if pending_questions == 0 {
                    return Some(i);
                }
                pending_questions -= 1;
            }
        }
        i += len.max(1);
    }
    None
}

/// The source slice `lo..hi` with each continuation replaced by one space.
pub(super) fn clean_text(src: &str, lo: usize, hi: usize) -> String {
    let s = src.as_bytes();
    let hi = hi.min(s.len());
    let mut out = String::new();
    let mut i = lo;
    while i < hi {
        let (_, len) = unit(s, i, hi);
        let len = len.max(1);
        if is_continuation(s, i, hi) {
            out.push(' ');
        } else if let Some(piece) = src.get(i..i + len) {
            out.push_str(piece);
        }
        i += len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colon_skips_ternaries_and_brackets() {
        let s = b"i ? 1 : 2 : n";
        assert_eq!(find_colon(s, 0, s.len()), Some(10));
        let s = b"a[0:1] : b";
        assert_eq!(find_colon(s, 0, s.len()), Some(7));
        let s = b"x ? y : z";
        assert_eq!(find_colon(s, 0, s.len()), None);
    }

    #[test]
    fn commas_respect_brackets_and_literals() {
        let s = b"f(a, b), \"x,y\", ',', c";
        let parts: Vec<_> = split_commas(s, 0, s.len())
            .into_iter()
            .map(|(lo, hi)| std::str::from_utf8(&s[lo..hi]).unwrap().trim())
            .collect();
        assert_eq!(parts, ["f(a, b)", "\"x,y\"", "','", "c"]);
    }

    #[test]
    fn continuations_and_comments_are_trivia() {
        let s = b" \\\n /* c */ x // tail";
        assert_eq!(skip_trivia(s, 0, s.len()), 12);
        assert_eq!(trim(s, 0, s.len()), (12, 13));
        assert_eq!(clean_text("a\\\nb", 0, 4), "a b");
    }
}
