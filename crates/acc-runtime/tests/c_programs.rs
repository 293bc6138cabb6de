//! Compiles the self-checking C programs in `tests/c/` against `include/openacc.h` and
//! `include/acc_rt.h`, links them with the static library, and runs them on both devices; and
//! checks that the error cases fail with the message the runtime promises.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

const CRATE: &str = env!("CARGO_MANIFEST_DIR");

#[path = "../../../tests/cuda-sim/support.rs"]
mod sim;

#[path = "../../../tests/support/staticlib.rs"]
mod staticlib;
use staticlib::runtime_staticlib as staticlib;

/// Compiles `tests/c/<name>.c` once per test run and returns the executable; tests share
/// programs, so compiling is serialised and memoised.
fn compile(name: &str) -> PathBuf {
    static BUILT: Mutex<BTreeMap<String, PathBuf>> = Mutex::new(BTreeMap::new());
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(exe) = built.get(name) {
        return exe.clone();
    }
    let exe = compile_now(name);
    built.insert(name.to_owned(), exe.clone());
    exe
}

fn compile_now(name: &str) -> PathBuf {
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("c-programs");
    std::fs::create_dir_all(&out_dir).unwrap();
    let exe = out_dir.join(name);
    let src = Path::new(CRATE).join("tests/c").join(format!("{name}.c"));
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-I"])
        .arg(Path::new(CRATE).join("include"))
        .arg(&src)
        .arg(staticlib())
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&exe)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cc}: {e}"));
    assert!(
        out.status.success(),
        "compiling {name}.c failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

fn run(exe: &Path, device: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(exe);
    cmd.args(args)
        .env("ACC_DEVICE_TYPE", device)
        .env("ACC_HOST_DISCRETE_DEVICES", "2")
        .env_remove("ACC_DEVICE_NUM")
        .env_remove("ACC_HOST_DISCRETE_MEMORY");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run the C program")
}

fn passes_on_both_devices(name: &str) {
    let exe = compile(name);
    for device in ["host", "host_discrete"] {
        let out = run(&exe, device, &[], &[]);
        assert!(
            out.status.success(),
            "{name} on {device} failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("{name} ok")));
    }
}

#[test]
fn data_routines() {
    passes_on_both_devices("api_data");
}

#[test]
fn async_routines() {
    passes_on_both_devices("api_async");
}

#[test]
fn device_routines() {
    passes_on_both_devices("api_device");
}

#[test]
fn compiler_entry_points() {
    passes_on_both_devices("rt_kernel");
}

/// Kernels with a host function and a CUDA version: the CPU devices run the first, and a GPU,
/// where there is one, the second (NVRTC JIT, reduction slots, streams); so does the CUDA
/// simulator (`tests/cuda-sim`), on any machine.
#[test]
fn kernels_with_a_cuda_version_run_on_every_device() {
    passes_on_both_devices("rt_cuda");
    match acc_runtime::runtime::nvidia_unavailable() {
        Some(why) => eprintln!("not run on nvidia: {why}"),
        None => {
            let exe = compile("rt_cuda");
            let out = run(&exe, "nvidia", &[], &[]);
            assert!(
                out.status.success(),
                "rt_cuda on nvidia failed ({}):\n{}{}",
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    if let Some(gpu) = sim::simulator() {
        let exe = compile("rt_cuda");
        let cache = sim::fresh_cache("rt_cuda");
        let env: Vec<(&str, String)> = gpu
            .env(&cache)
            .into_iter()
            .map(|(k, v)| (k, v.to_string_lossy().into_owned()))
            .collect();
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let out = run(&exe, "nvidia", &[], &env);
        let _ = std::fs::remove_dir_all(&cache);
        assert!(
            out.status.success() && String::from_utf8_lossy(&out.stdout).contains("rt_cuda ok"),
            "rt_cuda on the simulated GPU failed:\n{}",
            sim::printed(&out)
        );
    }
}

/// Runs one error case on `host_discrete` and returns its stderr, after checking it exited 1.
fn fails(case: &str, env: &[(&str, &str)]) -> String {
    let exe = compile("errors");
    let out = run(&exe, "host_discrete", &[case], env);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "case {case}: {stderr}");
    assert!(stderr.starts_with("acc: error: "), "case {case}: {stderr}");
    stderr
}

#[test]
fn errors_name_the_variable_and_location_and_exit_1() {
    let e = fails("not_present", &[]);
    assert!(
        e.contains("kernels.c:12: 'a[0:100]' (800 bytes at 0x"),
        "{e}"
    );
    assert!(
        e.contains("is not present on device host-discrete 0"),
        "{e}"
    );

    let e = fails("overlap", &[]);
    assert!(
        e.contains("overlap.c:7: 'a[40:20]' (160 bytes at 0x"),
        "{e}"
    );
    assert!(e.contains("partially overlaps 'a[0:50]'"), "{e}");

    assert!(fails("unmap_twice", &[]).contains("acc_unmap_data: 0x"));
    assert!(fails("free_mapped", &[]).contains("still mapped on device host-discrete 0"));
    assert!(fails("free_twice", &[]).contains("freed twice"));
    let e = fails("oom", &[("ACC_HOST_DISCRETE_MEMORY", "1M")]);
    assert!(
        e.contains("acc_copyin: 2097152 bytes at 0x") && e.contains("out of device memory"),
        "{e}"
    );
    let e = fails("launch_not_present", &[]);
    assert!(
        e.contains("launch.c:30: 'b[0:100]' (800 bytes at 0x"),
        "{e}"
    );
    assert!(fails("update_not_present", &[]).contains("acc_update_self: 800 bytes at 0x"));
    assert!(fails("bad_dims", &[]).contains("dims.c:31: the value of `num_gangs` is not positive"));
    assert!(fails("bad_device_pointer", &[]).contains("are not inside one live device allocation"));
    assert!(fails("bad_async", &[]).contains("-7 is not an async value"));
    // On every device, `host` too, where nothing else would stop the copy to address 0.
    let exe = compile("errors");
    for device in ["host", "host_discrete"] {
        let out = run(&exe, device, &["null_memcpy"], &[]);
        let e = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{device}: {e}");
        assert!(
            e.contains("acc_memcpy_to_device: the destination of 800 bytes is a null pointer"),
            "{device}: {e}"
        );
    }
}

/// Asking for a GPU on a machine without one is no error (OpenACC leaves it to the
/// implementation): the program goes on on its current device, with one warning that says why.
#[test]
fn a_missing_gpu_asked_for_by_the_program_is_a_warning() {
    let Some(why) = acc_runtime::runtime::nvidia_unavailable() else {
        return;
    };
    let exe = compile("errors");
    let out = run(&exe, "host_discrete", &["nvidia"], &[]);
    let e = String::from_utf8_lossy(&out.stderr);
    // The case returns 3 when nothing stopped it.
    assert_eq!(out.status.code(), Some(3), "{e}");
    assert!(
        e.contains("acc: warning: acc_set_device_type: no nvidia device (")
            && e.contains(why)
            && e.contains("goes on on device type host-discrete")
            && e.matches("warning").count() == 1,
        "{e}"
    );
}

#[test]
fn environment_selects_and_checks_the_device() {
    let exe = compile("errors");
    if let Some(why) = acc_runtime::runtime::nvidia_unavailable() {
        let out = run(&exe, "nvidia", &["none"], &[]);
        assert_eq!(out.status.code(), Some(1));
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(
            e.contains("ACC_DEVICE_TYPE=nvidia: no nvidia (CUDA) device is available: ")
                && e.contains(why)
                && e.contains("use ACC_DEVICE_TYPE=host or host_discrete"),
            "{e}"
        );
    }
    let out = run(&exe, "host_discrete", &["none"], &[("ACC_DEVICE_NUM", "2")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ACC_DEVICE_NUM=2"));
    let out = run(&exe, "host_discrete", &["none"], &[("ACC_DEVICE_NUM", "1")]);
    assert!(out.status.success());
}

/// Without `ACC_DEVICE_TYPE` the default device is nvidia when there is a GPU, else host; the
/// reason is a property and, with `ACC_VERBOSE=1`, a note on stderr.
#[test]
fn default_device_falls_back_to_host_and_says_why() {
    let exe = compile("device_default");
    let out = Command::new(&exe)
        .env_remove("ACC_DEVICE_TYPE")
        .env_remove("ACC_DEVICE_NUM")
        .env("ACC_VERBOSE", "1")
        .output()
        .expect("run device_default");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    match acc_runtime::runtime::nvidia_unavailable() {
        Some(why) => {
            assert!(
                stdout.starts_with("type=host gpus=0 why=no nvidia device: ")
                    && stdout.contains(why),
                "{stdout}"
            );
            assert!(
                stderr.contains(&format!(
                    "acc: note: default device: host (no nvidia device: {why})"
                )),
                "{stderr}"
            );
            if !acc_runtime::device::cuda::driver_present() {
                assert!(why.starts_with("libcuda.so not found"), "{why}");
            }
        }
        None => assert!(stdout.starts_with("type=nvidia gpus="), "{stdout}"),
    }
    // Without ACC_VERBOSE the fallback is silent.
    let out = Command::new(&exe)
        .env_remove("ACC_DEVICE_TYPE")
        .env_remove("ACC_VERBOSE")
        .output()
        .expect("run device_default");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
