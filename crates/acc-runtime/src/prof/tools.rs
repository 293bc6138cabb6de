//! acc's own profiling tools, each a client of the profiling interface like any library
//! (registered through `acc_prof_register` when its variable is set):
//!
//! - `ACC_NOTIFY=mask`: a line on stderr as each launch (1), upload or download (2), region
//!   entry or exit (4), wait (8) or device allocation or free (16) happens;
//! - `ACC_TIME=1`: at exit, a summary per source construct — times reached, kernel launches
//!   with their time, data moved per direction and variable, time waiting — per function,
//!   the costliest first;
//! - `ACC_TRACE=path.json`: at exit, a trace in the Chrome trace-event format (Perfetto,
//!   `chrome://tracing`): one track per host thread and one per async queue, with kernels,
//!   transfers, waits and data regions as slices carrying their source location and bytes.
//!
//! Times are host-side: from a start event to its end. A synchronous operation's end comes
//! after it ran; an asynchronous one's when it was queued, so its slice shows the enqueue.

use std::collections::HashMap;
use std::ffi::{c_int, CStr};
use std::fmt::Write as _;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use super::{acc_prof_register, ApiInfo, Callback, Event, EventInfo, ProfInfo};

/// Registers the tools the environment asks for; called once, as the runtime starts.
pub fn register_from_env() {
    let set = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    if let Some(mask) = set("ACC_NOTIFY") {
        match parse_mask(&mask) {
            Some(mask) => {
                NOTIFY_MASK.get_or_init(|| mask);
                register_all(notify);
            }
            None => eprintln!(
                "acc: warning: ACC_NOTIFY={mask}: expected a number (1 launches, 2 transfers, \
                 4 regions, 8 waits, 16 allocations; their sum for several)"
            ),
        }
    }
    if set("ACC_TIME").is_some_and(|v| v.trim() != "0") {
        register_all(time);
    }
    if let Some(path) = set("ACC_TRACE") {
        TRACE_PATH.get_or_init(|| path);
        register_all(trace);
    }
}

