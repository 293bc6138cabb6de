//! The runtime proper: the devices of this process, the current device of each thread, and the
//! data actions, transfers and launches on one device, as `Result`-returning Rust functions.
//!
//! `api` (the OpenACC routines) and `abi` (the entry points of generated code) are thin C ABI
//! layers over this module; both end every error in `error::fatal`.
//!
//! **Locking.** Each device's present table has one mutex. A data action holds it from the
//! lookup until its synchronous copies are done, so a thread that finds data present also finds
//! it copied in. Asynchronous copies are only *enqueued* under the lock; as on a GPU, the program
//! must wait before it relies on them.

use crate::device::cuda::{Function, Shape};
use crate::device::host::HostDevice;
use crate::device::host_discrete::HostDiscreteDevice;
use crate::device::{DevAddr, Device, DeviceError, DeviceKind};
use crate::error::{Error, ErrorKind, Result, Site, Text};
use crate::present::{self, Counter, Entry, Lookup, PresentTable};
use crate::prof;
use crate::queue::{QueueSel, Queues, NOVAL_QUEUE};
use crate::reduce;
use std::cell::Cell;
use std::ffi::{c_void, CString};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// A data action of a clause, a routine or an update.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Copy,
    CopyIn,
    CopyOut,
    Create,
    NoCreate,
    Present,
    DevicePtr,
    Attach,
    Detach,
    Delete,
    UpdateSelf,
    UpdateDevice,
}

/// Clause modifiers and flags (`acc_rt.h`'s `ACC_RT_*` flag bits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags(pub u32);

impl Flags {
    pub const ZERO: Flags = Flags(1);
    pub const ALWAYS_IN: Flags = Flags(2);
    pub const ALWAYS_OUT: Flags = Flags(4);
    pub const FINALIZE: Flags = Flags(8);
    pub const IF_PRESENT: Flags = Flags(16);
    /// The item is an implicit data attribute's (for profiling events only).
    pub const IMPLICIT: Flags = Flags(64);

    pub fn has(self, f: Flags) -> bool {
        self.0 & f.0 != 0
    }
}

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

/// Every device of the process.
pub struct Runtime {
    pub host: DeviceState,
    pub discrete: Vec<DeviceState>,
    /// The device `ACC_DEVICE_TYPE`/`ACC_DEVICE_NUM` select (host when unset).
    pub default_kind: DeviceKind,
    pub default_num: usize,
}

static RUNTIME: OnceLock<Result<Runtime>> = OnceLock::new();

thread_local! {
    /// This thread's current device (OpenACC's per-thread current device ICVs), once set.
    static CURRENT: Cell<Option<&'static DeviceState>> = const { Cell::new(None) };
    /// This thread's default async queue (acc-default-async-var).
    static DEFAULT_ASYNC: Cell<i32> = const { Cell::new(NOVAL_QUEUE) };
}

/// `acc_async_noval` and `acc_async_sync` (the values `openacc.h` gives them).
pub const ASYNC_NOVAL: i32 = -1;
pub const ASYNC_SYNC: i32 = -2;

/// The process's runtime, created on first use from the environment.
pub fn runtime() -> Result<&'static Runtime> {
    if let Some(rt) = RUNTIME.get() {
        return rt.as_ref().map_err(Clone::clone);
    }
    // Before the runtime starts, so that the libraries see its device initialisation; a
    // library that calls the API while it registers starts the runtime from here.
    prof::load_env_libraries();
    RUNTIME
        .get_or_init(|| {
            let rt = Runtime::from_env();
            if let Ok(rt) = &rt {
                prof::register_at_exit(rt.default_kind, rt.default_num);
            }
            rt
        })
        .as_ref()
        .map_err(Clone::clone)
}

type Gpus = std::result::Result<Vec<DeviceState>, String>;

static NVIDIA: OnceLock<Gpus> = OnceLock::new();

/// The `nvidia` devices of this process (one per GPU), or why there are none: probed on first
/// use (`cuInit`, device count and properties; contexts are created when a device is first
/// used).
pub fn nvidia() -> &'static Gpus {
    NVIDIA.get_or_init(|| {
        // A missing GPU is reported where it matters: the default device, `not_host`.
        let found = crate::device::cuda::probe();
        for g in found.iter().flatten() {
            crate::error::verbose(&format!(
                "device nvidia {}: {}",
                g.number(),
                g.properties().description
            ))
        }
        found.map(|gpus| {
            gpus.into_iter()
                .map(|g| DeviceState::new(Box::new(g)))
                .collect()
        })
    })
}

/// Why this process has no `nvidia` device, or `None` when it has one.
pub fn nvidia_unavailable() -> Option<&'static str> {
    match nvidia() {
        Ok(v) if !v.is_empty() => None,
        Ok(_) => Some("the NVIDIA driver reports no CUDA device"),
        Err(why) => Some(why),
    }
}

/// The kind `acc_device_not_host` means: the GPU when there is one, else `host_discrete`.
pub fn not_host_kind() -> DeviceKind {
    if nvidia_unavailable().is_none() {
        DeviceKind::Nvidia
    } else {
        DeviceKind::HostDiscrete
    }
}

/// Parses a device type as `ACC_DEVICE_TYPE` spells it.
pub fn parse_device_type(s: &str, site: &Site<'_>) -> Result<DeviceKind> {
    match s.trim().to_ascii_lowercase().replace('-', "_").as_str() {
        "host" => Ok(DeviceKind::Host),
        "host_discrete" => Ok(DeviceKind::HostDiscrete),
        "nvidia" => Ok(DeviceKind::Nvidia),
        "not_host" => {
            let kind = not_host_kind();
            if let Some(why) = nvidia_unavailable() {
                crate::error::verbose(&format!(
                    "not_host is host_discrete (no nvidia device: {why})"
                ));
            }
            Ok(kind)
        }
        other => Err(Error::new(
            ErrorKind::NoDevice,
            site,
            format!(
                "ACC_DEVICE_TYPE={other}: unknown device type; use host, host_discrete or nvidia"
            ),
        )),
    }
}

/// The error for using the `nvidia` device in a process that has none.
pub fn no_nvidia(site: &Site<'_>) -> Error {
    Error::new(
        ErrorKind::NoDevice,
        site,
        format!(
            "no nvidia (CUDA) device is available: {}; use ACC_DEVICE_TYPE=host or host_discrete",
            nvidia_unavailable().unwrap_or("none was found")
        ),
    )
}

