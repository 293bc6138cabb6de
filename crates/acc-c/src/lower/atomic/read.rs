//! Reads the statement of an `atomic` construct as one access of one location, so that
//! [`super`] can write it as one macro call the CUDA module turns into a compare-and-swap (or one
//! whole-value access) on that location instead of a device-wide lock.
//!
//! Every form OpenACC 3.3 lists (§2.12) is read: `atomic read` `v = x;`, `atomic write`
//! `x = e;`, `atomic update` `x++; x--; ++x; --x; x binop= e; x = x binop e; x = e binop x;`,
//! and `atomic capture` as `v = <update>;` or a block `{v = x; <update>}`, `{<update> v = x;}`
//! or `{v = x; x = e;}`. Text this module does not read with certainty (a `//` comment or a
//! preprocessor line inside the statement, a macro standing for the whole statement, or an
//! `e` whose operators would bind differently once `x binop e` is taken apart, which OpenACC
//! does not allow anyway) is `None`, and the construct keeps the device-wide lock. The lock
//! does not exclude another construct's compare-and-swap on the same location, so a program
//! that updates one location through a macro here and a plain statement there is not atomic
//! on the GPU (the host takes its lock for every form): `lower` warns of such a pair.
//!
//! Pure text: no tree-sitter, no knowledge of types; the statement text is all it sees.

use crate::lex::{comment_end, is_word, literal_end, number_end, number_starts};
use std::ops::Range;

/// What an atomic statement does, with byte ranges into its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum AtomicAccess {
    /// `v = x;`
    Read { v: Range<usize>, x: Range<usize> },
    /// `x = e;`
    Write { x: Range<usize>, e: Range<usize> },
    /// `x = f(x, e)`, and for a capture `v` takes the old (`fresh == false`) or new value.
    Update {
        x: Range<usize>,
        op: UpdateOp,
        /// `None` for `++`/`--` (the value 1).
        e: Option<Range<usize>>,
        capture: Option<(Range<usize>, bool)>,
    },
}

/// The `f` of an update.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UpdateOp {
    /// `x = x binop e` (also `x binop= e`, `x++`, and `x = e binop x` for the commutative
    /// operators): the binary operator.
    Forward(&'static str),
    /// `x = e binop x` for `-`, `/`, `<<`, `>>`.
    Reversed(&'static str),
    /// `x = e` in a capture block (an exchange).
    Set,
}

impl UpdateOp {
    /// The name of the CUDA prelude's functor (`__acc_op_<name>`).
    pub(crate) fn functor_name(self) -> &'static str {
        let forward = |op: &str| match op {
            "+" => "add",
            "-" => "sub",
            "*" => "mul",
            "/" => "div",
            "&" => "band",
            "|" => "bor",
            "^" => "bxor",
            "<<" => "shl",
            _ => "shr",
        };
        match self {
            UpdateOp::Forward(op) => forward(op),
            UpdateOp::Reversed("-") => "rsub",
            UpdateOp::Reversed("/") => "rdiv",
            UpdateOp::Reversed("<<") => "rshl",
            UpdateOp::Reversed(_) => "rshr",
            UpdateOp::Set => "set",
        }
    }
}

/// The operators `x binop= e` and `x = x binop e` may use.
const UPDATE_OPS: [&str; 9] = ["+", "-", "*", "/", "&", "|", "^", "<<", ">>"];

/// Operators, longest first so that `<<=` is not read as `<<` then `=`.
const OPERATORS: [&str; 38] = [
    "<<=", ">>=", "->", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>",
    "<=", ">=", "==", "!=", "&&", "||", "=", "+", "-", "*", "/", "%", "&", "|", "^", "<", ">", "!",
    "~", "?", ":", ",", ".",
];

/// An operator at the top level of a statement (outside brackets).
#[derive(Clone, Copy, Debug)]
struct Op {
    at: usize,
    text: &'static str,
    /// Between two operands (for `+ - * &`, as opposed to their unary forms).
    binary: bool,
}

impl Op {
    fn end(&self) -> usize {
        self.at + self.text.len()
    }
    fn is_assignment(&self) -> bool {
        self.text == "="
            || (self.text.ends_with('=') && self.text.len() >= 2 && self.precedence().is_none())
    }
    /// C's precedence of a binary operator (higher binds tighter); `None` for assignments.
    fn precedence(&self) -> Option<u8> {
        Some(match self.text {
            "*" | "/" | "%" => 13,
            "+" | "-" => 12,
            "<<" | ">>" => 11,
            "<" | "<=" | ">" | ">=" => 10,
            "==" | "!=" => 9,
            "&" => 8,
            "^" => 7,
            "|" => 6,
            "&&" => 5,
            "||" => 4,
            "?" | ":" => 3,
            "," => 1,
            _ => return None,
        })
    }
}

