//! `acc cc`: a C compiler driver with OpenACC, used as `gcc -fopenacc` or
//! `nvc -acc` are. Each C file is lowered to host C that calls the runtime
//! (`acc_c::lower`), the host compiler (`$CC`) compiles that, and the link
//! adds the runtime's static library.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::flags::{self, CcArgs, Input, Stage};
use crate::generated_includes::{name_the_source_in_dep_file, Includes};
use crate::toolchain::{self, Fail, HostCc, Result, TempDir};
use crate::via_openmp;

/// `_OPENACC`, as the preprocessor sees it in the user's code.
const OPENACC: &str = acc_c::preprocess::OPENACC_VERSION;

pub const USAGE: &str = "\
usage: acc cc [flags] files...

A C compiler with OpenACC: lowers each C file to host C that calls the acc
runtime, compiles it with $CC (default cc) and links the runtime.

  -c / -S / -E        stop after compiling / after assembly / after preprocessing
  -o FILE             the output
  -I DIR -D X[=Y] -U X -std=... -include F   preprocessor flags
  -O* -g -W* -f* -m* -pthread                passed to $CC
  -l LIB -L DIR -Wl,... -shared              passed to the link
  -MD -MMD -MF -MT -MP                       dependency files
  -x LANG             the language of the files that follow
  --keep              keep the generated C beside the output (NAME.acc.c, and
                      NAME.acc.kernels.c when the kernels are a unit of their own;
                      NAME.acc.cu and NAME.acc.routines.cu, the CUDA module of
                      its kernels and the library of its routines)
  --info              print how each construct was mapped (also -Minfo)
  -Wdata              first check the data mapping as `acc check` does, its
                      findings printed as warnings
  -acc -fopenacc      accepted and ignored: OpenACC is always on
  -ta= -gpu= -target= nvc's target flags: accepted (the device is chosen when the
                      program runs); -fast is -O3, -mp -fopenmp, -c99 -std=gnu99
  -Msafeptr           nvc's: pointers reach no common data (every pointer taken as
                      `restrict` when acc decides whether a `kernels` loop is parallel);
                      nvc's other -M switches are ignored, with a warning

Flags it does not know go to $CC as they are. ACC_CC overrides $CC;
ACC_RUNTIME_LIB names the runtime library (libacc_runtime.a) or its directory;
ACC_SINGLE_TU=1 compiles each file as one unit (kernels are otherwise
compiled in parallel with the host code).
";

/// Runs `acc cc` on its arguments (after `cc`) and returns the exit status.
pub fn main(raw: &[String]) -> u8 {
    let raw = &expand_response_files(raw, 0);
    let args = match flags::parse(raw) {
        Ok(a) => a,
        Err(e) => return report(Fail::Msg(e)),
    };
    if args.help {
        print!("{USAGE}");
        return 0;
    }
    for w in &args.warnings {
        eprintln!("acc: warning: {w}");
    }
    let cc = HostCc::from_env();
    if args.inputs.is_empty() {
        return match no_inputs(&cc, raw, &args) {
            Ok(()) => 0,
            Err(f) => report(f),
        };
    }
    match drive(&cc, &args, &Options::default()) {
        Ok(()) => 0,
        Err(f) => report(f),
    }
}

/// The arguments with each `@file` replaced by the words in it (build
/// systems pass long lists of objects that way); an `@file` that cannot be
/// read stays as it is, as with gcc.
pub fn expand_response_files(raw: &[String], depth: usize) -> Vec<String> {
    let mut out = Vec::new();
    for a in raw {
        let text = match a.strip_prefix('@') {
            Some(file) if depth < 16 => std::fs::read_to_string(file).ok(),
            _ => None,
        };
        match text {
            Some(t) => out.extend(expand_response_files(&flags::split_response(&t), depth + 1)),
            None => out.push(a.clone()),
        }
    }
    out
}

/// Prints our error and gives the status to exit with.
pub fn report(f: Fail) -> u8 {
    match f {
        Fail::Msg(m) => {
            eprintln!("acc: error: {m}");
            1
        }
        Fail::Status(s) => s,
    }
}

/// Choices of callers other than the command line (`acc run`).
#[derive(Default)]
pub struct Options {
    /// Where `--keep` puts the generated C, instead of beside the output.
    pub keep_dir: Option<PathBuf>,
}

