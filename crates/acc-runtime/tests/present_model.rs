//! Model-based property test of the present table: random sequences of enter, exit (with and
//! without finalize), attach and detach on overlapping and nested ranges, run against both the
//! table and a deliberately naive reference model (a vector scanned linearly), comparing every
//! outcome and the whole state after each step.

use acc_runtime::present::{Attach, Counter, Detach, Enter, Entry, Exit, PresentTable};
use proptest::prelude::*;

/// Host ranges the operations pick from: disjoint ones, ranges nested inside them, and ranges
/// that straddle two of them, so that containment and partial overlap are both exercised.
const RANGES: [(usize, usize); 8] = [
    (1000, 100), // a
    (1100, 100), // b, adjacent to a
    (1300, 16),  // c, holds two pointers
    (1010, 20),  // inside a
    (1050, 100), // straddles a and b
    (1000, 200), // covers a and b
    (1308, 8),   // inside c
    (1400, 8),   // e
];
/// Pointer variables for attach/detach: inside a, inside c, partly outside c, and unmapped.
const PTRS: [usize; 5] = [1000, 1008, 1300, 1308, 1312];

#[derive(Clone, Debug)]
enum Op {
    Enter(usize, Counter),
    Exit(usize, Counter, bool),
    Attach(usize),
    Detach(usize, bool),
}

fn counter() -> impl Strategy<Value = Counter> {
    prop_oneof![Just(Counter::Structured), Just(Counter::Dynamic)]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0..RANGES.len(), counter()).prop_map(|(r, c)| Op::Enter(r, c)),
        3 => (0..RANGES.len(), counter(), any::<bool>()).prop_map(|(r, c, f)| Op::Exit(r, c, f)),
        1 => (0..PTRS.len()).prop_map(Op::Attach),
        1 => (0..PTRS.len(), any::<bool>()).prop_map(|(p, f)| Op::Detach(p, f)),
    ]
}

#[derive(Clone, Debug, PartialEq)]
struct M {
    start: usize,
    len: usize,
    dev: usize,
    s: u32,
    d: u32,
    attach: Vec<(usize, u32)>,
}

/// The outcome of an operation, as both sides report it.
#[derive(Debug, PartialEq)]
enum Out {
    Overlap,
    Absent,
    Present(usize),
    NoCount,
    Kept(usize),
    Removed(usize),
    NotPresent,
    Attached(usize, bool),
    NotAttached,
    Detached(usize, bool),
}

#[derive(Default)]
struct Model {
    entries: Vec<M>,
}

enum Find {
    None,
    In(usize),
    Overlap,
}

impl Model {
    fn find(&self, h: usize, len: usize) -> Find {
        let hits: Vec<usize> = (0..self.entries.len())
            .filter(|&i| {
                let e = &self.entries[i];
                h < e.start + e.len && e.start < h + len
            })
            .collect();
        match hits.as_slice() {
            [] => Find::None,
            [i] if self.entries[*i].start <= h
                && h + len <= self.entries[*i].start + self.entries[*i].len =>
            {
                Find::In(*i)
            }
            _ => Find::Overlap,
        }
    }

    fn count(e: &mut M, c: Counter) -> &mut u32 {
        match c {
            Counter::Structured => &mut e.s,
            Counter::Dynamic => &mut e.d,
        }
    }

    fn enter(&mut self, h: usize, len: usize, c: Counter) -> Out {
        match self.find(h, len) {
            Find::Overlap => Out::Overlap,
            Find::None => Out::Absent,
            Find::In(i) => {
                let e = &mut self.entries[i];
                *Self::count(e, c) += 1;
                Out::Present(e.dev + h - e.start)
            }
        }
    }

    fn exit(&mut self, h: usize, len: usize, c: Counter, fin: bool) -> Out {
        match self.find(h, len) {
            Find::Overlap => Out::Overlap,
            Find::None => Out::Absent,
            Find::In(i) => {
                let e = &mut self.entries[i];
                let dev = e.dev + h - e.start;
                let n = Self::count(e, c);
                if *n == 0 {
                    return Out::NoCount;
                }
                if fin && c == Counter::Dynamic {
                    *n = 0;
                } else {
                    *n -= 1;
                }
                if e.s == 0 && e.d == 0 {
                    self.entries.remove(i);
                    Out::Removed(dev)
                } else {
                    Out::Kept(dev)
                }
            }
        }
    }

