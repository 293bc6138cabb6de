//! The offload plan: the data attributes of [`crate::attrs`] lowered for
//! our runtime rather than for OpenMP. It says, per construct, which data
//! actions happen on entry and exit (structured and dynamic reference
//! counts kept apart, which OpenMP cannot express), how each variable
//! reaches a kernel, which reductions the runtime combines across gangs, and
//! how each loop is partitioned. Both front ends and every device read the
//! same plan; `Display` prints it, which is what `acc cc --info` shows.

use std::fmt;

use crate::attrs::{clause_items, Analysis, Dma, Dsa, EffId, EffKind, Origin, Partition};
use crate::directive::{Accessor, ClauseArgs, ClauseKind, DataModifier, ReductionOp, VarItem};
use crate::facts::{ConstructId, Shape, Unit, VarId};

mod descriptive;
mod members;

use descriptive::{
    add_clause_less_reductions, clause_less_reductions, descriptive_auto, descriptive_vector,
    gang_loops_inside_sequential_loops,
};

/// A data action of the runtime, one per list item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Copy,
    Copyin,
    Copyout,
    Create,
    NoCreate,
    Present,
    Deviceptr,
    Attach,
    Detach,
    Delete,
    UpdateSelf,
    UpdateDevice,
}

impl Action {
    pub fn name(self) -> &'static str {
        match self {
            Action::Copy => "copy",
            Action::Copyin => "copyin",
            Action::Copyout => "copyout",
            Action::Create => "create",
            Action::NoCreate => "no_create",
            Action::Present => "present",
            Action::Deviceptr => "deviceptr",
            Action::Attach => "attach",
            Action::Detach => "detach",
            Action::Delete => "delete",
            Action::UpdateSelf => "update self",
            Action::UpdateDevice => "update device",
        }
    }
}

/// One item of a data clause, explicit or implicit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataItem {
    pub action: Action,
    pub var: VarId,
    /// The list item as written (`a[0:n]`), or the variable's name for an
    /// implicit one.
    pub item: Option<VarItem>,
    pub zero: bool,
    pub finalize: bool,
    pub if_present: bool,
    pub implicit: bool,
}

/// How a variable reaches the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// The device copy of the variable (shared: arrays, aggregates, mapped
    /// scalars).
    Mapped,
    /// A pointer's value, translated to the device address of its target
    /// when that is present (OpenMP 5.1's zero-length array section), else
    /// unchanged.
    TranslatedPointer,
    /// A pointer that already holds a device address (`deviceptr`).
    Deviceptr,
    /// A copy of the value for each gang (`firstprivate`).
    Value,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    pub var: VarId,
    pub pass: Pass,
}

/// A reduction across gangs, combined by the runtime.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GangReduction {
    pub var: VarId,
    pub op: ReductionOp,
    /// The list item as written, when it names part of an array
    /// (`h[0:16]`); `None` for a whole variable.
    pub item: Option<VarItem>,
    /// A reduction no clause names: the `kernels` loop (its statement) that the dependence
    /// test found reducing the variable ([`descriptive::clause_less_reductions`]).
    pub implicit_in: Option<crate::Span>,
}

/// How one loop construct inside a kernel runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopPlan {
    pub construct: ConstructId,
    pub eff: EffId,
    pub partition: Partition,
    /// Loops folded into one iteration space (`collapse`, `tile`).
    pub depth: usize,
    /// Variables private to each iteration (explicit `private`).
    pub private: Vec<VarId>,
    /// For an `auto` loop (every loop in `kernels` without `independent`):
    /// the dependence test's verdict, which decided the partitioning.
    pub auto: Option<Result<(), String>>,
    /// The loop had no level of parallelism and runs vector-partitioned by
    /// [`descriptive_vector`].
    pub implicit_vector: bool,
    /// Why [`descriptive_vector`] left such a loop sequential, for `--info`.
    pub kept_sequential: Option<&'static str>,
}

/// A compute construct lowered to one kernel launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelPlan {
    pub construct: ConstructId,
    pub kind: EffKind,
    /// Structured data actions around the launch (explicit clauses, then
    /// the implicit ones).
    pub data: Vec<DataItem>,
    pub params: Vec<Param>,
    pub private: Vec<VarId>,
    pub reductions: Vec<GangReduction>,
    pub loops: Vec<LoopPlan>,
    /// Gang-partitioned loops exist, so the launch uses many gangs.
    pub gang_partitioned: bool,
    /// For `kernels`: its loops without a directive (index into the
    /// construct's `plain_loops`) and whether the dependence test proved
    /// each independent (else why not).
    pub plain_loops: Vec<(usize, Result<(), String>)>,
}

