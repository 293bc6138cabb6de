//! What a directive does to the check's state: a compute construct's data
//! items around its device uses, a `data` region's around its body, `enter
//! data`, `exit data` (with `finalize`), `update` (with `async`), `wait`,
//! and the `if` clause as both paths.
//!
//! It owns the reference-count rules (a transfer happens only when a count
//! leaves or reaches zero); it must not walk host code (`interp` does).

use std::collections::{BTreeMap, HashSet};

use crate::attrs::{Dsa, EffKind};
use crate::directive::{Accessor, ClauseKind};
use crate::facts::flow::{Step, Use};
use crate::facts::{ConstructId, Shape, VarId};
use crate::plan::{Action, ConstructPlan, DataItem};
use crate::span::Span;

use super::interp::{member_path, wait_all, Fx};
use super::report::Finding;
use super::state::{join_if, Count, KState, Key, State};

type Map = BTreeMap<Key, KState>;

/// How an item is being entered or left.
#[derive(Clone, Copy)]
struct Mode {
    dynamic: bool,
    finalize: bool,
    asynchronous: bool,
}

impl Fx<'_> {
    pub(super) fn construct(&mut self, id: ConstructId, body: &[Step], st: State) -> State {
        st.as_ref()?;
        let d = &self.unit.construct(id).directive;
        if d.has(ClauseKind::If) {
            // The condition is unknown: both paths. Without the directive, a
            // compute or data construct's statement runs on the host.
            let saved = std::mem::replace(&mut self.conditional, true);
            let on = self.construct_on(id, body, st.clone());
            self.conditional = saved;
            let off = self.run(body, st);
            join_if(&on, &off)
        } else {
            self.construct_on(id, body, st)
        }
    }

    fn construct_on(&mut self, id: ConstructId, body: &[Step], st: State) -> State {
        let c = self.unit.construct(id);
        let mode = Mode {
            dynamic: false,
            finalize: c.directive.has(ClauseKind::Finalize),
            asynchronous: c.directive.has(ClauseKind::Async),
        };
        match &self.plans[id.0 as usize] {
            ConstructPlan::Kernel(k) => {
                let data = self.aliases_merged(&k.data);
                let mut st = st;
                let m = st.as_mut()?;
                let moved: Vec<bool> = data.iter().map(|i| self.enter(m, i, mode)).collect();
                let on_host: HashSet<Key> = m
                    .iter()
                    .filter(|(_, ks)| ks.on_host > 0 && ks.count == Count::ABSENT)
                    .map(|(k, _)| k.clone())
                    .collect();
                self.device(id, body, m, &on_host);
                for (i, t) in data.iter().zip(moved).rev() {
                    self.exit(m, i, mode, t);
                }
                st
            }
            ConstructPlan::Region { data, .. }
                if self.an.eff(self.an.outermost(id)).kind == EffKind::Data =>
            {
                let data = self.aliases_merged(data);
                let mut st = st;
                let moved: Vec<bool> = match st.as_mut() {
                    Some(m) => data.iter().map(|i| self.enter(m, i, mode)).collect(),
                    None => return None,
                };
                let mut st = self.run(body, st);
                if let Some(m) = st.as_mut() {
                    for (i, t) in data.iter().zip(moved).rev() {
                        self.exit(m, i, mode, t);
                    }
                }
                st
            }
            ConstructPlan::Dynamic { kind, data, .. } => {
                let mut st = st;
                let m = st.as_mut()?;
                let mode = Mode {
                    dynamic: true,
                    ..mode
                };
                for i in data {
                    match kind {
                        EffKind::EnterData => {
                            self.enter(m, i, mode);
                        }
                        EffKind::ExitData => self.exit(m, i, mode, false),
                        EffKind::Update => self.update(m, i, mode),
                        _ => {}
                    }
                }
                st
            }
            _ => {
                let mut st = self.run(body, st);
                if c.directive.kind == crate::directive::DirectiveKind::Wait {
                    if let Some(m) = st.as_mut() {
                        wait_all(m);
                    }
                }
                st
            }
        }
    }

    /// A data routine of the API on `var`'s data, reported at the call.
    pub(super) fn api(&mut self, a: &super::api::ApiAction, var: VarId, at: Span, m: &mut Map) {
        let saved = self.via_call.replace(at);
        let item = a.item(var);
        let mode = Mode {
            dynamic: true,
            finalize: a.finalize,
            asynchronous: a.asynchronous,
        };
        match a.kind {
            EffKind::EnterData => {
                self.enter(m, &item, mode);
            }
            EffKind::ExitData => self.exit(m, &item, mode, false),
            _ => self.update(m, &item, mode),
        }
        self.via_call = saved;
    }

    /// A construct's items on the same data under two names (`copyin(v[0:n])
    /// copyout(r[0:n])` where the call binds both to one array): one item with the copies of
    /// both, as the runtime's entry and exit treat them (clause order is not significant,
    /// OpenACC 3.3 2.1). Only copying and creating items on the same section merge.
    fn aliases_merged(&self, data: &[DataItem]) -> Vec<DataItem> {
        let mergeable = |i: &DataItem| {
            matches!(
                i.action,
                Action::Copy | Action::Copyin | Action::Copyout | Action::Create
            )
        };
        let section = |i: &DataItem| i.item.as_ref().map(section_text);
        let mut out: Vec<DataItem> = Vec::with_capacity(data.len());
        for i in data {
            let same = |o: &DataItem| {
                mergeable(o) && self.key(o) == self.key(i) && section(o) == section(i)
            };
            match out.iter_mut().find(|o| mergeable(i) && same(o)) {
                Some(first) => {
                    let copies_in = |a: Action| matches!(a, Action::Copy | Action::Copyin);
                    let copies_out = |a: Action| matches!(a, Action::Copy | Action::Copyout);
                    first.action = match (
                        copies_in(first.action) || copies_in(i.action),
                        copies_out(first.action) || copies_out(i.action),
                    ) {
                        (true, true) => Action::Copy,
                        (true, false) => Action::Copyin,
                        (false, true) => Action::Copyout,
                        (false, false) => Action::Create,
                    };
                    first.zero |= i.zero;
                    first.implicit &= i.implicit;
                }
                None => out.push(i.clone()),
            }
        }
        out
    }

    fn key(&self, i: &DataItem) -> Key {
        (
            self.bound(i.var),
            i.item.as_ref().map(member_path).unwrap_or_default(),
        )
    }

    fn item_span(&self, i: &DataItem, id_hint: Option<ConstructId>) -> Span {
        if let Some(call) = self.via_call {
            return call;
        }
        match (&i.item, id_hint) {
            (Some(it), _) => it.span,
            (None, Some(c)) => self.unit.construct(c).directive.name_span,
            (None, None) => Span::new(0, 0),
        }
    }

    fn item_text(&self, i: &DataItem) -> String {
        match &i.item {
            Some(it) => it.text.clone(),
            None => self.unit.var(i.var).name.clone(),
        }
    }

    /// The clause name's span of an explicit item (for a fix that renames the clause), and
    /// whether the clause names this item alone.
    fn clause_of(&self, i: &DataItem) -> Option<(Span, bool)> {
        if self.via_call.is_some() {
            return None;
        }
        let it = i.item.as_ref()?;
        self.unit.constructs.iter().find_map(|c| {
            c.directive
                .clauses
                .iter()
                .find(|cl| cl.span.contains(it.span))
                .map(|cl| {
                    (
                        cl.name_span,
                        crate::attrs::clause_items(&cl.args).len() == 1,
                    )
                })
        })
    }

    /// Enters one item; returns whether data moved to the device.
    fn enter(&mut self, m: &mut Map, i: &DataItem, mode: Mode) -> bool {
        let key = self.key(i);
        let section = i
            .item
            .as_ref()
            .filter(|_| self.via_call.is_none())
            .map(section_text);
        let span = self.item_span(i, None);
        let mapped = self
            .clause_of(i)
            .map(|c| (c.0, i.action, self.item_text(i)));
        let text = (self.via_call.is_none() && i.item.is_some()).then(|| self.item_text(i));
        let Some(ks) = m.get_mut(&key) else {
            return false;
        };
        if text.is_some() {
            ks.text.clone_from(&text);
        }
        let counted = matches!(
            i.action,
            Action::Copy
                | Action::Copyin
                | Action::Create
                | Action::Copyout
                | Action::Present
                | Action::NoCreate
        );
        if !counted {
            if i.action == Action::Deviceptr {
                // Device memory the program manages itself: not followed.
                ks.forget();
                ks.poisoned = true;
            }
            return false;
        }
        match ks.count {
            Count::Known { s, d } if s + d == 0 => match i.action {
                Action::Present => {
                    self.emit_unless_conditional(Finding::NotPresent {
                        at: span,
                        what: "present",
                        var: key.clone(),
                        inner: self.via_call.and(i.item.as_ref().map(|x| x.span)),
                    });
                    // The program stops there: nothing after it is checked for this item.
                    ks.forget();
                    ks.poisoned = true;
                    false
                }
                // Not present: the construct uses the host's data.
                Action::NoCreate => {
                    ks.on_host += 1;
                    false
                }
                action => {
                    let copies = matches!(action, Action::Copy | Action::Copyin);
                    // A device write the host never received stays unreceived: the new
                    // device copy starts from the host's stale data.
                    let (pending, host_stale) = (ks.pending, ks.host_stale);
                    *ks = KState::new(bump(s, d, mode.dynamic));
                    ks.pending = pending;
                    ks.host_stale = host_stale;
                    ks.text = text;
                    ks.section = section;
                    ks.mapped = mapped;
                    if copies {
                        ks.dev_clean = true;
                        ks.host_clean = true;
                        ks.untouched = true;
                    } else if !i.zero {
                        ks.dev_undef = Some(span);
                    }
                    copies
                }
            },
            Count::Known { s, d } => {
                let fits = match (&ks.section, &section) {
                    (Some(old), Some(new)) => within(old, new),
                    _ => true,
                };
                if !fits {
                    self.give_up(
                        span,
                        format!(
                            "unknown: `{}` is mapped with another section here; sections not compared",
                            self.item_text(i)
                        ),
                    );
                    ks.forget();
                } else {
                    ks.count = bump(s, d, mode.dynamic);
                }
                false
            }
            Count::Unknown => {
                if matches!(i.action, Action::Copy | Action::Copyin) {
                    ks.dev_stale = None;
                    ks.dev_undef = None;
                }
                ks.dev_clean = false;
                ks.host_clean = false;
                false
            }
        }
    }

    /// Leaves one item (structured: at the end of the region; dynamic: `exit data`).
    fn exit(&mut self, m: &mut Map, i: &DataItem, mode: Mode, moved_in: bool) {
        let key = self.key(i);
        let span = self.item_span(i, None);
        let local = self.is_local(key.0);
        let clause = self.clause_of(i);
        let Some(ks) = m.get_mut(&key) else {
            return;
        };
        let copies = matches!(i.action, Action::Copy | Action::Copyout);
        if !matches!(
            i.action,
            Action::Copy
                | Action::Copyin
                | Action::Create
                | Action::Copyout
                | Action::Present
                | Action::NoCreate
                | Action::Delete
        ) {
            return;
        }
        if i.action == Action::NoCreate && ks.count == Count::ABSENT {
            ks.on_host = ks.on_host.saturating_sub(1);
            return;
        }
        let Count::Known { s, d } = ks.count else {
            if copies {
                ks.host_stale = None;
                ks.held = None;
            }
            return;
        };
        let (s2, d2) = if mode.dynamic {
            if s + d == 0 {
                if !i.if_present {
                    self.emit_unless_conditional(Finding::NeverEntered { at: span, var: key });
                }
                return;
            }
            if d == 0 {
                return;
            }
            (s, if mode.finalize { 0 } else { d - 1 })
        } else {
            if s == 0 {
                ks.forget();
                return;
            }
            (s - 1, d)
        };
        if s2 + d2 > 0 {
            ks.count = Count::Known { s: s2, d: d2 };
            if copies && ks.host_stale.is_some() {
                ks.held = Some(span);
            }
            return;
        }
        if copies {
            if i.action == Action::Copy && moved_in && ks.untouched && local {
                if let Some((name, single)) = clause {
                    self.emit(Finding::CopyUnneeded {
                        item: span,
                        name,
                        single,
                        var: key.clone(),
                    });
                }
            }
            if mode.asynchronous {
                ks.pending = Some(span);
            } else {
                ks.host_stale = None;
            }
        }
        let old = std::mem::replace(ks, KState::new(Count::ABSENT));
        ks.host_stale = old.host_stale;
        ks.pending = old.pending;
        ks.mapped = old.mapped;
        ks.text = old.text;
    }

    fn update(&mut self, m: &mut Map, i: &DataItem, mode: Mode) {
        let key = self.key(i);
        let span = self.item_span(i, None);
        let local = self.is_local(key.0);
        let Some(ks) = m.get_mut(&key) else {
            return;
        };
        let to_device = i.action == Action::UpdateDevice;
        if ks.count == Count::ABSENT {
            if !i.if_present {
                self.emit_unless_conditional(Finding::NotPresent {
                    at: span,
                    what: if to_device {
                        "update device"
                    } else {
                        "update self"
                    },
                    var: key,
                    inner: self.via_call.and(i.item.as_ref().map(|x| x.span)),
                });
            }
            return;
        }
        let present = ks.count.present() == Some(true);
        if present && local && ks.dev_clean && ks.host_clean && ks.pending.is_none() {
            self.emit(Finding::UpdateUnchanged {
                at: span,
                to_device,
                var: key.clone(),
            });
        }
        if to_device {
            ks.dev_stale = None;
            ks.dev_undef = None;
            ks.dev_clean = present;
            ks.host_clean = present;
            return;
        }
        if let (Some(c), true) = (ks.dev_undef, present) {
            self.emit(Finding::Uninit {
                read: span,
                create: c,
                mapped: ks.mapped.clone(),
                var: key.clone(),
            });
            ks.dev_undef = None;
        }
        ks.held = None;
        if mode.asynchronous {
            ks.pending = Some(span);
        } else {
            ks.host_stale = None;
            ks.host_clean = present;
            ks.dev_clean = present;
        }
    }

    /// A local of the function that nothing aliases (warnings about useless transfers are
    /// given only for those).
    fn is_local(&self, v: VarId) -> bool {
        !self.unit.var(v).is_global && !self.params.contains(&v) && !self.escaped.contains(&v)
    }

    /// The device's uses of a compute construct's statement.
    /// `on_host`: items a `no_create` found absent, which the construct uses in host memory.
    fn device(&mut self, id: ConstructId, body: &[Step], m: &mut Map, on_host: &HashSet<Key>) {
        let outer = self.an.outermost(id);
        let (mut private, mut reduced) = (HashSet::new(), Vec::new());
        for e in &self.an.effs {
            if !(e.construct == id || e.compute == Some(outer)) {
                continue;
            }
            for a in &e.attrs {
                match a.dsa {
                    Some((Dsa::Private, _)) => {
                        private.insert(a.var);
                    }
                    Some((Dsa::Firstprivate, o))
                        if o.is_exp() || self.unit.var(a.var).shape != Shape::Pointer =>
                    {
                        private.insert(a.var);
                    }
                    Some((Dsa::Reduction(_), _)) => reduced.push(a.var),
                    _ => {}
                }
            }
        }
        let mut uses: Vec<&Use> = Vec::new();
        let mut calls = Vec::new();
        super::scan(body, &mut |s| match s {
            Step::Use(u) => uses.push(u),
            Step::Call { touched, .. } => calls.extend(touched.iter().copied()),
            _ => {}
        });
        let any_call = super::has_call(body);
        let mut first: BTreeMap<Key, &Use> = BTreeMap::new();
        let mut writes: BTreeMap<Key, Span> = BTreeMap::new();
        for u in &uses {
            if private.contains(&u.var) || reduced.contains(&u.var) {
                continue;
            }
            let Some(k) = self.key_of(u) else { continue };
            if u.write {
                writes.entry(k.clone()).or_insert(u.span);
            }
            first.entry(k).or_insert(u);
        }
        let pragma = self.unit.construct(id).pragma_span;
        for (k, u) in &first {
            let ks = m.get_mut(k).expect("tracked");
            if on_host.contains(k) {
                if writes.contains_key(k) {
                    ks.host_stale = None;
                }
                continue;
            }
            if ks.count == Count::ABSENT {
                self.emit_unless_conditional(Finding::NotPresentUse {
                    at: u.span,
                    construct: pragma,
                    var: k.clone(),
                });
                ks.forget();
                ks.poisoned = true;
                continue;
            }
            if !u.read || ks.poisoned {
                continue;
            }
            if let Some(c) = ks.dev_undef.take() {
                self.emit(Finding::Uninit {
                    read: u.span,
                    create: c,
                    mapped: ks.mapped.clone(),
                    var: k.clone(),
                });
            } else if let Some(w) = ks.dev_stale.take() {
                self.emit(Finding::StaleDevice {
                    read: u.span,
                    write: w,
                    construct: pragma,
                    item: ks.mapped.as_ref().map(|x| x.2.clone()).or(ks.text.clone()),
                    var: k.clone(),
                });
            }
        }
        for (k, w) in writes.iter().filter(|(k, _)| !on_host.contains(*k)) {
            let ks = m.get_mut(k).expect("tracked");
            if ks.poisoned {
                continue;
            }
            ks.host_stale = Some(*w);
            ks.dev_stale = None;
            ks.dev_undef = None;
            ks.dev_clean = false;
            ks.untouched = false;
            ks.held = None;
        }
        let name = self.unit.construct(id).directive.name_span;
        for v in reduced {
            let Some(ks) = m.get_mut(&(self.bound(v), String::new())) else {
                continue;
            };
            match ks.count.present() {
                Some(true) => {
                    ks.host_stale = Some(name);
                    ks.dev_clean = false;
                    ks.untouched = false;
                }
                _ => ks.host_stale = None,
            }
        }
        if any_call {
            for (k, ks) in m.iter_mut() {
                if calls.contains(&k.0) || self.unit.var(k.0).is_global {
                    ks.forget();
                }
            }
        }
    }
}

