//! The NVRTC JIT of the CUDA device, with an in-process and an on-disk cache.
//!
//! A kernel descriptor carries its CUDA version as source text (`cuda_source`, a complete CUDA
//! C translation unit that includes no headers). On its first launch on a device the runtime
//! compiles it with NVRTC for that device's architecture — a CUBIN for `sm_XY` when this NVRTC
//! knows the architecture, else PTX for the newest `compute_XY` it knows, which the driver
//! compiles on load — and keeps the image on disk, so the next run of the program loads it
//! without compiling.
//!
//! **The disk cache.** Directory `$ACC_CACHE_DIR/jit`, else `$XDG_CACHE_HOME/acc/jit`, else
//! `~/.cache/acc/jit`, created with mode 0700; a directory that others may write to is not
//! used (a cached image is code the GPU runs). A file's name is a stable 128-bit FNV-1a hash of
//! everything that determines the image: the source, the architecture option, the other NVRTC
//! options and the NVRTC version ([`cache_key`]). Files are written to a temporary name in the
//! same directory and renamed, so concurrent processes never read a torn image.
//!
//! **Errors.** A compile error names the kernel and its source location, includes the NVRTC
//! log, and keeps the CUDA source in the cache directory for the user to look at.
//!
//! **Without a GPU.** [`nvrtc_available`] and [`compile_cuda`] need only libnvrtc (loaded at run
//! time like libcuda, by [`crate::nvrtc`]: CUDA 12 or 13, on the library path or from a wheel
//! under `$ACC_NVRTC_DIR` or `~/.cache/acc/nvrtc`), so tests of the front ends can compile every
//! generated kernel to PTX on machines without a GPU.

use crate::nvrtc::{self as lib, Program};
use std::ffi::{c_char, c_int, CString};
use std::path::{Path, PathBuf};

/// What an image is: PTX text (NUL-terminated, as `cuModuleLoadData` wants it) or a CUBIN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    Ptx,
    Cubin,
}

/// What NVRTC compiles for: an architecture number (`80` for `sm_80`) and the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub arch: u32,
    pub output: Output,
}

impl Target {
    /// The `--gpu-architecture` option: `sm_XY` gives a CUBIN, `compute_XY` PTX.
    pub fn arch_option(self) -> String {
        match self.output {
            Output::Cubin => format!("--gpu-architecture=sm_{}", self.arch),
            Output::Ptx => format!("--gpu-architecture=compute_{}", self.arch),
        }
    }

    fn extension(self) -> &'static str {
        match self.output {
            Output::Cubin => "cubin",
            Output::Ptx => "ptx",
        }
    }
}

/// Whether NVRTC can be used, and why not; loads libnvrtc on the first call (see
/// [`crate::nvrtc`] for where it is looked for).
pub fn nvrtc_available() -> Result<(), String> {
    lib::get().map(|_| ())
}

/// NVRTC's version, `(12, 9)`.
pub fn nvrtc_version() -> Result<(i32, i32), String> {
    let nv = lib::get()?;
    let (mut major, mut minor): (c_int, c_int) = (0, 0);
    // SAFETY: both pointers are valid for writing.
    nv.check("nvrtcVersion", unsafe {
        (nv.version)(&mut major, &mut minor)
    })?;
    Ok((major, minor))
}

/// The architectures this NVRTC compiles for (`[50, 52, ..., 90, 100, 120]`), ascending.
pub fn supported_archs() -> Result<Vec<u32>, String> {
    let nv = lib::get()?;
    let mut n: c_int = 0;
    // SAFETY: `n` is valid for writing.
    nv.check("nvrtcGetNumSupportedArchs", unsafe {
        (nv.get_num_supported_archs)(&mut n)
    })?;
    let mut archs = vec![0 as c_int; n.max(0) as usize];
    // SAFETY: `archs` has room for the `n` entries NVRTC writes.
    nv.check("nvrtcGetSupportedArchs", unsafe {
        (nv.get_supported_archs)(archs.as_mut_ptr())
    })?;
    let mut archs: Vec<u32> = archs.into_iter().map(|a| a as u32).collect();
    archs.sort_unstable();
    Ok(archs)
}

