//! Clause arguments: what goes inside a clause's parentheses, once the
//! directive-level parser has found the clause's name and its balanced
//! group: variable lists with their modifiers and subarrays, reduction
//! operators, `gang`/`worker`/`vector`/`collapse` arguments, `wait`
//! arguments, `device_type` lists, `default`, `bind` and plain expressions.
//!
//! It must not know which clauses a directive allows or how often (that is
//! `check_clauses`' job), nor where a clause ends (the group is given).
//! Every function reports its own errors and returns `None` after one, so
//! the caller drops that clause and goes on.

use super::super::clause::*;
use super::super::lex::{self, Unit};
use super::super::model::*;
use super::{shorten, suggest, Group, Parser};

impl Parser<'_> {
    pub(super) fn clause_args(
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
                self.collapse_args(g, name)
            }
            K::Gang => match group {
                None => Some(ClauseArgs::None),
                Some(g) => self.gang_args(g).map(ClauseArgs::Gang),
            },
            K::Worker | K::Vector => self.level_args(kind, group),
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
                self.default_args(g)
            }
            K::Bind => {
                let g = required(self)?;
                self.bind_args(g)
            }
            K::Seq | K::Auto | K::Independent | K::IfPresent | K::Finalize | K::Nohost => {
                self.no_args(name, nhi, group)
            }
        }
    }

    /// `collapse([force:] n)`.
    fn collapse_args(&mut self, g: Group, name: &str) -> Option<ClauseArgs> {
        let mut lo = g.lo;
        let mut force = None;
        if let Some((kl, kh, after)) = self.keyword_prefix(g.lo, g.hi, &["force"]) {
            force = Some(self.sp(kl, kh));
            lo = after;
        }
        let count = self.one_expr(Group { lo, ..g }, name)?;
        Some(ClauseArgs::Collapse { force, count })
    }

    /// `worker[([num:] n)]` and `vector[([length:] n)]`.
    fn level_args(&mut self, kind: ClauseKind, group: Option<Group>) -> Option<ClauseArgs> {
        use ClauseKind as K;
        let name = kind.name();
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

    /// `default(none)` or `default(present)`.
    fn default_args(&mut self, g: Group) -> Option<ClauseArgs> {
        let (lo, hi) = lex::trim(self.b, g.lo, g.hi);
        let word = lex::ident_end(self.b, lo, hi)
            .filter(|&e| e == hi)
            .map(|e| self.slice(lo, e));
        match word {
            Some("none") => Some(ClauseArgs::Default(DefaultKind::None, self.sp(lo, hi))),
            Some("present") => Some(ClauseArgs::Default(DefaultKind::Present, self.sp(lo, hi))),
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

    /// `bind(name)` or `bind("string")`.
    fn bind_args(&mut self, g: Group) -> Option<ClauseArgs> {
        let (lo, hi) = lex::trim(self.b, g.lo, g.hi);
        let (u, len) = lex::unit(self.b, lo, hi);
        if u == Unit::Literal && lo + len == hi && self.byte(lo, hi) == Some(b'"') && len >= 2 {
            let value = self.slice(lo + 1, hi - 1).to_string();
            return Some(ClauseArgs::Bind(BindTarget::Str {
                value,
                span: self.sp(lo, hi),
            }));
        }
        match lex::ident_end(self.b, lo, hi) {
            Some(e) if e == hi => Some(ClauseArgs::Bind(BindTarget::Name(self.ident(lo, hi)))),
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

    /// A clause that takes no arguments (`seq`, `auto`, ...): parentheses after it are an
    /// error with a fix, and the clause is kept.
    fn no_args(&mut self, name: &str, nhi: usize, group: Option<Group>) -> Option<ClauseArgs> {
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
    pub(super) fn var_list(
        &mut self,
        lo: usize,
        hi: usize,
        g: Group,
        what: &str,
    ) -> Option<Vec<VarItem>> {
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
    pub(super) fn wait_args(&mut self, g: Group, name: &str) -> Option<WaitArgs> {
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
