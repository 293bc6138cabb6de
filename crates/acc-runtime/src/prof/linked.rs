//! Profiling libraries linked into the program: `acc_rt.h`'s constructor hands the runtime the
//! program's `acc_register_library` (a weak reference), which the runtime calls once.
//!
//! A weak reference binds to whatever object exports the name, and another OpenACC runtime
//! does: GCC's libgomp, which a program links for `omp_get_wtime` or `-fopenmp`, exports an
//! `acc_register_library` that stops the program ("libgomp: TODO"). That one is not a tool: a
//! definition in an object other than acc's own that also defines the runtime side of the
//! interface (`acc_prof_register`) belongs to another runtime, and is skipped.
//!
//! It owns the hand-over and that decision; registering is `prof`'s.

use std::ffi::{c_char, c_int, c_void, CStr};

use super::RegisterLibraryFn;

#[repr(C)]
struct DlInfo {
    fname: *const c_char,
    fbase: *mut c_void,
    sname: *const c_char,
    saddr: *mut c_void,
}

extern "C" {
    fn dladdr(addr: *const c_void, info: *mut DlInfo) -> c_int;
}

/// The file of the loaded object that contains `addr`.
fn object_of(addr: *const c_void) -> Option<String> {
    let mut info = DlInfo {
        fname: std::ptr::null(),
        fbase: std::ptr::null_mut(),
        sname: std::ptr::null(),
        saddr: std::ptr::null_mut(),
    };
    // SAFETY: `dladdr` only reads `addr` as an address and fills `info`.
    if unsafe { dladdr(addr, &mut info) } == 0 || info.fname.is_null() {
        return None;
    }
    // SAFETY: a non-null `dli_fname` is a NUL-terminated path owned by the loader.
    Some(
        unsafe { CStr::from_ptr(info.fname) }
            .to_string_lossy()
            .into_owned(),
    )
}

/// Whether `register` is another OpenACC runtime's `acc_register_library`, not a tool's.
fn belongs_to_another_runtime(register: RegisterLibraryFn) -> bool {
    let ours = object_of(super::acc_prof_register as *const c_void);
    let Some(theirs) = object_of(register as *const c_void) else {
        return false;
    };
    if ours.as_deref() == Some(theirs.as_str()) {
        return false;
    }
    const RTLD_LAZY: c_int = 1;
    const RTLD_NOLOAD: c_int = 4;
    // SAFETY: RTLD_NOLOAD only takes a reference to an object already loaded (it runs no
    // initializers); the symbol is only looked at as an address.
    let defines_runtime_side = unsafe {
        libloading::os::unix::Library::open(Some(&theirs), RTLD_LAZY | RTLD_NOLOAD)
            .ok()
            .and_then(|lib| {
                lib.get::<*const c_void>(b"acc_prof_register\0")
                    .ok()
                    .map(|sym| *sym)
            })
    };
    // Found through the object's dependencies does not count: it must be its own.
    defines_runtime_side.is_some_and(|at| object_of(at).as_deref() == Some(theirs.as_str()))
}

/// `acc_rt_prof_linked`: generated code passes the program's own `acc_register_library` (a
/// weak reference in `acc_rt.h`, non-null when the program defines one) from a constructor in
/// each translation unit; the runtime calls each library once.
///
/// # Safety
/// `register` is null or a function of the `acc_register_library` type.
#[no_mangle]
pub unsafe extern "C" fn acc_rt_prof_linked(register: Option<RegisterLibraryFn>) {
    static CALLED: std::sync::Mutex<Vec<usize>> = std::sync::Mutex::new(Vec::new());
    let Some(register) = register else { return };
    if belongs_to_another_runtime(register) {
        return;
    }
    {
        let mut called = CALLED.lock().unwrap_or_else(|e| e.into_inner());
        if called.contains(&(register as usize)) {
            return;
        }
        called.push(register as usize);
    }
    // SAFETY: forwarded from the caller.
    unsafe { super::register_library(register) }
}
