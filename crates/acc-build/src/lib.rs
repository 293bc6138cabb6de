//! acc-build: compile OpenACC C from a `build.rs`, in the style of `cc`.
//!
//! ```no_run
//! // build.rs, inside `fn main`:
//! acc_build::compile("src/kernels.c");
//! ```
//!
//! with, in the crate's `Cargo.toml`,
//!
//! ```toml
//! [dependencies]
//! acc = "0.1"          # the runtime the translated C calls: the one line to add
//!
//! [build-dependencies]
//! acc-build = "0.1"
//! ```
//!
//! Rust links a dependency only if the crate's Rust code names it, and the
//! C's calls do not count: a crate whose Rust code does not otherwise use
//! `acc` writes `use acc as _;` once (the bindings of [`Build::bindings`]
//! contain that line already). Without it the link fails, and among the
//! undefined symbols is one named
//! `acc_runtime_not_linked__write__use_acc_as_underscore__in_the_crate`.
//!
//! Each file is translated (`acc_c::lower`: every compute construct
//! outlined into a kernel, data directives turned into runtime calls),
//! compiled with the [`cc`] crate — so `CC`, `CFLAGS`, the target and the
//! profile's opt level behave as they do for every `cc` user — and archived
//! into a static library linked into the crate. The functions the C calls
//! (`acc_rt_*` and the OpenACC API) come from the `acc` dependency: its
//! runtime is linked into the final binary, where the device is chosen at
//! run time (`ACC_DEVICE_TYPE`: `host`, `host_discrete`, …). Every kernel
//! the translation emits is in the generated C, so the binary needs no
//! other file (today the lowering emits the CPU kernels; device kernels it
//! emits later land in the same library). A crate that does not depend on `acc` directly gets
//! an error saying to add it, instead of a wall of undefined symbols at the
//! link.
//!
//! The build reruns when a source, a header it includes (from the
//! preprocessor's `-M` output) or an environment variable this crate reads
//! changes. OpenACC diagnostics reach cargo: a warning is a
//! `cargo:warning=file:line:col: warning: message`; an error is printed in
//! full, clang-style, with the source line and a caret, and fails the build.
//!
//! With the `bindgen` feature, [`Build::bindings`] also writes Rust
//! declarations of a header's functions to `OUT_DIR/bindings.rs` (that
//! needs libclang; the default build does not).
//!
//! Every action has a `try_` form returning [`Error`] and a plain form that
//! prints the error and exits with status 1, as a build script should.

mod depfile;

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

/// The runtime's headers, written into `OUT_DIR` for the generated C (the
/// runtime itself is not a dependency of the build script).
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

/// The variable cargo sets for a build script whose package depends on
/// `acc` directly: `acc` has `links = "acc"` and its build script prints
/// `cargo::metadata=runtime=VERSION`.
const ACC_DEP_VAR: &str = "DEP_ACC_RUNTIME";

/// A symbol of the `acc` crate that the generated C refers to, so that a
/// crate whose Rust code never names `acc` (which rustc then does not link)
/// gets a link error with the fix in it, beside the runtime's undefined
/// symbols.
const LINK_MARKER: &str = "acc_runtime_not_linked__write__use_acc_as_underscore__in_the_crate";

/// Compiles one OpenACC C file into a static library named after the
/// file's stem (`src/kernels.c` → `libkernels.a`) and links it into the
/// crate; on failure prints the error and exits with status 1.
pub fn compile(path: impl AsRef<Path>) {
    let path = path.as_ref();
    let name = path.file_stem().map_or_else(
        || "acc_kernels".into(),
        |s| s.to_string_lossy().into_owned(),
    );
    Build::new().file(path).compile(&name);
}

/// A builder for OpenACC C libraries, in the style of `cc::Build`.
#[derive(Clone, Debug, Default)]
pub struct Build {
    files: Vec<PathBuf>,
    includes: Vec<PathBuf>,
    defines: Vec<(String, Option<String>)>,
    flags: Vec<String>,
    cc: cc::Build,
    bindings: Vec<PathBuf>,
}

/// Why a build failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

/// The kinds of [`Error`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Not run by cargo, or cargo's environment is missing a variable.
    Environment,
    /// The crate does not depend on `acc`, whose runtime the C calls.
    MissingRuntime,
    /// A file could not be read or written.
    Io,
    /// The OpenACC translation reported errors (already printed, rendered).
    Diagnostics,
    /// The C compiler or preprocessor failed.
    Compiler,
    /// Generating Rust bindings failed.
    Bindings,
}

