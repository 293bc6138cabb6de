//! Data actions: `enter`/`exit` of data clauses and routines, `update`, `attach`/`detach`,
//! `acc_map_data`/`acc_unmap_data`, and the lookups `is_present`, `deviceptr`, `hostptr`.
//!
//! This is the only module that inserts or removes present-table entries or changes their
//! structured, dynamic and attach counts. Invariants: an action holds the table lock from its
//! lookup until its copies are enqueued (synchronous ones: done); memory a mapping allocated
//! is freed only by a `release` enqueued after the entry's copy-out, on the same queue; on a
//! device that shares host memory every action is a no-op that returns the host address.

use super::{Action, DeviceState, Flags};
use crate::device::DevAddr;
use crate::error::{Error, ErrorKind, Result, Site};
use crate::present::{self, Counter, Entry, Lookup};
use crate::prof;
use crate::queue::QueueSel;

/// Copies a host-side value across threads: addresses are plain numbers until the job that owns
/// the right to use them runs.
#[derive(Clone, Copy)]
struct Addr(usize);

impl DeviceState {
    /// Enqueues a host-to-device copy.
    ///
    /// # Safety
    /// `host` stays readable for `bytes` bytes until the copy ran; `dev` is live device memory.
    pub(super) unsafe fn put(
        &'static self,
        q: QueueSel,
        dev: DevAddr,
        host: usize,
        bytes: usize,
        site: &Site<'_>,
        implicit: bool,
    ) {
        let what = (host, bytes, dev);
        self.data_event(prof::Event::EnqueueUploadStart, q, site, what, implicit);
        let h = Addr(host);
        self.queues.submit(q, move || {
            let h = h;
            // SAFETY: guaranteed by the caller of `put`.
            unsafe { self.device.copy_to_device(dev, h.0 as *const u8, bytes) }
        });
        self.data_event(prof::Event::EnqueueUploadEnd, q, site, what, implicit);
    }

    /// Enqueues a device-to-host copy. The pointers stored at `keep` (attached pointers inside
    /// the range, [`present::Entry::attached_in`]) keep their host values: their device copies
    /// point at device memory, which host code must never see (a struct copied out after
    /// `copyin(s.p[0:n])` keeps `s.p`; libgomp and libomptarget do the same).
    ///
    /// # Safety
    /// `host` stays writable for `bytes` bytes until the copy ran; `dev` is live device memory;
    /// each of `keep` is a pointer's address inside the range.
    // The copy's fields plus where it runs, as `enter`'s.
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn get(
        &'static self,
        q: QueueSel,
        host: usize,
        dev: DevAddr,
        bytes: usize,
        keep: Vec<usize>,
        site: &Site<'_>,
        implicit: bool,
    ) {
        let what = (host, bytes, dev);
        self.data_event(prof::Event::EnqueueDownloadStart, q, site, what, implicit);
        let h = Addr(host);
        self.queues.submit(q, move || {
            let h = h;
            let kept: Vec<(usize, usize)> = keep
                .iter()
                .map(|&p| {
                    // SAFETY: guaranteed by the caller of `get`: each of `keep` is a pointer's
                    // address in the host range, readable and writable until the copy ran.
                    (p, unsafe { (p as *const usize).read_unaligned() })
                })
                .collect();
            // SAFETY: guaranteed by the caller of `get`.
            unsafe { self.device.copy_to_host(h.0 as *mut u8, dev, bytes) }
            for (p, value) in kept {
                // SAFETY: as the read above.
                unsafe { (p as *mut usize).write_unaligned(value) }
            }
        });
        self.data_event(prof::Event::EnqueueDownloadEnd, q, site, what, implicit);
    }

