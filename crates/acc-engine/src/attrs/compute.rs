//! Compute constructs' implicit attributes: reduction promotion (a loop's
//! reduction makes its variable an *imp* `copy` and `reduction` on the
//! enclosing compute construct), then the implicit DMA and DSA of every
//! variable the region references, following `default(...)`, the enclosing
//! data constructs and `declare`s, with the `default(none)` and
//! incomplete-type errors.
//!
//! It runs last, on the finished explicit attributes and loop partitioning;
//! it must not change either.

use crate::diag::Diagnostic;
use crate::directive::{ClauseArgs, ClauseKind, DefaultKind};
use crate::facts::VarId;
use crate::span::Span;

use super::*;

/// A reduction on a loop nested in a compute construct: the loop, the variable, the
/// operator and the span of the list item.
type LoopReduction = (EffId, VarId, ReductionOp, Span);

impl Cx<'_> {
    /// Variables referenced in `body` (or named in a clause of a directive
    /// nested in it) but declared outside it, in order of first reference.
    pub(super) fn referenced_outside(&self, e: EffId, body: Span) -> Vec<VarId> {
        let mut seen = Vec::new();
        let mut push = |v: VarId| {
            if !self.unit.declared_in(v, body) && !seen.contains(&v) {
                seen.push(v);
            }
        };
        let cid = self.an.eff(e).construct;
        let mut refs: Vec<(usize, VarId)> = self
            .unit
            .refs_in(body)
            .iter()
            .map(|r| (r.span.start, r.var))
            .collect();
        for c in self.unit.constructs.iter().skip(cid.0 as usize + 1) {
            if !body.contains(c.pragma_span) {
                if c.pragma_span.start >= body.end {
                    break;
                }
                continue;
            }
            for (ci, clause) in c.directive.clauses.iter().enumerate() {
                for (ii, item) in clause_items(&clause.args).iter().enumerate() {
                    if let Some(Some(v)) = c.clause_vars.get(ci).and_then(|x| x.get(ii)) {
                        refs.push((item.span.start, *v));
                    }
                }
            }
        }
        // A combined construct's own `reduction` names its variable on the compute part too
        // (OpenACC 3.3 2.11: it implies `copy` there), used in the loop or not.
        let own = self.unit.construct(cid);
        if own.directive.kind.is_combined() {
            for (ci, clause) in own.directive.clauses.iter().enumerate() {
                if clause.kind != ClauseKind::Reduction {
                    continue;
                }
                for (ii, item) in clause_items(&clause.args).iter().enumerate() {
                    if let Some(Some(v)) = own.clause_vars.get(ci).and_then(|x| x.get(ii)) {
                        refs.push((item.span.start, *v));
                    }
                }
            }
        }
        refs.sort_by_key(|r| r.0);
        for (_, v) in refs {
            push(v);
        }
        seen
    }

    /// The exp DMA of a variable on the nearest enclosing data construct or
    /// `declare` that has one, which suppresses implicit DMAs on a compute
    /// construct.
    fn enclosing_dma(&self, e: EffId, var: VarId) -> Option<(EffId, Dma)> {
        for a in self.an.eff_ancestors(e) {
            let eff = self.an.eff(a);
            if matches!(eff.kind, EffKind::Data | EffKind::Declare) {
                if let Some(VarAttrs {
                    dma: Some((d, o)), ..
                }) = eff.attr(var)
                {
                    if o.is_exp() {
                        return Some((a, *d));
                    }
                }
            }
        }
        // A `declare` earlier in an enclosing block or at file scope acts
        // like a data region around everything after it.
        let here = self.unit.construct(self.an.eff(e).construct).pragma_span;
        for &i in &self.declares {
            let eff = self.an.eff(i);
            let c = self.unit.construct(eff.construct);
            let covers = match c.block_rest {
                Some(rest) => rest.contains(here),
                None => c.function.is_none() && c.pragma_span.end <= here.start,
            };
            if covers {
                if let Some(VarAttrs {
                    dma: Some((d, _)), ..
                }) = eff.attr(var)
                {
                    return Some((i, *d));
                }
            }
        }
        None
    }

    /// Compute constructs: reduction promotion, then implicit DMAs and DSAs.
    pub(super) fn compute_attrs(&mut self) {
        for p in 0..self.an.effs.len() as u32 {
            let p = EffId(p);
            if !self.an.eff(p).kind.is_compute() {
                continue;
            }
            let Some(body) = self.eff_body(p) else {
                continue;
            };
            let loops = self.nested_loops(p, body);
            let reductions = self.loop_reductions(&loops);
            let promote_copy = self.promoted_copies(p, body, &reductions);
            let mut attrs = std::mem::take(&mut self.an.effs[p.0 as usize].attrs);
            self.implicit_attrs(p, body, &promote_copy, &mut attrs);
            self.promote_reductions(p, body, &reductions, &mut attrs);
            self.an.effs[p.0 as usize].attrs = attrs;
        }
    }

    /// The loops whose enclosing compute construct is `p`, in source order (nested constructs
    /// follow their parent).
    fn nested_loops(&self, p: EffId, body: Span) -> Vec<EffId> {
        (p.0 + 1..self.an.effs.len() as u32)
            .map(EffId)
            .take_while(|&l| {
                let c = self.an.eff(l).construct;
                c == self.an.eff(p).construct || body.contains(self.unit.construct(c).pragma_span)
            })
            .filter(|&l| self.an.eff(l).kind == EffKind::Loop && self.an.eff(l).compute == Some(p))
            .collect()
    }

    /// The reductions on `loops`, as (loop, var, op, span of the item).
    fn loop_reductions(&self, loops: &[EffId]) -> Vec<LoopReduction> {
        let mut reductions = Vec::new();
        for &l in loops {
            let d = self.directive(l);
            let c = self.unit.construct(self.an.eff(l).construct);
            for &ci in &self.an.eff(l).clauses {
                if let ClauseArgs::Reduction { op, items, .. } = &d.clauses[ci].args {
                    for (ii, item) in items.iter().enumerate() {
                        if let Some(Some(v)) = c.clause_vars.get(ci).and_then(|x| x.get(ii)) {
                            reductions.push((l, *v, *op, item.span));
                        }
                    }
                }
            }
        }
        reductions
    }

    /// "If exp reduction on a gang-partitioned loop, then imp copy on the parent parallel",
    /// when nothing explicit intervenes: the variables that get that copy.
    fn promoted_copies(&self, p: EffId, body: Span, reductions: &[LoopReduction]) -> Vec<VarId> {
        let mut promote_copy = Vec::new();
        for &(l, v, _, _) in reductions {
            // OpenACC 2.7+ sec. 2.11: a reduction on a combined
            // construct implies `copy` on its compute part, whatever
            // the loop's partitioning. Clacc's rule covers only gang
            // loops; for a `serial loop` or `parallel loop seq` the
            // spec's rule is what users expect (the result comes back).
            let combined = self.an.eff(l).construct == self.an.eff(p).construct;
            if (self.an.eff(l).partition.gang.is_none() && !combined)
                || self.unit.declared_in(v, body)
            {
                continue;
            }
            let explicit_between = std::iter::once(p).chain(self.loops_between(p, l)).any(|x| {
                self.an.eff(x).attr(v).is_some_and(|a| {
                    a.dma.is_some_and(|d| d.1.is_exp()) || a.dsa.is_some_and(|d| d.1.is_exp())
                })
            });
            if !explicit_between && !promote_copy.contains(&v) {
                promote_copy.push(v);
            }
        }
        promote_copy
    }

    /// The implicit DMA and DSA of every variable the region of `p` references: what an
    /// explicit DSA or DMA leaves open, else by the enclosing data constructs, reduction
    /// promotion, `default(...)` and the variable's shape.
    fn implicit_attrs(
        &mut self,
        p: EffId,
        body: Span,
        promote_copy: &[VarId],
        attrs: &mut Vec<VarAttrs>,
    ) {
        let referenced = self.referenced_outside(p, body);
        for &v in &referenced {
            let slot = attrs_slot(attrs, v);
            let exp_dma = slot.dma.is_some();
            let exp_dsa = slot.dsa.is_some();
            if exp_dsa && !exp_dma {
                slot.dma = Some(match slot.dsa {
                    Some((Dsa::Reduction(_), _)) => match self.enclosing_dma(p, v) {
                        Some(_) => (Dma::Nomap, Origin::Imp),
                        None => (Dma::Copy, Origin::Imp),
                    },
                    _ => (Dma::Nomap, Origin::Imp),
                });
                continue;
            }
            if exp_dma {
                slot.dsa.get_or_insert((Dsa::Shared, Origin::Imp));
                continue;
            }
            let (dma, dsa) = self.implicit_of(p, body, v, promote_copy);
            let slot = attrs_slot(attrs, v);
            slot.dma = Some((dma, Origin::Imp));
            slot.dsa = Some((dsa, Origin::Imp));
            let var = self.unit.var(v);
            if !var.is_complete && matches!(dma, Dma::Copy | Dma::Present) {
                let use_span = self
                    .unit
                    .refs_in(body)
                    .iter()
                    .find(|r| r.var == v)
                    .map(|r| r.span);
                self.diags.push(
                    Diagnostic::error(
                        use_span.unwrap_or(var.decl_span),
                        format!(
                            "`{}` has an incomplete type, so it cannot be copied to the device implicitly",
                            var.name
                        ),
                    )
                    .with_secondary(var.decl_span, "declared here")
                    .with_note(format!("add a data clause with a subarray, e.g. `copy({}[0:n])`", var.name)),
                );
            }
        }
    }

    /// The implicit DMA and DSA of `v`, referenced in the region of `p` and with no explicit
    /// attribute there; reports a variable that `default(none)` leaves without one.
    fn implicit_of(
        &mut self,
        p: EffId,
        body: Span,
        v: VarId,
        promote_copy: &[VarId],
    ) -> (Dma, Dsa) {
        let kind = self.an.eff(p).kind;
        let default = self.default_clause(p);
        let var = self.unit.var(v);
        if self.enclosing_dma(p, v).is_some() {
            (Dma::Nomap, Dsa::Shared)
        } else if promote_copy.contains(&v) {
            (Dma::Copy, Dsa::Shared)
        } else if default == Some(DefaultKind::Present) && !var.shape.is_scalar() {
            // `default(present)` is about arrays and aggregates; a
            // scalar stays firstprivate (OpenACC 3.3 2.5.16).
            (Dma::Present, Dsa::Shared)
        } else if let Some(span) = default
            .filter(|d| *d == DefaultKind::None && !self.loop_owned(p, body, v))
            .and(self.default_span(p))
        {
            let use_span = self
                .unit
                .refs_in(body)
                .iter()
                .find(|r| r.var == v)
                .map_or(span, |r| r.span);
            self.diags.push(
                Diagnostic::error(
                    use_span,
                    format!(
                        "`{}` has no data clause on this construct, which has `default(none)`",
                        var.name
                    ),
                )
                .with_secondary(span, "`default(none)` is here")
                .with_note(format!(
                    "add `{}({})` or another data clause",
                    if var.shape.is_scalar() {
                        "firstprivate"
                    } else {
                        "copy"
                    },
                    var.name
                )),
            );
            (Dma::Nomap, Dsa::Shared)
        } else if var.shape.is_scalar() && kind != EffKind::Kernels {
            (Dma::Nomap, Dsa::Firstprivate)
        } else {
            (Dma::Copy, Dsa::Shared)
        }
    }

    /// Whether `v` is a loop's own in the region of `p`: the control variable of a loop
    /// construct there (predetermined private, OpenACC 3.3 2.6.1) or in a `private`,
    /// `firstprivate` or `reduction` clause of one (the combined construct's included), which
    /// `default(none)` does not ask a data clause of (2.5.16).
    fn loop_owned(&self, p: EffId, body: Span, v: VarId) -> bool {
        let own = self.an.eff(p).construct;
        let name = self.var_name(v);
        self.unit.constructs.iter().enumerate().any(|(i, c)| {
            let inside = i == own.0 as usize || body.contains(c.pragma_span);
            inside
                && (c
                    .loops
                    .iter()
                    .any(|l| l.header.as_ref().is_some_and(|h| h.var == name))
                    || c.directive.clauses.iter().enumerate().any(|(ci, clause)| {
                        matches!(
                            clause.kind,
                            ClauseKind::Private | ClauseKind::Firstprivate | ClauseKind::Reduction
                        ) && c
                            .clause_vars
                            .get(ci)
                            .is_some_and(|vs| vs.contains(&Some(v)))
                    }))
        })
    }

    /// Gang-shared loop reductions become an imp reduction on `p`; reports a loop reduction
    /// whose operator differs from the one already there.
    fn promote_reductions(
        &mut self,
        p: EffId,
        body: Span,
        reductions: &[LoopReduction],
        attrs: &mut Vec<VarAttrs>,
    ) {
        for &(l, v, op, span) in reductions {
            if self.unit.declared_in(v, body) {
                continue;
            }
            let privatized_between = self.loops_between(p, l).any(|x| {
                self.an
                    .eff(x)
                    .attr(v)
                    .is_some_and(|a| matches!(a.dsa, Some((Dsa::Private, _))))
            });
            let slot = attrs_slot(attrs, v);
            match slot.dsa {
                Some((Dsa::Shared, _)) if !privatized_between => {
                    slot.dsa = Some((Dsa::Reduction(op), Origin::Imp));
                    // A `kernels` region runs its statements in order (acc's OpenMP form is
                    // one sequential target region; its kernels one kernel a statement, each
                    // reduction its loop's), so there the use is what it reads.
                    if self.an.eff(p).kind != EffKind::Kernels {
                        self.warn_access_outside_reduction_loops(body, v, reductions);
                    }
                }
                // Two operators on the loop itself: the loop's own check said so already.
                Some((Dsa::Reduction(_), _))
                    if self.an.eff(l).attr(v).is_some_and(
                        |a| matches!(a.dsa, Some((Dsa::Reduction(first), _)) if first != op),
                    ) => {}
                Some((Dsa::Reduction(other), origin)) if other != op => {
                    let mut d = Diagnostic::error(
                        span,
                        format!(
                            "conflicting reduction operators for `{}`: `{}` here, `{}` on the enclosing compute construct",
                            self.var_name(v),
                            op.symbol(),
                            other.symbol()
                        ),
                    );
                    if let Origin::Exp { clause, item } = origin {
                        let d0 = self.directive(p);
                        d = d.with_secondary(
                            clause_items(&d0.clauses[clause].args)[item].span,
                            "the other reduction",
                        );
                    } else {
                        d = d.with_note("the other reduction is on a sibling loop and was promoted to the compute construct");
                    }
                    self.diags.push(d);
                }
                _ => {}
            }
        }
    }

    /// A promoted reduction's variable that the region reads or writes outside its reduction
    /// loops (`s = 0;` then `loop reduction(+:s)`): OpenACC 3.3 2.9.11 updates the original
    /// variable only by the end of the region and leaves such an access undefined, so acc
    /// (as Clacc: each gang's copy) does not give what a sequential reading would.
    fn warn_access_outside_reduction_loops(
        &mut self,
        body: Span,
        v: VarId,
        reductions: &[LoopReduction],
    ) {
        let loops: Vec<Span> = reductions
            .iter()
            .filter(|r| r.1 == v)
            .map(|r| {
                let c = self.unit.construct(self.an.eff(r.0).construct);
                Span::new(
                    c.pragma_span.start,
                    c.body.map_or(c.pragma_span.end, |b| b.end),
                )
            })
            .collect();
        let Some(at) = self
            .unit
            .refs_in(body)
            .iter()
            .find(|r| r.var == v && !loops.iter().any(|l| l.contains(r.span)))
            .map(|r| r.span)
        else {
            return;
        };
        let name = self.var_name(v).to_string();
        self.diags.push(
            Diagnostic::warning(
                at,
                format!(
                    "`{name}` is used in the compute region outside its reduction loop, whose \
                     result reaches `{name}` only as the region ends: this use is undefined \
                     (OpenACC 3.3 2.9.11), and here it sees a gang's own copy"
                ),
            )
            .with_note(format!(
                "set `{name}` before the region, or reduce into a variable declared inside it"
            )),
        );
    }

    /// Loops strictly between a compute construct and a nested loop.
    fn loops_between(&self, p: EffId, l: EffId) -> impl Iterator<Item = EffId> + '_ {
        self.an.eff_ancestors(l).take_while(move |&a| a != p)
    }

    fn default_clause(&self, e: EffId) -> Option<DefaultKind> {
        let d = self.directive(e);
        self.an
            .eff(e)
            .clauses
            .iter()
            .find_map(|&c| match &d.clauses[c].args {
                ClauseArgs::Default(k, _) => Some(*k),
                _ => None,
            })
    }

    fn default_span(&self, e: EffId) -> Option<Span> {
        let d = self.directive(e);
        self.an
            .eff(e)
            .clauses
            .iter()
            .find(|&&c| d.clauses[c].kind == ClauseKind::Default)
            .map(|&c| d.clauses[c].span)
    }
}
