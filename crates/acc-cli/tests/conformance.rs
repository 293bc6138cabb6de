//! The conformance corpus (`tests/conformance/*.c`, one self-checking
//! program per construct or clause family), the translation corpus
//! (`tests/corpus/*.c`) and the README's Jacobi example, each built with
//! `acc cc -Wall -Wextra` (which must not warn) and run on the `host` and
//! `host_discrete` devices. A program
//! prints `…: ok` and exits 0 when its answers are right.
//!
//! `discrete-*` programs check discrete-memory semantics (a missing
//! `copyout` leaves the host copy stale, `update self` fixes it) and run on
//! `host_discrete` only; on shared memory their checks cannot hold.

use std::path::Path;
use std::process::Command;

mod support;
use support::{have_cc, programs, runtime_lib, WITHOUT_CUDA};

#[test]
fn every_program_gives_the_right_answers_on_both_cpu_devices() {
    if !have_cc() {
        return;
    }
    let lib = runtime_lib();
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance");
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut failures = Vec::new();
    let mut ran = 0;
    for src in programs() {
        let stem = src.file_stem().unwrap().to_string_lossy().to_string();
        let exe = out_dir.join(&stem);
        let build = Command::new(env!("CARGO_BIN_EXE_acc"))
            .args(["cc", "-O1", "-Wall", "-Wextra", "-o"])
            .arg(&exe)
            .arg(&src)
            .arg("-lm")
            .env("ACC_RUNTIME_LIB", &lib)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&build.stderr).to_string();
        if !build.status.success() {
            failures.push(format!("{stem}: acc cc failed:\n{stderr}"));
            continue;
        }
        // The generated C is warning-free under -Wall -Wextra (and so are
        // the programs); one whose kernels cannot have a CUDA version draws
        // acc's one warning saying why.
        let allowed = match WITHOUT_CUDA.iter().find(|(s, _)| *s == stem) {
            Some((_, why)) => {
                if !(stderr.contains("kernels have no CUDA version") && stderr.contains(why)) {
                    failures.push(format!(
                        "{stem}: no warning that it has no CUDA version:\n{stderr}"
                    ));
                }
                1
            }
            None => 0,
        };
        if stderr.matches("warning:").count() > allowed {
            failures.push(format!("{stem}: warnings:\n{stderr}"));
        }
        let devices: &[&str] = if stem.starts_with("discrete-") {
            &["host_discrete"]
        } else {
            &["host", "host_discrete"]
        };
        let failures_before = failures.len();
        for dev in devices {
            let run = Command::new(&exe)
                .env("ACC_DEVICE_TYPE", dev)
                .env_remove("ACC_DEVICE_NUM")
                .output()
                .unwrap();
            ran += 1;
            let stdout = String::from_utf8_lossy(&run.stdout).to_string();
            let failed = !run.status.success();
            if failed {
                failures.push(format!(
                    "{stem} on {dev} failed ({}):\n{stdout}{}",
                    run.status,
                    String::from_utf8_lossy(&run.stderr)
                ));
            }
        }
        if failures.len() == failures_before {
            // Only a failing program's executable stays, to be looked at: a few hundred of
            // them fill a CI machine's disk.
            let _ = std::fs::remove_file(&exe);
        }
    }
    assert!(ran > 100, "only {ran} runs");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Discrete memory is real: a missing `copyout` gives the stale answer on
/// `host_discrete` (and `update self` fixes it), while on `host` the same
/// program sees the device's writes at once.
#[test]
fn discrete_memory_is_observable() {
    if !have_cc() {
        return;
    }
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("discrete-observable");
    std::fs::create_dir_all(&out_dir).unwrap();
    let src = out_dir.join("stale.c");
    std::fs::write(
        &src,
        r#"#include <stdio.h>
int main(void) {
  int a[4] = {1, 2, 3, 4};
  #pragma acc enter data copyin(a)
  #pragma acc parallel loop present(a)
  for (int i = 0; i < 4; i++) a[i] *= 10;
  printf("before update: %d\n", a[3]);
  #pragma acc update self(a)
  printf("after update: %d\n", a[3]);
  #pragma acc exit data delete(a)
  return 0;
}
"#,
    )
    .unwrap();
    let exe = out_dir.join("stale");
    let build = Command::new(env!("CARGO_BIN_EXE_acc"))
        .args(["cc", "-o"])
        .arg(&exe)
        .arg(&src)
        .env("ACC_RUNTIME_LIB", runtime_lib())
        .output()
        .unwrap();
    assert!(
        build.status.success(),
        "{}",
        String::from_utf8_lossy(&build.stderr)
    );
    let run = |dev: &str| {
        let out = Command::new(&exe)
            .env("ACC_DEVICE_TYPE", dev)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    assert_eq!(run("host_discrete"), "before update: 4\nafter update: 40\n");
    assert_eq!(run("host"), "before update: 40\nafter update: 40\n");
}

/// `kernels` loops without `independent`: the dependence test parallelizes
/// the ones it proves independent and leaves the others sequential, and
/// the answers are right either way; `--info` says which and why.
#[test]
fn kernels_loops_run_in_parallel_only_when_proven_independent() {
    if !have_cc() {
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("kernels-auto");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("k.c");
    std::fs::write(
        &src,
        r#"#include <stdio.h>
#define N 1000
int main(void) {
  static double a[N], b[N], c[N];
  double s = 0;
  for (int i = 0; i < N; i++) { a[i] = i; b[i] = 0; c[i] = 0; }
  #pragma acc kernels copy(a, b, c)
  {
    for (int i = 0; i < N; i++)
      b[i] = a[i] * 2;
    for (int i = 1; i < N; i++)
      c[i] = c[i - 1] + 1;
    #pragma acc loop
    for (int i = 0; i < N; i++)
      a[i] = a[i] + b[i];
    for (int i = 0; i < N; i++)
      s += a[i];
  }
  int ok = b[N - 1] == 2 * (N - 1) && c[N - 1] == N - 1 && a[N - 1] == 3 * (N - 1) && s == 1.5 * N * (N - 1);
  printf("%s\n", ok ? "ok" : "WRONG");
  return !ok;
}
"#,
    )
    .unwrap();
    let exe = dir.join("k");
    let out = Command::new(env!("CARGO_BIN_EXE_acc"))
        .args(["cc", "--info", "-o"])
        .arg(&exe)
        .arg(&src)
        .env("ACC_RUNTIME_LIB", runtime_lib())
        .output()
        .unwrap();
    let info = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{info}");
    assert!(
        info.contains("loop: gang (independent by the dependence test)"),
        "{info}"
    );
    assert!(
        info.contains("loop: gang (implicit)"),
        "the `loop` without clauses is proven: {info}"
    );
    assert!(
        info.contains("not parallelized: `c` may be written by one iteration and used by another"),
        "{info}"
    );
    assert!(
        info.contains("implicit reduction(+:s) across gangs"),
        "the last loop only reduces `s`, as without a clause nvc reads it: {info}"
    );
    for dev in ["host", "host_discrete"] {
        let run = Command::new(&exe)
            .env("ACC_DEVICE_TYPE", dev)
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&run.stdout), "ok\n", "on {dev}");
    }
}