/// The target for a device of compute capability `cc` (`90` for 9.0): a CUBIN when NVRTC
/// knows the architecture (it loads on any driver of the same major version, where PTX would
/// need a driver at least as new as NVRTC), else PTX for the newest architecture NVRTC knows
/// below it, which the driver compiles on load.
pub fn target_for(cc: u32) -> Result<Target, String> {
    let archs = supported_archs()?;
    if archs.contains(&cc) {
        return Ok(Target {
            arch: cc,
            output: Output::Cubin,
        });
    }
    match archs.iter().rev().find(|&&a| a < cc) {
        Some(&arch) => Ok(Target {
            arch,
            output: Output::Ptx,
        }),
        None => Err(format!(
            "this NVRTC compiles for sm_{} to sm_{}; the device is sm_{cc}",
            archs.first().copied().unwrap_or(0),
            archs.last().copied().unwrap_or(0)
        )),
    }
}

/// NVRTC options besides the architecture: `ACC_NVRTC_OPTIONS` (split at whitespace), e.g.
/// `--fmad=false` or `-lineinfo`.
pub fn extra_options() -> Vec<String> {
    std::env::var("ACC_NVRTC_OPTIONS")
        .map(|s| s.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default()
}

/// The options a module asks for on its first line, `// nvrtc-options: …` (`acc cc` writes
/// `--fmad=false` there for `-ffp-contract=off`; see `acc_rt.h`). They go before the options
/// of the environment, which may override them.
pub fn module_options(source: &str) -> impl Iterator<Item = &str> {
    let first = source.lines().next().unwrap_or("");
    first
        .strip_prefix("// nvrtc-options:")
        .unwrap_or("")
        .split_whitespace()
}

/// A compile that failed: NVRTC's log (or why NVRTC could not run).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    pub log: String,
}

