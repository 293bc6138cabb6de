//! The check's findings and their diagnostics: message, caret, the notes
//! pointing at the definition or directive involved, and the clause or
//! directive to add as a fix.
//!
//! It owns the wording; it must not decide what is a finding.

use crate::diag::Diagnostic;
use crate::facts::Unit;
use crate::plan::Action;
use crate::span::Span;

use super::state::Key;

#[derive(Clone, Debug)]
pub(super) enum Finding {
    /// The device reads an item the host wrote while it was present, with no transfer.
    StaleDevice {
        read: Span,
        write: Span,
        construct: Span,
        item: Option<String>,
        var: Key,
    },
    /// The host reads an item the device wrote, with no transfer back.
    StaleHost {
        /// The list item a fix names (`c[0:n]`), when a clause named it.
        item: Option<String>,
        read: Span,
        stmt: Span,
        write: Span,
        var: Key,
        held: Option<Span>,
        mapped: Option<(Span, Action, String)>,
        present: Option<bool>,
    },
    /// The host reads an item before the asynchronous transfer back is waited for.
    AsyncHost {
        read: Span,
        stmt: Span,
        transfer: Span,
        var: Key,
    },
    /// The device (or `update self`) reads device memory nothing wrote.
    Uninit {
        read: Span,
        create: Span,
        mapped: Option<(Span, Action, String)>,
        var: Key,
    },
    /// `present` or `update` of an item no path maps.
    NotPresent {
        at: Span,
        what: &'static str,
        var: Key,
        /// Inside a called function: the clause there.
        inner: Option<Span>,
    },
    /// A kernel uses a pointer's target no path maps.
    NotPresentUse { at: Span, construct: Span, var: Key },
    /// `exit data` of data never entered.
    NeverEntered { at: Span, var: Key },
    /// `copy` of data the device never writes.
    CopyUnneeded {
        item: Span,
        name: Span,
        single: bool,
        var: Key,
    },
    /// An `update` of data that has not changed on the side it copies from.
    UpdateUnchanged { at: Span, to_device: bool, var: Key },
}

impl Finding {
    pub(super) fn code(&self) -> u8 {
        match self {
            Finding::StaleDevice { .. } => 0,
            Finding::StaleHost { .. } => 1,
            Finding::AsyncHost { .. } => 2,
            Finding::Uninit { .. } => 3,
            Finding::NotPresent { .. } => 4,
            Finding::NotPresentUse { .. } => 5,
            Finding::NeverEntered { .. } => 6,
            Finding::CopyUnneeded { .. } => 7,
            Finding::UpdateUnchanged { .. } => 8,
        }
    }

