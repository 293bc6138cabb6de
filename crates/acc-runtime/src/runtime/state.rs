//! [`DeviceState`]: one device with its present table, queues and names (the C strings
//! `acc_get_property_string` hands out), and what every part of the runtime reports with it:
//! profiling events, and the errors that name the device (not present, partial overlap,
//! device errors).
//!
//! Invariants: the present table is reached only through `table()` (one mutex, poisoning
//! ignored); only `data` changes entries or reference counts, `shutdown` drains the table
//! once every queue is idle, and the other modules only look entries up.

use crate::device::{DevAddr, Device, DeviceError, DeviceKind};
use crate::error::{Error, ErrorKind, Site};
use crate::present::{self, Entry, Lookup, PresentTable};
use crate::prof;
use crate::queue::{QueueSel, Queues};
use std::ffi::CString;
use std::sync::{Mutex, MutexGuard};

/// One device with its present table and queues.
pub struct DeviceState {
    pub device: Box<dyn Device>,
    table: Mutex<PresentTable>,
    pub queues: Queues,
    /// `host 0`, `host-discrete 1`: how messages name the device.
    pub label: String,
    /// `acc_get_property_string` hands out pointers into these, so they live as long as the
    /// device.
    pub name_c: CString,
    pub vendor_c: CString,
    pub driver_c: CString,
    pub description_c: CString,
}

impl DeviceState {
    pub fn new(device: Box<dyn Device>) -> DeviceState {
        let label = format!("{} {}", device.kind().name(), device.number());
        let c = |s: &str| CString::new(s.replace('\0', " ")).unwrap_or_default();
        let p = device.properties();
        let (name_c, vendor_c, driver_c) = (c(&p.name), c(&p.vendor), c(&p.driver));
        let description_c = c(&p.description);
        let eager = device.shares_host_memory();
        DeviceState {
            device,
            table: Mutex::new(PresentTable::new()),
            queues: Queues::new(eager),
            label,
            name_c,
            vendor_c,
            driver_c,
            description_c,
        }
    }