/// No input files: `acc cc --version`, `-dumpmachine`, `-print-…` and the
/// like are questions for the host compiler.
fn no_inputs(cc: &HostCc, raw: &[String], args: &CcArgs) -> Result<()> {
    if raw.is_empty() {
        return Err(Fail::Msg("no input files".into()));
    }
    let mut cmd = cc.command();
    cmd.args(
        raw.iter()
            .filter(|a| !matches!(a.as_str(), "--keep" | "--info" | "-acc" | "-fopenacc")),
    );
    toolchain::run(cmd, args.verbose)
}

/// Compiles and links as the arguments say.
pub fn drive(cc: &HostCc, args: &CcArgs, opts: &Options) -> Result<()> {
    let stage = args.stage();
    let compiled: Vec<&Input> = args.compiled().collect();
    if args.output.is_some() && stage != Stage::Link && compiled.len() > 1 {
        return Err(Fail::Msg(
            "cannot specify `-o` with `-c`, `-S` or `-E` with several files".into(),
        ));
    }
    if stage == Stage::Preprocess {
        return preprocess(cc, args);
    }
    if stage != Stage::Link {
        for i in &args.inputs {
            if let Input::Link(p) = i {
                eprintln!("acc: warning: {p}: linker input file unused because linking not done");
            }
        }
    }
    let include = toolchain::runtime_include()?;
    let omp = match args.via_openmp {
        true => Some(via_openmp::probe(cc, args)?),
        false => None,
    };
    if let (Some(o), true) = (&omp, args.verbose) {
        eprintln!("acc: {}", o.describe());
    }
    // The runtime library is looked for before compiling, so that a missing
    // one is the first thing said.
    let lib = match stage {
        Stage::Link if omp.is_none() => Some(toolchain::runtime_lib()?),
        _ => None,
    };
    let tmp = TempDir::new("cc")?;
    let link_out = args.output.clone().unwrap_or_else(|| "a.out".into());
    let n_c = args
        .inputs
        .iter()
        .filter(|i| matches!(i, Input::C(_)))
        .count();
    let ctx = Ctx {
        cc,
        args,
        include: &include,
        tmp: &tmp,
        keep_dir: opts.keep_dir.as_deref(),
        link_out: &link_out,
        single_c: n_c == 1,
        omp: omp.as_ref(),
    };
    // Every file is compiled, as gcc does, so that one run shows the errors
    // of all of them; the first failure is the status.
    let mut objects = Vec::new();
    let mut failure = None;
    for (n, input) in args.inputs.iter().enumerate() {
        let result = match input {
            Input::C(path) => ctx.compile_c(n, path),
            Input::Foreign { path, lang } => ctx.compile_foreign(n, path, lang.as_deref()),
            Input::Link(p) | Input::Lib(p) => Ok(PathBuf::from(p)),
        };
        match result {
            Ok(obj) => objects.push(obj),
            Err(f) => {
                if let Fail::Msg(m) = &f {
                    eprintln!("acc: error: {m}");
                    failure.get_or_insert(Fail::Status(1));
                } else {
                    failure.get_or_insert(f);
                }
            }
        }
    }
    if let Some(f) = failure {
        return Err(f);
    }
    if let (Some(o), Stage::Link) = (&omp, stage) {
        let library = via_openmp::library_object(cc, args, o, &include, tmp.path())?;
        let mut cmd = cc.command();
        cmd.args(&o.flags).args(&args.common).args(&args.link);
        cmd.args(&objects).arg(library).args(&o.link_libs);
        cmd.arg("-o").arg(&link_out);
        return toolchain::run(cmd, args.verbose);
    }
    let Some(lib) = lib else { return Ok(()) };
    let mut cmd = cc.command();
    cmd.args(&args.common).args(&args.link);
    cmd.args(&objects);
    cmd.arg(&lib);
    let static_link = args.link.iter().any(|l| l == "-static");
    for l in toolchain::RUNTIME_SYSTEM_LIBS {
        // A fully static link has no libgcc_s; its unwinder is libgcc_eh.
        cmd.arg(if static_link && *l == "-lgcc_s" {
            "-lgcc_eh"
        } else {
            l
        });
    }
    cmd.arg("-o").arg(&link_out);
    toolchain::run(cmd, args.verbose)
}