    pub(super) fn diagnostic(&self, unit: &Unit) -> Diagnostic {
        let name = |k: &Key| format!("{}{}", unit.var(k.0).name, k.1);
        match self {
            Finding::StaleDevice { .. } => self.stale_device(unit),
            Finding::StaleHost { .. } => self.stale_host(unit),
            Finding::AsyncHost {
                read,
                stmt,
                transfer,
                var,
            } => Diagnostic::error(
                *read,
                format!(
                    "the host reads `{}` before the asynchronous transfer back is waited for",
                    name(var)
                ),
            )
            .with_label("may read the old value")
            .with_secondary(*transfer, "queued here, with `async`")
            .with_fix(
                "add `wait` before the read",
                Span::new(stmt.start, stmt.start),
                "#pragma acc wait\n",
            ),
            Finding::Uninit {
                read,
                create,
                mapped,
                var,
            } => {
                let d = Diagnostic::error(
                    *read,
                    format!(
                        "reads the device copy of `{}`, which nothing wrote: it was allocated without a copy in",
                        name(var)
                    ),
                )
                .with_label("reads uninitialized device memory")
                .with_secondary(*create, "allocated here, uninitialized");
                match mapped {
                    Some((clause, Action::Create, text)) => {
                        d.with_fix(format!("copy `{text}` in"), *clause, "copyin")
                    }
                    Some((clause, Action::Copyout, text)) => {
                        d.with_fix(format!("copy `{text}` in and out"), *clause, "copy")
                    }
                    _ => d,
                }
            }
            Finding::NotPresent {
                at,
                what,
                var,
                inner,
            } => {
                let d = Diagnostic::error(
                    *at,
                    format!(
                        "`{what}` of `{}`, which no path maps before this",
                        name(var)
                    ),
                )
                .with_label("not present here on any path");
                let d = match inner {
                    Some(c) => d.with_secondary(*c, "the called function expects it present here"),
                    None => d,
                };
                d.with_note(
                    "map it first (a data region or `enter data` with `copyin` or `create`)",
                )
            }
            Finding::NotPresentUse { at, construct, var } => Diagnostic::error(
                *at,
                format!(
                    "the device uses `{}`, whose data no path maps to the device",
                    name(var)
                ),
            )
            .with_label("not present on the device")
            .with_secondary(*construct, "in this compute construct")
            .with_note(format!(
                "add a data clause for it, e.g. `copy({}[0:n])` with its length",
                name(var)
            )),
            // A no-op at run time (the runtime leaves absent data alone, as the V&V test
            // reference_count_zero expects), but the transfer it was written for does not
            // happen.
            Finding::NeverEntered { at, var } => Diagnostic::warning(
                *at,
                format!(
                    "`exit data` of `{}`, which was never entered: it does nothing",
                    name(var)
                ),
            )
            .with_label("not present here on any path")
            .with_note("an `enter data` (or a data region around this) must map it first"),
            Finding::CopyUnneeded {
                item,
                name: clause,
                single,
                var,
            } => {
                let d = Diagnostic::warning(
                    *item,
                    format!(
                        "`copy` of `{}` copies it back, but the device never writes it",
                        name(var)
                    ),
                )
                .with_label("this copy back is not needed");
                if *single {
                    d.with_fix("use `copyin`", *clause, "copyin")
                } else {
                    d.with_note("move it to a `copyin` clause")
                }
            }
            Finding::UpdateUnchanged { at, to_device, var } => {
                let (dir, side) = if *to_device {
                    ("update device", "host")
                } else {
                    ("update self", "device")
                };
                Diagnostic::warning(
                    *at,
                    format!(
                        "`{dir}` of `{}`, which the {side} has not changed since the copies were last equal",
                        name(var)
                    ),
                )
                .with_label("this transfer moves nothing new")
                .with_note("remove it, or move it after the writes it should carry")
            }
        }
    }

    fn stale_host(&self, unit: &Unit) -> Diagnostic {
        let Finding::StaleHost {
            item,
            read,
            stmt,
            write,
            var,
            held,
            mapped,
            present,
        } = self
        else {
            unreachable!("called for StaleHost only")
        };
        let name = |k: &Key| format!("{}{}", unit.var(k.0).name, k.1);
        let n = name(var);
        let mut d = Diagnostic::error(
            *read,
            format!("the host reads `{n}`, which the device changed, with no transfer back"),
        )
        .with_label("reads the host's stale copy")
        .with_secondary(*write, "the device writes it here");
        let item = item.clone().unwrap_or_else(|| n.clone());
        if let Some(h) = held {
            d = d
                    .with_secondary(*h, "this copy back moves nothing")
                    .with_note(format!(
                        "`{n}` is still present when this region ends (an enclosing region or `enter data` holds it), so its reference count does not reach zero and nothing is copied back"
                    ));
        }
        match mapped {
            Some((clause, action @ (Action::Create | Action::Copyin), text))
                if held.is_none() && *present == Some(false) =>
            {
                let to = if *action == Action::Create {
                    "copyout"
                } else {
                    "copy"
                };
                d.with_secondary(*clause, "mapped here without a copy back")
                    .with_fix(format!("map `{text}` with `{to}`"), *clause, to.to_string())
            }
            _ => d.with_fix(
                format!("add `update self({item})` before the read"),
                Span::new(stmt.start, stmt.start),
                format!("#pragma acc update self({item})\n"),
            ),
        }
    }

    fn stale_device(&self, unit: &Unit) -> Diagnostic {
        let Finding::StaleDevice {
            read,
            write,
            construct,
            item,
            var,
        } = self
        else {
            unreachable!("called for StaleDevice only")
        };
        let name = |k: &Key| format!("{}{}", unit.var(k.0).name, k.1);
        let item = item.clone().unwrap_or_else(|| name(var));
        Diagnostic::error(
                *read,
                format!(
                    "the device reads `{}`, which the host changed while it was present, with no transfer to the device in between",
                    name(var)
                ),
            )
            .with_label("reads the device's stale copy")
            .with_secondary(*write, "the host writes it here; the device copy keeps the old value")
            .with_note("a program must give the same result with its directives disabled; here it would not")
            .with_fix(
                format!("add `update device({item})` after the host's writes"),
                Span::new(construct.start, construct.start),
                format!("#pragma acc update device({item})\n"),
            )
    }
}
