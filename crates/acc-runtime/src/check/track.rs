//! The checking mode's bookkeeping: per present-table entry, versions of the host and the
//! device copy as of the last runtime event, where the device copy was made, the last
//! transfer that changed it, the interval in which the host last changed it, and the launch
//! that last wrote it; and from these, the *candidates* for a stale use.
//!
//! Pure: it never reads memory, takes no lock and knows no device. The caller (`check::mod`)
//! compares both copies of every entry with their last bytes at each event and hands in their
//! versions (a version changes when the bytes do; the tests use checksums) as [`Snap`]s; the
//! tracker says which candidates the event raises and which repairs (transfers the program
//! lacks, asked for by a repair run) to make before the event's own actions.
//!
//! A candidate is not a finding: `acc check --run` proves one by running the program again
//! with the repair and comparing its output with the run on shared memory.

use std::collections::BTreeMap;
use std::sync::Arc;

/// What a runtime event is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A kernel launch (its construct's line).
    Launch,
    /// Data actions of a construct, `enter`/`exit data`, `update`, an API routine.
    Data,
    /// A `wait`.
    Wait,
}

/// Where an event happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct At {
    pub file: Arc<str>,
    pub line: u32,
}

impl At {
    pub fn unknown() -> At {
        At {
            file: Arc::from(""),
            line: 0,
        }
    }
}

/// A data item of an event (a clause's action on a host range).
#[derive(Clone, Debug)]
pub struct Item {
    /// Whether the action copies device data back when the data is released
    /// (`copy`, `copyout`).
    pub copies_out: bool,
    /// The item is an `update self`.
    pub to_host: bool,
    /// The item's device memory is zeroed when it is made (`create(zero: …)`).
    pub zero: bool,
    pub host: usize,
    pub bytes: usize,
}

/// A mapped argument of a launch: its host address and the text the construct names it by.
#[derive(Clone, Debug)]
pub struct ArgUse {
    pub host: usize,
    pub text: String,
}

/// One runtime event.
#[derive(Clone, Debug)]
pub struct Event {
    pub kind: Kind,
    pub at: At,
    pub items: Vec<Item>,
    pub args: Vec<ArgUse>,
}

/// One entry as seen at an event.
#[derive(Clone, Debug)]
pub struct Snap {
    pub host: usize,
    pub bytes: usize,
    pub dev: usize,
    pub var: Box<str>,
    /// Versions of the host and the device copy (equal while the bytes stay the same).
    pub h: u64,
    pub d: u64,
    /// Whether the two copies hold the same bytes.
    pub equal: bool,
}

/// Which kind of stale use a candidate is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CandKind {
    /// A launch uses a device copy that is older than the host's: its repair is
    /// `update device` just before the launch.
    StaleDevice,
    /// A launch wrote the device copy and its construct ended without the host getting it:
    /// its repair is `update self` right after the construct.
    LostWrite,
}

impl CandKind {
    pub fn name(self) -> &'static str {
        match self {
            CandKind::StaleDevice => "stale-device",
            CandKind::LostWrite => "lost-write",
        }
    }

    pub fn parse(s: &str) -> Option<CandKind> {
        match s {
            "stale-device" => Some(CandKind::StaleDevice),
            "lost-write" => Some(CandKind::LostWrite),
            _ => None,
        }
    }
}

/// What identifies a candidate across runs: the same program reaches the same key.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    pub kind: CandKind,
    pub file: String,
    pub line: u32,
    /// The entry's variable text as its mapping clause wrote it.
    pub var: String,
}

/// A candidate stale use, with what the report says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub key: Key,
    /// The variable as the construct names it.
    pub shown: String,
    /// The interval in which the host last changed it (lines; 0 when unknown).
    pub host_changed: (u32, u32),
    /// The last transfer that changed the device copy (0: none since it was made).
    pub to_device: u32,
    /// Where the device copy was made.
    pub made: u32,
    /// The launch that last wrote the device copy (0: none since its last transfer).
    pub written: u32,
    /// The event that ended the construct without a copy back (lost writes).
    pub ended: u32,
    /// The construct's `copy`/`copyout` moved nothing: the data stayed present.
    pub kept: bool,
    /// The device copy was released at `ended`.
    pub released: bool,
    /// The stale device copy is read by an `update self` (not a launch), which copies it
    /// over the host's data.
    pub to_host: bool,
}

/// A transfer the tracker asks the caller to make (a repair run's fix), before the event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repair {
    pub to_device: bool,
    pub host: usize,
    pub dev: usize,
    pub bytes: usize,
}

