//! OpenACC with MPI (Open MPI): `examples/mpi-jacobi` built by `acc cc` under Open MPI's
//! compiler wrapper (`OMPI_CC="acc cc" mpicc`) and with `mpicc --showme` flags, and run on 1,
//! 2 and 4 ranks on `host` and `host_discrete`: the field after K iterations, and the
//! residual, equal the one-rank run's bit for bit (each point depends only on the previous
//! iterate, and the residual is a max), and each run checks itself against a serial run. The
//! Rust example (`examples/mpi-jacobi-rs`, rsmpi) runs on 2 ranks the same way. Without
//! `mpirun`, `mpicc` or `make` the tests say so and pass, unless `ACC_REQUIRE_TOOLS` is set.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod support;
use support::{have, have_cc, root, runtime_lib};

/// The grid of the runs: rows not a multiple of 4 (bands of unequal size), few iterations.
const ARGS: &[&str] = &["-n", "61", "-m", "47", "-k", "40", "--check"];

fn have_mpi() -> bool {
    have_cc() && have("mpirun") && have("mpicc") && have("make")
}

/// A copy of the C example in a fresh directory (the source tree stays clean).
fn example_copy(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("mpi")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["jacobi.c", "Makefile"] {
        std::fs::copy(root().join("examples/mpi-jacobi").join(f), dir.join(f)).unwrap();
    }
    dir
}

