//! The present table: which host ranges are mapped to which device memory, with OpenACC's
//! reference counts.
//!
//! Entries live in slots; a sorted vector of their host ranges (start, end, slot) finds the one
//! that may contain an address by binary search, so every lookup — a whole variable, a
//! subarray inside it, or one address — is O(log n) over a compact array, and the range the
//! last lookup found is tried first (on the 2-core development VM, against the ordered map
//! this replaced: a lookup among 1000 entries about 82 → 56 ns, the enter and exit of a present
//! variable about 178 → 116 ns); a map
//! keyed by device address answers `acc_hostptr` and the "is this device memory still mapped"
//! check of `acc_free`. Adding or removing a range moves the ranges after it (24 bytes each),
//! which costs less than the allocation and copy that come with it.
//!
//! The counting rules are those of OpenACC 2.5 and later, which OpenMP's single counter cannot
//! express:
//! - the **structured** count belongs to data and compute constructs; the **dynamic** count to
//!   `enter data`/`exit data` and the `acc_copyin`-style routines;
//! - data is removed when both counts are zero; `finalize` zeroes the dynamic count only;
//! - a dynamic exit of data whose dynamic count is already zero does nothing (it may still be
//!   present through a data construct);
//! - a range inside a mapped range is present (subarray containment) and shares its counts; a
//!   range that partly overlaps a mapped one is an error;
//! - each pointer inside a mapped range has its own attach count (`attach`/`detach`).
//!
//! The table only does the bookkeeping: allocation, copies and error messages belong to
//! `runtime`, which keeps this module a plain data structure that a model test can drive.

use crate::device::DevAddr;
use std::cell::Cell;
use std::collections::BTreeMap;

/// Which reference count an action changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Counter {
    Structured,
    Dynamic,
}

/// One mapped host range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub host: usize,
    pub bytes: usize,
    pub dev: DevAddr,
    pub structured: u32,
    pub dynamic: u32,
    /// Mapped by `acc_map_data`: the program owns the device memory, exit actions never remove
    /// the entry, and only `acc_unmap_data` does.
    pub user_mapped: bool,
    /// The source text of the variable that created the mapping, for messages.
    pub var: Box<str>,
    /// Attach counts of the pointers inside this range, by the pointer's host address. A
    /// handful at most per variable, so a vector beats a map.
    attach: Vec<(usize, u32)>,
}

impl Entry {
    pub fn new(host: usize, bytes: usize, dev: DevAddr, var: &str) -> Entry {
        Entry {
            host,
            bytes,
            dev,
            structured: 0,
            dynamic: 0,
            user_mapped: false,
            var: var.into(),
            attach: Vec::new(),
        }
    }

    pub fn end(&self) -> usize {
        self.host + self.bytes
    }

    /// The device address of `host`, which must lie in this entry.
    pub fn dev_of(&self, host: usize) -> DevAddr {
        self.dev + (host - self.host)
    }

    /// The host addresses of the attached pointers stored in `[host, host + bytes)`: a copy
    /// of that range back to the host keeps their host values (the device copies hold device
    /// addresses, which the program's host code must never see).
    pub fn attached_in(&self, host: usize, bytes: usize) -> Vec<usize> {
        self.attach
            .iter()
            .filter(|&&(p, n)| n > 0 && host <= p && p + size_of::<usize>() <= host + bytes)
            .map(|&(p, _)| p)
            .collect()
    }

    pub fn attach_count(&self, ptr_addr: usize) -> u32 {
        self.attach
            .iter()
            .find(|(p, _)| *p == ptr_addr)
            .map_or(0, |&(_, n)| n)
    }

    fn count(&mut self, c: Counter) -> &mut u32 {
        match c {
            Counter::Structured => &mut self.structured,
            Counter::Dynamic => &mut self.dynamic,
        }
    }
}

