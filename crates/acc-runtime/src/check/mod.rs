//! The checking mode of `acc check --run`: with `ACC_CHECK=<file>` in the environment, on a
//! `host_discrete` device (separate memory, both copies readable), every runtime event the
//! program's directives cause (a construct's data actions, `enter`/`exit data`, `update`,
//! `wait`, a launch, a data routine of the API) is bracketed by two scans of every
//! present-table entry: whether the host and the device copy changed since the last scan
//! (each compared with a copy the check keeps of both sides: twice the mapped memory, but
//! `memcmp`'s speed and no collisions; an attached pointer counts as equal on both sides) and
//! whether they are equal. [`track`] turns the scans into *candidates* for a stale use,
//! which this module appends to the file, one a line (`kind`, `file`, `line`, `var`, then
//! `key=value` fields, tab-separated; see [`Candidate`](track::Candidate)):
//!
//! - `stale-device`: a launch uses data whose device copy is older than the host's (made
//!   with nothing copied in, or the host changed it after the last transfer or launch that
//!   wrote the device copy), or an `update self` copies device memory nothing wrote over the
//!   host's data;
//! - `lost-write`: a launch changed the device copy and its construct ended with the host
//!   copy still different (nothing copied the device's writes back, or a `copy` moved nothing
//!   because an enclosing region held the data).
//!
//! A candidate is not a finding: the run cannot see what the host reads. `acc check --run`
//! proves one by running the program again with `ACC_CHECK_REPAIR=<file>` (lines `kind`,
//! `file`, `line`, `var`): this module then makes the transfer the candidate says is missing
//! (`update device` of the data just before the launch, `update self` right after the
//! construct) and the CLI compares the output with the shared-memory run's.
//!
//! Costs nothing when off: [`on`] is one relaxed atomic load once the environment was read.
//! While on, every event waits for all of the device's queues (asynchronous work runs as if
//! synchronous, so a missing `wait` is not found) and compares every mapped byte twice; the
//! check assumes one host thread issues the directives; host memory a program freed while it
//! was present is skipped (`memory`), not read. Only generated C code's
//! entry points (`abi`) and the API's data routines raise events; the Rust API's guards do not.
//!
//! Owns only its own state (one mutex, never held while the present table's lock is taken
//! elsewhere: it takes that lock itself, briefly, to list the entries, and never across a
//! queue wait). It must not change the present table or reference counts; it moves bytes
//! only for a repair run's transfers.

mod memory;
pub mod track;

use crate::device::DeviceKind;
use crate::error::{Site, Text};
use crate::present::Entry;
use crate::runtime::{self, Arg, DeviceState};
use memory::Access;
use std::collections::{BTreeSet, HashSet};
use std::io::Write;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use track::{ArgUse, At, CandKind, Candidate, Event, Item, Key, Kind, Repair, Snap, Tracker};

const UNKNOWN: u8 = 0;
const OFF: u8 = 1;
const ON: u8 = 2;

static MODE: AtomicU8 = AtomicU8::new(UNKNOWN);

/// Whether the checking mode is on (`ACC_CHECK` names a report file).
#[inline]
pub fn on() -> bool {
    match MODE.load(Ordering::Relaxed) {
        OFF => false,
        ON => true,
        _ => init(),
    }
}

#[cold]
fn init() -> bool {
    let on = std::env::var_os("ACC_CHECK").is_some_and(|v| !v.is_empty());
    MODE.store(if on { ON } else { OFF }, Ordering::Relaxed);
    on
}

struct Checker {
    tracker: Tracker,
    shadows: Shadows,
    /// Host addresses of every pointer a directive or `acc_attach` attached.
    attach_ptrs: BTreeSet<usize>,
    report: Option<std::path::PathBuf>,
    repairs: HashSet<Key>,
    reported: HashSet<Key>,
}

static STATE: Mutex<Option<Checker>> = Mutex::new(None);

