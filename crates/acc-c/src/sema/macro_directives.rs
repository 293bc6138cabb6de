//! Directives that macros produce: `ACC(parallel loop copy(a[0:n]))` where `#define ACC(x)
//! PRAGMA(acc x)` and `#define PRAGMA(x) _Pragma(#x)` (the portability idiom of codes that
//! build with and without OpenACC), or `ACC_LOOP` for `#define ACC_LOOP _Pragma("acc loop")`.
//!
//! The compiler applies such a directive where the macro is used, so acc must too: ignoring
//! it would run the construct on the host with other data than the program asks for. Where a
//! use expands to `_Pragma("acc …")` and nothing else, the file is parsed again from a copy in
//! which the use is an empty statement of the same length (so every offset, line and column
//! stays the file's), and the walk reads the directive from the expansion, each byte mapped
//! back to what the use wrote. A use that expands to a directive and more (`_Pragma("acc
//! parallel loop") for (…)`) applies the directive to code only the expansion has: the walk
//! refuses it, and [`Found::code_uses`] gives its expansion, with which a compiler of the file
//! analyses the text as the compiler reads it ([`crate::with_code_macros_expanded`]); the
//! printer of OpenMP does too, so its output has the expansion where the use was.
//!
//! It owns finding the uses (in the code of the live branches, at the definitions in effect
//! there) and the masked copy. It must not parse directives (the walk does, from
//! [`MacroDirective`]) nor expand macros itself ([`crate::macro_expand`] does).

use std::collections::{HashMap, HashSet};

use acc_engine::{Diagnostic, Span};
use tree_sitter::Node;

use crate::lex::{comment_end, is_word, literal_end};
use crate::macro_expand::{pragma_operators, Expander, MacroDef};
use crate::syntax::{fields, NodeKind};

/// A directive a macro use expands to.
#[derive(Clone, Debug)]
pub struct MacroDirective {
    /// The use, `ACC(parallel loop)`: what a printer replaces.
    pub span: Span,
    /// The directive's text from `acc` on, destringized.
    pub text: String,
    /// The file offset of each byte of `text`, and of its end.
    pub map: Vec<usize>,
    /// The macro's name (for diagnostics).
    pub name: String,
}

/// A `#define` or `#undef` the walk met, where it stands.
#[derive(Clone, Debug)]
pub(super) struct MacroEvent {
    pub at: usize,
    pub name: String,
    /// `None` for `#undef`.
    pub def: Option<MacroDef>,
    pub span: Span,
}

/// The definition a `#define` or `#undef` node gives: the name and the macro (`None` for
/// `#undef`); `None` for any other node.
pub fn macro_definition(node: Node, src: &str) -> Option<(String, Option<MacroDef>)> {
    let text = |n: Node| &src[n.byte_range()];
    match node.node_kind() {
        "preproc_def" | "preproc_function_def" => {
            let name = text(node.child_by_field_id(fields().name.get())?).to_string();
            let body = node
                .child_by_field_id(fields().value.get())
                .map_or("", text)
                .to_string();
            let (params, variadic, named_variadic) =
                match node.child_by_field_id(fields().parameters.get()) {
                    None => (None, false, false),
                    Some(p) => {
                        let inner = text(p).trim();
                        let inner = inner.strip_prefix('(').unwrap_or(inner);
                        let inner = inner.strip_suffix(')').unwrap_or(inner);
                        let mut params: Vec<String> = inner
                            .split(',')
                            .map(|s| s.trim().to_string())
                            .filter(|s| !s.is_empty())
                            .collect();
                        let (mut variadic, mut named) = (false, false);
                        if let Some(last) = params.last_mut() {
                            if last == "..." {
                                params.pop();
                                variadic = true;
                            } else if let Some(n) = last.strip_suffix("...") {
                                *last = n.trim().to_string();
                                variadic = true;
                                named = true;
                            }
                        }
                        (Some(params), variadic, named)
                    }
                };
            Some((
                name,
                Some(MacroDef {
                    params,
                    variadic,
                    named_variadic,
                    body,
                }),
            ))
        }
        "preproc_call" => {
            let dir = node.child_by_field_id(fields().directive.get())?;
            if text(dir) != "#undef" {
                return None;
            }
            let name = text(node.child_by_field_id(fields().argument.get())?).trim();
            Some((name.to_string(), None))
        }
        _ => None,
    }
}

