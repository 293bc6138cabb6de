//! The entry points compiler-generated code calls, declared in `include/acc_rt.h`: structured
//! and dynamic data regions with clause descriptors, updates, waits, and kernel launches with a
//! kernel descriptor, arguments and reductions. The C front end's outlined code and the Rust
//! macros both call only these; the header is their documentation.
//!
//! This module holds the data-clause entry points (clause descriptors, jagged arrays' rows,
//! regions, `enter`/`exit data`, `update`, `wait`, `host_data`) and the small ones (error
//! handler, atomics' lock, `acc_rt_global`); `launch` holds the kernel launches. Both only
//! translate descriptors and call `runtime`, and end every error in `error::fatal`; the
//! `#[no_mangle]` symbols are the C ABI, whichever file defines them.
// Generated code upholds the header's contracts; see the module docs of `api` for the rationale.
#![allow(clippy::missing_safety_doc)]

use crate::error::{Error, ErrorKind, Result, Site, Text};
use crate::ffi::guard;
use crate::present::Counter;
use crate::prof;
use crate::queue::QueueSel;
use crate::runtime::{self, queue_sel, Action, DeviceState, Flags};
use std::ffi::{c_char, c_int, c_void};

mod launch;

pub use launch::{
    acc_rt_launch, acc_rt_launch_v, AccRtArg, AccRtArgInfo, AccRtConfig, AccRtKernel,
    AccRtReduction, AccRtReductionInfo, ACC_RT_ARG_DEVICEPTR, ACC_RT_ARG_FIRSTPRIVATE,
    ACC_RT_ARG_MAPPED, ACC_RT_ARG_NO_CREATE, ACC_RT_ARG_POINTER, ACC_RT_ARG_PRIVATE,
    ACC_RT_ARG_VALUE, ACC_RT_TYPE_CUSTOM,
};

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
        // Where each row's section starts past its row pointer (`a[lo:n][k:m]`): the device's
        // row pointer is attached to the device's section less that.
        let offset = row.host as usize;
        let link = |i: usize, action: u32| AccRtData {
            action,
            flags: if offset != 0 && action == ACC_RT_ATTACH {
                SECTION_OFFSET
            } else {
                0
            },
            // SAFETY: `i < count`, inside the row pointers' section.
            host: unsafe { base.add(i) } as *mut c_void,
            bytes: if offset != 0 && action == ACC_RT_ATTACH {
                offset
            } else {
                size_of::<*mut c_void>()
            },
            text: row.text,
        };
        let row_at = |i: usize| AccRtData {
            action: item.action,
            flags: item.flags & !ROWS,
            // SAFETY: the caller guarantees the row pointers are readable, and that each row
            // holds its section.
            host: unsafe { base.add(i).read().cast::<u8>().add(offset) }.cast::<c_void>(),
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

/// A construct's data clauses that name the same memory under two names (`copyin(v[0:n])
/// copyout(r[0:n])` in a function called with one array for both): one clause with the
/// actions of both, copied in if either copies in and out if either copies out. OpenACC 3.3
/// 2.1 makes the clauses' order insignificant; run one by one, it would not be: the first to
/// exit finds the other's reference and skips its copy out, and the second then deletes the
/// data without one (or a `create` first leaves a later `copyin` nothing to copy). Only the
/// copying and creating actions on exactly the same bytes merge; `present` and the rest keep
/// their own checks. Entry and exit merge alike, so the references stay balanced.
fn aliases_merged(items: std::borrow::Cow<'_, [AccRtData]>) -> std::borrow::Cow<'_, [AccRtData]> {
    let mergeable =
        |d: &AccRtData| (1..=4).contains(&d.action) && d.flags & ROWS == 0 && d.bytes > 0;
    let same = |a: &AccRtData, b: &AccRtData| a.host == b.host && a.bytes == b.bytes;
    let any_alias = items
        .iter()
        .enumerate()
        .any(|(i, a)| mergeable(a) && items[i + 1..].iter().any(|b| mergeable(b) && same(a, b)));
    if !any_alias {
        return items;
    }
    let mut out: Vec<AccRtData> = Vec::with_capacity(items.len());
    for item in items.iter() {
        let Some(first) = out
            .iter_mut()
            .find(|o| mergeable(item) && mergeable(o) && same(o, item))
        else {
            out.push(*item);
            continue;
        };
        let copies_in = |a: u32| matches!(a, 1 | 2);
        let copies_out = |a: u32| matches!(a, 1 | 3);
        first.action = match (
            copies_in(first.action) || copies_in(item.action),
            copies_out(first.action) || copies_out(item.action),
        ) {
            (true, true) => 1,
            (true, false) => 2,
            (false, true) => 3,
            (false, false) => 4,
        };
        // The modifiers (`always`, `zero`) of either; implicit only if both are.
        let implicit = Flags::IMPLICIT.0;
        first.flags =
            ((first.flags | item.flags) & !implicit) | (first.flags & item.flags & implicit);
    }
    std::borrow::Cow::Owned(out)
}

/// The action codes of attach and detach (`acc_rt.h`).
const ACC_RT_ATTACH: u32 = 8;
/// `ACC_RT_SECTION_OFFSET`: an attach whose `bytes` is where the section starts past the
/// pointer's target.
const SECTION_OFFSET: u32 = 512;
const ACC_RT_DETACH: u32 = 9;

/// Runs each clause of a region through `step`, with a site naming the clause's variable,
/// between the checking mode's hooks (`check`; nothing when it is off).
fn each(
    routine: &'static str,
    file: *const c_char,
    line: c_int,
    c: *const AccRtData,
    n: usize,
    how: (bool, c_int),
    step: impl Fn(&'static DeviceState, Action, &AccRtData, &Site<'_>) -> Result<()>,
) {
    // Clauses-free and unobserved (a compute construct without data, the common case of a
    // small kernel launched often): nothing to do, and the launch that follows selects the
    // device and reports its errors. The thread's device is known only after the runtime
    // started, and with it the profiling libraries of `ACC_PROFLIB`, so `prof::active` is
    // then the whole answer on whether events are due.
    if n == 0 && !prof::active() && !crate::check::on() && runtime::thread_has_device() {
        return;
    }
    let check = crate::check::on().then(|| {
        // SAFETY: `file` is null or a NUL-terminated string that outlives the call.
        let site = unsafe { Site::c(file, line, std::ptr::null()) };
        // Not a jagged section's rows' descriptor (the item after `ACC_RT_ROWS`' row
        // pointers), which names no memory.
        let all = clauses(c, n);
        let items = all
            .iter()
            .enumerate()
            .filter(|(k, _)| *k == 0 || all[k - 1].flags & ROWS == 0)
            .map(|(_, i)| (i.action, i.flags, i.host as usize, i.bytes));
        crate::check::begin_data(&site, crate::check::track::Kind::Data, items)
    });
    each_item(routine, file, line, c, n, how, step);
    crate::check::end(check.flatten());
}

/// The clauses' actions of [`each`], with the construct's profiling events.
fn each_item(
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
        let items = match routine {
            "acc_rt_region_begin" | "acc_rt_region_end" => aliases_merged(items),
            _ => items,
        };
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
    // SAFETY: `file` is null or a NUL-terminated string that outlives the call.
    let site = Site {
        routine: "acc_rt_wait",
        ..unsafe { Site::c(file, line, std::ptr::null()) }
    };
    let check =
        crate::check::begin_data(&site, crate::check::track::Kind::Wait, std::iter::empty());
    guard("acc_rt_wait", || {
        let d = runtime::current(&site)?;
        let on = (async_arg != runtime::ASYNC_SYNC).then_some(async_arg);
        if n == 0 || queues.is_null() {
            return d.wait_all(on, &site);
        }
        // SAFETY: generated code passes `n` queue numbers.
        let qs = unsafe { std::slice::from_raw_parts(queues, n) };
        qs.iter().try_for_each(|&w| d.wait(w, on, &site))
    });
    crate::check::end(check);
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
                    site.what(host as usize, 0),
                    d.label
                ),
            ));
        }
        Ok(dev as *mut c_void)
    })
}

