//! Data attributes: the DMA and DSA of every variable on every effective
//! directive, labelled *exp*, *imp* or *pre*, as `clacc-design.md`
//! ("Semantic Clarifications") specifies, plus loop partitioning with
//! implicit `gang` placement and reduction promotion.
//!
//! A combined directive (`parallel loop`) is split into its *effective*
//! directives first (the compute part and the loop part), exactly as Clacc
//! does; every attribute is computed on effective directives.

use std::collections::BTreeMap;

use crate::diag::Diagnostic;
use crate::directive::{ClauseArgs, ClauseKind, Directive, DirectiveKind, ReductionOp, VarItem};
use crate::facts::{ConstructId, Unit, VarId};
use crate::span::Span;

/// Index of an effective directive in [`Analysis::effs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EffId(pub u32);

/// Where an attribute comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Written in the source: clause index and list item index.
    Exp { clause: usize, item: usize },
    /// Computed, and overridable by an explicit clause.
    Imp,
    /// Predetermined: an explicit clause may not conflict with it.
    Pre,
}

impl Origin {
    pub fn label(self) -> &'static str {
        match self {
            Origin::Exp { .. } => "exp",
            Origin::Imp => "imp",
            Origin::Pre => "pre",
        }
    }

    pub fn is_exp(self) -> bool {
        matches!(self, Origin::Exp { .. })
    }
}

/// Data mapping attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dma {
    Nomap,
    Present,
    Copy,
    Copyin,
    Copyout,
    Create,
    NoCreate,
    Delete,
    Deviceptr,
    Attach,
    Detach,
}

impl Dma {
    pub fn name(self) -> &'static str {
        match self {
            Dma::Nomap => "nomap",
            Dma::Present => "present",
            Dma::Copy => "copy",
            Dma::Copyin => "copyin",
            Dma::Copyout => "copyout",
            Dma::Create => "create",
            Dma::NoCreate => "no_create",
            Dma::Delete => "delete",
            Dma::Deviceptr => "deviceptr",
            Dma::Attach => "attach",
            Dma::Detach => "detach",
        }
    }

    pub fn from_clause(kind: ClauseKind) -> Option<Dma> {
        Some(match kind {
            ClauseKind::Present => Dma::Present,
            ClauseKind::Copy => Dma::Copy,
            ClauseKind::Copyin => Dma::Copyin,
            ClauseKind::Copyout => Dma::Copyout,
            ClauseKind::Create => Dma::Create,
            ClauseKind::NoCreate => Dma::NoCreate,
            ClauseKind::Delete => Dma::Delete,
            ClauseKind::Deviceptr => Dma::Deviceptr,
            ClauseKind::Attach => Dma::Attach,
            ClauseKind::Detach => Dma::Detach,
            _ => return None,
        })
    }
}

/// Data sharing attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dsa {
    Shared,
    Reduction(ReductionOp),
    Firstprivate,
    Private,
}

impl Dsa {
    pub fn name(self) -> &'static str {
        match self {
            Dsa::Shared => "shared",
            Dsa::Reduction(_) => "reduction",
            Dsa::Firstprivate => "firstprivate",
            Dsa::Private => "private",
        }
    }

    /// Unmappable DSAs privatize the variable, so no DMA can accompany them.
    pub fn is_mappable(self) -> bool {
        matches!(self, Dsa::Shared | Dsa::Reduction(_))
    }
}

/// The attributes of one variable on one effective directive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VarAttrs {
    pub var: VarId,
    pub dma: Option<(Dma, Origin)>,
    pub dsa: Option<(Dsa, Origin)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EffKind {
    Parallel,
    Serial,
    Kernels,
    Loop,
    Data,
    EnterData,
    ExitData,
    Update,
    HostData,
    Declare,
    /// Directives without data attributes (`routine`, `atomic`, `wait`, …).
    Other,
}