/// The plan of one construct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConstructPlan {
    Kernel(KernelPlan),
    /// `data`, `host_data` and block-scope `declare`: structured actions
    /// around a statement.
    Region {
        construct: ConstructId,
        data: Vec<DataItem>,
    },
    /// `enter data`, `exit data`, `update`.
    Dynamic {
        construct: ConstructId,
        kind: EffKind,
        data: Vec<DataItem>,
    },
    /// A loop inside a kernel (planned with its kernel) or a directive
    /// with nothing to plan.
    None,
}

/// Plans every construct of the unit.
pub fn plan(unit: &Unit, an: &Analysis) -> Vec<ConstructPlan> {
    unit.construct_ids()
        .map(|c| {
            let outer = an.outermost(c);
            match an.eff(outer).kind {
                k if k.is_compute() => ConstructPlan::Kernel(kernel(unit, an, outer)),
                EffKind::Data | EffKind::HostData => ConstructPlan::Region {
                    construct: c,
                    data: explicit_data(unit, an, outer),
                },
                EffKind::Declare if unit.construct(c).block_rest.is_some() => {
                    ConstructPlan::Region {
                        construct: c,
                        data: explicit_data(unit, an, outer),
                    }
                }
                k @ (EffKind::EnterData
                | EffKind::ExitData
                | EffKind::Update
                | EffKind::Declare) => ConstructPlan::Dynamic {
                    construct: c,
                    kind: k,
                    data: explicit_data(unit, an, outer),
                },
                _ => ConstructPlan::None,
            }
        })
        .collect()
}

fn action_of(kind: ClauseKind, eff: EffKind) -> Option<Action> {
    Some(match kind {
        ClauseKind::Copy => Action::Copy,
        ClauseKind::Copyin => Action::Copyin,
        ClauseKind::Copyout => Action::Copyout,
        ClauseKind::Create | ClauseKind::DeviceResident => Action::Create,
        ClauseKind::NoCreate => Action::NoCreate,
        ClauseKind::Present => Action::Present,
        ClauseKind::Deviceptr => Action::Deviceptr,
        ClauseKind::Attach => Action::Attach,
        ClauseKind::Detach => Action::Detach,
        ClauseKind::Delete => Action::Delete,
        // `declare link`: the device copy exists only while a data clause maps the variable
        // (OpenACC 3.3 2.13.3); the directive itself allocates nothing.
        ClauseKind::SelfClause | ClauseKind::Host if eff == EffKind::Update => Action::UpdateSelf,
        ClauseKind::Device if eff == EffKind::Update => Action::UpdateDevice,
        _ => return None,
    })
}

fn explicit_data(unit: &Unit, an: &Analysis, e: EffId) -> Vec<DataItem> {
    let eff = an.eff(e);
    let c = unit.construct(eff.construct);
    let d = &c.directive;
    let finalize = d.has(ClauseKind::Finalize);
    let if_present = d.has(ClauseKind::IfPresent);
    let mut out = Vec::new();
    for &ci in &eff.clauses {
        let clause = &d.clauses[ci];
        let Some(action) = action_of(clause.kind, eff.kind) else {
            continue;
        };
        let zero = matches!(&clause.args, ClauseArgs::Vars { modifiers, .. }
            if modifiers.iter().any(|m| m.0 == DataModifier::Zero));
        for (ii, item) in clause_items(&clause.args).iter().enumerate() {
            let Some(Some(var)) = c.clause_vars.get(ci).and_then(|v| v.get(ii)) else {
                continue;
            };
            // The same item in two data clauses that amount to one (`copyin(x) copyout(x)`:
            // `copy`; `create(x) copyout(x)`: `copyout`), which acc's rules take.
            if let Some(earlier) = out.iter_mut().find(|d: &&mut DataItem| {
                d.var == *var && d.item.as_ref().is_some_and(|i| i.key() == item.key())
            }) {
                if let Some(action) = merged_action(earlier.action, action) {
                    earlier.action = action;
                    earlier.zero |= zero;
                    continue;
                }
            }
            out.push(DataItem {
                action,
                var: *var,
                item: Some(item.clone()),
                zero,
                finalize,
                if_present,
                implicit: false,
            });
        }
    }
    out
}

