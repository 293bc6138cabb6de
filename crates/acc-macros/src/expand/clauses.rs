use super::LoopSpec;
use crate::text::SpanTable;
use acc_engine::directive::{ClauseArgs, ClauseKind, VarItem};

pub(super) fn is_loop_clause(k: ClauseKind) -> bool {
    matches!(
        k,
        ClauseKind::Gang
            | ClauseKind::Worker
            | ClauseKind::Vector
            | ClauseKind::Seq
            | ClauseKind::Auto
            | ClauseKind::Independent
            | ClauseKind::Collapse
            | ClauseKind::Tile
            | ClauseKind::Reduction
            | ClauseKind::Private
    )
}

pub(super) fn loop_clause(
    spec: &mut LoopSpec,
    cl: &acc_engine::directive::Clause,
    table: &SpanTable,
    errors: &mut Vec<syn::Error>,
) {
    match (&cl.kind, &cl.args) {
        // Partitioning is the engine's decision (`LoopSpec::partitioned`).
        (
            ClauseKind::Gang
            | ClauseKind::Worker
            | ClauseKind::Vector
            | ClauseKind::Independent
            | ClauseKind::Seq
            | ClauseKind::Auto,
            _,
        ) => {}
        (ClauseKind::Collapse, ClauseArgs::Collapse { count, .. }) => match count.int_value() {
            Some(n) if n >= 1 => spec.collapse = n as usize,
            _ => errors.push(syn::Error::new(
                table.span(count.span),
                "`collapse` takes a positive integer literal",
            )),
        },
        (ClauseKind::Tile, ClauseArgs::Exprs(es)) => spec.collapse = spec.collapse.max(es.len()),
        (ClauseKind::Reduction, ClauseArgs::Reduction { op, items, .. }) => {
            for item in items {
                if let Some(id) = plain_name(item, table, errors) {
                    spec.reductions.push((*op, id));
                }
            }
        }
        (ClauseKind::Private, _) => {
            for item in cl.items() {
                if let Some(id) = plain_name(item, table, errors) {
                    spec.privates.push(id);
                }
            }
        }
        _ => errors.push(syn::Error::new(
            table.span(cl.name_span),
            format!(
                "not supported yet by the Rust front end: the `{}` clause on a loop",
                cl.spelling
            ),
        )),
    }
}

/// The variable of a list item, which must be a plain name.
pub(super) fn plain_name(
    item: &VarItem,
    table: &SpanTable,
    errors: &mut Vec<syn::Error>,
) -> Option<syn::Ident> {
    let span = table.span(item.base.span);
    if item.is_subarray() {
        errors.push(syn::Error::new(
            span,
            format!(
                "not supported yet: subarrays in Rust clauses (`{}`); name the whole slice",
                item.text
            ),
        ));
        return None;
    }
    if !item.accessors.is_empty() {
        errors.push(syn::Error::new(
            span,
            format!(
                "`{}`: clauses name variables, not members or elements",
                item.text
            ),
        ));
        return None;
    }
    match syn::parse_str::<syn::Ident>(&item.base.name) {
        Ok(mut id) => {
            id.set_span(span);
            Some(id)
        }
        Err(_) => {
            errors.push(syn::Error::new(span, "expected a variable name"));
            None
        }
    }
}