impl Error {
    fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl From<cc::Error> for Error {
    fn from(e: cc::Error) -> Error {
        Error::new(ErrorKind::Compiler, e.to_string())
    }
}

impl Build {
    /// A builder with no files, and `cc::Build::new()`'s defaults.
    pub fn new() -> Build {
        Build::default()
    }

    /// Adds an OpenACC C file.
    pub fn file(&mut self, path: impl AsRef<Path>) -> &mut Build {
        self.files.push(path.as_ref().to_path_buf());
        self
    }

    /// Adds several OpenACC C files.
    pub fn files<P: AsRef<Path>>(&mut self, paths: impl IntoIterator<Item = P>) -> &mut Build {
        for p in paths {
            self.file(p);
        }
        self
    }

    /// Adds a directory to the include path (`-I`), for the translation's
    /// header facts and for the C compiler.
    pub fn include(&mut self, dir: impl AsRef<Path>) -> &mut Build {
        self.includes.push(dir.as_ref().to_path_buf());
        self
    }

    /// Adds several include directories.
    pub fn includes<P: AsRef<Path>>(&mut self, dirs: impl IntoIterator<Item = P>) -> &mut Build {
        for d in dirs {
            self.include(d);
        }
        self
    }

    /// Defines a macro (`-DNAME` or `-DNAME=VALUE`).
    pub fn define<'a>(&mut self, name: &str, value: impl Into<Option<&'a str>>) -> &mut Build {
        self.defines
            .push((name.to_string(), value.into().map(str::to_string)));
        self
    }

    /// Adds a flag for the C compiler (also given to the preprocessor that
    /// reads headers, so `-std=` and `-D` there count too).
    pub fn flag(&mut self, flag: &str) -> &mut Build {
        self.flags.push(flag.to_string());
        self
    }

    /// Adds several flags.
    pub fn flags<S: AsRef<str>>(&mut self, flags: impl IntoIterator<Item = S>) -> &mut Build {
        for f in flags {
            self.flag(f.as_ref());
        }
        self
    }

    /// The `cc::Build` the generated C is compiled with, for settings this
    /// builder does not have (`opt_level`, `compiler`, `warnings`, …).
    pub fn cc(&mut self) -> &mut cc::Build {
        &mut self.cc
    }

    /// Writes Rust declarations of the functions and types of `header` (a C
    /// header declaring the kernels' entry points) to `OUT_DIR/bindings.rs`,
    /// for `include!(concat!(env!("OUT_DIR"), "/bindings.rs"))`. Several
    /// headers go into the one file. Needs the `bindgen` feature (and
    /// libclang); without it, [`Build::try_compile`] fails with
    /// [`ErrorKind::Bindings`] saying so.
    pub fn bindings(&mut self, header: impl AsRef<Path>) -> &mut Build {
        self.bindings.push(header.as_ref().to_path_buf());
        self
    }

    /// Translates, compiles and archives the files into `lib{name}.a`, and
    /// tells cargo to link it; on failure prints the error and exits with
    /// status 1.
    pub fn compile(&self, name: &str) {
        if let Err(e) = self.try_compile(name) {
            fail(&e);
        }
    }