    /// Enqueues freeing device memory the runtime allocated for a mapping.
    pub(super) fn release(&'static self, q: QueueSel, dev: DevAddr) {
        self.queues.submit(q, move || {
            // The entry owned this allocation and was just removed, so the free cannot fail;
            // if it does, the runtime's own bookkeeping is broken.
            if let Err(e) = self.device.free(dev) {
                crate::error::fatal(&Error::new(
                    ErrorKind::Internal,
                    &Site::routine("release"),
                    e.to_string(),
                ));
            }
        });
    }

    /// An enter action (data/compute construct entry with `Counter::Structured`, `enter data`
    /// and `acc_copyin`-style routines with `Counter::Dynamic`). Returns the device address of
    /// `host` (null for zero bytes that are not present).
    ///
    /// # Safety
    /// `[host, host + bytes)` is valid host memory until the action's copies have run; for
    /// `Attach`, `host` is the address of a pointer.
    // The arguments are the clause's fields plus where it runs; a struct would only rename them.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn enter(
        &'static self,
        action: Action,
        flags: Flags,
        host: usize,
        bytes: usize,
        counter: Counter,
        q: QueueSel,
        site: &Site<'_>,
    ) -> Result<DevAddr> {
        match action {
            Action::DevicePtr => return Ok(host),
            // An implicit attach (IF_PRESENT) does nothing when the pointer itself is not on
            // the device: `copyin(s.p[0:n])` attaches `s.p` only if `s` is present.
            Action::Attach
                if flags.has(Flags::IF_PRESENT) && !self.is_present(host, size_of::<usize>()) =>
            {
                return Ok(host)
            }
            // SAFETY: forwarded from the caller.
            Action::Attach => {
                let offset = if flags.has(Flags::SECTION_OFFSET) {
                    bytes
                } else {
                    0
                };
                // SAFETY: forwarded from the caller.
                return unsafe { self.attach_at(host, offset, q, site) }.map(|()| host);
            }
            Action::Copy | Action::CopyIn | Action::CopyOut | Action::Create => {}
            Action::NoCreate | Action::Present => {}
            other => {
                return Err(Error::new(
                    ErrorKind::InvalidArgument,
                    site,
                    format!("{other:?} is not an enter action"),
                ))
            }
        }
        if self.shared() {
            return Ok(host);
        }
        // Queued work may need the table (a routine's global): wait for it first.
        let _drained = self.queues.drain_for(q);
        let mut t = self.table();
        if bytes == 0 || host == 0 {
            // Zero-length data is never mapped; a zero-length section of present data gets its
            // device address, anything else a null pointer (as the specification says). A
            // section of a null pointer (`copy(p[0:n])` with `p == NULL`, a buffer a program
            // did not need this time) is no data either: nothing to copy, a null pointer on
            // the device.
            return Ok(match t.lookup(host, 0) {
                Lookup::Present(e) => e.dev_of(host),
                _ if action == Action::NoCreate => host,
                _ => 0,
            });
        }
        match t.enter(host, bytes, counter) {
            Err(o) if flags.has(Flags::IMPLICIT) => {
                let err = self.overlap(&t, o, site, host, bytes);
                let name = site
                    .var
                    .to_string_lossy()
                    .unwrap_or_else(|| "the variable".into());
                Err(Error::new(
                    err.kind(),
                    site,
                    format!(
                        "{}; the construct uses `{name}`, which no visible data clause names \
                         whole, so it is copied implicitly (OpenACC 3.3 2.6.2): map `{name}` \
                         whole before its parts, as in `copyin({name})` where they are mapped",
                        err.message()
                    ),
                ))
            }
            Err(o) => Err(self.overlap(&t, o, site, host, bytes)),
            Ok(present::Enter::Present { dev }) => {
                if flags.has(Flags::ALWAYS_IN) && matches!(action, Action::Copy | Action::CopyIn) {
                    // SAFETY: forwarded from the caller; `dev` lies in the present entry.
                    unsafe { self.put(q, dev, host, bytes, site, flags.has(Flags::IMPLICIT)) };
                }
                Ok(dev)
            }
            Ok(present::Enter::Absent) => match action {
                // `present(p)` naming a pointer alone (`kernels present(m, a)` in a function
                // whose parameters point into data the caller mapped, the idiom of code written
                // for PGI/nvc): OpenACC 3.3 §2.7.1 makes it the pointer variable, which nothing
                // mapped, and there it would be an error. nvc reads it as the data the pointer
                // points to; acc does the same where the strict reading can only fail — the
                // pointer's own device copy, attached to the present target, for the length of
                // the construct — so a pointer that is present keeps the strict meaning.
                // A struct's member (`present(s.x)`): its device copy is the struct's, which
                // the construct copies (implicitly, where nothing names it whole) and attaches;
                // a device copy of the member alone would overlap the struct's.
                Action::Present
                    if flags.has(Flags::POINTER_TARGET)
                        && flags.has(Flags::MEMBER_TARGET)
                        && bytes == size_of::<usize>()
                        && Self::target_present(&t, host) =>
                {
                    Ok(host)
                }
                Action::Present
                    if flags.has(Flags::POINTER_TARGET)
                        && bytes == size_of::<usize>()
                        && Self::target_present(&t, host) =>
                {
                    drop(t);
                    let flags = Flags(flags.0 & !Flags::POINTER_TARGET.0);
                    // SAFETY: forwarded from the caller: `host` is the pointer variable.
                    let dev = unsafe {
                        self.enter(Action::CopyIn, flags, host, bytes, counter, q, site)?
                    };
                    // SAFETY: as above; the pointer was just mapped.
                    unsafe { self.attach(host, q, site)? };
                    Ok(dev)
                }
                Action::Present => Err(self.not_present(&t, site, host, bytes)),
                Action::NoCreate => Ok(host),
                _ => {
                    let dev = self
                        .device
                        .alloc(bytes)
                        .map_err(|e| self.dev_error(e, site, host, bytes))?;
                    let var = site.var.to_string_lossy().unwrap_or_default();
                    t.insert_counted(Entry::new(host, bytes, dev, &var), counter);
                    self.data_event(
                        prof::Event::Alloc,
                        q,
                        site,
                        (host, bytes, dev),
                        flags.has(Flags::IMPLICIT),
                    );
                    self.data_event(
                        prof::Event::Create,
                        q,
                        site,
                        (host, bytes, dev),
                        flags.has(Flags::IMPLICIT),
                    );
                    if matches!(action, Action::Copy | Action::CopyIn) {
                        // SAFETY: forwarded from the caller; `dev` was just allocated.
                        unsafe { self.put(q, dev, host, bytes, site, flags.has(Flags::IMPLICIT)) };
                    } else if flags.has(Flags::ZERO) {
                        self.queues.submit(q, move || {
                            // SAFETY: `dev` is the live allocation of the new entry; only a
                            // later exit, ordered after this on the same queue, frees it.
                            unsafe { self.device.fill(dev, 0, bytes) }
                        });
                    }
                    Ok(dev)
                }
            },
        }
    }

    /// Whether the pointer stored at `host` points into present data.
    fn target_present(t: &present::PresentTable, host: usize) -> bool {
        if !host.is_multiple_of(align_of::<usize>()) {
            return false;
        }
        // SAFETY: `host` is the pointer variable a clause names, readable for the whole data
        // action (the caller of `enter` guarantees it).
        let target = unsafe { std::ptr::read(host as *const usize) };
        target != 0 && matches!(t.lookup(target, 0), Lookup::Present(_))
    }

    /// An exit action; the counterpart of [`enter`](Self::enter).
    ///
    /// # Safety
    /// As for `enter`: `host` stays valid until the copy-out ran.
    // The arguments are the clause's fields plus where it runs; a struct would only rename them.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn exit(
        &'static self,
        action: Action,
        flags: Flags,
        host: usize,
        bytes: usize,
        counter: Counter,
        q: QueueSel,
        site: &Site<'_>,
    ) -> Result<()> {
        let copy_out = match action {
            Action::Copy | Action::CopyOut => true,
            Action::CopyIn
            | Action::Create
            | Action::NoCreate
            | Action::Present
            | Action::Delete => false,
            Action::DevicePtr => return Ok(()),
            Action::Detach | Action::Attach
                if flags.has(Flags::IF_PRESENT) && !self.is_present(host, size_of::<usize>()) =>
            {
                return Ok(())
            }
            Action::Detach | Action::Attach => {
                // SAFETY: forwarded from the caller.
                return unsafe { self.detach(host, flags.has(Flags::FINALIZE), q, site) };
            }
            other => {
                return Err(Error::new(
                    ErrorKind::InvalidArgument,
                    site,
                    format!("{other:?} is not an exit action"),
                ))
            }
        };
        if self.shared() || bytes == 0 || host == 0 {
            return Ok(());
        }
        // Queued work may need the table (a routine's global): wait for it first.
        let _drained = self.queues.drain_for(q);
        let mut t = self.table();
        let finalize = flags.has(Flags::FINALIZE);
        match t.exit(host, bytes, counter, finalize) {
            Err(o) => Err(self.overlap(&t, o, site, host, bytes)),
            Ok(present::Exit::Absent) => Ok(()),
            Ok(present::Exit::NoCount) | Ok(present::Exit::Kept { .. }) => {
                if copy_out && flags.has(Flags::ALWAYS_OUT) {
                    if let Lookup::Present(e) = t.lookup(host, bytes) {
                        let dev = e.dev_of(host);
                        let keep = e.attached_in(host, bytes);
                        // SAFETY: forwarded from the caller; `dev` lies in a present entry.
                        unsafe {
                            self.get(q, host, dev, bytes, keep, site, flags.has(Flags::IMPLICIT))
                        };
                    }
                }
                Ok(())
            }
            Ok(present::Exit::Removed { entry, dev }) => {
                if copy_out {
                    let keep = entry.attached_in(host, bytes);
                    // SAFETY: forwarded from the caller; the allocation is freed only by the
                    // `release` enqueued after this copy.
                    unsafe {
                        self.get(q, host, dev, bytes, keep, site, flags.has(Flags::IMPLICIT))
                    };
                }
                self.data_event(
                    prof::Event::Delete,
                    q,
                    site,
                    (entry.host, entry.bytes, entry.dev),
                    flags.has(Flags::IMPLICIT),
                );
                self.data_event(
                    prof::Event::Free,
                    q,
                    site,
                    (entry.host, entry.bytes, entry.dev),
                    flags.has(Flags::IMPLICIT),
                );
                self.release(q, entry.dev);
                Ok(())
            }
        }
    }

    /// `update self` / `update device` and `acc_update_*`.
    ///
    /// # Safety
    /// `[host, host + bytes)` stays valid until the copy ran.
    pub unsafe fn update(
        &'static self,
        to_device: bool,
        if_present: bool,
        host: usize,
        bytes: usize,
        q: QueueSel,
        site: &Site<'_>,
    ) -> Result<()> {
        if self.shared() || bytes == 0 || host == 0 {
            return Ok(());
        }
        // Queued work may need the table (a routine's global): wait for it first.
        let _drained = self.queues.drain_for(q);
        let t = self.table();
        match t.lookup(host, bytes) {
            Lookup::Absent if if_present => Ok(()),
            Lookup::Absent => Err(self.not_present(&t, site, host, bytes)),
            Lookup::Overlap(e) => {
                let o = present::Overlap { start: e.host };
                Err(self.overlap(&t, o, site, host, bytes))
            }
            Lookup::Present(e) => {
                let dev = e.dev_of(host);
                // SAFETY: forwarded from the caller; `dev` lies in a present entry, which the
                // table lock keeps alive while the copy is enqueued or run.
                unsafe {
                    if to_device {
                        self.put(q, dev, host, bytes, site, false);
                    } else {
                        self.get(q, host, dev, bytes, e.attached_in(host, bytes), site, false);
                    }
                }
                Ok(())
            }
        }
    }

    /// Attaches the pointer stored at host address `ptr_addr` (`attach` clause, `acc_attach`):
    /// its device copy is made to point at the device copy of its target.
    ///
    /// # Safety
    /// `ptr_addr` is the address of a readable pointer.
    pub unsafe fn attach(
        &'static self,
        ptr_addr: usize,
        q: QueueSel,
        site: &Site<'_>,
    ) -> Result<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.attach_at(ptr_addr, 0, q, site) }
    }

    /// [`attach`](Self::attach) for a section of the pointer's data that starts `offset` bytes
    /// past its target (`copyin(s.x[10:20])`): the device pointer gets the section's device
    /// address less `offset`, so that it indexes as the host's does, whether the host's target
    /// itself is present or not.
    ///
    /// # Safety
    /// As for [`attach`](Self::attach).
    pub unsafe fn attach_at(
        &'static self,
        ptr_addr: usize,
        offset: usize,
        q: QueueSel,
        site: &Site<'_>,
    ) -> Result<()> {
        if self.shared() {
            return Ok(());
        }
        // SAFETY: the caller guarantees `ptr_addr` holds a pointer.
        let target = unsafe { (ptr_addr as *const usize).read_unaligned() };
        // Queued work may need the table (a routine's global): wait for it first.
        let _drained = self.queues.drain_for(q);
        let mut t = self.table();
        match t.lookup(ptr_addr, size_of::<usize>()) {
            Lookup::Present(_) => {}
            Lookup::Overlap(e) => {
                let o = present::Overlap { start: e.host };
                return Err(self.overlap(&t, o, site, ptr_addr, size_of::<usize>()));
            }
            Lookup::Absent => {
                return Err(Error::new(
                    ErrorKind::NotPresent,
                    site,
                    format!(
                        "cannot attach pointer {}: the pointer itself is not present on device {}",
                        site.what(ptr_addr, size_of::<usize>()),
                        self.label
                    ),
                ))
            }
        }
        let start = target.wrapping_add(offset);
        let target_dev = match t.lookup(start, 0) {
            Lookup::Present(e) => e.dev_of(start).wrapping_sub(offset),
            // A pointer whose target is not present is left alone, as the specification says.
            _ => return Ok(()),
        };
        if let Ok(present::Attach::Attached { slot, first: true }) = t.attach(ptr_addr) {
            let value = target_dev;
            self.queues.submit(q, move || {
                // SAFETY: `slot` lies in the present entry holding the pointer; `value` is a
                // local copied into the job.
                unsafe {
                    self.device.copy_to_device(
                        slot,
                        (&value as *const usize).cast(),
                        size_of::<usize>(),
                    )
                }
            });
        }
        Ok(())
    }

    /// Detaches the pointer at `ptr_addr`; on the last detach its device copy gets the host
    /// pointer's value back.
    ///
    /// # Safety
    /// `ptr_addr` is the address of a readable pointer.
    pub unsafe fn detach(
        &'static self,
        ptr_addr: usize,
        finalize: bool,
        q: QueueSel,
        site: &Site<'_>,
    ) -> Result<()> {
        if self.shared() {
            return Ok(());
        }
        // Queued work may need the table (a routine's global): wait for it first.
        let _drained = self.queues.drain_for(q);
        let mut t = self.table();
        match t.detach(ptr_addr, finalize) {
            Err(o) => Err(self.overlap(&t, o, site, ptr_addr, size_of::<usize>())),
            Ok(present::Detach::Detached { slot, last: true }) => {
                // SAFETY: the caller guarantees `ptr_addr` holds a pointer.
                let value = unsafe { (ptr_addr as *const usize).read_unaligned() };
                self.queues.submit(q, move || {
                    // SAFETY: as in `attach`.
                    unsafe {
                        self.device.copy_to_device(
                            slot,
                            (&value as *const usize).cast(),
                            size_of::<usize>(),
                        )
                    }
                });
                Ok(())
            }
            Ok(_) => Ok(()),
        }
    }

    pub fn is_present(&self, host: usize, bytes: usize) -> bool {
        self.shared() || matches!(self.table().lookup(host, bytes), Lookup::Present(_))
    }

    /// The device address of `host`, or 0 when it is not present.
    pub fn deviceptr(&self, host: usize) -> DevAddr {
        if self.shared() {
            return host;
        }
        match self.table().lookup(host, 0) {
            Lookup::Present(e) => e.dev_of(host),
            _ => 0,
        }
    }

    /// The host address whose device copy is at `dev`, or 0.
    pub fn hostptr(&self, dev: DevAddr) -> usize {
        if self.shared() {
            return dev;
        }
        self.table()
            .find_dev(dev)
            .map_or(0, |e| e.host + (dev - e.dev))
    }

    /// `acc_map_data`: maps host data to device memory the program allocated.
    pub fn map_data(&self, host: usize, dev: DevAddr, bytes: usize, site: &Site<'_>) -> Result<()> {
        if self.shared() || bytes == 0 {
            return Ok(());
        }
        self.device
            .check_range(dev, bytes)
            .map_err(|e| self.dev_error(e, site, host, bytes))?;
        let mut t = self.table();
        match t.lookup(host, bytes) {
            Lookup::Absent => {}
            Lookup::Present(e) | Lookup::Overlap(e) => {
                let other = if e.var.is_empty() {
                    format!("{} bytes at {:#x}", e.bytes, e.host)
                } else {
                    format!("'{}' ({} bytes at {:#x})", e.var, e.bytes, e.host)
                };
                return Err(Error::new(
                    ErrorKind::AlreadyMapped,
                    site,
                    format!(
                        "{} overlaps {other}, which is present on device {} already: \
                         acc_map_data maps host memory that has no device copy (OpenACC 3.3 \
                         3.2.26)",
                        site.what(host, bytes),
                        self.label
                    ),
                ));
            }
        }
        if let Some(e) = t.find_dev(dev).or_else(|| t.find_dev(dev + bytes - 1)) {
            return Err(Error::new(
                ErrorKind::AlreadyMapped,
                site,
                format!(
                    "device memory {dev:#x} is already the device copy of {} bytes at {:#x}",
                    e.bytes, e.host
                ),
            ));
        }
        let var = site.var.to_string_lossy().unwrap_or_default();
        let mut e = Entry::new(host, bytes, dev, &var);
        e.user_mapped = true;
        t.insert(e);
        Ok(())
    }

    /// `acc_unmap_data`.
    pub fn unmap_data(&self, host: usize, site: &Site<'_>) -> Result<()> {
        if self.shared() {
            return Ok(());
        }
        let mut t = self.table();
        let e = match t.get(host) {
            Some(e) => e,
            None => {
                return Err(Error::new(
                    ErrorKind::BadUnmap,
                    site,
                    format!(
                        "{host:#x} is not mapped on device {} (unmapped twice, or never mapped \
                         with acc_map_data)",
                        self.label
                    ),
                ))
            }
        };
        if !e.user_mapped {
            return Err(Error::new(
                ErrorKind::BadUnmap,
                site,
                format!(
                    "{} was mapped by a data clause or acc_copyin/acc_create, not acc_map_data; \
                     use acc_delete or exit data",
                    site.what(e.host, e.bytes)
                ),
            ));
        }
        if e.structured > 0 {
            return Err(Error::new(
                ErrorKind::BadUnmap,
                site,
                format!(
                    "{} is still in use by a data construct",
                    site.what(e.host, e.bytes)
                ),
            ));
        }
        t.remove(host);
        Ok(())
    }
}
