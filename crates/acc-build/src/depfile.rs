//! Reading the dependency rules a C preprocessor writes with `-M`: which
//! files a translation unit read, for `cargo:rerun-if-changed`.

/// The prerequisites of every rule in a make-style dependency file, in
/// order, without repeats.
///
/// The format is gcc's and clang's: `target: dep dep \` with a backslash
/// before a newline continuing the line, `\ ` for a space inside a name,
/// `\#` for `#` and `$$` for `$`. The target ends at the first `: ` (or `:`
/// at the end of the line) so that a drive letter (`C:\x.h`) stays part of
/// a name.
pub fn prerequisites(text: &str) -> Vec<String> {
    let joined = text.replace("\\\r\n", " ").replace("\\\n", " ");
    let mut out: Vec<String> = Vec::new();
    for line in joined.lines() {
        let Some(rest) = after_target(line) else {
            continue;
        };
        for word in words(rest) {
            if !out.contains(&word) {
                out.push(word);
            }
        }
    }
    out
}

/// The text after a rule's target and colon, or `None` for a line with no
/// rule.
fn after_target(line: &str) -> Option<&str> {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b':' if bytes.get(i + 1).is_none_or(|c| c.is_ascii_whitespace()) => {
                return Some(&line[i + 1..]);
            }
            _ => i += 1,
        }
    }
    None
}

/// The names in a list of prerequisites, with escapes undone.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.peek() {
                Some(&n @ (' ' | '\t' | '#' | '\\')) => {
                    cur.push(n);
                    chars.next();
                }
                _ => cur.push('\\'),
            },
            '$' if chars.peek() == Some(&'$') => {
                cur.push('$');
                chars.next();
            }
            c if c.is_whitespace() => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::prerequisites;

    #[test]
    fn continuations_and_escapes() {
        let text = "kernels.o: src/kernels.c \\\n  src/heat.h /usr/include/my\\ dir/x.h \\\n src/a$$b.h src/h\\#1.h\n";
        assert_eq!(
            prerequisites(text),
            [
                "src/kernels.c",
                "src/heat.h",
                "/usr/include/my dir/x.h",
                "src/a$b.h",
                "src/h#1.h"
            ]
        );
    }

    #[test]
    fn phony_rules_and_repeats() {
        // `-MP` adds an empty rule per header; names appear once.
        let text = "k.o: k.c h.h\r\n\r\nh.h:\r\n";
        assert_eq!(prerequisites(text), ["k.c", "h.h"]);
    }

    #[test]
    fn drive_letters_stay_in_names() {
        let text = "C:\\b\\k.o: C:\\src\\k.c C:\\src\\h.h\n";
        assert_eq!(prerequisites(text), ["C:\\src\\k.c", "C:\\src\\h.h"]);
    }

    #[test]
    fn escaped_space_in_target() {
        let text = "my\\ k.o: a.c\n";
        assert_eq!(prerequisites(text), ["a.c"]);
    }
}
