//! The entry points compiler-generated code calls, declared in `include/acc_rt.h`: structured
//! and dynamic data regions with clause descriptors, updates, waits, and kernel launches with a
//! kernel descriptor, arguments and reductions. The C front end's outlined code and the Rust
//! macros both call only these; the header is their documentation.
// Generated code upholds the header's contracts; see the module docs of `api` for the rationale.
#![allow(clippy::missing_safety_doc)]

use crate::error::{Error, ErrorKind, Result, Site, Text};
use crate::ffi::guard;
use crate::present::Counter;
use crate::prof;
use crate::queue::QueueSel;
use crate::reduce;
use crate::runtime::{
    self, queue_sel, Action, Arg, Chunk, DeviceState, Flags, Geometry, Reduction,
};
use std::ffi::{c_char, c_int, c_void, CStr};

/// `acc_rt_data`: one data clause item.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AccRtData {
    pub action: u32,
    pub flags: u32,
    pub host: *mut c_void,
    pub bytes: usize,
    pub text: *const c_char,
}

/// `acc_rt_kernel`: what is launched.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AccRtKernel {
    pub name: *const c_char,
    pub file: *const c_char,
    pub line: i32,
    pub host_fn: Option<unsafe extern "C" fn(*const Chunk)>,
    pub cuda_source: *const c_char,
    pub cuda_entry: *const c_char,
    /// Nonzero: one gang iteration per CUDA block (`acc_rt.h`).
    pub cuda_lanes: i32,
}

/// `acc_rt_config`: how it is launched.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AccRtConfig {
    pub iterations: i64,
    pub num_gangs: i32,
    pub num_workers: i32,
    pub vector_length: i32,
    pub async_arg: i32,
}

/// `acc_rt_arg`: one kernel argument.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AccRtArg {
    pub kind: u32,
    pub host: *mut c_void,
    pub bytes: usize,
    pub text: *const c_char,
}

/// `acc_rt_reduction`: one reduction of a launch.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AccRtReduction {
    pub op: u32,
    pub ty: u32,
    pub var: *mut c_void,
    pub text: *const c_char,
    /// Elements reduced; 0 means 1 (a scalar), so older initializers stay valid.
    pub count: usize,
    /// For `ACC_RT_TYPE_CUSTOM`: the element size and the generated functions.
    pub size: usize,
    pub init: Option<unsafe extern "C" fn(*mut c_void, *const c_void)>,
    pub combine: Option<unsafe extern "C" fn(*mut c_void, *const c_void)>,
}

/// `ACC_RT_TYPE_CUSTOM`: a reduction the compiler generated functions for.
pub const ACC_RT_TYPE_CUSTOM: u32 = 14;

pub const ACC_RT_ARG_MAPPED: u32 = 1;
pub const ACC_RT_ARG_NO_CREATE: u32 = 2;
pub const ACC_RT_ARG_DEVICEPTR: u32 = 3;
pub const ACC_RT_ARG_VALUE: u32 = 4;
pub const ACC_RT_ARG_POINTER: u32 = 5;
pub const ACC_RT_ARG_PRIVATE: u32 = 6;
pub const ACC_RT_ARG_FIRSTPRIVATE: u32 = 7;

fn action(code: u32, site: &Site<'_>) -> Result<Action> {
    use Action::*;
    Ok(match code {
        1 => Copy,
        2 => CopyIn,
        3 => CopyOut,
        4 => Create,
        5 => NoCreate,
        6 => Present,
        7 => DevicePtr,
        8 => Attach,
        9 => Detach,
        10 => Delete,
        11 => UpdateSelf,
        12 => UpdateDevice,
        other => {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                site,
                format!("unknown data action {other}"),
            ))
        }
    })
}

/// The clause array generated code passes.
fn clauses<'a>(c: *const AccRtData, n: usize) -> &'a [AccRtData] {
    if c.is_null() || n == 0 {
        return &[];
    }
    // SAFETY: generated code passes an array of `n` descriptors that lives across the call.
    unsafe { std::slice::from_raw_parts(c, n) }
}

