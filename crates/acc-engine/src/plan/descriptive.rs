//! The compile path's descriptive reading of OpenACC, where Clacc's mapping (which `acc
//! translate` prints) is prescriptive: a `kernels` loop the dependence test proves
//! independent becomes a gang loop (`descriptive_auto`), and an innermost level-less `loop`
//! inside a gang loop whose iterations are independent and write their own elements becomes a
//! vector loop (`descriptive_vector`, the choice Clacc's "Sequential Loops" names). It only
//! changes the partitions (and privates) of the loops `plan` made.

use super::*;
use crate::facts::ConstructId;
use crate::Span;

/// The variables each iteration of loop `l` has of its own: its private and reduction
/// variables, the counters of the loops nested in it, and the scalars each iteration assigns
/// before reading (`DepFacts::iteration_locals`). Writing them is no dependence.
fn iteration_own(unit: &Unit, an: &Analysis, l: EffId) -> Vec<VarId> {
    let mut own: Vec<VarId> = an
        .eff(l)
        .attrs
        .iter()
        .filter(|a| matches!(a.dsa, Some((Dsa::Private | Dsa::Reduction(_), _))))
        .map(|a| a.var)
        .collect();
    let c = unit.construct(an.eff(l).construct);
    if let Some(body) = c.body {
        own.extend(unit.nested_counters(body));
    }
    if let Some(d) = c.loops.first().and_then(|f| f.deps.as_ref()) {
        own.extend(&d.iteration_locals);
    }
    own
}

/// The descriptive reading of `auto` (Clacc's is `seq`): a sequential
/// `kernels` loop that the dependence test proves independent runs
/// gang-partitioned, when it is a statement of the region of its own (see
/// [`stands_alone`]). Never wrong: a loop that is not proven stays
/// sequential.
pub(super) fn descriptive_auto(
    unit: &Unit,
    an: &Analysis,
    compute: EffId,
    loops: &mut [LoopPlan],
) -> Vec<(VarId, ReductionOp, Span)> {
    let kernels = an.eff(compute).construct;
    let mut implicit = Vec::new();
    for l in loops.iter_mut() {
        if !l.partition.seq || l.partition.exp_seq {
            continue;
        }
        let c = unit.construct(l.construct);
        let Some(facts) = c.loops.first() else {
            continue;
        };
        let mut allowed = iteration_own(unit, an, l.eff);
        let alone = stands_alone(unit, kernels, l.construct);
        let mut found = Vec::new();
        let verdict = match (&facts.deps, &facts.header) {
            (Some(d), Some(_)) => {
                use crate::directive::ClauseKind;
                let has = |k: ClauseKind| c.directive.clauses_of(k).next().is_some();
                // Gang-partitioned only: a worker or vector level would need the reduction
                // across its lanes too, which the clause would ask for.
                if alone && !has(ClauseKind::Worker) && !has(ClauseKind::Vector) {
                    let statement = Span::new(c.pragma_span.start, facts.span.end);
                    found = clause_less_reductions(unit, an, compute, statement, d);
                    allowed.extend(found.iter().map(|r| r.0));
                }
                crate::dependence::independent(unit, d, &allowed)
            }
            _ => Err("the loop is not in canonical form".to_string()),
        };
        if verdict.is_ok() && alone {
            implicit.extend(found.into_iter().map(|(v, op)| (v, op, facts.span)));
            // Proven independent, `auto` is `independent` (OpenACC 3.3 2.9.7): the levels the
            // directive names apply (`kernels loop gang vector(128)`), else a gang loop.
            use crate::directive::ClauseKind;
            let has = |k: ClauseKind| c.directive.clauses_of(k).next().is_some();
            l.partition.seq = false;
            l.partition.gang = Some(if has(ClauseKind::Gang) {
                crate::attrs::GangOrigin::Exp
            } else {
                crate::attrs::GangOrigin::Imp
            });
            l.partition.worker = has(ClauseKind::Worker);
            l.partition.vector = has(ClauseKind::Vector);
            // Its iterations now run in parallel: their own loop variables.
            l.private = loop_privates(unit, an, compute, an.eff(l.eff), true);
        }
        let independent = c
            .directive
            .clauses_of(crate::directive::ClauseKind::Independent)
            .next()
            .is_some();
        if independent && l.partition.seq {
            // The program promised independence: the dependence test's doubts are not why it
            // stays sequential (`descriptive_vector` may still give it the vector level).
            l.kept_sequential = Some(
                "it has no level, and acc gives one only to the innermost loop of a gang loop \
                 (add `worker` or `vector`)",
            );
            continue;
        }
        l.auto = Some(verdict);
    }
    implicit
}

