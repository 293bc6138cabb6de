//! Checks across constructs: nesting rules, executable directive placement
//! and the integer arguments whose value only the front end can compute.
//! Clause validity of a single directive is in [`crate::check_clauses`].

use crate::diag::Diagnostic;
use crate::directive::{ClauseArgs, ClauseKind, DirectiveKind};
use crate::facts::{ConstructId, Unit};

/// Every cross-construct check of OpenACC 3.3 and `clacc-design.md`.
pub fn check_unit(unit: &Unit) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for id in unit.construct_ids() {
        nesting(unit, id, &mut diags);
        positive_args(unit, id, &mut diags);
    }
    diags
}

fn nesting(unit: &Unit, id: ConstructId, diags: &mut Vec<Diagnostic>) {
    let c = unit.construct(id);
    let kind = c.directive.kind;
    let compute = unit
        .ancestors(id)
        .find(|&a| unit.construct(a).directive.kind.is_compute());
    if let Some(outer) = compute {
        let outer_span = unit.construct(outer).directive.name_span;
        let forbidden = kind.is_compute()
            || matches!(
                kind,
                DirectiveKind::Data
                    | DirectiveKind::EnterData
                    | DirectiveKind::ExitData
                    | DirectiveKind::Update
                    | DirectiveKind::HostData
                    | DirectiveKind::Init
                    | DirectiveKind::Shutdown
                    | DirectiveKind::Set
                    | DirectiveKind::Wait
                    | DirectiveKind::Declare
                    | DirectiveKind::Routine
            );
        if forbidden {
            diags.push(
                Diagnostic::error(
                    c.directive.name_span,
                    format!(
                        "`acc {}` may not appear inside a compute construct",
                        kind.name()
                    ),
                )
                .with_secondary(outer_span, "inside this compute construct"),
            );
        }
    }
    // Loop levels: gang > worker > vector, each strictly inside the one
    // before, and not repeated.
    if kind.is_loop() {
        let levels = |k: ConstructId| {
            let d = &unit.construct(k).directive;
            let has = |ck: ClauseKind| d.clauses.iter().any(|c| c.kind == ck);
            (
                has(ClauseKind::Gang),
                has(ClauseKind::Worker),
                has(ClauseKind::Vector),
            )
        };
        let (g, w, v) = levels(id);
        let inner_rank = if g {
            Some(0)
        } else if w {
            Some(1)
        } else if v {
            Some(2)
        } else {
            None
        };
        if let Some(rank) = inner_rank {
            for a in unit.ancestors(id) {
                let ad = &unit.construct(a).directive;
                if ad.kind.is_compute() && !ad.kind.is_loop() {
                    break;
                }
                if !ad.kind.is_loop() {
                    continue;
                }
                let (ag, aw, av) = levels(a);
                let outer_rank = if av {
                    Some(2)
                } else if aw {
                    Some(1)
                } else if ag {
                    Some(0)
                } else {
                    None
                };
                // gang(dim:) loops nest, outer dimensions first (3.3).
                let gang_dims_nest =
                    rank == 0 && outer_rank == Some(0) && gang_dim(&c.directive) < gang_dim(ad);
                if let Some(or) = outer_rank.filter(|_| !gang_dims_nest) {
                    if or >= rank {
                        let names = ["gang", "worker", "vector"];
                        diags.push(
                            Diagnostic::error(
                                c.directive.name_span,
                                format!(
                                    "a `{}` loop may not be nested inside a `{}` loop",
                                    names[rank], names[or]
                                ),
                            )
                            .with_secondary(ad.name_span, "the enclosing loop")
                            .with_note("parallelism levels nest as gang, then worker, then vector"),
                        );
                        break;
                    }
                }
                if ad.kind.is_compute() {
                    break;
                }
            }
        }
    }
}

/// "It is an error if an argument to `num_gangs`, `num_workers`, or
/// `vector_length` is not a positive integer expression", for constant
/// arguments the front end evaluated (literals are checked per directive).
fn positive_args(unit: &Unit, id: ConstructId, diags: &mut Vec<Diagnostic>) {
    let c = unit.construct(id);
    for clause in &c.directive.clauses {
        if !matches!(
            clause.kind,
            ClauseKind::NumGangs | ClauseKind::NumWorkers | ClauseKind::VectorLength
        ) {
            continue;
        }
        let exprs: Vec<_> = match &clause.args {
            ClauseArgs::Expr(e) => vec![e],
            ClauseArgs::Exprs(es) => es.iter().collect(),
            _ => continue,
        };
        for e in exprs {
            if e.int_value().is_some() {
                continue;
            }
            let value = c
                .consts
                .iter()
                .find(|(s, _)| *s == e.span)
                .and_then(|x| x.1);
            if let Some(v) = value.filter(|v| *v <= 0) {
                diags.push(Diagnostic::error(
                    e.span,
                    format!(
                        "the argument of `{}` must be positive; `{}` is {v}",
                        clause.kind.name(),
                        e.text
                    ),
                ));
            }
        }
    }
}

/// The `dim` of a directive's `gang` clause (1 when absent).
fn gang_dim(d: &crate::directive::Directive) -> i64 {
    d.clauses
        .iter()
        .filter(|c| c.kind == ClauseKind::Gang)
        .find_map(|c| match &c.args {
            ClauseArgs::Gang(args) => args
                .iter()
                .find(|a| a.kind == crate::directive::GangArgKind::Dim)
                .and_then(|a| a.value.int_value()),
            _ => None,
        })
        .unwrap_or(1)
}