    /// As [`Build::compile`], returning the error.
    pub fn try_compile(&self, name: &str) -> Result<(), Error> {
        // Settings that cannot work fail before anything is compiled.
        self.check_bindings_feature()?;
        check_runtime_dependency()?;
        let out_dir = PathBuf::from(env("OUT_DIR").ok_or_else(|| {
            Error::new(
                ErrorKind::Environment,
                "OUT_DIR is not set: acc-build runs inside a build script run by cargo",
            )
        })?);
        let include = write_headers(&out_dir.join("acc-include"))?;
        let gen_dir = out_dir.join("acc-gen");
        std::fs::create_dir_all(&gen_dir).map_err(|e| io_error(&gen_dir, e))?;

        let mut cc = self.cc.clone();
        // One compiler for the header facts, the dependency list and the
        // compile: the one cargo and `cc` would pick.
        let compiler = cc.try_get_compiler()?;
        let gnu_like = compiler.is_like_gnu() || compiler.is_like_clang();
        let pp_args = self.preprocessor_args(&compiler, &include, gnu_like);

        let mut failed = 0;
        let mut generated = Vec::new();
        for (n, file) in self.files.iter().enumerate() {
            rerun_if_changed(file);
            match self.lower(&compiler, &pp_args, file)? {
                Some((mut host_c, inlined)) => {
                    let stem = file
                        .file_stem()
                        .map_or_else(|| "input".into(), |s| s.to_string_lossy().into_owned());
                    let out = gen_dir.join(format!("{n}-{stem}.acc.c"));
                    if gnu_like {
                        host_c.push_str(&link_check());
                    }
                    write_if_changed(&out, &host_c)?;
                    generated.push((file, out, inlined));
                }
                None => failed += 1,
            }
            track_headers(&compiler, &pp_args, file, &out_dir, gnu_like)?;
        }
        if failed > 0 {
            return Err(Error::new(
                ErrorKind::Diagnostics,
                format!(
                    "the OpenACC translation of {failed} file{} failed (errors above)",
                    if failed == 1 { "" } else { "s" }
                ),
            ));
        }

        cc.define("_OPENACC", acc_c::preprocess::OPENACC_VERSION);
        for d in &self.includes {
            cc.include(d);
        }
        for (k, v) in &self.defines {
            cc.define(k, v.as_deref());
        }
        if gnu_like {
            cc.flag("-isystem").flag(&include);
        } else {
            cc.include(&include);
        }
        for f in &self.flags {
            cc.flag(f);
        }
        // `#include "x.h"` looks first beside the including file, and the
        // generated files are elsewhere: the sources' directories go first
        // on the quoted path (one compiler command line for all files, so
        // each file sees every source directory, in the order of the files).
        // The program's headers a file has put in (`acc_c::inline`) look for their own quoted
        // includes beside themselves, after the sources' directories.
        let mut quote_dirs: Vec<PathBuf> = Vec::new();
        for (src, out, inlined) in &generated {
            let dir = src.parent().filter(|d| !d.as_os_str().is_empty());
            let dir = dir.unwrap_or(Path::new(".")).to_path_buf();
            for dir in std::iter::once(dir).chain(acc_c::inline::quote_dirs(inlined)) {
                if gnu_like && !quote_dirs.contains(&dir) {
                    cc.flag("-iquote").flag(&dir);
                    quote_dirs.push(dir);
                }
            }
            cc.file(out);
        }
        cc.try_compile(name)?;
        self.write_bindings(&out_dir, &include)?;
        Ok(())
    }

    /// The flags of every preprocessor run: `_OPENACC`, the user's
    /// includes, defines and flags, and the runtime's headers.
    fn preprocessor_args(
        &self,
        compiler: &cc::Tool,
        include: &Path,
        gnu_like: bool,
    ) -> Vec<OsString> {
        let mut args: Vec<OsString> = compiler.args().to_vec();
        args.push(format!("-D_OPENACC={}", acc_c::preprocess::OPENACC_VERSION).into());
        for d in &self.includes {
            args.push(os_cat("-I", d.as_os_str()));
        }
        for (k, v) in &self.defines {
            args.push(match v {
                Some(v) => format!("-D{k}={v}").into(),
                None => format!("-D{k}").into(),
            });
        }
        if gnu_like {
            args.push("-isystem".into());
            args.push(include.as_os_str().to_owned());
        } else {
            args.push(os_cat("-I", include.as_os_str()));
        }
        args.extend(self.flags.iter().map(OsString::from));
        args
    }

    /// Lowers one file; its diagnostics go to cargo. `None` when it has
    /// errors (printed).
    fn lower(
        &self,
        compiler: &cc::Tool,
        pp_args: &[OsString],
        file: &Path,
    ) -> Result<Option<(String, Vec<String>)>, Error> {
        let src = std::fs::read(file).map_err(|e| io_error(file, e))?;
        // Any bytes a C compiler takes survive, byte for byte: see `acc_c::text`.
        let (src, _) = acc_c::text::prepare(acc_c::text::decode(src));
        let name = file.to_string_lossy().into_owned();
        let program = compiler.path().to_string_lossy().into_owned();
        let args: Vec<String> = pp_args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let opts = acc_c::lower::LowerOptions {
            file_name: name.clone(),
            read_headers: acc_c::preprocess::needs_headers(file, &src, &args),
            inline_headers: true,
            nvrtc_options: acc_c::lower::nvrtc_options_for(&args),
            pointers_do_not_alias: false,
        };
        let mut headers = || acc_c::preprocess::header_facts(&program, file, &args);
        let acc_c::lower::LazyLowering {
            lowered,
            diags,
            text,
        } = acc_c::lower::lower_file_lazy(&src, &mut headers, &opts)
            .map_err(|e| Error::new(ErrorKind::Compiler, e))?;
        report(&diags, &name, text.as_deref().unwrap_or(&src));
        let errors = diags.iter().filter(|d| d.is_error()).count();
        let Some(lowered) = lowered.filter(|_| errors == 0) else {
            let errors = errors.max(1);
            eprintln!(
                "{errors} error{} generated.",
                if errors == 1 { "" } else { "s" }
            );
            return Ok(None);
        };
        let mut host_c = lowered.host_c;
        if host_c == src {
            // Unchanged text: one `#line` makes the compiler's messages
            // name the user's file.
            host_c = format!("#line 1 \"{}\"\n{src}", c_string(&name));
        }
        Ok(Some((host_c, lowered.inlined_headers)))
    }