/// `ACC_RT_ROWS`: the item is the row pointers of a jagged array section, and the next item
/// gives each row's bytes.
const ROWS: u32 = 32;

/// Where a jagged array's items go: entry (row pointers, then each row and its attach), exit
/// in clause order (each detach and row, then the row pointers), or an update (the rows only).
#[derive(Clone, Copy, PartialEq, Eq)]
enum RowsOrder {
    Enter,
    Exit,
    Update,
}

/// The items with each jagged array section (an `ACC_RT_ROWS` item and its row descriptor)
/// expanded into the row pointers' item, one item per row, and the attach (or detach) that
/// points the device's row pointer at the device's row. Borrowed when there is none.
///
/// # Safety
/// The row pointers an `ACC_RT_ROWS` item names are readable host memory.
unsafe fn expand_rows<'a>(
    items: &'a [AccRtData],
    order: RowsOrder,
    site: &Site<'_>,
) -> Result<std::borrow::Cow<'a, [AccRtData]>> {
    if !items.iter().any(|i| i.flags & ROWS != 0) {
        return Ok(std::borrow::Cow::Borrowed(items));
    }
    let mut out = Vec::new();
    let mut k = 0;
    while k < items.len() {
        let item = items[k];
        k += 1;
        if item.flags & ROWS == 0 {
            out.push(item);
            continue;
        }
        let Some(&row) = items.get(k) else {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                site,
                "a jagged array item without its rows' descriptor".to_string(),
            ));
        };
        k += 1;
        let pointers = AccRtData {
            flags: item.flags & !ROWS,
            ..item
        };
        let count = item.bytes / size_of::<*mut c_void>();
        let base = item.host as *const *mut c_void;
        let link = |i: usize, action: u32| AccRtData {
            action,
            flags: 0,
            // SAFETY: `i < count`, inside the row pointers' section.
            host: unsafe { base.add(i) } as *mut c_void,
            bytes: size_of::<*mut c_void>(),
            text: row.text,
        };
        let row_at = |i: usize| AccRtData {
            action: item.action,
            flags: item.flags & !ROWS,
            // SAFETY: the caller guarantees the row pointers are readable.
            host: unsafe { base.add(i).read() },
            bytes: row.bytes,
            text: row.text,
        };
        match order {
            RowsOrder::Enter => {
                out.push(pointers);
                for i in 0..count {
                    out.push(row_at(i));
                    out.push(link(i, ACC_RT_ATTACH));
                }
            }
            RowsOrder::Exit => {
                for i in 0..count {
                    out.push(link(i, ACC_RT_DETACH));
                    out.push(row_at(i));
                }
                out.push(pointers);
            }
            RowsOrder::Update => out.extend((0..count).map(row_at)),
        }
    }
    Ok(std::borrow::Cow::Owned(out))
}

/// The action codes of attach and detach (`acc_rt.h`).
const ACC_RT_ATTACH: u32 = 8;
const ACC_RT_DETACH: u32 = 9;

