//! Macro expansion as C's preprocessor does it (C11 6.10.3), for the one place acc needs it
//! on code rather than on directive text: a macro use that produces `_Pragma("acc …")`
//! (`#define ACC(x) PRAGMA(acc x)` with `#define PRAGMA(x) _Pragma(#x)`, the portability idiom
//! of many OpenACC codes), whose directive acc must apply where the macro is used.
//!
//! Every byte of an expansion remembers where in the file it came from: a token written at
//! the use keeps its own offsets (so a clause's `a[0:n]` points at the `a[0:n]` the user
//! wrote, which the lowering copies), a token of a macro's replacement points at the use.
//!
//! It owns pp-tokens, argument collection, `#`, `##`, `__VA_ARGS__`, rescanning with hide
//! sets, and reading `_Pragma`'s string. It must not decide where a use is or what its
//! directive means (`sema::macro_directives` does), and it expands only what it is given.

use std::collections::VecDeque;
use std::rc::Rc;

use crate::lex::{comment_end, is_word, literal_end, number_end, number_starts};

/// A macro definition, as `#define` gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MacroDef {
    /// The parameters of a function-like macro (without a trailing `...`); `None` for an
    /// object-like one.
    pub params: Option<Vec<String>>,
    /// The parameter list ends in `...` (the rest of the arguments are `__VA_ARGS__`), or a
    /// named variadic parameter (`args...`, GNU), which is then the last of `params`.
    pub variadic: bool,
    /// A GNU named variadic parameter: the last of `params` takes the rest.
    pub named_variadic: bool,
    /// The replacement list as written (continuations and comments count as blanks).
    pub body: String,
}

impl MacroDef {
    /// An object-like macro whose replacement is empty (`#define INLINE`).
    pub fn is_empty_object(&self) -> bool {
        self.params.is_none() && self.body.trim().is_empty()
    }

    /// An object-like macro that stands for type qualifiers or `inline` only (`#define
    /// RESTRICT restrict`, `#define REST __restrict__`): what portability headers make of a
    /// qualifier some compilers spell otherwise.
    pub fn is_qualifier_object(&self) -> bool {
        self.params.is_none() && is_qualifier_list(&self.body)
    }
}

/// Whether `text` is one or more type qualifiers (or `inline`), as a macro's replacement.
pub fn is_qualifier_list(text: &str) -> bool {
    const QUALIFIERS: &[&str] = &[
        "const",
        "volatile",
        "restrict",
        "__restrict",
        "__restrict__",
        "inline",
        "__inline",
        "__inline__",
    ];
    let mut words = text.split_whitespace().peekable();
    words.peek().is_some() && words.all(|w| QUALIFIERS.contains(&w))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokKind {
    Ident,
    Number,
    /// A string literal, with any encoding prefix.
    Str,
    Char,
    Punct,
    /// An empty argument next to `##` (C11 6.10.3.3p2).
    Placemarker,
}

/// A preprocessing token of an expansion.
#[derive(Clone, Debug)]
pub struct Tok {
    pub kind: TokKind,
    pub text: String,
    /// The file offset of each byte of `text`.
    pub map: Vec<usize>,
    /// White space stood before it (stringizing keeps one blank there).
    pub space_before: bool,
    /// The macros whose expansion produced it: not expanded again inside it.
    hide: Vec<Rc<str>>,
}

impl Tok {
    fn is(&self, text: &str) -> bool {
        self.kind != TokKind::Str && self.kind != TokKind::Char && self.text == text
    }
}

/// C's punctuators of more than one character (C11 6.4.6), longest first: a pp-token is the
/// longest that fits, so `i++` is `i` `++`, and an expansion written out reads as it was lexed.
const PUNCTUATORS: [&str; 23] = [
    "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=",
    "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##",
];

/// Splits `text` into pp-tokens. `origin(i)` is the file offset of `text`'s byte `i`.
fn lex(text: &str, origin: &dyn Fn(usize) -> usize) -> Result<Vec<Tok>, String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut space = false;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() || c == 0x0c {
            space = true;
            i += 1;
            continue;
        }
        if c == b'\\' && matches!(b.get(i + 1), Some(b'\n' | b'\r')) {
            space = true;
            i += 2;
            continue;
        }
        if text[i..].starts_with("/*") {
            i = comment_end(text, i).ok_or("a comment does not end")?;
            space = true;
            continue;
        }
        if text[i..].starts_with("//") {
            i = text[i..].find('\n').map_or(b.len(), |e| i + e);
            space = true;
            continue;
        }
        let (kind, end) = if c == b'"' || c == b'\'' {
            let end = literal_end(b, i).ok_or("a string or character constant does not end")?;
            (
                if c == b'"' {
                    TokKind::Str
                } else {
                    TokKind::Char
                },
                end,
            )
        } else if number_starts(b, i) {
            (TokKind::Number, number_end(b, i))
        } else if is_word(c) {
            let mut end = i;
            while end < b.len() && is_word(b[end]) {
                end += 1;
            }
            let word = &text[i..end];
            if matches!(word, "L" | "u" | "U" | "u8") && matches!(b.get(end), Some(b'"' | b'\'')) {
                let lit = literal_end(b, end).ok_or("a string constant does not end")?;
                let kind = if b[end] == b'"' {
                    TokKind::Str
                } else {
                    TokKind::Char
                };
                (kind, lit)
            } else {
                (TokKind::Ident, end)
            }
        } else if let Some(p) = PUNCTUATORS.iter().find(|p| text[i..].starts_with(**p)) {
            (TokKind::Punct, i + p.len())
        } else {
            let len = text[i..].chars().next().map_or(1, char::len_utf8);
            (TokKind::Punct, i + len)
        };
        out.push(Tok {
            kind,
            text: text[i..end].to_string(),
            map: (i..end).map(origin).collect(),
            space_before: space,
            hide: Vec::new(),
        });
        space = false;
        i = end;
    }
    Ok(out)
}

