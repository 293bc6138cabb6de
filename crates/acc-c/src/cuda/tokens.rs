//! The CUDA module's tokens that C and C++ read differently, written as C means them
//! (`c_tokens_as_c_means_them`): character constants as `int`, the storage class `auto`, GNU's
//! imaginary constants, compound literals. Part of the module's text as NVRTC must read it
//! (`super::text`); it must not choose what goes into the module.

use super::text::after_preludes;

/// `module` with the file's tokens that mean one thing in C and another in C++ written as C
/// means them: each character constant (`'a'`, `'\n'`) as `((int)'a')` (in C a character
/// constant is an `int`, `sizeof('a')` is 4; in C++ a `char`, 1) and the storage class `auto`
/// as a comment (see [`auto_is_a_storage_class`]), and GNU's imaginary constants (`2.0i`) as the
/// prelude's complex values (see [`imaginary_constant`]). Prefixed character constants (`L'a'`,
/// `u'a'`) have the same type in both and stay, as do those in `#if` and `#elif` lines, where
/// a cast is not allowed (and the preprocessor's arithmetic is the same in both), and the
/// preludes' text. A compound literal of a scalar or struct type, `(vec2){1.0, 2.0}`, which C++
/// lacks, becomes the prelude's `__acc_id<vec2>{1.0, 2.0}` (see [`compound_literal_type`]).
pub fn c_tokens_as_c_means_them(module: &str) -> String {
    use crate::lex::{comment_end, is_word, literal_end};
    let start = after_preludes(module);
    let text = &module[start..];
    let b = text.as_bytes();
    let mut out = String::with_capacity(module.len() + 64);
    out.push_str(&module[..start]);
    let mut last = 0;
    let mut i = 0;
    let mut line_start = true;
    // Whether the last token could end an operand or name a function (a word, a literal, `)`,
    // `]`): a `(` after one is a call or a statement's condition, not a compound literal's.
    let mut after_operand = false;
    while i < b.len() {
        let token = i;
        match b[i] {
            b'\n' => {
                line_start = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' | b'\x0c' => {
                i += 1;
                continue;
            }
            b'#' if line_start => {
                let directive = text[i + 1..].trim_start_matches([' ', '\t']);
                let word_len = directive.bytes().take_while(|&c| is_word(c)).count();
                if matches!(&directive[..word_len], "if" | "elif") {
                    // To the end of the line and its continuations.
                    loop {
                        let end = text[i..].find('\n').map_or(b.len(), |k| i + k);
                        let continued = text[i..end].trim_end_matches('\r').ends_with('\\');
                        i = end;
                        if !continued || i == b.len() {
                            break;
                        }
                        i += 1;
                    }
                    continue;
                }
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => i = comment_end(text, i).unwrap_or(b.len()),
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(b.len(), |k| i + k)
            }
            b'"' => i = literal_end(b, i).unwrap_or(b.len()),
            b'\'' => {
                let end = literal_end(b, i).unwrap_or(b.len());
                if i == 0 || !is_word(b[i - 1]) {
                    out.push_str(&text[last..i]);
                    out.push_str("((int)");
                    out.push_str(&text[i..end]);
                    out.push(')');
                    last = end;
                }
                i = end;
            }
            _ if crate::lex::number_starts(b, i) => {
                let end = crate::lex::number_end(b, i);
                if let Some(value) = imaginary_constant(&text[i..end]) {
                    out.push_str(&text[last..i]);
                    out.push_str(&value);
                    last = end;
                }
                i = end;
            }
            c if is_word(c) => {
                let word = i;
                while i < b.len() && is_word(b[i]) {
                    i += 1;
                }
                if &text[word..i] == "auto" && auto_is_a_storage_class(&text[i..]) {
                    out.push_str(&text[last..word]);
                    out.push_str("/* auto */");
                    last = i;
                }
                // `return (vec2){…}` is a compound literal; `f (x)`, `if (x)` are not.
                after_operand = &text[word..i] != "return";
                line_start = false;
                continue;
            }
            b'(' if !after_operand => {
                if let Some((ty, close)) = compound_literal_type(text, i) {
                    out.push_str(&text[last..i]);
                    out.push_str("__acc_id<");
                    out.push_str(ty);
                    out.push('>');
                    last = close + 1;
                    i = close + 1;
                    after_operand = true;
                    line_start = false;
                    continue;
                }
                i += 1;
            }
            _ => i += 1,
        }
        let comment = b[token] == b'/' && matches!(b.get(token + 1), Some(b'*' | b'/'));
        if i > token && !comment {
            after_operand = matches!(b[token], b')' | b']' | b'"' | b'\'')
                || crate::lex::number_starts(b, token);
        }
        line_start = false;
    }
    out.push_str(&text[last..]);
    out
}