/// Runs each clause of a region through `step`, with a site naming the clause's variable.
fn each(
    routine: &'static str,
    file: *const c_char,
    line: c_int,
    c: *const AccRtData,
    n: usize,
    (reverse, async_arg): (bool, c_int),
    step: impl Fn(&'static DeviceState, Action, &AccRtData, &Site<'_>) -> Result<()>,
) {
    guard(routine, || {
        // SAFETY: `file` is null or a NUL-terminated string that outlives the call.
        let region = Site {
            routine,
            ..unsafe { Site::c(file, line, std::ptr::null()) }
        };
        let d = runtime::current(&region)?;
        let order = match routine {
            "acc_rt_update" => RowsOrder::Update,
            // Forward through exit actions; `acc_rt_region_end` reverses the entry order.
            "acc_rt_exit_data" => RowsOrder::Exit,
            _ => RowsOrder::Enter,
        };
        // SAFETY: generated code's row pointers are the program's, valid across the call.
        let items = unsafe { expand_rows(clauses(c, n), order, &region) }?;
        let mut run = |item: &AccRtData| -> Result<()> {
            let site = region.with_var(Text::C(item.text));
            step(d, action(item.action, &site)?, item, &site)
        };
        // The construct's start and end events around its data actions (an invalid async
        // argument is the actions' error to report).
        let (start, end) = match routine {
            "acc_rt_update" => (prof::Event::UpdateStart, prof::Event::UpdateEnd),
            "acc_rt_region_end" | "acc_rt_exit_data" => {
                (prof::Event::ExitDataStart, prof::Event::ExitDataEnd)
            }
            _ => (prof::Event::EnterDataStart, prof::Event::EnterDataEnd),
        };
        if !prof::active() {
            return if reverse {
                items.iter().rev().try_for_each(&mut run)
            } else {
                items.iter().try_for_each(&mut run)
            };
        }
        let q = queue_sel(async_arg, &region).unwrap_or(QueueSel::Sync);
        let at = d.prof_origin(q, &region);
        // A compute construct's data clauses are inside its start and end events.
        let compute = prof::site_construct(&region).filter(|c| c.is_compute());
        if let Some(c) = compute.filter(|_| routine == "acc_rt_region_begin") {
            prof::other(prof::Event::ComputeConstructStart, &at, Some(c));
        }
        prof::other(start, &at, None);
        let done = if reverse {
            items.iter().rev().try_for_each(&mut run)
        } else {
            items.iter().try_for_each(&mut run)
        };
        prof::other(end, &at, None);
        if let Some(c) = compute.filter(|_| routine == "acc_rt_region_end") {
            prof::other(prof::Event::ComputeConstructEnd, &at, Some(c));
        }
        done
    })
}

/// Entry of a data or compute construct: structured enter actions, in clause order.
#[no_mangle]
pub unsafe extern "C" fn acc_rt_region_begin(
    file: *const c_char,
    line: c_int,
    clauses: *const AccRtData,
    n: usize,
    async_arg: c_int,
) {
    each(
        "acc_rt_region_begin",
        file,
        line,
        clauses,
        n,
        (false, async_arg),
        |d, a, c, site| {
            let q = queue_sel(async_arg, site)?;
            // SAFETY: generated code passes host ranges that stay valid for the region.
            unsafe {
                d.enter(
                    a,
                    Flags(c.flags),
                    c.host as usize,
                    c.bytes,
                    Counter::Structured,
                    q,
                    site,
                )
            }
            .map(drop)
        },
    )
}

/// Exit of a data or compute construct: structured exit actions, in reverse clause order.
#[no_mangle]
pub unsafe extern "C" fn acc_rt_region_end(
    file: *const c_char,
    line: c_int,
    clauses: *const AccRtData,
    n: usize,
    async_arg: c_int,
) {
    each(
        "acc_rt_region_end",
        file,
        line,
        clauses,
        n,
        (true, async_arg),
        |d, a, c, site| {
            let q = queue_sel(async_arg, site)?;
            // SAFETY: as for `acc_rt_region_begin`.
            unsafe {
                d.exit(
                    a,
                    Flags(c.flags),
                    c.host as usize,
                    c.bytes,
                    Counter::Structured,
                    q,
                    site,
                )
            }
        },
    )
}

/// `enter data`: dynamic enter actions.
#[no_mangle]
pub unsafe extern "C" fn acc_rt_enter_data(
    file: *const c_char,
    line: c_int,
    clauses: *const AccRtData,
    n: usize,
    async_arg: c_int,
) {
    each(
        "acc_rt_enter_data",
        file,
        line,
        clauses,
        n,
        (false, async_arg),
        |d, a, c, site| {
            let q = queue_sel(async_arg, site)?;
            // SAFETY: generated code passes valid host ranges.
            unsafe {
                d.enter(
                    a,
                    Flags(c.flags),
                    c.host as usize,
                    c.bytes,
                    Counter::Dynamic,
                    q,
                    site,
                )
            }
            .map(drop)
        },
    )
}

