//! Atomics inside kernels: an `atomic` construct whose statement [`read`] reads as one access
//! of one location becomes one macro call (a compare-and-swap in the CUDA module), anything
//! else takes the runtime's lock; and the warning when one location is updated both ways.
//!
//! It must not know the host side or the kernel's partitioning.

use super::edit::apply_in;
use super::*;

mod read;

/// An `atomic` construct of a kernel: where its directive is, and the variable whose location
/// its CUDA version compare-and-swaps (`None`: it takes the device lock), with the variables
/// its statement names.
pub(super) struct AtomicSeen {
    pub(super) directive: Span,
    pub(super) line: usize,
    pub(super) location: Option<VarId>,
    pub(super) vars: Vec<VarId>,
}

impl<'a> Lowerer<'a> {
    /// An atomic construct whose statement [`crate::atomic`] reads as one access of one
    /// location, written as one macro call: `__ACC_ATOMIC_READ(v, x)`, `__ACC_ATOMIC_WRITE(x,
    /// e)`, `__ACC_ATOMIC(x, op=, name, e)` (`x = e op x` as `__ACC_ATOMIC_R(x, op, rname, e)`)
    /// and for a capture `__ACC_CAPTURE(v, x, op=, name, e, new)` (`__ACC_CAPTURE_R`; an
    /// exchange is `op` `=`). The host build takes its lock around them; the CUDA module
    /// updates the one location with compare-and-swap (C's own arithmetic on the value it
    /// read) or reads or writes it whole, not under a device-wide lock. Returns the variable
    /// the location belongs to (`hist` of `hist[i]`); `None` for other statements, which keep
    /// the lock everywhere.
    pub(super) fn atomic_update(
        &self,
        c: &acc_engine::facts::Construct,
        ref_edits: &[Edit],
        edits: &mut Vec<Edit>,
    ) -> Option<VarId> {
        use acc_engine::directive::{AtomicKind, DirectiveArg};
        use read::{read_access, AtomicAccess, AtomicKindOf, UpdateOp};
        let kind = match c.directive.arg {
            Some(DirectiveArg::Atomic(AtomicKind::Read, _)) => AtomicKindOf::Read,
            Some(DirectiveArg::Atomic(AtomicKind::Write, _)) => AtomicKindOf::Write,
            Some(DirectiveArg::Atomic(AtomicKind::Capture, _)) => AtomicKindOf::Capture,
            Some(DirectiveArg::Atomic(AtomicKind::Update, _)) | None => AtomicKindOf::Update,
            _ => return None,
        };
        let body = c.body?;
        let text = &self.src[body.range()];
        let access = read_access(kind, text)?;
        let x = match &access {
            AtomicAccess::Read { x, .. }
            | AtomicAccess::Write { x, .. }
            | AtomicAccess::Update { x, .. } => x.clone(),
        };
        let location = self
            .unit
            .refs_in(Span::new(body.start + x.start, body.start + x.end))
            .first()
            .map(|r| r.var)?;
        // A piece of the statement as the kernel spells it (mapped variables renamed).
        let piece = |r: std::ops::Range<usize>| {
            let span = Span::new(body.start + r.start, body.start + r.end);
            let inner: Vec<Edit> = ref_edits
                .iter()
                .filter(|e| span.start <= e.start && e.end <= span.end)
                .cloned()
                .collect();
            format!("({})", apply_in(self.src, span, inner))
        };
        let call = match access {
            AtomicAccess::Read { v, x } => {
                format!("__ACC_ATOMIC_READ({}, {});", piece(v), piece(x))
            }
            AtomicAccess::Write { x, e } => {
                format!("__ACC_ATOMIC_WRITE({}, {});", piece(x), piece(e))
            }
            AtomicAccess::Update { x, op, e, capture } => {
                let e = e.map_or_else(|| "1".to_string(), &piece);
                let name = op.functor_name();
                let (suffix, op) = match op {
                    UpdateOp::Forward(b) => ("", format!("{b}=")),
                    UpdateOp::Reversed(b) => ("_R", b.to_string()),
                    UpdateOp::Set => ("", "=".to_string()),
                };
                let x = piece(x);
                match capture {
                    None => format!("__ACC_ATOMIC{suffix}({x}, {op}, {name}, {e});"),
                    Some((v, fresh)) => format!(
                        "__ACC_CAPTURE{suffix}({}, {x}, {op}, {name}, {e}, {});",
                        piece(v),
                        i32::from(fresh)
                    ),
                }
            }
        };
        edits.push(Edit::remove(c.pragma_span));
        // The whole statement: before the renames inside it, which are skipped.
        edits.push(Edit {
            start: body.start,
            end: body.end,
            text: call,
            order: -1,
            line_after: false,
        });
        Some(location)
    }

