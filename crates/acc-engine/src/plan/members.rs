//! The pointer members of a struct that a compute construct copies whole (implicitly, or by a
//! `copy`/`copyin`/`create` of its own): attached to their targets' device copies for the
//! construct.
//!
//! OpenACC 3.3 2.6.2 gives a struct named in no visible data clause the implicit `copy` of an
//! aggregate, and the copy is shallow (2.6.4): a pointer member holds the host's address. The
//! specification attaches a member only where a data clause names it while its struct is
//! present (2.7.2), which a program that maps the member's target on its own (`enter data
//! copyin(s.arr[0:n])` in an initialisation, `acc_copyin(s.arr, …)`) and then uses `s.arr[i]`
//! in a `parallel loop` never does: on a device with memory of its own the kernel would then
//! read and write the host's memory (a GPU faults; the CPU devices change the host array,
//! which the section's later `copyout` overwrites), and the mapped section would go unused.
//! Such a kernel can only mean the device copy, so, as for members mapped by an enclosing
//! data construct (`aggregates_mapped_by_members`), each pointer member the construct names is
//! attached to its target's device copy when that is present, and detached before the struct
//! goes back. Where the target is not present nothing changes (the runtime leaves such a
//! pointer alone, 2.7.2), so no program the specification defines sees a difference. A struct
//! the construct's own `copy`, `copyin` or `create` names whole is copied as shallowly, and
//! its members are attached the same way (the implicit copy and the explicit one of the same
//! struct mean the same to the kernel).

use super::*;
use crate::directive::Ident;
use crate::facts::Construct;

/// The implicit attaches for the struct members the construct names (`Construct::
/// members_used`) of each struct the plan copies whole, after that copy.
pub(super) fn attach_members_of_implicit_copies(
    unit: &Unit,
    c: &Construct,
    data: &mut Vec<DataItem>,
) {
    let mut at = 0;
    while at < data.len() {
        let d = &data[at];
        at += 1;
        // A struct the construct copies whole, implicitly or by its own clause (`copyin(s)`:
        // a shallow copy too, whose members the kernel can only mean on the device).
        let whole = d.item.as_ref().is_none_or(|i| i.accessors.is_empty());
        if !(whole && matches!(d.action, Action::Copy | Action::Copyin | Action::Create)) {
            continue;
        }
        let v = d.var;
        let var = unit.var(v);
        let attaches: Vec<DataItem> = c
            .members_used
            .iter()
            .filter(|(owner, _)| *owner == v)
            .filter(|(_, m)| var.has_pointer_member(m))
            .filter(|(_, m)| {
                !data
                    .iter()
                    .any(|x| x.var == v && names_member(x, m) && !presents_target(unit, x))
            })
            .map(|(_, m)| DataItem {
                action: Action::Attach,
                var: v,
                item: Some(VarItem {
                    text: format!("{}.{m}", var.name),
                    span: c.directive.name_span,
                    base: Ident {
                        name: var.name.clone(),
                        span: c.directive.name_span,
                    },
                    accessors: vec![Accessor::Member(Ident {
                        name: m.clone(),
                        span: c.directive.name_span,
                    })],
                }),
                zero: false,
                finalize: false,
                if_present: false,
                implicit: true,
            })
            .collect();
        let n = attaches.len();
        data.splice(at..at, attaches);
        at += n;
    }
}

/// Whether a data item is a `present` of a pointer member alone (`present(s.x)`, `s` in
/// `unit`): it asks for the data the pointer points to (acc-c's `names_a_pointer`), which
/// leaves the member to be attached like any other.
pub(super) fn presents_target(unit: &Unit, d: &DataItem) -> bool {
    let Some([Accessor::Member(m) | Accessor::Arrow(m)]) =
        d.item.as_ref().map(|i| i.accessors.as_slice())
    else {
        return false;
    };
    d.action == Action::Present && unit.var(d.var).has_pointer_member(&m.name)
}

/// Whether a data item names member `m` of its variable (`s.m`, `s.m[0:n]`).
fn names_member(d: &DataItem, m: &str) -> bool {
    d.item
        .as_ref()
        .is_some_and(|i| matches!(i.accessors.first(), Some(Accessor::Member(x)) if x.name == m))
}
