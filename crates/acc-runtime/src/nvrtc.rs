//! libnvrtc, opened at run time by any of its names: the few NVRTC functions the JIT calls,
//! bound by hand.
//!
//! cudarc's binding finds the library only by the names of the CUDA version it was built for
//! (`libnvrtc.so`, `libnvrtc.so.12`, …), so a machine with CUDA 13 alone — whose toolkit and
//! PyPI wheel ship `libnvrtc.so.13` only — had no JIT. The functions used here have had the same
//! C signatures since CUDA 11.2, so one binding serves every version; the version loaded is
//! part of the JIT cache key ([`crate::jit::cache_key`]).
//!
//! Must not: call into the driver (that is `device::cuda`'s), or keep more than the library
//! handle as state.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// `nvrtcResult`; 0 is success.
pub type NvrtcResult = c_int;
/// `nvrtcProgram`.
pub type Program = *mut c_void;

/// The library's functions, resolved once.
pub struct Nvrtc {
    _lib: libloading::Library,
    pub path: String,
    pub version: unsafe extern "C" fn(*mut c_int, *mut c_int) -> NvrtcResult,
    pub get_num_supported_archs: unsafe extern "C" fn(*mut c_int) -> NvrtcResult,
    pub get_supported_archs: unsafe extern "C" fn(*mut c_int) -> NvrtcResult,
    pub create_program: unsafe extern "C" fn(
        *mut Program,
        *const c_char,
        *const c_char,
        c_int,
        *const *const c_char,
        *const *const c_char,
    ) -> NvrtcResult,
    pub compile_program: unsafe extern "C" fn(Program, c_int, *const *const c_char) -> NvrtcResult,
    pub get_program_log_size: unsafe extern "C" fn(Program, *mut usize) -> NvrtcResult,
    pub get_program_log: unsafe extern "C" fn(Program, *mut c_char) -> NvrtcResult,
    pub get_ptx_size: unsafe extern "C" fn(Program, *mut usize) -> NvrtcResult,
    pub get_ptx: unsafe extern "C" fn(Program, *mut c_char) -> NvrtcResult,
    pub get_cubin_size: unsafe extern "C" fn(Program, *mut usize) -> NvrtcResult,
    pub get_cubin: unsafe extern "C" fn(Program, *mut c_char) -> NvrtcResult,
    pub destroy_program: unsafe extern "C" fn(*mut Program) -> NvrtcResult,
    get_error_string: unsafe extern "C" fn(NvrtcResult) -> *const c_char,
}

impl Nvrtc {
    /// NVRTC's name for a result code (`NVRTC_ERROR_COMPILATION`).
    pub fn error_name(&self, r: NvrtcResult) -> String {
        // SAFETY: nvrtcGetErrorString takes any code and returns a static string (or NULL).
        let p = unsafe { (self.get_error_string)(r) };
        if p.is_null() {
            return format!("NVRTC error {r}");
        }
        // SAFETY: a non-null result is a NUL-terminated static string.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }

    /// `Err` with the error's name unless `r` is success.
    pub fn check(&self, what: &str, r: NvrtcResult) -> Result<(), String> {
        if r == 0 {
            Ok(())
        } else {
            Err(format!("{what} failed: {}", self.error_name(r)))
        }
    }
}

/// The names tried on the library path, newest first after the plain development name.
const SONAMES: &[&str] = &[
    "libnvrtc.so",
    "libnvrtc.so.13",
    "libnvrtc.so.12",
    "libnvrtc.so.11.2",
];

/// Where a wheel puts the library under its `--target` directory: `nvidia-cuda-nvrtc-cu12`
/// (`nvidia/cuda_nvrtc/lib`) and CUDA 13's `nvidia-cuda-nvrtc` (`nvidia/cu13/lib`).
const WHEEL_FILES: &[&str] = &[
    "nvidia/cu13/lib/libnvrtc.so.13",
    "nvidia/cuda_nvrtc/lib/libnvrtc.so.12",
    "libnvrtc.so.13",
    "libnvrtc.so.12",
];

/// Where a wheel may have been installed (`pip install --target`): `$ACC_NVRTC_DIR`, then
/// `$XDG_CACHE_HOME/acc/nvrtc`, then `~/.cache/acc/nvrtc`.
fn wheel_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(d) = std::env::var_os("ACC_NVRTC_DIR").filter(|d| !d.is_empty()) {
        dirs.push(PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        dirs.push(PathBuf::from(d).join("acc").join("nvrtc"));
    }
    if let Some(h) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        dirs.push(PathBuf::from(h).join(".cache").join("acc").join("nvrtc"));
    }
    dirs
}

/// Resolves every function of [`Nvrtc`] in `lib`.
fn bind(lib: libloading::Library, path: String) -> Result<Nvrtc, String> {
    macro_rules! sym {
        ($name:literal) => {
            // SAFETY: the symbol is NVRTC's function of that name, whose C signature is the
            // field's type (unchanged from CUDA 11.2 to 13).
            *unsafe { lib.get(concat!($name, "\0").as_bytes()) }
                .map_err(|e| format!("{path} has no {}: {e}", $name))?
        };
    }
    Ok(Nvrtc {
        version: sym!("nvrtcVersion"),
        get_num_supported_archs: sym!("nvrtcGetNumSupportedArchs"),
        get_supported_archs: sym!("nvrtcGetSupportedArchs"),
        create_program: sym!("nvrtcCreateProgram"),
        compile_program: sym!("nvrtcCompileProgram"),
        get_program_log_size: sym!("nvrtcGetProgramLogSize"),
        get_program_log: sym!("nvrtcGetProgramLog"),
        get_ptx_size: sym!("nvrtcGetPTXSize"),
        get_ptx: sym!("nvrtcGetPTX"),
        get_cubin_size: sym!("nvrtcGetCUBINSize"),
        get_cubin: sym!("nvrtcGetCUBIN"),
        destroy_program: sym!("nvrtcDestroyProgram"),
        get_error_string: sym!("nvrtcGetErrorString"),
        path,
        _lib: lib,
    })
}

fn open(name: &Path) -> Option<libloading::Library> {
    // SAFETY: opening libnvrtc runs its initialisers, which have no preconditions; the library
    // stays loaded for the rest of the process.
    unsafe { libloading::Library::new(name) }.ok()
}

fn load() -> Result<Nvrtc, String> {
    for name in SONAMES {
        if let Some(lib) = open(Path::new(name)) {
            return bind(lib, (*name).to_owned());
        }
    }
    let mut tried = Vec::new();
    for dir in wheel_dirs() {
        for rel in WHEEL_FILES {
            let path = dir.join(rel);
            if !path.is_file() {
                continue;
            }
            tried.push(path.display().to_string());
            if let Some(lib) = open(&path) {
                return bind(lib, path.display().to_string());
            }
        }
    }
    let also = if tried.is_empty() {
        String::new()
    } else {
        format!(" (also tried {})", tried.join(", "))
    };
    Err(format!(
        "libnvrtc not found: none of {} on the library path{also}; install it with \
         `python3 -m pip install --target DIR nvidia-cuda-nvrtc-cu12` (or CUDA 13's \
         `nvidia-cuda-nvrtc`) and set ACC_NVRTC_DIR=DIR, or add a CUDA toolkit's lib64 to \
         LD_LIBRARY_PATH",
        SONAMES.join(", ")
    ))
}

/// libnvrtc, loaded on the first call.
pub fn get() -> Result<&'static Nvrtc, String> {
    static LIB: OnceLock<Result<Nvrtc, String>> = OnceLock::new();
    LIB.get_or_init(load).as_ref().map_err(Clone::clone)
}