fn text(out: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn ok(out: Output) -> Output {
    assert!(out.status.success(), "{}", text(&out));
    out
}

/// `make` in `dir` with acc as the compiler (the runtime library named).
fn make(dir: &Path, extra: &[&str]) {
    ok(Command::new("make")
        .current_dir(dir)
        .arg(format!("ACC={}", env!("CARGO_BIN_EXE_acc")))
        .args(extra)
        .env("ACC_RUNTIME_LIB", runtime_lib())
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS")
        .output()
        .unwrap());
}

/// `mpirun -np N prog ARGS` on `device`, with `env` set; allowed to run as root (CI runs as
/// root), oversubscribed (4 ranks on a 2-core machine), and stopped after 5 minutes.
fn mpirun(np: usize, prog: &Path, device: &str, env: &[(&str, &str)]) -> Output {
    let mut c = Command::new("timeout");
    c.args(["300", "mpirun", "--oversubscribe", "-np", &np.to_string()])
        .arg(prog)
        .args(ARGS)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("ACC_DEVICE_TYPE", device)
        .env_remove("ACC_HOST_DISCRETE_DEVICES")
        .env_remove("JACOBI_MPI_AWARE");
    for (k, v) in env {
        c.env(k, v);
    }
    ok(c.output().unwrap())
}

/// The value of the line `key value` of rank 0's report.
fn item(out: &Output, key: &str) -> String {
    let s = String::from_utf8_lossy(&out.stdout);
    s.lines()
        .find_map(|l| l.strip_prefix(key).and_then(|v| v.strip_prefix(' ')))
        .unwrap_or_else(|| panic!("no `{key}` line\n{}", text(out)))
        .to_string()
}

/// Runs `prog` on 1 rank and then on each of `ranks`, on `device`; every run checks itself
/// against the serial iteration, and the field and residual equal the one-rank run's.
fn same_as_one_rank(prog: &Path, device: &str, ranks: &[usize], env: &[(&str, &str)]) {
    let one = mpirun(1, prog, device, env);
    assert!(item(&one, "check").starts_with("ok"), "{}", text(&one));
    for &np in ranks {
        let out = mpirun(np, prog, device, env);
        let what = format!("{} on {np} ranks ({device}, {env:?})", prog.display());
        assert_eq!(item(&out, "ranks"), np.to_string(), "{what}");
        assert!(
            item(&out, "check").starts_with("ok"),
            "{what}\n{}",
            text(&out)
        );
        assert_eq!(item(&out, "field"), item(&one, "field"), "{what}");
        assert_eq!(item(&out, "residual"), item(&one, "residual"), "{what}");
    }
}

#[test]
fn c_example_under_the_wrapper_matches_one_rank_on_1_2_4_ranks() {
    if !have_mpi() {
        return;
    }
    let dir = example_copy("wrapper");
    // `OMPI_CC="acc cc" mpicc`, compiling (-MMD -MP -c) and linking in separate steps.
    make(&dir, &[]);
    let prog = dir.join("jacobi");
    for device in ["host", "host_discrete"] {
        same_as_one_rank(&prog, device, &[2, 4], &[]);
    }
    // Halos staged through `acc update` (MPI not device-aware): the same field.
    same_as_one_rank(&prog, "host_discrete", &[2], &[("JACOBI_MPI_AWARE", "0")]);
    let out = mpirun(2, &prog, "host_discrete", &[("JACOBI_MPI_AWARE", "0")]);
    assert!(item(&out, "mpi").starts_with("staged"), "{}", text(&out));
    let out = mpirun(2, &prog, "host_discrete", &[]);
    assert!(
        item(&out, "mpi").starts_with("device-aware"),
        "{}",
        text(&out)
    );
}

#[test]
fn c_example_ranks_take_the_devices_of_their_node_in_turn() {
    if !have_mpi() {
        return;
    }
    let dir = example_copy("devices");
    make(&dir, &[]);
    let prog = dir.join("jacobi");
    // Two host_discrete devices: ranks 0..4 of the node use devices 0 1 0 1 (their queues
    // too: the kernels run on async queue 1), and the field is still the one-rank field.
    let env = [("ACC_HOST_DISCRETE_DEVICES", "2")];
    let out = mpirun(4, &prog, "host_discrete", &env);
    assert_eq!(item(&out, "device_per_rank"), "0 1 0 1", "{}", text(&out));
    same_as_one_rank(&prog, "host_discrete", &[4], &env);
}

#[test]
fn c_example_with_showme_flags_and_wrapper_style_flags() {
    if !have_mpi() {
        return;
    }
    // `acc cc $(mpicc --showme:compile) … $(mpicc --showme:link)`, through the Makefile.
    let dir = example_copy("showme");
    make(&dir, &["SHOWME=1"]);
    same_as_one_rank(&dir.join("jacobi"), "host", &[2], &[]);

    // And by hand, with the flags other MPI builds' wrappers add (-pthread, -Wl,… pairs).
    let showme = |what: &str| -> Vec<String> {
        let out = ok(Command::new("mpicc")
            .arg(format!("--showme:{what}"))
            .output()
            .unwrap());
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .map(String::from)
            .collect()
    };
    let (compile, link) = (showme("compile"), showme("link"));
    let lib_dir = link
        .iter()
        .find_map(|f| f.strip_prefix("-L"))
        .unwrap_or("/usr/lib")
        .to_string();
    ok(Command::new(env!("CARGO_BIN_EXE_acc"))
        .current_dir(&dir)
        .env("ACC_RUNTIME_LIB", runtime_lib())
        .args(["cc", "-O2", "-pthread"])
        .args(&compile)
        .args(["-o", "by-hand", "jacobi.c", "-Wl,-rpath"])
        .arg(format!("-Wl,{lib_dir}"))
        .args(["-Wl,--enable-new-dtags", "-Xlinker", "--as-needed"])
        .args(&link)
        .arg("-lm")
        .output()
        .unwrap());
    same_as_one_rank(&dir.join("by-hand"), "host_discrete", &[2], &[]);
}

#[test]
fn rust_example_on_two_ranks_matches_one_rank() {
    if !have_mpi() || !have_libclang() {
        return;
    }
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mpi-jacobi-rs-target");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = root().join("examples/mpi-jacobi-rs/Cargo.toml");
    ok(Command::new(cargo)
        .args(["build", "--quiet", "--manifest-path"])
        .arg(&manifest)
        .arg("--target-dir")
        .arg(&target)
        // The test runner's jobserver is not ours to share.
        .env_remove("CARGO_MAKEFLAGS")
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS")
        .output()
        .unwrap());
    let prog = target.join("debug/mpi-jacobi-rs");
    for device in ["host", "host_discrete"] {
        same_as_one_rank(&prog, device, &[2], &[]);
    }
    // Device-aware (Mirror::device_ptr_mut to MPI) is the default on the CPU devices; staged
    // (Mirror range updates) gives the same field.
    let out = mpirun(2, &prog, "host_discrete", &[]);
    assert!(
        item(&out, "mpi").starts_with("device-aware"),
        "{}",
        text(&out)
    );
    let staged = [("JACOBI_MPI_AWARE", "0")];
    same_as_one_rank(&prog, "host_discrete", &[2], &staged);
    let out = mpirun(2, &prog, "host_discrete", &staged);
    assert!(item(&out, "mpi").starts_with("staged"), "{}", text(&out));
    let env = [("ACC_HOST_DISCRETE_DEVICES", "2")];
    let out = mpirun(2, &prog, "host_discrete", &env);
    assert_eq!(item(&out, "device_per_rank"), "0 1", "{}", text(&out));
}

/// rsmpi's build runs bindgen, which needs libclang.
fn have_libclang() -> bool {
    let ok = Command::new("sh")
        .args(["-c", "ldconfig -p | grep -q 'libclang[-.0-9]*\\.so'"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(
            std::env::var_os("ACC_REQUIRE_TOOLS").is_none(),
            "libclang is required (rsmpi's bindgen)"
        );
        eprintln!("skipped: no libclang, which rsmpi's bindgen needs");
    }
    ok
}
