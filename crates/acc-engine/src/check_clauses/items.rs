//! List items across clauses (Clacc's rules): no variable twice in one kind
//! of clause, in two data clauses, in two data-sharing clauses, or in a
//! data clause and `private`/`firstprivate`; and the shape of each item (no
//! subarray without `:`, no subarrays in `private`/`firstprivate`, ...,
//! under [`Rules`]).
//!
//! Variables are compared by their text (base name and accessors, without
//! whitespace): it must not resolve names or types.

use std::collections::HashMap;

use crate::diag::Diagnostic;
use crate::directive::{
    Accessor, Clause, ClauseArgs, ClauseKind, Directive, DirectiveKind, VarItem,
};

use super::Rules;
use ClauseKind as K;
use DirectiveKind as D;

/// The clause kind that names the same data attribute: aliases are already
/// resolved by the parser; `host` and `self(list)` on `update` are one.
pub(super) fn attribute_of(kind: ClauseKind) -> ClauseKind {
    if kind == K::Host {
        K::SelfClause
    } else {
        kind
    }
}

pub(super) struct Seen<'d> {
    clause: &'d Clause,
    item: &'d VarItem,
}

pub(super) fn check_items(
    d: &Directive,
    valid: &[&Clause],
    rules: Rules,
    diags: &mut Vec<Diagnostic>,
) {
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
                    if rules == Rules::Acc
                        && merged_data_clause(other.clause.kind, c.kind).is_some()
                    {
                        continue;
                    }
                    let hint = match merged_data_clause(other.clause.kind, c.kind) {
                        Some(m) => format!(
                            "keep one: OpenMP maps a variable once (`acc cc` takes the two as \
                             `{}`)",
                            m.name()
                        ),
                        None => "keep one".to_string(),
                    };
                    diags.push(both(item, c, other, &hint));
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

/// The one data clause that two on the same item of one directive amount to, where acc's own
/// lowering takes both (`copyin(x) copyout(x)` is `copy(x)`, `create(x) copyout(x)` is
/// `copyout(x)`): OpenACC 3.3 does not forbid naming a variable in two data clauses (Flang's
/// OpenACC documentation says so too), nvc takes these, and real code writes them (a matrix
/// product's `create(C) copyout(C)`, an FFT's `copyin(X) copyout(X)`). Clacc's rule of one
/// data attribute per variable stays for the translation to OpenMP, which has no form for two
/// (GCC refuses a variable in two map clauses), as GCC refuses it for OpenACC.
pub fn merged_data_clause(a: ClauseKind, b: ClauseKind) -> Option<ClauseKind> {
    let moves = |k: ClauseKind| matches!(k, K::Copy | K::Copyin | K::Copyout | K::Create);
    if !moves(a) || !moves(b) || a == b {
        return None;
    }
    Some(match (a, b) {
        (K::Create, other) | (other, K::Create) => other,
        _ => K::Copy,
    })
}

pub(super) fn private_note(kind: ClauseKind) -> &'static str {
    if kind == K::Private {
        "the private copy hides the mapped data; keep one"
    } else {
        "the firstprivate copy hides the mapped data; keep one"
    }
}

/// "`x` appears in both `copyin` and `copyout`", primary on the later
/// appearance, secondary on the earlier.
pub(super) fn both(item: &VarItem, c: &Clause, other: &Seen<'_>, advice: &str) -> Diagnostic {
    let (a, b) = (other.clause.kind, c.kind);
    let hint = advice;
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
pub(super) fn check_item_shape(
    d: &Directive,
    c: &Clause,
    item: &VarItem,
    rules: Rules,
    diags: &mut Vec<Diagnostic>,
) {
    let cname = c.kind.name();
    if matches!(c.kind, K::Private | K::Firstprivate) {
        // acc's lowering gives each gang its copy of a section named on a compute or combined
        // construct (OpenACC 3.3 §2.5.13-14 allow them; see `attrs::clause_goes_to_loop`);
        // OpenMP has no form for one, nor for a copy per loop iteration.
        if item.is_subarray() && rules == Rules::Acc && d.kind.is_compute() {
            return;
        }
        if item.is_subarray() {
            let note = if rules == Rules::Acc {
                "acc gives each gang its copy of a section named on a compute or combined \
                 construct (`parallel loop private(p[0:n])`); name it there, or privatize the \
                 whole array"
            } else {
                "OpenMP cannot map them either; privatize the whole array"
            };
            diags.push(
                Diagnostic::error(item.span, format!("subarrays are not allowed in `{cname}`"))
                    .with_note(note),
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
    }
    // An array element in a data clause (`copy(a[3])`, `update self(p[i])`) is that one
    // element: OpenACC 3.3's *var* includes array elements, and GCC, Flang and Clacc read
    // it so (PGI's old reading, the first `n`, maps one element past the end instead, which
    // a later kernel's access finds not present). Nothing to check for it.
}
