//! Warnings about races the program asked for: a scalar that every iteration of an
//! `independent` loop in `kernels` assigns, which the region shares (its implicit data clause
//! is `copy`) and no clause of the loop makes private or a reduction. OpenACC 3.3 2.9.9 makes
//! that the program's promise to keep; running the loop in parallel as promised, the last
//! writer wins, at random (the training materials' `error = fmax(error, …)` in a `kernels
//! loop independent` without `reduction(max:error)` is the common case).
//!
//! It must not change the plan: it only reads it.

use super::*;

impl Lowerer<'_> {
    pub(super) fn warn_shared_scalar_writes(&mut self) {
        let mut warnings = Vec::new();
        for plan in self.plans {
            let ConstructPlan::Kernel(k) = plan else {
                continue;
            };
            if k.kind != EffKind::Kernels {
                continue;
            }
            for l in k.loops.iter().filter(|l| l.partition.is_parallelized()) {
                let c = self.unit.construct(l.construct);
                if c.directive
                    .clauses_of(ClauseKind::Independent)
                    .next()
                    .is_none()
                {
                    continue;
                }
                let Some(deps) = c.loops.first().and_then(|f| f.deps.as_ref()) else {
                    continue;
                };
                let mut own: Vec<VarId> = l.private.clone();
                for (ci, clause) in c.directive.clauses.iter().enumerate() {
                    if clause.kind == ClauseKind::Reduction {
                        own.extend(c.clause_vars.get(ci).into_iter().flatten().flatten());
                    }
                }
                if let Some(body) = c.body {
                    own.extend(self.unit.nested_counters(body));
                }
                own.extend(&k.private);
                own.extend(
                    k.params
                        .iter()
                        .filter(|p| p.pass == acc_engine::plan::Pass::Value)
                        .map(|p| p.var),
                );
                let mut named: Vec<VarId> = Vec::new();
                for &(v, at) in &deps.scalar_writes {
                    // Private to an inner loop where it is written (`private(t)` on the
                    // vector loop inside): each iteration has its own there.
                    if own.contains(&v)
                        || named.contains(&v)
                        || loop_private_at(self.unit, k, v, at)
                    {
                        continue;
                    }
                    named.push(v);
                    let name = &self.unit.var(v).name;
                    warnings.push(
                        Diagnostic::warning(
                            at,
                            format!(
                                "every iteration of this `independent` loop assigns `{name}`, \
                                 which the `kernels` region shares: run in parallel, as the \
                                 clause allows, the iterations race and one of them wins"
                            ),
                        )
                        .with_secondary(c.directive.name_span, "the loop")
                        .with_note(format!(
                            "add `reduction(op:{name})` (`max` for `{name} = fmax({name}, …)`) \
                             or `private({name})` to the loop, as the computation needs"
                        )),
                    );
                }
            }
        }
        self.diags.extend(warnings);
    }
}