/// The one action two data clauses on the same item amount to ([`Dma::merged`]).
fn merged_action(a: Action, b: Action) -> Option<Action> {
    let dma = |x: Action| match x {
        Action::Copy => Some(Dma::Copy),
        Action::Copyin => Some(Dma::Copyin),
        Action::Copyout => Some(Dma::Copyout),
        Action::Create => Some(Dma::Create),
        _ => None,
    };
    Some(match dma(a)?.merged(dma(b)?)? {
        Dma::Copyin => Action::Copyin,
        Dma::Copyout => Action::Copyout,
        _ => Action::Copy,
    })
}

/// A struct or union that a compute construct's clauses name only through members
/// (`copy(v.a, v.b[:4])`) has no data clause of its own, so it gets the implicit one of an
/// aggregate (OpenACC 3.3 2.6.2: `copy`, or `present` under `default(present)`), and the
/// kernel reaches the whole variable through it. It comes first: the members are then parts
/// of present data (counted, not mapped apart, which would overlap the whole), and a member
/// pointer's section attaches to the device copy of the variable.
fn whole_aggregates_first(unit: &Unit, an: &Analysis, p: EffId, data: &mut Vec<DataItem>) {
    let default_present = has_default_present(unit, an, p);
    let mut wholes: Vec<DataItem> = Vec::new();
    for item in data.iter() {
        let v = item.var;
        if unit.var(v).shape != Shape::Aggregate || wholes.iter().any(|w| w.var == v) {
            continue;
        }
        let only_members = data
            .iter()
            .filter(|x| x.var == v)
            .all(|x| x.item.as_ref().is_some_and(|it| it.is_member()));
        if only_members {
            wholes.push(implicit_aggregate(v, default_present));
        }
    }
    data.splice(0..0, wholes);
}

/// Whether compute construct `p` has `default(present)`.
fn has_default_present(unit: &Unit, an: &Analysis, p: EffId) -> bool {
    unit.construct(an.eff(p).construct)
        .directive
        .clauses
        .iter()
        .any(|c| {
            matches!(
                c.args,
                ClauseArgs::Default(crate::directive::DefaultKind::Present, _)
            )
        })
}

/// The implicit data clause of an aggregate named in no visible clause (OpenACC 3.3 2.6.2):
/// `present` under `default(present)`, else `copy`.
fn implicit_aggregate(v: VarId, default_present: bool) -> DataItem {
    DataItem {
        action: if default_present {
            Action::Present
        } else {
            Action::Copy
        },
        var: v,
        item: None,
        zero: false,
        finalize: false,
        if_present: false,
        implicit: true,
    }
}

/// A struct that enclosing data constructs name only through members (`data copy(s.a[0:n])`,
/// then `s.a[i]` in a `parallel loop`) is not itself in a visible data clause, so OpenACC 3.3
/// 2.6.2 gives it the implicit `copy` of an aggregate (`present` under `default(present)`) at
/// the compute construct. The attributes say `nomap` instead, since Clacc's rule lets any
/// enclosing data attribute of the variable suppress the implicit one; `acc translate` keeps
/// that (OpenMP maps the struct implicitly anyway), while the compile path follows 2.6.2 here,
/// where it would otherwise ask the runtime for a struct that nothing put on the device.
///
/// The copy is shallow (2.6.4): its pointer members hold host addresses. The spec attaches a
/// member pointer only where a data clause names it while the struct is present, which the
/// enclosing construct could not do; every kernel that reads `s.a[i]` under `copy(s.a[0:n])`
/// means the device copy of that data, so each enclosing member item is repeated here as an
/// implicit `no_create`: counted while present, and its member pointer attached to the struct's
/// device copy for the construct (detached before the copy goes back).
fn aggregates_mapped_by_members(unit: &Unit, an: &Analysis, p: EffId, data: &mut Vec<DataItem>) {
    let eff = an.eff(p);
    let default_present = has_default_present(unit, an, p);
    let mut wholes = Vec::new();
    let mut members = Vec::new();
    for a in &eff.attrs {
        let v = a.var;
        if unit.var(v).shape != Shape::Aggregate
            || a.dma != Some((Dma::Nomap, Origin::Imp))
            || !matches!(a.dsa, Some((Dsa::Shared, _)) | None)
            || data.iter().any(|x| x.var == v)
        {
            continue;
        }
        let enclosing: Vec<DataItem> = an
            .eff_ancestors(p)
            .filter(|&e| an.eff(e).kind == EffKind::Data)
            .flat_map(|e| explicit_data(unit, an, e))
            .filter(|x| x.var == v)
            .collect();
        if enclosing.is_empty()
            || !enclosing
                .iter()
                .all(|x| x.item.as_ref().is_some_and(|it| it.is_member()))
        {
            continue;
        }
        wholes.push(implicit_aggregate(v, default_present));
        for item in enclosing {
            if members.iter().any(|m: &DataItem| m.item == item.item) {
                continue;
            }
            // `present(s.x)` naming a pointer member alone asks for the data it points to,
            // and maps nothing of the struct (the runtime's `MEMBER_TARGET`): the kernel's copy
            // of the struct gets the member attached instead.
            let alone = members::presents_target(unit, &item);
            members.push(DataItem {
                action: if alone {
                    Action::Attach
                } else {
                    Action::NoCreate
                },
                implicit: true,
                zero: false,
                finalize: false,
                if_present: false,
                ..item
            });
        }
    }
    wholes.extend(members);
    data.splice(0..0, wholes);
}

