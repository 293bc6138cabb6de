//! The OpenMP form of each construct: Clacc's mapping tables
//! (`clacc-design.md`, "OpenACC to OpenMP Mapping"), driven by the data
//! attributes of [`crate::attrs`].
//!
//! The result is plain data ([`OmpForm`]): pragma lines, declarations that
//! must precede them in a new compound statement, and where braces go. A
//! front end prints it by editing its own source text.
//!
//! Constructs Clacc does not map, and the choices made for them here:
//! - `serial` → `omp target`: one initial thread is exactly one gang, one
//!   worker, one vector lane; its loops are sequential.
//! - `kernels` → `omp target`; loops with `independent` (and no `seq`) run
//!   as `omp parallel for` (plus `simd` for `vector`), every other loop is
//!   sequential, which is Clacc's prescriptive reading of `auto`.
//! - `async` and the `wait` clause are dropped and `acc wait` becomes
//!   `omp taskwait`: running every region synchronously is a conforming
//!   implementation of OpenACC's asynchronous queues.
//! - `host_data use_device(p)` → `omp target data use_device_ptr(p)` for
//!   pointers and `use_device_addr(a)` otherwise; `if_present` is OpenMP
//!   5.1's behaviour for unmapped list items anyway.
//! - `declare` at file scope → `omp declare target(list)` (`link` →
//!   `omp declare target link(list)`); in a block → `omp target data` over
//!   the rest of the block, with the `data` construct's map types.
//! - `routine` → `omp declare target` … `omp end declare target` around the
//!   function (or `omp declare target(name)`); `nohost` → OpenMP 5.1's
//!   `begin declare target device_type(nohost)`; `bind` has no OpenMP form
//!   and is diagnosed.
//! - `atomic` → `omp atomic` with the same clause; `cache` is a hint and
//!   disappears; `init`, `shutdown`, `set` have no OpenMP directive and are
//!   diagnosed (warning) and removed.
//! - `tile(a, b)` → `collapse(2)` with a warning: OpenMP's `tile` may not be
//!   nested in `simd` (clang rejects it), and collapsing keeps every tiled
//!   loop partitioned.
//! - `deviceptr` on a compute construct → `is_device_ptr`; on `data`, the
//!   nested compute constructs that use the pointer get `is_device_ptr`.
//! - `exit data copyout(…) finalize` → `omp target update from(…)`
//!   followed by `omp target exit data map(delete: …)`.

use crate::attrs::{clause_items, Analysis, Dma, Dsa, EffId, EffKind, Origin};
use crate::diag::Diagnostic;
use crate::directive::{
    AtomicKind, ClauseArgs, ClauseKind, DataModifier, Directive, DirectiveArg, DirectiveKind,
    ReductionOp,
};
use crate::facts::{Construct, ConstructId, Unit, VarId};
use crate::span::Span;

/// The four command-line switches of Clacc's source-to-source mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OmpOptions {
    /// `--structured-ref-count-omp=hold` (default) or `no-hold`.
    pub hold: bool,
    /// `--present-omp=present` (default) or `no-present`.
    pub present: bool,
    /// `--no-create-omp=no_alloc` (default) or `no-no_alloc`.
    pub no_alloc: bool,
    /// `--update-present-omp=present` (default) or `no-present`.
    pub update_present: bool,
}

impl Default for OmpOptions {
    fn default() -> OmpOptions {
        OmpOptions {
            hold: true,
            present: true,
            no_alloc: true,
            update_present: true,
        }
    }
}

impl OmpOptions {
    /// Options every OpenMP compiler accepts (no Clang extensions).
    pub fn portable() -> OmpOptions {
        OmpOptions {
            hold: false,
            present: false,
            no_alloc: false,
            update_present: false,
        }
    }
}

/// Where a level's braces go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wrap {
    None,
    /// `{` before the level's prelude, `}` after the associated statement.
    Statement,
    /// `{` after the pragmas, `}` at the end of this span (the rest of the
    /// enclosing block), for block-scope `declare`.
    Rest(Span),
}