/// `exit data`: dynamic exit actions (`ACC_RT_FINALIZE` per clause).
#[no_mangle]
pub unsafe extern "C" fn acc_rt_exit_data(
    file: *const c_char,
    line: c_int,
    clauses: *const AccRtData,
    n: usize,
    async_arg: c_int,
) {
    each(
        "acc_rt_exit_data",
        file,
        line,
        clauses,
        n,
        (false, async_arg),
        |d, a, c, site| {
            let q = queue_sel(async_arg, site)?;
            // SAFETY: generated code passes valid host ranges.
            unsafe {
                d.exit(
                    a,
                    Flags(c.flags),
                    c.host as usize,
                    c.bytes,
                    Counter::Dynamic,
                    q,
                    site,
                )
            }
        },
    )
}

/// `update self(...) device(...) [if_present]`.
#[no_mangle]
pub unsafe extern "C" fn acc_rt_update(
    file: *const c_char,
    line: c_int,
    clauses: *const AccRtData,
    n: usize,
    async_arg: c_int,
) {
    each(
        "acc_rt_update",
        file,
        line,
        clauses,
        n,
        (false, async_arg),
        |d, a, c, site| {
            let q = queue_sel(async_arg, site)?;
            let to_device = match a {
                Action::UpdateDevice => true,
                Action::UpdateSelf => false,
                other => {
                    return Err(Error::new(
                        ErrorKind::InvalidArgument,
                        site,
                        format!("{other:?} is not an update action"),
                    ))
                }
            };
            let if_present = Flags(c.flags).has(Flags::IF_PRESENT);
            // SAFETY: generated code passes valid host ranges.
            unsafe { d.update(to_device, if_present, c.host as usize, c.bytes, q, site) }
        },
    )
}

/// `wait(queues...) [async(a)]`; `n == 0` waits for every queue.
#[no_mangle]
pub unsafe extern "C" fn acc_rt_wait(
    file: *const c_char,
    line: c_int,
    queues: *const c_int,
    n: usize,
    async_arg: c_int,
) {
    guard("acc_rt_wait", || {
        // SAFETY: `file` is null or a NUL-terminated string that outlives the call.
        let site = Site {
            routine: "acc_rt_wait",
            ..unsafe { Site::c(file, line, std::ptr::null()) }
        };
        let d = runtime::current(&site)?;
        let on = (async_arg != runtime::ASYNC_SYNC).then_some(async_arg);
        if n == 0 || queues.is_null() {
            return d.wait_all(on, &site);
        }
        // SAFETY: generated code passes `n` queue numbers.
        let qs = unsafe { std::slice::from_raw_parts(queues, n) };
        qs.iter().try_for_each(|&w| d.wait(w, on, &site))
    })
}

/// `host_data use_device(p)`: the device address of present data (`if_present`: the host
/// address when it is not present).
#[no_mangle]
pub unsafe extern "C" fn acc_rt_use_device(
    file: *const c_char,
    line: c_int,
    host: *mut c_void,
    text: *const c_char,
    if_present: c_int,
) -> *mut c_void {
    guard("acc_rt_use_device", || {
        // SAFETY: both strings are null or NUL-terminated and outlive the call.
        let site = unsafe { Site::c(file, line, text) };
        let d = runtime::current(&site)?;
        let dev = d.deviceptr(host as usize);
        if dev == 0 && !host.is_null() {
            if if_present != 0 {
                return Ok(host);
            }
            return Err(Error::new(
                ErrorKind::NotPresent,
                &site,
                format!(
                    "{} is not present on device {} (host_data use_device)",
                    site.what(host as usize, 0)
                        .replace(" (0 bytes", " (address"),
                    d.label
                ),
            ));
        }
        Ok(dev as *mut c_void)
    })
}