fn with_checker<R>(f: impl FnOnce(&mut Checker) -> R) -> R {
    let mut g = STATE.lock().unwrap_or_else(|e| e.into_inner());
    let c = g.get_or_insert_with(|| Checker {
        tracker: Tracker::new(),
        shadows: Shadows::default(),
        attach_ptrs: BTreeSet::new(),
        report: std::env::var_os("ACC_CHECK").map(Into::into),
        repairs: std::env::var_os("ACC_CHECK_REPAIR")
            .and_then(|p| std::fs::read_to_string(p).ok())
            .map(|s| parse_repairs(&s))
            .unwrap_or_default(),
        reported: HashSet::new(),
    });
    f(c)
}

/// The keys of a repair file: `kind`, `file`, `line`, `var`, tab-separated, one a line.
pub fn parse_repairs(text: &str) -> HashSet<Key> {
    text.lines()
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some(Key {
                kind: CandKind::parse(f.next()?)?,
                file: f.next()?.to_string(),
                line: f.next()?.parse().ok()?,
                var: f.next()?.to_string(),
            })
        })
        .collect()
}

/// One candidate as a line of the report file.
pub fn format_candidate(c: &Candidate) -> String {
    let clean = |s: &str| s.replace(['\t', '\n'], " ");
    format!(
        concat!(
            "{}\t{}\t{}\t{}\tshown={}\thost={}-{}\tto_device={}\tmade={}\twritten={}",
            "\tended={}\tkept={}\treleased={}\tto_host={}\n"
        ),
        c.key.kind.name(),
        clean(&c.key.file),
        c.key.line,
        clean(&c.key.var),
        clean(&c.shown),
        c.host_changed.0,
        c.host_changed.1,
        c.to_device,
        c.made,
        c.written,
        c.ended,
        u8::from(c.kept),
        u8::from(c.released),
        u8::from(c.to_host)
    )
}

/// An event in progress: what [`end`] needs.
pub struct Pending {
    d: &'static DeviceState,
    ev: Event,
}

/// Checksum of a byte range: FNV-1a over 8-byte words, then the tail bytes. The scans compare
/// copies instead (faster, and exact); the tests stand versions in with it.
#[cfg(test)]
pub fn checksum(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        h = (h ^ u64::from_le_bytes(b)).wrapping_mul(PRIME);
        h ^= h >> 29;
    }
    for &b in words.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(PRIME);
    }
    h ^ bytes.len() as u64
}

/// # Safety
/// `[at, at + bytes)` is readable memory.
unsafe fn bytes_at<'a>(at: usize, bytes: usize) -> &'a [u8] {
    if bytes == 0 || at == 0 {
        return &[];
    }
    // SAFETY: forwarded from the caller.
    unsafe { std::slice::from_raw_parts(at as *const u8, bytes) }
}

/// The offsets of the attached pointers (whose device copy points at device memory, as it
/// must) among the words where `host` and `dev` differ: of the pointers some directive or
/// `acc_attach` ever attached (`ptrs`), those the entry counts as attached now.
fn attached(e: &Entry, host: &[u8], dev: &[u8], ptrs: &BTreeSet<usize>) -> Vec<usize> {
    const W: usize = size_of::<usize>();
    ptrs.range(e.host..e.host + host.len())
        .map(|p| p - e.host)
        .filter(|&o| o + W <= host.len())
        .filter(|&o| host[o..o + W] != dev[o..o + W] && e.attach_count(e.host + o) > 0)
        .collect()
}

/// Notes the pointers in `[host, host + bytes)` as attached (a pointer an `attach` item or
/// `acc_attach` names, or a jagged array's row pointers).
pub fn note_attach(host: usize, bytes: usize) {
    const W: usize = size_of::<usize>();
    let words = (0..bytes / W).map(|k| host + k * W);
    quiet(|| with_checker(|c| c.attach_ptrs.extend(words)));
}

/// The last bytes the check saw of one entry's host and device copies, and their versions
/// (a version changes whenever the bytes do; the check compares versions, not bytes).
struct Shadow {
    dev: usize,
    host_bytes: Vec<u8>,
    dev_bytes: Vec<u8>,
    hv: u64,
    dv: u64,
}

