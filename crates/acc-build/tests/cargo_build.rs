//! Real `cargo build`s of scratch crates whose build scripts use acc-build,
//! and of the `heat-rs` example.
//!
//! The scratch crates live under `CARGO_TARGET_TMPDIR` and share one target
//! directory there, so acc-c and the runtime are compiled once for all of
//! them; cargo's lock on that directory runs the builds one at a time.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The workspace root (the `acc` package).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// The target directory all scratch builds share.
fn shared_target() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("acc-build-scratch-target")
}

/// A crate written afresh under `CARGO_TARGET_TMPDIR`.
struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    /// A binary crate `name` with `files` (path, text); `with_acc` says
    /// whether it depends on `acc`. Its build script is `build_rs`.
    fn new(name: &str, with_acc: bool, build_rs: &str, files: &[(&str, &str)]) -> Scratch {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("acc-build-scratch")
            .join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("src")).unwrap();
        let root = root();
        let acc_dep = if with_acc {
            format!("acc = {{ path = {:?} }}", root.to_str().unwrap())
        } else {
            String::new()
        };
        let manifest = format!(
            "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [workspace]\n\n[dependencies]\n{acc_dep}\n\n[build-dependencies]\n\
             acc-build = {{ path = {:?} }}\n",
            root.join("crates/acc-build").to_str().unwrap()
        );
        std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
        // The workspace's lock file: the same versions as the workspace
        // builds, and no registry look-ups.
        std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
        std::fs::write(dir.join("build.rs"), build_rs).unwrap();
        for (path, text) in files {
            let p = dir.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        Scratch { dir }
    }

    fn cargo(&self, args: &[&str]) -> Output {
        cargo_in(&self.dir, args)
    }
}

/// Runs cargo in `dir` with the shared target directory.
fn cargo_in(dir: &Path, args: &[&str]) -> Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", shared_target())
        // The test runner's jobserver is not ours to share.
        .env_remove("CARGO_MAKEFLAGS")
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS")
        .env_remove("ACC_DEVICE_TYPE")
        .output()
        .unwrap();
    out
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

const SCALE_H: &str = "\
#ifndef SCALE_H
#define SCALE_H
double scale_sum(int n, double *a);
#endif
";

const SCALE_C: &str = "\
#include \"scale.h\"

double scale_sum(int n, double *a) {
  double s = 0;
  #pragma acc parallel loop copy(a[0:n]) reduction(+:s)
  for (int i = 0; i < n; ++i) {
    a[i] *= FACTOR;
    s += a[i];
  }
  return s;
}
";

const SCALE_MAIN: &str = "\
use acc as _;

extern \"C\" {
    fn scale_sum(n: i32, a: *mut f64) -> f64;
}