/// A kernel launch.
#[no_mangle]
pub unsafe extern "C" fn acc_rt_launch(
    kernel: *const AccRtKernel,
    config: *const AccRtConfig,
    args: *const AccRtArg,
    nargs: usize,
    reds: *const AccRtReduction,
    nreds: usize,
) {
    guard("acc_rt_launch", || {
        // SAFETY: generated code passes valid descriptors that live across the call.
        let (k, cfg) = unsafe { (&*kernel, &*config) };
        // SAFETY: the descriptor's strings are null or NUL-terminated literals.
        let site = Site {
            routine: "acc_rt_launch",
            ..unsafe { Site::c(k.file, k.line, k.name) }
        };
        let d = runtime::current(&site)?;
        let q = queue_sel(cfg.async_arg, &site)?;
        if !prof::active() {
            // SAFETY: forwarded from the caller.
            return unsafe { launch_on(d, k, cfg, args, nargs, reds, nreds, q, &site) };
        }
        // A compute construct whose file registered no site table (code not from acc cc)
        // has its construct events here, around the launch.
        let at = d.prof_origin(q, &site);
        let construct = Some(prof::construct_of_kernel(
            // SAFETY: the kernel's name is null or a NUL-terminated literal.
            (!k.name.is_null()).then(|| unsafe { CStr::from_ptr(k.name) }),
        ))
        .filter(|_| prof::site_construct(&site).is_none());
        if let Some(c) = construct {
            prof::other(prof::Event::ComputeConstructStart, &at, Some(c));
        }
        // SAFETY: forwarded from the caller.
        let done = unsafe { launch_on(d, k, cfg, args, nargs, reds, nreds, q, &site) };
        if let Some(c) = construct {
            prof::other(prof::Event::ComputeConstructEnd, &at, Some(c));
        }
        done
    })
}