/// One OpenMP directive level. A combined OpenACC directive has two
/// (compute, then loop), since a loop level may need its own compound
/// statement inside the compute region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// Statements to put first in the new compound statement.
    pub prelude: Vec<String>,
    /// Directive lines without `#pragma `, e.g. `omp target teams`.
    pub pragmas: Vec<String>,
    pub wrap: Wrap,
    /// Pragma lines to put right after a span (`omp end declare target`
    /// after a function).
    pub after: Option<(Span, Vec<String>)>,
}

impl Level {
    fn new() -> Level {
        Level {
            prelude: Vec::new(),
            pragmas: Vec::new(),
            wrap: Wrap::None,
            after: None,
        }
    }

    /// The level disappears from the OpenMP form (a sequential loop).
    pub fn is_empty(&self) -> bool {
        self.prelude.is_empty()
            && self.pragmas.is_empty()
            && self.wrap == Wrap::None
            && self.after.is_none()
    }
}

/// The OpenMP form of one OpenACC construct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OmpForm {
    pub construct: ConstructId,
    pub levels: Vec<Level>,
}

impl OmpForm {
    /// Does this form change the code block (braces or declarations), so a
    /// printer must show both versions of the block?
    pub fn changes_block(&self) -> bool {
        self.levels
            .iter()
            .any(|l| l.wrap != Wrap::None || l.after.is_some())
    }
}

/// Maps every construct of the unit to its OpenMP form.
pub fn to_omp(unit: &Unit, an: &Analysis, opts: OmpOptions) -> (Vec<OmpForm>, Vec<Diagnostic>) {
    let mut by_pragma: Vec<ConstructId> = unit.construct_ids().collect();
    by_pragma.sort_by_key(|&c| unit.construct(c).pragma_span.start);
    let mut cx = Cx {
        unit,
        an,
        opts,
        diags: Vec::new(),
        by_pragma,
    };
    let forms = unit
        .construct_ids()
        .map(|c| OmpForm {
            construct: c,
            levels: an.by_construct[c.0 as usize]
                .iter()
                .map(|&e| cx.level(e))
                .collect(),
        })
        .collect();
    (forms, cx.diags)
}

struct Cx<'a> {
    unit: &'a Unit,
    an: &'a Analysis,
    opts: OmpOptions,
    diags: Vec<Diagnostic>,
    /// Every construct, by where its directive starts: the constructs inside a span without
    /// a scan of all of them.
    by_pragma: Vec<ConstructId>,
}

/// Values of `num_workers`/`vector_length` a loop inherits.
fn is_int_constant(text: &str, value: Option<i64>) -> bool {
    value.is_some()
        || crate::directive::Expr {
            text: text.to_string(),
            span: Span::default(),
        }
        .int_value()
        .is_some()
}

/// Conservative: anything that could call, assign or increment.
pub fn may_have_side_effects(expr: &str) -> bool {
    let b = expr.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        let prev = if i > 0 { b[i - 1] } else { b' ' };
        let next = b.get(i + 1).copied().unwrap_or(b' ');
        match c {
            b'(' => {
                // A call: an identifier (or `)`/`]`) right before the paren.
                let p = expr[..i].trim_end();
                if p.ends_with(|ch: char| {
                    ch.is_alphanumeric() || ch == '_' || ch == ')' || ch == ']'
                }) && !p.ends_with("sizeof")
                {
                    return true;
                }
            }
            b'=' if !matches!(prev, b'=' | b'!' | b'<' | b'>') && next != b'=' => return true,
            b'+' if next == b'+' => return true,
            b'-' if next == b'-' => return true,
            _ => {}
        }
    }
    false
}

impl<'a> Cx<'a> {
    /// The constructs whose directive starts inside `span`.
    fn constructs_in(&self, span: Span) -> impl Iterator<Item = &'a Construct> + '_ {
        let start = |c: &ConstructId| self.unit.construct(*c).pragma_span.start;
        let lo = self.by_pragma.partition_point(|c| start(c) < span.start);
        let hi = self.by_pragma.partition_point(|c| start(c) < span.end);
        self.by_pragma[lo..hi.max(lo)]
            .iter()
            .map(|&c| self.unit.construct(c))
    }