    /// Records how an `atomic` construct's CUDA version updates its location (`location`:
    /// compare-and-swap on that variable's; `None`: the device lock), for
    /// [`Self::warn_mixed_atomics`].
    pub(super) fn seen_atomic(
        &mut self,
        c: &acc_engine::facts::Construct,
        location: Option<VarId>,
    ) {
        if self
            .atomics
            .iter()
            .any(|a| a.directive == c.directive.name_span)
        {
            return;
        }
        let vars = c
            .body
            .map(|b| self.unit.refs_in(b).iter().map(|r| r.var).collect())
            .unwrap_or_default();
        self.atomics.push(AtomicSeen {
            directive: c.directive.name_span,
            line: self.line(c.pragma_span),
            location,
            vars,
        });
    }

    /// Warns of an `atomic` that takes the device lock on a GPU while another compare-and-swaps
    /// a location of the same variable: the lock does not exclude the compare-and-swap.
    pub(super) fn warn_mixed_atomics(&mut self) {
        let mut warnings = Vec::new();
        for locked in self.atomics.iter().filter(|a| a.location.is_none()) {
            let other = self
                .atomics
                .iter()
                .find(|a| a.location.is_some_and(|v| locked.vars.contains(&v)));
            if let Some(other) = other {
                let name = &self.unit.var(other.location.expect("found by it")).name;
                warnings.push(
                    Diagnostic::warning(
                        locked.directive,
                        format!(
                            "on a GPU this `atomic` takes the device's lock (acc does not read its \
                             statement as one of OpenACC's forms), which does not exclude the \
                             compare-and-swap on `{name}` of the `atomic` at line {}",
                            other.line
                        ),
                    )
                    .with_note(
                        "write the statement as `x binop= expr`, `x = x binop expr`, `x++` or \
                         another of the forms in OpenACC 3.3 2.12, without a macro standing for it",
                    ),
                );
            }
        }
        self.diags.extend(warnings);
    }