/// The result of looking a host range up.
#[derive(Debug, PartialEq, Eq)]
pub enum Lookup<'a> {
    Absent,
    /// The range lies inside this entry.
    Present(&'a Entry),
    /// The range overlaps this entry without being inside it: an error for every data action.
    Overlap(&'a Entry),
}

/// A partial overlap with the mapped entry that starts at `start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overlap {
    pub start: usize,
}

/// The outcome of an enter action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enter {
    /// Present: the counter was incremented; `dev` is the device address of the range's start.
    Present { dev: DevAddr },
    /// Not present: the caller allocates and calls [`PresentTable::insert`].
    Absent,
}

/// The outcome of an exit action.
#[derive(Debug, PartialEq, Eq)]
pub enum Exit {
    /// Not present: nothing to do.
    Absent,
    /// Present, but the counter was already zero: nothing to do.
    NoCount,
    /// The counter went down and the data stays; `dev` is the range's device address.
    Kept { dev: DevAddr },
    /// Both counts reached zero and the entry was removed; the caller copies out what it must
    /// (from `dev`, the range's device address) and frees `entry.dev`.
    Removed { entry: Entry, dev: DevAddr },
}

/// The outcome of an attach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attach {
    /// The pointer variable itself is not present.
    NotPresent,
    /// The count went up; on the `first` attach the caller writes the target's device address
    /// into `slot` (the device copy of the pointer).
    Attached { slot: DevAddr, first: bool },
}

/// The outcome of a detach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detach {
    NotPresent,
    /// The pointer was not attached: nothing to do.
    NotAttached,
    /// The count went down; on the `last` detach the caller restores the device copy at `slot`
    /// to the host pointer's value.
    Detached {
        slot: DevAddr,
        last: bool,
    },
}

#[derive(Default, Debug)]
pub struct PresentTable {
    /// The entries, in no order (`None`: a free slot, listed in `free`).
    slots: Vec<Option<Entry>>,
    free: Vec<u32>,
    /// Each entry's host range `[start, end)` and slot, sorted by start (ranges never overlap).
    ranges: Vec<(usize, usize, u32)>,
    /// The ranges' starts alone, which the binary search reads: three times as many keys a
    /// cache line as `ranges` (a lookup among 1000 entries about 4 ns faster).
    starts: Vec<usize>,
    /// The index in `ranges` of the last range a lookup found: programs look the same few
    /// variables up again and again, and a binary search cannot use the branch predictor's
    /// memory of them as a tree's scan does. Only a hint (checked before use; the table is
    /// used under its device's lock).
    last: Cell<usize>,
    /// Device start address → host start address.
    by_dev: BTreeMap<DevAddr, usize>,
}

