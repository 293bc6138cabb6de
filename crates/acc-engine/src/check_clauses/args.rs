//! Each clause's own arguments: data clause modifiers (allowed, not
//! repeated), integer arguments written as literals are positive,
//! `num_gangs`' arity, `gang(...)` arguments, `worker`/`vector` arguments by
//! directive, and `*` alone in `device_type(...)`.
//!
//! One clause at a time: it must not compare clauses with each other (that
//! is `placement`'s and `items`' job).

use crate::diag::Diagnostic;
use crate::directive::{Clause, ClauseArgs, DataModifier, Directive, Expr, GangArg, GangArgKind};
use crate::span::Span;

use super::tables::allowed_modifiers;
use crate::directive::ClauseKind as K;
use crate::directive::DirectiveKind as D;

/// An integer argument written as a literal must be positive.
pub(super) fn positive(what: &str, e: &Expr, diags: &mut Vec<Diagnostic>) {
    if let Some(v) = e.int_value() {
        if v <= 0 {
            diags.push(Diagnostic::error(
                e.span,
                format!("`{what}` needs a positive integer, found `{}`", e.text),
            ));
        }
    }
}

pub(super) fn check_clause_args(d: &Directive, c: &Clause, diags: &mut Vec<Diagnostic>) {
    let cname = c.kind.name();
    match &c.args {
        ClauseArgs::Vars { modifiers, .. } => check_modifiers(d, c, modifiers, diags),
        ClauseArgs::Expr(e) if matches!(c.kind, K::NumWorkers | K::VectorLength) => {
            positive(cname, e, diags)
        }
        ClauseArgs::Exprs(es) => check_exprs(d, c, es, diags),
        ClauseArgs::Collapse { count, .. } => positive(cname, count, diags),
        ClauseArgs::Gang(args) => check_gang_args(d, args, diags),
        ClauseArgs::Worker(Some(e)) | ClauseArgs::Vector(Some(e)) => {
            check_level_arg(d, c, e, diags)
        }
        ClauseArgs::DeviceTypes(ids) if ids.len() > 1 => {
            if let Some(star) = ids.iter().find(|i| i.name == "*") {
                diags.push(Diagnostic::error(
                    star.span,
                    "`*` must be the only device type in `device_type(...)`",
                ));
            }
        }
        _ => {}
    }
}

/// A data clause's modifiers: each allowed on the clause (and `zero` not in `declare`), none
/// twice.
fn check_modifiers(
    d: &Directive,
    c: &Clause,
    modifiers: &[(DataModifier, Span)],
    diags: &mut Vec<Diagnostic>,
) {
    let cname = c.kind.name();
    let ok = allowed_modifiers(c.kind);
    let mut seen: Vec<(DataModifier, Span)> = Vec::new();
    for &(m, span) in modifiers {
        if let Some(&(_, first)) = seen.iter().find(|(x, _)| *x == m) {
            diags.push(
                Diagnostic::error(
                    span,
                    format!("modifier `{}` appears more than once", m.name()),
                )
                .with_secondary(first, "first here"),
            );
            continue;
        }
        seen.push((m, span));
        if !ok.contains(&m) {
            let mut diag = Diagnostic::error(
                span,
                format!("modifier `{}` is not allowed on `{cname}`", m.name()),
            );
            diag = diag.with_note(if ok.is_empty() {
                format!("`{cname}` takes no modifiers")
            } else {
                let names: Vec<_> = ok.iter().map(|m| format!("`{}`", m.name())).collect();
                format!("`{cname}` accepts {}", names.join(", "))
            });
            diags.push(diag);
        } else if d.kind == D::Declare && m == DataModifier::Zero {
            diags.push(Diagnostic::error(
                span,
                format!("modifier `zero` is not allowed on `{cname}` in `declare`"),
            ));
        }
    }
}