/// The scalars that the `kernels` loop at `statement` of compute construct `compute` reduces
/// without a clause (`DepFacts::reductions`: `err = fmax(err, d);`, `sum += a[i];`, `n++;`)
/// and that may become reductions of its kernel, as nvc makes them ("Generating implicit
/// reduction"); GCC's `kernels` does too for integers (floating ones with
/// `-ffast-math`). OpenACC 3.3 2.9.7 lets `auto` loops be parallelized when the
/// implementation proves it safe, and a reduction is the parallel form of such a loop. A
/// floating sum then adds in another order than the loop, as an explicit `reduction`
/// clause does (2.5.15); the other operators' results are exact.
///
/// Only where the reduction is the variable's whole story in the region: declared before the
/// construct, which reaches it by its implicit `copy` (no clause of its own or of an
/// enclosing data construct, no `declare`), referenced in the region only inside the loop,
/// and the loop holds no other loop construct (whose levels would need the reduction too).
/// Anything else keeps the loop sequential, which is never wrong.
pub(super) fn clause_less_reductions(
    unit: &Unit,
    an: &Analysis,
    compute: EffId,
    statement: Span,
    deps: &crate::facts::DepFacts,
) -> Vec<(VarId, ReductionOp)> {
    if deps.reductions.is_empty() {
        return Vec::new();
    }
    let region = unit.construct(an.eff(compute).construct);
    let Some(body) = region.body else {
        return Vec::new();
    };
    let inner_loop = unit.constructs.iter().any(|c| {
        statement.contains(c.pragma_span)
            && c.pragma_span.start != statement.start
            && matches!(c.directive.kind, crate::directive::DirectiveKind::Loop)
    });
    if inner_loop {
        return Vec::new();
    }
    let declared = |v: VarId| {
        unit.constructs.iter().any(|c| {
            c.directive.kind == crate::directive::DirectiveKind::Declare
                && c.clause_vars.iter().flatten().any(|x| *x == Some(v))
        })
    };
    deps.reductions
        .iter()
        .copied()
        .filter(|&(v, _)| {
            let var = unit.var(v);
            let implicit_copy = an.eff(compute).attr(v).is_some_and(|a| {
                matches!(a.dsa, None | Some((Dsa::Shared, Origin::Imp)))
                    && matches!(a.dma, Some((Dma::Copy, Origin::Imp)))
            });
            let named_around = an.eff_ancestors(compute).any(|e| {
                an.eff(e)
                    .attr(v)
                    .is_some_and(|a| a.dma.is_some() || a.dsa.is_some())
            });
            let outside_loop = unit
                .refs_in(body)
                .iter()
                .any(|r| r.var == v && !statement.contains(r.span));
            implicit_copy
                && !body.contains(var.decl_span)
                && !named_around
                && !declared(v)
                && !outside_loop
        })
        .collect()
}

/// Makes the clause-less reductions that proved loops independent ([`clause_less_reductions`])
/// reductions of the kernel, as a `reduction` clause on the loop would: across gangs, the
/// variable's implicit `copy` carried out as the runtime's combination into it (`no_create`,
/// as for a clause's), and no longer a parameter of the kernel.
pub(super) fn add_clause_less_reductions(
    found: &[(VarId, ReductionOp, Span)],
    reductions: &mut Vec<GangReduction>,
    params: &mut Vec<Param>,
    data: &mut [DataItem],
) {
    for &(var, op, at) in found {
        if reductions.iter().any(|r| r.var == var) {
            continue;
        }
        reductions.push(GangReduction {
            var,
            op,
            item: None,
            implicit_in: Some(at),
        });
        params.retain(|p| p.var != var);
        for d in data.iter_mut() {
            if d.var == var && d.implicit && d.action == Action::Copy {
                d.action = Action::NoCreate;
            }
        }
    }
}