impl EffKind {
    pub fn is_compute(self) -> bool {
        matches!(self, EffKind::Parallel | EffKind::Serial | EffKind::Kernels)
    }
}

/// How a loop's iterations are divided, after `auto` conversion and implicit
/// `gang` placement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Partition {
    pub gang: Option<GangOrigin>,
    pub worker: bool,
    pub vector: bool,
    /// The loop runs sequentially (explicit `seq`, `auto` converted to
    /// `seq`, or no level of parallelism at all).
    pub seq: bool,
    /// `seq` was written in the source.
    pub exp_seq: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GangOrigin {
    Exp,
    Imp,
}

impl Partition {
    pub fn is_gang(&self) -> bool {
        self.gang.is_some()
    }

    pub fn is_parallelized(&self) -> bool {
        !self.seq
    }
}

/// One effective directive.
#[derive(Clone, Debug)]
pub struct Eff {
    pub construct: ConstructId,
    pub kind: EffKind,
    pub parent: Option<EffId>,
    /// The clauses of the construct's directive that apply here.
    pub clauses: Vec<usize>,
    /// One entry per variable with any attribute, ordered by first
    /// appearance (explicit clauses first, then references).
    pub attrs: Vec<VarAttrs>,
    /// For loops.
    pub partition: Partition,
    /// For compute constructs: the compute construct this one is nested in
    /// (for a loop: its enclosing compute construct, if any).
    pub compute: Option<EffId>,
}

impl Eff {
    pub fn attr(&self, var: VarId) -> Option<&VarAttrs> {
        self.attrs.iter().find(|a| a.var == var)
    }
}

/// The result of the data attribute analysis of a whole unit.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    pub effs: Vec<Eff>,
    /// For each construct: its effective directives, outermost first (two
    /// for a combined directive, one otherwise).
    pub by_construct: Vec<Vec<EffId>>,
}

impl Analysis {
    pub fn eff(&self, id: EffId) -> &Eff {
        &self.effs[id.0 as usize]
    }

    /// The innermost effective directive of a construct (the loop part of a
    /// combined one), which its children nest in.
    pub fn innermost(&self, c: ConstructId) -> EffId {
        *self.by_construct[c.0 as usize]
            .last()
            .expect("every construct has an eff")
    }

    pub fn outermost(&self, c: ConstructId) -> EffId {
        self.by_construct[c.0 as usize][0]
    }

    pub fn eff_ancestors(&self, id: EffId) -> impl Iterator<Item = EffId> + '_ {
        std::iter::successors(self.eff(id).parent, move |p| self.eff(*p).parent)
    }
}

/// The items of a clause that names variables, if it does.
pub fn clause_items(args: &ClauseArgs) -> &[VarItem] {
    match args {
        ClauseArgs::Vars { items, .. } | ClauseArgs::Reduction { items, .. } => items,
        _ => &[],
    }
}

/// Which effective directive of a combined construct a clause belongs to.
/// `private` and `reduction` go to the loop, as Clacc's mapping says; every
/// other clause is permitted on only one of the two.
fn clause_goes_to_loop(kind: ClauseKind) -> bool {
    matches!(
        kind,
        ClauseKind::Private
            | ClauseKind::Reduction
            | ClauseKind::Gang
            | ClauseKind::Worker
            | ClauseKind::Vector
            | ClauseKind::Seq
            | ClauseKind::Auto
            | ClauseKind::Independent
            | ClauseKind::Collapse
            | ClauseKind::Tile
    )
}

fn eff_kind(kind: DirectiveKind) -> Vec<EffKind> {
    use DirectiveKind as D;
    match kind {
        D::Parallel => vec![EffKind::Parallel],
        D::Serial => vec![EffKind::Serial],
        D::Kernels => vec![EffKind::Kernels],
        D::ParallelLoop => vec![EffKind::Parallel, EffKind::Loop],
        D::SerialLoop => vec![EffKind::Serial, EffKind::Loop],
        D::KernelsLoop => vec![EffKind::Kernels, EffKind::Loop],
        D::Loop => vec![EffKind::Loop],
        D::Data => vec![EffKind::Data],
        D::EnterData => vec![EffKind::EnterData],
        D::ExitData => vec![EffKind::ExitData],
        D::Update => vec![EffKind::Update],
        D::HostData => vec![EffKind::HostData],
        D::Declare => vec![EffKind::Declare],
        _ => vec![EffKind::Other],
    }
}