/// The top-level operators of `text[range]`; `None` for text not read with certainty.
fn operators(text: &str, range: Range<usize>) -> Option<Vec<Op>> {
    let s = &text[range.clone()];
    // A `//` comment would swallow the rest of the macro call the pieces go into.
    if s.contains("//") || s.contains('#') {
        return None;
    }
    let b = s.as_bytes();
    let mut ops = Vec::new();
    let mut depth = 0i32;
    // Whether the last thing seen at the top level ends an operand (a name, a number, a
    // closing bracket, a postfix `++`): an operator after it is binary.
    let mut operand_end = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'"' | b'\'' => {
                // A character or string constant: an operand.
                i = literal_end(b, i)?;
                if depth == 0 {
                    operand_end = true;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                // A comment: white space.
                i = comment_end(s, i)?;
                continue;
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                operand_end = false;
            }
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
                operand_end = true;
            }
            _ if c.is_ascii_whitespace() => {}
            // Between statements of a block (statements() splits them).
            b';' => operand_end = false,
            _ if number_starts(b, i) => {
                // A number, with the sign of its exponent (`1e-3`): one operand.
                i = number_end(b, i);
                if depth == 0 {
                    operand_end = true;
                }
                continue;
            }
            _ if is_word(c) => {
                if depth == 0 {
                    operand_end = true;
                }
            }
            _ => {
                let op = OPERATORS
                    .iter()
                    .find(|op| b[i..].starts_with(op.as_bytes()))?;
                if depth == 0 {
                    match *op {
                        // Member access: part of the operand.
                        "->" | "." => operand_end = false,
                        // Postfix after an operand (still its end), else prefix.
                        "++" | "--" => {
                            ops.push(Op {
                                at: range.start + i,
                                text: op,
                                binary: false,
                            });
                        }
                        "!" | "~" => {
                            ops.push(Op {
                                at: range.start + i,
                                text: op,
                                binary: false,
                            });
                            operand_end = false;
                        }
                        _ => {
                            ops.push(Op {
                                at: range.start + i,
                                text: op,
                                binary: operand_end,
                            });
                            operand_end = false;
                        }
                    }
                }
                i += op.len();
                continue;
            }
        }
        i += 1;
    }
    (depth == 0).then_some(ops)
}

/// `range` without leading and trailing white space.
fn trim(text: &str, range: Range<usize>) -> Range<usize> {
    let s = &text[range.clone()];
    let start = range.start + (s.len() - s.trim_start().len());
    let end = range.start + s.trim_end().len();
    start..end.max(start)
}

/// The text of `range` without white space and enclosing parentheses, to compare two
/// spellings of one lvalue.
fn squeezed(text: &str, range: &Range<usize>) -> String {
    let mut s: String = text[range.clone()].split_whitespace().collect();
    while s.starts_with('(') && s.ends_with(')') && encloses(&s) {
        s = s[1..s.len() - 1].to_string();
    }
    s
}

/// Whether the first `(` of `s` closes at its last byte.
fn encloses(s: &str) -> bool {
    let mut depth = 0i32;
    for (i, c) in s.bytes().enumerate() {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return i == s.len() - 1;
                }
            }
            _ => {}
        }
    }
    false
}

/// An lvalue alone: something, with no top-level binary, assignment or step operator.
fn plain_operand(text: &str, range: &Range<usize>) -> bool {
    !range.is_empty()
        && operators(text, range.clone()).is_some_and(|ops| {
            ops.iter()
                .all(|o| !o.binary && !o.is_assignment() && o.text != "++" && o.text != "--")
        })
}

/// The loosest binding among the top-level binary operators of `range` (`u8::MAX`: none).
fn loosest(text: &str, range: &Range<usize>) -> Option<u8> {
    let ops = operators(text, range.clone())?;
    if ops.iter().any(|o| o.is_assignment()) {
        return None;
    }
    Some(
        ops.iter()
            .filter(|o| o.binary)
            .filter_map(|o| o.precedence())
            .min()
            .unwrap_or(u8::MAX),
    )
}