impl Runtime {
    fn from_env() -> Result<Runtime> {
        let site = Site::routine("acc runtime start-up");
        let default_kind = match std::env::var("ACC_DEVICE_TYPE") {
            Ok(s) if !s.trim().is_empty() => {
                let kind = parse_device_type(&s, &site)?;
                if kind == DeviceKind::Nvidia && nvidia_unavailable().is_some() {
                    let e = no_nvidia(&site);
                    return Err(Error::new(
                        ErrorKind::NoDevice,
                        &site,
                        format!("ACC_DEVICE_TYPE={}: {}", s.trim(), e.message()),
                    ));
                }
                kind
            }
            // The GPU when there is one, else the host.
            _ => match nvidia_unavailable() {
                None => DeviceKind::Nvidia,
                Some(why) => {
                    crate::error::verbose(&format!(
                        "default device: host (no nvidia device: {why})"
                    ));
                    DeviceKind::Host
                }
            },
        };
        let discrete_count = match std::env::var("ACC_HOST_DISCRETE_DEVICES") {
            Ok(s) => s
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|&n| (1..=64).contains(&n))
                .ok_or_else(|| {
                    Error::new(
                        ErrorKind::InvalidArgument,
                        &site,
                        format!("ACC_HOST_DISCRETE_DEVICES={s}: expected a count from 1 to 64"),
                    )
                })?,
            Err(_) => 1,
        };
        // The devices of the CPU are ready as they are made; a GPU's context is made on first
        // use, after the probe that chose the default device.
        prof::device_event(
            prof::Event::DeviceInitStart,
            default_kind,
            0,
            "acc runtime start-up",
        );
        let rt = Runtime::new(discrete_count, default_kind, 0);
        prof::device_event(
            prof::Event::DeviceInitEnd,
            default_kind,
            0,
            "acc runtime start-up",
        );
        let default_num = match std::env::var("ACC_DEVICE_NUM") {
            Ok(s) if !s.trim().is_empty() => {
                let n = s.trim().parse::<usize>().ok();
                match n {
                    Some(n) if n < rt.count(default_kind) => n,
                    _ => {
                        return Err(Error::new(
                            ErrorKind::NoDevice,
                            &site,
                            format!(
                            "ACC_DEVICE_NUM={s}: device type {} has {} device(s), numbered from 0",
                            default_kind.name(),
                            rt.count(default_kind)
                        ),
                        ))
                    }
                }
            }
            _ => 0,
        };
        Ok(Runtime { default_num, ..rt })
    }

    pub fn new(discrete_count: usize, default_kind: DeviceKind, default_num: usize) -> Runtime {
        Runtime {
            host: DeviceState::new(Box::new(HostDevice::new())),
            discrete: (0..discrete_count)
                .map(|i| DeviceState::new(Box::new(HostDiscreteDevice::new(i))))
                .collect(),
            default_kind,
            default_num,
        }
    }

    /// How many devices of `kind` there are.
    pub fn count(&self, kind: DeviceKind) -> usize {
        match kind {
            DeviceKind::Host => 1,
            DeviceKind::HostDiscrete => self.discrete.len(),
            DeviceKind::Nvidia => nvidia().as_ref().map_or(0, Vec::len),
        }
    }

    pub fn device(&self, kind: DeviceKind, num: usize, site: &Site<'_>) -> Result<&DeviceState> {
        let found = match kind {
            DeviceKind::Host => (num == 0).then_some(&self.host),
            DeviceKind::HostDiscrete => self.discrete.get(num),
            DeviceKind::Nvidia => match nvidia() {
                Ok(v) if !v.is_empty() => v.get(num),
                _ => return Err(no_nvidia(site)),
            },
        };
        found.ok_or_else(|| {
            Error::new(
                ErrorKind::NoDevice,
                site,
                format!(
                    "there is no {} device {num}; this process has {} of them, numbered from 0",
                    kind.name(),
                    self.count(kind)
                ),
            )
        })
    }

    /// Every device of the process (the `nvidia` ones only once they have been probed).
    pub fn all(&self) -> impl Iterator<Item = &DeviceState> {
        let gpus: &[DeviceState] = NVIDIA.get().and_then(|r| r.as_deref().ok()).unwrap_or(&[]);
        std::iter::once(&self.host)
            .chain(self.discrete.iter())
            .chain(gpus.iter())
    }
}

thread_local! {
    /// The device whose C kernel chunk the calling thread is running (as a `*const
    /// DeviceState`, 0 outside chunks): what `routine` functions reach globals on.
    static KERNEL_DEVICE: Cell<usize> = const { Cell::new(0) };
}

/// Where a `routine` function running on the calling thread finds the file-scope variable at
/// `host`: inside a kernel chunk, its device copy when the device has one (a routine on
/// `host_discrete` sees what a GPU kernel would); elsewhere, the variable itself.
pub fn kernel_global(host: usize) -> usize {
    let d = KERNEL_DEVICE.with(Cell::get);
    if d == 0 {
        return host;
    }
    // SAFETY: `KERNEL_DEVICE` holds a device only while a chunk of a launch on it runs on this
    // thread, and devices live as long as the runtime.
    let d = unsafe { &*(d as *const DeviceState) };
    match d.deviceptr(host) {
        0 => host,
        dev => dev,
    }
}

/// The calling thread's current device.
pub fn current(site: &Site<'_>) -> Result<&'static DeviceState> {
    if let Some(d) = CURRENT.with(Cell::get) {
        return Ok(d);
    }
    let rt = runtime()?;
    let d = rt.device(rt.default_kind, rt.default_num, site)?;
    CURRENT.with(|c| c.set(Some(d)));
    Ok(d)
}

/// Makes device `num` of `kind` the calling thread's current device.
pub fn set_current(kind: DeviceKind, num: usize, site: &Site<'_>) -> Result<()> {
    let d = runtime()?.device(kind, num, site)?;
    CURRENT.with(|c| c.set(Some(d)));
    Ok(())
}

pub fn default_async() -> i32 {
    DEFAULT_ASYNC.with(Cell::get)
}

/// Sets this thread's default async queue; `acc_async_noval` restores the initial one.
pub fn set_default_async(v: i32, site: &Site<'_>) -> Result<()> {
    let q = match v {
        ASYNC_NOVAL => NOVAL_QUEUE,
        v if v >= 0 => v,
        _ => return Err(bad_async(v, site)),
    };
    DEFAULT_ASYNC.with(|c| c.set(q));
    Ok(())
}

fn bad_async(v: i32, site: &Site<'_>) -> Error {
    Error::new(
        ErrorKind::InvalidArgument,
        site,
        format!(
            "{v} is not an async value: use a queue number >= 0, acc_async_noval or acc_async_sync"
        ),
    )
}

/// Resolves an async argument to where the work runs.
pub fn queue_sel(async_arg: i32, site: &Site<'_>) -> Result<QueueSel> {
    match async_arg {
        ASYNC_SYNC => Ok(QueueSel::Sync),
        ASYNC_NOVAL => Ok(QueueSel::Async(default_async())),
        v if v >= 0 => Ok(QueueSel::Async(v)),
        v => Err(bad_async(v, site)),
    }
}

/// Copies a host-side value across threads: addresses are plain numbers until the job that owns
/// the right to use them runs.
#[derive(Clone, Copy)]
struct Addr(usize);

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

/// One reduction of a kernel launch.
#[derive(Clone, Copy, Debug)]
pub struct Reduction<'a> {
    pub op: reduce::Op,
    pub ty: reduce::Type,
    pub var: usize,
    /// Elements reduced (an array section reduces element by element).
    pub count: usize,
    /// For a type the runtime does not know (a struct, `long double`): the
    /// element size and the compiler-generated functions; `op` and `ty` are
    /// then unused.
    pub custom: Option<CustomReduction>,
    /// Whether a CUDA kernel sets this reduction's slots to the identity itself (a scalar of a
    /// builtin type, `count` 0 in `acc_rt.h`), so that the launch need not preset them.
    pub kernel_sets_slots: bool,
    pub site: Site<'a>,
}