/// Clacc reads a `loop` with no level of parallelism that is not the implicit gang loop as
/// sequential ("Sequential Loops"), and names the better choice: such a loop's iterations are
/// required to be independent, so `worker` or `vector` could be added where no other loop's
/// clauses conflict. The compile path takes it (`acc translate` prints Clacc's mapping, which
/// does not read this plan): a loop of `parallel`, or of `kernels` with `independent` or that
/// the dependence test proved independent, that has no `seq` (nor, unproven, `auto`), runs
/// vector-partitioned when it is the innermost `loop` inside a
/// gang-partitioned loop with no vector loop around it, and its body assigns no variable from
/// outside it but its private and reduction variables and writes only elements whose subscript
/// steps with the loop (a `kernels` loop without a directive proven independent counts as a
/// gang loop around it) (a scalar or an element that every iteration writes would race: the
/// promise of independence is commonly made about the arrays a loop fills).
pub(super) fn descriptive_vector(
    unit: &Unit,
    an: &Analysis,
    compute: EffId,
    kind: EffKind,
    plain_loops: &[(usize, Result<(), String>)],
    loops: &mut [LoopPlan],
) {
    // The `kernels` loops without a directive that run as gang loops (proven independent).
    let region = unit.construct(an.eff(compute).construct);
    let plain_gang: Vec<crate::Span> = plain_loops
        .iter()
        .filter(|(_, verdict)| verdict.is_ok())
        .map(|(i, _)| region.plain_loops[*i].0)
        .collect();
    use crate::directive::ClauseKind;
    let partitions: Vec<(EffId, Partition)> = loops.iter().map(|l| (l.eff, l.partition)).collect();
    let ancestors = |l: EffId| -> Vec<EffId> {
        an.eff_ancestors(l)
            .take_while(|&a| an.eff(a).kind == EffKind::Loop)
            .collect()
    };
    let of = |e: EffId| partitions.iter().find(|(x, _)| *x == e).map(|(_, p)| *p);
    for l in loops.iter_mut() {
        if !l.partition.seq || l.partition.exp_seq {
            continue;
        }
        let c = unit.construct(l.construct);
        let has = |k: ClauseKind| c.directive.clauses_of(k).next().is_some();
        // In `kernels`, a loop the dependence test proved independent (`descriptive_auto`)
        // is as good as one the program promised independent.
        let proven = matches!(l.auto, Some(Ok(())));
        if (has(ClauseKind::Auto) && !proven)
            || has(ClauseKind::Seq)
            || (kind == EffKind::Kernels && !has(ClauseKind::Independent) && !proven)
        {
            continue;
        }
        let around = ancestors(l.eff);
        let in_gang = around.iter().any(|&a| of(a).is_some_and(|p| p.is_gang()))
            || plain_gang.iter().any(|s| s.contains(c.pragma_span));
        let in_vector = around.iter().any(|&a| of(a).is_some_and(|p| p.vector));
        let innermost = !partitions
            .iter()
            .any(|(e, _)| *e != l.eff && ancestors(*e).contains(&l.eff));
        if !in_gang || in_vector || !innermost {
            continue;
        }
        let Some(facts) = c.loops.first() else {
            continue;
        };
        let (Some(deps), Some(_)) = (&facts.deps, &facts.header) else {
            continue;
        };
        let allowed = iteration_own(unit, an, l.eff);
        let writes_outside = deps.scalar_writes.iter().any(|(v, _)| !allowed.contains(v));
        // Each element written must be the iteration's own: a subscript that steps with the
        // loop (`b[i][j]` in the `j` loop), not one every iteration writes (`a[i] += …`, a
        // reduction written without the clause), nor a store through a pointer.
        let shared_writes = deps.accesses.iter().any(|a| {
            a.write
                && !allowed.contains(&a.var)
                && !deps.span.contains(unit.var(a.var).decl_span)
                && !a
                    .subscripts
                    .iter()
                    .any(|(_, s)| matches!(s, crate::facts::Subscript::Affine(_)))
        });
        let indirect = deps
            .calls
            .iter()
            .any(|(name, _)| name == crate::facts::INDIRECT_STORE);
        let why = if writes_outside {
            Some("it has no level, and it assigns a variable from outside it, which a vector of iterations would share")
        } else if shared_writes {
            Some("it has no level, and it writes an element acc cannot tell is its iteration's own (a subscript that steps with the loop by no known amount, or not at all: a reduction needs its clause)")
        } else if indirect {
            Some("it has no level, and it stores through a pointer acc cannot follow")
        } else if deps.early_exit.is_some() {
            Some("it has no level, and it may leave early")
        } else {
            None
        };
        if why.is_some() {
            l.kept_sequential = why;
            continue;
        }
        l.partition.seq = false;
        l.partition.vector = true;
        l.implicit_vector = true;
        l.private = loop_privates(unit, an, compute, an.eff(l.eff), true);
    }
}

