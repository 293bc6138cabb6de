//! Helpers shared by the end-to-end tests of `acc`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const CRATE: &str = env!("CARGO_MANIFEST_DIR");

/// Whether the tools these tests need are here; without them a test says
/// so and passes, unless `ACC_REQUIRE_TOOLS` is set (as in CI).
pub fn have(tool: &str) -> bool {
    let ok = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("ACC_REQUIRE_TOOLS").is_none(),
            "{tool} is required"
        );
        eprintln!("skipped: no {tool}");
    }
    ok
}

pub fn have_cc() -> bool {
    have(&std::env::var("CC").unwrap_or_else(|_| "cc".into()))
}

#[path = "../../../../tests/support/staticlib.rs"]
mod staticlib;
pub use staticlib::runtime_staticlib as runtime_lib;

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(CRATE).join("../..")
}

/// The programs `acc cc` must build: the conformance corpus, the
/// translation corpus and the README's Jacobi example.
pub fn programs() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["tests/conformance", "tests/corpus"] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "c") {
                files.push(p);
            }
        }
    }
    files.push(root().join("examples/jacobi.c"));
    files.sort();
    files
}

/// Programs whose kernels (some or all) have no CUDA form yet, with the
/// reason `--info` gives; on the `nvidia` device they stop with the
/// runtime's "without a CUDA version" error.
pub const WITHOUT_CUDA: &[(&str, &str)] = &[(
    "routine-undeclared-global",
    "which no `declare` directive gives a device copy",
)];

/// `acc` with the runtime library named and `$CC` left to the user's.
pub fn acc(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_acc"));
    c.current_dir(dir).env("ACC_RUNTIME_LIB", runtime_lib());
    c
}

/// A fresh directory for one test, with the given files.
pub fn project(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("acc-cc")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// The output of a command that must have succeeded.
pub fn ok(out: Output) -> Output {
    assert!(
        out.status.success(),
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn exe(dir: &Path, name: &str) -> Output {
    Command::new(dir.join(name)).output().unwrap()
}

/// What the program `name` in `dir` prints on `device` (`ACC_DEVICE_TYPE`), once it has
/// exited 0.
pub fn stdout_on(dir: &Path, name: &str, device: &str) -> String {
    let out = Command::new(dir.join(name))
        .env("ACC_DEVICE_TYPE", device)
        .output()
        .unwrap();
    stdout(&ok(out))
}