/// The shadows of the entries, by host address, and the last version given.
#[derive(Default)]
struct Shadows {
    by_host: std::collections::HashMap<usize, Shadow>,
    last: u64,
}

impl Shadows {
    fn version(&mut self) -> u64 {
        self.last += 1;
        self.last
    }

    /// The version of `bytes` as the host copy of the entry at `host`: a new one when they
    /// differ from the bytes last seen; `None` for an entry it never saw.
    fn host_version(&mut self, host: usize, bytes: &[u8]) -> Option<u64> {
        let same = self.by_host.get(&host).map(|s| s.host_bytes == bytes)?;
        if same {
            return self.by_host.get(&host).map(|s| s.hv);
        }
        Some(self.version())
    }
}

/// Compares both copies of every entry of the device with what the check saw last (a copy
/// of each: memory for speed); an attached pointer counts as equal on both sides. Gives the
/// entries too.
fn scan(
    d: &DeviceState,
    shadows: &mut Shadows,
    ptrs: &BTreeSet<usize>,
    access: &Access,
) -> (Vec<Snap>, Vec<Entry>) {
    const W: usize = size_of::<usize>();
    let entries = d.entries();
    let mut snaps = Vec::with_capacity(entries.len());
    for e in &entries {
        if !access.readable(e.host, e.bytes) {
            // Freed by the program while present: as it was when last seen, if ever.
            if let Some(s) = shadows.by_host.get(&e.host).filter(|s| s.dev == e.dev) {
                snaps.push(Snap {
                    host: e.host,
                    bytes: e.bytes,
                    dev: e.dev,
                    var: e.var.clone(),
                    h: s.hv,
                    d: s.dv,
                    equal: s.host_bytes == s.dev_bytes,
                });
            }
            continue;
        }
        // SAFETY: the host range is readable memory (`access`), and the device range the
        // entry's live allocation; the check waited for every queue, so no copy or kernel
        // writes them now.
        let (hb, db) = unsafe { (bytes_at(e.host, e.bytes), bytes_at(e.dev, e.bytes)) };
        let mut norm: std::borrow::Cow<'_, [u8]> = db.into();
        if hb != db {
            for o in attached(e, hb, db, ptrs) {
                norm.to_mut()[o..o + W].copy_from_slice(&hb[o..o + W]);
            }
        }
        let fresh = match shadows.by_host.get(&e.host) {
            Some(s) => s.dev != e.dev || s.host_bytes.len() != hb.len(),
            None => true,
        };
        if fresh {
            let (hv, dv) = (shadows.version(), shadows.version());
            let shadow = Shadow {
                dev: e.dev,
                host_bytes: hb.to_vec(),
                dev_bytes: norm.to_vec(),
                hv,
                dv,
            };
            shadows.by_host.insert(e.host, shadow);
        }
        let (host_changed, dev_changed) = match shadows.by_host.get(&e.host) {
            Some(s) => (s.host_bytes != hb, s.dev_bytes[..] != norm[..]),
            None => (false, false),
        };
        let hv = if host_changed { shadows.version() } else { 0 };
        let dv = if dev_changed { shadows.version() } else { 0 };
        let Some(s) = shadows.by_host.get_mut(&e.host) else {
            continue;
        };
        if host_changed {
            s.host_bytes.copy_from_slice(hb);
            s.hv = hv;
        }
        if dev_changed {
            s.dev_bytes.copy_from_slice(&norm);
            s.dv = dv;
        }
        snaps.push(Snap {
            host: e.host,
            bytes: e.bytes,
            dev: e.dev,
            var: e.var.clone(),
            h: s.hv,
            d: s.dv,
            equal: norm[..] == *hb,
        });
    }
    (snaps, entries)
}

/// Forgets the shadows of entries that are gone.
fn prune(shadows: &mut Shadows, snaps: &[Snap]) {
    shadows
        .by_host
        .retain(|h, s| snaps.iter().any(|x| x.host == *h && x.dev == s.dev));
}