/// The type of the compound literal whose `(` is at `open` in `text`, and where its `)` is:
/// a type name of words and `*`s alone (`vec2`, `struct s`, `const double`, `int *`) followed by
/// `{`. `None` for anything else, and for an array's (`(int[]){1, 2}`): C's is an lvalue that
/// lives to the end of its block, which a pointer to it may rely on, where C++'s temporary
/// would be gone at the end of the statement; NVRTC refuses it instead.
fn compound_literal_type(text: &str, open: usize) -> Option<(&str, usize)> {
    let b = text.as_bytes();
    let close = open + 1 + text[open + 1..].find(')')?;
    let inside = &text[open + 1..close];
    if !inside
        .bytes()
        .all(|c| crate::lex::is_word(c) || matches!(c, b'*' | b' ' | b'\t' | b'\n' | b'\r'))
        || !inside.bytes().any(crate::lex::is_word)
        || inside
            .trim_start()
            .starts_with(|c: char| c.is_ascii_digit())
    {
        return None;
    }
    let next = close
        + 1
        + b[close + 1..]
            .iter()
            .take_while(|c| c.is_ascii_whitespace())
            .count();
    (b.get(next) == Some(&b'{')).then(|| (inside.trim(), close))
}

/// GNU C's imaginary constant (`2.0i`, `1.0I`, `0.5fi`, `3j`): the prelude's complex value of
/// the constant's type, which C++ has no suffix for; `None` for any other number.
fn imaginary_constant(number: &str) -> Option<String> {
    if number.starts_with("0x") || number.starts_with("0X") {
        return None;
    }
    let digits = number.trim_end_matches(|c: char| "iIjJfFlLuU".contains(c));
    let suffix = &number[digits.len()..];
    if suffix.chars().filter(|c| "iIjJ".contains(*c)).count() != 1 || digits.is_empty() {
        return None;
    }
    let rest: String = suffix.chars().filter(|c| !"iIjJ".contains(*c)).collect();
    let float = rest.contains(['f', 'F']);
    let real = if digits.contains(['.', 'e', 'E']) {
        digits.to_string()
    } else {
        format!("{digits}.0")
    };
    Some(if float {
        format!("__acc_cfloat(0.0f, {real}f)")
    } else {
        format!("__acc_cdouble(0.0, {real})")
    })
}

/// Whether C's `auto` before `rest` is its storage class (`auto int t;`, `auto real_t x;`,
/// `auto struct s v;`), which C++ would read as a deduced type: a type's keyword follows, or a
/// name and then a name or `*`. `auto x = 1;` (C23's deduction, C++'s too) is not.
fn auto_is_a_storage_class(rest: &str) -> bool {
    const TYPE_WORDS: &[&str] = &[
        "int",
        "char",
        "short",
        "long",
        "signed",
        "unsigned",
        "float",
        "double",
        "_Bool",
        "_Complex",
        "struct",
        "union",
        "enum",
        "const",
        "volatile",
        "restrict",
        "__restrict",
        "__restrict__",
        "register",
        "static",
        "void",
    ];
    let word = |t: &str| -> usize { t.bytes().take_while(|&c| crate::lex::is_word(c)).count() };
    let rest = rest.trim_start();
    let first = word(rest);
    if first == 0 {
        return false;
    }
    if TYPE_WORDS.contains(&&rest[..first]) {
        return true;
    }
    let after = rest[first..].trim_start();
    after.starts_with('*') || word(after) > 0
}