/// `x = rhs` as `x = x binop e` or `x = e binop x`, where `x` is spelled as `x_range`.
fn binop_update(
    text: &str,
    x: &Range<usize>,
    rhs: Range<usize>,
) -> Option<(UpdateOp, Range<usize>)> {
    let ops = operators(text, rhs.clone())?;
    let binary: Vec<&Op> = ops.iter().filter(|o| o.binary).collect();
    let x_text = squeezed(text, x);
    // `x binop e`: the first binary operator; `e` binds tighter than it.
    if let Some(first) = binary.first() {
        let left = trim(text, rhs.start..first.at);
        let e = trim(text, first.end()..rhs.end);
        if squeezed(text, &left) == x_text && UPDATE_OPS.contains(&first.text) && !e.is_empty() {
            let op = first.precedence()?;
            if loosest(text, &e)? > op {
                let name = UPDATE_OPS.into_iter().find(|o| *o == first.text)?;
                return Some((UpdateOp::Forward(name), e));
            }
        }
    }
    // `e binop x`: the last binary operator; `e` binds at least as tightly (C's binary
    // operators group left to right).
    let last = binary.last()?;
    let right = trim(text, last.end()..rhs.end);
    let e = trim(text, rhs.start..last.at);
    if squeezed(text, &right) != x_text || !UPDATE_OPS.contains(&last.text) || e.is_empty() {
        return None;
    }
    if loosest(text, &e)? < last.precedence()? {
        return None;
    }
    let name = UPDATE_OPS.into_iter().find(|o| *o == last.text)?;
    let op = match name {
        "-" | "/" | "<<" | ">>" => UpdateOp::Reversed(name),
        _ => UpdateOp::Forward(name),
    };
    Some((op, e))
}

/// An update expression (no `;`): `(x, f, e, whether a capture of it takes the new value)`.
#[allow(clippy::type_complexity)]
fn update(
    text: &str,
    range: Range<usize>,
) -> Option<(Range<usize>, UpdateOp, Option<Range<usize>>, bool)> {
    let range = trim(text, range);
    let ops = operators(text, range.clone())?;
    let assignments: Vec<&Op> = ops.iter().filter(|o| o.is_assignment()).collect();
    match assignments.as_slice() {
        [a] => {
            let x = trim(text, range.start..a.at);
            let rhs = trim(text, a.end()..range.end);
            if !plain_operand(text, &x) || rhs.is_empty() {
                return None;
            }
            if a.text == "=" {
                let (op, e) = binop_update(text, &x, rhs)?;
                return Some((x, op, Some(e), true));
            }
            let binop = &a.text[..a.text.len() - 1];
            let name = UPDATE_OPS.into_iter().find(|o| *o == binop)?;
            // `x binop= e` takes all of `e`, whatever its operators (but no assignment).
            loosest(text, &rhs)?;
            Some((x, UpdateOp::Forward(name), Some(rhs), true))
        }
        [] => {
            // `x++`, `++x` and the same with `--`: one step operator, first or last.
            let steps: Vec<&Op> = ops
                .iter()
                .filter(|o| o.text == "++" || o.text == "--")
                .collect();
            let [step] = steps.as_slice() else {
                return None;
            };
            let (x, prefix) = if step.at == range.start {
                (trim(text, step.end()..range.end), true)
            } else if step.end() == range.end {
                (trim(text, range.start..step.at), false)
            } else {
                return None;
            };
            if !plain_operand(text, &x) {
                return None;
            }
            let op = if step.text == "++" { "+" } else { "-" };
            Some((x, UpdateOp::Forward(op), None, prefix))
        }
        _ => None,
    }
}

/// `lhs = rhs` with one top-level plain `=` first among the assignments.
fn first_assignment(text: &str, range: Range<usize>) -> Option<(Range<usize>, Range<usize>)> {
    let ops = operators(text, range.clone())?;
    let a = ops.iter().find(|o| o.is_assignment())?;
    (a.text == "=").then(|| {
        (
            trim(text, range.start..a.at),
            trim(text, a.end()..range.end),
        )
    })
}

