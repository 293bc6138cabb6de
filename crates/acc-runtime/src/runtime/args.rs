//! A launch's arguments as its kernel receives them: present data translated to device
//! addresses, values copied into 8-byte words, private sections' storage planned.
//!
//! Reads the present table under its lock while it translates, and never changes it; a
//! firstprivate section's bytes are taken when the launch is made.

use super::DeviceState;
use crate::error::{Result, Site};
use crate::present::{self, Lookup};

/// One argument of a kernel launch.
#[derive(Clone, Copy, Debug)]
pub enum Arg<'a> {
    /// A host address inside present data, passed as its device address.
    Mapped {
        host: usize,
        bytes: usize,
        site: Site<'a>,
    },
    /// `no_create`: the device address if present, the host address otherwise.
    MappedOrHost { host: usize, bytes: usize },
    /// A pointer's value: translated to the device address of its target when that is
    /// present, else passed unchanged (OpenMP 5.1's rule) — with a warning on a device with
    /// separate memory, where a GPU kernel could not use the host address either.
    Pointer { host: usize, site: Site<'a> },
    /// A device address, passed as is (`deviceptr`).
    DevicePtr(usize),
    /// `bytes` bytes at `ptr`, passed by value.
    Value { ptr: usize, bytes: usize },
    /// A section in `private` or `firstprivate` (`private(c[0:n])`): passed as the address of
    /// the launch's storage for it, one copy of `bytes` bytes for each gang after a first copy
    /// that holds the section's `bytes` at `host` when the launch was made (`first`); each
    /// gang's code sets up its own copy (`acc_rt.h`).
    PrivateSection {
        host: usize,
        bytes: usize,
        first: bool,
    },
}

/// A launch's arguments as a kernel receives them: argument `i`'s value starts at word
/// `offsets[i]` of `storage`.
pub(super) struct ArgValues {
    pub(super) offsets: Vec<usize>,
    pub(super) storage: Vec<u64>,
    /// The private sections among the arguments, whose storage the launch makes.
    pub(super) privates: Vec<PrivateStorage>,
}

/// A private section's storage for one launch: `gangs + 1` copies of `bytes` bytes, the first
/// holding `original` (firstprivate), its address in word `word` of the argument values.
pub(super) struct PrivateStorage {
    pub(super) word: usize,
    pub(super) bytes: usize,
    pub(super) original: Vec<u8>,
}

impl PrivateStorage {
    /// The bytes of storage for `gangs` gangs.
    pub(super) fn total(&self, gangs: usize) -> usize {
        (gangs + 1) * self.bytes.max(1)
    }
}

impl DeviceState {
    /// Each argument's value as a kernel receives it, in 8-byte-aligned words: the device
    /// address for data, the bytes themselves for values.
    pub(super) fn translate_args(&self, args: &[Arg<'_>]) -> Result<ArgValues> {
        let mut offsets = Vec::with_capacity(args.len());
        let mut storage: Vec<u64> = Vec::with_capacity(args.len());
        let mut privates = Vec::new();
        let t = if self.shared() {
            None
        } else {
            Some(self.table())
        };
        for a in args {
            offsets.push(storage.len());
            let word = match *a {
                Arg::Mapped {
                    host,
                    bytes,
                    ref site,
                } => match &t {
                    None => host,
                    Some(t) => match t.lookup(host, bytes) {
                        Lookup::Present(e) => e.dev_of(host),
                        Lookup::Absent => return Err(self.not_present(t, site, host, bytes)),
                        Lookup::Overlap(e) => {
                            let o = present::Overlap { start: e.host };
                            return Err(self.overlap(t, o, site, host, bytes));
                        }
                    },
                },
                Arg::MappedOrHost { host, bytes } => match &t {
                    Some(t) => match t.lookup(host, bytes) {
                        Lookup::Present(e) => e.dev_of(host),
                        _ => host,
                    },
                    None => host,
                },
                Arg::Pointer { host, ref site } => match &t {
                    Some(t) => match t.lookup(host, 0) {
                        Lookup::Present(e) => e.dev_of(host),
                        _ => {
                            if host != 0 {
                                crate::error::warn_once(
                                    site,
                                    &format!(
                                        "{} points to memory that is not present on device {}; the kernel uses the host address, which a GPU kernel could not (is a data clause such as copy({}[0:n]) missing?)",
                                        site.what(host, 0),
                                        self.label,
                                        site.var.to_string_lossy().unwrap_or_default()
                                    ),
                                );
                            }
                            host
                        }
                    },
                    None => host,
                },
                Arg::DevicePtr(p) => p,
                Arg::PrivateSection { host, bytes, first } => {
                    let mut original: Vec<u8> = Vec::new();
                    if first && bytes > 0 {
                        original.reserve_exact(bytes);
                        // SAFETY: the launch's caller guarantees `bytes` readable bytes at the
                        // section; they are taken now, when the construct is encountered. A
                        // copy that allows overlap: a program that names more than it
                        // allocated (the V&V suite has one) must not make the copy abort.
                        unsafe {
                            std::ptr::copy(host as *const u8, original.as_mut_ptr(), bytes);
                            original.set_len(bytes);
                        }
                    }
                    privates.push(PrivateStorage {
                        word: storage.len(),
                        bytes,
                        original,
                    });
                    0
                }
                Arg::Value { ptr, bytes } => {
                    let words = bytes.div_ceil(8).max(1);
                    let at = storage.len();
                    storage.resize(at + words, 0);
                    // SAFETY: the launch's caller guarantees `ptr` has `bytes` readable bytes;
                    // the slots have `words * 8 >= bytes` bytes.
                    unsafe {
                        std::ptr::copy_nonoverlapping(
                            ptr as *const u8,
                            storage[at..].as_mut_ptr().cast::<u8>(),
                            bytes,
                        )
                    };
                    continue;
                }
            };
            storage.push(word as u64);
        }
        Ok(ArgValues {
            offsets,
            storage,
            privates,
        })
    }
}