fn kernel(unit: &Unit, an: &Analysis, p: EffId) -> KernelPlan {
    let eff = an.eff(p);
    let mut data = explicit_data(unit, an, p);
    whole_aggregates_first(unit, an, p, &mut data);
    aggregates_mapped_by_members(unit, an, p, &mut data);
    let mut params = Vec::new();
    let mut private = Vec::new();
    let mut reductions = Vec::new();
    for a in &eff.attrs {
        let var = unit.var(a.var);
        // A scalar a `kernels` region only reads: its implicit `copy` (OpenACC 3.3 2.6.2) can
        // change nothing the program sees, so the kernel gets its value as the launch is made,
        // as `firstprivate` would give it (what a host write after an `async` launch, or a
        // device copy per scalar, would otherwise make observable or costly).
        let read_only_scalar = eff.kind == EffKind::Kernels
            && var.shape == Shape::Scalar
            && matches!(a.dma, Some((Dma::Copy, Origin::Imp)))
            && matches!(a.dsa, Some((Dsa::Shared, _)) | None)
            && unit.construct(eff.construct).read_only.contains(&a.var);
        if read_only_scalar {
            params.push(Param {
                var: a.var,
                pass: Pass::Value,
            });
            continue;
        }
        if let Some((dma, Origin::Imp)) = a.dma {
            let action = match dma {
                // The copy a reduction implies (OpenACC 3.3 2.5.15) carries the result back
                // through the device copy only when the variable is present already (an
                // enclosing region or `enter data` mapped it, and the result must land there).
                // Otherwise nothing on the device can see that copy — every reference in the
                // construct is to a private copy — so creating it, copying it in and out and
                // deleting it would be four transfers with no observable effect: the runtime
                // combines the partial results into the host variable instead. `no_create`
                // says exactly that: counted if present, else nothing.
                Dma::Copy if matches!(a.dsa, Some((Dsa::Reduction(_), _))) => {
                    Some(Action::NoCreate)
                }
                Dma::Copy => Some(Action::Copy),
                Dma::Present => Some(Action::Present),
                _ => None,
            };
            if let Some(action) = action {
                data.push(DataItem {
                    action,
                    var: a.var,
                    item: None,
                    zero: false,
                    finalize: false,
                    if_present: false,
                    implicit: true,
                });
            }
        }
        let deviceptr =
            matches!(a.dma, Some((Dma::Deviceptr, _))) || enclosing_deviceptr(an, p, a.var);
        let pointer = var.shape == Shape::Pointer;
        // A pointer the construct assigns before it reads it needs no device address: its
        // value as the construct starts is never used.
        let explicit_dma = a.dma.is_some_and(|(_, origin)| origin.is_exp());
        // A pointer that is a loop construct's control variable there (`for (p = a; …)`) is
        // each iteration's own (predetermined private, OpenACC 3.3 2.6.1): its value as the
        // construct starts is never used either.
        let loop_control = || {
            unit.constructs.iter().enumerate().any(|(i, c)| {
                let inside = ConstructId(i as u32) == eff.construct
                    || unit
                        .construct(eff.construct)
                        .body
                        .is_some_and(|b| b.contains(c.pragma_span));
                inside && c.loops.iter().any(|l| l.control == Some(a.var))
            })
        };
        let entry_unread = pointer
            && !explicit_dma
            && (unit.construct(eff.construct).entry_unread.contains(&a.var) || loop_control());
        match a.dsa {
            Some((Dsa::Private, _)) => private.push(a.var),
            Some((Dsa::Reduction(op), _)) => reductions.push(GangReduction {
                var: a.var,
                op,
                item: reduction_item(unit, an, p, a.var),
                implicit_in: None,
            }),
            Some((Dsa::Firstprivate, origin)) => {
                let pass = if deviceptr {
                    Pass::Deviceptr
                } else if pointer && !origin.is_exp() && !entry_unread {
                    Pass::TranslatedPointer
                } else {
                    Pass::Value
                };
                params.push(Param { var: a.var, pass });
            }
            Some((Dsa::Shared, _)) | None => {
                let pass = if deviceptr {
                    Pass::Deviceptr
                } else if entry_unread {
                    Pass::Value
                } else if pointer && !names_whole(unit, an, p, a.var) {
                    Pass::TranslatedPointer
                } else {
                    Pass::Mapped
                };
                params.push(Param { var: a.var, pass });
            }
        }
    }
    let loops: Vec<LoopPlan> = an
        .effs
        .iter()
        .enumerate()
        .filter(|(_, l)| l.kind == EffKind::Loop && l.compute == Some(p))
        .map(|(i, l)| {
            let c = unit.construct(l.construct);
            let depth = c.loops.len().max(1);
            LoopPlan {
                construct: l.construct,
                eff: EffId(i as u32),
                partition: l.partition,
                depth,
                private: loop_privates(unit, an, p, l, l.partition.is_parallelized()),
                auto: None,
                implicit_vector: false,
                kept_sequential: None,
            }
        })
        .collect();
    let mut implicit: Vec<(VarId, ReductionOp, crate::Span)> = Vec::new();
    let plain_loops: Vec<(usize, Result<(), String>)> = unit
        .construct(eff.construct)
        .plain_loops
        .iter()
        .enumerate()
        .map(|(i, (_, l))| {
            let verdict = match (&l.deps, &l.header) {
                (_, Some(h)) if l.control_live_after => Err(format!(
                    "its variable `{}` is used after the loop, which in parallel would leave \
                     it unset",
                    h.var
                )),
                (Some(d), Some(_)) => {
                    let found = clause_less_reductions(unit, an, p, l.span, d);
                    let mut allowed = unit.nested_counters(l.span);
                    allowed.extend(&d.iteration_locals);
                    allowed.extend(found.iter().map(|r| r.0));
                    let verdict = crate::dependence::independent(unit, d, &allowed);
                    if verdict.is_ok() {
                        implicit.extend(found.into_iter().map(|(v, op)| (v, op, l.span)));
                    }
                    verdict
                }
                _ => Err("the loop is not in canonical form".to_string()),
            };
            (i, verdict)
        })
        .collect();
    let mut loops = loops;
    if eff.kind == EffKind::Kernels {
        implicit.extend(descriptive_auto(unit, an, p, &mut loops));
        gang_loops_inside_sequential_loops(unit, an, p, &mut loops);
    }
    add_clause_less_reductions(&implicit, &mut reductions, &mut params, &mut data);
    if eff.kind != EffKind::Serial {
        descriptive_vector(unit, an, p, eff.kind, &plain_loops, &mut loops);
    }
    let gang_partitioned = loops.iter().any(|l| l.partition.gang.is_some());
    if gang_partitioned {
        redundant_loops_own_their_counters(unit, an, p, &mut loops);
    }
    members::attach_members_of_implicit_copies(unit, unit.construct(eff.construct), &mut data);
    KernelPlan {
        construct: eff.construct,
        kind: eff.kind,
        data,
        params,
        private,
        reductions,
        loops,
        gang_partitioned,
        plain_loops,
    }
}

