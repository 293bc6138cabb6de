//! Which of the file's functions a caller's check follows into: a function with pointer or
//! array parameters whose body calls nothing and lets none of them escape (a helper that
//! enters data, runs a kernel on it, updates or exits it for its caller). At a call, its
//! steps run in the caller's state with those parameters bound to the arguments, so `enter
//! data` in one function and the use in another are checked together.
//!
//! It owns the criteria and the binding; it must not know what a directive does.

use std::collections::HashMap;

use crate::facts::flow::{FlowFn, Step};
use crate::facts::{Shape, Unit, VarId};

/// A function the check follows into.
pub(super) struct Summary<'u> {
    pub params: Vec<VarId>,
    /// Its steps, without a last `return`.
    pub body: &'u [Step],
}

impl Summary<'_> {
    /// The binding of its pointer and array parameters to a call's arguments.
    pub(super) fn bind(&self, unit: &Unit, args: &[Option<VarId>]) -> HashMap<VarId, VarId> {
        self.params
            .iter()
            .zip(args)
            .filter(|(p, _)| matches!(unit.var(**p).shape, Shape::Pointer | Shape::Array))
            .filter_map(|(p, a)| a.map(|a| (*p, a)))
            .collect()
    }
}

pub(super) fn summarize<'u>(unit: &Unit, f: &'u FlowFn) -> Option<Summary<'u>> {
    let data_params: Vec<VarId> = f
        .params
        .iter()
        .copied()
        .filter(|p| matches!(unit.var(*p).shape, Shape::Pointer | Shape::Array))
        .collect();
    if data_params.is_empty() {
        return None;
    }
    let body = match f.body.split_last() {
        Some((Step::Return, rest)) => rest,
        _ => &f.body[..],
    };
    let mut ok = true;
    super::scan(body, &mut |s| match s {
        Step::Call { .. } | Step::Opaque | Step::Return => ok = false,
        Step::Escape(v) | Step::Bind { var: v, .. } if data_params.contains(v) => ok = false,
        _ => {}
    });
    ok.then(|| Summary {
        params: f.params.clone(),
        body,
    })
}
