//! `acc check`: data-mapping bugs found before a GPU run, after OmpSan's
//! rule that a program must give the same result with its directives
//! enabled or disabled. A dataflow analysis over each function's skeleton
//! ([`crate::facts::flow`]) follows the present table (structured and
//! dynamic reference counts), the transfers each directive implies
//! ([`crate::plan`]'s data actions, explicit and implicit) and which side's
//! copy of each item is stale, and reports a read that a write on the other
//! side reaches with no transfer in between.
//!
//! Layout: `state` (the lattice), `interp` (the walk over steps: branches,
//! loops, switches, exits), `actions` (what a directive does to the state),
//! `report` (findings as diagnostics). It must not read syntax or do I/O;
//! when unsure (a call that may touch the data, an alias, a section it
//! cannot compare) it says nothing, and names the reason under `verbose`.

mod actions;
mod api;
mod interp;
mod report;
mod state;
mod summary;

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::attrs::Analysis;
use crate::diag::Diagnostic;
use crate::directive::DirectiveKind;
use crate::facts::flow::{FlowFn, Step};
use crate::facts::{Unit, VarId};
use crate::plan;
use crate::span::Span;
use summary::Summary;

/// How to check.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Also list where the check gave up (`Report::unknown`).
    pub verbose: bool,
}

/// The check's result for one unit.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Errors (a wrong result) and warnings (a transfer nothing needs), in source order.
    pub findings: Vec<Diagnostic>,
    /// Where the check stopped following an item, and why (with `verbose`).
    pub unknown: Vec<(Span, String)>,
}

/// Checks every function of the unit's skeleton.
pub fn check(unit: &Unit, an: &Analysis, opts: &Options) -> Report {
    let plans = plan::plan(unit, an);
    let mut declared = HashSet::new();
    for c in &unit.constructs {
        if c.directive.kind == DirectiveKind::Declare {
            declared.extend(c.clause_vars.iter().flatten().flatten().copied());
        }
    }
    let summaries: HashMap<&str, Summary> = unit
        .flow
        .iter()
        .filter_map(|f| summary::summarize(unit, f).map(|s| (f.name.as_str(), s)))
        .collect();
    let mut report = Report::default();
    for f in &unit.flow {
        let mut fx = interp::Fx::new(unit, an, &plans, opts.verbose);
        fx.summaries = &summaries;
        function(fx, &declared, opts, f, &mut report);
    }
    report.findings.sort_by_key(|d| (d.span.start, d.span.end));
    report.findings.dedup();
    report.unknown.sort_by_key(|u| u.0.start);
    report.unknown.dedup();
    report
}

fn function(
    mut fx: interp::Fx<'_>,
    declared: &HashSet<VarId>,
    opts: &Options,
    f: &FlowFn,
    report: &mut Report,
) {
    let unit = fx.unit;
    let summaries = fx.summaries;
    let mut opaque = false;
    scan(&f.body, &mut |s| match s {
        Step::Construct { id, .. } => fx.track_construct(*id),
        Step::Escape(v) => {
            fx.escaped.insert(*v);
        }
        Step::Bind {
            var,
            path,
            fresh: true,
        } => {
            fx.tracked.insert((*var, path.clone()), ());
        }
        Step::Opaque => opaque = true,
        Step::Call {
            name,
            args,
            touched,
            ..
        } => {
            // A data routine of the API acts on the data its first argument names; a function
            // the check follows into touches only what its steps say (the items its
            // directives name on its parameters are the arguments'); any other call may keep
            // what it is given.
            match (
                api::api_action(name),
                args.first(),
                summaries.get(name.as_str()),
            ) {
                (Some(_), Some(Some(v)), _) => {
                    fx.tracked.insert((*v, String::new()), ());
                    fx.escaped
                        .extend(touched.iter().copied().filter(|t| t != v));
                }
                (_, _, Some(s)) if s.params.len() == args.len() => {
                    let bind = s.bind(unit, args);
                    scan(s.body, &mut |c| {
                        if let Step::Construct { id, .. } = c {
                            fx.track_bound(*id, &bind);
                        }
                    });
                    fx.escaped.extend(
                        touched
                            .iter()
                            .copied()
                            .filter(|v| !args.contains(&Some(*v))),
                    );
                }
                _ => fx.escaped.extend(touched.iter().copied()),
            }
        }
        _ => {}
    });
    if opaque {
        if opts.verbose && !fx.tracked.is_empty() {
            report.unknown.push((
                f.span,
                format!(
                    "unknown: `{}` has a `goto`, a label or statements under conditional compilation: not checked",
                    f.name
                ),
            ));
        }
        return;
    }
    let escaped = std::mem::take(&mut fx.escaped);
    let pointees = std::mem::take(&mut fx.pointees_mapped);
    if opts.verbose {
        for v in pointees.iter().filter(|v| !escaped.contains(v)) {
            report.unknown.push((
                unit.var(*v).decl_span,
                format!(
                    "unknown: a directive maps what `{}`'s elements point to (`{}[i][0:n]`); not checked in `{}`",
                    unit.var(*v).name, unit.var(*v).name, f.name
                ),
            ));
        }
        for v in fx
            .tracked
            .keys()
            .map(|k| k.0)
            .filter(|v| escaped.contains(v))
        {
            report.unknown.push((
                unit.var(v).decl_span,
                format!(
                    "unknown: `{}` is aliased or passed where the check cannot follow; not checked in `{}`",
                    unit.var(v).name, f.name
                ),
            ));
        }
    }
    fx.tracked.retain(|k, _| {
        !declared.contains(&k.0) && !escaped.contains(&k.0) && !pointees.contains(&k.0)
    });
    fx.escaped = escaped;
    if fx.tracked.is_empty() {
        return;
    }
    fx.params = f.params.iter().copied().collect();
    fx.entry_point = f.name == "main";
    let entry: BTreeMap<_, _> = fx
        .tracked
        .keys()
        .map(|k| (k.clone(), state::KState::new(fx.initial_count(k))))
        .collect();
    fx.run(&f.body, Some(entry));
    report.findings.extend(fx.findings.into_values());
    report.unknown.extend(fx.unknown);
}

/// Visits every step, nested ones too.
pub(super) fn scan<'s>(steps: &'s [Step], f: &mut dyn FnMut(&'s Step)) {
    for s in steps {
        f(s);
        match s {
            Step::Construct { body, .. } | Step::Loop { body, .. } | Step::Switch { body, .. } => {
                scan(body, f)
            }
            Step::Branch(arms) => {
                for a in arms {
                    scan(a, f);
                }
            }
            _ => {}
        }
    }
}

/// Whether the steps call any function (a routine in a kernel may touch globals).
pub(super) fn has_call(steps: &[Step]) -> bool {
    let mut any = false;
    scan(steps, &mut |s| any |= matches!(s, Step::Call { .. }));
    any
}
