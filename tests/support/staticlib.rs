//! The runtime's static library for tests that link C programs: `$ACC_RUNTIME_LIB` when set,
//! else built by cargo into a target directory of the tests' own (`CARGO_TARGET_TMPDIR/
//! staticlib`): cargo does not build a staticlib for a test's crate, one beside the `acc`
//! binary may be stale, and the target directory of the running cargo is locked. A no-op when
//! it is up to date. Included with `#[path]` by acc-runtime's and acc-cli's tests.
//!
//! The library is built with line tables only (no full debug info): every test program links
//! it, and full debug info made each one 40 MB, which filled CI's disk with a few hundred
//! programs; line tables keep backtraces' file and line.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub fn runtime_staticlib() -> PathBuf {
    static LIB: OnceLock<PathBuf> = OnceLock::new();
    LIB.get_or_init(|| {
        if let Some(p) = std::env::var_os("ACC_RUNTIME_LIB").filter(|p| !p.is_empty()) {
            return PathBuf::from(p);
        }
        let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("staticlib");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let out = Command::new(cargo)
            .args([
                "build",
                "--quiet",
                "-p",
                "acc-runtime",
                "--lib",
                "--target-dir",
            ])
            .arg(&target)
            .env("CARGO_PROFILE_DEV_DEBUG", "line-tables-only")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("run cargo to build the static library");
        assert!(
            out.status.success(),
            "building libacc_runtime.a failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        target.join("debug").join("libacc_runtime.a")
    })
    .clone()
}