/// The limit on nested expansions and on an expansion's size: a definition that grows
/// without end (which a real preprocessor also stops on) is an error, not a hang.
const MAX_TOKENS: usize = 1 << 16;

/// The expander: definitions come from `lookup`.
pub struct Expander<'a> {
    lookup: &'a dyn Fn(&str) -> Option<&'a MacroDef>,
    produced: usize,
}

impl<'a> Expander<'a> {
    pub fn new(lookup: &'a dyn Fn(&str) -> Option<&'a MacroDef>) -> Self {
        Expander {
            lookup,
            produced: 0,
        }
    }

    /// The full expansion of `src[range]` (a macro use), each byte mapped to the file.
    pub fn expand_use(
        &mut self,
        src: &str,
        range: std::ops::Range<usize>,
    ) -> Result<Vec<Tok>, String> {
        let start = range.start;
        let tokens = lex(&src[range], &|i| start + i)?;
        self.expand(tokens.into())
    }

    /// Expands and rescans `input` (C11 6.10.3.4).
    fn expand(&mut self, mut input: VecDeque<Tok>) -> Result<Vec<Tok>, String> {
        let mut out = Vec::new();
        while let Some(t) = input.pop_front() {
            let def = (t.kind == TokKind::Ident && !t.hide.iter().any(|h| **h == *t.text))
                .then(|| (self.lookup)(&t.text))
                .flatten();
            let Some(def) = def else {
                out.push(t);
                continue;
            };
            let args = match &def.params {
                None => None,
                Some(_) if input.front().is_some_and(|n| n.is("(")) => {
                    input.pop_front();
                    Some(collect_args(&mut input, &t.text)?)
                }
                // A function-like macro's name without `(` is just a name.
                Some(_) => {
                    out.push(t);
                    continue;
                }
            };
            let replaced = self.replace(def, &t, args.unwrap_or_default())?;
            self.produced += replaced.len();
            if self.produced > MAX_TOKENS {
                return Err(format!("the expansion of `{}` does not end", t.text));
            }
            for r in replaced.into_iter().rev() {
                input.push_front(r);
            }
        }
        Ok(out)
    }