/// `num_gangs` and `tile`: positive literals, no `*` in `num_gangs`, which takes at most
/// three arguments (one on `kernels`).
fn check_exprs(d: &Directive, c: &Clause, es: &[Expr], diags: &mut Vec<Diagnostic>) {
    let cname = c.kind.name();
    for e in es.iter().filter(|e| !(c.kind == K::Tile && e.is_star())) {
        if c.kind == K::NumGangs && e.is_star() {
            diags.push(Diagnostic::error(
                e.span,
                "`*` is not allowed in `num_gangs`",
            ));
            continue;
        }
        positive(cname, e, diags);
    }
    if c.kind == K::NumGangs {
        if es.len() > 3 {
            diags.push(
                Diagnostic::error(
                    c.span,
                    format!(
                        "`num_gangs` takes at most three arguments, found {}",
                        es.len()
                    ),
                )
                .with_note("one per gang dimension"),
            );
        } else if es.len() > 1 && d.kind.compute_part() == Some(D::Kernels) {
            diags.push(Diagnostic::error(
                c.span,
                format!(
                    "on `{}`, `num_gangs` takes a single argument",
                    d.kind.name()
                ),
            ));
        }
    }
}

/// `gang(...)`: each argument once, and each allowed on the directive with a valid value.
fn check_gang_args(d: &Directive, args: &[GangArg], diags: &mut Vec<Diagnostic>) {
    let in_parallel_or_serial = matches!(d.kind, D::ParallelLoop | D::SerialLoop);
    let mut seen: Vec<(GangArgKind, Span)> = Vec::new();
    for a in args {
        let span = a.kw.map_or(a.value.span, |k| k.to(a.value.span));
        if let Some(&(_, first)) = seen.iter().find(|(k, _)| *k == a.kind) {
            diags.push(
                Diagnostic::error(
                    span,
                    format!("`{}` appears more than once in `gang(...)`", a.kind.name()),
                )
                .with_secondary(first, "first here"),
            );
            continue;
        }
        seen.push((a.kind, span));
        match a.kind {
            GangArgKind::Num if d.kind == D::Routine => diags.push(Diagnostic::error(
                span,
                "`gang` on `routine` takes only `dim:`",
            )),
            GangArgKind::Num if in_parallel_or_serial => diags.push(
                Diagnostic::error(
                    span,
                    format!("`gang(num:)` is not allowed on `{}`", d.kind.name()),
                )
                .with_note("give the number of gangs with `num_gangs` instead"),
            ),
            GangArgKind::Num => positive("gang(num:)", &a.value, diags),
            GangArgKind::Dim => {
                if d.kind.compute_part() == Some(D::Kernels) || d.kind == D::SerialLoop {
                    diags.push(Diagnostic::error(
                        span,
                        format!("`gang(dim:)` is not allowed on `{}`", d.kind.name()),
                    ));
                } else if let Some(v) = a.value.int_value().filter(|v| !(1..=3).contains(v)) {
                    diags.push(Diagnostic::error(
                        a.value.span,
                        format!("`gang(dim:)` must be 1, 2 or 3, found `{v}`"),
                    ));
                }
            }
            GangArgKind::Static if d.kind == D::Routine => diags.push(Diagnostic::error(
                span,
                "`gang` on `routine` takes only `dim:`",
            )),
            GangArgKind::Static => {
                if !a.value.is_star() {
                    positive("gang(static:)", &a.value, diags);
                }
            }
        }
    }
}

/// The argument of `worker(...)` or `vector(...)`: none on `routine`, none on a combined
/// `parallel`/`serial` loop (its compute part's clause says it), positive elsewhere.
fn check_level_arg(d: &Directive, c: &Clause, e: &Expr, diags: &mut Vec<Diagnostic>) {
    let in_parallel_or_serial = matches!(d.kind, D::ParallelLoop | D::SerialLoop);
    let (what, instead) = if c.kind == K::Worker {
        ("worker", "num_workers")
    } else {
        ("vector", "vector_length")
    };
    if d.kind == D::Routine {
        diags.push(Diagnostic::error(
            e.span,
            format!("`{what}` on `routine` takes no argument"),
        ));
    } else if in_parallel_or_serial {
        diags.push(
            Diagnostic::error(
                e.span,
                format!("`{what}(...)` is not allowed on `{}`", d.kind.name()),
            )
            .with_note(format!("use `{instead}` instead")),
        );
    } else {
        positive(what, e, diags);
    }
}
