//! The directive parser: the text after `#pragma` in, a [`Directive`] and
//! diagnostics out.
//!
//! The parser works on byte positions in the text it was given and turns
//! them into [`Span`]s only through [`Parser::sp`], which adds the caller's
//! base offset and, for `_Pragma` strings, maps positions in the
//! destringized text back into the literal. It recovers after a bad clause
//! by skipping to the end of that clause's parentheses.
//!
//! This file parses the directive level: the directive's name and argument,
//! the clause list, each clause's name and parenthesized group. What goes
//! inside a clause's group is [`args`]' job.

mod args;

use super::clause::*;
use super::lex::{self, Unit};
use super::model::*;
use crate::diag::Diagnostic;
use crate::span::Span;

pub(super) struct Parser<'a> {
    src: &'a str,
    b: &'a [u8],
    /// For `_Pragma` contents: the position in the literal of each byte of
    /// `src`, plus one entry for the end.
    map: Option<&'a [usize]>,
    base: usize,
    pub(super) diags: Vec<Diagnostic>,
}

/// The contents of a parenthesized group and where parsing resumes.
#[derive(Clone, Copy)]
struct Group {
    open: usize,
    lo: usize,
    hi: usize,
    next: usize,
    /// False when the brackets inside were unbalanced (already diagnosed).
    ok: bool,
}

