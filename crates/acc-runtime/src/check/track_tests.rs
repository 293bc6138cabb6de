//! The tracker on simulated copies: one entry whose host and device bytes the tests change
//! between events, as a program and its kernels would.

use super::*;
use crate::check::checksum;

/// One mapped array: its host and device bytes.
struct Mem {
    host: Vec<u8>,
    dev: Vec<u8>,
    mapped: bool,
}

const HOST: usize = 0x1000;
const DEV: usize = 0x9000;

impl Mem {
    fn new() -> Mem {
        Mem {
            host: vec![1; 16],
            dev: vec![0xFF; 16],
            mapped: false,
        }
    }

    fn snaps(&self) -> Vec<Snap> {
        if !self.mapped {
            return Vec::new();
        }
        vec![Snap {
            host: HOST,
            bytes: 16,
            dev: DEV,
            var: "a".into(),
            h: checksum(&self.host),
            d: checksum(&self.dev),
            equal: self.host == self.dev,
        }]
    }
}

fn ev(kind: Kind, line: u32) -> Event {
    Event {
        kind,
        at: At {
            file: Arc::from("t.c"),
            line,
        },
        items: Vec::new(),
        args: if kind == Kind::Launch {
            vec![ArgUse {
                host: HOST,
                text: "a".into(),
            }]
        } else {
            Vec::new()
        },
    }
}

fn none(_: &Key) -> bool {
    false
}

/// Runs one event: `act` is what the event does to the copies; gives every candidate.
fn step(t: &mut Tracker, m: &mut Mem, e: Event, act: impl FnOnce(&mut Mem)) -> Vec<Candidate> {
    let (mut c, repairs) = t.begin(&e, &m.snaps(), &none);
    assert!(repairs.is_empty());
    act(m);
    let host = m.host.clone();
    c.extend(t.end(&e, &m.snaps(), &|_, _| checksum(&host)));
    c
}

fn copyin(m: &mut Mem) {
    m.mapped = true;
    m.dev = m.host.clone();
}

#[test]
fn in_sync_data_raises_nothing() {
    let (mut t, mut m) = (Tracker::new(), Mem::new());
    assert!(step(&mut t, &mut m, ev(Kind::Data, 3), copyin).is_empty());
    let c = step(&mut t, &mut m, ev(Kind::Launch, 4), |m| m.dev[0] = 7);
    assert!(c.is_empty(), "{c:?}");
    let c = step(&mut t, &mut m, ev(Kind::Data, 4), |m| {
        m.host = m.dev.clone()
    });
    assert!(c.is_empty(), "copied back at the construct's end: {c:?}");
    let c = step(&mut t, &mut m, ev(Kind::Data, 9), |m| m.mapped = false);
    assert!(c.is_empty(), "{c:?}");
}

#[test]
fn a_host_write_after_the_copy_in_makes_the_device_copy_stale() {
    let (mut t, mut m) = (Tracker::new(), Mem::new());
    step(&mut t, &mut m, ev(Kind::Data, 3), copyin);
    m.host[5] = 2;
    let c = step(&mut t, &mut m, ev(Kind::Data, 6), |_| {});
    assert!(c.is_empty());
    let c = step(&mut t, &mut m, ev(Kind::Launch, 6), |_| {});
    assert_eq!(c.len(), 1, "{c:?}");
    assert_eq!(c[0].key.kind, CandKind::StaleDevice);
    assert_eq!(
        (c[0].key.line, c[0].host_changed, c[0].to_device),
        (6, (3, 6), 3)
    );
}

#[test]
fn created_data_is_stale_until_written() {
    let (mut t, mut m) = (Tracker::new(), Mem::new());
    step(&mut t, &mut m, ev(Kind::Data, 2), |m| m.mapped = true);
    let c = step(&mut t, &mut m, ev(Kind::Launch, 3), |m| m.dev = vec![4; 16]);
    assert_eq!(c.len(), 1);
    assert_eq!((c[0].made, c[0].to_device), (2, 0));
    // Written by the kernel, the device copy is newer: the next launch reads no stale copy.
    step(&mut t, &mut m, ev(Kind::Data, 3), |m| {
        m.host = m.dev.clone()
    });
    let c = step(&mut t, &mut m, ev(Kind::Launch, 5), |_| {});
    assert!(c.is_empty(), "{c:?}");
}

