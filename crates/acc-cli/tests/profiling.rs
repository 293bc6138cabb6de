//! The OpenACC Profiling Interface end to end: a program built by `acc cc` runs with a
//! profiling library of its own (`tests/data/profiling/recorder.c`), loaded through
//! `ACC_PROFLIB` as a shared object and linked into the program, which prints every event with
//! its fields; the tests check the sequence and the fields.

use std::path::{Path, PathBuf};
use std::process::Command;

mod support;
use support::{have_cc, runtime_lib};

#[path = "../../../tests/cuda-sim/support.rs"]
mod sim;

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
    // parallel without data: its events as any construct's, though the runtime has nothing
    // to do for its (empty) data clauses
    at(
        28,
        &[
            "compute_construct_start",
            "enter_data_start",
            "enter_data_end",
            "enqueue_launch_start",
            "enqueue_launch_end",
            "exit_data_start",
            "exit_data_end",
            "compute_construct_end",
        ],
    );
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
                l.contains(" file app.c ") && l.contains(" func main 7-37 "),
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

/// Runs the app on host_discrete with acc's own tools turned on by `env`; returns stderr.
fn with_tools(name: &str, env: &[(&str, &str)]) -> (PathBuf, String) {
    let dir = work(name);
    let app = build_app(&dir, &[]);
    let mut c = Command::new(&app);
    c.env("ACC_DEVICE_TYPE", "host_discrete").current_dir(&dir);
    for (k, v) in env {
        c.env(k, v);
    }
    let log = run_ok(&mut c);
    (dir, log)
}

#[test]
fn acc_notify_prints_what_its_mask_asks_for() {
    if !have_cc() {
        return;
    }
    let (_, log) = with_tools("notify-launch", &[("ACC_NOTIFY", "1")]);
    let lines: Vec<&str> = log.lines().filter(|l| l.starts_with("acc: ")).collect();
    assert_eq!(lines.len(), 3, "{log}");
    assert!(
        lines[0].starts_with("acc: launch kernel 'parallel loop at line 13' file="),
        "{log}"
    );
    assert!(
        lines[0].contains(" function=main line=13 device=host_discrete:0 queue=sync "),
        "{log}"
    );
    assert!(lines[1].contains("'parallel loop at line 18'"), "{log}");
    assert!(lines[2].contains("'parallel at line 28'"), "{log}");
    let (_, log) = with_tools("notify-data", &[("ACC_NOTIFY", "18")]);
    let kinds: Vec<&str> = log
        .lines()
        .filter_map(|l| l.strip_prefix("acc: "))
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "alloc", "upload", "download", "download", "free", "alloc", "upload", "download",
            "free", "alloc", "upload", "free"
        ],
        "{log}"
    );
    assert!(log.contains("upload file="), "{log}");
    assert!(
        log.contains(" queue=1 threadid=0 variable=a[0:n] bytes=8000"),
        "{log}"
    );
    let (_, log) = with_tools("notify-regions", &[("ACC_NOTIFY", "12")]);
    let kinds: Vec<String> = log
        .lines()
        .filter_map(|l| l.strip_prefix("acc: "))
        .map(|l| l.split(" file=").next().unwrap().to_string())
        .collect();
    assert_eq!(
        kinds,
        [
            "enter data region",
            "enter compute region (parallel)",
            "leave compute region (parallel)",
            "update",
            "leave data region",
            "enter compute region (parallel)",
            "leave compute region (parallel)",
            "enter data",
            "wait",
            "exit data",
            "enter compute region (parallel)",
            "leave compute region (parallel)"
        ],
        "{log}"
    );
    let (_, log) = with_tools("notify-bad", &[("ACC_NOTIFY", "launches")]);
    assert!(
        log.contains("acc: warning: ACC_NOTIFY=launches: expected a number"),
        "{log}"
    );
}