/// `-E`, `-M`, `-MM`: the host preprocessor on the user's files, with
/// `_OPENACC` defined and the runtime's headers on the path.
fn preprocess(cc: &HostCc, args: &CcArgs) -> Result<()> {
    let include = toolchain::runtime_include()?;
    let mut cmd = cc.command();
    // `-M` and `-MM` imply `-E`; saying it again changes nothing.
    cmd.arg("-E").arg(format!("-D_OPENACC={OPENACC}"));
    cmd.args(&args.preprocess).arg("-isystem").arg(&include);
    cmd.args(&args.common).args(&args.compile);
    if let Some(f) = &args.dep_file {
        cmd.arg("-MF").arg(f);
    }
    for i in &args.inputs {
        match i {
            Input::C(p) => {
                cmd.arg(p);
            }
            Input::Foreign { path, lang } => {
                with_lang(&mut cmd, path, lang.as_deref());
            }
            Input::Link(_) | Input::Lib(_) => {}
        }
    }
    if let Some(o) = &args.output {
        cmd.arg("-o").arg(o);
    }
    toolchain::run(cmd, args.verbose)
}

/// A C++ source with OpenACC directives is an error at the first one: acc translates C, and
/// the C++ compiler it would hand the file to ignores `#pragma acc` (and `_OPENACC` is
/// defined), so the program would build and run its directives' code on the host without a
/// word. A C++ file without directives compiles as before.
fn refuse_cxx_directives(path: &str, lang: Option<&str>) -> Result<()> {
    let ext = Path::new(path).extension().and_then(|e| e.to_str());
    let cxx = match lang {
        Some(l) => l == "c++",
        None => matches!(ext, Some("cc" | "cp" | "cpp" | "cxx" | "c++" | "C")),
    };
    let Some(src) = cxx
        .then(|| std::fs::read(path).ok())
        .flatten()
        .map(acc_c::text::decode)
    else {
        return Ok(());
    };
    let Some(at) = acc_c::preprocess::first_directive(&src) else {
        return Ok(());
    };
    let d = acc_engine::Diagnostic::error(
        acc_engine::Span::new(at.start, at.end),
        "OpenACC in C++ is not supported: acc translates C, and the C++ compiler would ignore \
         this directive",
    )
    .with_note(
        "put the OpenACC code in a C file (`.c`, declared `extern \"C\"` to the C++ code), or \
         build this file with a C++ OpenACC compiler",
    );
    let _ = std::io::stderr()
        .lock()
        .write_all(&acc_c::text::encode(&acc_c::render::render(&d, path, &src)));
    Err(Fail::Status(1))
}

fn with_lang(cmd: &mut std::process::Command, path: &str, lang: Option<&str>) {
    match lang {
        Some(l) => {
            cmd.arg("-x").arg(l).arg(path).arg("-x").arg("none");
        }
        None => {
            cmd.arg(path);
        }
    }
}

struct Ctx<'a> {
    cc: &'a HostCc,
    args: &'a CcArgs,
    include: &'a Path,
    tmp: &'a TempDir,
    keep_dir: Option<&'a Path>,
    link_out: &'a str,
    /// Exactly one C input: `--keep` names the generated C after the output.
    single_c: bool,
    /// `--via=openmp`: the host compiler's OpenMP, which every compile uses.
    omp: Option<&'a via_openmp::OpenMp>,
}