#[derive(Clone, Debug)]
struct Tracked {
    dev: usize,
    bytes: usize,
    var: Box<str>,
    h: u64,
    d: u64,
    made: u32,
    to_device: u32,
    /// The device copy's version right after it was made or last transferred to.
    dev_ref: u64,
    /// The event at which `dev_ref` was taken.
    ref_seq: u64,
    /// The device copy was zeroed when it was made: initialised, though not from the host.
    zeroed: bool,
    host_changed: (u32, u32),
    /// The launch that wrote the device copy since its last transfer, and whether the end
    /// of its construct was judged already.
    written_by: Option<(At, bool)>,
    /// Whether the copies differed when the current event began.
    differed: bool,
    /// The events (numbered) at which the host copy last changed and a launch last wrote
    /// the device copy.
    host_seq: u64,
    dev_seq: u64,
    /// The text a launch named it by, for messages.
    shown: Option<String>,
}

/// The key of a stale device copy that event `ev` reads, with the repair that copies the
/// host's data in first when the run asks for it (`wants`).
fn stale_device(
    ev: &Event,
    t: &Tracked,
    s: &Snap,
    wants: &dyn Fn(&Key) -> bool,
    repairs: &mut Vec<Repair>,
) -> Key {
    let key = Key {
        kind: CandKind::StaleDevice,
        file: ev.at.file.to_string(),
        line: ev.at.line,
        var: t.var.to_string(),
    };
    if wants(&key) {
        repairs.push(Repair {
            to_device: true,
            host: s.host,
            dev: s.dev,
            bytes: s.bytes,
        });
    }
    key
}

/// The bookkeeping of one device.
#[derive(Default)]
pub struct Tracker {
    entries: BTreeMap<usize, Tracked>,
    last: Option<At>,
    seq: u64,
}

/// The base name of a clause's variable text: `p` for `p[0:n]`, `s.a` for `s.a[:4]`.
pub fn base(var: &str) -> &str {
    var.split('[').next().unwrap_or(var).trim()
}

impl Tracker {
    pub fn new() -> Tracker {
        Tracker::default()
    }

    fn last_line(&self) -> u32 {
        self.last.as_ref().map_or(0, |a| a.line)
    }

    /// The event begins: notes what changed since the last event, and gives the candidates a
    /// launch raises and the repairs (among `repairs`) to make now.
    pub fn begin(
        &mut self,
        ev: &Event,
        snaps: &[Snap],
        wants: &dyn Fn(&Key) -> bool,
    ) -> (Vec<Candidate>, Vec<Repair>) {
        let prev = self.last_line();
        self.seq += 1;
        for s in snaps {
            let t = match self.entries.get_mut(&s.host) {
                Some(t) if t.dev == s.dev && t.bytes == s.bytes => t,
                _ => {
                    // Mapped where no event saw it (an API routine without a hook).
                    self.entries.insert(s.host, fresh(s, prev, self.seq, false));
                    continue;
                }
            };
            if s.h != t.h {
                t.host_changed = (prev, ev.at.line);
                t.host_seq = self.seq;
            }
            if s.d != t.d && t.written_by.is_none() {
                // Changed with no launch in between (`acc_memcpy_to_device`): a transfer.
                t.dev_ref = s.d;
                t.ref_seq = self.seq;
                t.to_device = prev;
            }
            t.h = s.h;
            t.d = s.d;
            t.differed = !s.equal;
        }
        let mut cands = Vec::new();
        let mut repairs = Vec::new();
        if ev.kind == Kind::Launch {
            for a in &ev.args {
                let Some(s) = snaps
                    .iter()
                    .find(|s| s.host <= a.host && a.host < s.host + s.bytes.max(1))
                else {
                    continue;
                };
                let Some(t) = self.entries.get_mut(&s.host) else {
                    continue;
                };
                t.shown = Some(a.text.clone());
                // The device copy is older than the host's: unchanged since it was made with
                // nothing in it, or since a transfer or a launch wrote it, after which the
                // host changed it.
                let older = match t.written_by {
                    None => {
                        let empty = t.to_device == 0 && !t.zeroed;
                        s.d == t.dev_ref && (empty || t.host_seq > t.ref_seq)
                    }
                    Some(_) => t.host_seq > t.dev_seq,
                };
                if s.equal || !older {
                    continue;
                }
                let key = stale_device(ev, t, s, wants, &mut repairs);
                cands.push(Candidate {
                    key,
                    shown: a.text.clone(),
                    host_changed: t.host_changed,
                    to_device: t.to_device,
                    made: t.made,
                    written: t.written_by.as_ref().map_or(0, |(at, _)| at.line),
                    ended: 0,
                    kept: false,
                    released: false,
                    to_host: false,
                });
            }
        } else {
            self.updates_of_unwritten(ev, snaps, wants, &mut cands, &mut repairs);
            for (&host, t) in &self.entries {
                let Some((at, false)) = &t.written_by else {
                    continue;
                };
                let key = lost_key(at, t);
                if t.differed && wants(&key) {
                    repairs.push(Repair {
                        to_device: false,
                        host,
                        dev: t.dev,
                        bytes: t.bytes,
                    });
                }
            }
        }
        (cands, repairs)
    }

