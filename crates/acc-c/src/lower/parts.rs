//! A compute construct's parts: the kernels one launch makes. A `kernels` region whose block
//! holds several statements runs as one kernel a statement (each gang-partitioned loop on the
//! gangs, the rest on one), unless a variable one statement declares is used by another; its
//! reductions then belong to the part whose loop reduces (the other parts use the variable's
//! device copy), and each part's launch takes its loop's `gang(num:)`, `worker(num:)` and
//! `vector(length:)`.
//!
//! It must not write the kernels (`host` does, part by part); it only decides the parts.

use super::host::Launch;
use super::*;

impl Lowerer<'_> {
    /// A `kernels` region runs each statement of its block as its own
    /// kernel, in order: a loop nest with gang partitioning on many
    /// gangs, anything else on one. Each part with its iteration count.
    pub(super) fn kernel_parts(
        &self,
        id: ConstructId,
        k: &KernelPlan,
        body: Span,
    ) -> Vec<(Span, String)> {
        let c = self.unit.construct(id);
        let plain_gang = |s: Span| self.is_plain_gang_loop(id, k, s);
        if k.kind == EffKind::Kernels
            && !c.directive.kind.is_combined()
            && !c.statements.is_empty()
            && !self.region_variable_crosses_parts(id, k)
        {
            c.statements
                .iter()
                .map(|&s| {
                    let gang = plain_gang(s)
                        || k.loops.iter().any(|l| {
                            l.partition.gang.is_some()
                                && self.unit.construct(l.construct).pragma_span.start == s.start
                        });
                    (
                        s,
                        if gang {
                            "ACC_RT_ANY_GANGS".to_string()
                        } else {
                            "1".to_string()
                        },
                    )
                })
                .collect()
        } else if k.kind == EffKind::Kernels && self.reduces_into_a_region_variable(id, body) {
            // Each gang would reduce into its own copy of the variable, and the region's code
            // after the loop would read a partial result: one gang runs it all (its loops
            // still on its workers and vector lanes).
            vec![(body, "1".to_string())]
        } else if k.kind == EffKind::Kernels && plain_gang(body) {
            vec![(body, "ACC_RT_ANY_GANGS".to_string())]
        } else {
            vec![(body, self.iterations(id, k))]
        }
    }

    /// Whether statement `s` of a `kernels` region is a loop without a directive that the
    /// dependence test proved independent: it runs on many gangs.
    pub(super) fn is_plain_gang_loop(&self, id: ConstructId, k: &KernelPlan, s: Span) -> bool {
        let c = self.unit.construct(id);
        k.plain_loops
            .iter()
            .any(|(i, verdict)| verdict.is_ok() && c.plain_loops[*i].0.start == s.start)
    }

    /// Whether a loop of a `kernels` region reduces into a variable the region's block
    /// declares at its own level (`float s = 0;` then `loop reduction(+:s)`, then `total =
    /// s;`): a variable of the region, not of an iteration of a loop around the reduction's
    /// (NAS CG's per-row `sum`).
    fn reduces_into_a_region_variable(&self, id: ConstructId, body: Span) -> bool {
        let c = self.unit.construct(id);
        let declared_at_region_level = |v: VarId| {
            let at = self.unit.var(v).decl_span;
            c.statements.iter().any(|s| {
                s.contains(at)
                    && !c.plain_loops.iter().any(|(stmt, _)| stmt.contains(at))
                    && !self.unit.constructs.iter().any(|l| {
                        body.contains(l.pragma_span) && l.body.is_some_and(|b| b.contains(at))
                    })
            })
        };
        self.unit
            .constructs
            .iter()
            .filter(|l| body.contains(l.pragma_span))
            .flat_map(|l| {
                l.directive
                    .clauses
                    .iter()
                    .enumerate()
                    .filter(|(_, clause)| clause.kind == ClauseKind::Reduction)
                    .flat_map(move |(ci, _)| l.clause_vars.get(ci).into_iter().flatten().flatten())
            })
            .any(|&v| declared_at_region_level(v))
    }

    /// A `kernels` region that runs as one kernel a statement, whose reduction variable a
    /// statement other than its loop's uses (`s = 0;` then `loop reduction(+:s)`): the region
    /// runs in order, one kernel after the other, so the reduction is its loop's kernel's
    /// alone, whose result reaches the variable as that kernel ends (the next statement reads
    /// it), and the other statements use the variable's device copy, which the region then
    /// needs: its implicit copy is made a real one. The region's plan so changed, and the
    /// parts grouped by the plan each runs with: one group of all parts otherwise.
    pub(super) fn reductions_by_part(
        &mut self,
        k: &KernelPlan,
        parts: &[(Span, String)],
    ) -> (KernelPlan, Vec<(KernelPlan, Vec<usize>)>) {
        let all = || vec![(k.clone(), (0..parts.len()).collect())];
        if k.reductions.is_empty() {
            return (k.clone(), all());
        }
        if parts.len() < 2 {
            self.warn_reductions_seen_by_gangs(k, parts);
            return (k.clone(), all());
        }
        // The part whose loops reduce into each reduction's variable.
        let reduces_in = |v: VarId, span: Span| {
            self.unit
                .constructs
                .iter()
                .any(|c| span.contains(c.pragma_span) && reduces_into(c, v))
                || k.reductions
                    .iter()
                    .any(|r| r.var == v && r.implicit_in.is_some_and(|at| span.contains(at)))
        };
        let used_in = |v: VarId, span: Span| {
            self.unit
                .refs_in(span)
                .iter()
                .any(|r| r.var == v && !loop_private_at(self.unit, k, v, r.span))
        };
        let shared: Vec<VarId> = k
            .reductions
            .iter()
            .map(|r| r.var)
            .filter(|&v| {
                parts
                    .iter()
                    .any(|(span, _)| !reduces_in(v, *span) && used_in(v, *span))
            })
            .collect();
        if shared.is_empty() {
            return (k.clone(), all());
        }
        let mut region = k.clone();
        for d in region.data.iter_mut() {
            if d.implicit && d.action == Action::NoCreate && shared.contains(&d.var) {
                d.action = Action::Copy;
            }
        }
        let groups = parts
            .iter()
            .enumerate()
            .map(|(pi, (span, _))| {
                let mut part = region.clone();
                part.reductions
                    .retain(|r| !shared.contains(&r.var) || reduces_in(r.var, *span));
                for &v in &shared {
                    if !part.reductions.iter().any(|r| r.var == v)
                        && !part.params.iter().any(|p| p.var == v)
                    {
                        part.params.push(acc_engine::plan::Param {
                            var: v,
                            pass: Pass::Mapped,
                        });
                    }
                }
                (part, vec![pi])
            })
            .collect();
        (region, groups)
    }

    /// A `kernels` region that runs as one kernel, whose statements outside a reduction's
    /// loops use its variable: each gang runs them on its own copy, so they do not see (or
    /// set) what a sequential reading would (`reductions_by_part` gives regions of one kernel
    /// a statement the reading in order).
    fn warn_reductions_seen_by_gangs(&mut self, k: &KernelPlan, parts: &[(Span, String)]) {
        if k.kind != EffKind::Kernels {
            return;
        }
        let Some(&(body, _)) = parts.first() else {
            return;
        };
        for r in &k.reductions {
            let loops: Vec<Span> = self
                .unit
                .constructs
                .iter()
                .enumerate()
                .filter(|(i, c)| *i == k.construct.0 as usize || body.contains(c.pragma_span))
                .map(|(_, c)| c)
                .filter(|c| reduces_into(c, r.var))
                .map(|c| {
                    Span::new(
                        c.pragma_span.start,
                        c.body.map_or(c.pragma_span.end, |b| b.end),
                    )
                })
                .chain(r.implicit_in)
                .collect();
            // Inside a loop around the reduction's the copy is what each iteration works with
            // (`sum = 0;` before a worker loop's reduction, `q[j] = sum;` after): only code at
            // the region's own level expects the variable the region shares.
            let enclosing_loops: Vec<Span> = k
                .loops
                .iter()
                .filter_map(|l| self.unit.construct(l.construct).body)
                .collect();
            let outside = self
                .unit
                .refs_in(body)
                .iter()
                .find(|x| {
                    x.var == r.var
                        && !loops.iter().any(|l| l.contains(x.span))
                        && !enclosing_loops.iter().any(|l| l.contains(x.span))
                })
                .map(|x| x.span);
            if let Some(at) = outside {
                let name = &self.unit.var(r.var).name;
                self.diags.push(
                    Diagnostic::warning(
                        at,
                        format!(
                            "`{name}` is used in the `kernels` region outside its reduction loop, \
                             and the region runs as one kernel: each gang sees its own copy \
                             here, not the loop's result (OpenACC 3.3 2.9.11)"
                        ),
                    )
                    .with_note(format!(
                        "set `{name}` before the region, or reduce into a variable declared \
                         inside it"
                    )),
                );
            }
        }
    }

    /// Whether a variable declared in one statement of a `kernels` region's block is used by
    /// another (`int n = 50;`, then a loop to `n`): each part is a kernel function of its own,
    /// which would not have it, so such a region runs as one kernel (its loops still
    /// partitioned within it, on one gang). A loop's own copy of its variable is no use of the
    /// region's.
    fn region_variable_crosses_parts(&self, id: ConstructId, k: &KernelPlan) -> bool {
        let c = self.unit.construct(id);
        let part_of = |at: Span| c.statements.iter().position(|s| s.contains(at));
        let own_copy = |v: VarId, at: Span| {
            loop_private_at(self.unit, k, v, at)
                || c.plain_loops.iter().any(|(stmt, facts)| {
                    stmt.contains(at)
                        && (facts.control == Some(v)
                            || self.unit.nested_counters(*stmt).contains(&v)
                            || facts
                                .deps
                                .as_ref()
                                .is_some_and(|d| d.iteration_locals.contains(&v)))
                })
        };
        let Some(body) = c.body else { return false };
        self.unit.refs_in(body).iter().any(|r| {
            let home = part_of(self.unit.var(r.var).decl_span);
            !r.implied
                && home.is_some()
                && part_of(r.span).is_some_and(|p| Some(p) != home)
                && !own_copy(r.var, r.span)
        })
    }

    /// In `kernels`, `gang(num: e)`, `worker(num: e)` and
    /// `vector(length: e)` on the part's loop size its launch.
    pub(super) fn part_dims(
        &self,
        k: &KernelPlan,
        span: Span,
        l: &Launch,
    ) -> (String, String, String) {
        let (num_gangs, nw, vl) = (&l.num_gangs, &l.nw, &l.vl);
        let part_loop = (k.kind == EffKind::Kernels)
            .then(|| {
                k.loops
                    .iter()
                    .find(|l| self.unit.construct(l.construct).pragma_span.start == span.start)
            })
            .flatten()
            .map(|l| &self.unit.construct(l.construct).directive);
        let level_arg = |kind: ClauseKind| {
            part_loop.and_then(|d| {
                d.clauses
                    .iter()
                    .filter(|c| c.kind == kind)
                    .find_map(|c| match &c.args {
                        ClauseArgs::Gang(args) => args
                            .iter()
                            .find(|a| a.kind == acc_engine::directive::GangArgKind::Num)
                            .map(|a| format!("__acc_dim({})", a.value.text)),
                        ClauseArgs::Worker(Some(e)) | ClauseArgs::Vector(Some(e)) => {
                            Some(format!("__acc_dim({})", e.text))
                        }
                        _ => None,
                    })
            })
        };
        let num_gangs = level_arg(ClauseKind::Gang).unwrap_or_else(|| num_gangs.clone());
        let nw = level_arg(ClauseKind::Worker).unwrap_or_else(|| nw.clone());
        let vl = level_arg(ClauseKind::Vector).unwrap_or_else(|| vl.clone());
        (num_gangs, nw, vl)
    }
}

/// Whether construct `c` has a `reduction` clause naming `v`.
fn reduces_into(c: &acc_engine::facts::Construct, v: VarId) -> bool {
    c.directive.clauses.iter().enumerate().any(|(ci, clause)| {
        clause.kind == ClauseKind::Reduction
            && c.clause_vars
                .get(ci)
                .is_some_and(|vs| vs.contains(&Some(v)))
    })
}
