//! The runtime's one error path: a typed error for the Rust layers, and `fatal`, which prints
//! `acc: error: FILE:LINE: ...` and ends the process for the C ABI.

use std::borrow::Cow;
use std::ffi::{c_char, c_void, CStr, CString};
use std::fmt;
use std::sync::Mutex;

/// What went wrong, so that tests and callers can tell errors apart without parsing messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A variable the program said would be present is not mapped on the device.
    NotPresent,
    /// A host range overlaps a mapped range without being contained in it.
    PartialOverlap,
    /// The device has no room for an allocation.
    OutOfMemory,
    /// `acc_unmap_data` of data that is not mapped, or not mapped with `acc_map_data`.
    BadUnmap,
    /// `acc_free` of memory that is still mapped, or that `acc_malloc` did not return.
    BadFree,
    /// `acc_map_data` of a host range that is already present.
    AlreadyMapped,
    /// A device address outside every live device allocation.
    BadDevicePointer,
    /// A device type or number that this build or machine does not have.
    NoDevice,
    /// An argument outside the routine's domain (bad async value, unknown clause kind, ...).
    InvalidArgument,
    /// A Rust panic inside the runtime, caught at the C ABI.
    Internal,
    /// A call into the device's driver failed (CUDA), or a kernel could not be compiled.
    Device,
}

/// A runtime error with the source location (or routine) it happened at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    location: String,
    message: String,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: ErrorKind, site: &Site<'_>, message: impl Into<String>) -> Error {
        Error {
            kind,
            location: site.location(),
            message: message.into(),
        }
    }

    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.location.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.location, self.message)
        }
    }
}

impl std::error::Error for Error {}

/// Text that came either from Rust or from C; C strings are only measured when an error is
/// formatted, which keeps the hot paths free of `strlen`.
#[derive(Clone, Copy, Debug, Default)]
pub enum Text<'a> {
    #[default]
    None,
    Str(&'a str),
    C(*const c_char),
}

impl<'a> Text<'a> {
    /// The text itself; `None` when there is none or it is not UTF-8.
    ///
    /// # Safety
    /// A `Text::C` pointer is a NUL-terminated string valid for `'a`.
    pub unsafe fn as_str(self) -> Option<&'a str> {
        match self {
            Text::None => None,
            Text::Str(s) => Some(s),
            Text::C(p) if p.is_null() => None,
            // SAFETY: forwarded from the caller.
            Text::C(p) => unsafe { CStr::from_ptr::<'a>(p) }.to_str().ok(),
        }
    }

    /// The text, borrowed where it is UTF-8 (as generated code's always is), else with
    /// replacement characters; empty when there is none. A launch names its kernel with it
    /// without allocating.
    ///
    /// # Safety
    /// A `Text::C` pointer is a NUL-terminated string valid for `'a`.
    pub unsafe fn lossy(self) -> Cow<'a, str> {
        match self {
            Text::None => Cow::Borrowed(""),
            Text::Str(s) => Cow::Borrowed(s),
            Text::C(p) if p.is_null() => Cow::Borrowed(""),
            // SAFETY: forwarded from the caller.
            Text::C(p) => unsafe { CStr::from_ptr::<'a>(p) }.to_string_lossy(),
        }
    }

    pub fn to_string_lossy(self) -> Option<String> {
        match self {
            Text::None => None,
            Text::Str(s) => Some(s.to_owned()),
            Text::C(p) if p.is_null() => None,
            // SAFETY: `Text::C` is only built from pointers the C caller passed as NUL-terminated
            // strings that live for the duration of the call (see `Site::c`).
            Text::C(p) => Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()),
        }
    }
}

/// Where a runtime action comes from: source file and line of the directive, the variable's
/// source text, or, for API routines called directly, the routine's name.
#[derive(Clone, Copy, Debug, Default)]
pub struct Site<'a> {
    pub file: Text<'a>,
    pub line: u32,
    pub var: Text<'a>,
    pub routine: &'static str,
}

impl<'a> Site<'a> {
    /// A site for an API routine called directly by the program.
    pub fn routine(name: &'static str) -> Site<'static> {
        Site {
            routine: name,
            ..Site::default()
        }
    }

    /// A site for compiler-generated code.
    ///
    /// # Safety
    /// `file` and `var` are null or NUL-terminated strings that outlive the returned site.
    pub unsafe fn c(file: *const c_char, line: i32, var: *const c_char) -> Site<'a> {
        Site {
            file: Text::C(file),
            line: line.max(0) as u32,
            var: Text::C(var),
            routine: "",
        }
    }