    /// `update self` of a device copy nothing wrote (made without a copy in, never written by
    /// a launch) overwrites the host's data: a candidate whose repair copies the data in first.
    fn updates_of_unwritten(
        &self,
        ev: &Event,
        snaps: &[Snap],
        wants: &dyn Fn(&Key) -> bool,
        cands: &mut Vec<Candidate>,
        repairs: &mut Vec<Repair>,
    ) {
        for i in ev.items.iter().filter(|i| i.to_host) {
            let Some(s) = snaps
                .iter()
                .find(|s| s.host <= i.host && i.host < s.host + s.bytes.max(1))
            else {
                continue;
            };
            let Some(t) = self.entries.get(&s.host) else {
                continue;
            };
            let unwritten =
                t.written_by.is_none() && t.to_device == 0 && !t.zeroed && s.d == t.dev_ref;
            if s.equal || !unwritten {
                continue;
            }
            let key = stale_device(ev, t, s, wants, repairs);
            cands.push(Candidate {
                key,
                shown: base(&t.var).to_string(),
                host_changed: t.host_changed,
                to_device: 0,
                made: t.made,
                written: 0,
                ended: 0,
                kept: false,
                released: false,
                to_host: true,
            });
        }
    }

    /// A repair changed the copies of the entry at `host`: the state the event then starts
    /// from.
    pub fn repaired(&mut self, host: usize, h: u64, d: u64) {
        if let Some(t) = self.entries.get_mut(&host) {
            t.h = h;
            t.d = d;
            t.differed = false;
        }
    }

    /// The event ended: notes its transfers, launches' writes, released entries, and gives
    /// the lost writes it proves candidates of. `host_hash` gives the version of a host range
    /// (of entries the event released).
    pub fn end(
        &mut self,
        ev: &Event,
        snaps: &[Snap],
        host_hash: &dyn Fn(usize, usize) -> u64,
    ) -> Vec<Candidate> {
        let mut cands = Vec::new();
        let gone: Vec<usize> = self
            .entries
            .keys()
            .copied()
            .filter(|h| !snaps.iter().any(|s| s.host == *h))
            .collect();
        for host in gone {
            let Some(t) = self.entries.remove(&host) else {
                continue;
            };
            if let Some((at, false)) = &t.written_by {
                // Released with the device's writes and the host unchanged: nothing copied
                // them back.
                if t.differed && host_hash(host, t.bytes) == t.h {
                    cands.push(lost(at, &t, ev, false, true));
                }
            }
        }
        for s in snaps {
            let zeroed = ev
                .items
                .iter()
                .any(|i| i.zero && s.host <= i.host && i.host < s.host + s.bytes.max(1));
            let Some(t) = self.entries.get_mut(&s.host) else {
                let t = fresh(s, ev.at.line, self.seq, zeroed);
                self.entries.insert(s.host, t);
                continue;
            };
            if t.dev != s.dev || t.bytes != s.bytes {
                *t = fresh(s, ev.at.line, self.seq, zeroed);
                continue;
            }
            if ev.kind == Kind::Launch {
                if s.d != t.d {
                    t.written_by = Some((ev.at.clone(), false));
                    t.dev_seq = self.seq;
                }
            } else {
                if s.d != t.d {
                    t.to_device = ev.at.line;
                    t.dev_ref = s.d;
                    t.ref_seq = self.seq;
                    t.written_by = None;
                }
                if s.equal {
                    t.written_by = None;
                }
                if let Some((at, judged @ false)) = &mut t.written_by {
                    *judged = true;
                    let at = at.clone();
                    let kept = ev.items.iter().any(|i| {
                        i.copies_out && s.host <= i.host && i.host < s.host + s.bytes.max(1)
                    });
                    cands.push(lost(&at, t, ev, kept, false));
                }
            }
            t.h = s.h;
            t.d = s.d;
        }
        self.last = Some(ev.at.clone());
        cands
    }
}

fn fresh(s: &Snap, line: u32, seq: u64, zeroed: bool) -> Tracked {
    Tracked {
        dev: s.dev,
        bytes: s.bytes,
        var: s.var.clone(),
        h: s.h,
        d: s.d,
        made: line,
        to_device: if s.equal { line } else { 0 },
        dev_ref: s.d,
        ref_seq: seq,
        zeroed,
        host_changed: (0, 0),
        written_by: None,
        differed: !s.equal,
        host_seq: 0,
        dev_seq: 0,
        shown: None,
    }
}

fn lost_key(at: &At, t: &Tracked) -> Key {
    Key {
        kind: CandKind::LostWrite,
        file: at.file.to_string(),
        line: at.line,
        var: t.var.to_string(),
    }
}

fn lost(at: &At, t: &Tracked, ev: &Event, kept: bool, released: bool) -> Candidate {
    Candidate {
        key: lost_key(at, t),
        shown: t.shown.clone().unwrap_or_else(|| base(&t.var).to_string()),
        host_changed: t.host_changed,
        to_device: t.to_device,
        made: t.made,
        written: at.line,
        ended: ev.at.line,
        kept,
        released,
        to_host: false,
    }
}

#[cfg(test)]
#[path = "track_tests.rs"]
mod tests;