/// What the search over a file found.
#[derive(Default)]
pub(super) struct Found {
    /// By where the reparsed tree's empty statement stands (the use's last byte).
    pub directives: HashMap<usize, MacroDirective>,
    pub diags: Vec<Diagnostic>,
    /// The file with each directive use replaced by an empty statement of its length, and
    /// each use of an empty object-like macro by blanks; `None` when there is neither.
    pub masked: Option<String>,
    /// The uses that expand to a directive and code, refused in `diags`, with the expansion's
    /// text (see [`crate::with_code_macros_expanded`]).
    pub code_uses: Vec<(Span, String)>,
}

/// The definitions in effect at each point: the file's own, as the walk met them in the live
/// branches, over the headers' (the preprocessor's `-dD`, which also lists the file's).
pub(super) struct Definitions<'a> {
    file: HashMap<&'a str, Vec<&'a MacroEvent>>,
    headers: &'a HashMap<String, MacroDef>,
}

impl<'a> Definitions<'a> {
    pub fn new(events: &'a [MacroEvent], headers: &'a HashMap<String, MacroDef>) -> Self {
        let mut file: HashMap<&str, Vec<&MacroEvent>> = HashMap::new();
        for e in events {
            file.entry(e.name.as_str()).or_default().push(e);
        }
        Definitions { file, headers }
    }

    /// Whether some definition (the file's or a header's) is an object-like macro that
    /// expands to nothing.
    fn any_empty(&self) -> bool {
        let blank = |d: &MacroDef| d.is_empty_object() || d.is_qualifier_object();
        self.headers.values().any(blank)
            || self
                .file
                .values()
                .flatten()
                .any(|e| e.def.as_ref().is_some_and(blank))
    }

    fn event_at(&self, name: &str, at: usize) -> Option<&'a MacroEvent> {
        let list = self.file.get(name)?;
        let k = list.partition_point(|e| e.at < at);
        k.checked_sub(1).map(|k| list[k])
    }

    /// The definition of `name` in effect at offset `at`.
    pub fn at(&self, name: &str, at: usize) -> Option<&'a MacroDef> {
        match self.event_at(name, at) {
            Some(e) => e.def.as_ref(),
            None => self.headers.get(name),
        }
    }

    /// The names whose expansion may hold `_Pragma`: those whose replacement names it, or
    /// names one of them (any definition, wherever it stands); and those of them that may
    /// hold an OpenACC one: whose replacement, or that of a name it names, says `acc`.
    fn pragma_producers(&self) -> (HashSet<&'a str>, HashSet<&'a str>) {
        let all: Vec<(&'a str, &'a MacroDef)> = self
            .headers
            .iter()
            .map(|(n, d)| (n.as_str(), d))
            .chain(
                self.file
                    .values()
                    .flatten()
                    .filter_map(|e| Some((e.name.as_str(), e.def.as_ref()?))),
            )
            .collect();
        if !all.iter().any(|(_, d)| d.body.contains("_Pragma")) {
            return Default::default();
        }
        let closure = |seed: &str, within: Option<&HashSet<&'a str>>| {
            let mut set: HashSet<&'a str> = HashSet::new();
            loop {
                let before = set.len();
                for (name, def) in &all {
                    if !set.contains(name)
                        && within.is_none_or(|w| w.contains(name))
                        && words_in(&def.body).any(|w| w == seed || set.contains(w))
                    {
                        set.insert(name);
                    }
                }
                if set.len() == before {
                    return set;
                }
            }
        };
        let producers = closure("_Pragma", None);
        let acc = closure("acc", Some(&producers));
        (producers, acc)
    }
}

