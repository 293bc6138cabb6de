//! The abstract state of the data-mapping check: for each tracked item (a
//! variable, or a member path of it), its reference counts and which side's
//! copy is stale, with the join of two paths.
//!
//! It owns the lattice only; it must not know directives or steps.

use std::collections::BTreeMap;

use crate::facts::VarId;
use crate::plan::Action;
use crate::span::Span;

/// A variable and the members named after it (`.data`), empty for itself.
pub(super) type Key = (VarId, String);

/// The present table's reference counts of one item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Count {
    Known { s: u32, d: u32 },
    Unknown,
}

impl Count {
    pub(super) const ABSENT: Count = Count::Known { s: 0, d: 0 };

    pub(super) fn present(self) -> Option<bool> {
        match self {
            Count::Known { s, d } => Some(s + d > 0),
            Count::Unknown => None,
        }
    }
}

/// What is known of one item on the paths that reach a point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct KState {
    pub count: Count,
    /// A host write (may, on some path) the device copy has not received.
    pub dev_stale: Option<Span>,
    /// A device write (may) the host has not received.
    pub host_stale: Option<Span>,
    /// The `create`/`copyout` item that allocated the device copy, which
    /// nothing has written since.
    pub dev_undef: Option<Span>,
    /// The exit item that would have copied the data back but moved nothing
    /// because the data stayed present.
    pub held: Option<Span>,
    /// An asynchronous transfer back that no wait has completed.
    pub pending: Option<Span>,
    /// The clause (name span, action, item text) that allocated the device copy.
    pub mapped: Option<(Span, Action, String)>,
    /// Must: no device write since the device copy last equalled the host's.
    pub dev_clean: bool,
    /// Must: no host write since the copies last were equal.
    pub host_clean: bool,
    /// Must: no device write since the mapping copied the data in.
    pub untouched: bool,
    /// A finding already stopped the program here (data not present): say nothing more.
    pub poisoned: bool,
    /// `no_create` items around this point that found the item absent: device code uses
    /// the host's memory for it.
    pub on_host: u32,
    /// The last list item that named the item (`a[0:n]`), for the directives a fix adds.
    pub text: Option<String>,
    /// The section the present mapping covers, as written (`[0:n]`).
    pub section: Option<String>,
}

impl KState {
    pub(super) fn new(count: Count) -> KState {
        KState {
            count,
            dev_stale: None,
            host_stale: None,
            dev_undef: None,
            held: None,
            pending: None,
            mapped: None,
            dev_clean: false,
            host_clean: false,
            untouched: false,
            poisoned: false,
            on_host: 0,
            text: None,
            section: None,
        }
    }

    fn join(&mut self, o: &KState) {
        if self.count != o.count {
            self.count = Count::Unknown;
        }
        self.dev_stale = self.dev_stale.or(o.dev_stale);
        self.host_stale = self.host_stale.or(o.host_stale);
        self.dev_undef = self.dev_undef.or(o.dev_undef);
        self.held = self.held.or(o.held);
        self.pending = self.pending.or(o.pending);
        if self.mapped.is_none() {
            self.mapped.clone_from(&o.mapped);
        }
        self.dev_clean &= o.dev_clean;
        self.host_clean &= o.host_clean;
        self.untouched &= o.untouched;
        self.poisoned |= o.poisoned;
        self.on_host = self.on_host.max(o.on_host);
        if self.text.is_none() {
            self.text.clone_from(&o.text);
        }
        if self.section != o.section {
            self.section = None;
        }
    }

    /// Nothing is known any more (a call, an alias, a section we cannot compare).
    pub(super) fn forget(&mut self) {
        *self = KState::new(Count::Unknown);
    }
}

/// The state at a point; `None` where no path reaches.
pub(super) type State = Option<BTreeMap<Key, KState>>;

pub(super) fn join(a: &State, b: &State) -> State {
    match (a, b) {
        (None, x) | (x, None) => x.clone(),
        (Some(a), Some(b)) => {
            let mut out = a.clone();
            for (k, v) in out.iter_mut() {
                if let Some(o) = b.get(k) {
                    v.join(o);
                }
            }
            Some(out)
        }
    }
}

/// The join after a directive with an `if` clause: the two paths differ only in a condition
/// the check cannot read, so a stale copy counts only when both paths leave it stale (a
/// program guards its transfers with the same condition as its uses).
pub(super) fn join_if(on: &State, off: &State) -> State {
    let mut out = join(on, off);
    if let (Some(o), Some(a), Some(b)) = (out.as_mut(), on, off) {
        for (k, v) in o.iter_mut() {
            let (Some(x), Some(y)) = (a.get(k), b.get(k)) else {
                continue;
            };
            if x.dev_stale.is_none() || y.dev_stale.is_none() {
                v.dev_stale = None;
            }
            if x.host_stale.is_none() || y.host_stale.is_none() {
                v.host_stale = None;
            }
            if x.dev_undef.is_none() || y.dev_undef.is_none() {
                v.dev_undef = None;
            }
        }
    }
    out
}

pub(super) fn join_into(acc: &mut State, s: &State) {
    *acc = join(acc, s);
}
