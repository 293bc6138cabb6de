//! The OpenACC Profiling Interface (OpenACC 3.3 chapter 5, `include/acc_prof.h`): the
//! registered callbacks, the profiling libraries that register them (linked into the program,
//! or named by `ACC_PROFLIB`), and the dispatch of each event to them.
//!
//! The rest of the runtime says *that* an event happens and with what data ([`Event`],
//! [`Data`], [`Launch`]); this module owns the C structs, the registry and the calls, and must
//! not touch devices, queues or the present table. With no callback registered for an event,
//! [`wants`] is one relaxed atomic load, so the hot paths pay nothing else.

use std::cell::RefCell;
use std::ffi::{c_char, c_int, c_long, c_void, CStr, CString};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, RwLock};

mod linked;
pub use linked::acc_rt_prof_linked;
mod tools;

use crate::device::DeviceKind;
use crate::error::Site;
use crate::queue::QueueSel;

/// `acc_event_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum Event {
    DeviceInitStart = 1,
    DeviceInitEnd = 2,
    DeviceShutdownStart = 3,
    DeviceShutdownEnd = 4,
    RuntimeShutdown = 5,
    Create = 6,
    Delete = 7,
    Alloc = 8,
    Free = 9,
    EnterDataStart = 10,
    EnterDataEnd = 11,
    ExitDataStart = 12,
    ExitDataEnd = 13,
    UpdateStart = 14,
    UpdateEnd = 15,
    ComputeConstructStart = 16,
    ComputeConstructEnd = 17,
    EnqueueLaunchStart = 18,
    EnqueueLaunchEnd = 19,
    EnqueueUploadStart = 20,
    EnqueueUploadEnd = 21,
    EnqueueDownloadStart = 22,
    EnqueueDownloadEnd = 23,
    WaitStart = 24,
    WaitEnd = 25,
}

/// `acc_ev_last`: one past the last event.
const EVENTS: usize = 26;
/// `acc_ev_none`: with a toggle, every event.
const EV_NONE: c_int = 0;

impl Event {
    /// Every event, in `acc_event_t` order.
    pub const ALL: [Event; EVENTS - 1] = {
        use Event::*;
        [
            DeviceInitStart,
            DeviceInitEnd,
            DeviceShutdownStart,
            DeviceShutdownEnd,
            RuntimeShutdown,
            Create,
            Delete,
            Alloc,
            Free,
            EnterDataStart,
            EnterDataEnd,
            ExitDataStart,
            ExitDataEnd,
            UpdateStart,
            UpdateEnd,
            ComputeConstructStart,
            ComputeConstructEnd,
            EnqueueLaunchStart,
            EnqueueLaunchEnd,
            EnqueueUploadStart,
            EnqueueUploadEnd,
            EnqueueDownloadStart,
            EnqueueDownloadEnd,
            WaitStart,
            WaitEnd,
        ]
    };

    /// The event of an `acc_event_t` value.
    pub fn from_code(code: c_int) -> Option<Event> {
        Event::ALL.into_iter().find(|e| *e as c_int == code)
    }

    /// For an end event, the start event it closes.
    pub fn start(self) -> Option<Event> {
        use Event::*;
        Some(match self {
            DeviceInitEnd => DeviceInitStart,
            DeviceShutdownEnd => DeviceShutdownStart,
            EnterDataEnd => EnterDataStart,
            ExitDataEnd => ExitDataStart,
            UpdateEnd => UpdateStart,
            ComputeConstructEnd => ComputeConstructStart,
            EnqueueLaunchEnd => EnqueueLaunchStart,
            EnqueueUploadEnd => EnqueueUploadStart,
            EnqueueDownloadEnd => EnqueueDownloadStart,
            WaitEnd => WaitStart,
            _ => return None,
        })
    }

    /// Whether an end event closes this one.
    pub fn is_start(self) -> bool {
        Event::ALL.into_iter().any(|e| e.start() == Some(self))
    }