/// `acc_rt_data_info`: the constant part of a data clause item (the compact calls).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AccRtDataInfo {
    pub action: u32,
    pub flags: u32,
    pub text: *const c_char,
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

#[cfg(test)]
mod tests {
    use super::{aliases_merged, AccRtData};
    use std::borrow::Cow;
    use std::ffi::c_void;

    fn item(action: u32, flags: u32, host: usize, bytes: usize) -> AccRtData {
        AccRtData {
            action,
            flags,
            host: host as *mut c_void,
            bytes,
            text: std::ptr::null(),
        }
    }

    /// Clauses on the same bytes become one with the copies of both; others stay as they are.
    #[test]
    fn clauses_on_the_same_bytes_merge_their_copies() {
        let items = [
            item(2, 0, 0x1000, 64),  // copyin(v)
            item(6, 0, 0x2000, 8),   // present(x): never merged
            item(3, 2, 0x1000, 64),  // copyout(always: r), r == v
            item(4, 64, 0x3000, 16), // create, implicit
            item(2, 0, 0x3000, 16),  // copyin on the created bytes
            item(2, 0, 0x3000, 8),   // other bytes of the same data: not merged
        ];
        let merged = aliases_merged(Cow::Borrowed(&items[..]));
        let seen: Vec<(u32, u32, usize, usize)> = merged
            .iter()
            .map(|d| (d.action, d.flags, d.host as usize, d.bytes))
            .collect();
        assert_eq!(
            seen,
            [
                (1, 2, 0x1000, 64),
                (6, 0, 0x2000, 8),
                (2, 0, 0x3000, 16),
                (2, 0, 0x3000, 8)
            ]
        );
        let apart = [item(1, 0, 0x1000, 8), item(1, 0, 0x2000, 8)];
        assert!(matches!(
            aliases_merged(Cow::Borrowed(&apart[..])),
            Cow::Borrowed(_)
        ));
    }
}