/// Makes a repair's transfer, leaving the attached pointers on both sides as they are.
///
/// # Safety
/// `r` is the range of `e`, a present entry, and no queue runs.
unsafe fn repair(d: &DeviceState, e: Option<&Entry>, r: &Repair, ptrs: &BTreeSet<usize>) {
    let access = Access::now();
    if !access.writable(r.host, r.bytes) {
        return;
    }
    const W: usize = size_of::<usize>();
    // SAFETY: forwarded from the caller.
    let (hb, db) = unsafe { (bytes_at(r.host, r.bytes), bytes_at(r.dev, r.bytes)) };
    let side = if r.to_device { db } else { hb };
    let keep: Vec<(usize, Vec<u8>)> = e
        .map(|e| attached(e, hb, db, ptrs))
        .unwrap_or_default()
        .into_iter()
        .map(|o| (o, side[o..o + W].to_vec()))
        .collect();
    // SAFETY: forwarded from the caller; each kept word lies inside the range.
    unsafe {
        if r.to_device {
            d.device.copy_to_device(r.dev, r.host as *const u8, r.bytes);
        } else {
            d.device.copy_to_host(r.host as *mut u8, r.dev, r.bytes);
        }
        for (o, word) in keep {
            let at = if r.to_device { r.dev } else { r.host } + o;
            std::ptr::copy_nonoverlapping(word.as_ptr(), at as *mut u8, W);
        }
    }
}

/// The device an event is on, when the check applies to it.
fn device(site: &Site<'_>) -> Option<&'static DeviceState> {
    let d = runtime::current(site).ok()?;
    (d.kind() == DeviceKind::HostDiscrete).then_some(d)
}

fn file_of(site: &Site<'_>) -> Arc<str> {
    Arc::from(
        site.file
            .to_string_lossy()
            .unwrap_or_else(|| site.routine.to_string()),
    )
}

/// A data event begins (`items`: each clause item's action code and flags of `acc_rt.h`, host
/// range).
pub fn begin_data(
    site: &Site<'_>,
    kind: Kind,
    items: impl Iterator<Item = (u32, u32, usize, usize)>,
) -> Option<Pending> {
    if !on() {
        return None;
    }
    let d = device(site)?;
    let items: Vec<(u32, u32, usize, usize)> = items.collect();
    for &(action, flags, host, bytes) in &items {
        // `ACC_RT_ATTACH`, and `ACC_RT_ROWS`' row pointers.
        if action == 8 || flags & 32 != 0 {
            note_attach(host, bytes.max(size_of::<usize>()));
        }
    }
    let items = items
        .into_iter()
        .map(|(action, flags, host, bytes)| Item {
            // `ACC_RT_COPY`, `ACC_RT_COPYOUT`.
            copies_out: matches!(action, 1 | 3),
            // `ACC_RT_UPDATE_SELF`.
            to_host: action == 11,
            zero: runtime::Flags(flags).has(runtime::Flags::ZERO),
            host,
            bytes,
        })
        .collect();
    let ev = Event {
        kind,
        at: At {
            file: file_of(site),
            line: site.line,
        },
        items,
        args: Vec::new(),
    };
    quiet(|| start(d, ev))
}

/// A launch begins, with its arguments.
pub fn begin_launch(d: &'static DeviceState, args: &[Arg<'_>], site: &Site<'_>) -> Option<Pending> {
    if !on() || d.kind() != DeviceKind::HostDiscrete {
        return None;
    }
    let args = args
        .iter()
        .filter_map(|a| match *a {
            Arg::Mapped { host, ref site, .. } | Arg::Pointer { host, ref site } => Some(ArgUse {
                host,
                text: text(site.var),
            }),
            Arg::MappedOrHost { host, .. } => Some(ArgUse {
                host,
                text: String::new(),
            }),
            _ => None,
        })
        .collect();
    let ev = Event {
        kind: Kind::Launch,
        at: At {
            file: file_of(site),
            line: site.line,
        },
        items: Vec::new(),
        args,
    };
    quiet(|| start(d, ev))
}

fn text(t: Text<'_>) -> String {
    t.to_string_lossy().unwrap_or_default()
}