fn main() {
    let mut a: Vec<f64> = (0..100).map(f64::from).collect();
    let s = unsafe { scale_sum(100, a.as_mut_ptr()) };
    assert_eq!(a[99], 297.0);
    assert_eq!(s, 3.0 * 4950.0);
    println!(\"scratch: ok\");
}
";

const SCALE_BUILD: &str = "\
fn main() {
    acc_build::Build::new()
        .file(\"src/scale.c\")
        .include(\"include\")
        .define(\"FACTOR\", \"3\")
        .compile(\"scale\");
}
";

#[test]
fn builder_builds_and_runs() {
    let s = Scratch::new(
        "acc-build-runs",
        true,
        SCALE_BUILD,
        &[
            ("src/main.rs", SCALE_MAIN),
            ("src/scale.c", SCALE_C),
            ("include/scale.h", SCALE_H),
        ],
    );
    let out = s.cargo(&["run", "-q"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("scratch: ok"),
        "{}",
        text(&out)
    );
}

#[test]
fn touching_an_included_header_rebuilds() {
    let s = Scratch::new(
        "acc-build-rebuild",
        true,
        SCALE_BUILD,
        &[
            ("src/main.rs", SCALE_MAIN),
            ("src/scale.c", SCALE_C),
            ("include/scale.h", SCALE_H),
        ],
    );
    let first = s.cargo(&["build", "-v"]);
    assert!(first.status.success(), "{}", text(&first));
    let again = s.cargo(&["build", "-v"]);
    assert!(again.status.success(), "{}", text(&again));
    // Other tests build `acc` in the same target directory, which may
    // relink this crate; but nothing its build script watches changed.
    assert!(
        !reran_build_script(&text(&again)),
        "nothing changed, yet:\n{}",
        text(&again)
    );

    let before = built_lib_time();
    let header = s.dir.join("include/scale.h");
    std::fs::write(&header, format!("{SCALE_H}/* touched */\n")).unwrap();
    let touched = s.cargo(&["build", "-v"]);
    let t = text(&touched);
    assert!(touched.status.success(), "{t}");
    // The build script reruns (which recompiles the C) because of the
    // header, and the crate is relinked.
    assert!(t.contains("scale.h"), "{t}");
    assert!(
        reran_build_script(&t),
        "the build script did not rerun:\n{t}"
    );
    let after = built_lib_time();
    assert!(after > before, "libscale.a was not rebuilt:\n{t}");
    assert!(t.contains("Compiling acc-build-rebuild"), "{t}");
}

/// When the newest `libscale.a` of `acc-build-rebuild` was written.
fn built_lib_time() -> std::time::SystemTime {
    std::fs::read_dir(shared_target().join("debug/build"))
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("acc-build-rebuild-")
        })
        .filter_map(|e| std::fs::metadata(e.path().join("out/libscale.a")).ok())
        .map(|m| m.modified().unwrap())
        .max()
        .expect("no libscale.a")
}

/// Whether `cargo build -v` ran the build script of `acc-build-rebuild`.
fn reran_build_script(cargo_output: &str) -> bool {
    cargo_output.lines().any(|l| {
        l.contains("Running")
            && l.contains("acc-build-rebuild-")
            && l.contains("build-script-build")
    })
}

#[test]
fn a_directive_error_fails_the_build_with_the_rendered_diagnostic() {
    let kernels = "\
void f(int n, double *a) {
  #pragma acc parallel copyinn(a[0:n])
  for (int i = 0; i < n; ++i)
    a[i] *= 2;
}
";
    let s = Scratch::new(
        "acc-build-error",
        true,
        "fn main() {\n    acc_build::compile(\"src/kernels.c\");\n}\n",
        &[
            ("src/main.rs", "use acc as _;\nfn main() {}\n"),
            ("src/kernels.c", kernels),
        ],
    );
    let out = s.cargo(&["build"]);
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    assert!(
        t.contains("src/kernels.c:2:24: error: unknown OpenACC clause `copyinn`"),
        "{t}"
    );
    assert!(t.contains("  #pragma acc parallel copyinn(a[0:n])"), "{t}");
    assert!(t.contains("^~~~~~~"), "{t}");
    assert!(t.contains("1 error generated."), "{t}");
}

#[test]
fn a_translation_warning_is_a_cargo_warning() {
    // A `cache` directive in no loop has no effect: acc says so, and the build goes on.
    let kernels = "\
void f(int n, double *a) {
  #pragma acc parallel copy(a[0:n])
  {
    #pragma acc cache(a[0:1])
    a[0] *= 2;
  }
}
";
    let s = Scratch::new(
        "acc-build-warning",
        true,
        "fn main() {\n    acc_build::compile(\"src/kernels.c\");\n}\n",
        &[
            ("src/main.rs", "use acc as _;\nfn main() {}\n"),
            ("src/kernels.c", kernels),
        ],
    );
    let out = s.cargo(&["build"]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(
        t.lines().any(|l| l.starts_with("warning: acc-build-warning@0.1.0: src/kernels.c:4:17: warning: `acc cache` is in no loop")),
        "{t}"
    );
}

#[test]
fn a_missing_acc_dependency_is_a_clear_error() {
    let s = Scratch::new(
        "acc-build-no-acc",
        false,
        "fn main() {\n    acc_build::compile(\"src/kernels.c\");\n}\n",
        &[
            ("src/main.rs", "fn main() {}\n"),
            ("src/kernels.c", SCALE_C),
        ],
    );
    let out = s.cargo(&["build"]);
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    assert!(
        t.contains("error: `acc-build-no-acc` compiles OpenACC C, which calls the acc runtime: add the `acc` crate to its [dependencies]"),
        "{t}"
    );
    assert!(!t.contains("undefined"), "{t}");
}

#[test]
fn an_acc_dependency_nothing_names_fails_the_link_naming_the_fix() {
    // rustc does not link a dependency the Rust code never names, and C's
    // calls do not count; the generated C names a symbol that says so.
    let main = SCALE_MAIN.replace("use acc as _;\n", "");
    let s = Scratch::new(
        "acc-build-unnamed-acc",
        true,
        SCALE_BUILD,
        &[
            ("src/main.rs", &main),
            ("src/scale.c", SCALE_C),
            ("include/scale.h", SCALE_H),
        ],
    );
    let out = s.cargo(&["build"]);
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    assert!(
        t.contains("acc_runtime_not_linked__write__use_acc_as_underscore__in_the_crate"),
        "{t}"
    );
}

/// The build helper with a compiler that records its arguments (and then
/// runs the real one), as cc-rs's tests do: what the compiler is given, and
/// what the build script tells cargo.
#[test]
fn compiler_arguments_and_cargo_instructions() {
    let build_rs = "\
fn main() {
    let mut b = acc_build::Build::new();
    b.file(\"src/scale.c\")
        .include(\"include\")
        .define(\"FACTOR\", \"3\")
        .flag(\"-DFROM_FLAG=1\");
    b.cc().compiler(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/fake-cc.sh\"));
    b.compile(\"scale\");
}
";
    let s = Scratch::new(
        "acc-build-fake-cc",
        true,
        build_rs,
        &[
            ("src/main.rs", SCALE_MAIN),
            ("src/scale.c", SCALE_C),
            ("include/scale.h", SCALE_H),
        ],
    );
    let log = s.dir.join("cc.log");
    let script = format!(
        "#!/bin/sh\nprintf 'ARGS %s\\n' \"$*\" >> '{}'\nexec cc \"$@\"\n",
        log.display()
    );
    let fake = s.dir.join("fake-cc.sh");
    std::fs::write(&fake, script).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    // The opt level follows the profile: this package's is 2.
    let mut manifest = std::fs::read_to_string(s.dir.join("Cargo.toml")).unwrap();
    manifest.push_str("\n[profile.dev.package.acc-build-fake-cc]\nopt-level = 2\n");
    std::fs::write(s.dir.join("Cargo.toml"), manifest).unwrap();

    let out = s.cargo(&["build", "-vv"]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    let log = std::fs::read_to_string(&log).unwrap();
    let compile = log
        .lines()
        .find(|l| l.contains(" -c ") && l.contains("scale.acc.c"))
        .unwrap_or_else(|| panic!("no compile of the generated C:\n{log}"));
    for want in [
        "-O2",
        "-D_OPENACC=202211",
        "-I include",
        "-DFACTOR=3",
        "-DFROM_FLAG=1",
        "-iquote src",
        "/out/acc-include",
    ] {
        assert!(compile.contains(want), "`{want}` missing:\n{compile}");
    }
    // The dependency list comes from a `-M` run on the user's file.
    assert!(
        log.lines()
            .any(|l| l.contains(" -M ") && l.ends_with("src/scale.c")),
        "{log}"
    );
    for want in [
        "cargo:rerun-if-changed=src/scale.c",
        "cargo:rerun-if-changed=include/scale.h",
        "cargo:rerun-if-env-changed=DEP_ACC_RUNTIME",
        "cargo:rustc-link-lib=static=scale",
    ] {
        assert!(t.contains(want), "`{want}` missing:\n{t}");
    }
    let run = s.cargo(&["run", "-q"]);
    assert!(run.status.success(), "{}", text(&run));
}

#[test]
fn the_heat_example_runs_on_both_cpu_devices() {
    let out = cargo_in(&root(), &["build", "-q", "-p", "heat-rs"]);
    assert!(out.status.success(), "{}", text(&out));
    run_heat();
    // The same with the declarations generated by bindgen, where libclang
    // is installed.
    let out = cargo_in(
        &root(),
        &["build", "-q", "-p", "heat-rs", "--features", "bindgen"],
    );
    if !out.status.success() && text(&out).contains("libclang") {
        assert!(
            std::env::var_os("ACC_REQUIRE_TOOLS").is_none(),
            "libclang is required (ACC_REQUIRE_TOOLS is set):\n{}",
            text(&out)
        );
        eprintln!("skipped: no libclang, so the bindgen build of heat-rs is not tested");
        return;
    }
    assert!(out.status.success(), "{}", text(&out));
    run_heat();
}

fn run_heat() {
    let exe = shared_target().join("debug/heat-rs");
    for device in ["host", "host_discrete"] {
        let run = Command::new(&exe)
            .env("ACC_DEVICE_TYPE", device)
            .output()
            .unwrap();
        assert!(run.status.success(), "{device}: {}", text(&run));
        assert!(
            String::from_utf8_lossy(&run.stdout).starts_with("heat-rs: ok"),
            "{device}: {}",
            text(&run)
        );
    }
}
