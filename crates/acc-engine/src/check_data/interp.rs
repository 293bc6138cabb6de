//! The walk over a function's steps: host uses, calls, binds, branches,
//! loops (to a fixpoint, reporting only on the last pass), `switch` and the
//! exits out of them. Directives go to `actions`.
//!
//! It owns the order of evaluation; it must not know what a directive does.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::LazyLock;

use crate::attrs::Analysis;
use crate::facts::flow::{Step, Use};
use crate::facts::{Shape, Unit, VarId};
use crate::plan::ConstructPlan;
use crate::span::Span;

use super::report::Finding;
use super::state::{join, join_into, Count, KState, Key, State};
use super::summary::Summary;

static NO_SUMMARIES: LazyLock<HashMap<&'static str, Summary<'static>>> =
    LazyLock::new(HashMap::new);

/// Where `break` and `continue` go.
struct Frame {
    brk: State,
    cont: State,
    is_switch: bool,
}

pub(super) struct Fx<'a> {
    pub unit: &'a Unit,
    pub an: &'a Analysis,
    pub plans: &'a [ConstructPlan],
    pub verbose: bool,
    /// The items some directive of the function maps.
    pub tracked: BTreeMap<Key, ()>,
    /// Variables whose address or pointer value goes where the skeleton cannot follow.
    pub escaped: HashSet<VarId>,
    /// Variables a directive maps the targets of whose elements' pointers (`rows[i][0:n]`):
    /// the check's items are variables and their members, not those targets.
    pub pointees_mapped: HashSet<VarId>,
    pub params: HashSet<VarId>,
    /// Findings are kept only on a reporting pass (not while a loop iterates to its fixpoint).
    pub report: bool,
    pub findings: BTreeMap<(usize, usize, u8), crate::diag::Diagnostic>,
    pub unknown: Vec<(Span, String)>,
    frames: Vec<Frame>,
    /// The file's functions that only map their parameters' data.
    pub summaries: &'a HashMap<&'a str, Summary<'a>>,
    /// Inside a callee the check follows into, at this call: findings about its
    /// directives point at the call.
    pub via_call: Option<Span>,
    /// There, the callee's parameters bound to the caller's arguments.
    pub subst: HashMap<VarId, VarId>,
    /// Inside a directive with an `if` clause (its errors may be on a path never taken).
    pub conditional: bool,
    /// The function is `main`: no directive ran before it, so a global that no `declare`
    /// names is not present when it starts.
    pub entry_point: bool,
    /// The state entering each `switch` around the current step, innermost last.
    switch_entry: Vec<State>,
}