/// The launch itself, between the profiling events of [`acc_rt_launch`].
///
/// # Safety
/// As for [`acc_rt_launch`].
#[allow(clippy::too_many_arguments)]
unsafe fn launch_on(
    d: &'static runtime::DeviceState,
    k: &AccRtKernel,
    cfg: &AccRtConfig,
    args: *const AccRtArg,
    nargs: usize,
    reds: *const AccRtReduction,
    nreds: usize,
    q: QueueSel,
    site: &Site<'_>,
) -> Result<()> {
    let site = *site;
    {
        let raw_args = if args.is_null() || nargs == 0 {
            &[][..]
        } else {
            // SAFETY: generated code passes `nargs` argument descriptors.
            unsafe { std::slice::from_raw_parts(args, nargs) }
        };
        let mut a = Vec::with_capacity(raw_args.len());
        for r in raw_args {
            let asite = site.with_var(Text::C(r.text));
            a.push(match r.kind {
                ACC_RT_ARG_MAPPED => Arg::Mapped {
                    host: r.host as usize,
                    bytes: r.bytes,
                    site: asite,
                },
                ACC_RT_ARG_NO_CREATE => Arg::MappedOrHost {
                    host: r.host as usize,
                    bytes: r.bytes,
                },
                ACC_RT_ARG_DEVICEPTR => Arg::DevicePtr(r.host as usize),
                ACC_RT_ARG_POINTER => Arg::Pointer {
                    host: r.host as usize,
                    // SAFETY: generated code passes a NUL-terminated text or null.
                    site: site.with_var(Text::C(r.text)),
                },
                ACC_RT_ARG_VALUE => Arg::Value {
                    ptr: r.host as usize,
                    bytes: r.bytes,
                },
                ACC_RT_ARG_PRIVATE | ACC_RT_ARG_FIRSTPRIVATE if !r.host.is_null() => {
                    let section = r.host as *const usize;
                    // SAFETY: for these kinds generated code passes the address of two words:
                    // the section's host address and its size in bytes.
                    let (host, bytes) = unsafe { (*section, *section.add(1)) };
                    Arg::PrivateSection {
                        host,
                        bytes,
                        first: r.kind == ACC_RT_ARG_FIRSTPRIVATE,
                    }
                }
                other => {
                    return Err(Error::new(
                        ErrorKind::InvalidArgument,
                        &asite,
                        format!("unknown kernel argument kind {other}"),
                    ))
                }
            });
        }
        let raw_reds = if reds.is_null() || nreds == 0 {
            &[][..]
        } else {
            // SAFETY: generated code passes `nreds` reduction descriptors.
            unsafe { std::slice::from_raw_parts(reds, nreds) }
        };
        let mut rs = Vec::with_capacity(raw_reds.len());
        for r in raw_reds {
            let rsite = site.with_var(Text::C(r.text));
            if r.ty == ACC_RT_TYPE_CUSTOM {
                let (Some(init), Some(combine)) = (r.init, r.combine) else {
                    return Err(Error::new(
                        ErrorKind::InvalidArgument,
                        &rsite,
                        "a custom reduction needs its init and combine functions".to_string(),
                    ));
                };
                if r.size == 0 {
                    return Err(Error::new(
                        ErrorKind::InvalidArgument,
                        &rsite,
                        "a custom reduction needs its element size".to_string(),
                    ));
                }
                rs.push(Reduction {
                    op: reduce::Op::Add,
                    ty: reduce::Type::U8,
                    var: r.var as usize,
                    count: r.count.max(1),
                    kernel_sets_slots: false,
                    custom: Some(crate::runtime::CustomReduction {
                        size: r.size,
                        init,
                        combine,
                    }),
                    site: rsite,
                });
                continue;
            }
            let (Some(op), Some(ty)) = (reduce::Op::from_code(r.op), reduce::Type::from_code(r.ty))
            else {
                return Err(Error::new(
                    ErrorKind::InvalidArgument,
                    &rsite,
                    format!("unknown reduction operator {} or type {}", r.op, r.ty),
                ));
            };
            rs.push(Reduction {
                op,
                ty,
                var: r.var as usize,
                count: r.count.max(1),
                custom: None,
                kernel_sets_slots: r.count == 0,
                site: rsite,
            });
        }
        let geom = Geometry {
            iterations: cfg.iterations,
            num_gangs: cfg.num_gangs,
            num_workers: cfg.num_workers,
            vector_length: cfg.vector_length,
        };
        let name = Text::C(k.name).to_string_lossy().unwrap_or_default();
        if d.device.cuda().is_some() {
            if k.cuda_source.is_null() || k.cuda_entry.is_null() {
                return Err(Error::new(
                    ErrorKind::NoDevice,
                    &site,
                    format!(
                        "kernel '{name}' was compiled without a CUDA version, so it cannot run \
                         on device {} (`acc cc --info` says why; a compiler other than acc cc \
                         makes none); run it with ACC_DEVICE_TYPE=host",
                        d.label
                    ),
                ));
            }
            // SAFETY: generated code passes NUL-terminated literals that live for the program.
            let entry = unsafe { Text::C(k.cuda_entry).as_str() }.ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidArgument,
                    &site,
                    format!("kernel '{name}': its CUDA entry name is not UTF-8"),
                )
            })?;
            let file = Text::C(k.file).to_string_lossy().unwrap_or_default();
            let ck = runtime::CudaKernel {
                name: &name,
                file: &file,
                line: k.line.max(0) as u32,
                source: Text::C(k.cuda_source),
                entry,
                key: (k.cuda_source as usize, k.cuda_entry as usize),
                lanes: crate::device::cuda::Lanes::from_code(k.cuda_lanes),
            };
            // SAFETY: generated code's CUDA kernel follows the parameter convention of
            // acc_rt.h, and its value arguments and reduction variables are valid as the
            // header requires.
            return unsafe { d.launch_cuda(&ck, geom, &a, &rs, q, &site) };
        }
        let Some(f) = k.host_fn else {
            return Err(Error::new(
                ErrorKind::NoDevice,
                &site,
                format!(
                    "kernel '{name}' has no host function for device {}",
                    d.label
                ),
            ));
        };
        // SAFETY: generated code's kernel follows the chunk layout of acc_rt.h, and its value
        // arguments and reduction variables are valid as the header requires.
        unsafe { d.launch(f, geom, &a, &rs, q, &site) }
    }
}

