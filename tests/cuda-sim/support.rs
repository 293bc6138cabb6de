//! The CUDA simulator (`tests/cuda-sim`) for tests: builds the fake libcuda and libnvrtc once
//! per version of their sources, and sets up the environment under which a child process
//! sees a simulated GPU. Included with `#[path]` by the test files that use it.
#![allow(dead_code)]

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The simulator's sources, in the repository.
fn source_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|a| a.join("tests").join("cuda-sim"))
        .find(|d| d.join("libcuda.c").is_file())
        .expect("tests/cuda-sim above this crate")
}

const SOURCES: &[&str] = &[
    "libcuda.c",
    "libnvrtc.c",
    "sim_api.h",
    "sim_util.h",
    "shim.h",
];

/// The built simulator: a directory holding `libcuda.so.1` and `libnvrtc.so.12` (and their
/// unversioned names, which cudarc tries first).
pub struct Simulator {
    pub lib_dir: PathBuf,
}

/// Whether `tool --version` runs; without it the caller skips, unless `ACC_REQUIRE_TOOLS`.
fn runs(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn var(name: &str, default: &str) -> String {
    std::env::var(name)
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| default.to_owned())
}

/// The simulator, built on first use. `None` when there is no C or C++ compiler (the test
/// then says it skipped), except under `ACC_REQUIRE_TOOLS`, where that fails the test.
pub fn simulator() -> Option<&'static Simulator> {
    static SIM: OnceLock<Option<Simulator>> = OnceLock::new();
    SIM.get_or_init(|| {
        let cc = var("CC", "cc");
        let cxx = var("ACC_SIM_CXX", "c++");
        let cxx = cxx.split_whitespace().next().unwrap_or("c++").to_owned();
        for tool in [&cc, &cxx] {
            if !runs(tool) {
                assert!(
                    std::env::var_os("ACC_REQUIRE_TOOLS").is_none(),
                    "the CUDA simulator needs {tool} (ACC_REQUIRE_TOOLS is set)"
                );
                eprintln!("skipped: the CUDA simulator needs {tool}");
                return None;
            }
        }
        Some(build(&cc))
    })
    .as_ref()
}

/// 64-bit FNV-1a, to name a build after its sources.
fn fnv64(bytes: &[u8], mut h: u64) -> u64 {
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

fn build(cc: &str) -> Simulator {
    let src = source_dir();
    let mut h = 0xcbf29ce484222325;
    for f in SOURCES {
        let text = std::fs::read(src.join(f)).unwrap();
        h = fnv64(f.as_bytes(), h);
        h = fnv64(&text, h);
    }
    h = fnv64(cc.as_bytes(), h);
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cuda-sim");
    let dir = root.join(format!("{h:016x}"));
    if dir.join("libnvrtc.so.12").is_file() {
        return Simulator { lib_dir: dir };
    }
    // Built beside and renamed into place, so concurrent test processes never see half a
    // build.
    let tmp = root.join(format!("{h:016x}.{}.tmp", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    let common = [
        "-std=gnu11",
        "-O2",
        "-g",
        "-Wall",
        "-Wextra",
        "-fPIC",
        "-shared",
        "-fvisibility=hidden",
    ];
    let libs: [(&str, &str, Vec<String>); 2] = [
        (
            "libcuda.c",
            "libcuda.so.1",
            vec!["-ldl".into(), "-lpthread".into()],
        ),
        (
            "libnvrtc.c",
            "libnvrtc.so.12",
            vec![format!("-DACC_SIM_DIR=\"{}\"", src.display())],
        ),
    ];
    for (source, soname, extra) in libs {
        let out = Command::new(cc)
            .args(common)
            .arg(format!("-Wl,-soname,{soname}"))
            .arg("-o")
            .arg(tmp.join(soname))
            .arg(src.join(source))
            .args(&extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "building the CUDA simulator's {soname} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let plain = soname.split(".so").next().unwrap().to_owned() + ".so";
        std::os::unix::fs::symlink(soname, tmp.join(plain)).unwrap();
    }
    if std::fs::rename(&tmp, &dir).is_err() {
        // Another process finished first: use its build.
        let _ = std::fs::remove_dir_all(&tmp);
    }
    Simulator { lib_dir: dir }
}

impl Simulator {
    /// The variables under which a process sees the simulated GPU: the fake libraries first on
    /// the library path (ahead of a real driver or NVRTC), and JIT images cached in `cache`.
    pub fn env(&self, cache: &Path) -> Vec<(&'static str, OsString)> {
        let mut path = OsString::from(&self.lib_dir);
        if let Some(old) = std::env::var_os("LD_LIBRARY_PATH").filter(|p| !p.is_empty()) {
            path.push(":");
            path.push(old);
        }
        vec![
            ("LD_LIBRARY_PATH", path),
            ("ACC_NVRTC_DIR", self.lib_dir.clone().into()),
            ("ACC_CACHE_DIR", cache.into()),
        ]
    }

    /// `cmd` with [`env`](Self::env) applied.
    pub fn configure<'c>(&self, cmd: &'c mut Command, cache: &Path) -> &'c mut Command {
        cmd.envs(self.env(cache))
    }
}

/// A fresh, private directory for a child's JIT cache: each run compiles its kernels again,
/// so the fake NVRTC is always exercised.
pub fn fresh_cache(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cuda-sim-cache-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The variable that tells a test it runs in the child process of [`run_child`].
pub const CHILD: &str = "ACC_SIM_CHILD";

/// The mode this test process was started in by [`run_child`], if any.
pub fn child_mode() -> Option<String> {
    std::env::var(CHILD).ok().filter(|m| !m.is_empty())
}

/// Runs this test binary again under the simulator, with `mode` in [`CHILD`] and `args` for
/// the test harness (a filter, `--exact`), and returns its output.
pub fn run_child(sim: &Simulator, mode: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
    let exe = std::env::current_exe().unwrap();
    let cache = fresh_cache(mode);
    let mut cmd = Command::new(exe);
    cmd.args(args)
        .arg("--nocapture")
        .env(CHILD, mode)
        .env_remove("ACC_DEVICE_TYPE")
        .env_remove("ACC_DEVICE_NUM");
    sim.configure(&mut cmd, &cache);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = output_within(&mut cmd, CHILD_TIMEOUT);
    let _ = std::fs::remove_dir_all(&cache);
    out
}

/// How long a child may run: a simulated kernel that hangs (as it would on a GPU) fails the
/// test instead of stalling it.
pub const CHILD_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(600);

/// `cmd`'s output, killing it after `limit` (it then fails with what it printed so far).
pub fn output_within(cmd: &mut Command, limit: std::time::Duration) -> Output {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipes = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = pipes.1.read_to_end(&mut v);
        v
    });
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = pipes.0.read_to_end(&mut v);
        v
    });
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            break child.wait().unwrap();
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let (stdout, mut stderr) = (out.join().unwrap(), err.join().unwrap());
    if start.elapsed() > limit {
        stderr.extend_from_slice(format!("\n(killed after {limit:?})\n").as_bytes());
    }
    Output {
        status,
        stdout,
        stderr,
    }
}

/// Everything a child printed, for assertion messages.
pub fn printed(out: &Output) -> String {
    format!(
        "status: {}\n--- stdout\n{}--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}