impl PresentTable {
    pub fn new() -> PresentTable {
        PresentTable::default()
    }

    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The entries, in host address order.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.ranges
            .iter()
            .filter_map(|&(_, _, slot)| self.slots[slot as usize].as_ref())
    }

    fn entry_at(&self, range: usize) -> &Entry {
        let slot = self.ranges[range].2 as usize;
        self.slots[slot]
            .as_ref()
            .unwrap_or_else(|| unreachable!("a range names a free slot"))
    }

    /// The index (in `ranges`) of the first range that starts after `host`.
    fn after(&self, host: usize) -> usize {
        let hint = self.last.get();
        if let Some(&(start, end, _)) = self.ranges.get(hint) {
            if start <= host && host < end {
                // Ranges do not overlap: the next one starts at or after `end`.
                return hint + 1;
            }
        }
        let i = self.starts.partition_point(|&s| s <= host);
        if i > 0 {
            self.last.set(i - 1);
        }
        i
    }

    /// Looks up `[host, host + bytes)`; zero bytes looks up the single address `host`.
    pub fn lookup(&self, host: usize, bytes: usize) -> Lookup<'_> {
        let end = host.saturating_add(bytes.max(1));
        let i = self.after(host);
        if i > 0 {
            let (_, r_end, _) = self.ranges[i - 1];
            if host < r_end {
                let e = self.entry_at(i - 1);
                return if end <= r_end {
                    Lookup::Present(e)
                } else {
                    Lookup::Overlap(e)
                };
            }
        }
        match self.ranges.get(i) {
            Some(&(start, _, _)) if start < end => Lookup::Overlap(self.entry_at(i)),
            _ => Lookup::Absent,
        }
    }

    /// The index in `ranges` of the entry starting at `start`.
    fn index_of(&self, start: usize) -> Option<usize> {
        self.starts.binary_search(&start).ok()
    }

    pub fn get(&self, start: usize) -> Option<&Entry> {
        self.index_of(start).map(|i| self.entry_at(i))
    }

    /// The entry whose device range contains `dev`.
    pub fn find_dev(&self, dev: DevAddr) -> Option<&Entry> {
        let (&dstart, &hstart) = self.by_dev.range(..=dev).next_back()?;
        let e = self.get(hstart)?;
        (dev < dstart + e.bytes.max(1)).then_some(e)
    }

    /// Adds a new mapping. The range must be absent (checked with `lookup` under the same lock)
    /// and non-empty.
    pub fn insert(&mut self, entry: Entry) {
        debug_assert!(entry.bytes > 0);
        debug_assert_eq!(self.lookup(entry.host, entry.bytes), Lookup::Absent);
        self.by_dev.insert(entry.dev, entry.host);
        let range = (entry.host, entry.end(), 0);
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slots[slot as usize] = Some(entry);
                slot
            }
            None => {
                self.slots.push(Some(entry));
                (self.slots.len() - 1) as u32
            }
        };
        let at = self.starts.partition_point(|&s| s < range.0);
        self.ranges.insert(at, (range.0, range.1, slot));
        self.starts.insert(at, range.0);
    }

    /// Adds a new mapping with one count on `counter`.
    pub fn insert_counted(&mut self, mut entry: Entry, counter: Counter) {
        *entry.count(counter) = 1;
        self.insert(entry);
    }

    pub fn remove(&mut self, start: usize) -> Option<Entry> {
        let i = self.index_of(start)?;
        let (_, _, slot) = self.ranges.remove(i);
        self.starts.remove(i);
        let e = self.slots[slot as usize].take()?;
        self.free.push(slot);
        self.by_dev.remove(&e.dev);
        Some(e)
    }

    /// Removes every entry (device shutdown).
    pub fn drain(&mut self) -> Vec<Entry> {
        self.by_dev.clear();
        self.ranges.clear();
        self.starts.clear();
        self.free.clear();
        std::mem::take(&mut self.slots)
            .into_iter()
            .flatten()
            .collect()
    }

    fn present_mut(&mut self, host: usize, bytes: usize) -> Result<Option<&mut Entry>, Overlap> {
        match self.lookup(host, bytes) {
            Lookup::Absent => return Ok(None),
            Lookup::Overlap(e) => return Err(Overlap { start: e.host }),
            Lookup::Present(_) => {}
        }
        // The lookup found the range containing `host` and left its index as the hint.
        let slot = self.ranges[self.last.get()].2 as usize;
        Ok(self.slots[slot].as_mut())
    }

    /// An enter action: if the range is present, count it.
    pub fn enter(&mut self, host: usize, bytes: usize, counter: Counter) -> Result<Enter, Overlap> {
        Ok(match self.present_mut(host, bytes)? {
            None => Enter::Absent,
            Some(e) => {
                *e.count(counter) += 1;
                Enter::Present {
                    dev: e.dev_of(host),
                }
            }
        })
    }

    /// An exit action: uncount (or, with `finalize`, zero the dynamic count) and remove the
    /// entry when both counts are zero.
    pub fn exit(
        &mut self,
        host: usize,
        bytes: usize,
        counter: Counter,
        finalize: bool,
    ) -> Result<Exit, Overlap> {
        let Some(e) = self.present_mut(host, bytes)? else {
            return Ok(Exit::Absent);
        };
        let dev = e.dev_of(host);
        let n = e.count(counter);
        if *n == 0 {
            return Ok(Exit::NoCount);
        }
        *n = if finalize && counter == Counter::Dynamic {
            0
        } else {
            *n - 1
        };
        if e.structured > 0 || e.dynamic > 0 || e.user_mapped {
            return Ok(Exit::Kept { dev });
        }
        let start = e.host;
        let entry = self.remove(start).expect("entry found above");
        Ok(Exit::Removed { entry, dev })
    }

    /// Attaches the pointer stored at host address `ptr_addr`.
    pub fn attach(&mut self, ptr_addr: usize) -> Result<Attach, Overlap> {
        let Some(e) = self.present_mut(ptr_addr, size_of::<usize>())? else {
            return Ok(Attach::NotPresent);
        };
        let slot = e.dev_of(ptr_addr);
        let n = match e.attach.iter_mut().find(|(p, _)| *p == ptr_addr) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                e.attach.push((ptr_addr, 1));
                1
            }
        };
        Ok(Attach::Attached {
            slot,
            first: n == 1,
        })
    }

    /// Detaches the pointer stored at `ptr_addr`; `finalize` zeroes its attach count.
    pub fn detach(&mut self, ptr_addr: usize, finalize: bool) -> Result<Detach, Overlap> {
        let Some(e) = self.present_mut(ptr_addr, size_of::<usize>())? else {
            return Ok(Detach::NotPresent);
        };
        let slot = e.dev_of(ptr_addr);
        let Some(i) = e.attach.iter().position(|(p, _)| *p == ptr_addr) else {
            return Ok(Detach::NotAttached);
        };
        let n = &mut e.attach[i].1;
        *n = if finalize { 0 } else { *n - 1 };
        let last = *n == 0;
        if last {
            e.attach.swap_remove(i);
        }
        Ok(Detach::Detached { slot, last })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table_with(host: usize, bytes: usize, dev: usize, c: Counter) -> PresentTable {
        let mut t = PresentTable::new();
        t.insert_counted(Entry::new(host, bytes, dev, "a"), c);
        t
    }

    #[test]
    fn subarrays_are_present_and_partial_overlaps_are_not() {
        let t = table_with(1000, 100, 50_000, Counter::Dynamic);
        assert!(matches!(t.lookup(1000, 100), Lookup::Present(_)));
        assert!(matches!(t.lookup(1010, 10), Lookup::Present(_)));
        assert!(matches!(t.lookup(1099, 0), Lookup::Present(_)));
        assert!(matches!(t.lookup(990, 20), Lookup::Overlap(_)));
        assert!(matches!(t.lookup(1090, 20), Lookup::Overlap(_)));
        assert!(matches!(t.lookup(900, 300), Lookup::Overlap(_)));
        assert_eq!(t.lookup(1100, 10), Lookup::Absent);
        assert_eq!(t.lookup(900, 100), Lookup::Absent);
        assert_eq!(t.find_dev(50_050).map(|e| e.host), Some(1000));
        assert_eq!(t.find_dev(50_100), None);
    }

    #[test]
    fn the_last_hit_hint_never_answers_for_another_range() {
        let mut t = PresentTable::new();
        for k in 0..8 {
            t.insert_counted(
                Entry::new(1000 * k, 100, 90_000 + 1000 * k, "a"),
                Counter::Dynamic,
            );
        }
        // Leave the hint on the range at 5000, then shift the ranges under it.
        assert!(matches!(t.lookup(5050, 10), Lookup::Present(e) if e.host == 5000));
        t.remove(2000);
        assert!(matches!(t.lookup(5050, 10), Lookup::Present(e) if e.host == 5000));
        assert_eq!(t.lookup(2050, 10), Lookup::Absent);
        t.remove(5000);
        assert_eq!(t.lookup(5050, 10), Lookup::Absent);
        t.insert_counted(Entry::new(500, 100, 80_000, "b"), Counter::Dynamic);
        assert!(matches!(t.lookup(6050, 10), Lookup::Present(e) if e.host == 6000));
        assert!(matches!(t.lookup(550, 10), Lookup::Present(e) if e.host == 500));
        assert_eq!(
            t.enter(6000, 100, Counter::Structured),
            Ok(Enter::Present { dev: 96_000 })
        );
        assert_eq!(t.get(6000).map(|e| e.structured), Some(1));
        let hosts: Vec<usize> = t.entries().map(|e| e.host).collect();
        assert_eq!(hosts, [0, 500, 1000, 3000, 4000, 6000, 7000]);
    }

    #[test]
    fn structured_and_dynamic_counts_are_separate() {
        let mut t = table_with(1000, 100, 50_000, Counter::Structured);
        assert_eq!(
            t.enter(1000, 100, Counter::Dynamic),
            Ok(Enter::Present { dev: 50_000 })
        );
        // finalize zeroes only the dynamic count: the data construct still holds the data.
        assert_eq!(
            t.exit(1000, 100, Counter::Dynamic, true),
            Ok(Exit::Kept { dev: 50_000 })
        );
        assert_eq!(
            t.exit(1000, 100, Counter::Dynamic, false),
            Ok(Exit::NoCount)
        );
        match t.exit(1010, 10, Counter::Structured, false) {
            Ok(Exit::Removed { entry, dev }) => {
                assert_eq!((entry.host, dev), (1000, 50_010));
            }
            other => panic!("{other:?}"),
        }
        assert!(t.is_empty());
        assert_eq!(t.exit(1000, 100, Counter::Dynamic, false), Ok(Exit::Absent));
    }

    /// The attached pointers a copy back must keep are those inside the copied range.
    #[test]
    fn attached_pointers_inside_a_range() {
        let mut t = table_with(1000, 64, 50_000, Counter::Dynamic);
        t.attach(1008).unwrap();
        t.attach(1040).unwrap();
        let Lookup::Present(e) = t.lookup(1000, 64) else {
            panic!("present")
        };
        assert_eq!(e.attached_in(1000, 64), [1008, 1040]);
        assert_eq!(e.attached_in(1016, 24), Vec::<usize>::new());
        assert_eq!(e.attached_in(1040, 8), [1040]);
    }

    #[test]
    fn attach_counts_are_per_pointer() {
        let mut t = table_with(1000, 64, 50_000, Counter::Dynamic);
        assert_eq!(
            t.attach(1008),
            Ok(Attach::Attached {
                slot: 50_008,
                first: true
            })
        );
        assert_eq!(
            t.attach(1008),
            Ok(Attach::Attached {
                slot: 50_008,
                first: false
            })
        );
        assert_eq!(
            t.attach(1016),
            Ok(Attach::Attached {
                slot: 50_016,
                first: true
            })
        );
        assert_eq!(
            t.detach(1008, false),
            Ok(Detach::Detached {
                slot: 50_008,
                last: false
            })
        );
        assert_eq!(
            t.detach(1008, false),
            Ok(Detach::Detached {
                slot: 50_008,
                last: true
            })
        );
        assert_eq!(t.detach(1008, false), Ok(Detach::NotAttached));
        assert_eq!(
            t.detach(1016, true),
            Ok(Detach::Detached {
                slot: 50_016,
                last: true
            })
        );
        assert_eq!(t.attach(2000), Ok(Attach::NotPresent));
        assert_eq!(t.attach(1060), Err(Overlap { start: 1000 }));
    }

    #[test]
    fn user_mapped_entries_survive_exits() {
        let mut t = PresentTable::new();
        let mut e = Entry::new(1000, 8, 9000, "x");
        e.user_mapped = true;
        t.insert(e);
        assert_eq!(t.exit(1000, 8, Counter::Dynamic, false), Ok(Exit::NoCount));
        assert_eq!(
            t.enter(1000, 8, Counter::Dynamic),
            Ok(Enter::Present { dev: 9000 })
        );
        assert_eq!(
            t.exit(1000, 8, Counter::Dynamic, true),
            Ok(Exit::Kept { dev: 9000 })
        );
        assert_eq!(t.len(), 1);
    }
}