#[test]
fn acc_time_sums_up_each_construct_at_exit() {
    if !have_cc() {
        return;
    }
    let (_, log) = with_tools("time", &[("ACC_TIME", "1")]);
    let summary = log
        .split("acc: time per construct (ACC_TIME; times in microseconds)\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no summary in\n{log}"));
    let lines: Vec<&str> = summary.lines().collect();
    assert!(lines[0].contains("app.c: main: time "), "{summary}");
    for want in [
        "  13: compute region (parallel) reached 1 time",
        "    13: kernel 'parallel loop at line 13' launched 1 time, gangs 2: total ",
        "  18: compute region (parallel) reached 1 time",
        "    18: upload of b: 1 transfer, 32 bytes: total ",
        "    18: download of b: 1 transfer, 32 bytes: total ",
        "  11: data region reached 1 time",
        "    11: upload of a[0:n]: 1 transfer, 8000 bytes: total ",
        "  15: update reached 1 time",
        "    15: download of a[0:n]: 1 transfer, 8000 bytes: total ",
        "  20: enter data reached 1 time",
        "  26: wait reached 1 time",
        "    26: waited 1 time: total ",
        "  27: exit data reached 1 time",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(want)),
            "{want:?} not in\n{summary}"
        );
    }
    // The costliest construct first: each construct's time (the totals of its lines) is no
    // more than the one before it. (Which construct costs most is the machine's business: a
    // loaded one may take longer to copy 8000 bytes than to launch a kernel.)
    let mut costs: Vec<u64> = Vec::new();
    for l in &lines {
        if l.starts_with("    ") {
            let total = l
                .split("total ")
                .nth(1)
                .and_then(|t| t.split_whitespace().next())
                .and_then(|t| t.parse::<u64>().ok())
                .unwrap_or(0);
            if let Some(c) = costs.last_mut() {
                *c += total;
            }
        } else if l.starts_with("  ") {
            costs.push(0);
        }
    }
    assert!(costs.len() >= 6, "{summary}");
    // The printed totals are rounded: a few microseconds either way.
    assert!(
        costs.windows(2).all(|w| w[0] + 3 >= w[1]),
        "{costs:?}\n{summary}"
    );
}

#[test]
fn acc_trace_writes_a_chrome_trace_with_nested_slices_per_track() {
    if !have_cc() {
        return;
    }
    let dir = work("trace-out");
    let path = dir.join("trace.json");
    let (_, _log) = with_tools("trace", &[("ACC_TRACE", path.to_str().unwrap())]);
    let text = std::fs::read_to_string(&path).expect("the trace file");
    let v: serde_json::Value = serde_json::from_str(&text).expect("the trace is JSON");
    let events = v["traceEvents"].as_array().unwrap();
    let slices: Vec<&serde_json::Value> = events.iter().filter(|e| e["ph"] == "X").collect();
    let names: Vec<&str> = slices.iter().map(|e| e["name"].as_str().unwrap()).collect();
    for want in [
        "kernel parallel loop at line 13",
        "kernel parallel loop at line 18",
        "upload a[0:n]",
        "download b",
        "wait",
        "data region line 11",
        "compute region (parallel) line 13",
        "enter data line 20",
        "exit data line 27",
    ] {
        assert!(names.contains(&want), "{want:?} not in {names:?}");
    }
    // Tracks: the host thread, and the async queue the enter data's upload went to.
    let track = |name: &str| {
        events
            .iter()
            .find(|e| e["ph"] == "M" && e["args"]["name"] == name)
            .map(|e| e["tid"].as_i64().unwrap())
            .unwrap_or_else(|| panic!("no track {name}"))
    };
    let (host, queue) = (track("host thread 0"), track("async queue 1"));
    let upload_on_queue = slices
        .iter()
        .find(|e| e["name"] == "upload a[0:n]" && e["tid"] == queue)
        .expect("the async upload on queue 1's track");
    assert_eq!(upload_on_queue["args"]["bytes"], "8000");
    assert_eq!(upload_on_queue["args"]["line"], "20");
    let kernel = slices
        .iter()
        .find(|e| e["name"] == "kernel parallel loop at line 13")
        .unwrap();
    assert_eq!(kernel["tid"], host);
    assert_eq!(kernel["args"]["function"], "main");
    // On each track, slices nest or follow each other: never partly overlap.
    for t in [host, queue] {
        let mut spans: Vec<(f64, f64)> = slices
            .iter()
            .filter(|e| e["tid"] == t)
            .map(|e| {
                let ts = e["ts"].as_f64().unwrap();
                (ts, ts + e["dur"].as_f64().unwrap())
            })
            .collect();
        spans.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.total_cmp(&a.1)));
        let mut open: Vec<f64> = Vec::new();
        for (start, end) in spans {
            while open.last().is_some_and(|&e| e <= start) {
                open.pop();
            }
            if let Some(&outer) = open.last() {
                assert!(
                    end <= outer + 1e-3,
                    "a slice [{start}, {end}] crosses its parent's end {outer}"
                );
            }
            open.push(end);
        }
    }
    // The data region holds the compute construct inside it.
    let span = |name: &str| {
        let e = slices.iter().find(|e| e["name"] == name).unwrap();
        let ts = e["ts"].as_f64().unwrap();
        (ts, ts + e["dur"].as_f64().unwrap())
    };
    let (region, compute) = (
        span("data region line 11"),
        span("compute region (parallel) line 13"),
    );
    assert!(
        region.0 <= compute.0 && compute.1 <= region.1,
        "{region:?} {compute:?}"
    );
}

