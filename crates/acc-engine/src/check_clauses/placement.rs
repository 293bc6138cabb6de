//! The clause list as a whole: clauses allowed on the directive and after
//! `device_type`, clauses repeated within a `device_type` section, required
//! clauses, `routine`'s one level of parallelism, and clauses that exclude
//! each other.
//!
//! It looks at clause kinds and their order only; it must not look inside a
//! clause's arguments (that is `args`' and `items`' job). The clauses it
//! rejects as not allowed are left out of every later check.

use std::collections::HashMap;

use crate::diag::Diagnostic;
use crate::directive::{Clause, ClauseKind, Directive, DirectiveKind};

use super::tables::{
    allowed_clauses, has_device_type_sections, is_allowed, may_follow_device_type, may_repeat,
    LEVELS,
};
use ClauseKind as K;
use DirectiveKind as D;

/// The section of each clause: 0 before the first `device_type`, then the
/// index of the `device_type` clause plus one.
pub(super) fn sections(d: &Directive) -> Vec<usize> {
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

pub(super) fn clause_list(kinds: &[ClauseKind]) -> String {
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
pub(super) fn check_placement(d: &Directive, diags: &mut Vec<Diagnostic>) -> Vec<usize> {
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

pub(super) fn check_required(d: &Directive, diags: &mut Vec<Diagnostic>) {
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

/// `routine` needs exactly one level of parallelism: in the base section,
/// or else in every `device_type` section.
pub(super) fn check_routine_level(d: &Directive, diags: &mut Vec<Diagnostic>) {
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
pub(super) fn check_exclusive(
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
