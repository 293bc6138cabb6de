//! The program's device code by file, for `routine`s called across files: each file's CUDA
//! module and routine library with the routines it provides and needs, as its generated code
//! registers them when the program starts (`acc_rt_register_device_code`), and which libraries
//! a module must be linked with ([`link_plan`]).
//!
//! nvc links the device code of all files when it links the program (`-gpu=rdc`); acc compiles
//! on the device, at a module's first launch, so the runtime resolves the routines then. A file
//! that defines routines has a library: its routines (and what they use) without its kernels, so
//! that linking it into another file's kernels defines no kernel twice. A module already holds
//! every routine of its own file, so its own library never joins its link.
//!
//! It must not compile or load anything: the CUDA device does (`device::cuda`).

use std::ffi::{c_char, CStr};
use std::sync::Mutex;

/// One file's device code, as its generated code registered it.
#[derive(Clone, Debug)]
struct FileCode {
    file: String,
    /// The address of the file's CUDA module (0: none), which kernel descriptors name.
    module: usize,
    /// Its routine library: generated text that lives for the process.
    library: Option<&'static str>,
    provides: Vec<String>,
    needs: Vec<String>,
    /// Why a file that defines routines has no library (`file:line: …`), if it has none.
    no_library: Option<String>,
}

/// A routine library to link into a module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Library {
    /// The file whose routines it holds, for messages.
    pub file: String,
    pub source: &'static str,
    /// The file-scope variables its routines use: the name of the library's pointer to each
    /// (which the runtime sets to the device copy once the module is loaded), and the
    /// variable's host address.
    pub globals: Vec<(String, usize)>,
}

/// A file-scope variable a library's routines use, as the file's `declare` registered it.
#[derive(Clone, Debug)]
struct LibraryGlobal {
    file: String,
    symbol: String,
    host: usize,
}

static FILES: Mutex<Vec<FileCode>> = Mutex::new(Vec::new());
static GLOBALS: Mutex<Vec<LibraryGlobal>> = Mutex::new(Vec::new());

/// `acc_rt_register_library_global`: a `declare`d file-scope variable of `file` that its
/// routines use, and the name of its routine library's pointer to it (see `acc_rt.h`).
///
/// # Safety
/// `file` and `symbol` are NUL-terminated strings (or null: ignored).
#[no_mangle]
pub unsafe extern "C" fn acc_rt_register_library_global(
    file: *const c_char,
    symbol: *const c_char,
    host: *mut std::ffi::c_void,
) {
    if file.is_null() || symbol.is_null() {
        return;
    }
    // SAFETY: as the caller guarantees.
    let (file, symbol) = unsafe { (CStr::from_ptr(file), CStr::from_ptr(symbol)) };
    GLOBALS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(LibraryGlobal {
            file: file.to_string_lossy().into_owned(),
            symbol: symbol.to_string_lossy().into_owned(),
            host: host as usize,
        });
}

