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
//!
//! Layout: `tables` holds the OpenACC 3.3 clause tables (which clauses a
//! directive allows, which may follow `device_type`, which may repeat, the
//! modifiers of each data clause); `placement` checks the clause list as
//! a whole (placement, repeats, required and exclusive clauses, `routine`'s
//! level); `args` checks each clause's own arguments; `items` checks
//! list items across clauses (duplicates and conflicts) and their shape.

mod args;
mod items;
mod placement;
mod tables;
#[cfg(test)]
mod tests;

use crate::diag::Diagnostic;
use crate::directive::{Clause, Directive};

use args::check_clause_args;
use items::check_items;
pub use items::merged_data_clause;
use placement::{check_exclusive, check_placement, check_required, sections};

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
