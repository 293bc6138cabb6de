//! The CUDA module's tokens that C and C++ read differently, written as C means them
//! (`c_tokens_as_c_means_them`): character constants as `int`, the storage classes `auto` and
//! `register`, GNU's
//! imaginary constants, compound literals; GNU statement expressions as lambdas
//! (`statement_expressions_as_lambdas`) and case ranges as their labels
//! (`case_ranges_expanded`). Part of the module's text as NVRTC must read it
//! (`super::text`); it must not choose what goes into the module.

use super::text::after_preludes;

/// `module` with the file's tokens that mean one thing in C and another in C++ written as C
/// means them: each character constant (`'a'`, `'\n'`) as `((int)'a')` (in C a character
/// constant is an `int`, `sizeof('a')` is 4; in C++ a `char`, 1) and the storage classes `auto`
/// (see [`auto_is_a_storage_class`]) and `register` as comments, and GNU's imaginary constants (`2.0i`) as the
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
                // C's `register` (a storage class that asks nothing a compiler heeds) is no
                // keyword C++17 lets a program use.
                if &text[word..i] == "register" {
                    out.push_str(&text[last..word]);
                    out.push_str("/* register */");
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

/// `module` with each GNU statement expression of the file's text (`({ int t = x; t * 2; })`,
/// which `MAX`-style macros use) written as a C++ lambda called in place, `([&]() { int t = x;
/// return (t * 2); }())`: NVRTC has no statement expressions. The value is the last
/// statement's, when that is an expression; a statement expression whose last statement is
/// not (a declaration, an `if`) has none, and neither has the lambda. `break`, `continue`
/// and `goto` out of one would not leave the lambda: GNU C code does not use them there.
pub fn statement_expressions_as_lambdas(module: &str) -> String {
    let start = after_preludes(module);
    if !module[start..].contains("({") && !has_spaced_statement_expression(&module[start..]) {
        return module.to_string();
    }
    format!("{}{}", &module[..start], lambdas(&module[start..]))
}

/// Whether `text` may hold `(` and `{` apart (`( {`, `(\n{`).
fn has_spaced_statement_expression(text: &str) -> bool {
    text.match_indices('(').any(|(k, _)| {
        text[k + 1..]
            .trim_start_matches([' ', '\t', '\r', '\n', '\\'])
            .starts_with('{')
            && !text[k + 1..].starts_with('{')
    })
}

/// [`statement_expressions_as_lambdas`] over `text`, inner ones first.
fn lambdas(text: &str) -> String {
    use crate::lex::{comment_end, literal_end};
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 64);
    let (mut last, mut i) = (0, 0);
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'*') => i = comment_end(text, i).unwrap_or(b.len()),
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(b.len(), |k| i + k)
            }
            b'"' | b'\'' => i = literal_end(b, i).unwrap_or(b.len()),
            b'(' => {
                let open = i + 1 + blank_len(&text[i + 1..]);
                let Some(close) = (b.get(open) == Some(&b'{'))
                    .then(|| matching(text, open))
                    .flatten()
                else {
                    i += 1;
                    continue;
                };
                let paren = close + 1 + blank_len(&text[close + 1..]);
                if b.get(paren) != Some(&b')') {
                    i += 1;
                    continue;
                }
                let inner = lambdas(&text[open + 1..close]);
                out.push_str(&text[last..i]);
                out.push_str("([&]() {");
                out.push_str(&with_return(&inner));
                out.push_str("}())");
                last = paren + 1;
                i = paren + 1;
            }
            _ => i += 1,
        }
    }
    out.push_str(&text[last..]);
    out
}

/// How many blanks (and line continuations) start `text`.
fn blank_len(text: &str) -> usize {
    text.len() - text.trim_start_matches([' ', '\t', '\r', '\n', '\\']).len()
}

/// Where the bracket that closes the one at `open` in `text` is, literals and comments
/// skipped.
fn matching(text: &str, open: usize) -> Option<usize> {
    use crate::lex::{comment_end, literal_end};
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = comment_end(text, i)?;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map(|k| i + k)?;
                continue;
            }
            b'"' | b'\'' => {
                i = literal_end(b, i)?;
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The statements of a statement expression with its last one, when an expression, returned.
fn with_return(statements: &str) -> String {
    use crate::lex::{comment_end, literal_end};
    let b = statements.as_bytes();
    // Where the last statement starts (after the previous one's `;` or `}` at the top level)
    // and its `;`.
    let (mut begin, mut last_end, mut end) = (0, 0, None);
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = comment_end(statements, i).unwrap_or(b.len());
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = statements[i..].find('\n').map_or(b.len(), |k| i + k);
                continue;
            }
            b'"' | b'\'' => {
                i = literal_end(b, i).unwrap_or(b.len());
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    (begin, last_end, end) = (i + 1, i + 1, None);
                }
            }
            b';' if depth == 0 => {
                begin = last_end;
                end = Some(i);
                last_end = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    // Blanks and line continuations (a macro's) may follow the last statement.
    let blank = |t: &str| {
        t.trim_matches(|c: char| c.is_whitespace() || c == '\\')
            .is_empty()
    };
    let Some(end) = end.filter(|&e| blank(&statements[e + 1..])) else {
        return statements.to_string();
    };
    let blank_char = |c: char| c.is_whitespace() || c == '\\';
    let last = statements[begin..end].trim_matches(blank_char);
    const NOT_AN_EXPRESSION: &[&str] = &[
        "if",
        "for",
        "while",
        "do",
        "switch",
        "return",
        "break",
        "continue",
        "goto",
        "case",
        "default",
        "int",
        "char",
        "short",
        "long",
        "float",
        "double",
        "signed",
        "unsigned",
        "const",
        "volatile",
        "static",
        "struct",
        "union",
        "enum",
        "void",
        "_Bool",
        "typedef",
        "typeof",
        "__typeof__",
        "__typeof",
        "auto",
        "register",
    ];
    let first_word: String = last
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if last.is_empty() || NOT_AN_EXPRESSION.contains(&first_word.as_str()) {
        return statements.to_string();
    }
    let at = begin
        + (statements[begin..].len() - statements[begin..].trim_start_matches(blank_char).len());
    format!(
        "{}return ({});{}",
        &statements[..at],
        last,
        &statements[end + 1..]
    )
}