    /// The replacement of one use of `def` by `name`, arguments substituted, `#` and `##`
    /// applied, before rescanning (C11 6.10.3.1-3).
    fn replace(
        &mut self,
        def: &MacroDef,
        name: &Tok,
        args: Vec<Vec<Tok>>,
    ) -> Result<Vec<Tok>, String> {
        let at = name.map.first().copied().unwrap_or(0);
        let body = lex(&def.body, &|_| at)?;
        let params = def.params.as_deref().unwrap_or(&[]);
        let args = match &def.params {
            Some(_) => bind_args(def, &name.text, args)?,
            None => Vec::new(),
        };
        let param_index = |t: &Tok| -> Option<usize> {
            if t.kind != TokKind::Ident {
                return None;
            }
            if def.variadic && !def.named_variadic && t.text == "__VA_ARGS__" {
                return Some(params.len());
            }
            params.iter().position(|p| *p == t.text)
        };
        let mut out: Vec<Tok> = Vec::with_capacity(body.len());
        let mut k = 0;
        while k < body.len() {
            let t = &body[k];
            let next_is_paste = body.get(k + 1).is_some_and(|n| n.is("##"));
            let prev_is_paste = k > 0 && body[k - 1].is("##");
            if def.params.is_some() && t.is("#") {
                let Some(p) = body.get(k + 1).and_then(param_index) else {
                    return Err(format!(
                        "`#` in `{}` is not followed by a parameter",
                        name.text
                    ));
                };
                let s = stringize(&args[p], body[k].space_before, at);
                out.push(s);
                k += 2;
                continue;
            }
            match param_index(t) {
                Some(p) if next_is_paste || prev_is_paste => {
                    if args[p].is_empty() {
                        out.push(placemarker());
                    } else {
                        let mut a = args[p].clone();
                        a[0].space_before = t.space_before;
                        out.extend(a);
                    }
                }
                Some(p) => {
                    let mut a = self.expand(args[p].clone().into())?;
                    if let Some(first) = a.first_mut() {
                        first.space_before = t.space_before;
                    }
                    out.extend(a);
                }
                None => out.push(body[k].clone()),
            }
            k += 1;
        }
        let mut pasted = paste(out, &name.text)?;
        if let Some(first) = pasted.first_mut() {
            first.space_before = name.space_before;
        }
        let mut hide = name.hide.clone();
        hide.push(Rc::from(name.text.as_str()));
        for t in &mut pasted {
            t.hide.extend(hide.iter().cloned());
        }
        Ok(pasted)
    }
}

/// The arguments of a use, after its `(`, up to the matching `)` (which it takes).
fn collect_args(input: &mut VecDeque<Tok>, name: &str) -> Result<Vec<Vec<Tok>>, String> {
    let mut args = vec![Vec::new()];
    let mut depth = 0usize;
    loop {
        let Some(t) = input.pop_front() else {
            return Err(format!("the arguments of `{name}` do not end (no `)`)"));
        };
        if t.is("(") {
            depth += 1;
        } else if t.is(")") {
            if depth == 0 {
                return Ok(args);
            }
            depth -= 1;
        } else if t.is(",") && depth == 0 {
            args.push(Vec::new());
            continue;
        }
        args.last_mut().expect("one argument at least").push(t);
    }
}

/// The arguments by parameter, `__VA_ARGS__` (or a named variadic parameter) taking the rest
/// with their commas.
fn bind_args(def: &MacroDef, name: &str, mut args: Vec<Vec<Tok>>) -> Result<Vec<Vec<Tok>>, String> {
    let params = def.params.as_deref().unwrap_or(&[]);
    let named = params.len() - usize::from(def.named_variadic);
    // `F()` of a macro without parameters has no argument, not one empty one.
    if named == 0 && !def.variadic && args.len() == 1 && args[0].is_empty() {
        args.clear();
    }
    if def.variadic {
        // `F(a)` of `F(x, ...)` leaves the variable part empty (C2x, and GCC before it).
        if args.len() < named {
            return Err(arg_count(name, named, args.len()));
        }
        let rest: Vec<Vec<Tok>> = args.split_off(named);
        let mut joined = Vec::new();
        for (i, a) in rest.into_iter().enumerate() {
            if i > 0 {
                let at = a.first().and_then(|t| t.map.first().copied()).unwrap_or(0);
                joined.push(Tok {
                    kind: TokKind::Punct,
                    text: ",".into(),
                    map: vec![at],
                    space_before: false,
                    hide: Vec::new(),
                });
            }
            joined.extend(a);
        }
        args.push(joined);
        Ok(args)
    } else if args.len() == named {
        Ok(args)
    } else {
        Err(arg_count(name, named, args.len()))
    }
}

fn arg_count(name: &str, want: usize, got: usize) -> String {
    format!(
        "`{name}` takes {want} argument{}, and the use gives {got}",
        if want == 1 { "" } else { "s" }
    )
}

fn placemarker() -> Tok {
    Tok {
        kind: TokKind::Placemarker,
        text: String::new(),
        map: Vec::new(),
        space_before: false,
        hide: Vec::new(),
    }
}