    #[cfg(feature = "bindgen")]
    fn write_bindings(&self, out_dir: &Path, include: &Path) -> Result<(), Error> {
        if self.bindings.is_empty() {
            return Ok(());
        }
        let mut b = bindgen::Builder::default()
            // Including the bindings names `acc`, so its runtime, which the
            // C calls, is linked even if nothing else in the crate uses it.
            .raw_line("use acc as _;")
            .clang_arg(format!("-D_OPENACC={}", acc_c::preprocess::OPENACC_VERSION))
            .clang_arg(format!("-I{}", include.display()));
        for d in &self.includes {
            b = b.clang_arg(format!("-I{}", d.display()));
        }
        for (k, v) in &self.defines {
            b = b.clang_arg(match v {
                Some(v) => format!("-D{k}={v}"),
                None => format!("-D{k}"),
            });
        }
        for h in &self.bindings {
            rerun_if_changed(h);
            b = b.header(h.to_string_lossy());
        }
        let bindings = b
            .generate()
            .map_err(|e| Error::new(ErrorKind::Bindings, format!("bindgen failed: {e}")))?;
        let out = out_dir.join("bindings.rs");
        bindings.write_to_file(&out).map_err(|e| io_error(&out, e))
    }

    #[cfg(not(feature = "bindgen"))]
    fn write_bindings(&self, _out_dir: &Path, _include: &Path) -> Result<(), Error> {
        Ok(())
    }

    /// Bindings were asked for: the `bindgen` feature must be on.
    fn check_bindings_feature(&self) -> Result<(), Error> {
        match self.bindings.first() {
            _ if cfg!(feature = "bindgen") => Ok(()),
            None => Ok(()),
            Some(h) => Err(Error::new(
                ErrorKind::Bindings,
                format!(
                    "bindings for {} need acc-build's `bindgen` feature: \
                     `acc-build = {{ version = \"0.1\", features = [\"bindgen\"] }}`",
                    h.display()
                ),
            )),
        }
    }
}

/// Reads an environment variable, telling cargo to rerun the build script
/// when it changes. Every variable this crate reads goes through here.
fn env(key: &str) -> Option<OsString> {
    println!("cargo:rerun-if-env-changed={key}");
    std::env::var_os(key)
}

fn rerun_if_changed(path: &Path) {
    println!("cargo:rerun-if-changed={}", path.display());
}

/// The runtime the generated C calls comes from the `acc` crate; without a
/// direct dependency on it the link would fail with one undefined symbol
/// per runtime call.
fn check_runtime_dependency() -> Result<(), Error> {
    if env(ACC_DEP_VAR).is_some() {
        return Ok(());
    }
    let package = env("CARGO_PKG_NAME").map_or_else(
        || "this crate".to_string(),
        |p| format!("`{}`", p.to_string_lossy()),
    );
    Err(Error::new(
        ErrorKind::MissingRuntime,
        format!(
            "{package} compiles OpenACC C, which calls the acc runtime: add the `acc` crate to \
             its [dependencies] in Cargo.toml (`acc = \"0.1\"`, or a path or git dependency) \
             and `use acc as _;` in the crate if nothing else in it names `acc`"
        ),
    ))
}

/// Prints each diagnostic: a warning as one `cargo:warning` line (cargo
/// shows those), and every diagnostic in full on stderr (cargo shows it
/// when the build fails, or with `-vv`).
fn report(diags: &[acc_engine::Diagnostic], name: &str, src: &str) {
    for d in diags {
        let text = acc_c::render::render(d, name, src);
        if !d.is_error() {
            if let Some(first) = text.lines().next() {
                println!("cargo:warning={first}");
            }
        }
        let _ = std::io::Write::write_all(&mut std::io::stderr(), &acc_c::text::encode(&text));
    }
}

