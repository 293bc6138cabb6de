//! The OpenACC API's data routines (`acc_copyin(a, bytes)`, `acc_delete`, `acc_update_self`,
//! their `_async` and `_finalize` forms) as the dynamic data actions they are, on the data
//! their first argument names when that is a variable's name alone.
//!
//! It owns the table of routines; what an action does is `actions`'.

use crate::attrs::EffKind;
use crate::plan::{Action, DataItem};

/// What a routine does: the directive kind it acts as, its action, `finalize`, `async`.
pub(super) struct ApiAction {
    pub kind: EffKind,
    pub action: Action,
    pub finalize: bool,
    pub asynchronous: bool,
}

pub(super) fn api_action(name: &str) -> Option<ApiAction> {
    let base = name.strip_suffix("_async").unwrap_or(name);
    let asynchronous = base.len() != name.len();
    let (base, finalize) = match base.strip_suffix("_finalize") {
        Some(b) => (b, true),
        None => (base, false),
    };
    let (kind, action) = match base {
        "acc_copyin" | "acc_present_or_copyin" | "acc_pcopyin" => {
            (EffKind::EnterData, Action::Copyin)
        }
        "acc_create" | "acc_present_or_create" | "acc_pcreate" => {
            (EffKind::EnterData, Action::Create)
        }
        "acc_copyout" => (EffKind::ExitData, Action::Copyout),
        "acc_delete" => (EffKind::ExitData, Action::Delete),
        "acc_update_device" => (EffKind::Update, Action::UpdateDevice),
        "acc_update_self" => (EffKind::Update, Action::UpdateSelf),
        _ => return None,
    };
    Some(ApiAction {
        kind,
        action,
        finalize,
        asynchronous,
    })
}

impl ApiAction {
    pub(super) fn item(&self, var: crate::facts::VarId) -> DataItem {
        DataItem {
            action: self.action,
            var,
            item: None,
            zero: false,
            finalize: self.finalize,
            if_present: false,
            implicit: false,
        }
    }
}