/// Finds the uses in `src` of macros that expand to OpenACC directives, and of object-like
/// macros that expand to nothing, outside `dead` (the branches of `#if`s the compiler will not
/// see).
///
/// An empty macro is what a portability header makes of a qualifier or an attribute the
/// compiler may lack (`#define __restrict`, `#define INLINE`): the compiler sees nothing where
/// it is used, and neither must the parse, which would read `Q vec *v` as a variable of type
/// `Q` and lose `vec`. Its uses are blanked in the masked copy; so are those of a macro that
/// stands for qualifiers (`#define RESTRICT restrict`: `double *RESTRICT x` would be read as a
/// pointer named `RESTRICT`), with the qualifiers where they fit.
pub(super) fn find(src: &str, defs: &Definitions, dead: &[Span]) -> Found {
    let (producers, acc_producers) = defs.pragma_producers();
    let mut found = Found::default();
    if producers.is_empty() && !defs.any_empty() {
        return found;
    }
    // Uses of macros that stand for nothing or for qualifiers, with their replacement.
    let mut blanks: Vec<(Span, &str)> = Vec::new();
    let b = src.as_bytes();
    let mut uses: Vec<MacroDirective> = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c == b' ' || c == b'\t' || c == b'\r' || c == 0x0c {
            i += 1;
            continue;
        }
        if let Some(d) = dead.iter().find(|d| d.start <= i && i < d.end) {
            i = d.end;
            continue;
        }
        if line_start && c == b'#' {
            i = logical_line_end(b, i);
            continue;
        }
        line_start = false;
        if src[i..].starts_with("/*") {
            i = comment_end(src, i).unwrap_or(b.len());
            continue;
        }
        if src[i..].starts_with("//") {
            i = logical_line_end(b, i);
            continue;
        }
        if c == b'"' || c == b'\'' {
            i = literal_end(b, i).unwrap_or(b.len());
            continue;
        }
        if !is_word(c) {
            i += 1;
            continue;
        }
        let mut end = i;
        while end < b.len() && is_word(b[end]) {
            end += 1;
        }
        if c.is_ascii_digit() {
            i = end;
            continue;
        }
        let name = &src[i..end];
        let Some(def) = defs.at(name, i) else {
            i = end;
            continue;
        };
        if def.is_empty_object() || def.is_qualifier_object() {
            blanks.push((Span::new(i, end), def.body.trim()));
            i = end;
            continue;
        }
        let use_end = match &def.params {
            None => Some(end),
            Some(_) => arguments_end(b, src, end),
        };
        let Some(use_end) = use_end else {
            i = end;
            continue;
        };
        let mentions_producer = producers.contains(name)
            || (def.params.is_some()
                && words_in(&src[end..use_end]).any(|w| producers.contains(w)));
        if !mentions_producer {
            // Arguments of a macro that produces no directive are walked over like code.
            i = end;
            continue;
        }
        match expand_one(src, defs, i, use_end, name) {
            Ok(Some(d)) => uses.push(d),
            Ok(None) => {}
            Err(Refusal::Shape(what, expansion)) => {
                found.diags.push(use_error(
                    format!(
                        "`{name}` expands to an OpenACC directive and {what}, and acc applies a \
                         directive from a macro only where the expansion is the directive alone"
                    ),
                    defs,
                    name,
                    i,
                    end,
                ));
                found.code_uses.push((Span::new(i, use_end), expansion));
            }
            // A macro that may give some other pragma (a compiler's diagnostic push, say) is
            // not acc's to refuse when acc cannot expand it.
            Err(Refusal::Expansion(_))
                if !acc_producers.contains(name)
                    && !words_in(&src[i..use_end]).any(|w| w == "acc") => {}
            Err(Refusal::Expansion(why)) => found.diags.push(use_error(
                format!(
                    "`{name}` may expand to an OpenACC directive, which acc cannot expand: {why}"
                ),
                defs,
                name,
                i,
                end,
            )),
        }
        i = use_end;
    }
    if uses.is_empty() && blanks.is_empty() {
        return found;
    }
    let mut masked = src.as_bytes().to_vec();
    for (b, body) in blanks {
        masked[b.start..b.end].fill(b' ');
        // A qualifier that fits in the macro's name is kept (`RESTRICT` → `restrict`); a
        // longer one is left out, which loses nothing the analysis needs but `const`.
        if body.len() <= b.end - b.start {
            masked[b.start..b.start + body.len()].copy_from_slice(body.as_bytes());
        }
    }
    for u in uses {
        found.directives.insert(mask(&mut masked, u.span), u);
    }
    // Whole characters became ASCII: still UTF-8.
    found.masked = String::from_utf8(masked).ok();
    found
}

/// The identifiers of a piece of code.
fn words_in(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
}

/// Where the line starting a preprocessing directive or `//` comment at `i` ends, its
/// continuations included (at the newline).
fn logical_line_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i] != b'\n' {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
            i += 2;
        } else if b[i] == b'\\' && b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') {
            i += 3;
        } else {
            i += 1;
        }
    }
    i
}