/// A loop's own private copies: its explicit `private` variables, and the control variables
/// of a loop whose iterations run in parallel (predetermined private, OpenACC 3.3 2.6.1) when
/// the kernel would otherwise reach them through the construct's one copy — a variable
/// declared before the construct (in `kernels`, a scalar's implicit `copy`) or inside the
/// region but outside this kernel (a `kernels` region's later loop). Every iteration then
/// writes its own `i`, never a shared one. A sequential loop keeps the construct's copy (no
/// race, and the last value stays where OpenACC's `kernels` copy puts it).
fn loop_privates(
    unit: &Unit,
    an: &Analysis,
    compute: EffId,
    l: &crate::attrs::Eff,
    parallel: bool,
) -> Vec<VarId> {
    let mut private: Vec<VarId> = l
        .attrs
        .iter()
        .filter(|x| matches!(x.dsa, Some((Dsa::Private, Origin::Exp { .. }))))
        .map(|x| x.var)
        .collect();
    if !parallel {
        return private;
    }
    let by_value = |v: VarId| {
        an.eff(compute)
            .attrs
            .iter()
            .any(|a| a.var == v && matches!(a.dsa, Some((Dsa::Private | Dsa::Firstprivate, _))))
    };
    let c = unit.construct(l.construct);
    for lf in &c.loops {
        let Some(v) = lf.control else { continue };
        let predetermined = l
            .attrs
            .iter()
            .any(|x| x.var == v && matches!(x.dsa, Some((Dsa::Private, Origin::Pre))));
        if predetermined && !lf.declared_in_init && !by_value(v) && !private.contains(&v) {
            private.push(v);
        }
    }
    // The counters of loops nested in it, and the scalars each iteration assigns before
    // reading (`DepFacts::iteration_locals`): each iteration's own, as every compiler that
    // parallelizes the loop makes them (one shared `k` would be written by every chunk).
    let locals = c
        .loops
        .first()
        .and_then(|f| f.deps.as_ref())
        .map_or(&[][..], |d| &d.iteration_locals[..]);
    if let Some(body) = c.body {
        for v in unit
            .nested_counters(body)
            .into_iter()
            .chain(locals.iter().copied())
        {
            if !by_value(v) && !private.contains(&v) {
                private.push(v);
            }
        }
    }
    private
}