#[cfg(test)]
mod statement_expression_tests {
    use super::lambdas;

    #[test]
    fn statement_expressions_become_lambdas_returning_their_last_expression() {
        assert_eq!(
            lambdas("x = ({ int t = i; t * 2; });"),
            "x = ([&]() { int t = i; return (t * 2); }());"
        );
        // Nested, a block inside, and one whose last statement is no expression.
        assert_eq!(
            lambdas("y = ({ int a = ({ 1; }); if (a) { a++; } a; }); ({ if (c) f(); });"),
            "y = ([&]() { int a = ([&]() { return (1); }()); if (a) { a++; } return (a); }()); \
             ([&]() { if (c) f(); }());"
        );
        // Calls and compound literals are not statement expressions; literals are skipped.
        assert_eq!(
            lambdas("f(x); g(\"({\"); (S){1};"),
            "f(x); g(\"({\"); (S){1};"
        );
        // A macro's, lines continued.
        assert_eq!(
            lambdas("#define M(a) \\\n  ({ int t = (a); \\\n  t; \\\n  })"),
            "#define M(a) \\\n  ([&]() { int t = (a); \\\n  return (t); \\\n  }())"
        );
    }
}

/// `module` with each GNU case range of the file's text (`case 1 ... 3:`, `case 'a' ... 'z':`)
/// written as the labels it stands for (`case 1: case 2: case 3:`), which C++ has no range
/// for. Only a range of integer or character constants, of at most [`MAX_CASE_RANGE`] values,
/// is written out; any other stays, for NVRTC to refuse.
pub fn case_ranges_expanded(module: &str) -> String {
    let start = after_preludes(module);
    if !module[start..].contains("...") {
        return module.to_string();
    }
    let text = &module[start..];
    let mut out = String::with_capacity(module.len());
    out.push_str(&module[..start]);
    let mut last = 0;
    for (at, _) in text.match_indices("case") {
        let before_ok = at == 0 || !crate::lex::is_word(text.as_bytes()[at - 1]);
        let rest = &text[at + 4..];
        if !before_ok || rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let Some(colon) = rest.find(':') else {
            continue;
        };
        let Some((lo, hi)) = rest[..colon].split_once("...") else {
            continue;
        };
        let (Some(lo), Some(hi)) = (case_constant(lo.trim()), case_constant(hi.trim())) else {
            continue;
        };
        if hi < lo || hi - lo >= MAX_CASE_RANGE || at < last {
            continue;
        }
        out.push_str(&text[last..at]);
        let labels: Vec<String> = (lo..=hi).map(|v| format!("case {v}")).collect();
        out.push_str(&labels.join(": "));
        last = at + 4 + colon;
    }
    out.push_str(&text[last..]);
    out
}

/// The most values a case range is written out for.
const MAX_CASE_RANGE: i64 = 4096;

/// The value of an integer constant (decimal, octal or hex, with a sign and suffixes) or a
/// plain character constant (`'a'`, `'\n'`).
fn case_constant(text: &str) -> Option<i64> {
    if let Some(c) = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        return match c.as_bytes() {
            [b] if *b != b'\\' => Some(i64::from(*b)),
            [b'\\', e] => Some(match e {
                b'n' => 10,
                b't' => 9,
                b'r' => 13,
                b'0' => 0,
                b'\\' => 92,
                b'\'' => 39,
                _ => return None,
            }),
            _ => None,
        };
    }
    let (negative, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d.trim_start()),
        None => (false, text),
    };
    let digits = digits.trim_end_matches(['u', 'U', 'l', 'L']);
    let value = if let Some(hex) = digits.strip_prefix("0x").or(digits.strip_prefix("0X")) {
        i64::from_str_radix(hex, 16).ok()?
    } else if digits.len() > 1 && digits.starts_with('0') {
        i64::from_str_radix(&digits[1..], 8).ok()?
    } else {
        digits.parse().ok()?
    };
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod case_range_tests {
    use super::case_ranges_expanded;

    #[test]
    fn case_ranges_of_constants_are_written_out() {
        assert_eq!(
            case_ranges_expanded("switch (x) { case 1 ... 3: y = 1; break; case 'a'...'c': y = 2; }"),
            "switch (x) { case 1: case 2: case 3: y = 1; break; case 97: case 98: case 99: y = 2; }"
        );
        // A range of names stays.
        let named = "switch (x) { case LO ... HI: y = 1; }";
        assert_eq!(case_ranges_expanded(named), named);
    }
}
