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
//!   disappears; `init`, `shutdown`, `set` have no OpenMP directive and
//!   become the OpenACC routines the specification defines them by
//!   (`acc_init`, `acc_shutdown`, `acc_set_device_type`/`_num`,
//!   `acc_set_default_async`, under their `if`), as in acc's own lowering;
//!   an OpenACC library over OpenMP (`acc2omp.c`) provides them.
//! - `tile(a, b)` → `collapse(2)` with a warning: OpenMP's `tile` may not be
//!   nested in `simd` (clang rejects it), and collapsing keeps every tiled
//!   loop partitioned.
//! - `deviceptr` on a compute construct → `is_device_ptr`; on `data`, the
//!   nested compute constructs that use the pointer get `is_device_ptr`.
//! - `exit data copyout(…) finalize` → `omp target update from(…)`
//!   followed by `omp target exit data map(delete: …)`.
//!
//! Layout: this file holds the options, the result types ([`OmpForm`],
//! [`Level`]), the driver ([`to_omp`]) and the clause helpers every mapping
//! uses; `compute` maps compute constructs and loops (with the implicit
//! attributes made explicit as Clacc does), `data` the data constructs,
//! `update`, `host_data`, `declare` and the other directives.

mod compute;
mod data;

use crate::attrs::{Analysis, Dma, EffId, EffKind};
use crate::diag::Diagnostic;
use crate::directive::{ClauseArgs, ClauseKind, DataModifier, Directive};
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

    fn has(&self, e: EffId, kind: ClauseKind) -> bool {
        let d = self.directive(e);
        self.an
            .eff(e)
            .clauses
            .iter()
            .any(|&c| d.clauses[c].kind == kind)
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