/// In `kernels`, a gang loop inside a loop that runs in order (`for (t…)` around `loop
/// independent` nests, the time loop of a stencil): every gang would run the outer loop's
/// iterations itself, and nothing makes one gang's part of a nest visible to the others
/// before the next nest, or the next iteration, reads it (gangs do not wait for each other,
/// OpenACC 3.3 2.9.11), so the answer would depend on timing. In a `parallel` construct that
/// is the program's to avoid; in `kernels` the compiler decides what runs where, and nvc
/// runs such an outer loop on the host, a kernel a nest. acc keeps the nest on one gang (its
/// worker and vector levels still shared), which is never wrong, and says how to get the
/// gangs back: the outer loop outside the region.
pub(super) fn gang_loops_inside_sequential_loops(
    unit: &Unit,
    an: &Analysis,
    compute: EffId,
    loops: &mut [LoopPlan],
) {
    let region = unit.construct(an.eff(compute).construct);
    let sequential: Vec<(ConstructId, bool)> = loops
        .iter()
        .map(|l| (l.construct, l.partition.seq))
        .collect();
    for l in loops.iter_mut().filter(|l| l.partition.gang.is_some()) {
        let at = unit.construct(l.construct).pragma_span.start;
        let in_plain = region
            .plain_loops
            .iter()
            .any(|(s, _)| s.start <= at && at < s.end);
        // An outer loop the program promised `independent` has no iteration that reads
        // another's results: every gang running all of them is only redundant.
        let promised = |a: ConstructId| {
            unit.construct(a)
                .directive
                .clauses_of(crate::directive::ClauseKind::Independent)
                .next()
                .is_some()
        };
        let in_seq_loop = unit
            .ancestors(l.construct)
            .any(|a| sequential.iter().any(|&(c, seq)| c == a && seq) && !promised(a));
        if !in_plain && !in_seq_loop {
            continue;
        }
        l.partition.gang = None;
        if !l.partition.worker && !l.partition.vector {
            l.partition.seq = true;
        }
        l.auto = Some(Err(
            "it is inside a loop that runs in order, whose iterations every gang would run \
             without waiting for the others' parts (move that loop outside the `kernels` \
             region: a kernel a nest)"
                .to_string(),
        ));
    }
}

/// Whether loop construct `l` is a statement of `kernels` of its own: not
/// inside another loop (with a directive or without) nor another statement
/// of the region. Only such a loop may become a gang loop by the dependence
/// test's verdict. Inside a sequential loop, every gang would run the code
/// around it redundantly, and nothing makes one gang's part of the loop
/// (or its share of a reduction) visible to the others before that code
/// reads it: the sequential reading is the only one that keeps the answer.
fn stands_alone(unit: &Unit, kernels: ConstructId, l: ConstructId) -> bool {
    let region = unit.construct(kernels);
    if l == kernels {
        // `kernels loop`: the region's statement is this loop.
        return true;
    }
    let c = unit.construct(l);
    if c.parent != Some(kernels) || !region.loops.is_empty() {
        // Inside another construct, or inside the loop of a `kernels loop`.
        return false;
    }
    let at = c.pragma_span.start;
    if region
        .plain_loops
        .iter()
        .any(|(s, _)| s.start <= at && at < s.end)
    {
        return false;
    }
    let Some(body) = c.body else { return false };
    region.statements.is_empty()
        || region
            .statements
            .iter()
            .any(|s| s.start <= at && s.end == body.end)
}