fn c_chars_to_string(v: Vec<c_char>) -> String {
    let bytes: Vec<u8> = v
        .into_iter()
        .map(|c| c as u8)
        .take_while(|&b| b != 0)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Compiles `source` with NVRTC; `name` is the file name NVRTC's messages use. Returns the
/// image (PTX with its terminating NUL, or a CUBIN).
pub fn compile(
    source: &str,
    name: &str,
    target: Target,
    options: &[String],
) -> Result<Vec<u8>, CompileError> {
    let fail = |log: String| CompileError { log };
    let nv = lib::get().map_err(fail)?;
    let src =
        CString::new(source).map_err(|_| fail("the CUDA source contains a NUL byte".to_owned()))?;
    let cname = CString::new(name.replace('\0', " ")).unwrap_or_default();
    // `unsigned __int128` carries the prelude's `long double` arithmetic. C++20 has C's
    // designated initializers (`{.x = 1, .y = 2}`, in declaration order), which kernels and
    // routines written in C use; NVRTC 11 knows C++17 at most.
    let mut opts = vec![target.arch_option(), "--device-int128".to_string()];
    if nvrtc_version().is_ok_and(|(major, _)| major >= 12) {
        opts.push("-std=c++20".to_string());
    }
    opts.extend(module_options(source).map(str::to_owned));
    opts.extend(options.iter().cloned());
    let opts: Vec<CString> = opts
        .into_iter()
        .map(|o| CString::new(o.replace('\0', " ")).unwrap_or_default())
        .collect();
    let opt_ptrs: Vec<*const c_char> = opts.iter().map(|o| o.as_ptr()).collect();
    let mut prog: Program = std::ptr::null_mut();
    // SAFETY: `prog` is valid for writing; the source and name are NUL-terminated and outlive
    // the call; no headers are given.
    nv.check("nvrtcCreateProgram", unsafe {
        (nv.create_program)(
            &mut prog,
            src.as_ptr(),
            cname.as_ptr(),
            0,
            std::ptr::null(),
            std::ptr::null(),
        )
    })
    .map_err(fail)?;
    // SAFETY: `prog` is a live program; the options are NUL-terminated strings that outlive
    // the call.
    let compiled =
        unsafe { (nv.compile_program)(prog, opt_ptrs.len() as c_int, opt_ptrs.as_ptr()) };
    // SAFETY: `prog` is live until it is destroyed below.
    let log = unsafe { read_bytes(prog, nv.get_program_log_size, nv.get_program_log) }
        .map(c_chars_to_string)
        .unwrap_or_default();
    let image = if compiled != 0 {
        Err(fail(if log.trim().is_empty() {
            nv.error_name(compiled)
        } else {
            log
        }))
    } else {
        // SAFETY: the program compiled; the getters size their buffers with NVRTC's sizes.
        unsafe {
            match target.output {
                Output::Ptx => read_bytes(prog, nv.get_ptx_size, nv.get_ptx),
                Output::Cubin => read_bytes(prog, nv.get_cubin_size, nv.get_cubin),
            }
        }
        .map(|v| v.into_iter().map(|c| c as u8).collect())
        .map_err(|r| {
            fail(format!(
                "reading the compiled image failed: {}",
                nv.error_name(r)
            ))
        })
    };
    // SAFETY: `prog` is live and not used afterwards.
    let _ = unsafe { (nv.destroy_program)(&mut prog) };
    image
}

/// One of NVRTC's size-then-bytes getters (log, PTX, CUBIN); `Err` is NVRTC's result code.
///
/// # Safety
/// `prog` is a live program, and `size`/`get` are a matching pair of NVRTC's getters.
unsafe fn read_bytes(
    prog: Program,
    size: unsafe extern "C" fn(Program, *mut usize) -> lib::NvrtcResult,
    get: unsafe extern "C" fn(Program, *mut c_char) -> lib::NvrtcResult,
) -> Result<Vec<c_char>, lib::NvrtcResult> {
    let mut n = 0usize;
    // SAFETY: forwarded from the caller; `n` is valid for writing.
    match unsafe { size(prog, &mut n) } {
        0 => {}
        r => return Err(r),
    }
    let mut bytes = vec![0 as c_char; n];
    // SAFETY: `bytes` has the `n` bytes NVRTC writes.
    match unsafe { get(prog, bytes.as_mut_ptr()) } {
        0 => Ok(bytes),
        r => Err(r),
    }
}

/// Compiles `source` to PTX for `arch` (`"sm_80"`, `"compute_90"` or `"80"`); needs libnvrtc
/// only, no GPU. `name_for_messages` is the file name NVRTC's log uses. Returns the PTX text
/// (without a terminating NUL) or NVRTC's log.
pub fn compile_cuda(source: &str, name_for_messages: &str, arch: &str) -> Result<Vec<u8>, String> {
    compile_cuda_with(source, name_for_messages, arch, &[])
}

/// [`compile_cuda`] with NVRTC options of its own (`-rdc=true` for a part of a linked module).
pub fn compile_cuda_with(
    source: &str,
    name_for_messages: &str,
    arch: &str,
    more: &[&str],
) -> Result<Vec<u8>, String> {
    let num = arch
        .trim_start_matches("sm_")
        .trim_start_matches("compute_")
        .parse::<u32>()
        .map_err(|_| format!("{arch}: expected an architecture such as sm_80"))?;
    let target = Target {
        arch: num,
        output: Output::Ptx,
    };
    let mut options = extra_options();
    options.extend(more.iter().map(|o| o.to_string()));
    let mut ptx = compile(source, name_for_messages, target, &options).map_err(|e| e.log)?;
    while ptx.last() == Some(&0) {
        ptx.pop();
    }
    Ok(ptx)
}

// ---- the disk cache ------------------------------------------------------------------------

/// 128-bit FNV-1a: stable across Rust versions and platforms, unlike `std::hash`.
pub fn fnv1a128(parts: &[&[u8]]) -> u128 {
    const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
    const PRIME: u128 = 0x0000000001000000000000000000013B;
    let mut h = OFFSET;
    for part in parts {
        // Each part's length goes first, so ("ab", "c") and ("a", "bc") differ.
        for b in (part.len() as u64).to_le_bytes().iter().chain(part.iter()) {
            h ^= *b as u128;
            h = h.wrapping_mul(PRIME);
        }
    }
    h
}

/// The cache key of an image: a hash of the source, the architecture option, the other
/// options and the NVRTC version, as 32 hex digits.
pub fn cache_key(source: &str, target: Target, options: &[String], nvrtc: (i32, i32)) -> String {
    let arch = target.arch_option();
    let version = format!("{}.{}", nvrtc.0, nvrtc.1);
    let mut parts: Vec<&[u8]> = vec![
        b"acc-jit-1",
        source.as_bytes(),
        arch.as_bytes(),
        version.as_bytes(),
    ];
    parts.extend(options.iter().map(|o| o.as_bytes()));
    format!("{:032x}", fnv1a128(&parts))
}

/// The cache directory (`$ACC_CACHE_DIR/jit`, `$XDG_CACHE_HOME/acc/jit` or
/// `~/.cache/acc/jit`), without creating it.
pub fn cache_dir_path() -> Option<PathBuf> {
    let var = |n: &str| std::env::var_os(n).filter(|v| !v.is_empty());
    if let Some(d) = var("ACC_CACHE_DIR") {
        return Some(PathBuf::from(d).join("jit"));
    }
    if let Some(d) = var("XDG_CACHE_HOME") {
        return Some(PathBuf::from(d).join("acc").join("jit"));
    }
    var("HOME").map(|h| PathBuf::from(h).join(".cache").join("acc").join("jit"))
}

/// Creates `dir` (and missing parents) with mode 0700, and checks that nobody else may write
/// to it.
pub fn ensure_private_dir(dir: &Path) -> Result<(), String> {
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(dir)
        .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let m =
            std::fs::metadata(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        // SAFETY: `geteuid` has no preconditions and cannot fail.
        let me = unsafe { geteuid() };
        if m.uid() != me || m.mode() & 0o022 != 0 {
            return Err(format!(
                "{} is not a private directory of this user (mode {:o}); not caching JIT images \
                 there",
                dir.display(),
                m.mode() & 0o777
            ));
        }
    }
    Ok(())
}

#[cfg(unix)]
extern "C" {
    fn geteuid() -> u32;
}

/// The cache directory, created; `Err` says why there is none.
pub fn cache_dir() -> Result<PathBuf, String> {
    let dir = cache_dir_path().ok_or("neither ACC_CACHE_DIR, XDG_CACHE_HOME nor HOME is set")?;
    ensure_private_dir(&dir)?;
    Ok(dir)
}

/// Writes `bytes` to `dir/name` through a temporary file in the same directory and a rename,
/// so a concurrent reader sees the old file, no file, or the whole new one.
pub fn write_atomic(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let tmp = dir.join(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        SEQ.fetch_add(1, Ordering::Relaxed)
    ));
    let path = dir.join(name);
    let written = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, &path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map(|()| path)
}

