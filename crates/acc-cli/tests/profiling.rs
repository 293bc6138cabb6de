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

/// The events' names, in order.
fn names(log: &str) -> Vec<&str> {
    log.lines()
        .filter_map(|l| l.strip_prefix("event "))
        .map(|l| l.split(' ').next().unwrap())
        .collect()
}

/// What a discrete device reports for the app: every data action and its construct.
const DISCRETE: &[&str] = &[
    // data copy(a[0:n]), line 9
    "enter_data_start",
    "alloc",
    "create",
    "enqueue_upload_start",
    "enqueue_upload_end",
    "enter_data_end",
    // parallel loop present(a[0:n]), line 11
    "enter_data_start",
    "enter_data_end",
    "compute_construct_start",
    "enqueue_launch_start",
    "enqueue_launch_end",
    "compute_construct_end",
    "exit_data_start",
    "exit_data_end",
    // update self(a[0:n]), line 13
    "update_start",
    "enqueue_download_start",
    "enqueue_download_end",
    "update_end",
    // end of the data region
    "exit_data_start",
    "enqueue_download_start",
    "enqueue_download_end",
    "delete",
    "free",
    "exit_data_end",
    // enter data copyin(a[0:n]) async(1), line 15
    "enter_data_start",
    "alloc",
    "create",
    "enqueue_upload_start",
    "enqueue_upload_end",
    "enter_data_end",
    // wait(1), line 16
    "wait_start",
    "wait_end",
    // exit data delete(a[0:n]), line 17
    "exit_data_start",
    "delete",
    "free",
    "exit_data_end",
];

fn check_discrete(log: &str) {
    assert_eq!(names(log), DISCRETE, "{log}");
    let lines: Vec<&str> = log.lines().filter(|l| l.starts_with("event ")).collect();
    for l in &lines {
        // Every struct's valid_bytes is its whole size; the version is OpenACC 3.3's.
        assert!(
            l.contains(" file app.c version 202211 valid 72/72 device 64 "),
            "{l}"
        );
        let tail = l.split(" valid ").nth(2).unwrap();
        let (have, size) = tail.split_once('/').unwrap();
        assert_eq!(have, size.split(' ').next().unwrap(), "{l}");
    }
    assert!(
        lines[1].contains(" line 9 ") && lines[1].contains(" var a[0:n] bytes 8000 devptr set")
    );
    assert!(
        lines[8].contains(" line 11 ")
            && lines[8].contains("kernel \"parallel loop at line 11\" construct 0")
    );
    assert!(lines[14].contains(" line 13 ") && lines[14].contains(" construct 12 "));
    // The async enter data reports its queue; the synchronous ones acc_async_sync.
    assert!(lines[24].contains(" line 15 ") && lines[24].contains(" async 1 queue 1 construct 4 "));
    assert!(lines[0].contains(" async -2 queue -1 "));
    assert!(lines[30].contains(" line 16 ") && lines[30].contains(" construct 14 "));
    assert!(lines[32].contains(" line 17 ") && lines[32].contains(" construct 5 "));
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
    let shared: Vec<&str> = DISCRETE
        .iter()
        .copied()
        .filter(|e| {
            !matches!(*e, "alloc" | "create" | "delete" | "free")
                && !e.starts_with("enqueue_up")
                && !e.starts_with("enqueue_down")
        })
        .collect();
    assert_eq!(names(&log), shared, "{log}");
    assert!(log.contains(" device 2 "), "{log}");
    // Without ACC_PROFLIB, nothing.
    let log = run_ok(Command::new(&app).env("ACC_DEVICE_TYPE", "host_discrete"));
    assert!(names(&log).is_empty(), "{log}");
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