#[test]
fn on_the_simulated_gpu_events_carry_the_cuda_handles_and_grid() {
    if !have_cc() {
        return;
    }
    let Some(gpu) = sim::simulator() else {
        return;
    };
    let dir = work("sim");
    let app = build_app(&dir, &[]);
    let so = build_recorder(&dir);
    let cache = sim::fresh_cache("profiling");
    let mut cmd = Command::new(&app);
    cmd.env("ACC_DEVICE_TYPE", "nvidia")
        .env_remove("ACC_DEVICE_NUM")
        .env("ACC_PROFLIB", &so);
    let run = sim::output_within(gpu.configure(&mut cmd, &cache), sim::CHILD_TIMEOUT);
    let log = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(run.status.success(), "{}", sim::printed(&run));
    // The same constructs and data as on a discrete CPU device, from device type nvidia.
    let names: Vec<&str> = events(&log).into_iter().map(|e| e.0).collect();
    let want: Vec<&str> = discrete_events().into_iter().map(|e| e.0).collect();
    assert_eq!(names, want, "{log}");
    for l in log
        .lines()
        .filter(|l| l.starts_with("event ") && !l.contains(" line 0 "))
    {
        assert!(l.contains(" device 5 "), "{l}");
        // acc_device_api_cuda, with the device, context and stream handles.
        assert!(l.ends_with(" api 1 handles 111"), "{l}");
    }
    // A launch reports its grid: gangs are blocks.
    let launch = nth(&log, "enqueue_launch_start", 0);
    assert!(!launch.contains(" gangs 0 "), "{launch}");
}

#[test]
fn data_routines_and_shutdown_raise_their_events() {
    if !have_cc() {
        return;
    }
    let dir = work("api");
    let exe = dir.join("api");
    run_ok(
        Command::new(env!("CARGO_BIN_EXE_acc"))
            .env("ACC_RUNTIME_LIB", runtime_lib())
            .args(["cc", "-O1"])
            .arg(data().join("api.c"))
            .arg("-o")
            .arg(&exe),
    );
    let so = build_recorder(&dir);
    let log = run_ok(
        Command::new(&exe)
            .env("ACC_PROFLIB", &so)
            .env("ACC_DEVICE_TYPE", "host_discrete"),
    );
    let names: Vec<&str> = events(&log).into_iter().map(|e| e.0).collect();
    assert_eq!(
        names,
        [
            "device_init_start",
            "device_init_end",
            "enter_data_start",
            "alloc",
            "create",
            "enqueue_upload_start",
            "enqueue_upload_end",
            "enter_data_end",
            "update_start",
            "enqueue_download_start",
            "enqueue_download_end",
            "update_end",
            "exit_data_start",
            "delete",
            "free",
            "exit_data_end",
            "device_shutdown_start",
            "device_shutdown_end",
            "runtime_shutdown",
        ],
        "{log}"
    );
    // A routine's events belong to acc_construct_runtime_api (15), without a source line.
    for l in log.lines().filter(|l| l.starts_with("event ")) {
        assert!(l.contains(" construct 15 "), "{l}");
        assert!(l.contains(" line 0 file - "), "{l}");
    }
    assert!(
        nth(&log, "alloc", 0).contains(" bytes 800 devptr set "),
        "{log}"
    );
}