/// A sequential loop that no parallel loop encloses, in a kernel with gang loops, runs in
/// every gang (and on every thread a gang spreads its loops over): its control variable, which
/// OpenACC 3.3 2.6.1 makes private to the loop, must be each one's own, not the construct's
/// one copy that all of them would step together (LQCD's `unitarize_conf`: a `loop
/// independent` with no level in `kernels`, around a gang loop, skipped iterations on a GPU).
fn redundant_loops_own_their_counters(
    unit: &Unit,
    an: &Analysis,
    compute: EffId,
    loops: &mut [LoopPlan],
) {
    let parallelized: Vec<EffId> = loops
        .iter()
        .filter(|l| l.partition.is_parallelized())
        .map(|l| l.eff)
        .collect();
    for l in loops.iter_mut().filter(|l| !l.partition.is_parallelized()) {
        let inside_parallel = an
            .eff_ancestors(l.eff)
            .take_while(|&a| an.eff(a).kind == EffKind::Loop)
            .any(|a| parallelized.contains(&a));
        if !inside_parallel {
            for v in loop_privates(unit, an, compute, an.eff(l.eff), true) {
                if !l.private.contains(&v) {
                    l.private.push(v);
                }
            }
        }
    }
}

/// Is the variable named whole (not as a subarray) in an explicit data
/// clause of the compute construct? A pointer named whole is itself the
/// data (`copy(p)` copies the pointer); a pointer named with a subarray
/// (`copy(p[0:n])`) maps its target, and the kernel uses the translated
/// pointer.
fn names_whole(unit: &Unit, an: &Analysis, p: EffId, var: VarId) -> bool {
    explicit_data(unit, an, p)
        .iter()
        .any(|d| d.var == var && d.item.as_ref().is_some_and(|i| i.accessors.is_empty()))
}

fn enclosing_deviceptr(an: &Analysis, p: EffId, var: VarId) -> bool {
    an.eff_ancestors(p).any(|a| {
        let e = an.eff(a);
        matches!(e.kind, EffKind::Data | EffKind::Declare)
            && e.attr(var)
                .is_some_and(|x| matches!(x.dma, Some((Dma::Deviceptr, _))))
    })
}

/// A plan printed with variable names, for `--info`.
pub struct Info<'a> {
    pub unit: &'a Unit,
    pub plan: &'a ConstructPlan,
}