/// The statements of `text`: one statement, or a block of them; each without its `;`.
fn statements(text: &str) -> Option<Vec<Range<usize>>> {
    let all = trim(text, 0..text.len());
    let s = &text[all.clone()];
    let inner = if s.starts_with('{') && s.ends_with('}') && s.len() >= 2 {
        all.start + 1..all.end - 1
    } else {
        all
    };
    // Split at the top-level `;`, outside constants and comments (operators() has checked
    // that they end).
    operators(text, inner.clone())?;
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = inner.start;
    let mut i = inner.start;
    while i < inner.end {
        match b[i] {
            b'"' | b'\'' => {
                i = literal_end(b, i)?;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = comment_end(text, i)?;
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b';' if depth == 0 => {
                out.push(trim(text, start..i));
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    // Every statement ends with `;`.
    if !trim(text, start..inner.end).is_empty() || out.iter().any(|r| r.is_empty()) {
        return None;
    }
    Some(out)
}

/// Reads an atomic construct's statement; `kind` is the construct's clause (`read`, `write`,
/// `update` or `capture`).
pub(crate) fn read_access(kind: AtomicKindOf, text: &str) -> Option<AtomicAccess> {
    let stmts = statements(text)?;
    match (kind, stmts.as_slice()) {
        (AtomicKindOf::Read, [s]) => {
            let (v, x) = first_assignment(text, s.clone())?;
            (plain_operand(text, &v) && plain_operand(text, &x))
                .then_some(AtomicAccess::Read { v, x })
        }
        (AtomicKindOf::Write, [s]) => {
            let (x, e) = first_assignment(text, s.clone())?;
            (plain_operand(text, &x) && loosest(text, &e).is_some() && !e.is_empty())
                .then_some(AtomicAccess::Write { x, e })
        }
        (AtomicKindOf::Update, [s]) => {
            let (x, op, e, _) = update(text, s.clone())?;
            Some(AtomicAccess::Update {
                x,
                op,
                e,
                capture: None,
            })
        }
        (AtomicKindOf::Capture, [s]) => {
            // `v = <update>`.
            let ops = operators(text, s.clone())?;
            let a = ops.iter().find(|o| o.is_assignment())?;
            if a.text != "=" {
                return None;
            }
            let v = trim(text, s.start..a.at);
            let (x, op, e, fresh) = update(text, a.end()..s.end)?;
            plain_operand(text, &v).then_some(AtomicAccess::Update {
                x,
                op,
                e,
                capture: Some((v, fresh)),
            })
        }
        (AtomicKindOf::Capture, [first, second]) => {
            // `v = x` before or after the update.
            let read = |s: &Range<usize>| {
                let (v, x) = first_assignment(text, s.clone())?;
                (plain_operand(text, &v) && plain_operand(text, &x)).then_some((v, x))
            };
            let same = |a: &Range<usize>, b: &Range<usize>| squeezed(text, a) == squeezed(text, b);
            if let (Some((v, xr)), Some((x, op, e, _))) =
                (read(first), update(text, second.clone()))
            {
                if same(&xr, &x) && !same(&v, &x) {
                    return Some(AtomicAccess::Update {
                        x,
                        op,
                        e,
                        capture: Some((v, false)),
                    });
                }
            }
            if let (Some((x, op, e, _)), Some((v, xr))) =
                (update(text, first.clone()), read(second))
            {
                if same(&xr, &x) && !same(&v, &x) {
                    return Some(AtomicAccess::Update {
                        x,
                        op,
                        e,
                        capture: Some((v, true)),
                    });
                }
            }
            // `{v = x; x = e;}`: an exchange.
            let (v, xr) = read(first)?;
            let (x, e) = first_assignment(text, second.clone())?;
            (same(&xr, &x)
                && !same(&v, &x)
                && plain_operand(text, &x)
                && !e.is_empty()
                && loosest(text, &e).is_some())
            .then_some(AtomicAccess::Update {
                x,
                op: UpdateOp::Set,
                e: Some(e),
                capture: Some((v, false)),
            })
        }
        _ => None,
    }
}

/// The clause of an `atomic` construct.
/// The location `x` of a statement `x = e;` whose `e` does not name it: a write, which no
/// `atomic update` form is (OpenACC 3.3 2.12); `None` for anything else.
pub(crate) fn plain_write(text: &str) -> Option<String> {
    let stmts = statements(text)?;
    let [s] = stmts.as_slice() else {
        return None;
    };
    let (x, e) = first_assignment(text, s.clone())?;
    if !plain_operand(text, &x) {
        return None;
    }
    let x_text = squeezed(text, &x);
    let names_x = crate::lex::code_words(&text[e.clone()]).any(|w| {
        let word = &text[e.start + w.start..e.start + w.end];
        x_text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|part| part == word)
    });
    (!names_x).then_some(x_text)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AtomicKindOf {
    Read,
    Write,
    Update,
    Capture,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_is_no_update() {
        assert_eq!(plain_write("y = i + 1;").as_deref(), Some("y"));
        assert_eq!(plain_write("{ a[k] = 2 * i; }").as_deref(), Some("a[k]"));
        for update in [
            "y = y + 1;",
            "a[k] = a[k] * 2;",
            "y += i;",
            "y++;",
            "x = f(x);",
        ] {
            assert_eq!(plain_write(update), None, "{update}");
        }
    }
    use AtomicKindOf::*;

    /// The access with its ranges as text: (v, x, op, e, fresh).
    fn show(kind: AtomicKindOf, text: &str) -> Option<String> {
        let t = |r: &Range<usize>| text[r.clone()].to_string();
        Some(match read_access(kind, text)? {
            AtomicAccess::Read { v, x } => format!("read {} <- {}", t(&v), t(&x)),
            AtomicAccess::Write { x, e } => format!("write {} <- {}", t(&x), t(&e)),
            AtomicAccess::Update { x, op, e, capture } => {
                let e = e.map_or("1".to_string(), |e| t(&e));
                let cap = capture.map_or(String::new(), |(v, fresh)| {
                    format!(" -> {} {}", t(&v), if fresh { "new" } else { "old" })
                });
                format!("{} {:?} {}{cap}", t(&x), op, e)
            }
        })
    }

    #[test]
    fn update_forms() {
        let f = |s| show(Update, s);
        assert_eq!(f("x++;").unwrap(), "x Forward(\"+\") 1");
        assert_eq!(f(" --a[i];\n").unwrap(), "a[i] Forward(\"-\") 1");
        assert_eq!(
            f("hist[i % 4] += f(a, b);").unwrap(),
            "hist[i % 4] Forward(\"+\") f(a, b)"
        );
        assert_eq!(f("x <<= 2;").unwrap(), "x Forward(\"<<\") 2");
        assert_eq!(f("x = x + 1;").unwrap(), "x Forward(\"+\") 1");
        assert_eq!(
            f("p->s[2] = p -> s[2] * (a[j] / 3);").unwrap(),
            "p->s[2] Forward(\"*\") (a[j] / 3)"
        );
        assert_eq!(f("x = a * b + x;").unwrap(), "x Forward(\"+\") a * b");
        assert_eq!(f("x = a - b - x;").unwrap(), "x Reversed(\"-\") a - b");
        assert_eq!(f("x = 2.5 / x;").unwrap(), "x Reversed(\"/\") 2.5");
        assert_eq!(f("*p = *p - -1;").unwrap(), "*p Forward(\"-\") -1");
        assert_eq!(f("p->n = (p->n) + 1;").unwrap(), "p->n Forward(\"+\") 1");
        assert_eq!(f("(x) = 2 - ( x );").unwrap(), "(x) Reversed(\"-\") 2");
        assert_eq!(f("x += y++ + 1;").unwrap(), "x Forward(\"+\") y++ + 1");
        // An exponent's sign is part of its number.
        assert_eq!(f("x = x + 1e-3;").unwrap(), "x Forward(\"+\") 1e-3");
        assert_eq!(f("x = x * 2.5E+2f;").unwrap(), "x Forward(\"*\") 2.5E+2f");
        assert_eq!(f("x = 0x1p-2 - x;").unwrap(), "x Reversed(\"-\") 0x1p-2");
        assert_eq!(f("x = x * y1e - 2;"), None);
        // Operators of e that would bind differently: keep the lock.
        assert_eq!(f("x = x * a + b;"), None);
        assert_eq!(f("p->s[2] = p->s[2] * a[j] / 3;"), None);
        assert_eq!(f("x = x - a - b;"), None);
        assert_eq!(f("x = a - b * x;"), None);
        assert_eq!(f("x = x * y++ + 2;"), None);
        assert_eq!(f("x = x < 3 ? 1 : 2;"), None);
        assert_eq!(f("x = y + 1;"), None);
        assert_eq!(f("x = x % 3;"), None);
        assert_eq!(f("x += y = 2;"), None);
        assert_eq!(f("x, y += 1;"), None);
        assert_eq!(f("x += 1"), None);
        assert_eq!(f("x += 1; y++;"), None);
        assert_eq!(f("x += 1 // one\n;"), None);
        // Constants and comments are operands and white space.
        assert_eq!(
            f("x += 1 /* one; */;").unwrap(),
            "x Forward(\"+\") 1 /* one; */"
        );
        assert_eq!(
            f("s[0] += \"a;\"[0];").unwrap(),
            "s[0] Forward(\"+\") \"a;\"[0]"
        );
        assert_eq!(
            f("hist[c - 'a']++;").unwrap(),
            "hist[c - 'a'] Forward(\"+\") 1"
        );
        assert_eq!(f("x = x + '\\'';").unwrap(), "x Forward(\"+\") '\\''");
        assert_eq!(f("x += \"a;"), None);
        // Bytes of a multi-byte character are never read as operators.
        assert_eq!(f("x += é;").unwrap(), "x Forward(\"+\") é");
    }

    #[test]
    fn capture_forms() {
        let f = |s| show(Capture, s);
        assert_eq!(f("v = x[0]++;").unwrap(), "x[0] Forward(\"+\") 1 -> v old");
        assert_eq!(f("v = --x;").unwrap(), "x Forward(\"-\") 1 -> v new");
        assert_eq!(f("v = x += 3;").unwrap(), "x Forward(\"+\") 3 -> v new");
        assert_eq!(
            f("v = x[5] = x[5] - 2;").unwrap(),
            "x[5] Forward(\"-\") 2 -> v new"
        );
        assert_eq!(f("v = x = 5 - x;").unwrap(), "x Reversed(\"-\") 5 -> v new");
        assert_eq!(
            f("{ v = x[7]; x[7] += 4; }").unwrap(),
            "x[7] Forward(\"+\") 4 -> v old"
        );
        assert_eq!(
            f("{ x[8] -= 3; v = x[8]; }").unwrap(),
            "x[8] Forward(\"-\") 3 -> v new"
        );
        assert_eq!(
            f("{v = x; x = 7 + x;}").unwrap(),
            "x Forward(\"+\") 7 -> v old"
        );
        assert_eq!(
            f("{ x = x << 1; v = x; }").unwrap(),
            "x Forward(\"<<\") 1 -> v new"
        );
        assert_eq!(f("{ v = x; x = e; }").unwrap(), "x Set e -> v old");
        assert_eq!(f("{ v = x; ++x; }").unwrap(), "x Forward(\"+\") 1 -> v old");
        assert_eq!(f("{ x--; v = x; }").unwrap(), "x Forward(\"-\") 1 -> v new");
        // Not one location, or not a capture.
        assert_eq!(f("{ v = y; x += 1; }"), None);
        assert_eq!(f("{ x = y; x += 1; }"), None);
        assert_eq!(f("{ v = x; x += 1; w = 2; }"), None);
        assert_eq!(f("v = x;"), None);
        assert_eq!(f("{ v = x; x = e }"), None);
    }

    proptest::proptest! {
        /// Any text, of statement-like pieces or not, is read or refused, never a panic, and
        /// every range given back is a piece of the text.
        #[test]
        fn any_text_is_read_or_refused(
            pieces in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just("x".to_string()),
                    proptest::strategy::Just("v".to_string()),
                    proptest::string::string_regex("[-+*/%&|^<>=!~?:;,.(){}\\[\\] ]{1,3}").unwrap(),
                    proptest::string::string_regex("[a-z0-9_é\"']{1,4}").unwrap(),
                ],
                0..16,
            )
        ) {
            let text: String = pieces.concat();
            for kind in [Read, Write, Update, Capture] {
                if let Some(access) = read_access(kind, &text) {
                    let ranges = match access {
                        AtomicAccess::Read { v, x } => vec![v, x],
                        AtomicAccess::Write { x, e } => vec![x, e],
                        AtomicAccess::Update { x, e, capture, .. } => {
                            let mut r = vec![x];
                            r.extend(e);
                            r.extend(capture.map(|c| c.0));
                            r
                        }
                    };
                    for r in ranges {
                        proptest::prop_assert!(text.get(r.clone()).is_some_and(|p| !p.trim().is_empty()));
                    }
                }
            }
        }
    }

    #[test]
    fn read_and_write_forms() {
        assert_eq!(show(Read, "v = a[i].f;").unwrap(), "read v <- a[i].f");
        assert_eq!(show(Read, "v = x + 1;"), None);
        assert_eq!(
            show(Write, "x = a * b + 1;").unwrap(),
            "write x <- a * b + 1"
        );
        assert_eq!(show(Write, "x += 1;"), None);
        assert_eq!(show(Write, "x = y = 1;"), None);
    }
}
