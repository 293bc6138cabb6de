//! The tools `acc cc` drives and the files it needs: the host C compiler,
//! the runtime's headers and static library, a temporary directory, and
//! running commands with their exit status.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How a step of `acc cc` failed.
#[derive(Debug)]
pub enum Fail {
    /// Our own error, not yet printed: `acc: error: …`, status 1.
    Msg(String),
    /// Already reported (diagnostics, or the host compiler's own messages):
    /// exit with this status.
    Status(u8),
}

pub type Result<T> = std::result::Result<T, Fail>;

/// The system libraries a Rust static library needs, from
/// `cargo rustc -p acc-runtime --lib --crate-type staticlib -- --print native-static-libs`
/// (x86_64 and aarch64 Linux with glibc, Rust 1.90).
#[cfg(target_os = "linux")]
pub const RUNTIME_SYSTEM_LIBS: &[&str] = &[
    "-lgcc_s",
    "-lutil",
    "-lrt",
    "-lpthread",
    "-lm",
    "-ldl",
    "-lc",
];
#[cfg(target_os = "macos")]
pub const RUNTIME_SYSTEM_LIBS: &[&str] = &["-lSystem", "-lc", "-lm"];
#[cfg(not(any(target_os = "linux", target_os = "macos")))]
pub const RUNTIME_SYSTEM_LIBS: &[&str] = &["-lpthread", "-ldl", "-lm"];

/// The file name of the runtime's static library.
pub const RUNTIME_LIB: &str = "libacc_runtime.a";

/// Set in the environment of the C compiler acc runs: an `acc cc` that finds it was run *as*
/// that compiler, by a `$CC` that is a script around `acc cc` (`make CC=./my-acc-cc`, the
/// script exported to the commands make runs), which `HostCc::from_env` cannot see through.
/// Taking `$CC` again would start `acc cc` after `acc cc` until the machine runs out of
/// processes; it runs the C compiler acc would fall back to instead (see [`host_cc_pass_through`]).
pub const INSIDE_HOST_CC: &str = "ACC_INSIDE_HOST_CC";

/// Whether this `acc cc` was started by another one as its C compiler ([`INSIDE_HOST_CC`]).
pub fn inside_host_cc() -> bool {
    std::env::var_os(INSIDE_HOST_CC).is_some()
}

/// Runs `args` with `$ACC_CC`, or `cc`: what the `acc cc` that started this one meant its C
/// compiler to do, `$CC` being a way back to acc.
pub fn host_cc_pass_through(args: &[String]) -> u8 {
    let cc = HostCc::without_cc();
    let mut cmd = cc.command();
    cmd.args(args);
    match run(cmd, false) {
        Ok(()) => 0,
        Err(Fail::Status(code)) => code,
        Err(Fail::Msg(m)) => {
            eprintln!("acc: error: {m}");
            1
        }
    }
}

/// The host C compiler: a program and the words that follow it in `$CC`
/// (`CC="ccache gcc -m32"`).
#[derive(Clone, Debug)]
pub struct HostCc {
    pub words: Vec<String>,
}

impl HostCc {
    /// `$ACC_CC`, else `$CC` unless it names `acc` itself, else `cc`.
    ///
    /// `make CC="acc cc"` exports `CC` to the commands it runs, so `$CC` is
    /// often ourselves; taking it would run `acc cc` forever.
    pub fn from_env() -> HostCc {
        let pick = |v: Option<std::ffi::OsString>| {
            let v = v?.into_string().ok()?;
            let words: Vec<String> = v.split_whitespace().map(String::from).collect();
            (!words.is_empty() && !names_acc(&words)).then_some(words)
        };
        let words = pick(std::env::var_os("ACC_CC"))
            .or_else(|| pick(std::env::var_os("CC")))
            .unwrap_or_else(|| vec!["cc".to_string()]);
        HostCc { words }
    }

    /// `$ACC_CC` unless it names `acc`, else `cc`: `$CC` left out.
    fn without_cc() -> HostCc {
        let words = std::env::var("ACC_CC")
            .ok()
            .map(|v| v.split_whitespace().map(String::from).collect::<Vec<_>>())
            .filter(|w| !w.is_empty() && !names_acc(w))
            .unwrap_or_else(|| vec!["cc".to_string()]);
        HostCc { words }
    }

    /// A command that runs the compiler.
    pub fn command(&self) -> Command {
        let mut c = Command::new(&self.words[0]);
        c.args(&self.words[1..]);
        c
    }