/// After a function-like macro's name ending at `i`: the end of its argument list (after
/// the `)`), or `None` when no `(` follows (then the name is no use of the macro).
fn arguments_end(b: &[u8], src: &str, mut i: usize) -> Option<usize> {
    loop {
        match b.get(i)? {
            b' ' | b'\t' | b'\r' | b'\n' | 0x0c => i += 1,
            b'/' if src[i..].starts_with("/*") => i = comment_end(src, i)?,
            b'(' => break,
            _ => return None,
        }
    }
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'"' | b'\'' => {
                i = literal_end(b, i)?;
                continue;
            }
            b'/' if src[i..].starts_with("/*") => {
                i = comment_end(src, i)?;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Why a use that may expand to a directive is refused.
enum Refusal {
    /// It expands to a directive and what this says; the expansion's text.
    Shape(&'static str, String),
    /// The expansion failed, for this reason.
    Expansion(String),
}

/// The directive the use `src[start..end]` of `name` expands to: `Ok(None)` when it expands
/// to no OpenACC directive.
fn expand_one(
    src: &str,
    defs: &Definitions,
    start: usize,
    end: usize,
    name: &str,
) -> Result<Option<MacroDirective>, Refusal> {
    let lookup = |n: &str| defs.at(n, start);
    let tokens = Expander::new(&lookup)
        .expand_use(src, start..end)
        .map_err(Refusal::Expansion)?;
    let (pragmas, other) = pragma_operators(&tokens);
    let is_acc = |t: &str| {
        let t = t.trim_start();
        t.starts_with("acc") && !t[3..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
    };
    let acc: Vec<_> = pragmas.iter().filter(|(t, _)| is_acc(t)).collect();
    match acc.as_slice() {
        [] => Ok(None),
        [(text, map)] if !other && pragmas.len() == 1 => {
            // From `acc` on, as a `#pragma` line's text would be.
            let lead = text.len() - text.trim_start().len();
            Ok(Some(MacroDirective {
                span: Span::new(start, end),
                text: text[lead..].to_string(),
                map: map[lead..].to_vec(),
                name: name.to_string(),
            }))
        }
        _ if acc.len() > 1 => Err(Refusal::Shape("other directives", spelled(&tokens))),
        _ => Err(Refusal::Shape("other code", spelled(&tokens))),
    }
}

/// The text of an expansion's tokens, on one line: a blank where one stood, and wherever two
/// tokens would otherwise read as one (`a` `b`, `+` `+`).
fn spelled(tokens: &[crate::macro_expand::Tok]) -> String {
    use crate::macro_expand::TokKind;
    let separates = |c: char| matches!(c, '(' | ')' | '[' | ']' | '{' | '}' | ',' | ';');
    let mut out = String::new();
    for t in tokens.iter().filter(|t| t.kind != TokKind::Placemarker) {
        let (Some(last), Some(first)) = (out.chars().last(), t.text.chars().next()) else {
            out.push_str(&t.text);
            continue;
        };
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '"' || c == '\'';
        let both_words = word(last) && word(first);
        let both_punct = !word(last) && !word(first) && !separates(last) && !separates(first);
        if t.space_before || both_words || both_punct {
            out.push(' ');
        }
        out.push_str(&t.text);
    }
    out
}

fn use_error(
    message: String,
    defs: &Definitions,
    name: &str,
    start: usize,
    end: usize,
) -> Diagnostic {
    let mut d = Diagnostic::error(Span::new(start, end), message)
    .with_note("write the `#pragma acc` line where the macro is used, or a macro whose expansion is `_Pragma(\"acc …\")` alone");
    if let Some(e) = defs.event_at(name, start).filter(|e| e.def.is_some()) {
        d = d.with_secondary(e.span, "the macro is defined here");
    }
    d
}

/// Replaces the use at `span` in `masked` by an empty statement, blanks and then `;`, which
/// the parser reads whole wherever a statement may stand (also as the body of a `for`, where
/// the walk takes it with the statement after it, as after preprocessing). The use's line
/// breaks come first, so lines after it keep their numbers, and the `;` is its last byte, so
/// that no node of the tree ends inside the use (a missing `}` the parser supplies after the
/// statement stands after the use, where an edit of the code around it belongs). Returns
/// where the `;` is.
fn mask(masked: &mut [u8], span: Span) -> usize {
    let breaks: Vec<u8> = masked[span.start..span.end]
        .iter()
        .copied()
        .filter(|c| matches!(c, b'\n' | b'\r'))
        .collect();
    let out = &mut masked[span.start..span.end];
    out.fill(b' ');
    out[..breaks.len()].copy_from_slice(&breaks);
    let last = out.len() - 1;
    out[last] = b';';
    span.end - 1
}

#[cfg(test)]
mod tests;