/// `acc_rt_data_info`: the constant part of a data clause item (the compact calls).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AccRtDataInfo {
    pub action: u32,
    pub flags: u32,
    pub text: *const c_char,
}

/// `acc_rt_arg_info`: the constant part of a kernel argument.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AccRtArgInfo {
    pub kind: u32,
    pub bytes: usize,
    pub text: *const c_char,
}

/// `acc_rt_reduction_info`: the constant part of a reduction.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AccRtReductionInfo {
    pub op: u32,
    pub ty: u32,
    pub text: *const c_char,
    pub size: usize,
    pub init: Option<unsafe extern "C" fn(*mut c_void, *const c_void)>,
    pub combine: Option<unsafe extern "C" fn(*mut c_void, *const c_void)>,
}

/// The data items of a compact call: constant `info[i]` with `vals[2i]` (the address) and
/// `vals[2i + 1]` (the byte count).
///
/// # Safety
/// `info` has `n` entries and `vals` `2 n`, or `n` is 0.
unsafe fn data_items(
    info: *const AccRtDataInfo,
    vals: *const *mut c_void,
    n: usize,
) -> Vec<AccRtData> {
    if n == 0 || info.is_null() || vals.is_null() {
        return Vec::new();
    }
    // SAFETY: as the caller guarantees.
    let (info, vals) = unsafe {
        (
            std::slice::from_raw_parts(info, n),
            std::slice::from_raw_parts(vals, 2 * n),
        )
    };
    info.iter()
        .enumerate()
        .map(|(i, d)| AccRtData {
            action: d.action,
            flags: d.flags,
            host: vals[2 * i],
            bytes: vals[2 * i + 1] as usize,
            text: d.text,
        })
        .collect()
}

/// [`acc_rt_region_begin`] with the items split into constant and variable parts, so the
/// generated code stores one pointer per address and size instead of five fields an item.
#[no_mangle]
pub unsafe extern "C" fn acc_rt_region_begin_v(
    file: *const c_char,
    line: c_int,
    info: *const AccRtDataInfo,
    vals: *const *mut c_void,
    n: usize,
    async_arg: c_int,
) {
    // SAFETY: generated code passes `n` infos and `2 n` values.
    let items = unsafe { data_items(info, vals, n) };
    // SAFETY: the items are complete data descriptors.
    unsafe { acc_rt_region_begin(file, line, items.as_ptr(), items.len(), async_arg) }
}

/// [`acc_rt_region_end`] for the items of [`acc_rt_region_begin_v`].
#[no_mangle]
pub unsafe extern "C" fn acc_rt_region_end_v(
    file: *const c_char,
    line: c_int,
    info: *const AccRtDataInfo,
    vals: *const *mut c_void,
    n: usize,
    async_arg: c_int,
) {
    // SAFETY: generated code passes `n` infos and `2 n` values.
    let items = unsafe { data_items(info, vals, n) };
    // SAFETY: the items are complete data descriptors.
    unsafe { acc_rt_region_end(file, line, items.as_ptr(), items.len(), async_arg) }
}

