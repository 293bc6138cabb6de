//! Compute constructs and loops: `parallel` → `omp target teams`, `serial`
//! and `kernels` → `omp target`, with their explicit clauses and the
//! implicit attributes made explicit as Clacc does (imp `copy`/`present`
//! maps, `shared`, `firstprivate`, promoted reductions); `num_workers` and
//! `vector_length` that are not constant; loops → `omp distribute`,
//! `parallel for`, `simd` by their partitioning, `tile` → `collapse`.
//!
//! It reads the data attributes of [`crate::attrs`]; it must not compute
//! attributes of its own.

use crate::attrs::{Dma, Dsa, EffId, EffKind, Origin};
use crate::diag::Diagnostic;
use crate::directive::{ClauseArgs, ClauseKind, ReductionOp};
use crate::facts::VarId;

use super::*;

impl<'a> Cx<'a> {
    pub(super) fn compute(&mut self, p: EffId) -> Level {
        let kind = self.an.eff(p).kind;
        let mut lv = Level::new();
        let mut clauses = Vec::new();
        let head = match kind {
            EffKind::Parallel => "omp target teams",
            _ => "omp target",
        };
        if let Some(c) = self.if_clause(p) {
            clauses.push(c);
        }
        if kind == EffKind::Parallel {
            if let Some((n, _)) = self.expr_arg(p, ClauseKind::NumGangs) {
                clauses.push(format!("num_teams({n})"));
            }
            self.num_workers(p, &mut lv);
            self.vector_length(p, &mut lv);
        }
        self.explicit_compute_clauses(p, &mut clauses);
        // Implicit attributes, made explicit as Clacc does.
        let imp = self.implicit_lists(p);
        imp.push_clauses(self, kind == EffKind::Parallel, &mut clauses);
        lv.pragmas.push(join_clauses(head, &clauses));
        if !lv.prelude.is_empty() {
            lv.wrap = Wrap::Statement;
        }
        lv
    }

    /// A `vector_length` that is not a constant is ignored, with a warning (its side effects
    /// kept).
    fn vector_length(&mut self, p: EffId, lv: &mut Level) {
        if let Some((v, span)) = self.expr_arg(p, ClauseKind::VectorLength) {
            if !is_int_constant(&v, self.const_value(p, span)) {
                self.diags.push(
                    Diagnostic::warning(
                        span,
                        format!("`vector_length({v})` is not a constant expression and is ignored"),
                    )
                    .with_note(
                        "OpenMP's `simdlen`, which `vector_length` maps to, needs a constant",
                    ),
                );
                if may_have_side_effects(&v) {
                    lv.prelude.push(format!("(void)({v});"));
                }
            }
        }
    }

    /// The compute construct's explicit data clauses and, on `parallel`, its reductions.
    fn explicit_compute_clauses(&mut self, p: EffId, clauses: &mut Vec<String>) {
        let kind = self.an.eff(p).kind;
        let d = self.directive(p);
        for (kind, list, span, _) in self.explicit_lists(p) {
            match kind {
                ClauseKind::Firstprivate => clauses.push(format!("firstprivate({list})")),
                ClauseKind::Private => clauses.push(format!("private({list})")),
                ClauseKind::Deviceptr => clauses.push(format!("is_device_ptr({list})")),
                _ => {
                    if let Some(dma) = Dma::from_clause(kind) {
                        if let Some(m) = self.structured_map(dma, &list, span) {
                            clauses.push(m);
                        }
                    }
                }
            }
        }
        let on_teams = |_: &&usize| kind == EffKind::Parallel;
        for &c in self.an.eff(p).clauses.iter().filter(on_teams) {
            if let ClauseArgs::Reduction { op, items, .. } = &d.clauses[c].args {
                let list = items
                    .iter()
                    .map(|i| i.text.as_str())
                    .collect::<Vec<_>>()
                    .join(",");
                clauses.push(format!("reduction({}: {list})", op.symbol()));
            }
        }
    }

    /// Whether the region of `p` references `v`: its statement, or the clauses of directives
    /// in it. Clacc's `shared` lists only those, where a data clause alone names a variable
    /// the region never uses.
    fn referenced_in_region(&self, p: EffId, v: VarId) -> bool {
        let construct = self.unit.construct(self.an.eff(p).construct);
        construct.body.is_some_and(|b| {
            self.unit.refs_in(b).iter().any(|r| r.var == v)
                || self.constructs_in(b).any(|c| {
                    b.contains(c.pragma_span)
                        && c.clause_vars.iter().flatten().any(|x| *x == Some(v))
                })
        })
    }

