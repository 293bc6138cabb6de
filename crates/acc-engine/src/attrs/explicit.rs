//! Explicit data attributes: every *exp* DMA and DSA from a directive's
//! clauses, with the rules of "Basic Data Attributes" on them (duplicates,
//! conflicts between clauses on one directive and with predetermined
//! attributes, items that name one variable with different text).
//!
//! It runs first, before any implicit attribute exists: it must not assume
//! loop partitioning or implicit attributes.

use crate::diag::Diagnostic;
use crate::directive::{ClauseArgs, ClauseKind, Directive, VarItem};
use crate::facts::VarId;

use super::*;

impl Cx<'_> {
    /// Every *exp* DA from the clauses, with the checks on them.
    pub(super) fn explicit_attrs(&mut self) {
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
                        let name = &item.base.name;
                        let mut d = Diagnostic::error(
                            item.base.span,
                            format!("use of undeclared identifier `{name}`"),
                        );
                        // Declared inside the construct (a loop body's local): already each
                        // iteration's own, and not in scope at the directive.
                        let inside = c.body.and_then(|body| {
                            self.unit
                                .vars
                                .iter()
                                .find(|v| v.name == *name && body.contains(v.decl_span))
                        });
                        if let Some(v) = inside {
                            d = d
                                .with_secondary(
                                    v.decl_span,
                                    format!("`{name}` is declared here, inside the construct"),
                                )
                                .with_note(
                                    "a variable declared inside the construct is private to \
                                     each iteration already: remove it from the clause",
                                );
                        }
                        self.diags.push(d);
                        continue;
                    };
                    let origin = Origin::Exp {
                        clause: ci,
                        item: ii,
                    };
                    self.check_explicit(e, clause.kind, item, var);
                    if let ClauseArgs::Reduction { op, .. } = &clause.args {
                        self.check_reduction_type(*op, item, var);
                    }
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
                    // Keep the first of conflicting clauses; the conflict is an error
                    // already. Two that amount to one (`copyin(x) copyout(x)`) make it.
                    if let Some(d) = dma {
                        match slot
                            .dma
                            .and_then(|(prev, o)| prev.merged(d).map(|m| (m, o)))
                        {
                            Some(merged) => slot.dma = Some(merged),
                            None => {
                                slot.dma.get_or_insert((d, origin));
                            }
                        }
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

    /// OpenACC 3.3 2.5.15's operators by type: `&`, `|` and `^` on integers, `max` and `min`
    /// on real types; the others on every arithmetic type. Checked where the front end knows
    /// the type of what the item reduces (a whole scalar, or the elements of a subarray).
    fn check_reduction_type(&mut self, op: ReductionOp, item: &VarItem, var: VarId) {
        use crate::facts::{ScalarType, Shape};
        let v = self.unit.var(var);
        let ty = match (v.shape, item.accessors.is_empty()) {
            (Shape::Scalar, true) => v.scalar,
            (Shape::Array | Shape::Pointer, false) if item.is_subarray() => v.elem_scalar,
            _ => None,
        };
        let Some(ty) = ty else { return };
        let complex = matches!(ty, ScalarType::C32 | ScalarType::C64);
        let wants = match op {
            ReductionOp::BitAnd | ReductionOp::BitOr | ReductionOp::BitXor if !ty.is_integer() => {
                "an integer"
            }
            ReductionOp::Max | ReductionOp::Min if complex => "a real (not complex)",
            _ => return,
        };
        self.diags.push(
            Diagnostic::error(
                item.span,
                format!(
                    "`{}` reduction needs {wants} variable, and `{}` is not one",
                    op.symbol(),
                    item.text
                ),
            )
            .with_secondary(v.decl_span, "declared here")
            .with_note("OpenACC 3.3 2.5.15 lists the types each operator applies to"),
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
        // A pointer's section names its elements: `double *const c` (the pointer is const)
        // has writable ones, `const double *c` has not.
        let const_target = if v.shape == crate::facts::Shape::Pointer && item.is_subarray() {
            let before_name = &v.decl_text[..v.decl_name.start.min(v.decl_text.len())];
            before_name
                .rfind('*')
                .is_some_and(|star| before_name[..star].split_whitespace().any(|w| w == "const"))
        } else {
            v.is_const
        };
        if const_target && const_forbidden && !item.is_member() {
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
}

fn clause_display(d: &Directive, kind: ClauseKind) -> String {
    match kind {
        ClauseKind::SelfClause | ClauseKind::Host | ClauseKind::Device => {
            format!("{} {}", d.kind.name(), kind.name())
        }
        _ => kind.name().to_string(),
    }
}