    pub fn with_var(self, var: Text<'a>) -> Site<'a> {
        Site { var, ..self }
    }

    pub fn location(&self) -> String {
        match self.file.to_string_lossy() {
            Some(file) if self.line > 0 => format!("{file}:{}", self.line),
            Some(file) => file,
            None => self.routine.to_owned(),
        }
    }

    /// Describes the data an action is about: `'a[0:n]' (800 bytes at 0x…)`, or
    /// `800 bytes at 0x…` when the variable's text is unknown; without a size (a kernel's
    /// argument, an address), `'a' (at 0x…)`.
    pub fn what(&self, host: usize, bytes: usize) -> String {
        let extent = if bytes == 0 {
            format!("at {host:#x}")
        } else {
            format!("{bytes} bytes at {host:#x}")
        };
        match self.var.to_string_lossy() {
            Some(var) => format!("'{var}' ({extent})"),
            None if bytes == 0 => format!("data {extent}"),
            None => extent,
        }
    }
}

/// A handler the program installed with `acc_rt_set_error_handler`.
#[derive(Clone, Copy)]
struct Handler {
    f: unsafe extern "C" fn(*const c_char, *mut c_void),
    user: usize,
}

static HANDLER: Mutex<Option<Handler>> = Mutex::new(None);

/// Installs (or, with `None`, removes) the function `fatal` calls before the process exits.
pub fn set_handler(f: Option<unsafe extern "C" fn(*const c_char, *mut c_void)>, user: *mut c_void) {
    let mut h = HANDLER.lock().unwrap_or_else(|e| e.into_inner());
    *h = f.map(|f| Handler {
        f,
        user: user as usize,
    });
}

/// The end of every error that reaches the C ABI: print `acc: error: ...`, give the program's
/// handler a chance to see it, and exit with status 1.
pub fn fatal(err: &Error) -> ! {
    let text = format!("acc: error: {err}");
    eprintln!("{text}");
    let handler = *HANDLER.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(h) = handler {
        let c = CString::new(text.replace('\0', " ")).unwrap_or_default();
        // SAFETY: the program registered `h.f` as a function taking a message and its own
        // pointer; the message lives across the call.
        unsafe { (h.f)(c.as_ptr(), h.user as *mut c_void) };
    }
    std::process::exit(1)
}

/// Whether `ACC_VERBOSE` asks for notes on stderr (set and not `0`).
pub fn is_verbose() -> bool {
    static VERBOSE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *VERBOSE.get_or_init(|| {
        std::env::var("ACC_VERBOSE").is_ok_and(|v| !v.trim().is_empty() && v.trim() != "0")
    })
}

/// Prints `acc: note: message` on stderr when `ACC_VERBOSE` is set.
pub fn verbose(message: &str) {
    if is_verbose() {
        eprintln!("acc: note: {message}");
    }
}

/// Prints `acc: warning: FILE:LINE: message` once per site and variable: a
/// kernel launched in a loop warns once, not on every launch.
pub fn warn_once(site: &Site<'_>, message: &str) {
    static SEEN: Mutex<Option<std::collections::HashSet<(String, String)>>> = Mutex::new(None);
    let key = (
        site.location(),
        site.var.to_string_lossy().unwrap_or_default(),
    );
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if seen.get_or_insert_with(Default::default).insert(key) {
        eprintln!("acc: warning: {}: {message}", site.location());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn location_prefers_file_and_line_then_routine() {
        let s = Site {
            file: Text::Str("kernels.c"),
            line: 12,
            var: Text::Str("a[0:100]"),
            routine: "",
        };
        let e = Error::new(
            ErrorKind::NotPresent,
            &s,
            format!("{} is not present", s.what(0x1000, 800)),
        );
        assert_eq!(
            e.to_string(),
            "kernels.c:12: 'a[0:100]' (800 bytes at 0x1000) is not present"
        );
        let r = Site::routine("acc_unmap_data");
        assert_eq!(
            Error::new(ErrorKind::BadUnmap, &r, "x").to_string(),
            "acc_unmap_data: x"
        );
        assert_eq!(r.what(16, 4), "4 bytes at 0x10");
    }

    #[test]
    fn c_text_is_read_lazily() {
        let file = c"k.c";
        // SAFETY: both pointers are NUL-terminated literals.
        let s = unsafe { Site::c(file.as_ptr(), 3, std::ptr::null()) };
        assert_eq!(s.location(), "k.c:3");
        assert_eq!(s.what(0x20, 8), "8 bytes at 0x20");
    }
}