/// A kernel as the JIT sees it: its CUDA source and where it comes from, for messages.
#[derive(Clone, Copy, Debug)]
pub struct KernelSource<'a> {
    pub name: &'a str,
    pub file: &'a str,
    pub line: u32,
    pub source: &'a str,
}

impl KernelSource<'_> {
    /// `file:line: ` (or less when unknown), to start a message with.
    pub fn location(&self) -> String {
        match (self.file.is_empty(), self.line) {
            (true, _) => String::new(),
            (false, 0) => format!("{}: ", self.file),
            (false, l) => format!("{}:{l}: ", self.file),
        }
    }
}

/// The image of `k` for `target`: from the disk cache, or compiled (and then cached). The
/// error is a complete message: the kernel, its location, the architecture, NVRTC's log and
/// the path of the kept CUDA source.
pub fn image_for(k: &KernelSource<'_>, target: Target) -> Result<Vec<u8>, String> {
    let dir = cache_dir();
    if let Err(why) = &dir {
        crate::error::verbose(&format!("JIT cache not used: {why}"));
    }
    image_for_in(k, target, &extra_options(), dir.ok().as_deref())
}

/// [`image_for`] with NVRTC options besides [`extra_options`]: `-rdc=true` for the parts of
/// a linked module (`device_code`).
pub fn image_with(k: &KernelSource<'_>, target: Target, more: &[&str]) -> Result<Vec<u8>, String> {
    let dir = cache_dir();
    if let Err(why) = &dir {
        crate::error::verbose(&format!("JIT cache not used: {why}"));
    }
    let mut options = extra_options();
    options.extend(more.iter().map(|o| o.to_string()));
    image_for_in(k, target, &options, dir.ok().as_deref())
}