    fn attach(&mut self, p: usize) -> Out {
        match self.find(p, 8) {
            Find::Overlap => Out::Overlap,
            Find::None => Out::NotPresent,
            Find::In(i) => {
                let e = &mut self.entries[i];
                let slot = e.dev + p - e.start;
                match e.attach.iter_mut().find(|(q, _)| *q == p) {
                    Some((_, n)) => {
                        *n += 1;
                        Out::Attached(slot, false)
                    }
                    None => {
                        e.attach.push((p, 1));
                        Out::Attached(slot, true)
                    }
                }
            }
        }
    }

    fn detach(&mut self, p: usize, fin: bool) -> Out {
        match self.find(p, 8) {
            Find::Overlap => Out::Overlap,
            Find::None => Out::NotPresent,
            Find::In(i) => {
                let e = &mut self.entries[i];
                let slot = e.dev + p - e.start;
                let Some(k) = e.attach.iter().position(|(q, _)| *q == p) else {
                    return Out::NotAttached;
                };
                let n = &mut e.attach[k].1;
                *n = if fin { 0 } else { *n - 1 };
                let last = *n == 0;
                if last {
                    e.attach.remove(k);
                }
                Out::Detached(slot, last)
            }
        }
    }
}

fn table_out_enter(r: Result<Enter, acc_runtime::present::Overlap>) -> Out {
    match r {
        Err(_) => Out::Overlap,
        Ok(Enter::Absent) => Out::Absent,
        Ok(Enter::Present { dev }) => Out::Present(dev),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn table_matches_reference_model(ops in proptest::collection::vec(op(), 1..60)) {
        let mut t = PresentTable::new();
        let mut m = Model::default();
        let mut next_dev = 1 << 20;
        for op in &ops {
            let (got, want) = match *op {
                Op::Enter(r, c) => {
                    let (h, len) = RANGES[r];
                    let got = table_out_enter(t.enter(h, len, c));
                    let want = m.enter(h, len, c);
                    if want == Out::Absent {
                        // Both sides map the range anew, as the runtime does after allocating.
                        let dev = next_dev;
                        next_dev += len + 4096;
                        t.insert_counted(Entry::new(h, len, dev, "v"), c);
                        let mut e = M { start: h, len, dev, s: 0, d: 0, attach: vec![] };
                        *Model::count(&mut e, c) = 1;
                        m.entries.push(e);
                    }
                    (got, want)
                }
                Op::Exit(r, c, fin) => {
                    let (h, len) = RANGES[r];
                    let got = match t.exit(h, len, c, fin) {
                        Err(_) => Out::Overlap,
                        Ok(Exit::Absent) => Out::Absent,
                        Ok(Exit::NoCount) => Out::NoCount,
                        Ok(Exit::Kept { dev }) => Out::Kept(dev),
                        Ok(Exit::Removed { dev, .. }) => Out::Removed(dev),
                    };
                    (got, m.exit(h, len, c, fin))
                }
                Op::Attach(p) => {
                    let got = match t.attach(PTRS[p]) {
                        Err(_) => Out::Overlap,
                        Ok(Attach::NotPresent) => Out::NotPresent,
                        Ok(Attach::Attached { slot, first }) => Out::Attached(slot, first),
                    };
                    (got, m.attach(PTRS[p]))
                }
                Op::Detach(p, fin) => {
                    let got = match t.detach(PTRS[p], fin) {
                        Err(_) => Out::Overlap,
                        Ok(Detach::NotPresent) => Out::NotPresent,
                        Ok(Detach::NotAttached) => Out::NotAttached,
                        Ok(Detach::Detached { slot, last }) => Out::Detached(slot, last),
                    };
                    (got, m.detach(PTRS[p], fin))
                }
            };
            prop_assert_eq!(got, want, "after {:?}", op);
            let mut model: Vec<M> = m.entries.clone();
            model.sort_by_key(|e| e.start);
            let table: Vec<(usize, usize, usize, u32, u32)> =
                t.entries().map(|e| (e.host, e.bytes, e.dev, e.structured, e.dynamic)).collect();
            let want: Vec<(usize, usize, usize, u32, u32)> =
                model.iter().map(|e| (e.start, e.len, e.dev, e.s, e.d)).collect();
            prop_assert_eq!(table, want, "state after {:?}", op);
            for e in &model {
                for &p in &PTRS {
                    let n = e.attach.iter().find(|(q, _)| *q == p).map_or(0, |&(_, n)| n);
                    prop_assert_eq!(t.get(e.start).unwrap().attach_count(p), n);
                }
            }
        }
    }
}
