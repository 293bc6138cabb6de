//! Clause validity of one directive, following the OpenACC 3.3 tables and
//! the "Semantic Clarifications" of Clacc's design.
//!
//! [`check_directive`] looks at one parsed directive on its own:
//! - every clause is allowed on the directive (combined constructs accept
//!   the union of both parts), and only the allowed ones follow
//!   `device_type`;
//! - non-list clauses appear at most once per `device_type` section;
//! - required clauses are there (`update` needs `self`, `host` or
//!   `device`; `enter data`, `exit data`, `data`, `host_data`, `declare`
//!   and `set` need one of theirs; `routine` needs exactly one of `gang`,
//!   `worker`, `vector`, `seq`);
//! - exclusive clauses do not meet (`seq`/`independent`/`auto`, `seq` with
//!   `gang`/`worker`/`vector`, `tile` with `collapse`);
//! - data clause modifiers are allowed on their clause, and integer
//!   arguments written as literals are positive;
//! - Clacc's rules on list items: no subarray without `:`, no subarrays in
//!   `private`/`firstprivate`, no variable twice in one kind of clause, in
//!   two data clauses, in two data-sharing clauses, or in a data clause and
//!   `private`/`firstprivate`.
//!
//! Variables are compared by their text (base name and accessors, without
//! whitespace); resolving names, types, nesting and implicit attributes is
//! the job of later phases.

use std::collections::HashMap;

use crate::diag::Diagnostic;
use crate::directive::{
    Accessor, Clause, ClauseArgs, ClauseKind, DataModifier, Directive, DirectiveKind, GangArgKind,
    VarItem,
};
use crate::span::Span;

use ClauseKind as K;
use DirectiveKind as D;

/// Checks one directive; returns the diagnostics, empty when it is valid.
pub fn check_directive(d: &Directive) -> Vec<Diagnostic> {
    check_directive_as(d, Rules::Clacc)
}

/// Whose rules on the shape of list items apply beyond OpenACC 3.3's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// Clacc's, for a translation to OpenMP that must express each item.
    Clacc,
    /// acc's own lowering, which takes what OpenACC 3.3 allows and it implements: subarrays in
    /// `declare` (a function-scope one is a data region for the rest of the block; the front
    /// end refuses a file-scope one it cannot map).
    Acc,
}

/// As [`check_directive`], under `rules`.
pub fn check_directive_as(d: &Directive, rules: Rules) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let rejected: std::collections::HashSet<usize> =
        check_placement(d, &mut diags).into_iter().collect();
    let all_sections = sections(d);
    let valid: Vec<&Clause> = d
        .clauses
        .iter()
        .enumerate()
        .filter(|(i, _)| !rejected.contains(i))
        .map(|(_, c)| c)
        .collect();
    let valid_sections: Vec<usize> = (0..d.clauses.len())
        .filter(|i| !rejected.contains(i))
        .map(|i| all_sections[i])
        .collect();
    if rejected.is_empty() {
        check_required(d, &mut diags);
    }
    check_exclusive(d, &valid, &valid_sections, &mut diags);
    for c in &valid {
        check_clause_args(d, c, &mut diags);
    }
    check_items(d, &valid, rules, &mut diags);
    diags
}

/// The clauses OpenACC 3.3 allows on a directive that is not combined.
fn allowed_clauses(dir: DirectiveKind) -> &'static [ClauseKind] {
    match dir {
        D::Parallel => &[
            K::Async,
            K::Wait,
            K::NumGangs,
            K::NumWorkers,
            K::VectorLength,
            K::DeviceType,
            K::If,
            K::SelfClause,
            K::Reduction,
            K::Copy,
            K::Copyin,
            K::Copyout,
            K::Create,
            K::NoCreate,
            K::Present,
            K::Deviceptr,
            K::Attach,
            K::Private,
            K::Firstprivate,
            K::Default,
        ],
        D::Serial => &[
            K::Async,
            K::Wait,
            K::DeviceType,
            K::If,
            K::SelfClause,
            K::Reduction,
            K::Copy,
            K::Copyin,
            K::Copyout,
            K::Create,
            K::NoCreate,
            K::Present,
            K::Deviceptr,
            K::Attach,
            K::Private,
            K::Firstprivate,
            K::Default,
        ],
        D::Kernels => &[
            K::Async,
            K::Wait,
            K::NumGangs,
            K::NumWorkers,
            K::VectorLength,
            K::DeviceType,
            K::If,
            K::SelfClause,
            K::Copy,
            K::Copyin,
            K::Copyout,
            K::Create,
            K::NoCreate,
            K::Present,
            K::Deviceptr,
            K::Attach,
            K::Default,
        ],
        D::Loop => &[
            K::Collapse,
            K::Gang,
            K::Worker,
            K::Vector,
            K::Seq,
            K::Independent,
            K::Auto,
            K::Tile,
            K::DeviceType,
            K::Private,
            K::Reduction,
        ],
        D::Data => &[
            K::If,
            K::Async,
            K::Wait,
            K::DeviceType,
            K::Copy,
            K::Copyin,
            K::Copyout,
            K::Create,
            K::NoCreate,
            K::Present,
            K::Deviceptr,
            K::Attach,
            K::Default,
        ],
        D::EnterData => &[K::If, K::Async, K::Wait, K::Copyin, K::Create, K::Attach],
        D::ExitData => &[
            K::If,
            K::Async,
            K::Wait,
            K::Copyout,
            K::Delete,
            K::Detach,
            K::Finalize,
        ],
        D::HostData => &[K::UseDevice, K::If, K::IfPresent],
        D::Update => &[
            K::Async,
            K::Wait,
            K::DeviceType,
            K::If,
            K::IfPresent,
            K::SelfClause,
            K::Host,
            K::Device,
        ],
        D::Declare => &[
            K::Copy,
            K::Copyin,
            K::Copyout,
            K::Create,
            K::Present,
            K::Deviceptr,
            K::DeviceResident,
            K::Link,
        ],
        D::Routine => &[
            K::Gang,
            K::Worker,
            K::Vector,
            K::Seq,
            K::Bind,
            K::DeviceType,
            K::Nohost,
        ],
        D::Atomic => &[K::If],
        D::Cache => &[],
        D::Wait => &[K::Async, K::If],
        D::Init | D::Shutdown => &[K::DeviceType, K::DeviceNum, K::If],
        D::Set => &[K::DefaultAsync, K::DeviceNum, K::DeviceType, K::If],
        D::ParallelLoop | D::SerialLoop | D::KernelsLoop => &[],
    }
}

