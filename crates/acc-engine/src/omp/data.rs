//! Data and other directives: `data` → `omp target data`, `enter data` and
//! `exit data` (with `finalize`), `update` → `omp target update`,
//! `host_data` → `omp target data use_device_ptr/addr`, `declare` (file
//! scope → `omp declare target`, block scope → a data region for the rest
//! of the block), and `routine`, `atomic`, `wait`, `cache`, `init`,
//! `shutdown`, `set`.
//!
//! It reads the data attributes of [`crate::attrs`]; it must not know about
//! compute constructs' implicit attributes.

use crate::attrs::{clause_items, Dma, EffId, EffKind};
use crate::directive::{AtomicKind, ClauseKind, DataModifier, DirectiveArg, DirectiveKind};

use super::*;

impl Cx<'_> {
    pub(super) fn data(&mut self, e: EffId) -> Level {
        let mut lv = Level::new();
        let mut clauses = Vec::new();
        if let Some(c) = self.if_clause(e) {
            clauses.push(c);
        }
        for (kind, list, span, _) in self.explicit_lists(e) {
            if let Some(dma) = Dma::from_clause(kind) {
                if let Some(m) = self.structured_map(dma, &list, span) {
                    clauses.push(m);
                }
            }
        }
        if clauses.iter().any(|c| c.starts_with("map(")) {
            lv.pragmas.push(join_clauses("omp target data", &clauses));
        }
        lv
    }

    pub(super) fn enter_exit(&mut self, e: EffId) -> Level {
        let enter = self.an.eff(e).kind == EffKind::EnterData;
        let finalize = self.has(e, ClauseKind::Finalize);
        let mut lv = Level::new();
        let mut clauses = Vec::new();
        let mut updates = Vec::new();
        let cond = self.if_clause(e);
        if let Some(c) = &cond {
            clauses.push(c.clone());
        }
        for (kind, list, span, mods) in self.explicit_lists(e) {
            if mods.contains(&DataModifier::Zero) {
                self.unmappable(
                    span,
                    "create(zero: …)",
                    "OpenMP cannot zero-fill a new mapping",
                );
                continue;
            }
            let ty = match kind {
                ClauseKind::Copyin => "to",
                ClauseKind::Create => "alloc",
                ClauseKind::Copyout if finalize => {
                    updates.push(format!("from({list})"));
                    "delete"
                }
                ClauseKind::Copyout => "from",
                ClauseKind::Delete if finalize => "delete",
                ClauseKind::Delete => "release",
                ClauseKind::Attach | ClauseKind::Detach => {
                    self.unmappable(
                        span,
                        kind.name(),
                        "OpenMP attaches pointers only as part of mapping their target",
                    );
                    continue;
                }
                _ => continue,
            };
            clauses.push(format!("map({ty}: {list})"));
        }
        if !updates.is_empty() {
            let mut u = cond.into_iter().collect::<Vec<_>>();
            u.extend(updates);
            lv.pragmas.push(join_clauses("omp target update", &u));
        }
        if clauses.iter().any(|c| c.starts_with("map(")) {
            let head = if enter {
                "omp target enter data"
            } else {
                "omp target exit data"
            };
            lv.pragmas.push(join_clauses(head, &clauses));
        }
        lv
    }

    pub(super) fn update(&mut self, e: EffId) -> Level {
        let mut lv = Level::new();
        let mut clauses = Vec::new();
        if let Some(c) = self.if_clause(e) {
            clauses.push(c);
        }
        let present = self.opts.update_present && !self.has(e, ClauseKind::IfPresent);
        let modifier = if present { "present: " } else { "" };
        for (kind, list, _, _) in self.explicit_lists(e) {
            match kind {
                ClauseKind::SelfClause | ClauseKind::Host => {
                    clauses.push(format!("from({modifier}{list})"))
                }
                ClauseKind::Device => clauses.push(format!("to({modifier}{list})")),
                _ => {}
            }
        }
        lv.pragmas.push(join_clauses("omp target update", &clauses));
        lv
    }

    pub(super) fn host_data(&mut self, e: EffId) -> Level {
        let mut lv = Level::new();
        let mut clauses = Vec::new();
        if let Some(c) = self.if_clause(e) {
            clauses.push(c);
        }
        let d = self.directive(e);
        let c = self.unit.construct(self.an.eff(e).construct);
        let mut ptrs = Vec::new();
        let mut addrs = Vec::new();
        for &ci in &self.an.eff(e).clauses {
            if d.clauses[ci].kind != ClauseKind::UseDevice {
                continue;
            }
            for (ii, item) in clause_items(&d.clauses[ci].args).iter().enumerate() {
                let is_ptr = c.clause_vars[ci][ii]
                    .is_some_and(|v| self.unit.var(v).shape == crate::facts::Shape::Pointer);
                if is_ptr {
                    ptrs.push(item.text.as_str());
                } else {
                    addrs.push(item.text.as_str());
                }
            }
        }
        if !ptrs.is_empty() {
            clauses.push(format!("use_device_ptr({})", ptrs.join(",")));
        }
        if !addrs.is_empty() {
            clauses.push(format!("use_device_addr({})", addrs.join(",")));
        }
        lv.pragmas.push(join_clauses("omp target data", &clauses));
        lv
    }

    pub(super) fn declare(&mut self, e: EffId) -> Level {
        let c = self.unit.construct(self.an.eff(e).construct);
        let mut lv = Level::new();
        match c.block_rest {
            Some(rest) => {
                let mut clauses = Vec::new();
                for (kind, list, span, _) in self.explicit_lists(e) {
                    let dma = match kind {
                        ClauseKind::DeviceResident => Some(Dma::Create),
                        ClauseKind::Link => Some(Dma::Create),
                        k => Dma::from_clause(k),
                    };
                    if let Some(m) = dma.and_then(|d| self.structured_map(d, &list, span)) {
                        clauses.push(m);
                    }
                }
                if !clauses.is_empty() {
                    lv.pragmas.push(join_clauses("omp target data", &clauses));
                    lv.wrap = Wrap::Rest(rest);
                }
            }
            None => {
                let mut to = Vec::new();
                let mut link = Vec::new();
                for (kind, list, _, _) in self.explicit_lists(e) {
                    match kind {
                        ClauseKind::Link => link.push(list),
                        ClauseKind::Deviceptr => {}
                        _ => to.push(list),
                    }
                }
                if !to.is_empty() {
                    lv.pragmas
                        .push(format!("omp declare target({})", to.join(",")));
                }
                if !link.is_empty() {
                    lv.pragmas
                        .push(format!("omp declare target link({})", link.join(",")));
                }
            }
        }
        lv
    }

    pub(super) fn other(&mut self, e: EffId) -> Level {
        let d = self.directive(e);
        let c = self.unit.construct(self.an.eff(e).construct);
        let mut lv = Level::new();
        match d.kind {
            DirectiveKind::Atomic => {
                let kind = match &d.arg {
                    Some(DirectiveArg::Atomic(k, _)) => *k,
                    _ => AtomicKind::Update,
                };
                lv.pragmas.push(match kind {
                    AtomicKind::Read => "omp atomic read".into(),
                    AtomicKind::Write => "omp atomic write".into(),
                    AtomicKind::Update => "omp atomic update".into(),
                    AtomicKind::Capture => "omp atomic capture".into(),
                });
            }
            DirectiveKind::Wait => lv.pragmas.push("omp taskwait".into()),
            DirectiveKind::Cache => {}
            DirectiveKind::Routine => {
                let nohost = self.has(e, ClauseKind::Nohost);
                if let Some(bind) = d.clauses.iter().find(|cl| cl.kind == ClauseKind::Bind) {
                    self.unmappable(
                        bind.span,
                        "bind",
                        "OpenMP has no way to name a different device function",
                    );
                }
                let device_type = if nohost { " device_type(nohost)" } else { "" };
                match (&d.arg, &c.function) {
                    (Some(DirectiveArg::RoutineName(name)), _) => {
                        if nohost {
                            lv.pragmas
                                .push(format!("omp declare target to({}){device_type}", name.name));
                        } else {
                            lv.pragmas
                                .push(format!("omp declare target({})", name.name));
                        }
                    }
                    (_, Some((_, span))) => {
                        lv.pragmas.push(if nohost {
                            format!("omp begin declare target{device_type}")
                        } else {
                            "omp declare target".into()
                        });
                        lv.after = Some((*span, vec!["omp end declare target".into()]));
                    }
                    _ => {}
                }
            }
            DirectiveKind::Init | DirectiveKind::Shutdown | DirectiveKind::Set => {
                lv.prelude.push(runtime_call(d));
            }
            _ => {}
        }
        lv
    }
}