    fn directive(&self, e: EffId) -> &'a Directive {
        &self.unit.construct(self.an.eff(e).construct).directive
    }

    fn name(&self, v: VarId) -> &'a str {
        &self.unit.var(v).name
    }

    fn level(&mut self, e: EffId) -> Level {
        match self.an.eff(e).kind {
            EffKind::Parallel | EffKind::Serial | EffKind::Kernels => self.compute(e),
            EffKind::Loop => self.loop_level(e),
            EffKind::Data => self.data(e),
            EffKind::EnterData | EffKind::ExitData => self.enter_exit(e),
            EffKind::Update => self.update(e),
            EffKind::HostData => self.host_data(e),
            EffKind::Declare => self.declare(e),
            EffKind::Other => self.other(e),
        }
    }

    /// `map(mods, type: list)` with the modifiers the options allow.
    fn map_clause(
        &self,
        present: bool,
        hold: bool,
        no_alloc: bool,
        ty: &str,
        list: &str,
    ) -> String {
        let mut mods = Vec::new();
        if present && self.opts.present {
            mods.push("present");
        }
        if no_alloc && self.opts.no_alloc {
            mods.push("ompx_no_alloc");
        }
        if hold && self.opts.hold {
            mods.push("ompx_hold");
        }
        mods.push(ty);
        format!("map({}: {list})", mods.join(","))
    }

    /// The map clause for a DMA on a structured construct (`data`,
    /// compute constructs, block `declare`), per "Data Directives".
    fn structured_map(&mut self, dma: Dma, list: &str, span: Span) -> Option<String> {
        Some(match dma {
            Dma::Present => self.map_clause(true, true, false, "alloc", list),
            Dma::Copy => self.map_clause(false, true, false, "tofrom", list),
            Dma::Copyin => self.map_clause(false, true, false, "to", list),
            Dma::Copyout => self.map_clause(false, true, false, "from", list),
            Dma::Create => self.map_clause(false, true, false, "alloc", list),
            Dma::NoCreate => self.map_clause(false, true, true, "alloc", list),
            Dma::Deviceptr | Dma::Nomap => return None,
            Dma::Attach | Dma::Detach | Dma::Delete => {
                self.unmappable(
                    span,
                    dma.name(),
                    "OpenMP attaches pointers only as part of mapping their target",
                );
                return None;
            }
        })
    }

    fn unmappable(&mut self, span: Span, what: &str, why: &str) {
        self.diags.push(Diagnostic::error(
            span,
            format!("`{what}` has no OpenMP form: {why}"),
        ));
    }

    /// The explicit clauses of a DMA kind as `(clause text list, span)`,
    /// one entry per OpenACC clause, in source order.
    fn explicit_lists(&self, e: EffId) -> Vec<(ClauseKind, String, Span, Vec<DataModifier>)> {
        let d = self.directive(e);
        self.an
            .eff(e)
            .clauses
            .iter()
            .filter_map(|&c| {
                let clause = &d.clauses[c];
                match &clause.args {
                    ClauseArgs::Vars { modifiers, items } if !items.is_empty() => Some((
                        clause.kind,
                        items
                            .iter()
                            .map(|i| i.text.as_str())
                            .collect::<Vec<_>>()
                            .join(","),
                        clause.span,
                        modifiers.iter().map(|m| m.0).collect(),
                    )),
                    _ => None,
                }
            })
            .collect()
    }

    fn if_clause(&self, e: EffId) -> Option<String> {
        let d = self.directive(e);
        let mut conds = Vec::new();
        for &c in &self.an.eff(e).clauses {
            match (&d.clauses[c].kind, &d.clauses[c].args) {
                (ClauseKind::If, ClauseArgs::Expr(x)) => conds.push(x.text.clone()),
                // `self(c)` on a compute construct: run on the host when c.
                (ClauseKind::SelfClause, ClauseArgs::Expr(x)) => {
                    conds.push(format!("!({})", x.text))
                }
                (ClauseKind::SelfClause, ClauseArgs::None) => conds.push("0".to_string()),
                _ => {}
            }
        }
        match conds.len() {
            0 => None,
            1 => Some(format!("if({})", conds[0])),
            _ => Some(format!(
                "if({})",
                conds
                    .iter()
                    .map(|c| format!("({c})"))
                    .collect::<Vec<_>>()
                    .join(" && ")
            )),
        }
    }

    fn expr_arg(&self, e: EffId, kind: ClauseKind) -> Option<(String, Span)> {
        let d = self.directive(e);
        self.an.eff(e).clauses.iter().find_map(|&c| {
            let cl = &d.clauses[c];
            if cl.kind != kind {
                return None;
            }
            match &cl.args {
                ClauseArgs::Expr(x) => Some((x.text.clone(), x.span)),
                ClauseArgs::Exprs(xs) if !xs.is_empty() => Some((xs[0].text.clone(), xs[0].span)),
                _ => None,
            }
        })
    }

    fn const_value(&self, e: EffId, span: Span) -> Option<i64> {
        let c = self.unit.construct(self.an.eff(e).construct);
        c.consts
            .iter()
            .find(|(s, _)| *s == span)
            .and_then(|(_, v)| *v)
    }

    /// Name of the local `const` that carries a non-constant `num_workers`.
    fn num_workers_var(&self, compute: EffId) -> String {
        format!("__acc_num_workers_{}", self.an.eff(compute).construct.0)
    }

    fn compute(&mut self, p: EffId) -> Level {
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
            if let Some((v, span)) = self.expr_arg(p, ClauseKind::VectorLength) {
                if !is_int_constant(&v, self.const_value(p, span)) {
                    self.diags.push(
                        Diagnostic::warning(
                            span,
                            format!(
                                "`vector_length({v})` is not a constant expression and is ignored"
                            ),
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
        // Implicit attributes, made explicit as Clacc does.
        let mut imp_copy = Vec::new();
        let mut imp_present = Vec::new();
        let mut no_alloc = Vec::new();
        let mut device_ptrs = Vec::new();
        let mut scalar_shared = false;
        let mut shared = Vec::new();
        let mut firstprivate = Vec::new();
        let mut reductions: Vec<(ReductionOp, Vec<&str>)> = Vec::new();
        // What the region references (its statement, and the clauses of directives in it):
        // Clacc's `shared` lists only those, where a data clause alone names a variable the
        // region never uses.
        let construct = self.unit.construct(self.an.eff(p).construct);
        let referenced = |v: VarId| {
            construct.body.is_some_and(|b| {
                self.unit.refs_in(b).iter().any(|r| r.var == v)
                    || self.constructs_in(b).any(|c| {
                        b.contains(c.pragma_span)
                            && c.clause_vars.iter().flatten().any(|x| *x == Some(v))
                    })
            })
        };
        // On a combined construct, a variable `private` on its effective loop is the loop's
        // alone: the loop is the whole region. Clacc computes implicit attributes on the
        // effective directives, so it gives the variable no `firstprivate` on the effective
        // `omp target teams`. (acc's own lowering keeps the attribute: a gang reduction inside
        // may still need the variable at the compute level.)
        let loop_private = |v: VarId| {
            self.an.by_construct[self.an.eff(p).construct.0 as usize]
                .iter()
                .any(|&l| {
                    let l = self.an.eff(l);
                    l.kind == EffKind::Loop
                        && l.attr(v).is_some_and(|x| {
                            matches!(x.dsa, Some((Dsa::Private, Origin::Exp { .. })))
                        })
                })
        };
        for a in &self.an.eff(p).attrs {
            let name = self.name(a.var);
            if loop_private(a.var) && matches!(a.dsa, Some((Dsa::Firstprivate, Origin::Imp))) {
                continue;
            }
            match a.dma {
                Some((Dma::Copy, Origin::Imp)) => imp_copy.push(name),
                Some((Dma::Present, Origin::Imp)) => imp_present.push(name),
                Some((Dma::Nomap, Origin::Imp))
                    if matches!(a.dsa, Some((Dsa::Shared | Dsa::Reduction(_), _))) =>
                {
                    match self.enclosing(p, a.var) {
                        Some(Dma::NoCreate) if self.opts.no_alloc => no_alloc.push(name),
                        Some(Dma::Deviceptr) => device_ptrs.push(name),
                        _ if self.unit.var(a.var).shape.is_scalar() => scalar_shared = true,
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
                Some((Dsa::Shared, Origin::Imp)) if referenced(a.var) => shared.push(name),
                Some((Dsa::Shared, Origin::Imp)) => {}
                Some((Dsa::Firstprivate, Origin::Imp)) => firstprivate.push(name),
                Some((Dsa::Reduction(op), Origin::Imp)) => {
                    match reductions.iter_mut().find(|r| r.0 == op) {
                        Some(r) => r.1.push(name),
                        None => reductions.push((op, vec![name])),
                    }
                }
                _ => {}
            }
        }
        if !imp_copy.is_empty() {
            clauses.push(self.map_clause(false, true, false, "tofrom", &imp_copy.join(",")));
        }
        if !imp_present.is_empty() {
            clauses.push(self.map_clause(true, true, false, "alloc", &imp_present.join(",")));
        }
        if !no_alloc.is_empty() {
            clauses.push(format!("map(ompx_no_alloc,alloc: {})", no_alloc.join(",")));
        }
        if !device_ptrs.is_empty() {
            clauses.push(format!("is_device_ptr({})", device_ptrs.join(",")));
        }
        if scalar_shared {
            clauses.push("defaultmap(tofrom: scalar)".to_string());
        }
        // `omp target` (serial, kernels) takes neither `shared` nor
        // `reduction`: its one initial thread shares everything mapped, and
        // a reduction over one thread is the variable itself, mapped
        // `tofrom` by its imp copy.
        let teams = kind == EffKind::Parallel;
        if !shared.is_empty() && teams {
            clauses.push(format!("shared({})", shared.join(",")));
        }
        if !firstprivate.is_empty() {
            clauses.push(format!("firstprivate({})", firstprivate.join(",")));
        }
        for (op, names) in reductions.into_iter().filter(|_| teams) {
            clauses.push(format!("reduction({}: {})", op.symbol(), names.join(",")));
        }
        lv.pragmas.push(join_clauses(head, &clauses));
        if !lv.prelude.is_empty() {
            lv.wrap = Wrap::Statement;
        }
        lv
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

    fn loop_level(&mut self, l: EffId) -> Level {
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

    fn data(&mut self, e: EffId) -> Level {
        let mut lv = Level::new();
        let mut clauses = Vec::new();
        if let Some(c) = self.if_clause(e) {
            clauses.push(c);
        }
        for (kind, list, span, _) in self.explicit_lists(e) {
            if let Some(dma) = Dma::from_clause(kind) {
                if let Some(m) = self.structured_map(dma, &list, span) {
                    clauses.push(m);
                }
            }
        }
        if clauses.iter().any(|c| c.starts_with("map(")) {
            lv.pragmas.push(join_clauses("omp target data", &clauses));
        }
        lv
    }

    fn enter_exit(&mut self, e: EffId) -> Level {
        let enter = self.an.eff(e).kind == EffKind::EnterData;
        let finalize = self.has(e, ClauseKind::Finalize);
        let mut lv = Level::new();
        let mut clauses = Vec::new();
        let mut updates = Vec::new();
        let cond = self.if_clause(e);
        if let Some(c) = &cond {
            clauses.push(c.clone());
        }
        for (kind, list, span, mods) in self.explicit_lists(e) {
            if mods.contains(&DataModifier::Zero) {
                self.unmappable(
                    span,
                    "create(zero: …)",
                    "OpenMP cannot zero-fill a new mapping",
                );
                continue;
            }
            let ty = match kind {
                ClauseKind::Copyin => "to",
                ClauseKind::Create => "alloc",
                ClauseKind::Copyout if finalize => {
                    updates.push(format!("from({list})"));
                    "delete"
                }
                ClauseKind::Copyout => "from",
                ClauseKind::Delete if finalize => "delete",
                ClauseKind::Delete => "release",
                ClauseKind::Attach | ClauseKind::Detach => {
                    self.unmappable(
                        span,
                        kind.name(),
                        "OpenMP attaches pointers only as part of mapping their target",
                    );
                    continue;
                }
                _ => continue,
            };
            clauses.push(format!("map({ty}: {list})"));
        }
        if !updates.is_empty() {
            let mut u = cond.into_iter().collect::<Vec<_>>();
            u.extend(updates);
            lv.pragmas.push(join_clauses("omp target update", &u));
        }
        if clauses.iter().any(|c| c.starts_with("map(")) {
            let head = if enter {
                "omp target enter data"
            } else {
                "omp target exit data"
            };
            lv.pragmas.push(join_clauses(head, &clauses));
        }
        lv
    }

    fn has(&self, e: EffId, kind: ClauseKind) -> bool {
        let d = self.directive(e);
        self.an
            .eff(e)
            .clauses
            .iter()
            .any(|&c| d.clauses[c].kind == kind)
    }

    fn update(&mut self, e: EffId) -> Level {
        let mut lv = Level::new();
        let mut clauses = Vec::new();
        if let Some(c) = self.if_clause(e) {
            clauses.push(c);
        }
        let present = self.opts.update_present && !self.has(e, ClauseKind::IfPresent);
        let modifier = if present { "present: " } else { "" };
        for (kind, list, _, _) in self.explicit_lists(e) {
            match kind {
                ClauseKind::SelfClause | ClauseKind::Host => {
                    clauses.push(format!("from({modifier}{list})"))
                }
                ClauseKind::Device => clauses.push(format!("to({modifier}{list})")),
                _ => {}
            }
        }
        lv.pragmas.push(join_clauses("omp target update", &clauses));
        lv
    }

    fn host_data(&mut self, e: EffId) -> Level {
        let mut lv = Level::new();
        let mut clauses = Vec::new();
        if let Some(c) = self.if_clause(e) {
            clauses.push(c);
        }
        let d = self.directive(e);
        let c = self.unit.construct(self.an.eff(e).construct);
        let mut ptrs = Vec::new();
        let mut addrs = Vec::new();
        for &ci in &self.an.eff(e).clauses {
            if d.clauses[ci].kind != ClauseKind::UseDevice {
                continue;
            }
            for (ii, item) in clause_items(&d.clauses[ci].args).iter().enumerate() {
                let is_ptr = c.clause_vars[ci][ii]
                    .is_some_and(|v| self.unit.var(v).shape == crate::facts::Shape::Pointer);
                if is_ptr {
                    ptrs.push(item.text.as_str());
                } else {
                    addrs.push(item.text.as_str());
                }
            }
        }
        if !ptrs.is_empty() {
            clauses.push(format!("use_device_ptr({})", ptrs.join(",")));
        }
        if !addrs.is_empty() {
            clauses.push(format!("use_device_addr({})", addrs.join(",")));
        }
        lv.pragmas.push(join_clauses("omp target data", &clauses));
        lv
    }

    fn declare(&mut self, e: EffId) -> Level {
        let c = self.unit.construct(self.an.eff(e).construct);
        let mut lv = Level::new();
        match c.block_rest {
            Some(rest) => {
                let mut clauses = Vec::new();
                for (kind, list, span, _) in self.explicit_lists(e) {
                    let dma = match kind {
                        ClauseKind::DeviceResident => Some(Dma::Create),
                        ClauseKind::Link => Some(Dma::Create),
                        k => Dma::from_clause(k),
                    };
                    if let Some(m) = dma.and_then(|d| self.structured_map(d, &list, span)) {
                        clauses.push(m);
                    }
                }
                if !clauses.is_empty() {
                    lv.pragmas.push(join_clauses("omp target data", &clauses));
                    lv.wrap = Wrap::Rest(rest);
                }
            }
            None => {
                let mut to = Vec::new();
                let mut link = Vec::new();
                for (kind, list, _, _) in self.explicit_lists(e) {
                    match kind {
                        ClauseKind::Link => link.push(list),
                        ClauseKind::Deviceptr => {}
                        _ => to.push(list),
                    }
                }
                if !to.is_empty() {
                    lv.pragmas
                        .push(format!("omp declare target({})", to.join(",")));
                }
                if !link.is_empty() {
                    lv.pragmas
                        .push(format!("omp declare target link({})", link.join(",")));
                }
            }
        }
        lv
    }

    fn other(&mut self, e: EffId) -> Level {
        let d = self.directive(e);
        let c = self.unit.construct(self.an.eff(e).construct);
        let mut lv = Level::new();
        match d.kind {
            DirectiveKind::Atomic => {
                let kind = match &d.arg {
                    Some(DirectiveArg::Atomic(k, _)) => *k,
                    _ => AtomicKind::Update,
                };
                lv.pragmas.push(match kind {
                    AtomicKind::Read => "omp atomic read".into(),
                    AtomicKind::Write => "omp atomic write".into(),
                    AtomicKind::Update => "omp atomic update".into(),
                    AtomicKind::Capture => "omp atomic capture".into(),
                });
            }
            DirectiveKind::Wait => lv.pragmas.push("omp taskwait".into()),
            DirectiveKind::Cache => {}
            DirectiveKind::Routine => {
                let nohost = self.has(e, ClauseKind::Nohost);
                if let Some(bind) = d.clauses.iter().find(|cl| cl.kind == ClauseKind::Bind) {
                    self.unmappable(
                        bind.span,
                        "bind",
                        "OpenMP has no way to name a different device function",
                    );
                }
                let device_type = if nohost { " device_type(nohost)" } else { "" };
                match (&d.arg, &c.function) {
                    (Some(DirectiveArg::RoutineName(name)), _) => {
                        if nohost {
                            lv.pragmas
                                .push(format!("omp declare target to({}){device_type}", name.name));
                        } else {
                            lv.pragmas
                                .push(format!("omp declare target({})", name.name));
                        }
                    }
                    (_, Some((_, span))) => {
                        lv.pragmas.push(if nohost {
                            format!("omp begin declare target{device_type}")
                        } else {
                            "omp declare target".into()
                        });
                        lv.after = Some((*span, vec!["omp end declare target".into()]));
                    }
                    _ => {}
                }
            }
            DirectiveKind::Init | DirectiveKind::Shutdown | DirectiveKind::Set => {
                self.diags.push(
                    Diagnostic::warning(
                        d.name_span,
                        format!(
                            "`acc {}` has no OpenMP directive and is removed",
                            d.kind.name()
                        ),
                    )
                    .with_note(match d.kind {
                        DirectiveKind::Set => "call `omp_set_default_device` to choose a device",
                        _ => "the OpenMP runtime initializes and shuts down devices by itself",
                    }),
                );
            }
            _ => {}
        }
        lv
    }
}

fn join_clauses(head: &str, clauses: &[String]) -> String {
    let mut s = head.to_string();
    for c in clauses {
        s.push(' ');
        s.push_str(c);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::may_have_side_effects;

    #[test]
    fn side_effects_are_conservative() {
        assert!(!may_have_side_effects("n * 2"));
        assert!(!may_have_side_effects("n == 2 || m <= 3"));
        assert!(!may_have_side_effects("sizeof(double)"));
        assert!(may_have_side_effects("f(n)"));
        assert!(may_have_side_effects("n++"));
        assert!(may_have_side_effects("n = 3"));
        assert!(may_have_side_effects("n += 3"));
    }
}
