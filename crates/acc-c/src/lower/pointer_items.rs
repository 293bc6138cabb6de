//! A warning about the commonest data clause slip: a pointer named whole (`copyin(a)` of
//! `double *a`) where the construct uses what it points to (`a[i]`, `*a`, `a->x`). The clause
//! maps the pointer itself, eight bytes (OpenACC 3.3 2.7.1 maps a section's elements only when
//! the section is written), so the kernel dereferences a host address: on separate memory the
//! program reads the host's memory or faults, with no message. nvc says the same at compile
//! time.
//!
//! It must not change the plan: it only reads it.

use super::*;
use acc_engine::facts::Shape;

impl Lowerer<'_> {
    pub(super) fn warn_pointers_mapped_whole(&mut self) {
        let mut warnings = Vec::new();
        for plan in self.plans {
            let (construct, data) = match plan {
                ConstructPlan::Kernel(k) => (k.construct, &k.data),
                ConstructPlan::Region { construct, data } => (*construct, data),
                _ => continue,
            };
            let Some(body) = self.unit.construct(construct).body else {
                continue;
            };
            for d in data.iter().filter(|d| !d.implicit) {
                let moves_data = matches!(
                    d.action,
                    Action::Copy | Action::Copyin | Action::Copyout | Action::Create
                );
                let Some(item) = d.item.as_ref().filter(|i| i.accessors.is_empty()) else {
                    continue;
                };
                if !moves_data || self.unit.var(d.var).shape != Shape::Pointer {
                    continue;
                }
                let Some(used) = self
                    .unit
                    .refs_in(body)
                    .iter()
                    .find(|r| r.var == d.var && !r.implied && self.dereferences(r.span))
                else {
                    continue;
                };
                let name = &self.unit.var(d.var).name;
                warnings.push(
                    Diagnostic::warning(
                        item.span,
                        format!(
                            "`{}({name})` maps the pointer `{name}` itself, not the data it points \
                             to, which the construct uses",
                            d.action.name()
                        ),
                    )
                    .with_secondary(used.span, "used here")
                    .with_note(format!(
                        "name the elements: `{}({name}[0:n])` with their count n (OpenACC 3.3 \
                         2.7.1); on a device with its own memory the host's address is \
                         dereferenced",
                        d.action.name()
                    )),
                );
            }
        }
        self.diags.extend(warnings);
    }

    /// Whether the name at `at` is subscripted or dereferenced there (`a[i]`, `a->x`, `*a`).
    fn dereferences(&self, at: Span) -> bool {
        let after = self.src[at.end..].trim_start();
        let before = self.src[..at.start].trim_end();
        after.starts_with('[')
            || after.starts_with("->")
            || (before.ends_with('*') && !before.ends_with("**"))
    }
}

#[cfg(test)]
mod tests {
    use crate::lower::lower_test_file;

    fn warned(src: &str) -> Vec<String> {
        let (_, diags) = lower_test_file(src);
        diags
            .iter()
            .filter(|d| d.message.contains("maps the pointer"))
            .map(|d| src[d.span.range()].to_string())
            .collect()
    }

    /// `copyin(a)` of a pointer the construct subscripts is warned about at the item; a
    /// section, a pointer used only as a value, and `present` or `deviceptr` are not.
    #[test]
    fn a_pointer_mapped_whole_and_dereferenced_is_warned_about() {
        let src = "struct p { double x; };\nvoid f(int n, double *a, double *b, double *c, struct p *s, double *d) {\n\
                   #pragma acc parallel loop copyin(a, c) copyout(b[0:n]) copy(s)\n  for (int i = 0; i < n; i++) b[i] = a[i] + (c == 0) + s->x;\n\
                   #pragma acc data copyin(d)\n  {\n#pragma acc parallel loop present(b[0:n])\n  for (int i = 0; i < n; i++) b[i] = *d;\n  }\n}\n";
        assert_eq!(warned(src), vec!["a", "s", "d"]);
    }
}
