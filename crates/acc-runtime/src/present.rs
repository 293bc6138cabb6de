//! The present table: which host ranges are mapped to which device memory, with OpenACC's
//! reference counts.
//!
//! Entries are kept in an ordered map keyed by host start address, so every lookup — a whole
//! variable, a subarray inside it, or one address — is O(log n); a second map keyed by device
//! address answers `acc_hostptr` and the "is this device memory still mapped" check of
//! `acc_free` the same way.
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
    by_host: BTreeMap<usize, Entry>,
    /// Device start address → host start address.
    by_dev: BTreeMap<DevAddr, usize>,
}

impl PresentTable {
    pub fn new() -> PresentTable {
        PresentTable::default()
    }

    pub fn len(&self) -> usize {
        self.by_host.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_host.is_empty()
    }

    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.by_host.values()
    }

    /// Looks up `[host, host + bytes)`; zero bytes looks up the single address `host`.
    pub fn lookup(&self, host: usize, bytes: usize) -> Lookup<'_> {
        let end = host.saturating_add(bytes.max(1));
        if let Some((_, e)) = self.by_host.range(..=host).next_back() {
            if host < e.end() {
                return if end <= e.end() {
                    Lookup::Present(e)
                } else {
                    Lookup::Overlap(e)
                };
            }
        }
        match self.by_host.range(host + 1..end).next() {
            Some((_, e)) => Lookup::Overlap(e),
            None => Lookup::Absent,
        }
    }

    pub fn get(&self, start: usize) -> Option<&Entry> {
        self.by_host.get(&start)
    }

    /// The entry whose device range contains `dev`.
    pub fn find_dev(&self, dev: DevAddr) -> Option<&Entry> {
        let (&dstart, &hstart) = self.by_dev.range(..=dev).next_back()?;
        let e = &self.by_host[&hstart];
        (dev < dstart + e.bytes.max(1)).then_some(e)
    }

    /// Adds a new mapping. The range must be absent (checked with `lookup` under the same lock)
    /// and non-empty.
    pub fn insert(&mut self, entry: Entry) {
        debug_assert!(entry.bytes > 0);
        debug_assert_eq!(self.lookup(entry.host, entry.bytes), Lookup::Absent);
        self.by_dev.insert(entry.dev, entry.host);
        self.by_host.insert(entry.host, entry);
    }

    /// Adds a new mapping with one count on `counter`.
    pub fn insert_counted(&mut self, mut entry: Entry, counter: Counter) {
        *entry.count(counter) = 1;
        self.insert(entry);
    }

    pub fn remove(&mut self, start: usize) -> Option<Entry> {
        let e = self.by_host.remove(&start)?;
        self.by_dev.remove(&e.dev);
        Some(e)
    }

    /// Removes every entry (device shutdown).
    pub fn drain(&mut self) -> Vec<Entry> {
        self.by_dev.clear();
        std::mem::take(&mut self.by_host).into_values().collect()
    }

    fn present_mut(&mut self, host: usize, bytes: usize) -> Result<Option<&mut Entry>, Overlap> {
        let start = match self.lookup(host, bytes) {
            Lookup::Absent => return Ok(None),
            Lookup::Overlap(e) => return Err(Overlap { start: e.host }),
            Lookup::Present(e) => e.host,
        };
        Ok(self.by_host.get_mut(&start))
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