/// `acc_rt_register_device_code`: a file's device code (see `acc_rt.h`).
///
/// # Safety
/// Each pointer is null or a NUL-terminated string that lives for the process (generated code
/// passes literals and its static module texts).
#[no_mangle]
pub unsafe extern "C" fn acc_rt_register_device_code(
    file: *const c_char,
    module: *const c_char,
    library: *const c_char,
    provides: *const c_char,
    needs: *const c_char,
    no_library: *const c_char,
) {
    // SAFETY: as the caller guarantees.
    let text = |p: *const c_char| (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) });
    let words = |p| {
        text(p)
            .map(|t| {
                t.to_string_lossy()
                    .split_whitespace()
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    };
    let code = FileCode {
        file: text(file).map_or_else(String::new, |f| f.to_string_lossy().into_owned()),
        module: module as usize,
        // Generated libraries are ASCII (acc-c's `ascii_module`); anything else is not one.
        library: text(library).and_then(|l| l.to_str().ok()),
        provides: words(provides),
        needs: words(needs),
        no_library: text(no_library).map(|w| w.to_string_lossy().into_owned()),
    };
    FILES.lock().unwrap_or_else(|e| e.into_inner()).push(code);
}

/// The libraries the module at `module` (a kernel descriptor's `cuda_source`) must be linked
/// with, in the order to link them; `None` when it calls no routine of another file (or was
/// not registered: a Rust kernel's module, a file of an older acc). `Err` names a routine no
/// registered file can give it.
pub fn link_plan(module: usize) -> Result<Option<Vec<Library>>, String> {
    let files = FILES.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let globals = GLOBALS.lock().unwrap_or_else(|e| e.into_inner()).clone();
    plan_in(&files, &globals, module)
}

fn plan_in(
    files: &[FileCode],
    globals: &[LibraryGlobal],
    module: usize,
) -> Result<Option<Vec<Library>>, String> {
    let Some(own) = files.iter().find(|f| f.module == module && module != 0) else {
        return Ok(None);
    };
    if own.needs.is_empty() {
        return Ok(None);
    }
    let mut defined: Vec<&str> = own.provides.iter().map(String::as_str).collect();
    let mut libraries: Vec<Library> = Vec::new();
    let mut wanted: Vec<(&str, &str)> = own
        .needs
        .iter()
        .map(|n| (n.as_str(), own.file.as_str()))
        .collect();
    while let Some((name, by)) = wanted.pop() {
        if defined.contains(&name) {
            continue;
        }
        let Some(giver) = files.iter().find(|f| f.provides.iter().any(|p| p == name)) else {
            return Err(format!(
                "the routine `{name}` that {by} calls (declared with `#pragma acc routine`) is \
                 defined by no file of the program that acc cc compiled with a `routine` \
                 directive before the definition, so it has no device code to link"
            ));
        };
        let Some(source) = giver.library else {
            return Err(format!(
                "the routine `{name}` that {by} calls is defined in {}, whose routines other \
                 files' kernels cannot call: {}",
                giver.file,
                giver
                    .no_library
                    .as_deref()
                    .unwrap_or("it has no CUDA version (`acc cc --info` on it says why)")
            ));
        };
        defined.extend(giver.provides.iter().map(String::as_str));
        let mut own: Vec<(String, usize)> = Vec::new();
        for g in globals.iter().filter(|g| g.file == giver.file) {
            if !own.iter().any(|(s, _)| *s == g.symbol) {
                own.push((g.symbol.clone(), g.host));
            }
        }
        libraries.push(Library {
            file: giver.file.clone(),
            source,
            globals: own,
        });
        wanted.extend(
            giver
                .needs
                .iter()
                .map(|n| (n.as_str(), giver.file.as_str())),
        );
    }
    Ok(Some(libraries))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, module: usize, library: bool, provides: &str, needs: &str) -> FileCode {
        FileCode {
            file: name.to_string(),
            module,
            library: library.then_some("library text"),
            provides: provides.split_whitespace().map(str::to_owned).collect(),
            needs: needs.split_whitespace().map(str::to_owned).collect(),
            no_library: (!library).then(|| format!("{name}:3: why")),
        }
    }

    fn files_of(plan: Option<Vec<Library>>) -> Vec<String> {
        plan.unwrap().into_iter().map(|l| l.file).collect()
    }

    #[test]
    fn a_module_links_the_libraries_of_what_it_calls_and_what_they_call() {
        let files = [
            file("main.c", 1, false, "", "scale"),
            file("scale.c", 0, true, "scale", "twice"),
            file("twice.c", 2, true, "twice", ""),
            file("other.c", 3, true, "unused", ""),
        ];
        assert_eq!(
            files_of(plan_in(&files, &[], 1).unwrap()),
            ["scale.c", "twice.c"]
        );
        // A library's file-scope variables come with it (each once).
        let global = |file: &str, symbol: &str, host| LibraryGlobal {
            file: file.into(),
            symbol: symbol.into(),
            host,
        };
        let globals = [
            global("scale.c", "__acc_lg_1_coef", 64),
            global("other.c", "__acc_lg_2_coef", 128),
            global("scale.c", "__acc_lg_1_coef", 64),
        ];
        let plan = plan_in(&files, &globals, 1).unwrap().unwrap();
        assert_eq!(plan[0].globals, [("__acc_lg_1_coef".to_string(), 64)]);
        assert!(plan[1].globals.is_empty());
        // A module that calls nothing of another file, and one nobody registered.
        assert_eq!(plan_in(&files, &[], 2).unwrap(), None);
        assert_eq!(plan_in(&files, &[], 9).unwrap(), None);
    }

    #[test]
    fn a_modules_own_routines_never_come_from_its_library() {
        // a.c's kernels call b's routine, which calls back into a: a's module has it already.
        let files = [
            file("a.c", 1, true, "back", "forth"),
            file("b.c", 0, true, "forth", "back"),
        ];
        assert_eq!(files_of(plan_in(&files, &[], 1).unwrap()), ["b.c"]);
    }

    #[test]
    fn a_routine_nobody_defines_or_nobody_can_link_is_named() {
        let files = [
            file("main.c", 1, false, "", "lost kept"),
            file("kept.c", 0, false, "kept", ""),
        ];
        let err = plan_in(&files, &[], 1).unwrap_err();
        assert!(
            err.contains(
                "routine `kept` that main.c calls is defined in kept.c, whose routines other \
                 files' kernels cannot call: kept.c:3: why"
            ),
            "{err}"
        );
        let files = [file("main.c", 1, false, "", "lost")];
        let err = plan_in(&files, &[], 1).unwrap_err();
        assert!(
            err.contains("routine `lost` that main.c calls (declared with `#pragma acc routine`)"),
            "{err}"
        );
    }
}