/// Prints the dependencies of `file` (every header it includes, through
/// the preprocessor's `-M`) for cargo. A compiler that cannot say (MSVC)
/// gets the include directories instead, which cargo watches whole.
fn track_headers(
    compiler: &cc::Tool,
    pp_args: &[OsString],
    file: &Path,
    out_dir: &Path,
    gnu_like: bool,
) -> Result<(), Error> {
    if !gnu_like {
        return Ok(());
    }
    let mut cmd = compiler.to_command();
    // `to_command` already has the compiler's own arguments; `pp_args`
    // starts with them too.
    cmd.args(&pp_args[compiler.args().len()..]);
    cmd.arg("-M").arg(file);
    let out = cmd
        .output()
        .map_err(|e| Error::new(ErrorKind::Compiler, format!("cannot run {cmd:?}: {e}")))?;
    if !out.status.success() {
        // The compile will say what is wrong, with the user's file names.
        return Ok(());
    }
    let text = String::from_utf8_lossy(&out.stdout);
    for dep in depfile::prerequisites(&text) {
        let p = Path::new(&dep);
        if p != file && !p.starts_with(out_dir) {
            rerun_if_changed(p);
        }
    }
    Ok(())
}

/// C that refers to [`LINK_MARKER`] from a constructor: constructors are
/// kept by `--gc-sections`, so the reference is always seen by the linker.
fn link_check() -> String {
    format!(
        "\n#line 1 \"<acc-build>\"\n\
         extern const unsigned char {LINK_MARKER};\n\
         __attribute__((constructor)) static void acc_build_link_check(void) {{\n\
         \x20 (void)*(const volatile unsigned char *)&{LINK_MARKER};\n\
         }}\n"
    )
}

/// Writes the runtime's headers into `dir`.
fn write_headers(dir: &Path) -> Result<PathBuf, Error> {
    std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    for (name, text) in HEADERS {
        write_if_changed(&dir.join(name), text)?;
    }
    Ok(dir.to_path_buf())
}

/// Writes a file unless it already holds `text`, so its time stamp moves
/// only when it changes.
fn write_if_changed(path: &Path, text: &str) -> Result<(), Error> {
    let bytes = acc_c::text::encode(text);
    if std::fs::read(path).is_ok_and(|old| old == *bytes) {
        return Ok(());
    }
    std::fs::write(path, bytes).map_err(|e| io_error(path, e))
}

fn io_error(path: &Path, e: std::io::Error) -> Error {
    Error::new(ErrorKind::Io, format!("{}: {e}", path.display()))
}

fn os_cat(a: &str, b: &std::ffi::OsStr) -> OsString {
    let mut s = OsString::from(a);
    s.push(b);
    s
}

/// A C string literal's contents for `text`.
fn c_string(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The plain forms' failure: the message on stderr (cargo shows a failed
/// build script's stderr), status 1.
fn fail(e: &Error) -> ! {
    eprintln!("error: {e}");
    std::process::exit(1);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_collects_settings() {
        let mut b = Build::new();
        b.files(["a.c", "b.c"])
            .include("inc")
            .define("N", "4")
            .define("FAST", None)
            .flags(["-std=c11"]);
        assert_eq!(b.files, [PathBuf::from("a.c"), PathBuf::from("b.c")]);
        assert_eq!(b.includes, [PathBuf::from("inc")]);
        assert_eq!(
            b.defines,
            [
                ("N".to_string(), Some("4".to_string())),
                ("FAST".to_string(), None)
            ]
        );
        assert_eq!(b.flags, ["-std=c11"]);
    }

    #[test]
    fn headers_are_the_runtimes() {
        assert!(HEADERS[0].1.contains("acc_get_device_type"));
        assert!(HEADERS[1].1.contains("acc_rt_launch"));
    }

    #[test]
    fn bindings_need_the_feature() {
        let mut b = Build::new();
        assert_eq!(b.check_bindings_feature(), Ok(()));
        b.bindings("k.h");
        let r = b.check_bindings_feature();
        if cfg!(feature = "bindgen") {
            assert_eq!(r, Ok(()));
        } else {
            let e = r.unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Bindings);
            assert!(e.to_string().contains("`bindgen` feature"), "{e}");
        }
    }

    #[test]
    fn c_strings_are_escaped() {
        assert_eq!(c_string(r#"a\b"c.c"#), r#"a\\b\"c.c"#);
    }
}