/// The clauses that may follow `device_type` on a directive that is not
/// combined.
fn after_device_type(dir: DirectiveKind) -> &'static [ClauseKind] {
    match dir {
        D::Parallel | D::Kernels => &[
            K::Async,
            K::Wait,
            K::NumGangs,
            K::NumWorkers,
            K::VectorLength,
        ],
        D::Serial | D::Data | D::Update => &[K::Async, K::Wait],
        D::Loop => &[
            K::Collapse,
            K::Gang,
            K::Worker,
            K::Vector,
            K::Seq,
            K::Independent,
            K::Auto,
            K::Tile,
        ],
        D::Routine => &[K::Gang, K::Worker, K::Vector, K::Seq, K::Bind],
        _ => &[],
    }
}

/// The parts a directive's clause tables come from: itself, or for a
/// combined construct its compute part and `loop`.
fn parts(dir: DirectiveKind) -> Vec<DirectiveKind> {
    match dir.compute_part() {
        Some(c) if dir.is_combined() => vec![c, D::Loop],
        _ => vec![dir],
    }
}

fn is_allowed(dir: DirectiveKind, clause: ClauseKind) -> bool {
    parts(dir)
        .into_iter()
        .any(|p| allowed_clauses(p).contains(&clause))
}

fn may_follow_device_type(dir: DirectiveKind, clause: ClauseKind) -> bool {
    parts(dir)
        .into_iter()
        .any(|p| after_device_type(p).contains(&clause))
}

/// `device_type` selects devices on `init`, `shutdown` and `set` instead of
/// opening a section of device-specific clauses.
fn has_device_type_sections(dir: DirectiveKind) -> bool {
    !matches!(dir, D::Init | D::Shutdown | D::Set)
}

/// List clauses and `device_type` may repeat; every other clause may
/// appear once per `device_type` section.
fn may_repeat(dir: DirectiveKind, clause: ClauseKind) -> bool {
    match clause {
        K::DeviceType => dir != D::Set,
        K::SelfClause => dir == D::Update,
        K::Reduction => true,
        _ => matches!(
            clause,
            K::Copy
                | K::Copyin
                | K::Copyout
                | K::Create
                | K::NoCreate
                | K::Present
                | K::Deviceptr
                | K::Attach
                | K::Detach
                | K::Delete
                | K::Private
                | K::Firstprivate
                | K::UseDevice
                | K::DeviceResident
                | K::Link
                | K::Host
                | K::Device
        ),
    }
}

/// The section of each clause: 0 before the first `device_type`, then the
/// index of the `device_type` clause plus one.
fn sections(d: &Directive) -> Vec<usize> {
    let mut current = 0;
    d.clauses
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if c.kind == K::DeviceType && has_device_type_sections(d.kind) {
                current = i + 1;
            }
            current
        })
        .collect()
}