    /// A device state that lives for the rest of the process (for tests and benches that do
    /// not want the global runtime).
    pub fn leak(device: Box<dyn Device>) -> &'static DeviceState {
        Box::leak(Box::new(DeviceState::new(device)))
    }

    pub fn kind(&self) -> DeviceKind {
        self.device.kind()
    }

    /// Where a profiling event on this device and queue comes from.
    pub fn prof_origin<'a>(&'a self, queue: QueueSel, site: &'a Site<'a>) -> prof::Origin<'a> {
        prof::Origin {
            device: self.device.kind(),
            device_number: self.device.number(),
            queue,
            site,
            gpu: self.device.cuda(),
        }
    }

    /// Raises a launch event for the kernel a launch's site names (its `var`), with the
    /// geometry it runs with: gangs, workers, vector length.
    pub(super) fn launch_event(
        &self,
        ev: prof::Event,
        q: QueueSel,
        site: &Site<'_>,
        (num_gangs, num_workers, vector_length): (usize, usize, usize),
    ) {
        if prof::wants(ev) {
            let name = site
                .var
                .to_string_lossy()
                .and_then(|n| CString::new(n).ok());
            let launch = prof::Launch {
                construct: None,
                kernel_name: name.as_deref(),
                num_gangs,
                num_workers,
                vector_length,
            };
            prof::launch(ev, &self.prof_origin(q, site), &launch);
        }
    }

    /// Raises a data event about `[host, host + bytes)` and its device copy at `dev`.
    pub(super) fn data_event(
        &self,
        ev: prof::Event,
        q: QueueSel,
        site: &Site<'_>,
        (host, bytes, dev): (usize, usize, DevAddr),
        implicit: bool,
    ) {
        if prof::wants(ev) {
            let data = prof::Data {
                construct: None,
                implicit,
                bytes,
                host,
                device: dev,
            };
            prof::data(ev, &self.prof_origin(q, site), &data);
        }
    }

    pub(super) fn shared(&self) -> bool {
        self.device.shares_host_memory()
    }

    pub(super) fn table(&self) -> MutexGuard<'_, PresentTable> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A snapshot of the entry containing `host`, for tests and diagnostics.
    pub fn entry(&self, host: usize) -> Option<Entry> {
        match self.table().lookup(host, 0) {
            Lookup::Present(e) => Some(e.clone()),
            _ => None,
        }
    }

    /// A snapshot of every entry (the checking mode's scan).
    pub(crate) fn entries(&self) -> Vec<Entry> {
        self.table().entries().cloned().collect()
    }

    pub fn mapped_count(&self) -> usize {
        self.table().len()
    }

    /// `t` is the present table the caller holds (the hint below reads it).
    pub(super) fn not_present(
        &self,
        t: &PresentTable,
        site: &Site<'_>,
        host: usize,
        bytes: usize,
    ) -> Error {
        if let Some(e) = negative_length(site, host, bytes) {
            return e;
        }
        let mut message = format!(
            "{} is not present on device {}",
            site.what(host, bytes),
            self.label
        );
        // `present(A)` of a pointer whose target is mapped (`copy(A[0:n])` outside): the
        // clause names the pointer variable itself, which nothing mapped. Teaching code
        // writes it so (nvc reads it as the target); say what to write.
        if bytes == size_of::<usize>() && host.is_multiple_of(align_of::<usize>()) {
            // SAFETY: `[host, host + bytes)` is the program's variable that the clause names,
            // readable for the whole data action.
            let target = unsafe { std::ptr::read(host as *const usize) };
            if target != 0 && matches!(t.lookup(target, 0), Lookup::Present(_)) {
                let name = site.var.to_string_lossy().unwrap_or_default();
                let name = if name.is_empty() {
                    "the pointer".into()
                } else {
                    name
                };
                message += &format!(
                    "; `{name}` is a pointer whose target is present: a clause naming the \
                     pointer alone maps the pointer itself; name the data it points to, as in \
                     `present({name}[0:n])`"
                );
            }
        }
        Error::new(ErrorKind::NotPresent, site, message)
    }

    pub(super) fn overlap(
        &self,
        t: &PresentTable,
        o: present::Overlap,
        site: &Site<'_>,
        host: usize,
        bytes: usize,
    ) -> Error {
        if let Some(e) = negative_length(site, host, bytes) {
            return e;
        }
        let other = match t.get(o.start) {
            Some(e) if e.var.is_empty() => format!("{} bytes at {:#x}", e.bytes, e.host),
            Some(e) => format!("'{}' ({} bytes at {:#x})", e.var, e.bytes, e.host),
            None => format!("data at {:#x}", o.start),
        };
        Error::new(
            ErrorKind::PartialOverlap,
            site,
            format!(
                "{} partially overlaps {other}, which is present on device {}; \
                 a data clause must name the whole present range or a part inside it",
                site.what(host, bytes),
                self.label
            ),
        )
    }

    pub(super) fn dev_error(
        &self,
        e: DeviceError,
        site: &Site<'_>,
        host: usize,
        bytes: usize,
    ) -> Error {
        let kind = match e {
            DeviceError::OutOfMemory { .. } => ErrorKind::OutOfMemory,
            DeviceError::NotAllocated { .. } => ErrorKind::BadFree,
            DeviceError::OutOfRange { .. } => ErrorKind::BadDevicePointer,
        };
        let what = if bytes > 0 || host > 0 {
            format!("{}: ", site.what(host, bytes))
        } else {
            String::new()
        };
        Error::new(kind, site, format!("{what}{e} on device {}", self.label))
    }

    /// Waits for outstanding work, then drops every mapping and frees the runtime's device
    /// memory (`acc_shutdown`). Memory of `acc_map_data` mappings belongs to the program.
    pub fn shutdown(&self) {
        let (kind, number) = (self.device.kind(), self.device.number());
        prof::device_event(
            prof::Event::DeviceShutdownStart,
            kind,
            number,
            "acc_shutdown",
        );
        self.queues.wait_all();
        let entries = self.table().drain();
        for e in entries {
            if !e.user_mapped {
                let _ = self.device.free(e.dev);
            }
        }
        prof::device_event(prof::Event::DeviceShutdownEnd, kind, number, "acc_shutdown");
    }
}

/// A section whose length the program computed negative (`a[lo:hi - lo]` with `hi < lo`): its
/// byte count, converted to `size_t`, wraps to a range over most of memory, which overlaps
/// whatever is present. Said as what it is.
fn negative_length(site: &Site<'_>, host: usize, bytes: usize) -> Option<Error> {
    let signed = isize::try_from(bytes).err().map(|_| bytes as isize)?;
    let mut what = site.what(host, 0);
    if let Some(open) = what.rfind(" (") {
        what.truncate(open);
    }
    Some(Error::new(
        ErrorKind::InvalidArgument,
        site,
        format!(
            "{what} has a negative length ({signed} bytes at {host:#x}): a section's length must \
             be 0 or more"
        ),
    ))
}