    /// On a combined construct, a variable `private` on its effective loop is the loop's
    /// alone: the loop is the whole region. Clacc computes implicit attributes on the
    /// effective directives, so it gives the variable no `firstprivate` on the effective
    /// `omp target teams`. (acc's own lowering keeps the attribute: a gang reduction inside
    /// may still need the variable at the compute level.)
    fn private_on_own_loop(&self, p: EffId, v: VarId) -> bool {
        self.an.by_construct[self.an.eff(p).construct.0 as usize]
            .iter()
            .any(|&l| {
                let l = self.an.eff(l);
                l.kind == EffKind::Loop
                    && l.attr(v)
                        .is_some_and(|x| matches!(x.dsa, Some((Dsa::Private, Origin::Exp { .. }))))
            })
    }

    /// The compute construct's implicit attributes, sorted by the clause that states each.
    fn implicit_lists(&self, p: EffId) -> ImplicitLists<'a> {
        let mut imp = ImplicitLists::default();
        for a in &self.an.eff(p).attrs {
            // A reduction on a subarray or an element promotes that part, not the variable
            // (whose pointer alone a map would copy).
            let name = match a.dsa {
                Some((Dsa::Reduction(_), Origin::Imp)) => self
                    .loop_reduction_part(p, a.var)
                    .unwrap_or_else(|| self.name(a.var)),
                _ => self.name(a.var),
            };
            if self.private_on_own_loop(p, a.var)
                && matches!(a.dsa, Some((Dsa::Firstprivate, Origin::Imp)))
            {
                continue;
            }
            match a.dma {
                Some((Dma::Copy, Origin::Imp)) => imp.copy.push(name),
                Some((Dma::Present, Origin::Imp)) => imp.present.push(name),
                Some((Dma::Nomap, Origin::Imp))
                    if matches!(a.dsa, Some((Dsa::Shared | Dsa::Reduction(_), _))) =>
                {
                    match self.enclosing(p, a.var) {
                        Some(Dma::NoCreate) if self.opts.no_alloc => imp.no_alloc.push(name),
                        Some(Dma::Deviceptr) => imp.device_ptrs.push(name),
                        _ if self.unit.var(a.var).shape.is_scalar() => imp.scalar_shared = true,
                        _ => {}
                    }
                }
                _ => {}
            }
            let device_ptr = matches!(a.dma, Some((Dma::Deviceptr, _)))
                || self.enclosing(p, a.var) == Some(Dma::Deviceptr);
            match a.dsa {
                // `is_device_ptr` is the variable's data-sharing clause.
                Some((Dsa::Shared, Origin::Imp)) if device_ptr => {}
                Some((Dsa::Shared, Origin::Imp)) if self.referenced_in_region(p, a.var) => {
                    imp.shared.push(name)
                }
                Some((Dsa::Shared, Origin::Imp)) => {}
                Some((Dsa::Firstprivate, Origin::Imp)) => imp.firstprivate.push(name),
                Some((Dsa::Reduction(op), Origin::Imp)) => {
                    match imp.reductions.iter_mut().find(|r| r.0 == op) {
                        Some(r) => r.1.push(name),
                        None => imp.reductions.push((op, vec![name])),
                    }
                }
                _ => {}
            }
        }
        imp
    }

    /// The text of a loop's `reduction` item of `var` inside `p` when it names a part of the
    /// variable (`h[4:6]`, `e[x]`): OpenMP reduces and maps an element as the section
    /// `e[x:1]`.
    fn loop_reduction_part(&self, p: EffId, var: VarId) -> Option<&'a str> {
        let name = self.name(var);
        let an = self.an;
        an.effs
            .iter()
            .filter(|l| l.kind == EffKind::Loop && l.compute == Some(p))
            .find_map(|l| {
                let d = &self.unit.construct(l.construct).directive;
                l.clauses.iter().find_map(|&c| match &d.clauses[c].args {
                    ClauseArgs::Reduction { items, .. } => items
                        .iter()
                        .find(|i| i.base.name == name && !i.accessors.is_empty())
                        .map(|i| i.text.as_str()),
                    _ => None,
                })
            })
    }

    /// The DMA of the nearest enclosing `data`/`declare` for a variable.
    fn enclosing(&self, e: EffId, var: VarId) -> Option<Dma> {
        self.an.eff_ancestors(e).find_map(|a| {
            let eff = self.an.eff(a);
            if !matches!(eff.kind, EffKind::Data | EffKind::Declare) {
                return None;
            }
            eff.attr(var).and_then(|x| x.dma).map(|d| d.0)
        })
    }

    /// "If exp num_workers with a non-constant-expression argument…".
    fn num_workers(&mut self, p: EffId, lv: &mut Level) {
        let Some((n, span)) = self.expr_arg(p, ClauseKind::NumWorkers) else {
            return;
        };
        if is_int_constant(&n, self.const_value(p, span)) {
            return;
        }
        let has_worker_loop = self
            .an
            .effs
            .iter()
            .any(|l| l.kind == EffKind::Loop && l.compute == Some(p) && l.partition.worker);
        if has_worker_loop {
            lv.prelude
                .push(format!("const int {} = {n};", self.num_workers_var(p)));
        } else if may_have_side_effects(&n) {
            lv.prelude.push(format!("(void)({n});"));
        }
    }

    pub(super) fn loop_level(&mut self, l: EffId) -> Level {
        let eff = self.an.eff(l);
        let c = self.unit.construct(eff.construct);
        let p = eff.partition;
        let compute = eff.compute;
        let compute_kind = compute.map(|c| self.an.eff(c).kind);
        let mut lv = Level::new();
        let d = self.directive(l);
        let mut private: Vec<&str> = Vec::new();
        let mut local_copies: Vec<VarId> = Vec::new();
        let assigned_control = |v: VarId| {
            c.loops
                .iter()
                .any(|lf| lf.control == Some(v) && !lf.declared_in_init)
        };
        for a in &eff.attrs {
            match a.dsa {
                Some((Dsa::Private, Origin::Exp { .. })) => {
                    if p.seq {
                        local_copies.push(a.var);
                    } else {
                        private.push(self.name(a.var));
                    }
                }
                // A scalar temporary of a partitioned loop (`attrs::loops`).
                Some((Dsa::Private, Origin::Imp)) if !p.seq => private.push(self.name(a.var)),
                Some((Dsa::Private, Origin::Pre)) if assigned_control(a.var) => {
                    if p.seq || p.vector {
                        // Sequential: a local copy is private to the one
                        // thread. simd: OpenMP predetermines it `linear`,
                        // so only a local copy keeps the original intact.
                        local_copies.push(a.var);
                    } else {
                        private.push(self.name(a.var));
                    }
                }
                _ => {}
            }
        }
        lv.prelude = local_copies
            .iter()
            .map(|&v| format!("{};", self.unit.var(v).decl_text))
            .collect();
        if !lv.prelude.is_empty() {
            lv.wrap = Wrap::Statement;
        }
        let tile = self.tile(l);
        if p.seq {
            return lv;
        }
        let ancestors_partitioned = std::iter::once(l)
            .chain(
                self.an
                    .eff_ancestors(l)
                    .take_while(|&a| self.an.eff(a).kind == EffKind::Loop),
            )
            .any(|a| {
                let q = self.an.eff(a).partition;
                q.gang.is_some() || q.worker
            });
        let kernels_like = matches!(compute_kind, Some(EffKind::Kernels));
        let mut parts = Vec::new();
        let mut clauses = Vec::new();
        if kernels_like {
            // No teams in `omp target`: every partitioned level is threads.
            parts.push("parallel for");
        } else {
            if p.gang.is_some() {
                parts.push("distribute");
            }
            if p.worker {
                parts.push("parallel for");
            } else if !ancestors_partitioned {
                parts.push("parallel for");
                clauses.push("num_threads(1)".to_string());
            }
        }
        if p.vector {
            parts.push("simd");
        }
        if p.worker && !kernels_like {
            if let Some(pc) = compute {
                if let Some((n, span)) = self.expr_arg(pc, ClauseKind::NumWorkers) {
                    if is_int_constant(&n, self.const_value(pc, span)) {
                        clauses.push(format!("num_threads({n})"));
                    } else {
                        clauses.push(format!("num_threads({})", self.num_workers_var(pc)));
                    }
                }
            }
        }
        if p.vector {
            if let Some(pc) = compute {
                if let Some((v, span)) = self.expr_arg(pc, ClauseKind::VectorLength) {
                    if is_int_constant(&v, self.const_value(pc, span)) {
                        clauses.push(format!("simdlen({v})"));
                    }
                }
            }
        }
        for &ci in &eff.clauses {
            if let ClauseArgs::Collapse { count, .. } = &d.clauses[ci].args {
                clauses.push(format!("collapse({})", count.text));
            }
        }
        if let Some(n) = tile {
            clauses.push(format!("collapse({n})"));
        }
        let shared_explicit = p.worker || kernels_like || !ancestors_partitioned;
        if shared_explicit {
            let shared: Vec<&str> = eff
                .attrs
                .iter()
                .filter(|a| matches!(a.dsa, Some((Dsa::Shared, Origin::Imp))))
                .map(|a| self.name(a.var))
                .collect();
            if !shared.is_empty() {
                clauses.push(format!("shared({})", shared.join(",")));
            }
        }
        if !private.is_empty() {
            clauses.push(format!("private({})", private.join(",")));
        }
        if p.worker || p.vector || kernels_like {
            for &ci in &eff.clauses {
                if let ClauseArgs::Reduction { op, items, .. } = &d.clauses[ci].args {
                    let list = items
                        .iter()
                        .map(|i| i.text.as_str())
                        .collect::<Vec<_>>()
                        .join(",");
                    clauses.push(format!("reduction({}: {list})", op.symbol()));
                }
            }
        }
        lv.pragmas
            .push(join_clauses(&format!("omp {}", parts.join(" ")), &clauses));
        lv
    }

    /// `tile(…)` becomes `collapse(n)`, see the module docs.
    fn tile(&mut self, l: EffId) -> Option<usize> {
        let d = self.directive(l);
        for &ci in &self.an.eff(l).clauses {
            if let ClauseArgs::Exprs(sizes) = &d.clauses[ci].args {
                if d.clauses[ci].kind == ClauseKind::Tile {
                    self.diags.push(
                        Diagnostic::warning(
                            d.clauses[ci].span,
                            format!(
                                "`tile` is mapped to `collapse({})`; the tile sizes are dropped",
                                sizes.len()
                            ),
                        )
                        .with_note("OpenMP's `tile` construct may not be nested in `simd`"),
                    );
                    return (sizes.len() > 1).then_some(sizes.len());
                }
            }
        }
        None
    }
}

