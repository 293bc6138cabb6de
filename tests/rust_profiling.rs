//! Profiling events of Rust kernels: a callback registered through the C interface
//! (`acc_prof.h`) sees an `#[acc::parallel]` function's construct, its data and its launch,
//! with the Rust file, line and function.

use std::ffi::{c_char, c_int, CStr};
use std::sync::Mutex;

#[acc::parallel(copyin(x) copy(y))]
fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
    #[acc(loop gang vector)]
    for i in 0..y.len() {
        y[i] += a * x[i];
    }
}

/// `acc_prof_info` as `acc_prof.h` lays it out.
#[repr(C)]
struct ProfInfo {
    event_type: c_int,
    valid_bytes: c_int,
    version: c_int,
    device_type: c_int,
    device_number: c_int,
    thread_id: c_int,
    async_: i64,
    async_queue: i64,
    src_file: *const c_char,
    func_name: *const c_char,
    line_no: c_int,
    end_line_no: c_int,
    func_line_no: c_int,
    func_end_line_no: c_int,
}

/// The common head of `acc_event_info`, then the data event's fields.
#[repr(C)]
struct EventHead {
    event_type: c_int,
    valid_bytes: c_int,
    parent_construct: c_int,
    implicit: c_int,
    tool_info: *mut std::ffi::c_void,
    var_name: *const c_char,
    bytes: usize,
}

type Callback = unsafe extern "C" fn(*mut ProfInfo, *mut EventHead, *mut std::ffi::c_void);

extern "C" {
    fn acc_prof_register(event: c_int, cb: Option<Callback>, info: c_int);
    fn acc_prof_unregister(event: c_int, cb: Option<Callback>, info: c_int);
}

/// (event, line, construct, function, file, variable, bytes, function's lines) of each event.
type Seen = (
    c_int,
    c_int,
    c_int,
    String,
    String,
    String,
    usize,
    (c_int, c_int),
);
static SEEN: Mutex<Vec<Seen>> = Mutex::new(Vec::new());

fn text(p: *const c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: the runtime passes NUL-terminated strings.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

unsafe extern "C" fn record(info: *mut ProfInfo, event: *mut EventHead, _: *mut std::ffi::c_void) {
    // SAFETY: the runtime passes valid structs for the call.
    let (i, e) = unsafe { (&*info, &*event) };
    let data = (6..=9).contains(&i.event_type) || (20..=23).contains(&i.event_type);
    SEEN.lock().unwrap().push((
        i.event_type,
        i.line_no,
        e.parent_construct,
        text(i.func_name),
        text(i.src_file),
        if data {
            text(e.var_name)
        } else {
            String::new()
        },
        if data { e.bytes } else { 0 },
        (i.func_line_no, i.func_end_line_no),
    ));
}

#[test]
fn a_rust_kernel_raises_its_construct_data_and_launch_events() {
    acc::set_device_type(acc::DeviceType::HostDiscrete);
    let x = vec![1.0f32; 100];
    let mut y = vec![2.0f32; 100];
    // SAFETY: `record` has the callback type; it is unregistered before the test ends.
    unsafe {
        for ev in 1..26 {
            acc_prof_register(ev, Some(record), 0);
        }
    }
    saxpy(3.0, &x, &mut y);
    // SAFETY: as above.
    unsafe {
        for ev in 1..26 {
            acc_prof_unregister(ev, Some(record), 0);
        }
    }
    assert!(y.iter().all(|&v| v == 5.0));
    let seen = SEEN.lock().unwrap().clone();
    let events: Vec<c_int> = seen.iter().map(|s| s.0).filter(|&e| e > 5).collect();
    // compute start, entry (x and y: alloc, create, upload each), launch, exit (y's download,
    // then each one's delete and free), compute end.
    assert_eq!(
        events,
        [16, 10, 8, 6, 20, 21, 8, 6, 20, 21, 11, 18, 19, 12, 22, 23, 7, 9, 7, 9, 13, 17],
        "{seen:?}"
    );
    for s in seen.iter().filter(|s| s.0 > 5) {
        assert!(s.4.ends_with("rust_profiling.rs"), "{s:?}");
        assert!(s.1 > 0, "{s:?}");
        assert_eq!(s.2, 0, "parallel: {s:?}");
    }
    let region = seen.iter().find(|s| s.0 == 16).unwrap();
    assert_eq!(region.3, "saxpy", "{seen:?}");
    // `fn saxpy` stands on line 9 of this file, its closing brace on line 14.
    assert_eq!(region.7, (9, 14), "{seen:?}");
    let upload = seen.iter().find(|s| s.0 == 20).unwrap();
    assert_eq!((upload.5.as_str(), upload.6), ("x", 400), "{seen:?}");
}