/// `#param`: the argument's spelling as a string literal (C11 6.10.3.2), one blank where
/// blanks were, `"` and `\` escaped inside string and character constants.
fn stringize(arg: &[Tok], space_before: bool, at: usize) -> Tok {
    let first = arg
        .first()
        .and_then(|t| t.map.first().copied())
        .unwrap_or(at);
    let last = arg.last().and_then(|t| t.map.last().copied()).unwrap_or(at);
    let mut text = String::from("\"");
    let mut map = vec![first];
    for (i, t) in arg.iter().enumerate() {
        if i > 0 && t.space_before {
            text.push(' ');
            map.push(t.map.first().copied().unwrap_or(at));
        }
        let literal = matches!(t.kind, TokKind::Str | TokKind::Char);
        for (j, c) in t.text.char_indices() {
            let from = t.map.get(j).copied().unwrap_or(at);
            if literal && (c == '"' || c == '\\') {
                text.push('\\');
                map.push(from);
            }
            text.push(c);
            map.extend(std::iter::repeat_n(from, c.len_utf8()));
        }
    }
    text.push('"');
    map.push(last);
    Tok {
        kind: TokKind::Str,
        text,
        map,
        space_before,
        hide: Vec::new(),
    }
}

/// Applies the `##` operators of a replacement (C11 6.10.3.3), left to right.
fn paste(tokens: Vec<Tok>, name: &str) -> Result<Vec<Tok>, String> {
    let mut out: Vec<Tok> = Vec::with_capacity(tokens.len());
    let mut it = tokens.into_iter().peekable();
    while let Some(t) = it.next() {
        if t.is("##") && !out.is_empty() {
            let Some(right) = it.next() else {
                return Err(format!("`##` ends the replacement of `{name}`"));
            };
            let left = out.pop().expect("checked above");
            out.push(join(left, right, name)?);
            continue;
        }
        out.push(t);
    }
    Ok(out
        .into_iter()
        .filter(|t| t.kind != TokKind::Placemarker)
        .collect())
}

/// One token of two, or an error where C says the behavior is undefined.
fn join(left: Tok, right: Tok, name: &str) -> Result<Tok, String> {
    if left.kind == TokKind::Placemarker {
        return Ok(Tok {
            space_before: left.space_before,
            ..right
        });
    }
    if right.kind == TokKind::Placemarker {
        return Ok(left);
    }
    let text = format!("{}{}", left.text, right.text);
    let mut map = left.map.clone();
    map.extend(&right.map);
    let relexed = lex(&text, &|i| map.get(i).copied().unwrap_or(0))?;
    match relexed.as_slice() {
        [one] if one.text == text => Ok(Tok {
            kind: one.kind,
            text,
            map,
            space_before: left.space_before,
            hide: left.hide,
        }),
        _ => Err(format!(
            "`##` in `{name}` pastes `{}` and `{}`, which do not make one token",
            left.text, right.text
        )),
    }
}

/// The contents of `_Pragma`'s string literal (C11 6.10.9), destringized, with the file
/// offset of each byte: `None` when `tok` is not a string literal.
pub fn destringize(tok: &Tok) -> Option<(String, Vec<usize>)> {
    if tok.kind != TokKind::Str {
        return None;
    }
    let open = tok.text.find('"')?;
    let inner = &tok.text[open + 1..tok.text.len().checked_sub(1)?];
    let base = open + 1;
    let bytes = inner.as_bytes();
    let mut text = Vec::with_capacity(bytes.len());
    let mut map = Vec::with_capacity(bytes.len() + 1);
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && matches!(bytes.get(i + 1), Some(b'"' | b'\\')) {
            i += 1;
        }
        text.push(bytes[i]);
        map.push(tok.map.get(base + i).copied().unwrap_or(0));
        i += 1;
    }
    map.push(tok.map.last().copied().unwrap_or(0) + 1);
    String::from_utf8(text).ok().map(|t| (t, map))
}

/// The directive texts a use's expansion holds: for each `_Pragma ( "…" )` in `tokens`,
/// the string's contents with their offsets; and whether anything else is there.
pub fn pragma_operators(tokens: &[Tok]) -> (Vec<(String, Vec<usize>)>, bool) {
    let mut found = Vec::new();
    let mut other = false;
    let mut k = 0;
    while k < tokens.len() {
        if tokens[k].is("_Pragma")
            && tokens.get(k + 1).is_some_and(|t| t.is("("))
            && tokens.get(k + 3).is_some_and(|t| t.is(")"))
        {
            if let Some(d) = tokens.get(k + 2).and_then(destringize) {
                found.push(d);
                k += 4;
                continue;
            }
        }
        other = true;
        k += 1;
    }
    (found, other)
}

#[cfg(test)]
mod tests;