impl fmt::Display for Info<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |v: VarId| self.unit.var(v).name.as_str();
        // The `copy` a reduction implies (OpenACC 3.3 2.5.15) is carried out as `no_create`
        // (see `kernel`), but it is the `copy` the program gets: say that.
        let reduced = |v: VarId| match self.plan {
            ConstructPlan::Kernel(k) => k.reductions.iter().any(|r| r.var == v),
            _ => false,
        };
        let items = |data: &[DataItem]| {
            data.iter()
                .map(|d| {
                    let text = d
                        .item
                        .as_ref()
                        .map_or_else(|| name(d.var).to_string(), |i| i.text.clone());
                    let action = if d.implicit && d.action == Action::NoCreate && reduced(d.var) {
                        Action::Copy.name()
                    } else {
                        d.action.name()
                    };
                    format!(
                        "{}{action}({text})",
                        if d.implicit { "implicit " } else { "" },
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self.plan {
            ConstructPlan::Kernel(k) => {
                let kind = match k.kind {
                    EffKind::Serial => "serial",
                    EffKind::Kernels => "kernels",
                    _ => "parallel",
                };
                write!(f, "{kind} region: one kernel")?;
                if !k.data.is_empty() {
                    write!(f, "; data: {}", items(&k.data))?;
                }
                for l in &k.loops {
                    let p = &l.partition;
                    let mut levels = Vec::new();
                    if let Some(g) = p.gang {
                        levels.push(if g == crate::attrs::GangOrigin::Imp {
                            "gang (implicit)"
                        } else {
                            "gang"
                        });
                    }
                    if p.worker {
                        levels.push("worker");
                    }
                    if p.vector {
                        levels.push(if l.implicit_vector {
                            "vector (implicit: its iterations are independent)"
                        } else {
                            "vector"
                        });
                    }
                    if p.seq {
                        write!(f, "; loop: sequential")?;
                        if let Some(Err(why)) = &l.auto {
                            write!(f, " (not parallelized: {why})")?;
                        } else if let Some(why) = l.kept_sequential {
                            write!(f, " (in each gang: {why})")?;
                        }
                    } else {
                        write!(f, "; loop: {}", levels.join(" "))?;
                    }
                    if l.depth > 1 {
                        write!(f, " over {} collapsed loops", l.depth)?;
                    }
                }
                for (_, verdict) in &k.plain_loops {
                    match verdict {
                        Ok(()) => write!(f, "; loop: gang (independent by the dependence test)")?,
                        Err(why) => write!(f, "; loop: sequential (not parallelized: {why})")?,
                    }
                }
                for r in &k.reductions {
                    write!(
                        f,
                        "; {}reduction({}:{}) across gangs",
                        if r.implicit_in.is_some() {
                            "implicit "
                        } else {
                            ""
                        },
                        r.op.symbol(),
                        name(r.var)
                    )?;
                }
                let firstprivate: Vec<&str> = k
                    .params
                    .iter()
                    .filter(|p| p.pass == Pass::Value)
                    .map(|p| name(p.var))
                    .collect();
                if !firstprivate.is_empty() {
                    write!(f, "; firstprivate: {}", firstprivate.join(", "))?;
                }
                Ok(())
            }
            ConstructPlan::Region { data, .. } => write!(f, "data region: {}", items(data)),
            ConstructPlan::Dynamic { kind, data, .. } => {
                let what = match kind {
                    EffKind::EnterData => "enter data",
                    EffKind::ExitData => "exit data",
                    EffKind::Update => "update",
                    _ => "declare",
                };
                write!(f, "{what}: {}", items(data))
            }
            ConstructPlan::None => Ok(()),
        }
    }
}

/// The reduction clause item that names `var` on the compute construct or a
/// loop in it, when it is a subarray or an element (`p[i]`, which reduces the
/// one element of a pointer's target).
fn reduction_item(unit: &Unit, an: &Analysis, p: EffId, var: VarId) -> Option<VarItem> {
    let own = an.eff(p).construct;
    let body = unit.construct(own).body?;
    for (i, c) in unit.constructs.iter().enumerate() {
        if ConstructId(i as u32) != own && !body.contains(c.pragma_span) {
            continue;
        }
        for (ci, clause) in c.directive.clauses.iter().enumerate() {
            if let ClauseArgs::Reduction { items, .. } = &clause.args {
                for (ii, item) in items.iter().enumerate() {
                    if c.clause_vars
                        .get(ci)
                        .and_then(|v| v.get(ii))
                        .copied()
                        .flatten()
                        == Some(var)
                        && (item.is_subarray()
                            || matches!(item.accessors.as_slice(), [Accessor::Index(_)]))
                    {
                        return Some(item.clone());
                    }
                }
            }
        }
    }
    None
}