impl Ctx<'_> {
    /// Where the object (or assembly) of input `n` goes.
    fn object_path(&self, n: usize, path: &str) -> PathBuf {
        let stem = stem(path);
        match self.args.stage() {
            Stage::Link | Stage::Preprocess => self.tmp.path().join(format!("{n}-{stem}.o")),
            Stage::Compile => self
                .args
                .output
                .as_ref()
                .map_or_else(|| PathBuf::from(format!("{stem}.o")), PathBuf::from),
            Stage::Assemble => self
                .args
                .output
                .as_ref()
                .map_or_else(|| PathBuf::from(format!("{stem}.s")), PathBuf::from),
        }
    }

    /// Where the generated C of input `n` goes: a temporary file, or with
    /// `--keep` beside the output (`prog.acc.c` for a program built from one
    /// file, `foo.acc.c` beside `foo.o`, `DIR/foo.acc.c` for one of several
    /// files linked into `DIR/prog`).
    fn generated_path(&self, n: usize, path: &str, object: &Path) -> PathBuf {
        let stem = stem(path);
        if !self.args.keep {
            return self.tmp.path().join(format!("{n}-{stem}.acc.c"));
        }
        if let Some(dir) = self.keep_dir {
            return dir.join(format!("{stem}.acc.c"));
        }
        match self.args.stage() {
            Stage::Link if self.single_c => PathBuf::from(format!("{}.acc.c", self.link_out)),
            Stage::Link => Path::new(self.link_out)
                .parent()
                .unwrap_or(Path::new(""))
                .join(format!("{stem}.acc.c")),
            _ => object.with_extension("acc.c"),
        }
    }

    fn compile_c(&self, n: usize, path: &str) -> Result<PathBuf> {
        let args = self.args;
        let object = self.object_path(n, path);
        if args.check_data {
            crate::check::check_path(self.cc, args, path, false, true).map_err(Fail::Msg)?;
        }
        let src = std::fs::read(path).map_err(|e| Fail::Msg(format!("cannot read {path}: {e}")))?;
        // Any bytes a C compiler takes (Latin-1 comments, say) survive: see `acc_c::text`.
        let (src, layout) = acc_c::text::prepare(acc_c::text::decode(src));
        if !args.keep
            && !args.info
            && !acc_c::preprocess::may_have_directives(&src)
            && !acc_c::preprocess::program_headers_may_hold_directives(
                Path::new(path),
                &src,
                &args.preprocess,
            )
        {
            // Nothing to lower: compile the user's file itself, which is
            // what lowering would give, without running the preprocessor
            // twice, and with dependency files that name it.
            let mut cmd = self.compile_command(&[], true);
            cmd.arg(stage_flag(args.stage()));
            let by_name = matches!(
                Path::new(path).extension().and_then(|e| e.to_str()),
                Some("c" | "i")
            );
            with_lang(&mut cmd, path, (!by_name).then_some("c"));
            if args.dep_file_wanted {
                cmd.arg("-MF").arg(self.dep_file(path, &object));
            }
            cmd.arg("-o").arg(&object);
            toolchain::run(cmd, args.verbose)?;
            return Ok(object);
        }
        if let Some(omp) = self.omp {
            return self.compile_through_openmp(n, path, &src, layout, object, omp);
        }
        let (host_c, lowered, text) = self.lower(path, &src)?;
        let generated = self.generated_path(n, path, &object);
        if let Some(dir) = generated.parent().filter(|d| !d.as_os_str().is_empty()) {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Some(l) = lowered.as_ref().filter(|_| args.keep) {
            // The CUDA module and routine library are embedded in the generated C; `--keep`
            // also leaves them beside it, as NVRTC will see them.
            let kept = [
                (&l.cuda_c, generated.with_extension("cu")),
                (&l.cuda_library, generated.with_extension("routines.cu")),
            ];
            for (text, cu) in kept {
                if let Some(text) = text {
                    std::fs::write(&cu, acc_c::text::encode(text))
                        .map_err(|e| Fail::Msg(format!("cannot write {}: {e}", cu.display())))?;
                }
            }
        }
        let inlined = lowered.as_ref().map(|l| l.inlined_headers.clone());
        let inc = &Includes::of(path, inlined.unwrap_or_default());
        let split = match (lowered, self.one_unit_because()) {
            (None, _) => None,
            (Some(_), Some(why)) => {
                if args.verbose {
                    eprintln!("acc: {path}: one translation unit: {why}");
                }
                None
            }
            (Some(l), None) => match l.split(text.as_deref().unwrap_or(&src)) {
                Ok(s) => Some(s),
                Err(why) => {
                    if args.verbose {
                        eprintln!("acc: {path}: one translation unit: {why}");
                    }
                    None
                }
            },
        };
        if let Some(split) = split {
            if self.compile_split(n, path, &object, &generated, inc, &split)? {
                return Ok(object);
            }
        }
        write(&generated, &host_c)?;
        let (out, dep) = self.compile_generated(path, &generated, &object, inc, &[])?;
        self.show_host_messages(path, inc, &out)?;
        if let Some(d) = dep {
            name_the_source_in_dep_file(&d, &generated, path, &inc.inlined)?;
        }
        Ok(object)
    }

    /// Compiles the generated C of `path` (`extra` before it) into `object`, with the user's
    /// flags and dependency file: the compiler's output, and the dependency file it wrote.
    fn compile_generated(
        &self,
        path: &str,
        generated: &Path,
        object: &Path,
        inc: &Includes,
        extra: &[&str],
    ) -> Result<(std::process::Output, Option<PathBuf>)> {
        let args = self.args;
        let mut cmd = self.compile_command(&inc.quote_dirs, true);
        cmd.args(extra);
        let dep = args.dep_file_wanted.then(|| self.dep_file(path, object));
        if let Some(d) = &dep {
            cmd.arg("-MF").arg(d);
        }
        cmd.arg(stage_flag(args.stage()))
            .arg(generated)
            .arg("-o")
            .arg(object);
        Ok((output(cmd, args.verbose)?, dep))
    }

    /// `--via=openmp`: the file's OpenMP form (`NAME.omp.c` with `--keep`), compiled with the
    /// compiler's OpenMP.
    fn compile_through_openmp(
        &self,
        n: usize,
        path: &str,
        src: &str,
        layout: acc_c::text::Layout,
        object: PathBuf,
        omp: &via_openmp::OpenMp,
    ) -> Result<PathBuf> {
        let args = self.args;
        if args.info {
            // The mapping lines describe acc's own lowering, which this path does not use.
            eprintln!(
                "acc: warning: {path}: --info describes acc's runtime path; with --via=openmp, \
                 --keep shows the OpenMP form instead"
            );
        }
        let text = self.translate(path, src, omp)?;
        let text = acc_c::text::restore(&text, layout);
        let acc_c = self.generated_path(n, path, &object);
        let name = acc_c.file_name().map_or_else(
            || format!("{}.omp.c", stem(path)),
            |f| f.to_string_lossy().replace(".acc.c", ".omp.c"),
        );
        let generated = acc_c.with_file_name(name);
        if let Some(dir) = generated.parent().filter(|d| !d.as_os_str().is_empty()) {
            let _ = std::fs::create_dir_all(dir);
        }
        write(&generated, &text)?;
        let inc = &Includes::of(path, Vec::new());
        // The OpenMP form calls the OpenACC routines for `init`, `shutdown` and `set`, in files
        // that need not include openacc.h themselves (acc's own lowering includes it too).
        let (out, dep) =
            self.compile_generated(path, &generated, &object, inc, &["-include", "openacc.h"])?;
        if !out.status.success() {
            if let Some(own) = self.own_code_fails(path, inc) {
                return Err(own);
            }
            // The user's own C compiles: the messages are about the OpenMP form, which the
            // user has not seen.
            std::io::stderr().write_all(&out.stderr).ok();
            let kept = match args.keep {
                true => format!("it is {}", generated.display()),
                false => "--keep leaves it beside the output as NAME.omp.c".to_string(),
            };
            eprintln!(
                "acc: error: the OpenMP form of {path} does not compile with {} ({}); {kept}",
                omp.family,
                omp.flags.join(" "),
            );
            return Err(Fail::Status(toolchain::exit_code(out.status)));
        }
        self.show_host_messages(path, inc, &out)?;
        if let Some(d) = dep {
            name_the_source_in_dep_file(&d, &generated, path, &inc.inlined)?;
        }
        Ok(object)
    }

    /// The OpenMP form of a file, with the diagnostics said; header facts when the file
    /// includes a header of the program's own or names a type it does not define.
    fn translate(&self, path: &str, src: &str, omp: &via_openmp::OpenMp) -> Result<String> {
        let args = self.args;
        let headers = || {
            let (program, mut pp) = self.cc.for_preprocessor();
            pp.extend(args.preprocess.iter().cloned());
            pp.extend(args.common.iter().cloned());
            pp.push("-isystem".into());
            pp.push(self.include.to_string_lossy().into_owned());
            acc_c::preprocess::header_facts(&program, Path::new(path), &pp).map_err(Fail::Msg)
        };
        let mut env = match acc_c::preprocess::includes_program_header(src) {
            true => headers()?,
            false => acc_c::TypeEnv::default(),
        };
        let mut t = acc_c::translate_source(src, env.clone(), omp.options, acc_c::Mode::Omp);
        let unknown_type = |diags: &[acc_engine::Diagnostic]| {
            diags
                .iter()
                .any(|d| d.message.starts_with(acc_c::sema::UNKNOWN_TYPE))
        };
        if unknown_type(&t.diags) && !acc_c::preprocess::includes_program_header(src) {
            env = headers()?;
            t = acc_c::translate_source(src, env, omp.options, acc_c::Mode::Omp);
        }
        let acc_c::Translation {
            text,
            diags,
            source,
        } = t;
        let shown = source.as_deref().unwrap_or(src);
        let mut stderr = std::io::stderr().lock();
        for d in &diags {
            let _ = stderr.write_all(&acc_c::text::encode(&acc_c::render::render(d, path, shown)));
        }
        let errors = diags.iter().filter(|d| d.is_error()).count();
        if errors > 0 {
            let _ = writeln!(
                stderr,
                "{errors} error{} generated.",
                if errors == 1 { "" } else { "s" }
            );
            return Err(Fail::Status(1));
        }
        Ok(text)
    }

    /// Why a file with kernels is compiled as one translation unit, not as
    /// a host unit and a kernel unit in parallel (see `acc_c::split`).
    fn one_unit_because(&self) -> Option<&'static str> {
        let a = self.args;
        if !matches!(a.stage(), Stage::Compile | Stage::Link) {
            return Some("-S");
        }
        if std::env::var_os("ACC_SINGLE_TU").is_some_and(|v| !v.is_empty() && v != "0") {
            return Some("ACC_SINGLE_TU is set");
        }
        if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
            return Some("one processor");
        }
        let flags = a.preprocess.iter().chain(&a.common).chain(&a.compile);
        for f in flags {
            // Line markers are an extension that -pedantic names; system
            // headers' warnings would be said twice; LTO objects, profiles,
            // coverage notes, split DWARF and saved temporaries are named
            // after one object or do not survive `-r`.
            let unsafe_flag = f.contains("pedantic")
                || f == "-Weverything"
                || f == "-Wsystem-headers"
                || f == "-fsyntax-only"
                || f == "--coverage"
                || f == "-ftest-coverage"
                || f.starts_with("-flto")
                || f.starts_with("-save-temps")
                || f.starts_with("-fprofile")
                || f.starts_with("-fdump")
                || f.contains("split-dwarf")
                || f == "-emit-llvm";
            if unsafe_flag {
                return Some("a flag that needs one unit");
            }
        }
        None
    }

    /// Compiles the host and kernel units at once and combines their
    /// objects with `-r`. `Ok(false)`: compile the file as one unit instead
    /// (the kernel unit or the combining failed; one unit says why, if it
    /// is the user's code).
    fn compile_split(
        &self,
        n: usize,
        path: &str,
        object: &Path,
        generated: &Path,
        inc: &Includes,
        split: &acc_c::split::SplitTu,
    ) -> Result<bool> {
        let args = self.args;
        let kernels_c = generated.with_extension("kernels.c");
        write(generated, &split.host)?;
        write(&kernels_c, &split.kernels)?;
        let stem = stem(path);
        let host_o = self.tmp.path().join(format!("{n}-{stem}.host.o"));
        let kernels_o = self.tmp.path().join(format!("{n}-{stem}.kernels.o"));
        let mut host = self.compile_command(&inc.quote_dirs, true);
        let dep = args.dep_file_wanted.then(|| self.dep_file(path, object));
        if let Some(d) = &dep {
            host.arg("-MF").arg(d);
            // The rule's target is the object the user asked for, not the host part's
            // temporary one, which is what the compiler would name.
            let named = args.compile.iter().any(|f| f == "-MT" || f == "-MQ");
            if !named {
                host.arg("-MQ").arg(object);
            }
        }
        host.arg("-c").arg(generated).arg("-o").arg(&host_o);
        let mut kern = self.compile_command(&inc.quote_dirs, false);
        kern.arg("-c").arg(&kernels_c).arg("-o").arg(&kernels_o);
        let (host_out, kern_out) = std::thread::scope(|s| {
            let k = s.spawn(|| output(kern, args.verbose));
            let h = output(host, args.verbose);
            (
                h,
                k.join()
                    .unwrap_or_else(|_| Err(Fail::Msg("a thread failed".into()))),
            )
        });
        let (host_out, kern_out) = (host_out?, kern_out?);
        if !host_out.status.success() {
            self.show_host_messages(path, inc, &host_out)?;
        }
        let fall_back = |why: &str| {
            if args.verbose {
                eprintln!("acc: {path}: one translation unit: {why}");
            }
            let _ = std::fs::remove_file(&kernels_c);
            Ok(false)
        };
        if !kern_out.status.success() {
            return fall_back("the kernel unit does not compile");
        }
        let mut combine = self.cc.command();
        // The target flags (`-m32`) choose the linker's emulation.
        combine.args(args.common.iter().filter(|f| {
            f.starts_with("-m") || f.starts_with("--target") || f.starts_with("-target")
        }));
        combine
            .args(["-r", "-nostdlib"])
            .arg(&host_o)
            .arg(&kernels_o)
            .arg("-o")
            .arg(object);
        let combined = output(combine, args.verbose)?;
        if !combined.status.success() {
            return fall_back("the two objects do not combine (a definition in a header?)");
        }
        let mut stderr = std::io::stderr().lock();
        stderr.write_all(&host_out.stderr).ok();
        stderr.write_all(&kern_out.stderr).ok();
        if let Some(d) = dep {
            name_the_source_in_dep_file(&d, generated, path, &inc.inlined)?;
        }
        Ok(true)
    }

    /// The host compiler's messages on the generated host C; on failure,
    /// an error in the user's own C is best reported on the user's file as
    /// written, not on the generated code: compile the original alone
    /// (directives ignored) and show its messages if it fails too.
    fn show_host_messages(
        &self,
        path: &str,
        inc: &Includes,
        out: &std::process::Output,
    ) -> Result<()> {
        if !out.status.success() {
            if let Some(own) = self.own_code_fails(path, inc) {
                return Err(own);
            }
        }
        std::io::stderr().write_all(&out.stderr).ok();
        if !out.status.success() {
            return Err(Fail::Status(toolchain::exit_code(out.status)));
        }
        Ok(())
    }

    /// The user's file compiled alone (directives ignored): on failure its messages are said
    /// and the status returned.
    fn own_code_fails(&self, path: &str, inc: &Includes) -> Option<Fail> {
        let mut check = self.compile_command(&inc.quote_dirs, true);
        check
            .arg("-fsyntax-only")
            .arg("-Wno-unknown-pragmas")
            .arg(path);
        let own = check.output().ok()?;
        if own.status.success() {
            return None;
        }
        std::io::stderr().write_all(&own.stderr).ok();
        Some(Fail::Status(toolchain::exit_code(own.status)))
    }

    /// Header facts, lowering, diagnostics; the host C on success, the lowering, and the text
    /// lowered when acc put the program's headers into it (`None`: the file's own).
    fn lower(
        &self,
        path: &str,
        src: &str,
    ) -> Result<(String, Option<acc_c::lower::Lowered>, Option<String>)> {
        let args = self.args;
        let (program, mut pp) = self.cc.for_preprocessor();
        pp.extend(args.preprocess.iter().cloned());
        pp.extend(args.common.iter().cloned());
        let opts = acc_c::lower::LowerOptions {
            file_name: path.to_string(),
            read_headers: acc_c::preprocess::needs_headers(Path::new(path), src, &args.preprocess),
            inline_headers: true,
            nvrtc_options: acc_c::lower::nvrtc_options_for(&args.common),
            pointers_do_not_alias: args.safe_pointers,
        };
        let mut headers = || acc_c::preprocess::header_facts(&program, Path::new(path), &pp);
        let acc_c::lower::LazyLowering {
            lowered,
            diags,
            text,
        } = acc_c::lower::lower_file_lazy(src, &mut headers, &opts).map_err(Fail::Msg)?;
        let mut stderr = std::io::stderr().lock();
        let shown = text.as_deref().unwrap_or(src);
        for d in &diags {
            let _ = stderr.write_all(&acc_c::text::encode(&acc_c::render::render(d, path, shown)));
        }
        let errors = diags.iter().filter(|d| d.is_error()).count();
        let lowered = match lowered {
            Some(l) if errors == 0 => l,
            _ => {
                let errors = errors.max(1);
                let _ = writeln!(
                    stderr,
                    "{errors} error{} generated.",
                    if errors == 1 { "" } else { "s" }
                );
                return Err(Fail::Status(1));
            }
        };
        if args.info {
            for line in &lowered.info {
                // Each starts with the construct's `file:line` (a header acc inlined names
                // the header).
                let _ = writeln!(stderr, "{line}");
            }
        }
        let mut host_c = lowered.host_c.clone();
        if host_c == src {
            // Unchanged text has the user's line numbers: one `#line` makes
            // the host compiler's messages name the user's file.
            host_c = format!("#line 1 \"{}\"\n{src}", c_string(path));
        }
        Ok((host_c, Some(lowered), text))
    }

    fn compile_foreign(&self, n: usize, path: &str, lang: Option<&str>) -> Result<PathBuf> {
        refuse_cxx_directives(path, lang)?;
        let object = self.object_path(n, path);
        let mut cmd = self.compile_command(&[], true);
        cmd.arg(stage_flag(self.args.stage()));
        with_lang(&mut cmd, path, lang);
        if self.args.dep_file_wanted {
            cmd.arg("-MF").arg(self.dep_file(path, &object));
        }
        cmd.arg("-o").arg(&object);
        toolchain::run(cmd, self.args.verbose)?;
        Ok(object)
    }

    /// `$CC` with the flags of a compile step (`quote_dirs` on the
    /// quoted include path, see [`Includes`]), `_OPENACC` and the runtime's
    /// headers, as system headers: `-MMD` leaves them out of dependency
    /// files and their warnings are not the user's.
    /// `deps: false` leaves out the dependency-file flags (`-MD`, `-MT x`…).
    fn compile_command(&self, quote_dirs: &[PathBuf], deps: bool) -> std::process::Command {
        let a = self.args;
        let mut cmd = self.cc.command();
        cmd.arg(format!("-D_OPENACC={OPENACC}"));
        for d in quote_dirs {
            cmd.arg("-iquote").arg(d);
        }
        cmd.args(&a.preprocess).arg("-isystem").arg(self.include);
        if let Some(omp) = self.omp {
            cmd.args(&omp.flags);
        }
        cmd.args(&a.common);
        let mut skip_value = false;
        for f in &a.compile {
            if std::mem::take(&mut skip_value) {
                continue;
            }
            if !deps && f.starts_with("-M") {
                skip_value = matches!(f.as_str(), "-MT" | "-MQ" | "-MF");
                continue;
            }
            cmd.arg(f);
        }
        cmd
    }

    /// The dependency file of `-MD`/`-MMD`: `-MF`, else the object's name
    /// with `.d` when compiling with `-c -o`, else the source's stem with
    /// `.d` in the current directory (gcc's rules).
    fn dep_file(&self, path: &str, object: &Path) -> PathBuf {
        if let Some(f) = &self.args.dep_file {
            return PathBuf::from(f);
        }
        match (self.args.stage(), &self.args.output) {
            (Stage::Compile | Stage::Assemble, Some(_)) => object.with_extension("d"),
            _ => PathBuf::from(format!("{}.d", stem(path))),
        }
    }
}

/// Writes a generated file, with the raw bytes of the user's text as they were.
fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, acc_c::text::encode(text))
        .map_err(|e| Fail::Msg(format!("cannot write {}: {e}", path.display())))
}

/// Runs a command for its status and messages.
fn output(mut cmd: std::process::Command, verbose: bool) -> Result<std::process::Output> {
    if verbose {
        eprintln!("acc: running {}", toolchain::show(&cmd));
    }
    cmd.output().map_err(|e| {
        Fail::Msg(format!(
            "cannot run `{}`: {e}",
            cmd.get_program().to_string_lossy()
        ))
    })
}

fn stage_flag(stage: Stage) -> &'static str {
    match stage {
        Stage::Assemble => "-S",
        _ => "-c",
    }
}

/// The file name without directory and extension.
fn stem(path: &str) -> String {
    Path::new(path)
        .file_stem()
        .map_or_else(|| "stdin".into(), |s| s.to_string_lossy().into_owned())
}

/// A C string literal's contents for `text`.
fn c_string(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_strings_are_escaped() {
        assert_eq!(c_string(r#"a\b"c.c"#), r#"a\\b\"c.c"#);
    }
}
