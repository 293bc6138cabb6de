//! Data attributes: the DMA and DSA of every variable on every effective
//! directive, labelled *exp*, *imp* or *pre*, as `clacc-design.md`
//! ("Semantic Clarifications") specifies, plus loop partitioning with
//! implicit `gang` placement and reduction promotion.
//!
//! A combined directive (`parallel loop`) is split into its *effective*
//! directives first (the compute part and the loop part), exactly as Clacc
//! does; every attribute is computed on effective directives.
//!
//! Layout: this file holds the model ([`Analysis`], [`Eff`], [`VarAttrs`],
//! ...), the effective directives and the order of the passes ([`analyze`]);
//! `explicit` computes the *exp* attributes from the clauses and checks them,
//! `loops` the loops' partitioning and DSAs, `compute` the implicit
//! attributes of compute constructs (reduction promotion, implicit DMAs and
//! DSAs, `default(none)`).

mod compute;
mod explicit;
mod loops;

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
    /// The one data attribute two clauses on the same item amount to (`copyin` and `copyout`
    /// make `copy`; see `check_clauses::merged_data_clause`), where acc takes both.
    pub fn merged(self, other: Dma) -> Option<Dma> {
        let moves = |d: Dma| matches!(d, Dma::Copy | Dma::Copyin | Dma::Copyout | Dma::Create);
        if !moves(self) || !moves(other) || self == other {
            return None;
        }
        Some(match (self, other) {
            (Dma::Create, d) | (d, Dma::Create) => d,
            _ => Dma::Copy,
        })
    }

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
///
/// A `private` clause that names a section (`parallel loop private(z[0:n])`,
/// which only acc's own lowering accepts: Clacc and OpenMP have no form for
/// it) goes to the compute construct instead, where acc gives each gang its
/// copy of the section. Each iteration's copy would be a fresh allocation of
/// the section per iteration; a gang's copy serves its iterations as well,
/// since they run one after the other (on the GPU a gang is then one thread)
/// and a private copy holds no value when an iteration starts (OpenACC 3.3
/// §2.5.13, §2.9.10).
fn clause_goes_to_loop(clause: &crate::directive::Clause) -> bool {
    if clause.kind == ClauseKind::Private && clause.items().iter().any(|i| i.is_subarray()) {
        return false;
    }
    matches!(
        clause.kind,
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
                        !combined || (clause_goes_to_loop(&c.directive.clauses[k]) == (i == 1))
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
}

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