impl<'a> Parser<'a> {
    pub(super) fn new(src: &'a str, map: Option<&'a [usize]>, base: usize) -> Parser<'a> {
        Parser {
            src,
            b: src.as_bytes(),
            map,
            base,
            diags: Vec::new(),
        }
    }

    fn end(&self) -> usize {
        self.b.len()
    }

    fn orig(&self, pos: usize) -> usize {
        let pos = pos.min(self.b.len());
        let off = match self.map {
            Some(m) => m.get(pos).or_else(|| m.last()).copied().unwrap_or(0),
            None => pos,
        };
        self.base.saturating_add(off)
    }

    fn sp(&self, lo: usize, hi: usize) -> Span {
        Span::new(self.orig(lo), self.orig(hi.max(lo)))
    }

    fn slice(&self, lo: usize, hi: usize) -> &'a str {
        self.src.get(lo..hi).unwrap_or("")
    }

    fn skip(&self, pos: usize, end: usize) -> usize {
        lex::skip_trivia(self.b, pos, end)
    }

    fn byte(&self, pos: usize, end: usize) -> Option<u8> {
        lex::byte_at(self.b, pos, end)
    }

    fn error(&mut self, lo: usize, hi: usize, message: impl Into<String>) -> &mut Diagnostic {
        let d = Diagnostic::error(self.sp(lo, hi), message);
        self.diags.push(d);
        let last = self.diags.len() - 1;
        &mut self.diags[last]
    }

    fn note(&mut self, note: impl Into<String>) {
        if let Some(d) = self.diags.last_mut() {
            d.notes.push(note.into());
        }
    }

    /// The end of the token at `pos`, for messages about unexpected input.
    fn token_end(&self, pos: usize, end: usize) -> usize {
        let (_, len) = lex::unit(self.b, pos, end);
        (pos + len.max(1)).min(end.max(pos))
    }

    /// The token at `pos`, shortened for messages.
    fn token_text(&self, pos: usize, end: usize) -> String {
        let t = self.slice(pos, self.token_end(pos, end));
        shorten(t)
    }

    /// The trimmed expression in `lo..hi`, or `None` when it is empty.
    fn expr(&self, lo: usize, hi: usize) -> Option<Expr> {
        let (lo, hi) = lex::trim(self.b, lo, hi);
        (lo < hi).then(|| Expr {
            text: lex::clean_text(self.src, lo, hi),
            span: self.sp(lo, hi),
        })
    }

    fn ident(&self, lo: usize, hi: usize) -> Ident {
        Ident {
            name: self.slice(lo, hi).to_string(),
            span: self.sp(lo, hi),
        }
    }

    /// `kw :` at the start of `lo..hi` for one of `keywords`: the keyword's
    /// range and the position after the colon.
    fn keyword_prefix(
        &self,
        lo: usize,
        hi: usize,
        keywords: &[&str],
    ) -> Option<(usize, usize, usize)> {
        let q = self.skip(lo, hi);
        let e = lex::ident_end(self.b, q, hi)?;
        if !keywords.contains(&self.slice(q, e)) {
            return None;
        }
        let r = self.skip(e, hi);
        (self.byte(r, hi) == Some(b':') && self.byte(r + 1, hi) != Some(b':')).then_some((
            q,
            e,
            r + 1,
        ))
    }

    pub(super) fn directive(&mut self) -> Option<Directive> {
        let end = self.end();
        let pos = self.skip(0, end);
        let acc_end = lex::ident_end(self.b, pos, end);
        if acc_end.map(|e| self.slice(pos, e)) != Some("acc") {
            if pos >= end {
                self.error(
                    0,
                    end,
                    "expected `acc` at the start of an OpenACC directive, found nothing",
                );
            } else {
                let hi = acc_end.unwrap_or_else(|| self.token_end(pos, end));
                let found = shorten(self.slice(pos, hi));
                self.error(
                    pos,
                    hi,
                    format!("expected `acc` at the start of an OpenACC directive, found `{found}`"),
                );
            }
            return None;
        }
        let acc_end = acc_end.unwrap_or(pos);
        let (kind, name_lo, name_hi) = self.directive_name(pos, acc_end, end)?;
        let mut pos = name_hi;
        let arg = self.directive_arg(kind, name_lo, &mut pos, end);
        let clauses = self.clauses(kind, pos, end);
        Some(Directive {
            kind,
            span: self.sp(0, end),
            name_span: self.sp(name_lo, name_hi),
            clauses,
            arg,
        })
    }

    fn next_word(&self, pos: usize, end: usize) -> Option<(usize, usize, &'a str)> {
        let q = self.skip(pos, end);
        let e = lex::ident_end(self.b, q, end)?;
        Some((q, e, self.slice(q, e)))
    }

    fn directive_name(
        &mut self,
        acc_lo: usize,
        acc_hi: usize,
        end: usize,
    ) -> Option<(DirectiveKind, usize, usize)> {
        let Some((lo, hi, word)) = self.next_word(acc_hi, end) else {
            let q = self.skip(acc_hi, end);
            if q >= end {
                self.error(acc_lo, acc_hi, "expected a directive name after `acc`")
                    .notes
                    .push("for example `acc parallel` or `acc data copy(a[0:n])`".into());
            } else {
                let t = self.token_text(q, end);
                let qe = self.token_end(q, end);
                self.error(
                    q,
                    qe,
                    format!("expected a directive name after `acc`, found `{t}`"),
                );
            }
            return None;
        };
        let simple = |k| Some((k, lo, hi));
        match word {
            "parallel" | "serial" | "kernels" => {
                let (plain, combined) = match word {
                    "parallel" => (DirectiveKind::Parallel, DirectiveKind::ParallelLoop),
                    "serial" => (DirectiveKind::Serial, DirectiveKind::SerialLoop),
                    _ => (DirectiveKind::Kernels, DirectiveKind::KernelsLoop),
                };
                match self.next_word(hi, end) {
                    Some((_, e, "loop")) => Some((combined, lo, e)),
                    _ => simple(plain),
                }
            }
            "enter" | "exit" => {
                let kind = if word == "enter" {
                    DirectiveKind::EnterData
                } else {
                    DirectiveKind::ExitData
                };
                match self.next_word(hi, end) {
                    Some((_, e, "data")) => Some((kind, lo, e)),
                    _ => {
                        self.error(lo, hi, format!("expected `data` after `{word}`"))
                            .fix = Some(crate::diag::Fix {
                            message: format!("write `{word} data`"),
                            span: self.sp(lo, hi),
                            replacement: format!("{word} data"),
                        });
                        simple(kind)
                    }
                }
            }
            "loop" => simple(DirectiveKind::Loop),
            "data" => simple(DirectiveKind::Data),
            "update" => simple(DirectiveKind::Update),
            "host_data" => simple(DirectiveKind::HostData),
            "declare" => simple(DirectiveKind::Declare),
            "routine" => simple(DirectiveKind::Routine),
            "atomic" => simple(DirectiveKind::Atomic),
            "cache" => simple(DirectiveKind::Cache),
            "wait" => simple(DirectiveKind::Wait),
            "init" => simple(DirectiveKind::Init),
            "shutdown" => simple(DirectiveKind::Shutdown),
            "set" => simple(DirectiveKind::Set),
            "end" => {
                self.error(lo, hi, "`end` directives exist only in Fortran")
                    .notes
                    .push(
                        "in C a construct ends with its structured block; remove this pragma"
                            .into(),
                    );
                None
            }
            _ => {
                let name = shorten(word);
                self.error(lo, hi, format!("unknown OpenACC directive `{name}`"));
                let names = DirectiveKind::ALL.iter().map(|k| k.name());
                if let Some(s) = suggest(word, names) {
                    self.note(format!("did you mean `{s}`?"));
                }
                None
            }
        }
    }

    fn directive_arg(
        &mut self,
        kind: DirectiveKind,
        name_lo: usize,
        pos: &mut usize,
        end: usize,
    ) -> Option<DirectiveArg> {
        let q = self.skip(*pos, end);
        let has_paren = self.byte(q, end) == Some(b'(');
        match kind {
            DirectiveKind::Routine if has_paren => {
                let g = self.group(q, end, "routine(");
                *pos = g.next;
                if !g.ok {
                    return None;
                }
                let (lo, hi) = lex::trim(self.b, g.lo, g.hi);
                match lex::ident_end(self.b, lo, hi) {
                    Some(e) if e == hi => Some(DirectiveArg::RoutineName(self.ident(lo, hi))),
                    _ => {
                        self.error(g.open, g.next, "expected a function name in `routine(...)`")
                            .notes
                            .push("write `routine(name)` before the function, or `routine` alone on its prototype".into());
                        None
                    }
                }
            }
            DirectiveKind::Wait if has_paren => {
                let g = self.group(q, end, "wait(");
                *pos = g.next;
                if !g.ok {
                    return None;
                }
                self.wait_args(g, "wait").map(DirectiveArg::Wait)
            }
            DirectiveKind::Cache => {
                if !has_paren {
                    self.error(name_lo, *pos, "expected `(` after `cache`")
                        .notes
                        .push("write the variables to cache: `cache(a[i:4])`".into());
                    return None;
                }
                let g = self.group(q, end, "cache(");
                *pos = g.next;
                if !g.ok {
                    return None;
                }
                let mut lo = g.lo;
                let mut readonly = None;
                if let Some((kl, kh, after)) = self.keyword_prefix(g.lo, g.hi, &["readonly"]) {
                    readonly = Some(self.sp(kl, kh));
                    lo = after;
                }
                let items = self.var_list(lo, g.hi, g, "cache")?;
                Some(DirectiveArg::Cache { readonly, items })
            }
            DirectiveKind::Atomic => {
                let word = self.next_word(*pos, end);
                let atomic = match word.map(|w| w.2) {
                    Some("read") => Some(AtomicKind::Read),
                    Some("write") => Some(AtomicKind::Write),
                    Some("update") => Some(AtomicKind::Update),
                    Some("capture") => Some(AtomicKind::Capture),
                    _ => None,
                };
                match (atomic, word) {
                    (Some(k), Some((lo, hi, _))) => {
                        *pos = hi;
                        Some(DirectiveArg::Atomic(k, Some(self.sp(lo, hi))))
                    }
                    _ => Some(DirectiveArg::Atomic(AtomicKind::Update, None)),
                }
            }
            _ => None,
        }
    }

    /// Matches the `(` at `open` with its `)`, diagnosing mismatched and
    /// unclosed brackets on the way. `what` names the opening, e.g. `copy(`.
    fn group(&mut self, open: usize, end: usize, what: &str) -> Group {
        let mut stack = vec![open];
        // How many of each opener the stack holds, so that a stray closer is
        // recognized without scanning the whole stack.
        let mut open_count = [1usize, 0, 0];
        let slot = |b: u8| match b {
            b'(' => 0,
            b'[' => 1,
            _ => 2,
        };
        let mut ok = true;
        let mut i = open + 1;
        while i < end {
            let (u, len) = lex::unit(self.b, i, end);
            if let Unit::Byte(c) = u {
                match c {
                    b'(' | b'[' | b'{' => {
                        stack.push(i);
                        open_count[slot(c)] += 1;
                    }
                    b')' | b']' | b'}' => {
                        let want = lex::opener_of(c);
                        let found = if open_count[slot(want)] == 0 {
                            None
                        } else {
                            stack.iter().rposition(|&p| self.b.get(p) == Some(&want))
                        };
                        match found {
                            Some(depth) => {
                                if let Some(&inner) =
                                    stack.last().filter(|_| depth + 1 != stack.len())
                                {
                                    let ib = self.b.get(inner).copied().unwrap_or(b'(');
                                    let close = lex::closer_of(ib) as char;
                                    let found = c as char;
                                    let inner_span = self.sp(inner, inner + 1);
                                    self.error(
                                        i,
                                        i + 1,
                                        format!(
                                            "expected `{close}` to close `{}`, found `{found}`",
                                            ib as char
                                        ),
                                    )
                                    .secondary
                                    .push(crate::diag::Label {
                                        span: inner_span,
                                        message: "unclosed delimiter".into(),
                                    });
                                    ok = false;
                                }
                                for &p in &stack[depth..] {
                                    let k = slot(self.b.get(p).copied().unwrap_or(b'('));
                                    open_count[k] = open_count[k].saturating_sub(1);
                                }
                                stack.truncate(depth);
                                if stack.is_empty() {
                                    return Group {
                                        open,
                                        lo: open + 1,
                                        hi: i,
                                        next: i + 1,
                                        ok,
                                    };
                                }
                            }
                            None => {
                                self.error(i, i + 1, format!("unexpected `{}`", c as char))
                                    .label = "no matching opening bracket".into();
                                ok = false;
                            }
                        }
                    }
                    _ => {}
                }
            }
            i += len.max(1);
        }
        let what = shorten(what);
        self.error(open, open + 1, format!("expected `)` to close `{what}`"))
            .label = "unclosed delimiter".into();
        Group {
            open,
            lo: open + 1,
            hi: end,
            next: end,
            ok: false,
        }
    }

    fn clauses(&mut self, dir: DirectiveKind, mut pos: usize, end: usize) -> Vec<Clause> {
        let mut clauses = Vec::new();
        // A comma may separate clauses; two in a row is a typo.
        let mut after_comma = false;
        loop {
            pos = self.skip(pos, end);
            if pos >= end {
                break;
            }
            // An error on a line the directive continues onto (`\` ending the line before): most
            // likely the code after a stray `\`, which every clause error after it would repeat.
            let errors = self.diags.iter().filter(|d| d.is_error()).count();
            let start = pos;
            let (u, len) = lex::unit(self.b, pos, end);
            match u {
                Unit::Byte(b',') => {
                    if after_comma {
                        self.error(pos, pos + 1, "unexpected `,`").label =
                            "expected a clause before this comma".into();
                    }
                    after_comma = true;
                    pos += 1;
                }
                Unit::Word if lex::ident_end(self.b, pos, end).is_some() => {
                    after_comma = false;
                    let (clause, next) = self.clause(dir, pos, end);
                    clauses.extend(clause);
                    pos = next.max(pos + 1);
                }
                Unit::Byte(b'(') => {
                    self.error(pos, pos + 1, "unexpected `(`; expected a clause name")
                        .notes
                        .push(format!("clauses look like `copy(a[0:n])`; `{}` takes no parenthesized argument here", dir.name()));
                    pos = lex::matching(self.b, pos, end).map_or(end, |c| c + 1);
                }
                _ => {
                    let t = self.token_text(pos, end);
                    self.error(
                        pos,
                        pos + len.max(1),
                        format!("unexpected `{t}`; expected an OpenACC clause"),
                    );
                    pos += len.max(1);
                }
            }
            let continued = self.b[..start]
                .windows(2)
                .any(|w| w == b"\\\n" || w == b"\\\r");
            if continued && self.diags.iter().filter(|d| d.is_error()).count() > errors {
                self.note(
                    "this line continues the directive: the `\\` that ends the line before joins \
                     them (a directive ends with its line)",
                );
                break;
            }
        }
        clauses
    }

    /// One clause starting at the identifier at `pos`; returns it (or
    /// `None` after a diagnostic) and where parsing resumes.
    fn clause(&mut self, dir: DirectiveKind, pos: usize, end: usize) -> (Option<Clause>, usize) {
        let nhi = lex::ident_end(self.b, pos, end).unwrap_or(pos + 1).min(end);
        let spelling = self.slice(pos, nhi);
        let after = self.skip(nhi, end);
        let group = if self.byte(after, end) == Some(b'(') {
            Some(self.group(after, end, &format!("{spelling}(")))
        } else {
            None
        };
        let next = group.map_or(nhi, |g| g.next);
        let Some(kind) = ClauseKind::from_spelling(spelling) else {
            let name = shorten(spelling);
            self.error(pos, nhi, format!("unknown OpenACC clause `{name}`"));
            if let Some(s) = suggest(spelling, ClauseKind::spellings()) {
                self.note(format!("did you mean `{s}`?"));
            } else if dir == DirectiveKind::Atomic
                && matches!(spelling, "read" | "write" | "update" | "capture")
            {
                self.note("the atomic kind goes right after `atomic`, before any clause");
            }
            return (None, next);
        };
        if group.is_some_and(|g| !g.ok) {
            return (None, next);
        }
        let args = self.clause_args(dir, kind, spelling, pos, nhi, group);
        let clause = args.map(|args| Clause {
            kind,
            spelling: spelling.to_string(),
            name_span: self.sp(pos, nhi),
            span: self.sp(pos, next),
            args,
        });
        (clause, next)
    }
}