impl<'a> Fx<'a> {
    pub(super) fn new(
        unit: &'a Unit,
        an: &'a Analysis,
        plans: &'a [ConstructPlan],
        verbose: bool,
    ) -> Fx<'a> {
        Fx {
            unit,
            an,
            plans,
            verbose,
            tracked: BTreeMap::new(),
            escaped: HashSet::new(),
            pointees_mapped: HashSet::new(),
            params: HashSet::new(),
            report: true,
            findings: BTreeMap::new(),
            unknown: Vec::new(),
            frames: Vec::new(),
            switch_entry: Vec::new(),
            conditional: false,
            entry_point: false,
            summaries: &NO_SUMMARIES,
            via_call: None,
            subst: HashMap::new(),
        }
    }

    /// Tracks the items a construct's data clauses (explicit or implicit) name.
    pub(super) fn track_construct(&mut self, id: crate::facts::ConstructId) {
        self.track_bound(id, &HashMap::new());
    }

    /// As `track_construct`, for a callee's construct: its parameters' items are the bound
    /// arguments'; its other variables are not the caller's to track.
    pub(super) fn track_bound(
        &mut self,
        id: crate::facts::ConstructId,
        bind: &HashMap<VarId, VarId>,
    ) {
        let outside = !bind.is_empty();
        let data = match &self.plans[id.0 as usize] {
            ConstructPlan::Kernel(k) => &k.data,
            ConstructPlan::Region { data, .. } | ConstructPlan::Dynamic { data, .. } => data,
            ConstructPlan::None => return,
        };
        for d in data {
            let var = match bind.get(&d.var) {
                Some(v) => *v,
                None if outside => continue,
                None => d.var,
            };
            if d.item
                .as_ref()
                .is_some_and(|i| i.sections_an_elements_pointee(self.unit.var(d.var)))
            {
                self.pointees_mapped.insert(var);
            }
            let key = (var, d.item.as_ref().map(member_path).unwrap_or_default());
            self.tracked.insert(key, ());
        }
    }

    /// The counts at function entry: a local's storage is new, and so is every global's at
    /// the start of `main` (the check drops `declare`d globals); anything else unknown.
    pub(super) fn initial_count(&self, k: &Key) -> Count {
        let v = self.unit.var(k.0);
        let local = (!v.is_global || self.entry_point)
            && !self.params.contains(&k.0)
            && !self.escaped.contains(&k.0);
        let fixed = match (k.1.as_str(), v.shape) {
            ("", Shape::Array | Shape::Scalar | Shape::Aggregate) => true,
            (p, Shape::Aggregate) => p.starts_with('.') && self.array_member(k.0, p),
            _ => false,
        };
        if local && fixed {
            Count::ABSENT
        } else {
            Count::Unknown
        }
    }

    fn array_member(&self, v: VarId, path: &str) -> bool {
        let name = &path[1..];
        self.unit
            .var(v)
            .fields
            .iter()
            .any(|f| f.name == name && !f.dims.is_empty())
    }

    pub(super) fn emit(&mut self, f: Finding) {
        if self.report {
            let d = f.diagnostic(self.unit);
            self.findings
                .entry((d.span.start, d.span.end, f.code()))
                .or_insert(d);
        }
    }

    pub(super) fn emit_unless_conditional(&mut self, f: Finding) {
        if !self.conditional {
            self.emit(f);
        }
    }

    pub(super) fn give_up(&mut self, at: Span, why: String) {
        if self.report && self.verbose {
            self.unknown.push((at, why));
        }
    }

    /// The tracked item a use touches: the item itself, or for a member of a
    /// mapped struct, the struct.
    pub(super) fn key_of(&self, u: &Use) -> Option<Key> {
        let var = self.bound(u.var);
        let k = (var, u.path.clone());
        if self.tracked.contains_key(&k) {
            return Some(k);
        }
        let whole = (var, String::new());
        if !u.path.is_empty()
            && self.unit.var(var).shape == Shape::Aggregate
            && self.tracked.contains_key(&whole)
        {
            return Some(whole);
        }
        None
    }

    /// A callee's variable as the caller sees it (its bound argument), else itself.
    pub(super) fn bound(&self, v: VarId) -> VarId {
        self.subst.get(&v).copied().unwrap_or(v)
    }

    /// A call of a function the check follows into: its steps, its parameters bound.
    fn inline(&mut self, s: &Summary, args: &[Option<VarId>], at: Span, st: State) -> State {
        let bind = s.bind(self.unit, args);
        let saved = (
            std::mem::replace(&mut self.subst, bind),
            self.via_call.replace(at),
        );
        let out = self.run(s.body, st);
        (self.subst, self.via_call) = saved;
        out
    }

    pub(super) fn run(&mut self, steps: &[Step], mut st: State) -> State {
        for s in steps {
            if st.is_none() {
                // Only a `case` label makes the rest reachable again; `step` handles it.
                if !matches!(s, Step::Case) {
                    continue;
                }
            }
            st = self.step(s, st);
        }
        st
    }

    fn step(&mut self, s: &Step, st: State) -> State {
        match s {
            Step::Use(u) => {
                let mut st = st;
                if let Some(m) = st.as_mut() {
                    self.host_use(u, m);
                }
                st
            }
            Step::Construct { id, body } => self.construct(*id, body, st),
            Step::Branch(arms) => {
                let mut out = None;
                for a in arms {
                    let s = self.run(a, st.clone());
                    join_into(&mut out, &s);
                }
                out
            }
            Step::Loop {
                cond,
                body,
                at_least_once,
                endless,
            } => {
                let (out, brk) = self.run_loop(cond, body, *at_least_once, st);
                if *endless {
                    brk
                } else {
                    join(&out, &brk)
                }
            }
            Step::Switch { body, has_default } => {
                self.frames.push(Frame {
                    brk: None,
                    cont: None,
                    is_switch: true,
                });
                self.switch_entry.push(st.clone());
                let end = self.run(body, None);
                self.switch_entry.pop();
                let f = self.frames.pop().expect("the switch's frame");
                let mut out = join(&end, &f.brk);
                if !has_default {
                    join_into(&mut out, &st);
                }
                if f.cont.is_some() {
                    // `continue` inside a switch goes to the loop around it.
                    if let Some(l) = self.frames.iter_mut().rev().find(|f| !f.is_switch) {
                        join_into(&mut l.cont, &f.cont);
                    }
                }
                out
            }
            Step::Case => {
                let entry = self.switch_entry.last().cloned().flatten();
                join(&st, &entry)
            }
            Step::Break => {
                if let Some(f) = self.frames.last_mut() {
                    join_into(&mut f.brk, &st);
                }
                None
            }
            Step::Continue => {
                if let Some(f) = self.frames.iter_mut().rev().find(|f| !f.is_switch) {
                    join_into(&mut f.cont, &st);
                }
                None
            }
            Step::Return => None,
            Step::Call {
                name,
                span,
                args,
                touched,
            } => {
                let summaries = self.summaries;
                let api = super::api::api_action(name);
                match summaries.get(name.as_str()) {
                    _ if api.is_some() && matches!(args.first(), Some(Some(_))) => {
                        let mut st = st;
                        if let (Some(m), Some(a), Some(Some(v))) = (st.as_mut(), api, args.first())
                        {
                            self.api(&a, *v, *span, m);
                        }
                        st
                    }
                    // Followed only where it binds data the caller tracks (else it is an
                    // ordinary call: following it would cost its whole body for nothing).
                    Some(s)
                        if s.params.len() == args.len()
                            && s.bind(self.unit, args)
                                .values()
                                .any(|v| self.tracked.keys().any(|k| k.0 == *v)) =>
                    {
                        self.inline(s, args, *span, st)
                    }
                    _ => {
                        let mut st = st;
                        if let Some(m) = st.as_mut() {
                            self.call(name, *span, touched, m);
                        }
                        st
                    }
                }
            }
            Step::Escape(v) => {
                let mut st = st;
                if let Some(m) = st.as_mut() {
                    for (k, ks) in m.iter_mut() {
                        if k.0 == *v {
                            ks.dev_clean = false;
                            ks.host_clean = false;
                        }
                    }
                }
                st
            }
            Step::Bind { var, path, fresh } => {
                let mut st = st;
                if let Some(m) = st.as_mut() {
                    for (k, ks) in m.iter_mut() {
                        if k.0 == *var && k.1.starts_with(path.as_str()) {
                            ks.forget();
                            if *fresh && k.1 == *path {
                                ks.count = Count::ABSENT;
                            }
                        }
                    }
                }
                st
            }
            Step::Wait => {
                let mut st = st;
                if let Some(m) = st.as_mut() {
                    wait_all(m);
                }
                st
            }
            Step::Opaque => st,
        }
    }

    /// A loop: `head` (before the condition) iterated to a fixpoint without reporting, then
    /// once more reporting. The states it leaves with: after its condition, and by `break`.
    fn run_loop(
        &mut self,
        cond: &[Step],
        body: &[Step],
        at_least_once: bool,
        entry: State,
    ) -> (State, State) {
        let saved = self.report;
        self.report = false;
        let mut head = entry.clone();
        for _ in 0..8 {
            let checked = self.run(cond, head.clone());
            let (end, _, cont) = self.loop_body(body, checked);
            let next = join(&entry, &join(&end, &cont));
            if next == head {
                break;
            }
            head = next;
        }
        self.report = saved;
        let checked = self.run(cond, head.clone());
        let (end, brk, cont) = self.loop_body(body, checked.clone());
        let out = if at_least_once {
            // The first test of the condition enters: leaving is after an iteration.
            let saved = std::mem::replace(&mut self.report, false);
            let after = self.run(cond, join(&end, &cont));
            self.report = saved;
            after
        } else {
            checked
        };
        (out, brk)
    }

    fn loop_body(&mut self, body: &[Step], head: State) -> (State, State, State) {
        self.frames.push(Frame {
            brk: None,
            cont: None,
            is_switch: false,
        });
        let end = self.run(body, head);
        let f = self.frames.pop().expect("the loop's frame");
        (end, f.brk, f.cont)
    }

    /// A use by host code.
    pub(super) fn host_use(&mut self, u: &Use, m: &mut BTreeMap<Key, KState>) {
        if u.write && u.whole && self.unit.var(u.var).shape == Shape::Pointer && u.path.is_empty() {
            return;
        }
        let Some(k) = self.key_of(u) else {
            return;
        };
        let ks = m.get_mut(&k).expect("tracked items have a state");
        if ks.poisoned {
            return;
        }
        if u.read {
            if let Some(w) = ks.host_stale {
                let f = match ks.pending {
                    Some(t) => Finding::AsyncHost {
                        read: u.span,
                        stmt: u.stmt,
                        transfer: t,
                        var: k.clone(),
                    },
                    None => Finding::StaleHost {
                        item: ks.mapped.as_ref().map(|x| x.2.clone()).or(ks.text.clone()),
                        read: u.span,
                        stmt: u.stmt,
                        write: w,
                        var: k.clone(),
                        held: ks.held,
                        mapped: ks.mapped.clone(),
                        present: ks.count.present(),
                    },
                };
                self.emit(f);
                ks.host_stale = None;
                ks.pending = None;
            }
        }
        if u.write {
            ks.host_stale = None;
            ks.held = None;
            ks.host_clean = false;
            if ks.count.present() == Some(true) {
                ks.dev_stale = Some(u.span);
            }
        }
    }

    fn call(&mut self, name: &str, at: Span, args: &[VarId], m: &mut BTreeMap<Key, KState>) {
        for (k, ks) in m.iter_mut() {
            let v = self.unit.var(k.0);
            let touched = args.contains(&k.0)
                || v.is_global
                || self.escaped.contains(&k.0)
                || (self.params.contains(&k.0) && v.shape == Shape::Pointer);
            if touched {
                if *ks != KState::new(Count::Unknown) && self.report && self.verbose {
                    self.unknown.push((
                        at,
                        format!(
                            "unknown: `{name}` may map, unmap or change `{}{}`; not checked after this call",
                            v.name, k.1
                        ),
                    ));
                }
                ks.forget();
            }
        }
    }
}

pub(super) fn wait_all(m: &mut BTreeMap<Key, KState>) {
    for ks in m.values_mut() {
        if ks.pending.take().is_some() {
            ks.host_stale = None;
        }
    }
}

/// The members a list item names before any subscript (`s.data[0:n]` → `.data`).
pub(super) fn member_path(item: &crate::directive::VarItem) -> String {
    use crate::directive::Accessor;
    let mut p = String::new();
    for a in &item.accessors {
        match a {
            Accessor::Member(m) => {
                p.push('.');
                p.push_str(&m.name);
            }
            Accessor::Arrow(m) => {
                p.push_str("->");
                p.push_str(&m.name);
            }
            _ => break,
        }
    }
    p
}
