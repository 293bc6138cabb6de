//! What acc-engine decides for the function: it is laid out as the engine's facts
//! ([`crate::facts`]), checked as C would be, and planned; the plan says which loops are
//! partitioned and which slices get an implicit data clause.
//!
//! Owns the conversation with the engine (`check_unit`, `attrs::analyze`, `plan::plan`) and
//! turns its answers into the expansion's terms (`LoopSpec::partitioned`, `Ctx::plain`, the
//! implicit clause of a parameter). It must not emit code: [`super::data`] and
//! [`super::rewrite`] act on what it decided.
//!
//! Invariants: the engine's errors are reported only when the Rust side found none (they would
//! repeat them in OpenACC's terms), and then nothing is planned; construct `0` is the
//! function's own construct, loop `N` of `facts.loops` is construct `N + 1`.

use super::clauses::loop_clause;
use super::{Ctx, LoopSpec, Param, ParamKind};
use crate::cuda;
use crate::facts;
use crate::text::SpanTable;
use acc_engine::directive::Directive;
use acc_engine::plan::ConstructPlan;
use proc_macro2::Span;
use syn::{Expr, Stmt};

/// The engine's answers about the function.
pub(super) struct Decisions {
    facts: facts::Facts,
    /// The plans of the constructs, when the function had no errors.
    plans: Option<Vec<ConstructPlan>>,
}

/// The indices in `block.stmts` of its top-level `for` loops (a combined construct applies to
/// the one there must be).
pub(super) fn top_level_fors(block: &syn::Block) -> Vec<usize> {
    block
        .stmts
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s, Stmt::Expr(Expr::ForLoop(_), _)))
        .map(|(i, _)| i)
        .collect()
}

/// Lays out the function, asks the engine, and records its loop verdicts in `ctx` (the loop
/// directives, the `kernels` loops without one) and `spec` (a combined construct's loop).
pub(super) fn decide(
    ctx: &mut Ctx,
    d: &Directive,
    table: SpanTable,
    block: &mut syn::Block,
    combined_loop: Option<&[usize]>,
    spec: &mut LoopSpec,
    errors: &mut Vec<syn::Error>,
) -> Decisions {
    let combined_at = match combined_loop {
        Some(fors) if fors.len() == 1 => Some(fors[0]),
        _ => None,
    };
    let param_facts: Vec<facts::ParamFact> = ctx
        .params
        .iter()
        .map(|p| {
            let scalar = match ctx.outer.get(&p.name.to_string()) {
                Some(cuda::Outer::Slice(cuda::Elem::Ty(t), _) | cuda::Outer::Scalar(t)) => {
                    scalar_type(*t)
                }
                _ => None,
            };
            facts::ParamFact {
                name: p.name.clone(),
                slice: p.kind != ParamKind::Scalar,
                shared: p.kind == ParamKind::Shared,
                scalar,
            }
        })
        .collect();
    let facts = facts::build(
        d,
        table,
        Span::call_site(),
        &param_facts,
        block,
        combined_at,
        errors,
    );
    // Rust-side errors first: the engine's would repeat them in OpenACC's terms.
    let plans = if errors.is_empty() {
        let mut diags = acc_engine::check::check_unit(&facts.unit);
        let (an, more) = acc_engine::attrs::analyze(&facts.unit);
        diags.extend(more);
        for diag in diags.iter().filter(|d| d.is_error()) {
            let mut message = diag.message.clone();
            for note in &diag.notes {
                message = format!("{message}; {note}");
            }
            errors.push(syn::Error::new(facts.span(diag.span), message));
        }
        Some(acc_engine::plan::plan(&facts.unit, &an))
    } else {
        None
    };
    let kernel = plans.as_ref().and_then(|plans| match &plans[0] {
        ConstructPlan::Kernel(k) => Some(k),
        _ => None,
    });
    let verdict = |construct: u32| {
        kernel.is_some_and(|k| {
            k.loops
                .iter()
                .any(|l| l.construct.0 == construct && l.partition.is_parallelized())
        })
    };
    for (n, l) in facts.loops.iter().enumerate() {
        let mut s = LoopSpec::default();
        for cl in &l.directive.clauses {
            loop_clause(&mut s, cl, &l.table, errors);
        }
        s.partitioned = verdict(n as u32 + 1);
        ctx.loops.push(s);
    }
    ctx.plain = kernel.map_or_else(Vec::new, |k| {
        k.plain_loops.iter().map(|(_, v)| v.is_ok()).collect()
    });
    spec.partitioned = verdict(0);
    Decisions { facts, plans }
}

impl Decisions {
    /// The engine's implicit data clause of a parameter (`copy` of every slice the body uses,
    /// `present` under `default(present)`); a data construct has none.
    pub(super) fn implicit(&self, p: &Param) -> Option<&'static str> {
        let var = self.facts.param_var(&p.name)?;
        let data = match self.plans.as_ref().map(|plans| &plans[0]) {
            Some(ConstructPlan::Kernel(k)) => &k.data,
            Some(ConstructPlan::Region { data, .. }) => data,
            _ => return None,
        };
        data.iter()
            .find(|i| i.var == var && i.implicit)
            .and_then(|i| match i.action {
                acc_engine::plan::Action::Copy => Some("Copy"),
                acc_engine::plan::Action::Present => Some("Present"),
                _ => None,
            })
    }
}

/// The engine's arithmetic type of a subset type.
fn scalar_type(t: cuda::Ty) -> Option<acc_engine::facts::ScalarType> {
    use acc_engine::facts::ScalarType as S;
    Some(match t {
        cuda::Ty::I8 => S::I8,
        cuda::Ty::I16 => S::I16,
        cuda::Ty::I32 => S::I32,
        cuda::Ty::I64 | cuda::Ty::Isize => S::I64,
        cuda::Ty::U8 => S::U8,
        cuda::Ty::U16 => S::U16,
        cuda::Ty::U32 => S::U32,
        cuda::Ty::U64 | cuda::Ty::Usize => S::U64,
        cuda::Ty::F32 => S::F32,
        cuda::Ty::F64 => S::F64,
        cuda::Ty::Bool => S::Bool,
    })
}