/// At most 40 characters of `s`, for quoting user text in messages.
fn shorten(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(MAX).collect();
        t.push('…');
        t
    }
}

/// The closest candidate by edit distance, if it is close enough to be a
/// plausible typo.
fn suggest<'c>(word: &str, candidates: impl Iterator<Item = &'c str>) -> Option<&'c str> {
    if word.len() > 64 {
        return None;
    }
    let lower = word.to_ascii_lowercase();
    let limit = (word.len() / 3).clamp(1, 3);
    // At equal distance, the candidate that starts as the word does (`kernal`: `kernels`,
    // not `serial`): a misspelling keeps the start more often than the end.
    let common_start = |c: &str| {
        lower
            .bytes()
            .zip(c.bytes())
            .take_while(|(a, b)| a == b)
            .count()
    };
    let mut best: Option<(usize, usize, &str)> = None;
    for c in candidates {
        let d = if c == lower {
            0
        } else {
            edit_distance(&lower, c)
        };
        let start = common_start(c);
        let better = best.is_none_or(|(bd, bs, _)| d < bd || (d == bd && start > bs));
        if d <= limit && better {
            best = Some((d, start, c));
        }
    }
    best.map(|(_, _, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a = a.as_bytes();
    let b = b.as_bytes();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, &ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}