fn parse_mask(s: &str) -> Option<u32> {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

fn register_all(cb: Callback) {
    for ev in Event::ALL {
        // SAFETY: `cb` is an `acc_prof_callback`.
        unsafe { acc_prof_register(ev as c_int, Some(cb), 0) };
    }
}

/// What one event says, read out of the C structs.
struct Seen {
    event: Event,
    file: String,
    func: String,
    line: i32,
    device: String,
    thread: i32,
    /// `None`: synchronous.
    queue: Option<i64>,
    construct: i32,
    var: String,
    bytes: usize,
    kernel: String,
    gangs: usize,
    workers: usize,
    vector: usize,
}

fn text(p: *const std::ffi::c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: the runtime passes null or NUL-terminated strings that live across the call.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// Reads a callback's arguments.
///
/// # Safety
/// The pointers are the runtime's, valid for the call, with the event info of the event's kind.
unsafe fn seen(info: *mut ProfInfo, event: *mut EventInfo) -> Option<Seen> {
    // SAFETY: guaranteed by the caller.
    let (info, event) = unsafe { (&*info, &*event) };
    let ev = Event::from_code(info.event_type)?;
    use crate::api::{ACC_DEVICE_HOST, ACC_DEVICE_HOST_DISCRETE, ACC_DEVICE_NVIDIA};
    let device = match info.device_type {
        ACC_DEVICE_HOST => "host",
        ACC_DEVICE_NVIDIA => "nvidia",
        ACC_DEVICE_HOST_DISCRETE => "host_discrete",
        _ => "device",
    };
    let mut s = Seen {
        event: ev,
        file: text(info.src_file),
        func: text(info.func_name),
        line: info.line_no,
        device: format!("{device} {}", info.device_number),
        thread: info.thread_id,
        queue: (info.async_queue >= 0).then_some(info.async_queue),
        // SAFETY: every member of the union starts with the same three fields.
        construct: unsafe { event.other_event.parent_construct },
        var: String::new(),
        bytes: 0,
        kernel: String::new(),
        gangs: 0,
        workers: 0,
        vector: 0,
    };
    use Event::*;
    match ev {
        Create | Delete | Alloc | Free | EnqueueUploadStart | EnqueueUploadEnd
        | EnqueueDownloadStart | EnqueueDownloadEnd => {
            // SAFETY: data events carry `acc_data_event_info`.
            let d = unsafe { event.data_event };
            s.var = text(d.var_name);
            s.bytes = d.bytes;
        }
        EnqueueLaunchStart | EnqueueLaunchEnd => {
            // SAFETY: launch events carry `acc_launch_event_info`.
            let l = unsafe { event.launch_event };
            s.kernel = text(l.kernel_name);
            (s.gangs, s.workers, s.vector) = (l.num_gangs, l.num_workers, l.vector_length);
        }
        _ => {}
    }
    Some(s)
}

/// Microseconds since the first event.
fn now_us() -> f64 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e6
}

thread_local! {
    /// Each tool's open start events on this thread, innermost last: (tool, start event, line,
    /// time).
    static OPEN: std::cell::RefCell<Vec<(u8, Event, i32, f64)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The time `tool` saw the latest open `start` event on this thread (at `line`, if given),
/// which it closes.
fn close(tool: u8, start: Event, line: Option<i32>) -> Option<f64> {
    OPEN.try_with(|open| {
        let mut open = open.borrow_mut();
        let i = open
            .iter()
            .rposition(|o| o.0 == tool && o.1 == start && line.is_none_or(|l| o.2 == l))?;
        Some(open.remove(i).3)
    })
    .ok()
    .flatten()
}

/// For an end event: the time its start was seen by `tool` on this thread.
fn started(tool: u8, ev: Event) -> Option<f64> {
    close(tool, ev.start()?, None)
}

fn open(tool: u8, ev: Event, line: i32, at: f64) {
    let _ = OPEN.try_with(|open| open.borrow_mut().push((tool, ev, line, at)));
}

fn opened(tool: u8, ev: Event, at: f64) {
    if ev.is_start() {
        open(tool, ev, 0, at);
    }
}

// ---- ACC_NOTIFY --------------------------------------------------------------------------

static NOTIFY_MASK: OnceLock<u32> = OnceLock::new();

fn where_(s: &Seen) -> String {
    let queue = s.queue.map_or("sync".to_string(), |q| q.to_string());
    format!(
        "file={} function={} line={} device={} queue={queue} threadid={}",
        if s.file.is_empty() { "-" } else { &s.file },
        if s.func.is_empty() { "-" } else { &s.func },
        s.line,
        s.device.replace(' ', ":"),
        s.thread
    )
}

unsafe extern "C" fn notify(info: *mut ProfInfo, event: *mut EventInfo, _: *mut ApiInfo) {
    // SAFETY: the runtime calls callbacks with valid arguments.
    let Some(s) = (unsafe { seen(info, event) }) else {
        return;
    };
    let mask = NOTIFY_MASK.get().copied().unwrap_or(0);
    use Event::*;
    let line = match s.event {
        EnqueueLaunchStart if mask & 1 != 0 => format!(
            "launch kernel '{}' {} num_gangs={} num_workers={} vector_length={}",
            s.kernel,
            where_(&s),
            s.gangs,
            s.workers,
            s.vector
        ),
        EnqueueUploadStart if mask & 2 != 0 => {
            format!("upload {} variable={} bytes={}", where_(&s), s.var, s.bytes)
        }
        EnqueueDownloadStart if mask & 2 != 0 => {
            format!(
                "download {} variable={} bytes={}",
                where_(&s),
                s.var,
                s.bytes
            )
        }
        // Regions: a compute construct's own data clauses are part of it.
        ComputeConstructStart if mask & 4 != 0 => {
            format!("enter {} {}", construct_name(s.construct), where_(&s))
        }
        ComputeConstructEnd if mask & 4 != 0 => {
            format!("leave {} {}", construct_name(s.construct), where_(&s))
        }
        EnterDataStart if mask & 4 != 0 && s.construct == 3 => {
            format!("enter data region {}", where_(&s))
        }
        ExitDataEnd if mask & 4 != 0 && s.construct == 3 => {
            format!("leave data region {}", where_(&s))
        }
        EnterDataStart if mask & 4 != 0 && s.construct == 4 => format!("enter data {}", where_(&s)),
        ExitDataStart if mask & 4 != 0 && s.construct == 5 => format!("exit data {}", where_(&s)),
        UpdateStart if mask & 4 != 0 => format!("update {}", where_(&s)),
        WaitStart if mask & 8 != 0 => format!("wait {}", where_(&s)),
        Alloc if mask & 16 != 0 => {
            format!("alloc {} variable={} bytes={}", where_(&s), s.var, s.bytes)
        }
        Free if mask & 16 != 0 => {
            format!("free {} variable={} bytes={}", where_(&s), s.var, s.bytes)
        }
        _ => return,
    };
    eprintln!("acc: {line}");
}

fn construct_name(code: i32) -> &'static str {
    match code {
        0 => "compute region (parallel)",
        1 => "compute region (kernels)",
        16 => "compute region (serial)",
        3 => "data region",
        4 => "enter data",
        5 => "exit data",
        12 => "update",
        14 => "wait",
        _ => "runtime call",
    }
}

// ---- ACC_TIME ----------------------------------------------------------------------------

/// Count, total, least and most of some microseconds.
#[derive(Clone, Copy, Default)]
struct Stats {
    count: u64,
    total: f64,
    min: f64,
    max: f64,
}

impl Stats {
    fn add(&mut self, us: f64) {
        if self.count == 0 || us < self.min {
            self.min = us;
        }
        self.max = self.max.max(us);
        self.count += 1;
        self.total += us;
    }
}

/// One source construct's figures.
#[derive(Default)]
struct ConstructTime {
    construct: i32,
    reached: u64,
    /// Kernel name → launch times and the gangs of the last launch.
    kernels: Vec<(String, Stats, usize)>,
    /// ("upload"/"download", variable) → transfer times and bytes.
    transfers: Vec<(&'static str, String, Stats, u64)>,
    wait: Stats,
}

impl ConstructTime {
    fn time(&self) -> f64 {
        self.kernels.iter().map(|k| k.1.total).sum::<f64>()
            + self.transfers.iter().map(|t| t.2.total).sum::<f64>()
            + self.wait.total
    }
}

/// (file, function, line) → the construct there.
type Times = HashMap<(String, String, i32), ConstructTime>;
static TIMES: Mutex<Option<Times>> = Mutex::new(None);

unsafe extern "C" fn time(info: *mut ProfInfo, event: *mut EventInfo, _: *mut ApiInfo) {
    // SAFETY: the runtime calls callbacks with valid arguments.
    let Some(s) = (unsafe { seen(info, event) }) else {
        return;
    };
    let at = now_us();
    if s.event == Event::RuntimeShutdown {
        print_times();
        return;
    }
    opened(1, s.event, at);
    let took = started(1, s.event).map(|t0| at - t0);
    let mut times = TIMES.lock().unwrap_or_else(|e| e.into_inner());
    let c = times
        .get_or_insert_with(HashMap::new)
        .entry((s.file.clone(), s.func.clone(), s.line))
        .or_default();
    use Event::*;
    let reached = match s.event {
        ComputeConstructStart | UpdateStart | WaitStart => true,
        // A compute construct's own data clauses are part of it.
        EnterDataStart => matches!(s.construct, 3 | 4),
        ExitDataStart => s.construct == 5,
        _ => false,
    };
    if reached {
        c.reached += 1;
        c.construct = s.construct;
    }
    match (s.event, took) {
        (EnqueueLaunchEnd, Some(us)) => match c.kernels.iter_mut().find(|k| k.0 == s.kernel) {
            Some(k) => {
                k.1.add(us);
                k.2 = s.gangs;
            }
            None => {
                let mut st = Stats::default();
                st.add(us);
                c.kernels.push((s.kernel, st, s.gangs));
            }
        },
        (EnqueueUploadEnd | EnqueueDownloadEnd, Some(us)) => {
            let dir = if s.event == EnqueueUploadEnd {
                "upload"
            } else {
                "download"
            };
            match c.transfers.iter_mut().find(|t| t.0 == dir && t.1 == s.var) {
                Some(t) => {
                    t.2.add(us);
                    t.3 += s.bytes as u64;
                }
                None => {
                    let mut st = Stats::default();
                    st.add(us);
                    c.transfers.push((dir, s.var, st, s.bytes as u64));
                }
            }
        }
        (WaitEnd, Some(us)) => c.wait.add(us),
        _ => {}
    }
}

fn print_times() {
    let times = TIMES.lock().unwrap_or_else(|e| e.into_inner()).take();
    let Some(times) = times else { return };
    // function (file, name) → its constructs, the costliest function first.
    let mut funcs: HashMap<(String, String), Vec<(i32, ConstructTime)>> = HashMap::new();
    for ((file, func, line), c) in times {
        if line > 0 {
            funcs.entry((file, func)).or_default().push((line, c));
        }
    }
    let mut funcs: Vec<_> = funcs.into_iter().collect();
    let total = |cs: &[(i32, ConstructTime)]| cs.iter().map(|c| c.1.time()).sum::<f64>();
    funcs.sort_by(|a, b| total(&b.1).total_cmp(&total(&a.1)).then(a.0.cmp(&b.0)));
    let mut out = String::from("\nacc: time per construct (ACC_TIME; times in microseconds)\n");
    for ((file, func), mut cs) in funcs {
        cs.sort_by(|a, b| b.1.time().total_cmp(&a.1.time()).then(a.0.cmp(&b.0)));
        let func = if func.is_empty() { "-" } else { &func };
        let _ = writeln!(out, "{file}: {func}: time {:.0}", total(&cs));
        for (line, c) in &cs {
            let _ = writeln!(
                out,
                "  {line}: {} reached {} time{}",
                construct_name(c.construct),
                c.reached,
                if c.reached == 1 { "" } else { "s" }
            );
            for (name, st, gangs) in &c.kernels {
                let _ = writeln!(
                    out,
                    "    {line}: kernel '{name}' launched {} time{}, gangs {gangs}: total {:.0} max {:.0} min {:.0} avg {:.0}",
                    st.count,
                    if st.count == 1 { "" } else { "s" },
                    st.total,
                    st.max,
                    st.min,
                    st.total / st.count as f64
                );
            }
            for (dir, var, st, bytes) in &c.transfers {
                let _ = writeln!(
                    out,
                    "    {line}: {dir} of {var}: {} transfer{}, {bytes} bytes: total {:.0} max {:.0} min {:.0}",
                    st.count,
                    if st.count == 1 { "" } else { "s" },
                    st.total,
                    st.max,
                    st.min
                );
            }
            if c.wait.count > 0 {
                let _ = writeln!(
                    out,
                    "    {line}: waited {} time{}: total {:.0} max {:.0}",
                    c.wait.count,
                    if c.wait.count == 1 { "" } else { "s" },
                    c.wait.total,
                    c.wait.max
                );
            }
        }
    }
    eprint!("{out}");
}

// ---- ACC_TRACE ---------------------------------------------------------------------------

static TRACE_PATH: OnceLock<String> = OnceLock::new();

/// One finished slice of the trace.
struct Slice {
    name: String,
    category: &'static str,
    start: f64,
    duration: f64,
    /// The track: a host thread, or an async queue.
    track: Track,
    args: Vec<(&'static str, String)>,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Track {
    Thread(i32),
    Queue(i64),
}

static SLICES: Mutex<Vec<Slice>> = Mutex::new(Vec::new());

unsafe extern "C" fn trace(info: *mut ProfInfo, event: *mut EventInfo, _: *mut ApiInfo) {
    // SAFETY: the runtime calls callbacks with valid arguments.
    let Some(s) = (unsafe { seen(info, event) }) else {
        return;
    };
    let at = now_us();
    if s.event == Event::RuntimeShutdown {
        write_trace();
        return;
    }
    opened(2, s.event, at);
    use Event::*;
    // A data region's lifetime, from its entry's start to its exit's end (tool 3's marks).
    if s.event == EnterDataStart && s.construct == 3 {
        open(3, EnterDataStart, s.line, at);
    }
    let region = (s.event == ExitDataEnd && s.construct == 3)
        .then(|| close(3, EnterDataStart, Some(s.line)))
        .flatten();
    let Some(start) = started(2, s.event) else {
        return;
    };
    if let Some(region_start) = region {
        push_slice(
            &s,
            format!("data region line {}", s.line),
            "region",
            region_start,
            at,
        );
    }
    let (name, category) = match s.event {
        EnqueueLaunchEnd => (format!("kernel {}", s.kernel), "kernel"),
        EnqueueUploadEnd => (format!("upload {}", s.var), "upload"),
        EnqueueDownloadEnd => (format!("download {}", s.var), "download"),
        WaitEnd => ("wait".to_string(), "wait"),
        ComputeConstructEnd | UpdateEnd => (
            format!("{} line {}", construct_name(s.construct), s.line),
            "region",
        ),
        EnterDataEnd if s.construct == 4 => (format!("enter data line {}", s.line), "region"),
        ExitDataEnd if s.construct == 5 => (format!("exit data line {}", s.line), "region"),
        // The data clauses of a region or a compute construct, at its entry and its exit.
        EnterDataEnd => (format!("data entry line {}", s.line), "data"),
        ExitDataEnd => (format!("data exit line {}", s.line), "data"),
        DeviceInitEnd => ("device start-up".to_string(), "device"),
        DeviceShutdownEnd => ("device shutdown".to_string(), "device"),
        _ => return,
    };
    push_slice(&s, name, category, start, at);
}

/// Records one slice of the trace: an operation on an async queue on that queue's track,
/// anything else on its host thread's.
fn push_slice(s: &Seen, name: String, category: &'static str, start: f64, end: f64) {
    let track = match (s.queue, category) {
        (Some(q), "kernel" | "upload" | "download") => Track::Queue(q),
        _ => Track::Thread(s.thread),
    };
    let mut args = vec![("file", s.file.clone()), ("line", s.line.to_string())];
    if !s.func.is_empty() {
        args.push(("function", s.func.clone()));
    }
    if category == "upload" || category == "download" {
        args.push(("bytes", s.bytes.to_string()));
    }
    if category == "kernel" {
        args.push(("num_gangs", s.gangs.to_string()));
    }
    args.push(("device", s.device.clone()));
    SLICES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(Slice {
            name,
            category,
            start,
            duration: end - start,
            track,
            args,
        });
}

/// A JSON string literal.
fn json(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn write_trace() {
    let Some(path) = TRACE_PATH.get() else { return };
    let slices = std::mem::take(&mut *SLICES.lock().unwrap_or_else(|e| e.into_inner()));
    let mut tracks: Vec<Track> = slices.iter().map(|s| s.track).collect();
    tracks.sort();
    tracks.dedup();
    let tid = |t: Track| match t {
        Track::Thread(n) => n as i64,
        Track::Queue(q) => 1_000_000 + q,
    };
    let mut events = Vec::new();
    for t in &tracks {
        let name = match t {
            Track::Thread(n) => format!("host thread {n}"),
            Track::Queue(q) => format!("async queue {q}"),
        };
        events.push(format!(
            "{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":{},\"args\":{{\"name\":{}}}}}",
            tid(*t),
            json(&name)
        ));
    }
    for s in &slices {
        let args: Vec<String> = s
            .args
            .iter()
            .map(|(k, v)| format!("{}:{}", json(k), json(v)))
            .collect();
        events.push(format!(
            "{{\"ph\":\"X\",\"name\":{},\"cat\":{},\"ts\":{:.3},\"dur\":{:.3},\"pid\":1,\"tid\":{},\"args\":{{{}}}}}",
            json(&s.name),
            json(s.category),
            s.start,
            s.duration,
            tid(s.track),
            args.join(",")
        ));
    }
    let text = format!("{{\"traceEvents\":[\n{}\n]}}\n", events.join(",\n"));
    if let Err(e) = std::fs::write(path, text) {
        eprintln!("acc: warning: ACC_TRACE: cannot write {path}: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_are_decimal_or_hex() {
        assert_eq!(parse_mask("3"), Some(3));
        assert_eq!(parse_mask(" 0x1f "), Some(31));
        assert_eq!(parse_mask("all"), None);
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json("a\"b\\c\nd"), "\"a\\\"b\\\\c\\u000ad\"");
    }
}