fn clause_list(kinds: &[ClauseKind]) -> String {
    let names: Vec<_> = kinds.iter().map(|k| format!("`{}`", k.name())).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// Clauses not allowed on the directive, clauses after `device_type` that
/// may not follow it, and repeated clauses. Returns the indices of the
/// clauses rejected as not allowed.
fn check_placement(d: &Directive, diags: &mut Vec<Diagnostic>) -> Vec<usize> {
    let dir = d.kind;
    let name = dir.name();
    let mut rejected = Vec::new();
    let mut device_type: Option<&Clause> = None;
    let mut seen: HashMap<(usize, ClauseKind), &Clause> = HashMap::new();
    let sections = sections(d);
    for (i, c) in d.clauses.iter().enumerate() {
        let cname = c.kind.name();
        if !is_allowed(dir, c.kind) {
            let mut diag =
                Diagnostic::error(c.name_span, format!("`{cname}` is not allowed on `{name}`"));
            match (dir, c.kind) {
                (D::EnterData, K::Copyout | K::Delete | K::Detach) => {
                    diag = diag.with_note(format!("`{cname}` belongs on `exit data`"))
                }
                (D::ExitData, K::Copyin | K::Create | K::Attach) => {
                    diag = diag.with_note(format!("`{cname}` belongs on `enter data`"))
                }
                (_, K::Finalize) => {
                    diag = diag.with_note("`finalize` is only allowed on `exit data`")
                }
                (_, K::IfPresent) => {
                    diag =
                        diag.with_note("`if_present` is only allowed on `update` and `host_data`")
                }
                (D::Kernels, K::Private | K::Firstprivate | K::Reduction) => {
                    diag = diag.with_note(format!(
                        "put `{cname}` on a `loop` inside the `kernels` region"
                    ))
                }
                _ => {
                    let ok: Vec<ClauseKind> = ClauseKind::ALL
                        .iter()
                        .copied()
                        .filter(|&k| is_allowed(dir, k))
                        .collect();
                    diag = diag.with_note(if ok.is_empty() {
                        format!("`{name}` takes no clauses")
                    } else {
                        format!("`{name}` accepts {}", clause_list(&ok))
                    });
                }
            }
            if c.spelling != cname {
                diag = diag.with_label(format!("`{}` is `{cname}`", c.spelling));
            }
            diags.push(diag);
            rejected.push(i);
            continue;
        }
        if c.kind == K::DeviceType && has_device_type_sections(dir) {
            device_type = Some(c);
        } else if let Some(dt) = device_type {
            if !may_follow_device_type(dir, c.kind) {
                let ok: Vec<ClauseKind> = ClauseKind::ALL
                    .iter()
                    .copied()
                    .filter(|&k| may_follow_device_type(dir, k))
                    .collect();
                let mut diag = Diagnostic::error(
                    c.name_span,
                    format!("`{cname}` may not follow `device_type` on `{name}`"),
                )
                .with_secondary(
                    dt.span,
                    "clauses after this apply to the named devices only",
                );
                diag = diag.with_note(if ok.is_empty() {
                    format!("move `{cname}` before `device_type`")
                } else {
                    format!(
                        "move `{cname}` before `device_type`; only {} may follow it",
                        clause_list(&ok)
                    )
                });
                diags.push(diag);
                continue;
            }
        }
        if !may_repeat(dir, c.kind) {
            let section = if may_follow_device_type(dir, c.kind) {
                sections[i]
            } else {
                0
            };
            match seen.get(&(section, c.kind)) {
                Some(first) => diags.push(
                    Diagnostic::error(
                        c.name_span,
                        format!("`{cname}` appears more than once on `{name}`"),
                    )
                    .with_secondary(first.name_span, "first here")
                    .with_note("keep one"),
                ),
                None => {
                    seen.insert((section, c.kind), c);
                }
            }
        }
    }
    rejected
}

fn check_required(d: &Directive, diags: &mut Vec<Diagnostic>) {
    let has_any = |kinds: &[ClauseKind]| d.clauses.iter().any(|c| kinds.contains(&c.kind));
    let name = d.kind.name();
    let need: &[ClauseKind] = match d.kind {
        D::Update => &[K::SelfClause, K::Host, K::Device],
        D::EnterData => &[K::Copyin, K::Create, K::Attach],
        D::ExitData => &[K::Copyout, K::Delete, K::Detach],
        D::HostData => &[K::UseDevice],
        D::Set => &[K::DefaultAsync, K::DeviceNum, K::DeviceType],
        D::Data => &[
            K::Copy,
            K::Copyin,
            K::Copyout,
            K::Create,
            K::NoCreate,
            K::Present,
            K::Deviceptr,
            K::Attach,
            K::Default,
        ],
        D::Declare => allowed_clauses(D::Declare),
        D::Routine => return check_routine_level(d, diags),
        _ => return,
    };
    if !has_any(need) {
        let message = match d.kind {
            D::HostData => "`host_data` needs a `use_device` clause".to_string(),
            D::Data => "`data` needs at least one data clause or `default`".to_string(),
            D::Declare => "`declare` needs at least one data clause".to_string(),
            _ => format!("`{name}` needs at least one of {}", clause_list(need)),
        };
        diags.push(Diagnostic::error(d.name_span, message));
    }
}

const LEVELS: [ClauseKind; 4] = [K::Gang, K::Worker, K::Vector, K::Seq];

/// `routine` needs exactly one level of parallelism: in the base section,
/// or else in every `device_type` section.
fn check_routine_level(d: &Directive, diags: &mut Vec<Diagnostic>) {
    let sections = sections(d);
    let mut first_level: HashMap<usize, &Clause> = HashMap::new();
    for (i, c) in d.clauses.iter().enumerate() {
        if !LEVELS.contains(&c.kind) {
            continue;
        }
        match first_level.get(&sections[i]) {
            Some(first) if first.kind != c.kind => diags.push(
                Diagnostic::error(
                    c.name_span,
                    format!(
                        "`{}` conflicts with `{}` on `routine`",
                        c.kind.name(),
                        first.kind.name()
                    ),
                )
                .with_secondary(first.name_span, "level of parallelism already given here")
                .with_note("a routine has exactly one of `gang`, `worker`, `vector` or `seq`"),
            ),
            Some(_) => {}
            None => {
                first_level.insert(sections[i], c);
            }
        }
    }
    if first_level.contains_key(&0) {
        return;
    }
    let dtypes: Vec<(usize, &Clause)> = d
        .clauses
        .iter()
        .enumerate()
        .filter(|(_, c)| c.kind == K::DeviceType)
        .collect();
    if dtypes.is_empty() {
        diags.push(
            Diagnostic::error(
                d.name_span,
                "`routine` needs one of `gang`, `worker`, `vector` or `seq`",
            )
            .with_note(
                "use `seq` for a routine that runs on one thread and contains no partitioned loops",
            ),
        );
        return;
    }
    for (i, dt) in dtypes {
        if !first_level.contains_key(&(i + 1)) {
            diags.push(
                Diagnostic::error(dt.span, "no level of parallelism for these devices on `routine`")
                    .with_note("give `gang`, `worker`, `vector` or `seq` before the first `device_type`, or after each one"),
            );
        }
    }
}

/// `seq`, `independent` and `auto` exclude each other; `seq` excludes
/// `gang`, `worker` and `vector`; `tile` excludes `collapse`. Within one
/// `device_type` section.
fn check_exclusive(
    d: &Directive,
    valid: &[&Clause],
    sections: &[usize],
    diags: &mut Vec<Diagnostic>,
) {
    if !d.kind.is_loop() {
        return;
    }
    let pairs: [(&[ClauseKind], &[ClauseKind], &str); 3] = [
        (
            &[K::Seq, K::Independent, K::Auto],
            &[K::Seq, K::Independent, K::Auto],
            "a loop is either `seq`, `independent` or `auto`",
        ),
        (
            &[K::Seq],
            &[K::Gang, K::Worker, K::Vector],
            "a `seq` loop runs on one thread; drop `seq` to partition it",
        ),
        (
            &[K::Tile],
            &[K::Collapse],
            "`tile` already covers as many loops as it has sizes",
        ),
    ];
    for (i, c) in valid.iter().enumerate() {
        for (a, b, note) in pairs {
            let conflicts_with = |x: &Clause| {
                (a.contains(&x.kind) && b.contains(&c.kind)
                    || b.contains(&x.kind) && a.contains(&c.kind))
                    && x.kind != c.kind
            };
            if let Some(first) = valid[..i]
                .iter()
                .zip(sections)
                .find(|(x, &sx)| sx == sections[i] && conflicts_with(x))
                .map(|(x, _)| x)
            {
                diags.push(
                    Diagnostic::error(
                        c.name_span,
                        format!("`{}` conflicts with `{}`", c.kind.name(), first.kind.name()),
                    )
                    .with_secondary(
                        first.name_span,
                        format!("`{}` given here", first.kind.name()),
                    )
                    .with_note(note),
                );
            }
        }
    }
}

/// The modifiers each clause accepts (3.3 gives `readonly` and `zero`;
/// `always`, `alwaysin`, `alwaysout` and `capture` follow the 3.4 tables).
fn allowed_modifiers(clause: ClauseKind) -> &'static [DataModifier] {
    use DataModifier as M;
    match clause {
        K::Copy => &[M::Always, M::AlwaysIn, M::AlwaysOut, M::Capture],
        K::Copyin => &[M::Readonly, M::Always, M::AlwaysIn, M::Capture],
        K::Copyout => &[M::Zero, M::Always, M::AlwaysOut, M::Capture],
        K::Create => &[M::Zero, M::Capture],
        _ => &[],
    }
}

fn positive(what: &str, e: &crate::directive::Expr, diags: &mut Vec<Diagnostic>) {
    if let Some(v) = e.int_value() {
        if v <= 0 {
            diags.push(Diagnostic::error(
                e.span,
                format!("`{what}` needs a positive integer, found `{}`", e.text),
            ));
        }
    }
}