/// A compute construct's implicit attributes, by the OpenMP clause that states them.
#[derive(Default)]
struct ImplicitLists<'a> {
    copy: Vec<&'a str>,
    present: Vec<&'a str>,
    no_alloc: Vec<&'a str>,
    device_ptrs: Vec<&'a str>,
    scalar_shared: bool,
    shared: Vec<&'a str>,
    firstprivate: Vec<&'a str>,
    reductions: Vec<(ReductionOp, Vec<&'a str>)>,
}

impl ImplicitLists<'_> {
    /// The clauses, in Clacc's order; `teams` for `omp target teams`.
    fn push_clauses(self, cx: &Cx<'_>, teams: bool, clauses: &mut Vec<String>) {
        if !self.copy.is_empty() {
            clauses.push(cx.map_clause(false, true, false, "tofrom", &self.copy.join(",")));
        }
        if !self.present.is_empty() {
            clauses.push(cx.map_clause(true, true, false, "alloc", &self.present.join(",")));
        }
        if !self.no_alloc.is_empty() {
            clauses.push(format!(
                "map(ompx_no_alloc,alloc: {})",
                self.no_alloc.join(",")
            ));
        }
        if !self.device_ptrs.is_empty() {
            clauses.push(format!("is_device_ptr({})", self.device_ptrs.join(",")));
        }
        if self.scalar_shared {
            clauses.push("defaultmap(tofrom: scalar)".to_string());
        }
        // `omp target` (serial, kernels) takes neither `shared` nor
        // `reduction`: its one initial thread shares everything mapped, and
        // a reduction over one thread is the variable itself, mapped
        // `tofrom` by its imp copy.
        if !self.shared.is_empty() && teams {
            clauses.push(format!("shared({})", self.shared.join(",")));
        }
        if !self.firstprivate.is_empty() {
            clauses.push(format!("firstprivate({})", self.firstprivate.join(",")));
        }
        for (op, names) in self.reductions.into_iter().filter(|_| teams) {
            clauses.push(format!("reduction({}: {})", op.symbol(), names.join(",")));
        }
    }
}