#[test]
fn a_host_write_after_a_kernel_write_is_stale_on_the_device() {
    let (mut t, mut m) = (Tracker::new(), Mem::new());
    step(&mut t, &mut m, ev(Kind::Data, 2), copyin);
    step(&mut t, &mut m, ev(Kind::Launch, 3), |m| m.dev[1] = 9);
    step(&mut t, &mut m, ev(Kind::Data, 3), |_| {});
    m.host[0] = 42;
    let c = step(&mut t, &mut m, ev(Kind::Launch, 7), |_| {});
    assert!(c
        .iter()
        .any(|c| c.key.kind == CandKind::StaleDevice && c.key.line == 7));
}

#[test]
fn device_writes_never_copied_back_are_lost_writes() {
    let (mut t, mut m) = (Tracker::new(), Mem::new());
    step(&mut t, &mut m, ev(Kind::Data, 2), copyin);
    step(&mut t, &mut m, ev(Kind::Launch, 3), |m| m.dev[1] = 9);
    let mut end = ev(Kind::Data, 3);
    end.items.push(Item {
        copies_out: true,
        to_host: false,
        zero: false,
        host: HOST,
        bytes: 16,
    });
    let c = step(&mut t, &mut m, end, |_| {});
    assert_eq!(c.len(), 1, "{c:?}");
    assert_eq!(c[0].key.kind, CandKind::LostWrite);
    assert!(c[0].kept && !c[0].released);
    // Reported once per write: the release later raises nothing new.
    let c = step(&mut t, &mut m, ev(Kind::Data, 8), |m| m.mapped = false);
    assert!(c.is_empty(), "{c:?}");
}

#[test]
fn a_release_without_copy_back_is_a_lost_write() {
    let (mut t, mut m) = (Tracker::new(), Mem::new());
    step(&mut t, &mut m, ev(Kind::Data, 2), copyin);
    step(&mut t, &mut m, ev(Kind::Launch, 2), |m| m.dev[1] = 9);
    let c = step(&mut t, &mut m, ev(Kind::Data, 2), |m| m.mapped = false);
    assert_eq!(c.len(), 1, "{c:?}");
    assert!(c[0].released && c[0].key.kind == CandKind::LostWrite);
}

#[test]
fn a_repair_run_asks_for_the_missing_transfer() {
    let (mut t, mut m) = (Tracker::new(), Mem::new());
    step(&mut t, &mut m, ev(Kind::Data, 3), copyin);
    m.host[5] = 2;
    let want = |k: &Key| k.kind == CandKind::StaleDevice && k.line == 6 && k.var == "a";
    let (_, repairs) = t.begin(&ev(Kind::Launch, 6), &m.snaps(), &want);
    assert_eq!(
        repairs,
        vec![Repair {
            to_device: true,
            host: HOST,
            dev: DEV,
            bytes: 16
        }]
    );
}

#[test]
fn update_self_of_unwritten_device_memory_is_a_stale_read() {
    let (mut t, mut m) = (Tracker::new(), Mem::new());
    step(&mut t, &mut m, ev(Kind::Data, 2), |m| m.mapped = true);
    let mut update = ev(Kind::Data, 4);
    update.items.push(Item {
        copies_out: false,
        to_host: true,
        zero: false,
        host: HOST,
        bytes: 16,
    });
    let c = step(&mut t, &mut m, update, |m| m.host = m.dev.clone());
    assert_eq!(c.len(), 1, "{c:?}");
    assert!(c[0].to_host && c[0].key.kind == CandKind::StaleDevice && c[0].made == 2);
}

#[test]
fn zeroed_device_memory_is_initialised() {
    let (mut t, mut m) = (Tracker::new(), Mem::new());
    let mut create = ev(Kind::Data, 2);
    create.items.push(Item {
        copies_out: false,
        to_host: false,
        zero: true,
        host: HOST,
        bytes: 16,
    });
    step(&mut t, &mut m, create, |m| {
        m.mapped = true;
        m.dev = vec![0; 16];
    });
    let c = step(&mut t, &mut m, ev(Kind::Launch, 3), |_| {});
    assert!(c.is_empty(), "{c:?}");
    m.host[2] = 5;
    step(&mut t, &mut m, ev(Kind::Data, 6), |_| {});
    let c = step(&mut t, &mut m, ev(Kind::Launch, 6), |_| {});
    assert_eq!(c.len(), 1, "changed by the host after it was zeroed: {c:?}");
}