fn check_clause_args(d: &Directive, c: &Clause, diags: &mut Vec<Diagnostic>) {
    let cname = c.kind.name();
    let in_parallel_or_serial = matches!(d.kind, D::ParallelLoop | D::SerialLoop);
    match &c.args {
        ClauseArgs::Vars { modifiers, .. } => {
            let ok = allowed_modifiers(c.kind);
            let mut seen: Vec<(DataModifier, Span)> = Vec::new();
            for &(m, span) in modifiers {
                if let Some(&(_, first)) = seen.iter().find(|(x, _)| *x == m) {
                    diags.push(
                        Diagnostic::error(
                            span,
                            format!("modifier `{}` appears more than once", m.name()),
                        )
                        .with_secondary(first, "first here"),
                    );
                    continue;
                }
                seen.push((m, span));
                if !ok.contains(&m) {
                    let mut diag = Diagnostic::error(
                        span,
                        format!("modifier `{}` is not allowed on `{cname}`", m.name()),
                    );
                    diag = diag.with_note(if ok.is_empty() {
                        format!("`{cname}` takes no modifiers")
                    } else {
                        let names: Vec<_> = ok.iter().map(|m| format!("`{}`", m.name())).collect();
                        format!("`{cname}` accepts {}", names.join(", "))
                    });
                    diags.push(diag);
                } else if d.kind == D::Declare && m == DataModifier::Zero {
                    diags.push(Diagnostic::error(
                        span,
                        format!("modifier `zero` is not allowed on `{cname}` in `declare`"),
                    ));
                }
            }
        }
        ClauseArgs::Expr(e) if matches!(c.kind, K::NumWorkers | K::VectorLength) => {
            positive(cname, e, diags)
        }
        ClauseArgs::Exprs(es) => {
            for e in es.iter().filter(|e| !(c.kind == K::Tile && e.is_star())) {
                if c.kind == K::NumGangs && e.is_star() {
                    diags.push(Diagnostic::error(
                        e.span,
                        "`*` is not allowed in `num_gangs`",
                    ));
                    continue;
                }
                positive(cname, e, diags);
            }
            if c.kind == K::NumGangs {
                if es.len() > 3 {
                    diags.push(
                        Diagnostic::error(
                            c.span,
                            format!(
                                "`num_gangs` takes at most three arguments, found {}",
                                es.len()
                            ),
                        )
                        .with_note("one per gang dimension"),
                    );
                } else if es.len() > 1 && d.kind.compute_part() == Some(D::Kernels) {
                    diags.push(Diagnostic::error(
                        c.span,
                        format!(
                            "on `{}`, `num_gangs` takes a single argument",
                            d.kind.name()
                        ),
                    ));
                }
            }
        }
        ClauseArgs::Collapse { count, .. } => positive(cname, count, diags),
        ClauseArgs::Gang(args) => {
            let mut seen: Vec<(GangArgKind, Span)> = Vec::new();
            for a in args {
                let span = a.kw.map_or(a.value.span, |k| k.to(a.value.span));
                if let Some(&(_, first)) = seen.iter().find(|(k, _)| *k == a.kind) {
                    diags.push(
                        Diagnostic::error(
                            span,
                            format!("`{}` appears more than once in `gang(...)`", a.kind.name()),
                        )
                        .with_secondary(first, "first here"),
                    );
                    continue;
                }
                seen.push((a.kind, span));
                match a.kind {
                    GangArgKind::Num if d.kind == D::Routine => diags.push(Diagnostic::error(
                        span,
                        "`gang` on `routine` takes only `dim:`",
                    )),
                    GangArgKind::Num if in_parallel_or_serial => diags.push(
                        Diagnostic::error(
                            span,
                            format!("`gang(num:)` is not allowed on `{}`", d.kind.name()),
                        )
                        .with_note("give the number of gangs with `num_gangs` instead"),
                    ),
                    GangArgKind::Num => positive("gang(num:)", &a.value, diags),
                    GangArgKind::Dim => {
                        if d.kind.compute_part() == Some(D::Kernels) || d.kind == D::SerialLoop {
                            diags.push(Diagnostic::error(
                                span,
                                format!("`gang(dim:)` is not allowed on `{}`", d.kind.name()),
                            ));
                        } else if let Some(v) = a.value.int_value().filter(|v| !(1..=3).contains(v))
                        {
                            diags.push(Diagnostic::error(
                                a.value.span,
                                format!("`gang(dim:)` must be 1, 2 or 3, found `{v}`"),
                            ));
                        }
                    }
                    GangArgKind::Static if d.kind == D::Routine => diags.push(Diagnostic::error(
                        span,
                        "`gang` on `routine` takes only `dim:`",
                    )),
                    GangArgKind::Static => {
                        if !a.value.is_star() {
                            positive("gang(static:)", &a.value, diags);
                        }
                    }
                }
            }
        }
        ClauseArgs::Worker(Some(e)) | ClauseArgs::Vector(Some(e)) => {
            let (what, instead) = if c.kind == K::Worker {
                ("worker", "num_workers")
            } else {
                ("vector", "vector_length")
            };
            if d.kind == D::Routine {
                diags.push(Diagnostic::error(
                    e.span,
                    format!("`{what}` on `routine` takes no argument"),
                ));
            } else if in_parallel_or_serial {
                diags.push(
                    Diagnostic::error(
                        e.span,
                        format!("`{what}(...)` is not allowed on `{}`", d.kind.name()),
                    )
                    .with_note(format!("use `{instead}` instead")),
                );
            } else {
                positive(what, e, diags);
            }
        }
        ClauseArgs::DeviceTypes(ids) if ids.len() > 1 => {
            if let Some(star) = ids.iter().find(|i| i.name == "*") {
                diags.push(Diagnostic::error(
                    star.span,
                    "`*` must be the only device type in `device_type(...)`",
                ));
            }
        }
        _ => {}
    }
}

/// The clause kind that names the same data attribute: aliases are already
/// resolved by the parser; `host` and `self(list)` on `update` are one.
fn attribute_of(kind: ClauseKind) -> ClauseKind {
    if kind == K::Host {
        K::SelfClause
    } else {
        kind
    }
}

struct Seen<'d> {
    clause: &'d Clause,
    item: &'d VarItem,
}

fn check_items(d: &Directive, valid: &[&Clause], rules: Rules, diags: &mut Vec<Diagnostic>) {
    // (key, attribute) -> first appearance.
    let mut same_kind: HashMap<(String, ClauseKind), Seen<'_>> = HashMap::new();
    let mut dma: HashMap<String, Seen<'_>> = HashMap::new();
    let mut dsa: HashMap<String, Seen<'_>> = HashMap::new();
    for c in valid {
        let cname = c.kind.name();
        for item in c.items() {
            check_item_shape(d, c, item, rules, diags);
            let key = item.key();
            if let Some(first) = same_kind.get(&(key.clone(), attribute_of(c.kind))) {
                let mut diag = Diagnostic::error(
                    item.span,
                    format!("`{}` appears more than once in `{cname}`", item.text),
                )
                .with_secondary(first.item.span, "first here");
                if let (ClauseArgs::Reduction { op: a, .. }, ClauseArgs::Reduction { op: b, .. }) =
                    (&first.clause.args, &c.args)
                {
                    if a != b {
                        diag.message = format!(
                            "`{}` appears in two reductions with different operators (`{}` and `{}`)",
                            item.text,
                            a.symbol(),
                            b.symbol()
                        );
                    }
                }
                diags.push(diag.with_note("keep one"));
                continue;
            }
            same_kind.insert(
                (key.clone(), attribute_of(c.kind)),
                Seen { clause: c, item },
            );
            let unmappable = matches!(c.kind, K::Private | K::Firstprivate);
            if c.kind.is_data_clause() {
                if let Some(other) = dma.get(&key) {
                    diags.push(both(item, c, other, "keep one"));
                } else if let Some(other) = dsa.get(&key).filter(|o| o.clause.kind != K::Reduction)
                {
                    diags.push(both(item, c, other, private_note(other.clause.kind)));
                }
                dma.entry(key).or_insert(Seen { clause: c, item });
            } else if c.kind.is_data_sharing() {
                if let Some(other) = dsa.get(&key) {
                    diags.push(both(item, c, other, "keep one"));
                } else if let Some(other) = dma.get(&key).filter(|_| unmappable) {
                    diags.push(both(item, c, other, private_note(c.kind)));
                }
                dsa.entry(key).or_insert(Seen { clause: c, item });
            }
        }
    }
}