fn bump(s: u32, d: u32, dynamic: bool) -> Count {
    if dynamic {
        Count::Known { s, d: d + 1 }
    } else {
        Count::Known { s: s + 1, d }
    }
}

/// Whether a section `new` lies within the present section `old` (both as
/// [`section_text`] writes them): the same text, the whole variable present, or
/// constant bounds that show it. Anything else is not provable.
fn within(old: &str, new: &str) -> bool {
    if old == new || old.is_empty() {
        return true;
    }
    let bounds = |s: &str| -> Option<(i64, i64)> {
        let inner = s.strip_prefix('[')?.strip_suffix(']')?;
        let (lo, len) = inner.split_once(':')?;
        Some((lo.parse().ok()?, len.parse().ok()?))
    };
    match (bounds(old), bounds(new)) {
        (Some((a, n)), Some((b, m))) => a <= b && b + m <= a + n,
        _ => false,
    }
}

/// The subscripts of an item after its members, without blanks (`[0:n]`; `[:n]` is
/// written `[0:n]`).
fn section_text(item: &crate::directive::VarItem) -> String {
    let start = item
        .accessors
        .iter()
        .find_map(|a| match a {
            Accessor::Section { span, .. } => Some(span.start),
            _ => None,
        })
        .unwrap_or(item.span.end);
    let off = start.saturating_sub(item.span.start);
    let text: String = item
        .text
        .get(off..)
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    text.replace("[:", "[0:")
}