    /// An `atomic update` (or bare `atomic`) whose statement is a write (`y = i + 1;`): no form
    /// of `atomic update` (OpenACC 3.3 2.12). acc makes it atomic with the device lock; the
    /// warning says which construct the program means.
    /// Any other statement acc does not read as one of the forms OpenACC 3.3 2.12 gives the
    /// construct (`atomic read` of `t = s + 1;`, a capture block of two unrelated statements,
    /// `atomic update` of a block): acc runs it under the device's lock, which makes any
    /// statement atomic, and says that it did.
    fn warn_write_as_update(&mut self, cid: ConstructId) {
        use acc_engine::directive::{AtomicKind, DirectiveArg};
        let c = self.unit.construct(cid);
        let update = matches!(
            c.directive.arg,
            Some(DirectiveArg::Atomic(AtomicKind::Update, _)) | None
        );
        let Some(body) = c.body else {
            return;
        };
        let write = update
            .then(|| read::plain_write(&self.src[body.range()]))
            .flatten();
        // A macro may stand for a form (`BUMP(n[0])` for `n[0]++`): acc reads the text as
        // written, so it cannot tell, and says nothing (`warn_mixed_atomics` still may).
        let text = &self.src[body.range()];
        let through_macro = text
            .split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
            .any(|word| {
                self.macros.contains_key(word) || self.macro_lines.iter().any(|m| m.name == word)
            });
        if write.is_none() && !through_macro {
            let kind = match c.directive.arg {
                Some(DirectiveArg::Atomic(k, _)) => k.name(),
                _ => "update",
            };
            self.diags.push(
                Diagnostic::warning(
                    body,
                    format!(
                        "acc does not read this statement as one of the forms of `atomic {kind}` \
                         (OpenACC 3.3 2.12): it makes it atomic with the device's lock"
                    ),
                )
                .with_note(
                    "`atomic read` is `v = x;`, `write` `x = e;`, `update` `x++`, `x binop= e` \
                     or `x = x binop e`; a `capture` block updates and reads one `x`",
                ),
            );
        }
        if let Some(x) = write {
            self.diags.push(
                Diagnostic::warning(
                    body,
                    format!(
                        "this statement writes `{x}`, which no form of `atomic update` does \
                         (OpenACC 3.3 2.12: `x++`, `x binop= e`, `x = x binop e`, ...): acc \
                         makes it atomic with the device's lock"
                    ),
                )
                .with_note("if a write is meant, say `atomic write`"),
            );
        }
    }

    /// The edits for the `atomic` construct `cid` of a kernel: one macro call where
    /// [`read`] reads its statement as one access, the runtime's lock around it otherwise.
    pub(in crate::lower) fn kernel_atomic(
        &mut self,
        cid: ConstructId,
        ref_edits: &[Edit],
        edits: &mut Vec<Edit>,
    ) {
        let nested = self.unit.construct(cid);
        let depth_of = |c: ConstructId| self.unit.ancestors(c).count() as i64;
        let location = self.atomic_update(nested, ref_edits, edits);
        self.seen_atomic(nested, location);
        if location.is_some() {
            return;
        }
        self.warn_write_as_update(cid);
        edits.push(Edit {
            start: nested.pragma_span.start,
            end: nested.pragma_span.end,
            text: "{ acc_rt_atomic_begin();".into(),
            order: 0,
            line_after: false,
        });
        if let Some(b) = nested.body {
            edits.push(Edit {
                start: b.end,
                end: b.end,
                text: " acc_rt_atomic_end(); }".into(),
                order: -depth_of(cid),
                line_after: false,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lower::lower_test_file;

    /// A statement of none of `atomic`'s forms (OpenACC 3.3 2.12) is warned about at the
    /// statement, once; the forms are not.
    #[test]
    fn statements_of_no_atomic_form_are_warned_about() {
        let src = "void f(double *a, double *s, double *t, double *u) {\n#pragma acc parallel loop copyin(a[0:8]) copy(s[0:1], t[0:1], u[0:1])\n  for (int i = 0; i < 8; i++) {\n\
                   #pragma acc atomic capture\n    { t[0] = s[0]; u[0] += 1; }\n\
                   #pragma acc atomic read\n    t[0] = s[0] + 1;\n\
                   #pragma acc atomic update\n    { s[0] += a[i]; s[0] += 1; }\n\
                   #pragma acc atomic capture\n    { t[0] = s[0]; s[0] += a[i]; }\n\
                   #pragma acc atomic read\n    t[0] = s[0];\n\
                   #pragma acc atomic\n    s[0] = s[0] * a[i];\n  }\n}\n";
        let (_, diags) = lower_test_file(src);
        let lines: Vec<usize> = diags
            .iter()
            .filter(|d| d.message.contains("does not read this statement"))
            .map(|d| src[..d.span.start].matches('\n').count() + 1)
            .collect();
        assert_eq!(lines, vec![5, 7, 9], "{diags:?}");
    }
}