fn start(d: &'static DeviceState, ev: Event) -> Pending {
    d.queues.wait_all();
    let (cands, repairs, entries, ptrs) = with_checker(|c| {
        let (snaps, entries) = scan(d, &mut c.shadows, &c.attach_ptrs, &Access::now());
        let repairs = &c.repairs;
        let (cands, fixes) = c.tracker.begin(&ev, &snaps, &|k| repairs.contains(k));
        let ptrs = if fixes.is_empty() {
            BTreeSet::new()
        } else {
            c.attach_ptrs.clone()
        };
        (cands, fixes, entries, ptrs)
    });
    if !repairs.is_empty() {
        for r in &repairs {
            let e = entries.iter().find(|e| e.host == r.host);
            // SAFETY: the range is a present entry's (host data and its live device copy, as
            // `scan` found them an instant ago, with every queue idle).
            unsafe { repair(d, e, r, &ptrs) };
        }
        with_checker(|c| {
            let (snaps, _) = scan(d, &mut c.shadows, &c.attach_ptrs, &Access::now());
            for s in snaps
                .iter()
                .filter(|s| repairs.iter().any(|r| r.host == s.host))
            {
                c.tracker.repaired(s.host, s.h, s.d);
            }
        });
    }
    report(&cands);
    Pending { d, ev }
}

/// The event ended.
pub fn end(p: Option<Pending>) {
    if let Some(p) = p {
        quiet(|| finish(p));
    }
}

/// Runs a hook so that no panic of the check crosses the runtime's `extern "C"` entry
/// points: the check then stops, and the program goes on as without it.
fn quiet<R>(f: impl FnOnce() -> R) -> Option<R> {
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok();
    if r.is_none() {
        MODE.store(OFF, Ordering::Relaxed);
    }
    r
}

fn finish(Pending { d, ev }: Pending) {
    d.queues.wait_all();
    let cands = with_checker(|c| {
        let access = Access::now();
        let (snaps, _) = scan(d, &mut c.shadows, &c.attach_ptrs, &access);
        let shadows = std::cell::RefCell::new(&mut c.shadows);
        let version = |host: usize, bytes: usize| {
            if !access.readable(host, bytes) {
                return 0;
            }
            // SAFETY: the range is readable memory (`access`).
            let now = unsafe { bytes_at(host, bytes) };
            shadows.borrow_mut().host_version(host, now).unwrap_or(0)
        };
        let cands = c.tracker.end(&ev, &snaps, &version);
        prune(&mut c.shadows, &snaps);
        cands
    });
    report(&cands);
}

/// Appends the candidates not reported yet to the report file.
fn report(cands: &[Candidate]) {
    if cands.is_empty() {
        return;
    }
    let (path, lines) = with_checker(|c| {
        let lines: String = cands
            .iter()
            .filter(|k| c.reported.insert(k.key.clone()))
            .map(format_candidate)
            .collect();
        (c.report.clone(), lines)
    });
    let Some(path) = path else { return };
    if lines.is_empty() {
        return;
    }
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = f.write_all(lines.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_sees_every_byte_and_the_length() {
        let a = vec![0u8; 21];
        let mut b = a.clone();
        assert_eq!(checksum(&a), checksum(&b));
        for i in 0..b.len() {
            b[i] = 1;
            assert_ne!(checksum(&a), checksum(&b), "byte {i}");
            b[i] = 0;
        }
        assert_ne!(checksum(&a[..20]), checksum(&a));
    }

    #[test]
    fn repair_files_and_report_lines_round_trip() {
        let key = Key {
            kind: CandKind::LostWrite,
            file: "a b.c".into(),
            line: 12,
            var: "p[0:n]".into(),
        };
        let c = Candidate {
            key: key.clone(),
            shown: "p".into(),
            host_changed: (0, 0),
            to_device: 8,
            made: 8,
            written: 12,
            ended: 12,
            kept: true,
            released: false,
            to_host: false,
        };
        let line = format_candidate(&c);
        let keys = parse_repairs(&line);
        assert!(keys.contains(&key), "{line}");
        assert!(parse_repairs("nonsense\nlost-write\tf\tx\tv\n").is_empty());
    }
}
