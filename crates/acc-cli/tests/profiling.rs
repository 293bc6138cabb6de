//! The OpenACC Profiling Interface end to end: a program built by `acc cc` runs with a
//! profiling library of its own (`tests/data/profiling/recorder.c`), loaded through
//! `ACC_PROFLIB` as a shared object and linked into the program, which prints every event with
//! its fields; the tests check the sequence and the fields.

use std::path::{Path, PathBuf};
use std::process::Command;

mod support;
use support::{have_cc, runtime_lib};

const CRATE: &str = env!("CARGO_MANIFEST_DIR");

fn data() -> PathBuf {
    Path::new(CRATE).join("tests/data/profiling")
}

fn include() -> PathBuf {
    Path::new(CRATE).join("../acc-runtime/include")
}

fn work(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("profiling")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run_ok(c: &mut Command) -> String {
    let out = c.output().expect("run");
    assert!(
        out.status.success(),
        "{c:?}: status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `acc cc` the app (and `extra` sources) into `dir/app`.
fn build_app(dir: &Path, extra: &[PathBuf]) -> PathBuf {
    let exe = dir.join("app");
    run_ok(
        Command::new(env!("CARGO_BIN_EXE_acc"))
            .env("ACC_RUNTIME_LIB", runtime_lib())
            .arg("cc")
            .arg("-O1")
            .arg(data().join("app.c"))
            .args(extra)
            .arg("-o")
            .arg(&exe),
    );
    exe
}

/// The recorder as a shared object.
fn build_recorder(dir: &Path) -> PathBuf {
    let so = dir.join("librecorder.so");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    run_ok(
        Command::new(cc)
            .args(["-shared", "-fPIC", "-O1", "-I"])
            .arg(include())
            .arg(data().join("recorder.c"))
            .arg("-o")
            .arg(&so),
    );
    so
}

/// The events' names and lines, in order.
fn events(log: &str) -> Vec<(&str, u32)> {
    log.lines()
        .filter_map(|l| l.strip_prefix("event "))
        .map(|l| {
            let mut w = l.split(' ');
            let name = w.next().unwrap();
            let line = w.nth(1).unwrap().parse().unwrap();
            (name, line)
        })
        .collect()
}

/// The line of the event that is the `k`th of that name.
fn nth<'a>(log: &'a str, name: &str, k: usize) -> &'a str {
    log.lines()
        .filter(|l| l.starts_with(&format!("event {name} ")))
        .nth(k)
        .unwrap_or_else(|| panic!("no {name} number {k} in\n{log}"))
}

/// The data events of one item: allocation, creation and the upload.
const CREATE_AND_UPLOAD: &[&str] = &[
    "alloc",
    "create",
    "enqueue_upload_start",
    "enqueue_upload_end",
];
/// Its download and release.
const DOWNLOAD_AND_DELETE: &[&str] = &[
    "enqueue_download_start",
    "enqueue_download_end",
    "delete",
    "free",
];

/// What a discrete device reports for the app, construct by construct (`(event, line)`), as
/// the specification orders them: a compute construct's data inside its start and end.
fn discrete_events() -> Vec<(&'static str, u32)> {
    let mut e = Vec::new();
    let mut at = |line: u32, names: &[&'static str]| e.extend(names.iter().map(|&n| (n, line)));
    at(0, &["device_init_start", "device_init_end"]);
    // data copy(a[0:n])
    at(11, &["enter_data_start"]);
    at(11, CREATE_AND_UPLOAD);
    at(11, &["enter_data_end"]);
    // parallel loop present(a[0:n])
    at(
        13,
        &[
            "compute_construct_start",
            "enter_data_start",
            "enter_data_end",
        ],
    );
    at(13, &["enqueue_launch_start", "enqueue_launch_end"]);
    at(
        13,
        &["exit_data_start", "exit_data_end", "compute_construct_end"],
    );
    // update self(a[0:n])
    at(
        15,
        &[
            "update_start",
            "enqueue_download_start",
            "enqueue_download_end",
            "update_end",
        ],
    );
    // the data region's end
    at(11, &["exit_data_start"]);
    at(11, DOWNLOAD_AND_DELETE);
    at(11, &["exit_data_end"]);
    // parallel loop with b implicit
    at(18, &["compute_construct_start", "enter_data_start"]);
    at(18, CREATE_AND_UPLOAD);
    at(
        18,
        &[
            "enter_data_end",
            "enqueue_launch_start",
            "enqueue_launch_end",
            "exit_data_start",
        ],
    );
    at(18, DOWNLOAD_AND_DELETE);
    at(18, &["exit_data_end", "compute_construct_end"]);
    // enter data copyin(a[0:n]) async(1)
    at(20, &["enter_data_start"]);
    at(20, CREATE_AND_UPLOAD);
    at(20, &["enter_data_end"]);
    // wait(1) at line 23 with the wait events toggled off; at line 26 on again
    at(26, &["wait_start", "wait_end"]);
    // exit data delete(a[0:n])
    at(27, &["exit_data_start", "delete", "free", "exit_data_end"]);
    at(0, &["runtime_shutdown"]);
    e
}

fn check_discrete(log: &str) {
    assert_eq!(events(log), discrete_events(), "{log}");
    for l in log.lines().filter(|l| l.starts_with("event ")) {
        // Every struct's valid_bytes is its whole size; the version is OpenACC 3.3's.
        assert!(l.contains(" version 202211 valid 72/72 device 64 "), "{l}");
        let tail = l.split(" valid ").nth(2).unwrap();
        let (have, size) = tail.split_once('/').unwrap();
        assert_eq!(have, size.split(' ').next().unwrap(), "{l}");
        // Directives' events name the file, the function and its lines; the runtime's own
        // (device start-up, exit) none.
        if l.contains(" line 0 ") {
            assert!(l.contains(" file - ") && l.contains(" func - 0-0 "), "{l}");
        } else {
            assert!(
                l.contains(" file app.c ") && l.contains(" func main 7-35 "),
                "{l}"
            );
        }
    }
    let alloc = nth(log, "alloc", 0);
    assert!(
        alloc.contains(" var a[0:n] bytes 8000 devptr set implicit 0 "),
        "{alloc}"
    );
    // The data region's last line, the compute construct's (its loop), the update's own.
    assert!(
        nth(log, "enter_data_start", 0).contains(" end 16 "),
        "{log}"
    );
    assert!(
        nth(log, "compute_construct_start", 0).contains(" construct 0 ")
            && nth(log, "compute_construct_start", 0).contains(" end 14 ")
    );
    let launch = nth(log, "enqueue_launch_start", 0);
    assert!(
        launch.contains("kernel \"parallel loop at line 13\" gangs "),
        "{launch}"
    );
    assert!(
        nth(log, "update_start", 0).contains(" construct 12 ")
            && nth(log, "update_start", 0).contains(" end 15 ")
    );
    // The implicit copy of b, named and marked implicit.
    let implicit = nth(log, "alloc", 1);
    assert!(
        implicit.contains(" var b bytes 32 devptr set implicit 1 "),
        "{implicit}"
    );
    // The async enter data reports its queue; the synchronous ones acc_async_sync.
    assert!(
        nth(log, "enter_data_start", 3).contains(" async 1 queue 1 construct 4 "),
        "{log}"
    );
    assert!(
        nth(log, "enter_data_start", 0).contains(" async -2 queue -1 "),
        "{log}"
    );
    assert!(
        nth(log, "wait_start", 0).contains(" construct 14 "),
        "{log}"
    );
    assert!(
        nth(log, "exit_data_start", 3).contains(" construct 5 "),
        "{log}"
    );
    // Two callbacks on one event: start events in the order registered, end events reversed.
    let all: Vec<&str> = log.lines().collect();
    let start = all
        .iter()
        .position(|l| l.starts_with("event enter_data_start"))
        .unwrap();
    assert_eq!(all[start + 1], "second 10", "{log}");
    let end = all
        .iter()
        .position(|l| l.starts_with("event enter_data_end"))
        .unwrap();
    assert_eq!(all[end - 1], "second 11", "{log}");
    assert!(!log.contains("lookup is wrong"), "{log}");
}

#[test]
fn a_library_from_acc_proflib_sees_every_event_with_its_fields() {
    if !have_cc() {
        return;
    }
    let dir = work("proflib");
    let app = build_app(&dir, &[]);
    let so = build_recorder(&dir);
    let log = run_ok(
        Command::new(&app)
            .env("ACC_PROFLIB", &so)
            .env("ACC_DEVICE_TYPE", "host_discrete"),
    );
    check_discrete(&log);
    // On shared memory nothing is allocated or copied: only the constructs' events.
    let log = run_ok(
        Command::new(&app)
            .env("ACC_PROFLIB", &so)
            .env("ACC_DEVICE_TYPE", "host"),
    );
    let data_only = |e: &&(&str, u32)| {
        matches!(e.0, "alloc" | "create" | "delete" | "free")
            || e.0.starts_with("enqueue_up")
            || e.0.starts_with("enqueue_down")
    };
    let shared: Vec<(&str, u32)> = discrete_events()
        .iter()
        .filter(|e| !data_only(e))
        .copied()
        .collect();
    assert_eq!(events(&log), shared, "{log}");
    assert!(log.contains(" device 2 "), "{log}");
    // Without ACC_PROFLIB, nothing.
    let log = run_ok(Command::new(&app).env("ACC_DEVICE_TYPE", "host_discrete"));
    assert!(events(&log).is_empty(), "{log}");
}

#[test]
fn a_library_linked_into_the_program_registers_itself() {
    if !have_cc() {
        return;
    }
    let dir = work("linked");
    let app = build_app(&dir, &[data().join("recorder.c")]);
    let log = run_ok(Command::new(&app).env("ACC_DEVICE_TYPE", "host_discrete"));
    check_discrete(&log);
}

#[test]
fn a_library_that_cannot_load_is_a_warning() {
    if !have_cc() {
        return;
    }
    let dir = work("missing");
    let app = build_app(&dir, &[]);
    let log = run_ok(
        Command::new(&app)
            .env("ACC_PROFLIB", dir.join("no-such-library.so"))
            .env("ACC_DEVICE_TYPE", "host"),
    );
    assert!(
        log.contains("acc: warning: ACC_PROFLIB: cannot load"),
        "{log}"
    );
}