    /// The program and leading flags for `header_facts`, which takes one
    /// program name: a wrapper such as `ccache` is skipped, the compiler's
    /// own flags (`-m32`) go first among the arguments.
    pub fn for_preprocessor(&self) -> (String, Vec<String>) {
        let program = self
            .words
            .iter()
            .rfind(|w| !w.starts_with('-'))
            .unwrap_or(&self.words[0]);
        let flags = self
            .words
            .iter()
            .filter(|w| w.starts_with('-'))
            .cloned()
            .collect();
        (program.clone(), flags)
    }
}

/// Whether a `$CC` value is `acc cc`, `acc-cc` or `acc run`.
fn names_acc(words: &[String]) -> bool {
    let stem = |w: &str| {
        Path::new(w)
            .file_name()
            .and_then(OsStr::to_str)
            .unwrap_or("")
            .to_string()
    };
    words.iter().any(|w| {
        let s = stem(w);
        s == "acc-cc" || (s == "acc" && !w.starts_with('-'))
    })
}

/// Runs a command with the terminal's standard streams; a failure is the
/// command's status (its messages are already on stderr).
pub fn run(mut cmd: Command, verbose: bool) -> Result<()> {
    if verbose {
        eprintln!("acc: running {}", show(&cmd));
    }
    let status = cmd.status().map_err(|e| {
        Fail::Msg(format!(
            "cannot run `{}`: {e}",
            cmd.get_program().to_string_lossy()
        ))
    })?;
    if status.success() {
        Ok(())
    } else {
        Err(Fail::Status(exit_code(status)))
    }
}

/// The status to exit with for a child's status: its code, or 128 plus the
/// signal that ended it, as a shell does.
pub fn exit_code(status: std::process::ExitStatus) -> u8 {
    if let Some(code) = status.code() {
        return code as u8;
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return 128u8.wrapping_add(sig as u8);
        }
    }
    1
}

pub fn show(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// The runtime's headers, written once into a cache directory named by
/// their contents: the binary carries them, so `acc` works wherever it is
/// copied.
pub fn runtime_include() -> Result<PathBuf> {
    const HEADERS: &[(&str, &str)] = &[
        (
            "openacc.h",
            include_str!("../../acc-runtime/include/openacc.h"),
        ),
        (
            "acc_rt.h",
            include_str!("../../acc-runtime/include/acc_rt.h"),
        ),
        (
            "acc_prof.h",
            include_str!("../../acc-runtime/include/acc_prof.h"),
        ),
    ];
    let mut hash = Fnv::default();
    for (name, text) in HEADERS {
        hash.add(name.as_bytes());
        hash.add(text.as_bytes());
    }
    let leaf = format!("include-{:016x}", hash.0);
    let mut last_err = None;
    for base in cache_bases() {
        let dir = base.join(&leaf);
        match write_headers(&dir, HEADERS) {
            Ok(()) => return Ok(dir),
            Err(e) => last_err = Some(format!("{}: {e}", dir.display())),
        }
    }
    Err(Fail::Msg(format!(
        "cannot write the runtime headers: {}",
        last_err.unwrap_or_default()
    )))
}

fn cache_bases() -> Vec<PathBuf> {
    let mut bases = Vec::new();
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        bases.push(PathBuf::from(d).join("acc"));
    } else if let Some(h) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        bases.push(PathBuf::from(h).join(".cache").join("acc"));
    }
    bases.push(std::env::temp_dir().join(format!("acc-cache-{}", user_tag())));
    bases
}

fn user_tag() -> String {
    std::env::var("USER")
        .or_else(|_| std::env::var("LOGNAME"))
        .unwrap_or_else(|_| "user".into())
}

/// A file in the first cache directory that can be made (`None`: none can): for what is
/// worth keeping between runs, named by what it was made from.
pub fn cache_file(name: &str) -> Option<PathBuf> {
    cache_bases()
        .into_iter()
        .find(|b| std::fs::create_dir_all(b).is_ok())
        .map(|b| b.join(name))
}

/// Writes `text` aside and renames it into place, so that a parallel reader (`make -j`) sees
/// the whole file or none.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension(format!("tmp-{}", unique()));
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

/// Copies `from` to `to` the same way.
pub fn copy_atomically(from: &Path, to: &Path) -> std::io::Result<()> {
    let tmp = to.with_extension(format!("tmp-{}", unique()));
    std::fs::copy(from, &tmp)?;
    std::fs::rename(&tmp, to)
}