/// `init`, `shutdown` and `set` as the OpenACC routines OpenACC 3.3 defines them by (§3.2.7
/// `acc_init` "is equivalent to the init directive", §3.2.9 shutdown, §2.14.3 `set`: the
/// device type and number and the default async queue): OpenMP has no directive for them, so
/// the OpenMP form calls the routines, which an OpenACC library over OpenMP provides (acc's
/// `acc2omp.c`, Clacc's libacc2omp). The same calls as acc's own lowering makes.
fn runtime_call(d: &Directive) -> String {
    let expr = |kind: ClauseKind| d.clause_expr(kind);
    let device_type = d
        .clauses
        .iter()
        .find_map(|c| match &c.args {
            ClauseArgs::DeviceTypes(ids) if c.kind == ClauseKind::DeviceType => ids.first(),
            _ => None,
        })
        .map(|id| id.name.as_str());
    let device_type = match device_type {
        Some("host") => "acc_device_host",
        Some("nvidia") => "acc_device_nvidia",
        Some("radeon") => "acc_device_radeon",
        Some("host_discrete") => "acc_device_host_discrete",
        Some("default") => "acc_device_default",
        _ => "acc_get_device_type()",
    };
    let mut calls = Vec::new();
    match d.kind {
        DirectiveKind::Init => calls.push(format!("acc_init({device_type});")),
        DirectiveKind::Shutdown => calls.push(format!("acc_shutdown({device_type});")),
        _ => {
            if let Some(n) = expr(ClauseKind::DeviceNum) {
                calls.push(format!("acc_set_device_num(({n}), {device_type});"));
            } else if d.has(ClauseKind::DeviceType) {
                calls.push(format!("acc_set_device_type({device_type});"));
            }
            if let Some(q) = expr(ClauseKind::DefaultAsync) {
                calls.push(format!("acc_set_default_async({q});"));
            }
        }
    }
    let calls = calls.join(" ");
    match expr(ClauseKind::If) {
        Some(cond) => format!("if ({cond}) {{ {calls} }}"),
        None => calls,
    }
}