    /// End events call their callbacks in the reverse order of registration (OpenACC 3.3,
    /// section 5.4.1), so that tools registered later nest inside earlier ones.
    fn is_end(self) -> bool {
        self.start().is_some()
    }
}

/// `acc_construct_t`: the construct (or API routine) an event belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum Construct {
    Parallel = 0,
    Kernels = 1,
    Data = 3,
    EnterData = 4,
    ExitData = 5,
    Update = 12,
    Wait = 14,
    RuntimeApi = 15,
    Serial = 16,
}

/// `_OPENACC` of the specification these structs follow (OpenACC 3.3).
const VERSION: c_int = 202211;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct ProfInfo {
    pub event_type: c_int,
    pub valid_bytes: c_int,
    pub version: c_int,
    pub device_type: c_int,
    pub device_number: c_int,
    pub thread_id: c_int,
    pub async_: c_long,
    pub async_queue: c_long,
    pub src_file: *const c_char,
    pub func_name: *const c_char,
    pub line_no: c_int,
    pub end_line_no: c_int,
    pub func_line_no: c_int,
    pub func_end_line_no: c_int,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct DataEventInfo {
    pub event_type: c_int,
    pub valid_bytes: c_int,
    pub parent_construct: c_int,
    pub implicit: c_int,
    pub tool_info: *mut c_void,
    pub var_name: *const c_char,
    pub bytes: usize,
    pub host_ptr: *const c_void,
    pub device_ptr: *const c_void,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct LaunchEventInfo {
    pub event_type: c_int,
    pub valid_bytes: c_int,
    pub parent_construct: c_int,
    pub implicit: c_int,
    pub tool_info: *mut c_void,
    pub kernel_name: *const c_char,
    pub num_gangs: usize,
    pub num_workers: usize,
    pub vector_length: usize,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct OtherEventInfo {
    pub event_type: c_int,
    pub valid_bytes: c_int,
    pub parent_construct: c_int,
    pub implicit: c_int,
    pub tool_info: *mut c_void,
}

#[repr(C)]
pub union EventInfo {
    pub event_type: c_int,
    pub data_event: DataEventInfo,
    pub launch_event: LaunchEventInfo,
    pub other_event: OtherEventInfo,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct ApiInfo {
    pub device_api: c_int,
    pub valid_bytes: c_int,
    pub device_type: c_int,
    pub vendor: c_int,
    pub device_handle: *const c_void,
    pub context_handle: *const c_void,
    pub async_handle: *const c_void,
}

/// The bytes of a struct up to and including its last field (`valid_bytes`).
macro_rules! valid_bytes {
    ($ty:ty, $last:ident) => {
        (std::mem::offset_of!($ty, $last) + size_of_val(&unsafe_zeroed::<$ty>().$last)) as c_int
    };
}

/// A zeroed value to measure a field's size with (every struct here is plain data, for which
/// all-zero bytes are a valid value: integers and raw pointers).
fn unsafe_zeroed<T: Copy>() -> T {
    // SAFETY: only instantiated with the `#[repr(C)]` structs above, whose fields are
    // integers and raw pointers.
    unsafe { std::mem::zeroed() }
}

pub type Callback = unsafe extern "C" fn(*mut ProfInfo, *mut EventInfo, *mut ApiInfo);
type RegisterFn = unsafe extern "C" fn(c_int, Option<Callback>, c_int);
type QueryFn = unsafe extern "C" fn();
type LookupFn = unsafe extern "C" fn(*const c_char) -> Option<QueryFn>;
type RegisterLibraryFn = unsafe extern "C" fn(RegisterFn, RegisterFn, LookupFn);

/// A registered callback, on unless toggled off for all threads.
#[derive(Clone, Copy)]
struct Registered {
    callback: Callback,
    on: bool,
}

/// Each event's callbacks, in registration order.
static REGISTRY: RwLock<Vec<Vec<Registered>>> = RwLock::new(Vec::new());
/// Whether an event has a callback that is on (for some thread): what [`wants`] reads.
static ACTIVE: [AtomicBool; EVENTS] = [const { AtomicBool::new(false) }; EVENTS];

thread_local! {
    /// The (event, callback) pairs, and whole events (callback `None`), toggled off for the
    /// calling thread only (`acc_toggle_per_thread`).
    static OFF_HERE: RefCell<Vec<(c_int, Option<usize>)>> = const { RefCell::new(Vec::new()) };
    /// This thread's number in `acc_prof_info.thread_id`: 0 for the first thread to raise an
    /// event, then in order.
    static THREAD_ID: c_int = NEXT_THREAD_ID.fetch_add(1, Ordering::Relaxed);
}
static NEXT_THREAD_ID: AtomicI32 = AtomicI32::new(0);

/// Whether any event has a callback that is on.
static ANY_ACTIVE: AtomicBool = AtomicBool::new(false);

/// Whether anything listens for `ev`: checked before building an event's data.
#[inline]
pub fn wants(ev: Event) -> bool {
    ACTIVE[ev as usize].load(Ordering::Relaxed)
}

/// Whether anything listens for any event: what a runtime call checks once before it
/// gathers where its events come from.
#[inline]
pub fn active() -> bool {
    ANY_ACTIVE.load(Ordering::Relaxed)
}

fn refresh_active(registry: &[Vec<Registered>]) {
    let mut any = false;
    for (e, active) in ACTIVE.iter().enumerate() {
        let on = registry.get(e).is_some_and(|l| l.iter().any(|r| r.on));
        active.store(on, Ordering::Relaxed);
        any |= on;
    }
    ANY_ACTIVE.store(any, Ordering::Relaxed);
}

const ACC_REG: c_int = 0;
const ACC_TOGGLE: c_int = 1;
const ACC_TOGGLE_PER_THREAD: c_int = 2;

/// `acc_prof_register` (`on`) and `acc_prof_unregister` (`!on`).
fn change(event: c_int, callback: Option<Callback>, info: c_int, on: bool) {
    let events: Vec<usize> = match event {
        EV_NONE if info != ACC_REG => (1..EVENTS).collect(),
        e if (1..EVENTS as c_int).contains(&e) => vec![e as usize],
        // Not an event: nothing to register (the specification gives no error to report).
        _ => return,
    };
    if info == ACC_TOGGLE_PER_THREAD {
        OFF_HERE.with(|off| {
            let mut off = off.borrow_mut();
            for &e in &events {
                let key = (e as c_int, callback.map(|c| c as usize));
                off.retain(|k| *k != key);
                if !on {
                    off.push(key);
                }
            }
        });
        return;
    }
    let mut registry = REGISTRY.write().unwrap_or_else(|e| e.into_inner());
    if registry.len() < EVENTS {
        registry.resize_with(EVENTS, Vec::new);
    }
    for &e in &events {
        let list = &mut registry[e];
        match (info, callback) {
            (ACC_REG, Some(cb)) if on => list.push(Registered {
                callback: cb,
                on: true,
            }),
            // Unregistering removes the latest registration of that callback.
            (ACC_REG, Some(cb)) => {
                if let Some(i) = list
                    .iter()
                    .rposition(|r| r.callback as usize == cb as usize)
                {
                    list.remove(i);
                }
            }
            (ACC_TOGGLE, Some(cb)) => list
                .iter_mut()
                .filter(|r| r.callback as usize == cb as usize)
                .for_each(|r| r.on = on),
            (ACC_TOGGLE, None) => list.iter_mut().for_each(|r| r.on = on),
            _ => {}
        }
    }
    refresh_active(&registry);
}

/// `acc_prof_register`.
///
/// # Safety
/// `callback` is null or a function of the `acc_prof_callback` type.
#[no_mangle]
pub unsafe extern "C" fn acc_prof_register(event: c_int, callback: Option<Callback>, info: c_int) {
    change(event, callback, info, true)
}

/// `acc_prof_unregister`.
///
/// # Safety
/// As for [`acc_prof_register`].
#[no_mangle]
pub unsafe extern "C" fn acc_prof_unregister(
    event: c_int,
    callback: Option<Callback>,
    info: c_int,
) {
    change(event, callback, info, false)
}

/// `acc_prof_lookup`: the runtime's profiling routines by name; this runtime defines no other
/// inquiry functions.
///
/// # Safety
/// `name` is null or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn acc_prof_lookup(name: *const c_char) -> Option<QueryFn> {
    if name.is_null() {
        return None;
    }
    // SAFETY: the caller passes a NUL-terminated string.
    let name = unsafe { CStr::from_ptr(name) }.to_bytes();
    // A C caller casts an `acc_query_fn` back to the routine's own type before calling it, as
    // `acc_prof_lookup` requires; only the pointer travels.
    let routine: QueryFn = match name {
        // SAFETY: function pointers of one size; see above.
        b"acc_prof_register" => unsafe {
            std::mem::transmute::<RegisterFn, QueryFn>(acc_prof_register)
        },
        // SAFETY: as above.
        b"acc_prof_unregister" => unsafe {
            std::mem::transmute::<RegisterFn, QueryFn>(acc_prof_unregister)
        },
        // SAFETY: as above.
        b"acc_prof_lookup" => unsafe { std::mem::transmute::<LookupFn, QueryFn>(acc_prof_lookup) },
        _ => return None,
    };
    Some(routine)
}

/// Calls a library's `acc_register_library` with the runtime's routines.
///
/// # Safety
/// `register` is a function of the `acc_register_library` type.
unsafe fn register_library(register: RegisterLibraryFn) {
    // SAFETY: forwarded from the caller.
    unsafe { register(acc_prof_register, acc_prof_unregister, acc_prof_lookup) }
}

/// Registers acc's own tools that the environment asks for (`ACC_NOTIFY`, `ACC_TIME`,
/// `ACC_TRACE`), then opens the libraries `ACC_PROFLIB` names (`;`-separated, in order) and
/// calls each one's `acc_register_library`, once per process; called as the runtime starts.
pub fn load_env_libraries() {
    // A flag, not a `Once`: a library's `acc_register_library` may call the API, which comes
    // back here on the same thread.
    static STARTED: AtomicBool = AtomicBool::new(false);
    if STARTED.load(Ordering::Relaxed) || STARTED.swap(true, Ordering::AcqRel) {
        return;
    }
    tools::register_from_env();
    {
        let Some(list) = std::env::var_os("ACC_PROFLIB") else {
            return;
        };
        for path in list.to_string_lossy().split(';').filter(|p| !p.is_empty()) {
            // SAFETY: a profiling library is code the user asked to run in this process; its
            // initialisers run as any shared library's do.
            let lib = match unsafe { libloading::Library::new(path) } {
                Ok(lib) => lib,
                Err(e) => {
                    eprintln!("acc: warning: ACC_PROFLIB: cannot load {path}: {e}");
                    continue;
                }
            };
            // SAFETY: the specification names the symbol and its type.
            let register = unsafe { lib.get::<RegisterLibraryFn>(b"acc_register_library\0") };
            match register {
                // SAFETY: as above.
                Ok(register) => unsafe { register_library(*register) },
                Err(_) => eprintln!(
                    "acc: warning: ACC_PROFLIB: {path} defines no acc_register_library; \
                     not a profiling library"
                ),
            }
            // The library's callbacks stay registered for the life of the process.
            std::mem::forget(lib);
        }
    }
}

/// `acc_rt_site`: one construct of a file's table (see `acc_rt.h`).
#[repr(C)]
pub struct AccRtSite {
    pub line: c_int,
    pub end_line: c_int,
    pub construct: c_int,
    pub func: *const c_char,
    pub func_line: c_int,
    pub func_end_line: c_int,
}

/// What a registered table says about one line of one file.
#[derive(Clone, Copy)]
struct SiteRow {
    end_line: c_int,
    construct: c_int,
    /// A string literal of the program (lives for the process), as an address.
    func: usize,
    func_line: c_int,
    func_end_line: c_int,
}

type SiteTables = std::collections::HashMap<Box<[u8]>, std::collections::HashMap<c_int, SiteRow>>;

/// Each file's constructs by line, from generated code's `acc_rt_register_sites`.
static SITES: RwLock<Option<SiteTables>> = RwLock::new(None);

/// `acc_rt_register_sites`: a file's table of constructs, registered by its generated code as
/// the program starts.
///
/// # Safety
/// `file` is a NUL-terminated string; `sites` points at `n` rows whose strings live for the
/// process (generated code passes static tables of literals).
#[no_mangle]
pub unsafe extern "C" fn acc_rt_register_sites(
    file: *const c_char,
    sites: *const AccRtSite,
    n: usize,
) {
    if file.is_null() || sites.is_null() {
        return;
    }
    // SAFETY: guaranteed by the caller.
    let (file, rows) = unsafe { (CStr::from_ptr(file), std::slice::from_raw_parts(sites, n)) };
    let mut tables = SITES.write().unwrap_or_else(|e| e.into_inner());
    let table = tables
        .get_or_insert_with(Default::default)
        .entry(file.to_bytes().into())
        .or_default();
    for r in rows {
        table.entry(r.line).or_insert(SiteRow {
            end_line: r.end_line,
            construct: r.construct,
            func: r.func as usize,
            func_line: r.func_line,
            func_end_line: r.func_end_line,
        });
    }
}

/// Registers a Rust function's region (`file`, `line`) as a construct of `function`, whose
/// lines are `lines`, so that its events name them (Rust kernels have no table of their own).
pub fn register_rust_site(
    file: &'static str,
    line: u32,
    construct: Construct,
    function: &'static str,
    (func_line, func_end_line): (u32, u32),
) {
    static NAMES: Mutex<Vec<(&'static str, CString)>> = Mutex::new(Vec::new());
    let func = {
        let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
        match names.iter().find(|n| n.0 == function) {
            Some(n) => n.1.as_ptr() as usize,
            None => {
                let c = CString::new(function).unwrap_or_default();
                let p = c.as_ptr() as usize;
                // The name's bytes stay where they are while the vector grows: they live in
                // the `CString`'s own allocation, kept for the process.
                names.push((function, c));
                p
            }
        }
    };
    let mut tables = SITES.write().unwrap_or_else(|e| e.into_inner());
    tables
        .get_or_insert_with(Default::default)
        .entry(file.as_bytes().into())
        .or_default()
        .entry(line as c_int)
        .or_insert(SiteRow {
            end_line: line as c_int,
            construct: construct as c_int,
            func,
            func_line: func_line as c_int,
            func_end_line: func_end_line as c_int,
        });
}

/// The registered row of a site's file and line.
fn site_row(site: &Site<'_>) -> Option<SiteRow> {
    let file: &[u8] = match site.file {
        // SAFETY: a site's C text is a NUL-terminated string that outlives it.
        crate::error::Text::C(p) if !p.is_null() => unsafe { CStr::from_ptr(p) }.to_bytes(),
        crate::error::Text::Str(s) => s.as_bytes(),
        _ => return None,
    };
    let tables = SITES.read().unwrap_or_else(|e| e.into_inner());
    tables
        .as_ref()?
        .get(file)?
        .get(&(site.line as c_int))
        .copied()
}

/// The construct at a site, when its file registered a table.
pub fn site_construct(site: &Site<'_>) -> Option<Construct> {
    Construct::from_code(site_row(site)?.construct)
}

impl Construct {
    fn from_code(code: c_int) -> Option<Construct> {
        use Construct::*;
        [
            Parallel, Kernels, Data, EnterData, ExitData, Update, Wait, RuntimeApi, Serial,
        ]
        .into_iter()
        .find(|c| *c as c_int == code)
    }

    pub fn is_compute(self) -> bool {
        matches!(
            self,
            Construct::Parallel | Construct::Kernels | Construct::Serial
        )
    }
}

/// Where an event happens: its device, queue and source location.
pub struct Origin<'a> {
    pub device: DeviceKind,
    pub device_number: usize,
    pub queue: QueueSel,
    pub site: &'a Site<'a>,
    /// The GPU, for the CUDA handles of `acc_api_info`.
    pub gpu: Option<&'a crate::device::cuda::CudaDevice>,
}

/// The construct of a runtime call: the registered table's, else the routine's.
fn construct_at(site: &Site<'_>) -> Construct {
    site_construct(site).unwrap_or_else(|| construct_of_routine(site))
}

/// The construct a generated kernel's name starts with (`"parallel loop at line 3"`).
pub fn construct_of_kernel(name: Option<&CStr>) -> Construct {
    let name = name.map_or(&b""[..], CStr::to_bytes);
    if name.starts_with(b"kernels") {
        Construct::Kernels
    } else if name.starts_with(b"serial") {
        Construct::Serial
    } else {
        Construct::Parallel
    }
}

/// The construct of a runtime call by its routine: generated code's calls for directives (a
/// launch's site names its kernel), the API's routines for everything else.
fn construct_of_routine(site: &Site<'_>) -> Construct {
    match site.routine {
        "acc_rt_launch" => match site.var {
            crate::error::Text::C(p) if !p.is_null() => {
                // SAFETY: a site's C text is a NUL-terminated string that outlives it.
                let name = unsafe { CStr::from_ptr(p) };
                construct_of_kernel(Some(name))
            }
            _ => Construct::Parallel,
        },
        "acc_rt_region_begin" | "acc_rt_region_end" => Construct::Data,
        "acc_rt_enter_data" => Construct::EnterData,
        "acc_rt_exit_data" => Construct::ExitData,
        "acc_rt_update" => Construct::Update,
        "acc_rt_wait" => Construct::Wait,
        _ => Construct::RuntimeApi,
    }
}

/// The data of a data event.
pub struct Data {
    /// `None`: the construct at the event's site.
    pub construct: Option<Construct>,
    pub implicit: bool,
    pub bytes: usize,
    pub host: usize,
    pub device: usize,
}

/// The data of a launch event.
pub struct Launch<'a> {
    /// `None`: the construct at the event's site.
    pub construct: Option<Construct>,
    pub kernel_name: Option<&'a CStr>,
    pub num_gangs: usize,
    pub num_workers: usize,
    pub vector_length: usize,
}

/// A C string of a site's text: its own pointer when it is one, else a copy kept alive in
/// `keep`.
fn c_text(text: crate::error::Text<'_>, keep: &mut Vec<CString>) -> *const c_char {
    match text {
        crate::error::Text::C(p) => p,
        crate::error::Text::Str(s) => {
            let c = CString::new(s.replace('\0', "")).unwrap_or_default();
            let p = c.as_ptr();
            keep.push(c);
            p
        }
        crate::error::Text::None => std::ptr::null(),
    }
}

fn prof_info(ev: Event, at: &Origin<'_>, keep: &mut Vec<CString>) -> ProfInfo {
    let row = site_row(at.site);
    let (async_, async_queue) = match at.queue {
        QueueSel::Sync => (crate::runtime::ASYNC_SYNC as c_long, -1),
        QueueSel::Async(q) => (q as c_long, q as c_long),
    };
    ProfInfo {
        event_type: ev as c_int,
        valid_bytes: valid_bytes!(ProfInfo, func_end_line_no),
        version: VERSION,
        device_type: crate::api::device_value(at.device),
        device_number: at.device_number as c_int,
        thread_id: THREAD_ID.try_with(|t| *t).unwrap_or(0),
        async_,
        async_queue,
        src_file: c_text(at.site.file, keep),
        func_name: row.map_or(std::ptr::null(), |r| r.func as *const c_char),
        line_no: at.site.line as c_int,
        end_line_no: row.map_or(at.site.line as c_int, |r| r.end_line),
        func_line_no: row.map_or(0, |r| r.func_line),
        func_end_line_no: row.map_or(0, |r| r.func_end_line),
    }
}

/// `acc_api_info`: on a GPU, CUDA (`acc_device_api_cuda`) with the device's address, context
/// and the event's stream; on the CPU devices, no device API.
fn api_info(at: &Origin<'_>) -> ApiInfo {
    let key = match at.queue {
        QueueSel::Sync => None,
        QueueSel::Async(q) => Some(q),
    };
    let [device, context, stream] = at.gpu.map_or([std::ptr::null(); 3], |g| g.api_handles(key));
    ApiInfo {
        device_api: if at.gpu.is_some() { 1 } else { 0 },
        valid_bytes: valid_bytes!(ApiInfo, async_handle),
        device_type: crate::api::device_value(at.device),
        // NVIDIA's PCI vendor id on a GPU; none on the CPU devices.
        vendor: if at.gpu.is_some() { 0x10de } else { 0 },
        device_handle: device,
        context_handle: context,
        async_handle: stream,
    }
}

/// Calls `ev`'s callbacks that are on for this thread, in the order the specification gives,
/// outside the registry's lock (a callback may register or unregister).
fn dispatch(ev: Event, info: &mut ProfInfo, event: &mut EventInfo, api: &mut ApiInfo) {
    let mut callbacks: Vec<Callback> = {
        let registry = REGISTRY.read().unwrap_or_else(|e| e.into_inner());
        let Some(list) = registry.get(ev as usize) else {
            return;
        };
        list.iter().filter(|r| r.on).map(|r| r.callback).collect()
    };
    // At exit the thread's locals may be gone: then nothing is toggled off for it.
    let _ = OFF_HERE.try_with(|off| {
        let off = off.borrow();
        callbacks.retain(|&cb| {
            !off.iter()
                .any(|&(e, c)| e == ev as c_int && c.is_none_or(|c| c == cb as usize))
        })
    });
    if ev.is_end() {
        callbacks.reverse();
    }
    for cb in callbacks {
        // SAFETY: a registered callback has the `acc_prof_callback` type; the three structs
        // live across the call.
        unsafe { cb(info, event, api) };
    }
}

/// Raises a device or runtime event (`device_init_*`, `device_shutdown_*`,
/// `runtime_shutdown`) for device `number` of `kind`, from the runtime itself.
pub fn device_event(ev: Event, kind: DeviceKind, number: usize, routine: &'static str) {
    if !wants(ev) {
        return;
    }
    let site = Site::routine(routine);
    let at = Origin {
        device: kind,
        device_number: number,
        queue: QueueSel::Sync,
        site: &site,
        gpu: None,
    };
    other(ev, &at, Some(Construct::RuntimeApi));
}

/// The runtime's default device, which `runtime_shutdown` reports.
static DEFAULT_DEVICE: std::sync::OnceLock<(DeviceKind, usize)> = std::sync::OnceLock::new();

/// Raises `runtime_shutdown` as the process exits: registered with the C library's `atexit`
/// when the runtime starts.
extern "C" fn at_exit() {
    let (kind, number) = DEFAULT_DEVICE
        .get()
        .copied()
        .unwrap_or((DeviceKind::Host, 0));
    device_event(Event::RuntimeShutdown, kind, number, "exit");
}

/// Arranges for [`at_exit`], once, for a runtime whose default device is `number` of `kind`.
pub fn register_at_exit(kind: DeviceKind, number: usize) {
    extern "C" {
        fn atexit(f: extern "C" fn()) -> c_int;
    }
    if DEFAULT_DEVICE.set((kind, number)).is_ok() {
        // SAFETY: `at_exit` is an `extern "C"` function with no arguments that lives for the
        // process, as `atexit` requires.
        unsafe { atexit(at_exit) };
    }
}

/// Raises a data event.
pub fn data(ev: Event, at: &Origin<'_>, d: &Data) {
    if !wants(ev) {
        return;
    }
    let mut keep = Vec::new();
    let mut info = prof_info(ev, at, &mut keep);
    let var_name = c_text(at.site.var, &mut keep);
    let mut event = EventInfo {
        data_event: DataEventInfo {
            event_type: ev as c_int,
            valid_bytes: valid_bytes!(DataEventInfo, device_ptr),
            parent_construct: d.construct.unwrap_or_else(|| construct_at(at.site)) as c_int,
            implicit: d.implicit as c_int,
            tool_info: std::ptr::null_mut(),
            var_name,
            bytes: d.bytes,
            host_ptr: d.host as *const c_void,
            device_ptr: d.device as *const c_void,
        },
    };
    dispatch(ev, &mut info, &mut event, &mut api_info(at));
}

/// Raises a launch or compute construct event.
pub fn launch(ev: Event, at: &Origin<'_>, l: &Launch<'_>) {
    if !wants(ev) {
        return;
    }
    let mut keep = Vec::new();
    let mut info = prof_info(ev, at, &mut keep);
    let mut event = EventInfo {
        launch_event: LaunchEventInfo {
            event_type: ev as c_int,
            valid_bytes: valid_bytes!(LaunchEventInfo, vector_length),
            parent_construct: l.construct.unwrap_or_else(|| construct_at(at.site)) as c_int,
            implicit: 0,
            tool_info: std::ptr::null_mut(),
            kernel_name: l.kernel_name.map_or(std::ptr::null(), CStr::as_ptr),
            num_gangs: l.num_gangs,
            num_workers: l.num_workers,
            vector_length: l.vector_length,
        },
    };
    dispatch(ev, &mut info, &mut event, &mut api_info(at));
}

/// Raises any other event (enter/exit data and update starts and ends, waits); `construct`
/// `None` is the construct at the event's site.
pub fn other(ev: Event, at: &Origin<'_>, construct: Option<Construct>) {
    if !wants(ev) {
        return;
    }
    let mut keep = Vec::new();
    let mut info = prof_info(ev, at, &mut keep);
    let mut event = EventInfo {
        other_event: OtherEventInfo {
            event_type: ev as c_int,
            valid_bytes: valid_bytes!(OtherEventInfo, tool_info),
            parent_construct: construct.unwrap_or_else(|| construct_at(at.site)) as c_int,
            implicit: 0,
            tool_info: std::ptr::null_mut(),
        },
    };
    dispatch(ev, &mut info, &mut event, &mut api_info(at));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_bytes_cover_every_field() {
        assert_eq!(
            valid_bytes!(ProfInfo, func_end_line_no) as usize,
            size_of::<ProfInfo>()
        );
        assert_eq!(
            valid_bytes!(DataEventInfo, device_ptr) as usize,
            size_of::<DataEventInfo>()
        );
        assert_eq!(
            valid_bytes!(LaunchEventInfo, vector_length) as usize,
            size_of::<LaunchEventInfo>()
        );
        assert_eq!(
            valid_bytes!(OtherEventInfo, tool_info) as usize,
            size_of::<OtherEventInfo>()
        );
        assert_eq!(
            valid_bytes!(ApiInfo, async_handle) as usize,
            size_of::<ApiInfo>()
        );
    }
}