/// [`acc_rt_launch`] with the configuration by value and the arguments and reductions split
/// into constant and variable parts: argument `i` is `arg_info[i]` at `arg_vals[i]`;
/// reduction `j` is `red_info[j]` with the variable at `red_vals[2j]` and the element count in
/// `red_vals[2j + 1]`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn acc_rt_launch_v(
    kernel: *const AccRtKernel,
    iterations: i64,
    num_gangs: i32,
    num_workers: i32,
    vector_length: i32,
    async_arg: c_int,
    arg_info: *const AccRtArgInfo,
    arg_vals: *const *mut c_void,
    nargs: usize,
    red_info: *const AccRtReductionInfo,
    red_vals: *const *mut c_void,
    nreds: usize,
) {
    let args: Vec<AccRtArg> = if nargs == 0 || arg_info.is_null() || arg_vals.is_null() {
        Vec::new()
    } else {
        // SAFETY: generated code passes `nargs` infos and values.
        let (info, vals) = unsafe {
            (
                std::slice::from_raw_parts(arg_info, nargs),
                std::slice::from_raw_parts(arg_vals, nargs),
            )
        };
        info.iter()
            .zip(vals)
            .map(|(a, &v)| AccRtArg {
                kind: a.kind,
                host: v,
                bytes: a.bytes,
                text: a.text,
            })
            .collect()
    };
    let reds: Vec<AccRtReduction> = if nreds == 0 || red_info.is_null() || red_vals.is_null() {
        Vec::new()
    } else {
        // SAFETY: generated code passes `nreds` infos and `2 nreds` values.
        let (info, vals) = unsafe {
            (
                std::slice::from_raw_parts(red_info, nreds),
                std::slice::from_raw_parts(red_vals, 2 * nreds),
            )
        };
        info.iter()
            .enumerate()
            .map(|(j, r)| AccRtReduction {
                op: r.op,
                ty: r.ty,
                var: vals[2 * j],
                text: r.text,
                count: vals[2 * j + 1] as usize,
                size: r.size,
                init: r.init,
                combine: r.combine,
            })
            .collect()
    };
    let config = AccRtConfig {
        iterations,
        num_gangs,
        num_workers,
        vector_length,
        async_arg,
    };
    // SAFETY: the descriptors are complete; the kernel is the caller's.
    unsafe {
        acc_rt_launch(
            kernel,
            &config,
            args.as_ptr(),
            args.len(),
            reds.as_ptr(),
            reds.len(),
        )
    }
}

/// Installs a function the error path calls with the message before the process exits.
#[no_mangle]
pub unsafe extern "C" fn acc_rt_set_error_handler(
    handler: Option<unsafe extern "C" fn(*const c_char, *mut c_void)>,
    user: *mut c_void,
) {
    guard("acc_rt_set_error_handler", || {
        crate::error::set_handler(handler, user);
        Ok(())
    })
}

/// Whether the current device shares the host's memory (generated code may skip data calls).
#[no_mangle]
pub extern "C" fn acc_rt_shared_memory() -> c_int {
    guard("acc_rt_shared_memory", || {
        Ok(runtime::current(&Site::routine("acc_rt_shared_memory"))?
            .device
            .shares_host_memory() as c_int)
    })
}

/// The one lock of `atomic` constructs on the CPU devices: generated code
/// brackets the atomic statement with `acc_rt_atomic_begin/end`. One
/// process-wide lock keeps every form (capture blocks included) atomic
/// with respect to every other, whichever translation unit it is in.
static ATOMIC_LOCK: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `acc_rt_global`: where a `routine` function finds a file-scope variable (see
/// `runtime::kernel_global`).
#[no_mangle]
pub extern "C" fn acc_rt_global(host: *mut c_void) -> *mut c_void {
    runtime::kernel_global(host as usize) as *mut c_void
}

/// Takes the atomic lock (spinning, then yielding: atomic sections are a
/// few instructions long).
#[no_mangle]
pub extern "C" fn acc_rt_atomic_begin() {
    use std::sync::atomic::Ordering;
    let mut spins = 0u32;
    while ATOMIC_LOCK
        .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        spins += 1;
        if spins < 64 {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
}

/// Releases the atomic lock.
#[no_mangle]
pub extern "C" fn acc_rt_atomic_end() {
    ATOMIC_LOCK.store(false, std::sync::atomic::Ordering::Release);
}
