//! The directive parser: the text after `#pragma` in, a [`Directive`] and
//! diagnostics out.
//!
//! The parser works on byte positions in the text it was given and turns
//! them into [`Span`]s only through [`Parser::sp`], which adds the caller's
//! base offset and, for `_Pragma` strings, maps positions in the
//! destringized text back into the literal. It recovers after a bad clause
//! by skipping to the end of that clause's parentheses.

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

    fn clause_args(
        &mut self,
        dir: DirectiveKind,
        kind: ClauseKind,
        spelling: &str,
        nlo: usize,
        nhi: usize,
        group: Option<Group>,
    ) -> Option<ClauseArgs> {
        use ClauseKind as K;
        let name = kind.name();
        // Clauses whose parenthesized argument is required.
        let required = |p: &mut Parser<'_>| -> Option<Group> {
            if group.is_none() {
                p.error(nlo, nhi, format!("expected `(` after `{spelling}`"))
                    .notes
                    .push(format!("usage: `{}`", kind.syntax()));
            }
            group
        };
        match kind {
            K::Copy
            | K::Copyin
            | K::Copyout
            | K::Create
            | K::NoCreate
            | K::Present
            | K::Deviceptr
            | K::Attach
            | K::Detach
            | K::Delete
            | K::Private
            | K::Firstprivate
            | K::UseDevice
            | K::DeviceResident
            | K::Link
            | K::Host
            | K::Device => {
                let g = required(self)?;
                self.vars_clause(g, spelling)
            }
            K::SelfClause if dir == DirectiveKind::Update => {
                let g = required(self)?;
                self.vars_clause(g, spelling)
            }
            K::SelfClause | K::Async => match group {
                None => Some(ClauseArgs::None),
                Some(g) => self.one_expr(g, name).map(ClauseArgs::Expr),
            },
            K::Reduction => {
                let g = required(self)?;
                self.reduction(g)
            }
            K::If | K::NumWorkers | K::VectorLength | K::DeviceNum | K::DefaultAsync => {
                let g = required(self)?;
                self.one_expr(g, name).map(ClauseArgs::Expr)
            }
            K::NumGangs | K::Tile => {
                let g = required(self)?;
                self.expr_list(g, name).map(ClauseArgs::Exprs)
            }
            K::Collapse => {
                let g = required(self)?;
                let mut lo = g.lo;
                let mut force = None;
                if let Some((kl, kh, after)) = self.keyword_prefix(g.lo, g.hi, &["force"]) {
                    force = Some(self.sp(kl, kh));
                    lo = after;
                }
                let count = self.one_expr(Group { lo, ..g }, name)?;
                Some(ClauseArgs::Collapse { force, count })
            }
            K::Gang => match group {
                None => Some(ClauseArgs::None),
                Some(g) => self.gang_args(g).map(ClauseArgs::Gang),
            },
            K::Worker | K::Vector => {
                let Some(g) = group else {
                    return Some(if kind == K::Worker {
                        ClauseArgs::Worker(None)
                    } else {
                        ClauseArgs::Vector(None)
                    });
                };
                let kw = if kind == K::Worker { "num" } else { "length" };
                let lo = self.keyword_prefix(g.lo, g.hi, &[kw]).map_or(g.lo, |k| k.2);
                let e = self.one_expr(Group { lo, ..g }, name)?;
                Some(if kind == K::Worker {
                    ClauseArgs::Worker(Some(e))
                } else {
                    ClauseArgs::Vector(Some(e))
                })
            }
            K::Wait => match group {
                None => Some(ClauseArgs::Wait(None)),
                Some(g) => self.wait_args(g, "wait").map(|w| ClauseArgs::Wait(Some(w))),
            },
            K::DeviceType => {
                let g = required(self)?;
                self.device_types(g, spelling).map(ClauseArgs::DeviceTypes)
            }
            K::Default => {
                let g = required(self)?;
                let (lo, hi) = lex::trim(self.b, g.lo, g.hi);
                let word = lex::ident_end(self.b, lo, hi)
                    .filter(|&e| e == hi)
                    .map(|e| self.slice(lo, e));
                match word {
                    Some("none") => Some(ClauseArgs::Default(DefaultKind::None, self.sp(lo, hi))),
                    Some("present") => {
                        Some(ClauseArgs::Default(DefaultKind::Present, self.sp(lo, hi)))
                    }
                    _ => {
                        let (elo, ehi) = if lo < hi { (lo, hi) } else { (g.open, g.next) };
                        let found = shorten(self.slice(lo, hi));
                        let msg = if found.is_empty() {
                            "expected `none` or `present` in `default(...)`".to_string()
                        } else {
                            format!("`default` takes `none` or `present`, not `{found}`")
                        };
                        self.error(elo, ehi, msg);
                        if word == Some("shared") {
                            self.note("OpenACC has no `default(shared)`; leave the clause out to get the implicit data attributes");
                        }
                        None
                    }
                }
            }
            K::Bind => {
                let g = required(self)?;
                let (lo, hi) = lex::trim(self.b, g.lo, g.hi);
                let (u, len) = lex::unit(self.b, lo, hi);
                if u == Unit::Literal
                    && lo + len == hi
                    && self.byte(lo, hi) == Some(b'"')
                    && len >= 2
                {
                    let value = self.slice(lo + 1, hi - 1).to_string();
                    return Some(ClauseArgs::Bind(BindTarget::Str {
                        value,
                        span: self.sp(lo, hi),
                    }));
                }
                match lex::ident_end(self.b, lo, hi) {
                    Some(e) if e == hi => {
                        Some(ClauseArgs::Bind(BindTarget::Name(self.ident(lo, hi))))
                    }
                    _ => {
                        self.error(
                            g.open,
                            g.next,
                            "expected a function name or a string in `bind(...)`",
                        );
                        None
                    }
                }
            }
            K::Seq | K::Auto | K::Independent | K::IfPresent | K::Finalize | K::Nohost => {
                if let Some(g) = group {
                    self.error(g.open, g.next, format!("`{name}` takes no arguments"))
                        .fix = Some(crate::diag::Fix {
                        message: "remove the parentheses".into(),
                        span: self.sp(nhi, g.next),
                        replacement: String::new(),
                    });
                }
                Some(ClauseArgs::None)
            }
        }
    }

    /// `[modifier, ...:] var, ...` of a list clause.
    fn vars_clause(&mut self, g: Group, spelling: &str) -> Option<ClauseArgs> {
        let mut modifiers = Vec::new();
        let mut lo = g.lo;
        if let Some(colon) = lex::find_colon(self.b, g.lo, g.hi) {
            let mut ok = true;
            for (plo, phi) in lex::split_commas(self.b, g.lo, colon) {
                let (plo, phi) = lex::trim(self.b, plo, phi);
                let word = lex::ident_end(self.b, plo, phi)
                    .filter(|&e| e == phi)
                    .map(|e| self.slice(plo, e));
                match word.and_then(DataModifier::from_name) {
                    Some(m) => modifiers.push((m, self.sp(plo, phi))),
                    None if word.is_some() => {
                        let w = shorten(word.unwrap_or(""));
                        self.error(plo, phi, format!("unknown modifier `{w}` in `{spelling}`"));
                        let names = DataModifier::ALL.iter().map(|m| m.name());
                        match suggest(w.as_str(), names) {
                            Some(s) => self.note(format!("did you mean `{s}`?")),
                            None => self.note("data clause modifiers are `zero`, `readonly`, `always`, `alwaysin`, `alwaysout` and `capture`"),
                        }
                        ok = false;
                    }
                    None => {
                        let (elo, ehi) = if plo < phi {
                            (plo, phi)
                        } else {
                            (colon, colon + 1)
                        };
                        self.error(
                            elo,
                            ehi,
                            format!("expected a modifier before `:` in `{spelling}(...)`"),
                        )
                        .notes
                        .push(format!(
                            "usage: `{}`",
                            ClauseKind::from_spelling(spelling).map_or("", |k| k.syntax())
                        ));
                        ok = false;
                    }
                }
            }
            if !ok {
                return None;
            }
            lo = colon + 1;
        }
        let items = self.var_list(lo, g.hi, g, spelling)?;
        Some(ClauseArgs::Vars { modifiers, items })
    }

    /// A non-empty comma-separated list of variables in `lo..hi`.
    fn var_list(&mut self, lo: usize, hi: usize, g: Group, what: &str) -> Option<Vec<VarItem>> {
        let (tlo, thi) = lex::trim(self.b, lo, hi);
        if tlo >= thi {
            self.error(
                g.open,
                g.next,
                format!("empty variable list in `{what}(...)`"),
            )
            .label = "name at least one variable here".into();
            return None;
        }
        let mut items = Vec::new();
        let mut ok = true;
        for (plo, phi) in lex::split_commas(self.b, lo, hi) {
            let (ilo, ihi) = lex::trim(self.b, plo, phi);
            if ilo >= ihi {
                // Point at the comma next to the hole.
                let comma = if phi < hi { phi } else { plo.saturating_sub(1) };
                self.error(
                    comma,
                    comma + 1,
                    format!("expected a variable in `{what}(...)`"),
                )
                .label = "extra comma".into();
                ok = false;
                continue;
            }
            match self.var_item(ilo, ihi) {
                Some(item) => items.push(item),
                None => ok = false,
            }
        }
        // Keep the good items when some were bad; drop the clause only when
        // none survived, so later checks still see what was written.
        (ok || !items.is_empty()).then_some(items)
    }

    /// One variable: a name followed by `.m`, `->m`, `[e]` and `[lo:len]`.
    fn var_item(&mut self, lo: usize, hi: usize) -> Option<VarItem> {
        let text = lex::clean_text(self.src, lo, hi);
        let Some(base_end) = lex::ident_end(self.b, lo, hi) else {
            let t = shorten(&text);
            self.error(lo, hi, format!("expected a variable name, found `{t}`"))
                .notes
                .push("list items are variables, members (`s.x`, `p->x`), array elements or subarrays (`a[0:n]`)".into());
            return None;
        };
        let base = self.ident(lo, base_end);
        let mut accessors = Vec::new();
        let mut pos = base_end;
        loop {
            pos = self.skip(pos, hi);
            if pos >= hi {
                break;
            }
            match self.byte(pos, hi) {
                Some(b'.') => {
                    let q = self.skip(pos + 1, hi);
                    let Some(e) = lex::ident_end(self.b, q, hi) else {
                        self.error(
                            pos,
                            pos + 1,
                            format!("expected a member name after `.` in `{}`", shorten(&text)),
                        );
                        return None;
                    };
                    accessors.push(Accessor::Member(self.ident(q, e)));
                    pos = e;
                }
                Some(b'-') if self.byte(pos + 1, hi) == Some(b'>') => {
                    let q = self.skip(pos + 2, hi);
                    let Some(e) = lex::ident_end(self.b, q, hi) else {
                        self.error(
                            pos,
                            pos + 2,
                            format!("expected a member name after `->` in `{}`", shorten(&text)),
                        );
                        return None;
                    };
                    accessors.push(Accessor::Arrow(self.ident(q, e)));
                    pos = e;
                }
                Some(b'[') => {
                    let Some(close) = lex::matching(self.b, pos, hi) else {
                        self.error(pos, pos + 1, "expected `]` to close `[`").label =
                            "unclosed delimiter".into();
                        return None;
                    };
                    let span = self.sp(pos, close + 1);
                    match lex::find_colon(self.b, pos + 1, close) {
                        Some(colon) => {
                            if let Some(c2) = lex::find_colon(self.b, colon + 1, close) {
                                self.error(
                                    c2,
                                    c2 + 1,
                                    format!("unexpected second `:` in `{}`", shorten(&text)),
                                )
                                .notes
                                .push(
                                    "a subarray is `[lower:length]`; strides are not supported"
                                        .into(),
                                );
                                return None;
                            }
                            accessors.push(Accessor::Section {
                                lower: self.expr(pos + 1, colon),
                                length: self.expr(colon + 1, close),
                                span,
                            });
                        }
                        None => match self.expr(pos + 1, close) {
                            Some(e) => accessors.push(Accessor::Index(e)),
                            None => {
                                self.error(pos, close + 1, format!("empty subscript in `{}`", shorten(&text)))
                                    .notes
                                    .push("write a subarray `[lower:length]`, or `[:]` for the whole array".into());
                                return None;
                            }
                        },
                    }
                    pos = close + 1;
                }
                _ => {
                    let t = self.token_text(pos, hi);
                    let te = self.token_end(pos, hi);
                    self.error(pos, te, format!("unexpected `{t}` in `{}`", shorten(&text)))
                        .notes
                        .push("list items are variables, members (`s.x`, `p->x`), array elements or subarrays (`a[0:n]`)".into());
                    return None;
                }
            }
        }
        Some(VarItem {
            text,
            span: self.sp(lo, hi),
            base,
            accessors,
        })
    }

    fn reduction(&mut self, g: Group) -> Option<ClauseArgs> {
        let Some(colon) = lex::find_colon(self.b, g.lo, g.hi) else {
            self.error(
                g.open,
                g.next,
                "expected an operator and `:` in `reduction(...)`",
            )
            .notes
            .push("for example `reduction(+:sum)`".into());
            return None;
        };
        let (olo, ohi) = lex::trim(self.b, g.lo, colon);
        let symbol = self.slice(olo, ohi);
        let Some(op) = ReductionOp::from_symbol(symbol) else {
            let (elo, ehi) = if olo < ohi {
                (olo, ohi)
            } else {
                (colon, colon + 1)
            };
            let msg = if olo < ohi {
                format!("unknown reduction operator `{}`", shorten(symbol))
            } else {
                "expected a reduction operator before `:`".to_string()
            };
            self.error(elo, ehi, msg).notes.push(
                "the operators are `+`, `*`, `max`, `min`, `&`, `|`, `^`, `&&` and `||`".into(),
            );
            return None;
        };
        let items = self.var_list(colon + 1, g.hi, g, "reduction")?;
        Some(ClauseArgs::Reduction {
            op,
            op_span: self.sp(olo, ohi),
            items,
        })
    }

    fn one_expr(&mut self, g: Group, name: &str) -> Option<Expr> {
        let parts = lex::split_commas(self.b, g.lo, g.hi);
        if let Some(&(plo, _)) = parts.get(1) {
            let comma = plo.saturating_sub(1);
            self.error(comma, g.hi, format!("`{name}` takes one expression"))
                .label = "unexpected extra argument".into();
            return None;
        }
        let e = self.expr(g.lo, g.hi);
        if e.is_none() {
            self.error(
                g.open,
                g.next,
                format!("expected an expression in `{name}(...)`"),
            );
        }
        e
    }

    fn expr_list(&mut self, g: Group, name: &str) -> Option<Vec<Expr>> {
        let mut out = Vec::new();
        let parts = lex::split_commas(self.b, g.lo, g.hi);
        for &(plo, phi) in &parts {
            match self.expr(plo, phi) {
                Some(e) => out.push(e),
                None if parts.len() == 1 => {
                    self.error(
                        g.open,
                        g.next,
                        format!("expected an expression in `{name}(...)`"),
                    );
                    return None;
                }
                None => {
                    let comma = if phi < g.hi {
                        phi
                    } else {
                        plo.saturating_sub(1)
                    };
                    self.error(
                        comma,
                        comma + 1,
                        format!("expected an expression in `{name}(...)`"),
                    )
                    .label = "extra comma".into();
                    return None;
                }
            }
        }
        Some(out)
    }

    /// `[devnum: e :] [queues:] e, ...`.
    fn wait_args(&mut self, g: Group, name: &str) -> Option<WaitArgs> {
        let (lo, hi) = lex::trim(self.b, g.lo, g.hi);
        if lo >= hi {
            self.error(g.open, g.next, format!("empty `{name}()`")).fix = Some(crate::diag::Fix {
                message: format!("write `{name}` alone to wait for every queue"),
                span: self.sp(g.open, g.next),
                replacement: String::new(),
            });
            return None;
        }
        let mut pos = lo;
        let mut devnum = None;
        if let Some((kl, kh, after)) = self.keyword_prefix(lo, hi, &["devnum"]) {
            let Some(colon) = lex::find_colon(self.b, after, hi) else {
                self.error(kl, hi, "expected `:` after the `devnum` expression")
                    .notes
                    .push("for example `wait(devnum: 1 : queues: 2, 3)`".into());
                return None;
            };
            devnum = self.expr(after, colon);
            if devnum.is_none() {
                self.error(kl, colon + 1, "expected a device number after `devnum:`");
                return None;
            }
            pos = colon + 1;
            let _ = kh;
        }
        let mut queues_kw = None;
        if let Some((kl, kh, after)) = self.keyword_prefix(pos, hi, &["queues"]) {
            queues_kw = Some(self.sp(kl, kh));
            pos = after;
        }
        let mut queues = Vec::new();
        let parts = lex::split_commas(self.b, pos, hi);
        for &(plo, phi) in &parts {
            match self.expr(plo, phi) {
                Some(e) => queues.push(e),
                None => {
                    let (elo, ehi) = if parts.len() == 1 {
                        (g.open, g.next)
                    } else if phi < hi {
                        (phi, phi + 1)
                    } else {
                        (plo.saturating_sub(1), plo)
                    };
                    self.error(
                        elo,
                        ehi,
                        format!("expected a queue number in `{name}(...)`"),
                    );
                    return None;
                }
            }
        }
        Some(WaitArgs {
            devnum,
            queues_kw,
            queues,
            span: self.sp(lo, hi),
        })
    }

    fn gang_args(&mut self, g: Group) -> Option<Vec<GangArg>> {
        let parts = lex::split_commas(self.b, g.lo, g.hi);
        let mut args = Vec::new();
        for &(plo, phi) in &parts {
            let (kind, kw, lo) = match self.keyword_prefix(plo, phi, &["num", "dim", "static"]) {
                Some((kl, kh, after)) => {
                    let kind = match self.slice(kl, kh) {
                        "dim" => GangArgKind::Dim,
                        "static" => GangArgKind::Static,
                        _ => GangArgKind::Num,
                    };
                    (kind, Some(self.sp(kl, kh)), after)
                }
                None => (GangArgKind::Num, None, plo),
            };
            let Some(value) = self.expr(lo, phi) else {
                let (elo, ehi) = if plo < phi && lex::trim(self.b, plo, phi).0 < phi {
                    lex::trim(self.b, plo, phi)
                } else {
                    (g.open, g.next)
                };
                self.error(elo, ehi, "expected an expression in `gang(...)`")
                    .notes
                    .push(format!("usage: `{}`", ClauseKind::Gang.syntax()));
                return None;
            };
            if value.is_star() && kind != GangArgKind::Static {
                let (slo, shi) = lex::trim(self.b, lo, phi);
                self.error(slo, shi, "`*` is only allowed as `static:*` in `gang(...)`");
                return None;
            }
            args.push(GangArg { kind, kw, value });
        }
        Some(args)
    }

    fn device_types(&mut self, g: Group, spelling: &str) -> Option<Vec<Ident>> {
        let mut out = Vec::new();
        let parts = lex::split_commas(self.b, g.lo, g.hi);
        for &(plo, phi) in &parts {
            let (lo, hi) = lex::trim(self.b, plo, phi);
            let is_name = lex::ident_end(self.b, lo, hi) == Some(hi) && lo < hi;
            if is_name || self.slice(lo, hi) == "*" {
                out.push(self.ident(lo, hi));
            } else {
                let (elo, ehi) = if lo < hi {
                    (lo, hi)
                } else if parts.len() == 1 {
                    (g.open, g.next)
                } else {
                    (plo.saturating_sub(1), plo.max(1))
                };
                self.error(
                    elo,
                    ehi,
                    format!("expected a device type name or `*` in `{spelling}(...)`"),
                )
                .notes
                .push("for example `device_type(nvidia)` or `device_type(*)`".into());
                return None;
            }
        }
        Some(out)
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
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = if c == lower {
            0
        } else {
            edit_distance(&lower, c)
        };
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
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