/// A reduction the compiler generated code for.
#[derive(Clone, Copy, Debug)]
pub struct CustomReduction {
    pub size: usize,
    /// Sets a private copy to the operator's identity; the second argument
    /// is the variable's original value (idempotent operators start from
    /// it, which needs no knowledge of the type's limits).
    pub init: unsafe extern "C" fn(*mut c_void, *const c_void),
    /// `acc = acc op part`.
    pub combine: unsafe extern "C" fn(*mut c_void, *const c_void),
}

/// What one chunk of a host kernel sees (`acc_rt_chunk` in `acc_rt.h`).
#[repr(C)]
pub struct Chunk {
    pub args: *const *mut c_void,
    pub red: *const *mut c_void,
    pub begin: i64,
    pub end: i64,
    pub index: i64,
    pub count: i64,
}

pub type HostFn = unsafe extern "C" fn(*const Chunk);

/// Launch geometry: iterations and the gang hint (workers and vector length only matter on
/// GPUs and are accepted for them).
#[derive(Clone, Copy, Debug, Default)]
pub struct Geometry {
    pub iterations: i64,
    pub num_gangs: i32,
    pub num_workers: i32,
    pub vector_length: i32,
}

/// Where a reduction's result goes: the host variable, or its device copy when present.
#[derive(Clone, Copy)]
enum RedTarget {
    Host(usize),
    Device(DevAddr),
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
    fn launch_event(
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
    fn data_event(
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

    fn shared(&self) -> bool {
        self.device.shares_host_memory()
    }

    fn table(&self) -> MutexGuard<'_, PresentTable> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A snapshot of the entry containing `host`, for tests and diagnostics.
    pub fn entry(&self, host: usize) -> Option<Entry> {
        match self.table().lookup(host, 0) {
            Lookup::Present(e) => Some(e.clone()),
            _ => None,
        }
    }

    pub fn mapped_count(&self) -> usize {
        self.table().len()
    }

    fn not_present(&self, site: &Site<'_>, host: usize, bytes: usize) -> Error {
        Error::new(
            ErrorKind::NotPresent,
            site,
            format!(
                "{} is not present on device {}",
                site.what(host, bytes),
                self.label
            ),
        )
    }

    fn overlap(
        &self,
        t: &PresentTable,
        o: present::Overlap,
        site: &Site<'_>,
        host: usize,
        bytes: usize,
    ) -> Error {
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

    fn dev_error(&self, e: DeviceError, site: &Site<'_>, host: usize, bytes: usize) -> Error {
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

    /// Enqueues a host-to-device copy.
    ///
    /// # Safety
    /// `host` stays readable for `bytes` bytes until the copy ran; `dev` is live device memory.
    unsafe fn put(
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

    /// Enqueues a device-to-host copy.
    ///
    /// # Safety
    /// `host` stays writable for `bytes` bytes until the copy ran; `dev` is live device memory.
    unsafe fn get(
        &'static self,
        q: QueueSel,
        host: usize,
        dev: DevAddr,
        bytes: usize,
        site: &Site<'_>,
        implicit: bool,
    ) {
        let what = (host, bytes, dev);
        self.data_event(prof::Event::EnqueueDownloadStart, q, site, what, implicit);
        let h = Addr(host);
        self.queues.submit(q, move || {
            let h = h;
            // SAFETY: guaranteed by the caller of `get`.
            unsafe { self.device.copy_to_host(h.0 as *mut u8, dev, bytes) }
        });
        self.data_event(prof::Event::EnqueueDownloadEnd, q, site, what, implicit);
    }

    /// Enqueues freeing device memory the runtime allocated for a mapping.
    fn release(&'static self, q: QueueSel, dev: DevAddr) {
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
            Action::Attach => return unsafe { self.attach(host, q, site) }.map(|()| host),
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
            Err(o) => Err(self.overlap(&t, o, site, host, bytes)),
            Ok(present::Enter::Present { dev }) => {
                if flags.has(Flags::ALWAYS_IN) && matches!(action, Action::Copy | Action::CopyIn) {
                    // SAFETY: forwarded from the caller; `dev` lies in the present entry.
                    unsafe { self.put(q, dev, host, bytes, site, flags.has(Flags::IMPLICIT)) };
                }
                Ok(dev)
            }
            Ok(present::Enter::Absent) => match action {
                Action::Present => Err(self.not_present(site, host, bytes)),
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
        let mut t = self.table();
        let finalize = flags.has(Flags::FINALIZE);
        match t.exit(host, bytes, counter, finalize) {
            Err(o) => Err(self.overlap(&t, o, site, host, bytes)),
            Ok(present::Exit::Absent) => Ok(()),
            Ok(present::Exit::NoCount) | Ok(present::Exit::Kept { .. }) => {
                if copy_out && flags.has(Flags::ALWAYS_OUT) {
                    if let Lookup::Present(e) = t.lookup(host, bytes) {
                        let dev = e.dev_of(host);
                        // SAFETY: forwarded from the caller; `dev` lies in a present entry.
                        unsafe { self.get(q, host, dev, bytes, site, flags.has(Flags::IMPLICIT)) };
                    }
                }
                Ok(())
            }
            Ok(present::Exit::Removed { entry, dev }) => {
                if copy_out {
                    // SAFETY: forwarded from the caller; the allocation is freed only by the
                    // `release` enqueued after this copy.
                    unsafe { self.get(q, host, dev, bytes, site, flags.has(Flags::IMPLICIT)) };
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
        let t = self.table();
        match t.lookup(host, bytes) {
            Lookup::Absent if if_present => Ok(()),
            Lookup::Absent => Err(self.not_present(site, host, bytes)),
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
                        self.get(q, host, dev, bytes, site, false);
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
        if self.shared() {
            return Ok(());
        }
        // SAFETY: the caller guarantees `ptr_addr` holds a pointer.
        let target = unsafe { (ptr_addr as *const usize).read_unaligned() };
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
        let target_dev = match t.lookup(target, 0) {
            Lookup::Present(e) => e.dev_of(target),
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

    pub fn malloc(&self, bytes: usize, site: &Site<'_>) -> Result<DevAddr> {
        if bytes == 0 {
            return Ok(0);
        }
        self.device
            .alloc(bytes)
            .map_err(|e| self.dev_error(e, site, 0, 0))
    }

    pub fn free(&self, dev: DevAddr, site: &Site<'_>) -> Result<()> {
        if dev == 0 {
            return Ok(());
        }
        if !self.shared() {
            if let Some(e) = self.table().find_dev(dev) {
                let var = if e.var.is_empty() {
                    String::new()
                } else {
                    format!("'{}' ", e.var)
                };
                return Err(Error::new(
                    ErrorKind::BadFree,
                    site,
                    format!(
                        "{dev:#x} is the device copy of {var}({} bytes at {:#x}), still mapped on \
                         device {}; acc_unmap_data it before acc_free",
                        e.bytes, e.host, self.label
                    ),
                ));
            }
        }
        self.device.free(dev).map_err(|_| {
            Error::new(
                ErrorKind::BadFree,
                site,
                format!(
                    "{dev:#x} is not memory acc_malloc returned on device {} (freed twice?)",
                    self.label
                ),
            )
        })
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
                let o = present::Overlap { start: e.host };
                let mut err = self.overlap(&t, o, site, host, bytes);
                err = Error::new(
                    ErrorKind::AlreadyMapped,
                    site,
                    format!(
                        "acc_map_data: {}",
                        err.message().replace("partially overlaps", "overlaps")
                    ),
                );
                return Err(err);
            }
        }
        if let Some(e) = t.find_dev(dev).or_else(|| t.find_dev(dev + bytes - 1)) {
            return Err(Error::new(
                ErrorKind::AlreadyMapped,
                site,
                format!(
                    "acc_map_data: device memory {dev:#x} is already the device copy of {} bytes at {:#x}",
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

    fn check_dev(&self, dev: DevAddr, bytes: usize, site: &Site<'_>) -> Result<()> {
        self.device
            .check_range(dev, bytes)
            .map_err(|e| self.dev_error(e, site, 0, 0))
    }

    /// `acc_memcpy_to_device`.
    ///
    /// # Safety
    /// `host` is readable for `bytes` bytes until the copy ran.
    pub unsafe fn memcpy_to_device(
        &'static self,
        dev: DevAddr,
        host: usize,
        bytes: usize,
        q: QueueSel,
        site: &Site<'_>,
    ) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        self.check_dev(dev, bytes, site)?;
        // SAFETY: forwarded from the caller; the device range was just checked.
        unsafe { self.put(q, dev, host, bytes, site, false) };
        Ok(())
    }

    /// `acc_memcpy_from_device`.
    ///
    /// # Safety
    /// `host` is writable for `bytes` bytes until the copy ran.
    pub unsafe fn memcpy_from_device(
        &'static self,
        host: usize,
        dev: DevAddr,
        bytes: usize,
        q: QueueSel,
        site: &Site<'_>,
    ) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        self.check_dev(dev, bytes, site)?;
        // SAFETY: forwarded from the caller; the device range was just checked.
        unsafe { self.get(q, host, dev, bytes, site, false) };
        Ok(())
    }

    /// `acc_memcpy_device`.
    pub fn memcpy_device(
        &'static self,
        dst: DevAddr,
        src: DevAddr,
        bytes: usize,
        q: QueueSel,
        site: &Site<'_>,
    ) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        self.check_dev(dst, bytes, site)?;
        self.check_dev(src, bytes, site)?;
        self.queues.submit(q, move || {
            // SAFETY: both ranges were checked to be live device memory of this device.
            unsafe { self.device.copy_on_device(dst, src, bytes) }
        });
        Ok(())
    }

    /// `acc_wait(_async)` and the wait directive for one async argument.
    pub fn wait(&self, wait_arg: i32, async_arg: Option<i32>, site: &Site<'_>) -> Result<()> {
        let QueueSel::Async(key) = queue_sel(wait_arg, site)? else {
            return Ok(());
        };
        if !prof::active() {
            return self.wait_on(key, async_arg, site);
        }
        let at = self.prof_origin(QueueSel::Async(key), site);
        prof::other(prof::Event::WaitStart, &at, None);
        let done = self.wait_on(key, async_arg, site);
        prof::other(prof::Event::WaitEnd, &at, None);
        done
    }

    fn wait_on(&self, key: i32, async_arg: Option<i32>, site: &Site<'_>) -> Result<()> {
        match async_arg.map(|a| queue_sel(a, site)).transpose()? {
            None | Some(QueueSel::Sync) => self.queues.wait(key),
            Some(QueueSel::Async(on)) => self.queues.wait_async(key, on),
        }
        Ok(())
    }

    pub fn wait_all(&self, async_arg: Option<i32>, site: &Site<'_>) -> Result<()> {
        let on = async_arg.map(|a| queue_sel(a, site)).transpose()?;
        let at = self.prof_origin(QueueSel::Sync, site);
        prof::other(prof::Event::WaitStart, &at, None);
        match on {
            None | Some(QueueSel::Sync) => self.queues.wait_all(),
            Some(QueueSel::Async(on)) => self.queues.wait_all_async(on),
        }
        prof::other(prof::Event::WaitEnd, &at, None);
        Ok(())
    }

    pub fn async_test(&self, wait_arg: i32, site: &Site<'_>) -> Result<bool> {
        Ok(match queue_sel(wait_arg, site)? {
            QueueSel::Sync => true,
            QueueSel::Async(k) => self.queues.test(k),
        })
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

    /// Each argument's value as a kernel receives it, in 8-byte-aligned words: the device
    /// address for data, the bytes themselves for values.
    fn translate_args(&self, args: &[Arg<'_>]) -> Result<ArgValues> {
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
                        Lookup::Absent => return Err(self.not_present(site, host, bytes)),
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
                                        site.what(host, 0).replace(" (0 bytes at ", " (at "),
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

    /// Checks a launch's reductions and finds where each result goes.
    fn plan_reductions(&self, reds: &[Reduction<'_>]) -> Result<Reds> {
        let mut targets = Vec::with_capacity(reds.len());
        for r in reds {
            if r.custom.is_none() && !reduce::valid(r.op, r.ty) {
                return Err(Error::new(
                    ErrorKind::InvalidArgument,
                    &r.site,
                    format!(
                        "reduction operator {:?} is not defined for {:?}",
                        r.op, r.ty
                    ),
                ));
            }
            let dev = if self.shared() {
                0
            } else {
                self.deviceptr(r.var)
            };
            targets.push(if dev != 0 {
                RedTarget::Device(dev)
            } else {
                RedTarget::Host(r.var)
            });
        }
        let ops: Vec<(reduce::Op, reduce::Type, usize)> =
            reds.iter().map(|r| (r.op, r.ty, r.count.max(1))).collect();
        let customs: Vec<Option<CustomReduction>> = reds.iter().map(|r| r.custom).collect();
        let sizes: Vec<usize> = (0..reds.len())
            .map(|j| customs[j].map_or(ops[j].1.size(), |c| c.size))
            .collect();
        Ok(Reds {
            ops,
            customs,
            sizes,
            targets,
            cuda_preset: reds.iter().map(|r| !r.kernel_sets_slots).collect(),
        })
    }

    /// Launches a host kernel: `iterations` split into chunks run on the device's executor,
    /// arguments translated to device addresses now, reductions combined after the chunks.
    ///
    /// # Safety
    /// `f` is safe to call with the chunk layout of `acc_rt.h`; every `Value` argument points at
    /// `bytes` readable bytes; every reduction variable is a valid value of its type that stays
    /// valid until the launch completed.
    pub unsafe fn launch(
        &'static self,
        f: HostFn,
        geom: Geometry,
        args: &[Arg<'_>],
        reds: &[Reduction<'_>],
        q: QueueSel,
        site: &Site<'_>,
    ) -> Result<()> {
        let n = geom.iterations;
        if n < 0 {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                site,
                format!("kernel launched with {n} iterations"),
            ));
        }
        let ArgValues {
            offsets,
            mut storage,
            privates,
        } = self.translate_args(args)?;
        let plan = self.plan_reductions(reds)?;
        let want = if geom.num_gangs > 0 {
            geom.num_gangs as usize
        } else {
            self.device.concurrency()
        };
        let chunks = (n as u64).min(want as u64) as usize;
        self.launch_event(prof::Event::EnqueueLaunchStart, q, site, (chunks, 1, 1));
        self.queues.submit(q, move || {
            // Each private section's storage, in host memory (every CPU device runs kernels
            // on the host): 16-byte aligned, as any C type needs.
            let private_storage: Vec<Vec<u128>> = privates
                .iter()
                .map(|p| {
                    let mut buf = vec![0u128; p.total(chunks).div_ceil(16)];
                    // SAFETY: `buf` has at least `bytes` bytes; `original` is empty or that long.
                    unsafe {
                        std::ptr::copy_nonoverlapping(
                            p.original.as_ptr(),
                            buf.as_mut_ptr().cast::<u8>(),
                            p.original.len(),
                        )
                    };
                    storage[p.word] = buf.as_ptr() as u64;
                    buf
                })
                .collect();
            let base = storage.as_ptr() as usize;
            let ptrs: Vec<usize> = offsets.iter().map(|&o| base + o * 8).collect();
            let nred = plan.len();
            // Each chunk's private copy of each reduction: `count` elements, packed as C
            // lays out an array, each copy starting on an 8-byte boundary.
            let words: Vec<usize> = (0..nred).map(|j| plan.bytes(j).div_ceil(8)).collect();
            // SAFETY: the launch's caller guarantees the reduction variables.
            let originals = unsafe { plan.originals(&*self.device) };
            let per_chunk: usize = words.iter().sum();
            let mut partials: Vec<u64> = vec![0; chunks * per_chunk];
            let mut starts = Vec::with_capacity(chunks * nred);
            for c in 0..chunks {
                let mut at = c * per_chunk;
                for (j, &w) in words.iter().enumerate() {
                    let copy = &mut partials[at..at + w];
                    // SAFETY: the words are `w * 8 >= plan.bytes(j)` writable bytes.
                    let copy = unsafe {
                        std::slice::from_raw_parts_mut(
                            copy.as_mut_ptr().cast::<u8>(),
                            plan.bytes(j),
                        )
                    };
                    // SAFETY: `copy` is one private copy of reduction `j`.
                    unsafe { plan.init_copy(j, copy, &originals) };
                    starts.push(at);
                    at += w;
                }
            }
            let pbase = partials.as_mut_ptr() as usize;
            let red_ptrs: Vec<usize> = starts.iter().map(|&w| pbase + w * 8).collect();
            let args_at = ptrs.as_ptr() as usize;
            let red_at = red_ptrs.as_ptr() as usize;
            let device = self as *const DeviceState as usize;
            let body = move |c: usize| {
                let chunk = Chunk {
                    args: args_at as *const *mut c_void,
                    red: (red_at + c * nred * size_of::<usize>()) as *const *mut c_void,
                    begin: split(n, chunks, c),
                    end: split(n, chunks, c + 1),
                    index: c as i64,
                    count: chunks as i64,
                };
                let outer = KERNEL_DEVICE.with(|k| k.replace(device));
                // SAFETY: the launch's caller guarantees `f`; the argument and reduction slots
                // outlive the launch, and chunk `c` is the only one writing its reduction slots.
                unsafe { f(&chunk) };
                KERNEL_DEVICE.with(|k| k.set(outer));
            };
            self.device.launch(chunks, &body);
            for j in 0..nred {
                let parts = (0..chunks).map(|c| (pbase + starts[c * nred + j] * 8) as *const u8);
                // SAFETY: every chunk's copy was initialised above and written only by its
                // chunk; the caller guarantees the variable.
                unsafe { plan.combine(&*self.device, j, parts) };
            }
            drop(storage);
            drop(private_storage);
        });
        self.launch_event(prof::Event::EnqueueLaunchEnd, q, site, (chunks, 1, 1));
        Ok(())
    }

    /// Launches a CUDA kernel on an `nvidia` device, as `acc_rt.h` specifies: parameters
    /// `(P0, ..., P(nargs-1), void *const *__acc_red, long long __acc_iterations)`, one
    /// reduction slot per block, slots combined after the kernel like the host path's chunks.
    ///
    /// # Safety
    /// As for [`launch`](Self::launch); the kernel's parameters match the arguments.
    pub unsafe fn launch_cuda(
        &'static self,
        k: &CudaKernel<'_>,
        geom: Geometry,
        args: &[Arg<'_>],
        reds: &[Reduction<'_>],
        q: QueueSel,
        site: &Site<'_>,
    ) -> Result<()> {
        let Some(gpu) = self.device.cuda() else {
            return Err(Error::new(
                ErrorKind::Internal,
                site,
                format!("device {} cannot run CUDA kernels", self.label),
            ));
        };
        let n = geom.iterations;
        if n < 0 {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                site,
                format!("kernel launched with {n} iterations"),
            ));
        }
        let vals = self.translate_args(args)?;
        let plan = self.plan_reductions(reds)?;
        let ks = crate::jit::KernelSource {
            name: k.name,
            file: k.file,
            line: k.line,
            source: "",
        };
        // Compiled (or found) now, in the calling thread, so that an error names the launch.
        let f = match gpu.loaded_function(k.key) {
            Some(f) => f,
            None => {
                // SAFETY: the descriptor's source is a NUL-terminated string that lives for
                // the program (`acc_rt.h`), or Rust text.
                let source = unsafe { k.source.as_str() }.ok_or_else(|| {
                    Error::new(
                        ErrorKind::InvalidArgument,
                        site,
                        format!("kernel '{}': its CUDA source is not UTF-8", k.name),
                    )
                })?;
                let ks = crate::jit::KernelSource { source, ..ks };
                gpu.function(k.key, &ks, k.entry)
                    .map_err(|m| Error::new(ErrorKind::Device, &Site::default(), m))?
            }
        };
        if n == 0 {
            return Ok(());
        }
        let shape = gpu.shape(
            f,
            n,
            geom.num_gangs,
            geom.num_workers,
            geom.vector_length,
            k.lanes,
        );
        let what = format!("{}kernel '{}'", ks.location(), k.name);
        // Gangs are blocks, workers rows and vector lanes threads of a row (`Lanes`), or each
        // thread is a gang (`Threads`: the block's threads as the vector).
        let geometry = (
            shape.grid as usize,
            shape.block.1 as usize,
            shape.block.0 as usize,
        );
        self.launch_event(prof::Event::EnqueueLaunchStart, q, site, geometry);
        self.queues.submit(q, move || {
            // SAFETY: forwarded from the caller of `launch_cuda`.
            unsafe { self.run_cuda(f, shape, n, vals, plan, &what) }
        });
        self.launch_event(prof::Event::EnqueueLaunchEnd, q, site, geometry);
        Ok(())
    }

    /// The body of a CUDA launch, on the launch's queue.
    ///
    /// # Safety
    /// As for [`launch_cuda`](Self::launch_cuda).
    unsafe fn run_cuda(
        &self,
        f: Function,
        shape: Shape,
        iterations: i64,
        vals: ArgValues,
        plan: Reds,
        what: &str,
    ) {
        let Some(gpu) = self.device.cuda() else {
            return;
        };
        let fail = |m: String| -> ! {
            crate::error::fatal(&Error::new(
                ErrorKind::Device,
                &Site::default(),
                format!("{what} on device {}: {m}", self.label),
            ))
        };
        let blocks = shape.grid as usize;
        let nred = plan.len();
        let lock = gpu.lock_block().unwrap_or_else(|m| fail(m));
        // The reduction buffer: `nred` device pointers and one to the atomics' lock word,
        // then each reduction's slots (one private copy per block), each part on a 256-byte
        // boundary. Without reductions, the lock's own block serves (its first word points
        // at the lock).
        let header = ((nred + 1) * 8).next_multiple_of(256);
        let mut starts = Vec::with_capacity(nred);
        let mut total = header;
        for j in 0..nred {
            starts.push(total);
            total += (blocks * plan.bytes(j)).next_multiple_of(256);
        }
        let mut host: Vec<u128> = Vec::new();
        let mut scratch = None;
        let mut red_dev: u64 = lock as u64;
        if nred > 0 {
            host = vec![0u128; total.div_ceil(16)];
            let mut buf = gpu
                .take_reduction_buffer(total)
                .unwrap_or_else(|e| fail(format!("no room for the reduction slots: {e}")));
            let mut header_words: Vec<u64> = starts
                .iter()
                .map(|&start| (buf.addr + start) as u64)
                .collect();
            header_words.push(lock as u64 + 8);
            let hb = host.as_mut_ptr().cast::<u8>();
            for (j, w) in header_words.iter().enumerate() {
                // SAFETY: the header has room for `nred + 1` pointers.
                unsafe { hb.add(j * 8).cast::<u64>().write_unaligned(*w) };
            }
            // Only arrays and custom reductions need their slots preset; a buffer whose header
            // is already on the device (the same layout, the last time it was used) then needs
            // no upload at all.
            let upload = if plan.cuda_preset.iter().any(|&p| p) {
                // SAFETY: the launch's caller guarantees the reduction variables.
                let originals = unsafe { plan.originals(&*self.device) };
                for (j, &start) in starts.iter().enumerate() {
                    if !plan.cuda_preset[j] {
                        continue;
                    }
                    let bytes = plan.bytes(j);
                    for b in 0..blocks {
                        // SAFETY: slot `b` of reduction `j` lies inside `host` (`total` bytes).
                        let slot = unsafe {
                            std::slice::from_raw_parts_mut(hb.add(start + b * bytes), bytes)
                        };
                        // SAFETY: `slot` is one private copy of reduction `j`.
                        unsafe { plan.init_copy(j, slot, &originals) };
                    }
                }
                total
            } else if buf.header != header_words {
                header
            } else {
                0
            };
            if upload > 0 {
                // SAFETY: `buf` is a live device buffer of at least `total` bytes; `host` is a
                // fresh `Vec` (pageable memory) of `total` bytes, kept until the download.
                if let Err(m) = unsafe { gpu.upload_before_launch(buf.addr, hb, upload) } {
                    fail(m)
                }
                buf.header = header_words;
            }
            red_dev = buf.addr as u64;
            scratch = Some(buf);
        }
        // Private sections: device storage for every block (a block is a gang in every kernel
        // that has them), the first copy uploaded for firstprivate.
        let mut vals = vals;
        let mut private_buffers = Vec::with_capacity(vals.privates.len());
        for p in &vals.privates {
            let buf = gpu
                .take_scratch(p.total(blocks))
                .unwrap_or_else(|e| fail(format!("no room for a private section: {e}")));
            if !p.original.is_empty() {
                // SAFETY: `buf` has room for the first copy; `original` lives until the kernel
                // (which the stream runs after the copy) has been waited for, below.
                let uploaded =
                    unsafe { gpu.upload_before_launch(buf.0, p.original.as_ptr(), p.bytes) };
                if let Err(m) = uploaded {
                    fail(m)
                }
            }
            vals.storage[p.word] = buf.0 as u64;
            private_buffers.push(buf);
        }
        let mut iterations = iterations;
        let base = vals.storage.as_ptr() as usize;
        let mut params: Vec<*mut c_void> = vals
            .offsets
            .iter()
            .map(|&o| (base + o * 8) as *mut c_void)
            .collect();
        params.push((&mut red_dev as *mut u64).cast());
        params.push((&mut iterations as *mut i64).cast());
        // SAFETY: one pointer per parameter of the convention, each to a value of the
        // parameter's size (the caller's contract); the addresses among them were present.
        // With reductions, the download of the slots below waits for the kernel.
        let launched = unsafe {
            if scratch.is_some() {
                gpu.launch_kernel_unwaited(f, shape, &mut params)
            } else {
                gpu.launch_kernel(f, shape, &mut params)
            }
        };
        if let Err(m) = launched {
            fail(m)
        }
        if let Some(buf) = scratch {
            let hb = host.as_mut_ptr().cast::<u8>();
            // SAFETY: the slots were uploaded above and are written by the kernel, which this
            // download (on the same stream) waits for.
            let downloaded = unsafe {
                gpu.download_after_launch(hb.add(header), buf.addr + header, total - header)
            };
            if let Err(m) = downloaded {
                fail(m)
            }
            for (j, &start) in starts.iter().enumerate() {
                let bytes = plan.bytes(j);
                let at = hb as usize + start;
                let parts = (0..blocks).map(|b| (at + b * bytes) as *const u8);
                // SAFETY: every slot holds a private copy initialised (above, or by its block
                // for a scalar) and reduced by
                // one block; the caller guarantees the variable.
                unsafe { plan.combine(&*self.device, j, parts) };
            }
            gpu.put_reduction_buffer(buf);
        }
        // The kernel has completed: the launch or the slots' download waited for it.
        for buf in private_buffers {
            gpu.put_scratch(buf);
        }
        drop(vals);
    }
}

/// A kernel's CUDA version, from its descriptor.
#[derive(Clone, Copy, Debug)]
pub struct CudaKernel<'a> {
    pub name: &'a str,
    pub file: &'a str,
    pub line: u32,
    /// A complete CUDA C translation unit (NVRTC only, no headers): read (measured and
    /// checked to be UTF-8) only when the kernel is first loaded, as generated modules are
    /// tens of kilobytes and launches are many.
    pub source: Text<'a>,
    /// The `extern "C" __global__` function to launch.
    pub entry: &'a str,
    /// Identifies the descriptor for the loaded-kernel cache: generated code passes string
    /// literals, so their addresses do.
    pub key: (usize, usize),
    /// How a gang iteration is shared among a block's threads, which the launch shape must
    /// know.
    pub lanes: crate::device::cuda::Lanes,
}

/// A launch's arguments as a kernel receives them: argument `i`'s value starts at word
/// `offsets[i]` of `storage`.
struct ArgValues {
    offsets: Vec<usize>,
    storage: Vec<u64>,
    /// The private sections among the arguments, whose storage the launch makes.
    privates: Vec<PrivateStorage>,
}

/// A private section's storage for one launch: `gangs + 1` copies of `bytes` bytes, the first
/// holding `original` (firstprivate), its address in word `word` of the argument values.
struct PrivateStorage {
    word: usize,
    bytes: usize,
    original: Vec<u8>,
}

impl PrivateStorage {
    /// The bytes of storage for `gangs` gangs.
    fn total(&self, gangs: usize) -> usize {
        (gangs + 1) * self.bytes.max(1)
    }
}

/// A launch's reductions: operator, type and element count, custom functions, element size,
/// and where each result goes.
struct Reds {
    ops: Vec<(reduce::Op, reduce::Type, usize)>,
    customs: Vec<Option<CustomReduction>>,
    sizes: Vec<usize>,
    targets: Vec<RedTarget>,
    /// Per reduction: whether a CUDA launch must preset its slots (see
    /// [`Reduction::kernel_sets_slots`]).
    cuda_preset: Vec<bool>,
}

impl Reds {
    fn len(&self) -> usize {
        self.ops.len()
    }

    /// The bytes of one private copy of reduction `j`.
    fn bytes(&self, j: usize) -> usize {
        self.ops[j].2 * self.sizes[j]
    }

    /// The variables' original values, which custom initialisers start from (empty for the
    /// built-in types).
    ///
    /// # Safety
    /// Every reduction variable holds `count` valid elements.
    unsafe fn originals(&self, device: &dyn Device) -> Vec<Vec<u64>> {
        (0..self.len())
            .map(|j| {
                if self.customs[j].is_none() {
                    return Vec::new();
                }
                let bytes = self.bytes(j);
                let mut v = vec![0u64; bytes.div_ceil(8)];
                let p = v.as_mut_ptr().cast::<u8>();
                match self.targets[j] {
                    // SAFETY: the caller guarantees `count` elements at the variable; `v` has
                    // room for them.
                    RedTarget::Host(var) => unsafe {
                        std::ptr::copy_nonoverlapping(var as *const u8, p, bytes)
                    },
                    // SAFETY: `dev` is the variable's device copy, present for the launch.
                    RedTarget::Device(dev) => unsafe { device.copy_to_host(p, dev, bytes) },
                }
                v
            })
            .collect()
    }

    /// Sets one private copy of reduction `j` to its initial value: the operator's identity,
    /// or `init(copy, original)` element by element for a custom reduction.
    ///
    /// # Safety
    /// `copy` has `self.bytes(j)` bytes; `originals` came from [`originals`](Self::originals).
    unsafe fn init_copy(&self, j: usize, copy: &mut [u8], originals: &[Vec<u64>]) {
        let (op, ty, count) = self.ops[j];
        match self.customs[j] {
            Some(cr) => {
                let orig = originals[j].as_ptr().cast::<u8>();
                for k in 0..count {
                    // SAFETY: element `k` of the copy and of the original value lie within
                    // their buffers; the functions take one element each.
                    unsafe {
                        (cr.init)(
                            copy.as_mut_ptr().add(k * cr.size).cast(),
                            orig.add(k * cr.size).cast(),
                        )
                    };
                }
            }
            None => reduce::init_elems(op, ty, copy),
        }
    }

    /// Combines private copies into reduction `j`'s variable (its device copy when present),
    /// in order: `original op part0 op part1 ...`.
    ///
    /// # Safety
    /// Each part points at `self.bytes(j)` bytes holding a private copy; the variable holds
    /// `count` valid elements.
    unsafe fn combine(
        &self,
        device: &dyn Device,
        j: usize,
        parts: impl Iterator<Item = *const u8>,
    ) {
        let (op, ty, count) = self.ops[j];
        let bytes = self.bytes(j);
        if let Some(cr) = self.customs[j] {
            let mut tmp = vec![0u64; bytes.div_ceil(8)];
            let acc = tmp.as_mut_ptr().cast::<u8>();
            // SAFETY: as for the built-in types below; `combine` takes one element of the
            // accumulated value and one of a part.
            unsafe {
                match self.targets[j] {
                    RedTarget::Host(var) => {
                        std::ptr::copy_nonoverlapping(var as *const u8, acc, bytes)
                    }
                    RedTarget::Device(dev) => device.copy_to_host(acc, dev, bytes),
                }
                for part in parts {
                    for k in 0..count {
                        (cr.combine)(acc.add(k * cr.size).cast(), part.add(k * cr.size).cast());
                    }
                }
                match self.targets[j] {
                    RedTarget::Host(var) => {
                        std::ptr::copy_nonoverlapping(acc, var as *mut u8, bytes)
                    }
                    RedTarget::Device(dev) => device.copy_to_device(dev, acc, bytes),
                }
            }
            return;
        }
        match self.targets[j] {
            // SAFETY: the caller guarantees `count` elements at the variable and the parts.
            RedTarget::Host(var) => unsafe {
                reduce::combine_elems(op, ty, var as *mut c_void, count, parts)
            },
            RedTarget::Device(dev) => {
                let mut tmp = vec![0u64; bytes.div_ceil(8)];
                let p = tmp.as_mut_ptr().cast::<u8>();
                // SAFETY: `dev` is the device copy of the variable (present when the launch
                // was made, and kept so by the construct around it); `tmp` has room for its
                // `count` elements.
                unsafe {
                    device.copy_to_host(p, dev, bytes);
                    reduce::combine_elems(op, ty, p.cast(), count, parts);
                    device.copy_to_device(dev, p, bytes);
                }
            }
        }
    }
}

/// The first iteration of chunk `c` of `chunks` over `0..n` (static, balanced partition).
fn split(n: i64, chunks: usize, c: usize) -> i64 {
    ((n as i128 * c as i128) / chunks.max(1) as i128) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn discrete() -> &'static DeviceState {
        DeviceState::leak(Box::new(HostDiscreteDevice::with_capacity(0, 1 << 20)))
    }

    fn site(var: &str) -> Site<'_> {
        Site {
            file: crate::error::Text::Str("t.c"),
            line: 7,
            var: crate::error::Text::Str(var),
            routine: "",
        }
    }

    const S: QueueSel = QueueSel::Sync;

    #[test]
    fn copy_region_moves_data_both_ways_and_frees() {
        let d = discrete();
        let mut a = [1.0f64, 2.0, 3.0];
        let h = a.as_mut_ptr() as usize;
        // SAFETY: `a` outlives every synchronous action below.
        unsafe {
            let dev = d
                .enter(
                    Action::Copy,
                    Flags::default(),
                    h,
                    24,
                    Counter::Structured,
                    S,
                    &site("a"),
                )
                .unwrap();
            assert_ne!(dev, h);
            // Change the device copy behind the runtime's back, as a kernel would.
            (dev as *mut f64).write(10.0);
            assert_eq!(a[0], 1.0, "host memory is separate");
            d.exit(
                Action::Copy,
                Flags::default(),
                h,
                24,
                Counter::Structured,
                S,
                &site("a"),
            )
            .unwrap();
        }
        assert_eq!(a, [10.0, 2.0, 3.0]);
        assert_eq!(d.mapped_count(), 0);
        assert_eq!(d.device.free_memory(), 1 << 20);
    }

    #[test]
    fn create_is_poisoned_and_zero_is_zeroed() {
        let d = discrete();
        let a = [5u32; 4];
        let b = [5u32; 4];
        // SAFETY: `a` and `b` outlive the actions.
        unsafe {
            let da = d
                .enter(
                    Action::Create,
                    Flags::default(),
                    a.as_ptr() as usize,
                    16,
                    Counter::Dynamic,
                    S,
                    &site("a"),
                )
                .unwrap();
            let db = d
                .enter(
                    Action::Create,
                    Flags::ZERO,
                    b.as_ptr() as usize,
                    16,
                    Counter::Dynamic,
                    S,
                    &site("b"),
                )
                .unwrap();
            assert_eq!((da as *const u32).read(), u32::MAX);
            assert_eq!((db as *const u32).read(), 0);
        }
    }

    #[test]
    fn errors_name_the_variable_and_line() {
        let d = discrete();
        let a = [0u8; 100];
        let h = a.as_ptr() as usize;
        // SAFETY: `a` outlives the actions.
        unsafe {
            let e = d
                .enter(
                    Action::Present,
                    Flags::default(),
                    h,
                    100,
                    Counter::Structured,
                    S,
                    &site("a[0:100]"),
                )
                .unwrap_err();
            assert_eq!(e.kind(), ErrorKind::NotPresent);
            assert_eq!(e.to_string(), format!("t.c:7: 'a[0:100]' (100 bytes at {h:#x}) is not present on device host-discrete 0"));
            d.enter(
                Action::CopyIn,
                Flags::default(),
                h,
                50,
                Counter::Dynamic,
                S,
                &site("a[0:50]"),
            )
            .unwrap();
            let e = d
                .enter(
                    Action::CopyIn,
                    Flags::default(),
                    h + 40,
                    20,
                    Counter::Dynamic,
                    S,
                    &site("a[40:20]"),
                )
                .unwrap_err();
            assert_eq!(e.kind(), ErrorKind::PartialOverlap);
            assert!(
                e.to_string().contains("partially overlaps 'a[0:50]'"),
                "{e}"
            );
            let e = d
                .update(false, false, h + 60, 4, S, &site("a[60:4]"))
                .unwrap_err();
            assert_eq!(e.kind(), ErrorKind::NotPresent);
            d.update(false, true, h + 60, 4, S, &site("a[60:4]"))
                .unwrap();
        }
    }

    #[test]
    fn out_of_memory_and_bad_frees_are_errors() {
        let d = discrete();
        let big = vec![0u8; 2 << 20];
        // SAFETY: `big` outlives the action.
        let e = unsafe {
            d.enter(
                Action::Create,
                Flags::default(),
                big.as_ptr() as usize,
                big.len(),
                Counter::Dynamic,
                S,
                &site("big"),
            )
        }
        .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::OutOfMemory);
        let p = d.malloc(64, &site("")).unwrap();
        let host = [0u8; 64];
        d.map_data(host.as_ptr() as usize, p, 64, &site("h"))
            .unwrap();
        assert_eq!(
            d.free(p, &Site::routine("acc_free")).unwrap_err().kind(),
            ErrorKind::BadFree
        );
        assert_eq!(d.hostptr(p + 3), host.as_ptr() as usize + 3);
        d.unmap_data(host.as_ptr() as usize, &Site::routine("acc_unmap_data"))
            .unwrap();
        let e = d
            .unmap_data(host.as_ptr() as usize, &Site::routine("acc_unmap_data"))
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::BadUnmap);
        d.free(p, &Site::routine("acc_free")).unwrap();
        assert_eq!(
            d.free(p, &Site::routine("acc_free")).unwrap_err().kind(),
            ErrorKind::BadFree
        );
    }

    #[test]
    fn attach_points_the_device_pointer_at_the_device_target() {
        let d = discrete();
        let data = [7i32; 8];
        #[repr(C)]
        struct S1 {
            p: *const i32,
        }
        let s = S1 { p: data.as_ptr() };
        let sp = &s as *const S1 as usize;
        // SAFETY: `s` and `data` outlive the actions.
        unsafe {
            let ds = d
                .enter(
                    Action::CopyIn,
                    Flags::default(),
                    sp,
                    8,
                    Counter::Dynamic,
                    S,
                    &site("s"),
                )
                .unwrap();
            let dd = d
                .enter(
                    Action::CopyIn,
                    Flags::default(),
                    data.as_ptr() as usize,
                    32,
                    Counter::Dynamic,
                    S,
                    &site("data"),
                )
                .unwrap();
            d.attach(sp, S, &site("s.p")).unwrap();
            assert_eq!((ds as *const usize).read(), dd);
            d.attach(sp, S, &site("s.p")).unwrap();
            d.detach(sp, false, S, &site("s.p")).unwrap();
            assert_eq!((ds as *const usize).read(), dd, "still attached once");
            d.detach(sp, false, S, &site("s.p")).unwrap();
            assert_eq!((ds as *const usize).read(), data.as_ptr() as usize);
        }
    }

    unsafe extern "C" fn add_one(c: *const Chunk) {
        // SAFETY: the runtime passes a valid chunk whose first argument is a pointer to the
        // device copy of an i64 array.
        unsafe {
            let c = &*c;
            let a = *(*c.args as *const *mut i64);
            let sum = *c.red as *mut i64;
            for i in c.begin..c.end {
                *a.add(i as usize) += 1;
                *sum += *a.add(i as usize);
            }
        }
    }

    #[test]
    fn launch_translates_arguments_and_reduces() {
        let d = discrete();
        let mut a: Vec<i64> = (0..1000).collect();
        let mut sum: i64 = 5;
        let h = a.as_mut_ptr() as usize;
        let st = site("a[0:1000]");
        // SAFETY: `a` and `sum` outlive the synchronous launch.
        unsafe {
            d.enter(
                Action::Copy,
                Flags::default(),
                h,
                8000,
                Counter::Structured,
                S,
                &st,
            )
            .unwrap();
            let args = [Arg::Mapped {
                host: h,
                bytes: 8000,
                site: st,
            }];
            let reds = [Reduction {
                op: reduce::Op::Add,
                ty: reduce::Type::I64,
                var: &mut sum as *mut i64 as usize,
                count: 1,
                custom: None,
                kernel_sets_slots: false,
                site: st,
            }];
            d.launch(
                add_one,
                Geometry {
                    iterations: 1000,
                    num_gangs: 7,
                    ..Geometry::default()
                },
                &args,
                &reds,
                S,
                &st,
            )
            .unwrap();
            assert_eq!(a[0], 0, "the kernel ran on the device copy");
            d.exit(
                Action::Copy,
                Flags::default(),
                h,
                8000,
                Counter::Structured,
                S,
                &st,
            )
            .unwrap();
        }
        assert_eq!(a[999], 1000);
        assert_eq!(sum, 5 + (1..=1000).sum::<i64>());
        // SAFETY: `a` is valid; the launch is synchronous.
        let e = unsafe {
            d.launch(
                add_one,
                Geometry {
                    iterations: 1,
                    ..Geometry::default()
                },
                &[Arg::Mapped {
                    host: h,
                    bytes: 8,
                    site: st,
                }],
                &[],
                S,
                &st,
            )
        }
        .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::NotPresent);
    }

    #[test]
    fn split_covers_the_range() {
        for (n, k) in [(10i64, 3usize), (1, 1), (1000, 7), (5, 5)] {
            let mut prev = 0;
            for c in 0..k {
                let (b, e) = (split(n, k, c), split(n, k, c + 1));
                assert_eq!(b, prev);
                assert!(e > b);
                prev = e;
            }
            assert_eq!(prev, n);
        }
    }
}