/// Computes the data attributes of every effective directive and reports
/// the semantic errors of `clacc-design.md` that depend on them.
pub fn analyze(unit: &Unit) -> (Analysis, Vec<Diagnostic>) {
    let mut cx = Cx {
        unit,
        an: Analysis::default(),
        diags: Vec::new(),
        declares: Vec::new(),
    };
    cx.build_effs();
    cx.declares = (0..cx.an.effs.len() as u32)
        .map(EffId)
        .filter(|&e| cx.an.eff(e).kind == EffKind::Declare)
        .collect();
    cx.explicit_attrs();
    cx.partition_loops();
    cx.loop_attrs();
    cx.compute_attrs();
    (cx.an, cx.diags)
}

struct Cx<'u> {
    unit: &'u Unit,
    an: Analysis,
    diags: Vec<Diagnostic>,
    /// Every `declare`, which may act on any later construct.
    declares: Vec<EffId>,
}

impl<'u> Cx<'u> {
    fn directive(&self, e: EffId) -> &'u Directive {
        &self.unit.construct(self.an.eff(e).construct).directive
    }

    fn var_name(&self, v: VarId) -> &'u str {
        &self.unit.var(v).name
    }

    fn eff_body(&self, e: EffId) -> Option<Span> {
        self.unit.construct(self.an.eff(e).construct).body
    }

    fn has_clause(&self, e: EffId, kind: ClauseKind) -> bool {
        let d = self.directive(e);
        self.an
            .eff(e)
            .clauses
            .iter()
            .any(|&c| d.clauses[c].kind == kind)
    }

    fn build_effs(&mut self) {
        for cid in self.unit.construct_ids() {
            let c = self.unit.construct(cid);
            let kinds = eff_kind(c.directive.kind);
            let mut parent = c.parent.map(|p| self.an.innermost(p));
            let mut ids = Vec::new();
            let combined = kinds.len() == 2;
            for (i, kind) in kinds.into_iter().enumerate() {
                let clauses = (0..c.directive.clauses.len())
                    .filter(|&k| {
                        !combined || (clause_goes_to_loop(c.directive.clauses[k].kind) == (i == 1))
                    })
                    .collect();
                let id = EffId(self.an.effs.len() as u32);
                let compute = if kind.is_compute() {
                    None
                } else {
                    parent.and_then(|p| {
                        let pe = self.an.eff(p);
                        if pe.kind.is_compute() {
                            Some(p)
                        } else {
                            pe.compute
                        }
                    })
                };
                self.an.effs.push(Eff {
                    construct: cid,
                    kind,
                    parent,
                    clauses,
                    attrs: Vec::new(),
                    partition: Partition::default(),
                    compute,
                });
                ids.push(id);
                parent = Some(id);
            }
            self.an.by_construct.push(ids);
        }
    }

    /// Every *exp* DA from the clauses, with the checks on them.
    fn explicit_attrs(&mut self) {
        for e in 0..self.an.effs.len() {
            let e = EffId(e as u32);
            let cid = self.an.eff(e).construct;
            let c = self.unit.construct(cid);
            let kind = self.an.eff(e).kind;
            for &ci in &self.an.eff(e).clauses.clone() {
                let clause = &c.directive.clauses[ci];
                let items = clause_items(&clause.args);
                for (ii, item) in items.iter().enumerate() {
                    let Some(var) = c
                        .clause_vars
                        .get(ci)
                        .and_then(|v| v.get(ii))
                        .copied()
                        .flatten()
                    else {
                        if matches!(kind, EffKind::Declare | EffKind::Other) {
                            continue;
                        }
                        self.diags.push(
                            Diagnostic::error(
                                item.base.span,
                                format!("use of undeclared identifier `{}`", item.base.name),
                            )
                            .with_label("not declared here"),
                        );
                        continue;
                    };
                    let origin = Origin::Exp {
                        clause: ci,
                        item: ii,
                    };
                    self.check_explicit(e, clause.kind, item, var);
                    let dma = Dma::from_clause(clause.kind);
                    let dsa = match (&clause.args, clause.kind) {
                        (ClauseArgs::Reduction { op, .. }, _) => Some(Dsa::Reduction(*op)),
                        (_, ClauseKind::Private) => Some(Dsa::Private),
                        (_, ClauseKind::Firstprivate) => Some(Dsa::Firstprivate),
                        _ => None,
                    };
                    self.check_same_variable(e, var, item, clause.kind, dma, dsa);
                    let eff = &mut self.an.effs[e.0 as usize];
                    let slot = attrs_slot(&mut eff.attrs, var);
                    // Keep the first of conflicting clauses; the conflict
                    // is an error already.
                    if let Some(d) = dma {
                        slot.dma.get_or_insert((d, origin));
                    }
                    if let Some(d) = dsa {
                        slot.dsa.get_or_insert((d, origin));
                    }
                }
            }
        }
    }

    /// The duplicate and conflict rules of "Basic Data Attributes" for two
    /// items that name the same variable with different text
    /// (`a[0:n]` and `a[n:n]`); identical items are `check_clauses`' job.
    fn check_same_variable(
        &mut self,
        e: EffId,
        var: VarId,
        item: &VarItem,
        kind: ClauseKind,
        dma: Option<Dma>,
        dsa: Option<Dsa>,
    ) {
        let Some(prev) = self.an.eff(e).attr(var).copied() else {
            return;
        };
        let d = self.directive(e);
        let earlier = |o: Origin| match o {
            Origin::Exp { clause, item } => Some((
                &d.clauses[clause],
                &clause_items(&d.clauses[clause].args)[item],
            )),
            _ => None,
        };
        let mut conflict = None;
        if let (Some(_), Some((_, o))) = (dma, prev.dma) {
            conflict = earlier(o);
        }
        if let (Some(_), Some((_, o))) = (dsa, prev.dsa) {
            conflict = conflict.or(earlier(o));
        }
        if let (Some(_), Some((s, o))) = (dma, prev.dsa) {
            if !s.is_mappable() {
                conflict = conflict.or(earlier(o));
            }
        }
        if let (Some(s), Some((_, o))) = (dsa, prev.dma) {
            if !s.is_mappable() {
                conflict = conflict.or(earlier(o));
            }
        }
        let Some((other_clause, other_item)) = conflict else {
            return;
        };
        // Different members of one struct are different data.
        if other_item.key() == item.key() || other_item.is_member() || item.is_member() {
            return;
        }
        let message = if other_clause.kind == kind {
            format!(
                "`{}` appears more than once in `{}`",
                self.var_name(var),
                kind.name()
            )
        } else {
            format!(
                "`{}` appears in both `{}` and `{}`; keep one",
                self.var_name(var),
                other_clause.kind.name(),
                kind.name()
            )
        };
        self.diags.push(
            Diagnostic::error(item.span, message)
                .with_secondary(other_item.span, format!("also in `{}` here", other_clause.kind.name()))
                .with_note("both name the same variable; OpenACC gives a variable at most one data attribute of each kind per directive"),
        );
    }

    fn check_explicit(&mut self, e: EffId, kind: ClauseKind, item: &VarItem, var: VarId) {
        let v = self.unit.var(var);
        let eff = self.an.eff(e);
        let const_forbidden = matches!(
            kind,
            ClauseKind::Copyout | ClauseKind::Create | ClauseKind::Private | ClauseKind::Reduction
        ) || (eff.kind == EffKind::Update
            && matches!(
                kind,
                ClauseKind::SelfClause | ClauseKind::Host | ClauseKind::Device
            ));
        if v.is_const && const_forbidden && !item.is_member() {
            let why = match kind {
                ClauseKind::Reduction => "the reduction writes the result back",
                ClauseKind::Copyout => "the copy back would overwrite it",
                ClauseKind::Create | ClauseKind::Private => {
                    "the new copy could never be initialized"
                }
                _ => "the update would overwrite it",
            };
            self.diags.push(
                Diagnostic::error(
                    item.span,
                    format!(
                        "`{}` is `const` and cannot appear in `{}`: {why}",
                        v.name,
                        clause_display(self.directive(e), kind)
                    ),
                )
                .with_secondary(v.decl_span, "declared `const` here"),
            );
        }
        if !v.is_complete && !item.is_subarray() && !item.is_member() {
            self.diags.push(
                Diagnostic::error(
                    item.span,
                    format!(
                        "`{}` has an incomplete type, so its size is unknown; give a subarray such as `{}[0:n]`",
                        v.name, v.name
                    ),
                )
                .with_secondary(v.decl_span, "declared here"),
            );
        }
        let is_plain_pointer = v.shape == crate::facts::Shape::Pointer && item.accessors.is_empty();
        if kind == ClauseKind::Deviceptr && !is_plain_pointer {
            self.diags.push(
                Diagnostic::error(
                    item.span,
                    format!(
                        "`deviceptr` needs a pointer variable; `{}` is not one",
                        item.text
                    ),
                )
                .with_secondary(v.decl_span, "declared here"),
            );
        }
        if kind == ClauseKind::Reduction && eff.kind == EffKind::Loop {
            let c = self.unit.construct(eff.construct);
            if let Some(l) = c
                .loops
                .iter()
                .find(|l| l.control == Some(var) && !l.declared_in_init)
            {
                self.diags.push(
                    Diagnostic::error(
                        item.span,
                        format!(
                            "`{}` is the loop control variable and cannot be a reduction variable",
                            v.name
                        ),
                    )
                    .with_secondary(l.span, "of this loop"),
                );
            }
        }
    }

    /// Loop partitioning: `auto` conversion, then implicit `gang` placement
    /// ("Implicit Gang Clauses").
    fn partition_loops(&mut self) {
        let loops: Vec<EffId> = (0..self.an.effs.len() as u32)
            .map(EffId)
            .filter(|&e| self.an.eff(e).kind == EffKind::Loop)
            .collect();
        // Explicit partitioning after `auto` conversion.
        for &l in &loops {
            let compute = self.an.eff(l).compute.map(|c| self.an.eff(c).kind);
            let exp_seq = self.has_clause(l, ClauseKind::Seq);
            let auto = self.has_clause(l, ClauseKind::Auto);
            let independent = self.has_clause(l, ClauseKind::Independent);
            let mut p = Partition {
                gang: self
                    .has_clause(l, ClauseKind::Gang)
                    .then_some(GangOrigin::Exp),
                worker: self.has_clause(l, ClauseKind::Worker),
                vector: self.has_clause(l, ClauseKind::Vector),
                seq: false,
                exp_seq,
            };
            // Clacc's prescriptive reading: `auto` becomes `seq`; a loop in
            // `kernels` without `independent` is `auto`; everything in
            // `serial` runs on one gang, worker and vector lane.
            let kernels_auto = compute == Some(EffKind::Kernels) && !independent;
            if exp_seq || auto || kernels_auto || compute == Some(EffKind::Serial) {
                p.seq = true;
                p.gang = None;
                p.worker = false;
                p.vector = false;
            }
            self.an.effs[l.0 as usize].partition = p;
        }
        // Implicit gang placement: only inside `parallel`.
        let in_parallel = |an: &Analysis, l: EffId| {
            // Kernels loops that are `independent` are placed the same way.
            matches!(
                an.eff(l).compute.map(|c| an.eff(c).kind),
                Some(EffKind::Parallel | EffKind::Kernels)
            )
        };
        let loop_ancestors = |an: &Analysis, l: EffId| -> Vec<EffId> {
            an.eff_ancestors(l)
                .take_while(|&a| an.eff(a).kind == EffKind::Loop)
                .collect()
        };
        // Loops with a nested loop that has exp gang may not have gang.
        let mut has_nested_gang = std::collections::HashSet::new();
        for &d in &loops {
            if self.an.eff(d).partition.gang == Some(GangOrigin::Exp) {
                has_nested_gang.extend(loop_ancestors(&self.an, d));
            }
        }
        let mut permitted = BTreeMap::new();
        for &l in &loops {
            let an = &self.an;
            let p = an.eff(l).partition;
            let ancestor_levels = loop_ancestors(an, l).iter().any(|&a| {
                let q = an.eff(a).partition;
                q.gang.is_some() || q.worker || q.vector
            });
            permitted.insert(
                l,
                !p.seq && !ancestor_levels && !has_nested_gang.contains(&l),
            );
        }
        for &l in &loops {
            let an = &self.an;
            let p = an.eff(l).partition;
            let ancestor_permitted = loop_ancestors(an, l).iter().any(|a| permitted[a]);
            if in_parallel(an, l) && p.gang.is_none() && permitted[&l] && !ancestor_permitted {
                self.an.effs[l.0 as usize].partition.gang = Some(GangOrigin::Imp);
            }
        }
        for &l in &loops {
            let p = &mut self.an.effs[l.0 as usize].partition;
            if p.gang.is_none() && !p.worker && !p.vector {
                p.seq = true;
            }
        }
    }

    /// Loop DSAs: the loop control variables, then *imp* `shared`.
    fn loop_attrs(&mut self) {
        for e in 0..self.an.effs.len() as u32 {
            let e = EffId(e);
            if self.an.eff(e).kind != EffKind::Loop {
                continue;
            }
            let c = self.unit.construct(self.an.eff(e).construct);
            let exp_seq = self.an.eff(e).partition.exp_seq;
            let mut attrs = std::mem::take(&mut self.an.effs[e.0 as usize].attrs);
            for l in &c.loops {
                let Some(var) = l.control else { continue };
                let slot = attrs_slot(&mut attrs, var);
                if slot.dsa.is_some() {
                    continue;
                }
                // "Loop Control Variables": an assigned control variable of
                // an explicit `seq` loop stays shared, so its final value is
                // visible after the loop; otherwise it is predetermined
                // private.
                slot.dsa = Some(if exp_seq && !l.declared_in_init {
                    (Dsa::Shared, Origin::Imp)
                } else {
                    (Dsa::Private, Origin::Pre)
                });
            }
            if let Some(body) = c.body {
                for var in self.referenced_outside(e, body) {
                    let slot = attrs_slot(&mut attrs, var);
                    slot.dsa.get_or_insert((Dsa::Shared, Origin::Imp));
                }
            }
            self.an.effs[e.0 as usize].attrs = attrs;
        }
    }

    /// Variables referenced in `body` (or named in a clause of a directive
    /// nested in it) but declared outside it, in order of first reference.
    fn referenced_outside(&self, e: EffId, body: Span) -> Vec<VarId> {
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
    fn compute_attrs(&mut self) {
        for p in 0..self.an.effs.len() as u32 {
            let p = EffId(p);
            if !self.an.eff(p).kind.is_compute() {
                continue;
            }
            let Some(body) = self.eff_body(p) else {
                continue;
            };
            let kind = self.an.eff(p).kind;
            let default = self.default_clause(p);
            // Nested constructs follow their parent, in source order.
            let loops: Vec<EffId> = (p.0 + 1..self.an.effs.len() as u32)
                .map(EffId)
                .take_while(|&l| {
                    let c = self.an.eff(l).construct;
                    c == self.an.eff(p).construct
                        || body.contains(self.unit.construct(c).pragma_span)
                })
                .filter(|&l| {
                    self.an.eff(l).kind == EffKind::Loop && self.an.eff(l).compute == Some(p)
                })
                .collect();

            // Reductions on loops, as (loop, var, op, span of the item).
            let mut reductions = Vec::new();
            for &l in &loops {
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
            // "If exp reduction on a gang-partitioned loop, then imp copy on
            // the parent parallel", when nothing explicit intervenes.
            let mut promote_copy = Vec::new();
            for &(l, v, _, _) in &reductions {
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
                let explicit_between =
                    std::iter::once(p).chain(self.loops_between(p, l)).any(|x| {
                        self.an.eff(x).attr(v).is_some_and(|a| {
                            a.dma.is_some_and(|d| d.1.is_exp())
                                || a.dsa.is_some_and(|d| d.1.is_exp())
                        })
                    });
                if !explicit_between && !promote_copy.contains(&v) {
                    promote_copy.push(v);
                }
            }

            let mut attrs = std::mem::take(&mut self.an.effs[p.0 as usize].attrs);
            let referenced = self.referenced_outside(p, body);
            for &v in &referenced {
                let var = self.unit.var(v);
                let slot = attrs_slot(&mut attrs, v);
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
                let (dma, dsa) = if self.enclosing_dma(p, v).is_some() {
                    (Dma::Nomap, Dsa::Shared)
                } else if promote_copy.contains(&v) {
                    (Dma::Copy, Dsa::Shared)
                } else if default == Some(DefaultKind::Present) && !var.shape.is_scalar() {
                    // `default(present)` is about arrays and aggregates; a
                    // scalar stays firstprivate (OpenACC 3.3 2.5.16).
                    (Dma::Present, Dsa::Shared)
                } else if let Some(span) = default
                    .filter(|d| *d == DefaultKind::None)
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
                            if var.shape.is_scalar() { "firstprivate" } else { "copy" },
                            var.name
                        )),
                    );
                    (Dma::Nomap, Dsa::Shared)
                } else if var.shape.is_scalar() && kind != EffKind::Kernels {
                    (Dma::Nomap, Dsa::Firstprivate)
                } else {
                    (Dma::Copy, Dsa::Shared)
                };
                slot.dma = Some((dma, Origin::Imp));
                slot.dsa = Some((dsa, Origin::Imp));
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

            // Gang-shared loop reductions become an imp reduction here.
            for &(l, v, op, span) in &reductions {
                if self.unit.declared_in(v, body) {
                    continue;
                }
                let privatized_between = self.loops_between(p, l).any(|x| {
                    self.an
                        .eff(x)
                        .attr(v)
                        .is_some_and(|a| matches!(a.dsa, Some((Dsa::Private, _))))
                });
                let slot = attrs_slot(&mut attrs, v);
                match slot.dsa {
                    Some((Dsa::Shared, _)) if !privatized_between => {
                        slot.dsa = Some((Dsa::Reduction(op), Origin::Imp));
                    }
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
            self.an.effs[p.0 as usize].attrs = attrs;
        }
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

use crate::directive::DefaultKind;

fn attrs_slot(attrs: &mut Vec<VarAttrs>, var: VarId) -> &mut VarAttrs {
    let i = match attrs.iter().position(|a| a.var == var) {
        Some(i) => i,
        None => {
            attrs.push(VarAttrs {
                var,
                dma: None,
                dsa: None,
            });
            attrs.len() - 1
        }
    };
    &mut attrs[i]
}

fn clause_display(d: &Directive, kind: ClauseKind) -> String {
    match kind {
        ClauseKind::SelfClause | ClauseKind::Host | ClauseKind::Device => {
            format!("{} {}", d.kind.name(), kind.name())
        }
        _ => kind.name().to_string(),
    }
}