/// Writes each header unless it is already there with the same text; a
/// new file is written aside and renamed, so parallel builds (`make -j`)
/// never read half a header.
fn write_headers(dir: &Path, headers: &[(&str, &str)]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (name, text) in headers {
        let path = dir.join(name);
        if std::fs::read(&path).is_ok_and(|old| old == text.as_bytes()) {
            continue;
        }
        let tmp = dir.join(format!(".{name}.{}", unique()));
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, &path)?;
    }
    Ok(())
}

/// 64-bit FNV-1a of `bytes`, enough to name a file in the cache.
pub fn fnv(bytes: &[u8]) -> u64 {
    let mut h = Fnv::default();
    h.add(bytes);
    h.0
}

/// 64-bit FNV-1a, enough to name a cache directory.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The runtime's static library: `$ACC_RUNTIME_LIB` (the file or its
/// directory), else beside the `acc` executable (where cargo puts it when
/// the workspace is built), else in `../lib` from it (an installed layout).
pub fn runtime_lib() -> Result<PathBuf> {
    if let Some(v) = std::env::var_os("ACC_RUNTIME_LIB").filter(|v| !v.is_empty()) {
        let p = PathBuf::from(&v);
        let file = if p.is_dir() { p.join(RUNTIME_LIB) } else { p };
        if file.is_file() {
            return Ok(file);
        }
        return Err(Fail::Msg(format!(
            "ACC_RUNTIME_LIB is set to `{}`, but there is no `{}` there",
            PathBuf::from(v).display(),
            file.display()
        )));
    }
    let exe = std::env::current_exe()
        .map_err(|e| Fail::Msg(format!("cannot find the acc executable: {e}")))?;
    let exe = exe.canonicalize().unwrap_or(exe);
    let dir = exe.parent().unwrap_or(Path::new("."));
    let candidates = [
        dir.join(RUNTIME_LIB),
        dir.join("..").join("lib").join(RUNTIME_LIB),
    ];
    if let Some(found) = candidates.iter().find(|c| c.is_file()) {
        return Ok(found.clone());
    }
    let profile = match dir.file_name().and_then(OsStr::to_str) {
        Some("debug") => "",
        Some("release") | None => " --release",
        Some(p) => return Err(not_found(&candidates, &format!(" --profile {p}"))),
    };
    Err(not_found(&candidates, profile))
}

fn not_found(candidates: &[PathBuf], profile: &str) -> Fail {
    let looked: Vec<String> = candidates.iter().map(|c| c.display().to_string()).collect();
    Fail::Msg(format!(
        "cannot find the acc runtime library `{RUNTIME_LIB}` (looked at {}); \
         build it with `cargo build{profile} -p acc-runtime` (the profile acc was built with), \
         or set ACC_RUNTIME_LIB to its path",
        looked.join(", ")
    ))
}

/// A directory of our own under the system's temporary directory, removed
/// when dropped.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    pub fn new(what: &str) -> Result<TempDir> {
        let base = std::env::temp_dir();
        for _ in 0..100 {
            let path = base.join(format!("acc-{what}-{}", unique()));
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(TempDir { path }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(Fail::Msg(format!(
                        "cannot create a temporary directory in {}: {e}",
                        base.display()
                    )))
                }
            }
        }
        Err(Fail::Msg(format!(
            "cannot create a temporary directory in {}",
            base.display()
        )))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// A name no other process or call of ours uses at the same time.
fn unique() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!(
        "{}-{nanos}-{}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn cc_naming_acc_is_not_the_host_compiler() {
        assert!(names_acc(&words("acc cc")));
        assert!(names_acc(&words("/work/target/debug/acc cc")));
        assert!(names_acc(&words("/usr/local/bin/acc-cc")));
        assert!(!names_acc(&words("gcc")));
        assert!(!names_acc(&words("clang -target x86_64-linux-gnu")));
        assert!(!names_acc(&words("accel-gcc")));
    }

    #[test]
    fn preprocessor_program_skips_wrappers() {
        let cc = HostCc {
            words: words("ccache gcc -m32"),
        };
        assert_eq!(cc.for_preprocessor(), ("gcc".into(), words("-m32")));
        let cc = HostCc { words: words("cc") };
        assert_eq!(cc.for_preprocessor(), ("cc".into(), vec![]));
    }
}