fn private_note(kind: ClauseKind) -> &'static str {
    if kind == K::Private {
        "the private copy hides the mapped data; keep one"
    } else {
        "the firstprivate copy hides the mapped data; keep one"
    }
}

/// "`x` appears in both `copyin` and `copyout`", primary on the later
/// appearance, secondary on the earlier.
fn both(item: &VarItem, c: &Clause, other: &Seen<'_>, advice: &str) -> Diagnostic {
    let (a, b) = (other.clause.kind, c.kind);
    let hint = match (a, b) {
        (K::Copyin, K::Copyout) | (K::Copyout, K::Copyin) => "keep one (did you mean `copy`?)",
        _ => advice,
    };
    Diagnostic::error(
        item.span,
        format!(
            "`{}` appears in both `{}` and `{}`; {hint}",
            item.text,
            a.name(),
            b.name()
        ),
    )
    .with_secondary(other.item.span, format!("also in `{}` here", a.name()))
}

/// Clacc's rules on the shape of one item.
fn check_item_shape(
    d: &Directive,
    c: &Clause,
    item: &VarItem,
    rules: Rules,
    diags: &mut Vec<Diagnostic>,
) {
    let cname = c.kind.name();
    if matches!(c.kind, K::Private | K::Firstprivate) {
        // acc's lowering gives each gang its copy of a section named on a compute construct
        // (OpenACC 3.3 §2.5.13-14 allow them); OpenMP has no form for one, nor for a copy per
        // loop iteration.
        let compute = matches!(d.kind, D::Parallel | D::Serial | D::Kernels);
        if item.is_subarray() && rules == Rules::Acc && compute {
            return;
        }
        if item.is_subarray() {
            diags.push(
                Diagnostic::error(item.span, format!("subarrays are not allowed in `{cname}`"))
                    .with_note("OpenMP cannot map them either; privatize the whole array"),
            );
        } else if !item.is_member()
            && item
                .accessors
                .iter()
                .any(|a| matches!(a, Accessor::Index(_)))
        {
            diags.push(
                Diagnostic::error(
                    item.span,
                    format!("array elements are not allowed in `{cname}`"),
                )
                .with_note("privatize the whole array"),
            );
        }
        return;
    }
    if d.kind == D::Declare && item.is_subarray() && rules == Rules::Clacc {
        diags.push(
            Diagnostic::error(item.span, "subarrays are not allowed in `declare`")
                .with_note("declare the whole array"),
        );
        return;
    }
    let moves_data = c.kind.is_data_clause()
        || (d.kind == D::Update && matches!(c.kind, K::Host | K::Device | K::SelfClause));
    let all_index = !item.accessors.is_empty()
        && item
            .accessors
            .iter()
            .all(|a| matches!(a, Accessor::Index(_)));
    if moves_data && all_index {
        let mut one = item.base.name.clone();
        let mut last = String::new();
        for a in &item.accessors {
            if let Accessor::Index(e) = a {
                one += &format!("[{}:1]", e.text);
                last = e.text.clone();
            }
        }
        let message = if item.accessors.len() == 1 {
            let prefix = format!("{}[0:{last}]", item.base.name);
            let count = match item.accessors.first().and_then(|a| match a {
                Accessor::Index(e) => e.int_value(),
                _ => None,
            }) {
                Some(v) => format!("the first {v}"),
                None => format!("the first `{last}`"),
            };
            format!(
                "subarray `{}` has no `:`; write `{one}` for one element or `{prefix}` for {count}",
                item.text
            )
        } else {
            format!(
                "subarray `{}` has no `:`; write `{one}` for one element",
                item.text
            )
        };
        diags.push(
            Diagnostic::error(item.span, message)
                .with_note("Clacc and OpenMP read `a[n]` as one element, PGI as the first `n`; OpenACC does not say")
                .with_fix("make it one element", item.span, one),
        );
    }
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use super::check_directive;
    use crate::directive::parse_directive;
    use crate::directive::tests::render;

    /// Parses (which must succeed without errors) and renders the checks.
    fn check(text: &str, expect: Expect) {
        let (d, diags) = parse_directive(text, 0);
        assert!(
            diags.is_empty(),
            "{text:?} does not parse cleanly: {diags:?}"
        );
        let d = d.expect("parses");
        expect.assert_eq(&render(text, 0, &check_directive(&d)));
    }

    fn clean(text: &str) {
        check(text, expect![[""]]);
    }

    #[test]
    fn valid_directives_pass() {
        clean("acc parallel loop gang vector reduction(+:s) copyin(a[0:n], b[1:n-1][0:m]) copyout(s.arr[0:n], p->x)");
        clean("acc parallel num_gangs(4, 2, 1) num_workers(8) vector_length(128) async(q) wait(1, 2) if(n > 10) self default(none) private(t) firstprivate(u) copy(a) present(b) no_create(c) deviceptr(p) attach(s.p)");
        clean("acc kernels loop independent reduction(||:flag) private(i) copy(a)");
        clean("acc serial loop seq firstprivate(x)");
        clean("acc loop collapse(force:2) device_type(nvidia) gang worker vector");
        clean("acc loop tile(4, *) gang(static:*, dim:2)");
        clean("acc loop gang(num: 4) worker(num: 8) vector(length: 32)");
        clean("acc data copyin(readonly: a[:n]) copyout(zero: b[2:]) create(zero: c[:]) if(ok) async device_type(nvidia) wait");
        clean("acc enter data copyin(a[0:n]) create(b) attach(s.p) async(1) wait if(x)");
        clean("acc exit data copyout(a[0:n]) delete(b) detach(s.p) finalize async");
        clean("acc host_data use_device(p, q) if_present if(c)");
        clean("acc declare device_resident(t) link(big) copyin(c) create(d)");
        clean("acc update self(a[0:n]) host(b) device(c[1:2]) if_present async device_type(nvidia) wait(1)");
        clean("acc routine(foo) seq bind(\"bar\")");
        clean("acc routine gang(dim: 1) nohost bind(cuda_foo)");
        clean("acc routine device_type(nvidia) vector device_type(host) seq");
        clean("acc atomic capture if(c)");
        clean("acc cache(readonly: a[i:4], b[i])");
        clean("acc wait(devnum: 1 : queues: 2, 3) async(4) if(go)");
        clean("acc set device_type(nvidia) device_num(0) default_async(1)");
        clean("acc init device_type(host) device_type(nvidia) device_num(0)");
        clean("acc shutdown if(done)");
        clean("acc parallel copy(a[0:n]) copy(a[n:n]) reduction(+:s) copy(s)");
    }

    #[test]
    fn clauses_not_allowed() {
        check(
            "acc enter data copyout(a) copyin(b)",
            expect![[r#"
            error 15..22 `copyout`: `copyout` is not allowed on `enter data`
              note: `copyout` belongs on `exit data`
        "#]],
        );
        check(
            "acc exit data copyin(a) create(b) delete(c)",
            expect![[r#"
            error 14..20 `copyin`: `copyin` is not allowed on `exit data`
              note: `copyin` belongs on `enter data`
            error 24..30 `create`: `create` is not allowed on `exit data`
              note: `create` belongs on `enter data`
        "#]],
        );
        check(
            "acc parallel finalize if_present copy(a)",
            expect![[r#"
            error 13..21 `finalize`: `finalize` is not allowed on `parallel`
              note: `finalize` is only allowed on `exit data`
            error 22..32 `if_present`: `if_present` is not allowed on `parallel`
              note: `if_present` is only allowed on `update` and `host_data`
        "#]],
        );
        check(
            "acc kernels private(x) reduction(+:s)",
            expect![[r#"
            error 12..19 `private`: `private` is not allowed on `kernels`
              note: put `private` on a `loop` inside the `kernels` region
            error 23..32 `reduction`: `reduction` is not allowed on `kernels`
              note: put `reduction` on a `loop` inside the `kernels` region
        "#]],
        );
        check(
            "acc serial num_gangs(2) pcopy(a)",
            expect![[r#"
            error 11..20 `num_gangs`: `num_gangs` is not allowed on `serial`
              note: `serial` accepts `copy`, `copyin`, `copyout`, `create`, `no_create`, `present`, `deviceptr`, `attach`, `private`, `firstprivate`, `reduction`, `self`, `async`, `wait`, `device_type`, `default` or `if`
        "#]],
        );
        check(
            "acc loop copy(a) firstprivate(b)",
            expect![[r#"
            error 9..13 `copy`: `copy` is not allowed on `loop`
              note: `loop` accepts `private`, `reduction`, `gang`, `worker`, `vector`, `seq`, `auto`, `independent`, `collapse`, `tile` or `device_type`
            error 17..29 `firstprivate`: `firstprivate` is not allowed on `loop`
              note: `loop` accepts `private`, `reduction`, `gang`, `worker`, `vector`, `seq`, `auto`, `independent`, `collapse`, `tile` or `device_type`
        "#]],
        );
        check("acc cache(a[0:4])", expect![[""]]);
        check(
            "acc set if(c) async",
            expect![[r#"
            error 14..19 `async`: `async` is not allowed on `set`
              note: `set` accepts `device_type`, `if`, `device_num` or `default_async`
        "#]],
        );
        check(
            "acc update copy(a) self(b)",
            expect![[r#"
            error 11..15 `copy`: `copy` is not allowed on `update`
              note: `update` accepts `host`, `device`, `self`, `async`, `wait`, `device_type`, `if` or `if_present`
        "#]],
        );
    }

    #[test]
    fn device_type_sections() {
        check(
            "acc parallel device_type(nvidia) num_gangs(4) copy(a)",
            expect![[r#"
            error 46..50 `copy`: `copy` may not follow `device_type` on `parallel`
              secondary 13..32 `device_type(nvidia)`: clauses after this apply to the named devices only
              note: move `copy` before `device_type`; only `async`, `wait`, `num_gangs`, `num_workers` or `vector_length` may follow it
        "#]],
        );
        check(
            "acc loop device_type(*) private(i) gang",
            expect![[r#"
            error 24..31 `private`: `private` may not follow `device_type` on `loop`
              secondary 9..23 `device_type(*)`: clauses after this apply to the named devices only
              note: move `private` before `device_type`; only `gang`, `worker`, `vector`, `seq`, `auto`, `independent`, `collapse` or `tile` may follow it
        "#]],
        );
        check("acc parallel num_gangs(2) device_type(nvidia) num_gangs(4) device_type(radeon) num_gangs(8) num_gangs(9)", expect![[r#"
            error 92..101 `num_gangs`: `num_gangs` appears more than once on `parallel`
              secondary 79..88 `num_gangs`: first here
              note: keep one
        "#]]);
        check(
            "acc parallel device_type(nvidia, *)",
            expect![[r#"
            error 33..34 `*`: `*` must be the only device type in `device_type(...)`
        "#]],
        );
        check(
            "acc set device_type(nvidia) device_type(host)",
            expect![[r#"
            error 28..39 `device_type`: `device_type` appears more than once on `set`
              secondary 8..19 `device_type`: first here
              note: keep one
        "#]],
        );
    }

    #[test]
    fn at_most_once() {
        check(
            "acc parallel if(a) if(b) async async(2) default(none) default(present)",
            expect![[r#"
            error 19..21 `if`: `if` appears more than once on `parallel`
              secondary 13..15 `if`: first here
              note: keep one
            error 31..36 `async`: `async` appears more than once on `parallel`
              secondary 25..30 `async`: first here
              note: keep one
            error 54..61 `default`: `default` appears more than once on `parallel`
              secondary 40..47 `default`: first here
              note: keep one
        "#]],
        );
        check(
            "acc loop gang gang(4) collapse(2) collapse(3)",
            expect![[r#"
            error 14..18 `gang`: `gang` appears more than once on `loop`
              secondary 9..13 `gang`: first here
              note: keep one
            error 34..42 `collapse`: `collapse` appears more than once on `loop`
              secondary 22..30 `collapse`: first here
              note: keep one
        "#]],
        );
        check(
            "acc exit data delete(a) finalize finalize",
            expect![[r#"
            error 33..41 `finalize`: `finalize` appears more than once on `exit data`
              secondary 24..32 `finalize`: first here
              note: keep one
        "#]],
        );
        check(
            "acc routine seq bind(a) bind(b) nohost nohost",
            expect![[r#"
            error 24..28 `bind`: `bind` appears more than once on `routine`
              secondary 16..20 `bind`: first here
              note: keep one
            error 39..45 `nohost`: `nohost` appears more than once on `routine`
              secondary 32..38 `nohost`: first here
              note: keep one
        "#]],
        );
    }

    #[test]
    fn required_clauses() {
        check(
            "acc update if_present",
            expect![[r#"
            error 4..10 `update`: `update` needs at least one of `self`, `host` or `device`
        "#]],
        );
        check(
            "acc enter data async",
            expect![[r#"
            error 4..14 `enter data`: `enter data` needs at least one of `copyin`, `create` or `attach`
        "#]],
        );
        check(
            "acc exit data finalize",
            expect![[r#"
            error 4..13 `exit data`: `exit data` needs at least one of `copyout`, `delete` or `detach`
        "#]],
        );
        check(
            "acc data if(x)",
            expect![[r#"
            error 4..8 `data`: `data` needs at least one data clause or `default`
        "#]],
        );
        check(
            "acc host_data if(x)",
            expect![[r#"
            error 4..13 `host_data`: `host_data` needs a `use_device` clause
        "#]],
        );
        check(
            "acc declare",
            expect![[r#"
            error 4..11 `declare`: `declare` needs at least one data clause
        "#]],
        );
        check(
            "acc set if(x)",
            expect![[r#"
            error 4..7 `set`: `set` needs at least one of `default_async`, `device_num` or `device_type`
        "#]],
        );
        check(
            "acc routine",
            expect![[r#"
            error 4..11 `routine`: `routine` needs one of `gang`, `worker`, `vector` or `seq`
              note: use `seq` for a routine that runs on one thread and contains no partitioned loops
        "#]],
        );
        check(
            "acc routine bind(f) device_type(nvidia) gang device_type(host)",
            expect![[r#"
            error 45..62 `device_type(host)`: no level of parallelism for these devices on `routine`
              note: give `gang`, `worker`, `vector` or `seq` before the first `device_type`, or after each one
        "#]],
        );
        check(
            "acc routine gang worker",
            expect![[r#"
            error 17..23 `worker`: `worker` conflicts with `gang` on `routine`
              secondary 12..16 `gang`: level of parallelism already given here
              note: a routine has exactly one of `gang`, `worker`, `vector` or `seq`
        "#]],
        );
        check("acc data default(none)", expect![[""]]);
    }

    #[test]
    fn exclusive_clauses() {
        check(
            "acc loop seq independent auto",
            expect![[r#"
            error 13..24 `independent`: `independent` conflicts with `seq`
              secondary 9..12 `seq`: `seq` given here
              note: a loop is either `seq`, `independent` or `auto`
            error 25..29 `auto`: `auto` conflicts with `seq`
              secondary 9..12 `seq`: `seq` given here
              note: a loop is either `seq`, `independent` or `auto`
        "#]],
        );
        check(
            "acc loop gang seq vector",
            expect![[r#"
            error 14..17 `seq`: `seq` conflicts with `gang`
              secondary 9..13 `gang`: `gang` given here
              note: a `seq` loop runs on one thread; drop `seq` to partition it
            error 18..24 `vector`: `vector` conflicts with `seq`
              secondary 14..17 `seq`: `seq` given here
              note: a `seq` loop runs on one thread; drop `seq` to partition it
        "#]],
        );
        check(
            "acc parallel loop tile(2, 2) collapse(2)",
            expect![[r#"
            error 29..37 `collapse`: `collapse` conflicts with `tile`
              secondary 18..22 `tile`: `tile` given here
              note: `tile` already covers as many loops as it has sizes
        "#]],
        );
        check(
            "acc loop seq device_type(nvidia) independent gang",
            expect![[""]],
        );
    }

    #[test]
    fn modifiers() {
        check("acc data copyin(zero: a) copyout(readonly: b) create(readonly, zero: c) present(zero: d) copy(always, always: e)", expect![[r#"
            error 16..20 `zero`: modifier `zero` is not allowed on `copyin`
              note: `copyin` accepts `readonly`, `always`, `alwaysin`, `capture`
            error 33..41 `readonly`: modifier `readonly` is not allowed on `copyout`
              note: `copyout` accepts `zero`, `always`, `alwaysout`, `capture`
            error 53..61 `readonly`: modifier `readonly` is not allowed on `create`
              note: `create` accepts `zero`, `capture`
            error 80..84 `zero`: modifier `zero` is not allowed on `present`
              note: `present` takes no modifiers
            error 102..108 `always`: modifier `always` appears more than once
              secondary 94..100 `always`: first here
        "#]]);
        check(
            "acc declare create(zero: a)",
            expect![[r#"
            error 19..23 `zero`: modifier `zero` is not allowed on `create` in `declare`
        "#]],
        );
        check(
            "acc data copy(alwaysin, capture: a) copyout(alwaysout: b)",
            expect![[""]],
        );
    }

    #[test]
    fn integer_arguments() {
        check(
            "acc parallel num_gangs(0, -1, 2) num_workers(0x0) vector_length(-(4))",
            expect![[r#"
            error 23..24 `0`: `num_gangs` needs a positive integer, found `0`
            error 26..28 `-1`: `num_gangs` needs a positive integer, found `-1`
            error 45..48 `0x0`: `num_workers` needs a positive integer, found `0x0`
            error 64..68 `-(4)`: `vector_length` needs a positive integer, found `-(4)`
        "#]],
        );
        check(
            "acc loop collapse(0) tile(*, 0, 2u) gang(num: 0, static: -2)",
            expect![[r#"
            error 21..25 `tile`: `tile` conflicts with `collapse`
              secondary 9..17 `collapse`: `collapse` given here
              note: `tile` already covers as many loops as it has sizes
            error 18..19 `0`: `collapse` needs a positive integer, found `0`
            error 29..30 `0`: `tile` needs a positive integer, found `0`
            error 46..47 `0`: `gang(num:)` needs a positive integer, found `0`
            error 57..59 `-2`: `gang(static:)` needs a positive integer, found `-2`
        "#]],
        );
        check(
            "acc loop worker(0) vector(n)",
            expect![[r#"
            error 16..17 `0`: `worker` needs a positive integer, found `0`
        "#]],
        );
        check(
            "acc kernels num_gangs(1, 2)",
            expect![[r#"
            error 12..27 `num_gangs(1, 2)`: on `kernels`, `num_gangs` takes a single argument
        "#]],
        );
        check(
            "acc parallel num_gangs(1, 2, 3, 4) num_workers(n - 1)",
            expect![[r#"
            error 13..34 `num_gangs(1, 2, 3, 4)`: `num_gangs` takes at most three arguments, found 4
              note: one per gang dimension
        "#]],
        );
        check(
            "acc parallel num_gangs(*)",
            expect![[r#"
            error 23..24 `*`: `*` is not allowed in `num_gangs`
        "#]],
        );
    }

    #[test]
    fn gang_worker_vector_arguments() {
        check(
            "acc parallel loop gang(num: 4) worker(4) vector(length: 32)",
            expect![[r#"
            error 23..29 `num: 4`: `gang(num:)` is not allowed on `parallel loop`
              note: give the number of gangs with `num_gangs` instead
            error 38..39 `4`: `worker(...)` is not allowed on `parallel loop`
              note: use `num_workers` instead
            error 56..58 `32`: `vector(...)` is not allowed on `parallel loop`
              note: use `vector_length` instead
        "#]],
        );
        check(
            "acc routine gang(num: 4, static: 2) ",
            expect![[r#"
            error 17..23 `num: 4`: `gang` on `routine` takes only `dim:`
            error 25..34 `static: 2`: `gang` on `routine` takes only `dim:`
        "#]],
        );
        check(
            "acc routine worker(4)",
            expect![[r#"
            error 19..20 `4`: `worker` on `routine` takes no argument
        "#]],
        );
        check(
            "acc loop gang(dim: 4, dim: 1)",
            expect![[r#"
            error 19..20 `4`: `gang(dim:)` must be 1, 2 or 3, found `4`
            error 22..28 `dim: 1`: `dim` appears more than once in `gang(...)`
              secondary 14..20 `dim: 4`: first here
        "#]],
        );
        check(
            "acc kernels loop gang(dim: 2)",
            expect![[r#"
            error 22..28 `dim: 2`: `gang(dim:)` is not allowed on `kernels loop`
        "#]],
        );
    }

    #[test]
    fn subarray_without_colon() {
        check(
            "acc data copyin(a[3]) copy(b[n]) present(m[i][j])",
            expect![[r#"
            error 16..20 `a[3]`: subarray `a[3]` has no `:`; write `a[3:1]` for one element or `a[0:3]` for the first 3
              note: Clacc and OpenMP read `a[n]` as one element, PGI as the first `n`; OpenACC does not say
              fix 16..20 `a[3]`: replace with `a[3:1]` (make it one element)
            error 27..31 `b[n]`: subarray `b[n]` has no `:`; write `b[n:1]` for one element or `b[0:n]` for the first `n`
              note: Clacc and OpenMP read `a[n]` as one element, PGI as the first `n`; OpenACC does not say
              fix 27..31 `b[n]`: replace with `b[n:1]` (make it one element)
            error 41..48 `m[i][j]`: subarray `m[i][j]` has no `:`; write `m[i:1][j:1]` for one element
              note: Clacc and OpenMP read `a[n]` as one element, PGI as the first `n`; OpenACC does not say
              fix 41..48 `m[i][j]`: replace with `m[i:1][j:1]` (make it one element)
        "#]],
        );
        check(
            "acc update device(a[2])",
            expect![[r#"
            error 18..22 `a[2]`: subarray `a[2]` has no `:`; write `a[2:1]` for one element or `a[0:2]` for the first 2
              note: Clacc and OpenMP read `a[n]` as one element, PGI as the first `n`; OpenACC does not say
              fix 18..22 `a[2]`: replace with `a[2:1]` (make it one element)
        "#]],
        );
        check(
            "acc data copy(s.arr[3], p->q[1]) copy(c[0:3])",
            expect![[""]],
        );
        check("acc cache(a[i])", expect![[""]]);
    }

    #[test]
    fn subarrays_in_private() {
        check(
            "acc parallel private(a[0:n]) firstprivate(b[:]) private(c[2])",
            expect![[r#"
            error 21..27 `a[0:n]`: subarrays are not allowed in `private`
              note: OpenMP cannot map them either; privatize the whole array
            error 42..46 `b[:]`: subarrays are not allowed in `firstprivate`
              note: OpenMP cannot map them either; privatize the whole array
            error 56..60 `c[2]`: array elements are not allowed in `private`
              note: privatize the whole array
        "#]],
        );
        // acc's own rules: a gang's copy of a section on a compute construct, not on a loop.
        let acc = |text: &str| {
            let (d, _) = parse_directive(text, 0);
            render(
                text,
                0,
                &super::check_directive_as(&d.expect("parses"), super::Rules::Acc),
            )
        };
        assert_eq!(acc("acc parallel private(a[0:n]) firstprivate(b[2:n])"), "");
        assert_eq!(acc("acc serial firstprivate(b[0:n])"), "");
        assert!(acc("acc loop private(a[0:n])").contains("subarrays are not allowed in `private`"));
        assert!(acc("acc parallel loop private(a[0:n])").contains("subarrays are not allowed"));
        check(
            "acc declare copyin(a[0:n])",
            expect![[r#"
            error 19..25 `a[0:n]`: subarrays are not allowed in `declare`
              note: declare the whole array
        "#]],
        );
    }

    #[test]
    fn duplicate_variables() {
        check(
            "acc parallel copy(a) copy(a, b) pcopy(b) private(i, i)",
            expect![[r#"
            error 26..27 `a`: `a` appears more than once in `copy`
              secondary 18..19 `a`: first here
              note: keep one
            error 38..39 `b`: `b` appears more than once in `copy`
              secondary 29..30 `b`: first here
              note: keep one
            error 52..53 `i`: `i` appears more than once in `private`
              secondary 49..50 `i`: first here
              note: keep one
        "#]],
        );
        check(
            "acc parallel copy(a[0 : n]) copy(a[0:n])",
            expect![[r#"
            error 33..39 `a[0:n]`: `a[0:n]` appears more than once in `copy`
              secondary 18..26 `a[0 : n]`: first here
              note: keep one
        "#]],
        );
        check(
            "acc loop reduction(+:s) reduction(*:s)",
            expect![[r#"
            error 36..37 `s`: `s` appears in two reductions with different operators (`+` and `*`)
              secondary 21..22 `s`: first here
              note: keep one
        "#]],
        );
        check(
            "acc update self(a) host(a)",
            expect![[r#"
            error 24..25 `a`: `a` appears more than once in `host`
              secondary 16..17 `a`: first here
              note: keep one
        "#]],
        );
    }

    #[test]
    fn variables_in_two_attributes() {
        check(
            "acc parallel copyin(x) copyout(x)",
            expect![[r#"
            error 31..32 `x`: `x` appears in both `copyin` and `copyout`; keep one (did you mean `copy`?)
              secondary 20..21 `x`: also in `copyin` here
        "#]],
        );
        check(
            "acc data present(x) create(x) copy(x)",
            expect![[r#"
            error 27..28 `x`: `x` appears in both `present` and `create`; keep one
              secondary 17..18 `x`: also in `present` here
            error 35..36 `x`: `x` appears in both `present` and `copy`; keep one
              secondary 17..18 `x`: also in `present` here
        "#]],
        );
        check(
            "acc parallel loop private(x) reduction(+:x) firstprivate(x)",
            expect![[r#"
            error 41..42 `x`: `x` appears in both `private` and `reduction`; keep one
              secondary 26..27 `x`: also in `private` here
            error 57..58 `x`: `x` appears in both `private` and `firstprivate`; keep one
              secondary 26..27 `x`: also in `private` here
        "#]],
        );
        check(
            "acc parallel copy(x) private(x)",
            expect![[r#"
            error 29..30 `x`: `x` appears in both `copy` and `private`; the private copy hides the mapped data; keep one
              secondary 18..19 `x`: also in `copy` here
        "#]],
        );
        check(
            "acc parallel firstprivate(y) copyin(y)",
            expect![[r#"
            error 36..37 `y`: `y` appears in both `firstprivate` and `copyin`; the firstprivate copy hides the mapped data; keep one
              secondary 26..27 `y`: also in `firstprivate` here
        "#]],
        );
        check("acc parallel reduction(+:s) copy(s)", expect![[""]]);
    }
}