/// [`image_for`] with the options and the cache directory (none: no disk cache) given.
pub fn image_for_in(
    k: &KernelSource<'_>,
    target: Target,
    options: &[String],
    dir: Option<&Path>,
) -> Result<Vec<u8>, String> {
    let version = nvrtc_version()?;
    let key = cache_key(k.source, target, options, version);
    let file = format!("{key}.{}", target.extension());
    if let Some(d) = dir {
        if let Ok(image) = std::fs::read(d.join(&file)) {
            if !image.is_empty() {
                return Ok(image);
            }
        }
    }
    let nvrtc_name = if k.file.is_empty() {
        format!("{}.cu", k.name)
    } else {
        format!("{}.cu", k.file)
    };
    match compile(k.source, &nvrtc_name, target, options) {
        Ok(image) => {
            if let Some(d) = dir {
                if let Err(e) = write_atomic(d, &file, &image) {
                    crate::error::verbose(&format!(
                        "cannot write {}: {e}",
                        d.join(&file).display()
                    ));
                }
            }
            Ok(image)
        }
        Err(e) => {
            let kept = match dir {
                Some(d) => {
                    let name = format!("{key}-{}.cu", sanitize(k.name));
                    match write_atomic(d, &name, k.source.as_bytes()) {
                        Ok(p) => format!("the CUDA source is in {}", p.display()),
                        Err(err) => format!("the CUDA source could not be kept: {err}"),
                    }
                }
                None => "the CUDA source could not be kept: no cache directory".to_owned(),
            };
            Err(format!(
                "{}kernel '{}' failed to compile for {} with NVRTC {}.{}:\n{}\n{kept}",
                k.location(),
                k.name,
                target
                    .arch_option()
                    .trim_start_matches("--gpu-architecture="),
                version.0,
                version.1,
                e.log.trim_end()
            ))
        }
    }
}

/// A kernel name made safe for a file name.
fn sanitize(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    if s.is_empty() {
        "kernel".into()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_is_stable_and_separates_parts() {
        // Reference value of 128-bit FNV-1a over the empty input is its offset basis.
        assert_eq!(fnv1a128(&[]), 0x6c62272e07bb014262b821756295c58d);
        assert_ne!(fnv1a128(&[b"ab", b"c"]), fnv1a128(&[b"a", b"bc"]));
        assert_eq!(fnv1a128(&[b"x"]), fnv1a128(&[b"x"]));
    }

    #[test]
    fn a_module_asks_for_options_on_its_first_line_only() {
        let asked = |s| module_options(s).collect::<Vec<_>>();
        assert_eq!(
            asked("// nvrtc-options: --fmad=false -lineinfo\n__global__ void k() {}"),
            ["--fmad=false", "-lineinfo"]
        );
        assert!(asked("__global__ void k() {}\n// nvrtc-options: --fmad=false").is_empty());
        assert!(asked("").is_empty());
    }

    #[test]
    fn sanitize_keeps_names_readable() {
        assert_eq!(sanitize("main$k0 (line 3)"), "main_k0__line_3_");
        assert_eq!(sanitize(""), "kernel");
    }
}
