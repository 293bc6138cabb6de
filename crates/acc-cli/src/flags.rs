//! The command line of `acc cc`, read the way gcc reads it: flags sorted by
//! the step they matter to (preprocessing, compiling, linking), inputs kept
//! in their order among the `-l` flags, unknown flags handed to the host
//! compiler. A pure function, so every rule is a unit test.

/// What to stop after, as `-E`, `-S` and `-c` say (the earliest wins).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// `-E`, or `-M`/`-MM`: preprocess only.
    Preprocess,
    /// `-S`: compile to assembly.
    Assemble,
    /// `-c`: compile to objects.
    Compile,
    /// No stage flag: compile and link.
    Link,
}

/// One input, in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A C file (`.c`, `.i`, or anything after `-x c`): lowered, then
    /// compiled.
    C(String),
    /// A file the host compiler compiles as it is (assembly, C++, standard
    /// input, a language named with `-x`).
    Foreign { path: String, lang: Option<String> },
    /// A file for the linker: objects, archives, shared libraries, and any
    /// file of an unknown kind (as gcc does).
    Link(String),
    /// A `-lNAME` flag, kept in its place among the inputs.
    Lib(String),
}

/// The parsed command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CcArgs {
    pub inputs: Vec<Input>,
    /// `-o`.
    pub output: Option<String>,
    /// Stage flags seen (`None`: link).
    pub stage: Option<Stage>,
    /// Flags that change what the preprocessor sees (`-I`, `-D`, `-U`,
    /// `-std=`, `-include`, `-isystem`, `-Wp,`…): for header facts and for
    /// compiling.
    pub preprocess: Vec<String>,
    /// Flags for compiling only (dependency files, `-Wa,`).
    pub compile: Vec<String>,
    /// Flags for linking only (`-L`, `-Wl,`, `-shared`…).
    pub link: Vec<String>,
    /// Flags for every step (`-O`, `-g`, `-W`, `-f`, `-m`, `-pthread`, and
    /// every flag we do not know).
    pub common: Vec<String>,
    /// What `acc cc` says about flags it takes differently from the compiler they come from.
    pub warnings: Vec<String>,
    /// nvc's `-Msafeptr`: the program's pointers reach no common data.
    pub safe_pointers: bool,
    /// `-MD` or `-MMD`: write a dependency file while compiling.
    pub dep_file_wanted: bool,
    /// `-MF FILE`.
    pub dep_file: Option<String>,
    /// An `-O` flag was given.
    pub optimize: bool,
    /// `-v`: also print the commands we run.
    pub verbose: bool,
    /// `--keep`: keep the generated C beside the output.
    pub keep: bool,
    /// `--info` (or nvc's `-Minfo`): print how each construct was mapped.
    pub info: bool,
    /// `--help`.
    pub help: bool,
    /// `--via=openmp`: translate to OpenMP and compile with `$CC`'s OpenMP
    /// (see `via_openmp`), instead of lowering to calls of acc's runtime.
    pub via_openmp: bool,
    /// `-Wdata`: run `acc check`'s data-mapping check on each C file and print its
    /// findings as warnings before compiling.
    pub check_data: bool,
}

impl CcArgs {
    /// The stage to stop after.
    pub fn stage(&self) -> Stage {
        self.stage.unwrap_or(Stage::Link)
    }

    /// The inputs that are compiled (C and foreign files).
    pub fn compiled(&self) -> impl Iterator<Item = &Input> {
        self.inputs
            .iter()
            .filter(|i| matches!(i, Input::C(_) | Input::Foreign { .. }))
    }
}

/// Flags whose argument may be the next word (`-o out` as well as `-oout`),
/// with the list they go to.
const SEPARATE: &[(&str, Dest)] = &[
    ("-o", Dest::Output),
    ("-I", Dest::Preprocess),
    ("-D", Dest::Preprocess),
    ("-U", Dest::Preprocess),
    ("-L", Dest::Link),
    ("-l", Dest::Lib),
    ("-x", Dest::Lang),
    ("-MF", Dest::DepFile),
    ("-MT", Dest::Compile),
    ("-MQ", Dest::Compile),
];

/// Flags whose argument is always the next word (`-include file.h`).
const NEXT_WORD: &[(&str, Dest)] = &[
    ("-include", Dest::Preprocess),
    ("-imacros", Dest::Preprocess),
    ("-isystem", Dest::Preprocess),
    ("-iquote", Dest::Preprocess),
    ("-idirafter", Dest::Preprocess),
    ("-iprefix", Dest::Preprocess),
    ("-iwithprefix", Dest::Preprocess),
    ("-iwithprefixbefore", Dest::Preprocess),
    ("-isysroot", Dest::Preprocess),
    ("-Xpreprocessor", Dest::Preprocess),
    ("-Xassembler", Dest::Compile),
    ("-Xlinker", Dest::Link),
    ("-T", Dest::Link),
    ("-u", Dest::Link),
    ("-z", Dest::Link),
    ("-Xclang", Dest::Common),
    ("-target", Dest::Common),
    ("-arch", Dest::Common),
    ("--param", Dest::Common),
    ("-aux-info", Dest::Common),
];

/// Flags without an argument that only the linker needs.
const LINK_ONLY: &[&str] = &[
    "-shared",
    "-static",
    "-static-pie",
    "-static-libgcc",
    "-shared-libgcc",
    "-rdynamic",
    "-nostdlib",
    "-nodefaultlibs",
    "-nostartfiles",
    "-nolibc",
    "-pie",
    "-no-pie",
    "-s",
];

/// Flags of other OpenACC compilers that `acc cc` accepts and ignores:
/// OpenACC is always on.
const IGNORED: &[&str] = &["-acc", "-fopenacc", "--acc"];

#[derive(Clone, Copy, Debug)]
enum Dest {
    Output,
    Preprocess,
    Compile,
    Link,
    Common,
    Lib,
    Lang,
    DepFile,
}

/// Parses the arguments after `acc cc`. Errors are messages for the user.
pub fn parse(args: &[String]) -> Result<CcArgs, String> {
    let mut a = CcArgs::default();
    // The language set by `-x` for the files after it (`None`: by name).
    let mut lang: Option<String> = None;
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        if arg == "-" || !arg.starts_with('-') {
            a.inputs.push(classify(arg, lang.as_deref()));
            continue;
        }
        if let Some(&(flag, dest)) = NEXT_WORD.iter().find(|(f, _)| *f == arg) {
            let value = args
                .get(i)
                .ok_or_else(|| format!("missing argument to `{flag}`"))?;
            i += 1;
            put(&mut a, &mut lang, dest, flag, value, true);
            continue;
        }
        if let Some(&(flag, dest)) = SEPARATE.iter().find(|(f, _)| arg.starts_with(*f)) {
            let joined = &arg[flag.len()..];
            let (value, separate) = if joined.is_empty() {
                let v = args
                    .get(i)
                    .ok_or_else(|| format!("missing argument to `{flag}`"))?;
                i += 1;
                (v.as_str(), true)
            } else {
                (joined, false)
            };
            put(&mut a, &mut lang, dest, flag, value, separate);
            continue;
        }
        match arg {
            "-c" => a.stage = earliest(a.stage, Stage::Compile),
            "-S" => a.stage = earliest(a.stage, Stage::Assemble),
            "-E" => a.stage = Some(Stage::Preprocess),
            "--keep" => a.keep = true,
            "--info" => a.info = true,
            "-Wdata" => a.check_data = true,
            "--help" => a.help = true,
            "--via" => {
                let value = args.get(i).ok_or("missing argument to `--via`")?;
                i += 1;
                a.via_openmp = via(value)?;
            }
            _ if arg.starts_with("--via=") => a.via_openmp = via(&arg["--via=".len()..])?,
            "-M" | "-MM" => {
                a.stage = Some(Stage::Preprocess);
                a.compile.push(arg.to_string());
            }
            "-MD" | "-MMD" => {
                a.dep_file_wanted = true;
                a.compile.push(arg.to_string());
            }
            "-MP" | "-MG" => a.compile.push(arg.to_string()),
            "-v" => {
                a.verbose = true;
                a.common.push(arg.to_string());
            }
            "-ansi" | "-nostdinc" | "-undef" | "-trigraphs" => a.preprocess.push(arg.to_string()),
            _ if IGNORED.contains(&arg)
                || arg.starts_with("-acc=")
                || arg.starts_with("-fopenacc-") => {}
            _ if arg.starts_with("-Minfo") => a.info = true,
            // nvc's and PGI's target flags (`-ta=tesla:cc80`, `-gpu=cc80,cuda12`,
            // `-target=gpu`, `-ta=multicore`): acc picks the device when the program runs and
            // compiles its kernels for the GPU it finds. Managed (unified) memory changes what
            // a program without data clauses means on a GPU, and acc has none: said.
            _ if arg.starts_with("-ta=")
                || arg.starts_with("-gpu=")
                || arg.starts_with("-target=") =>
            {
                if arg.contains("managed") || arg.contains("unified") {
                    a.warnings.push(format!(
                        "`{arg}` asks nvc for managed memory, which acc does not provide: on a \
                         GPU, the program's data clauses decide what the device sees"
                    ));
                }
            }
            // nvc's `-Msafeptr`: pointers do not alias, so `kernels` loops over them may run
            // in parallel (`restrict` says the same, pointer by pointer).
            _ if arg.starts_with("-Msafeptr") => a.safe_pointers = true,
            "-Mneginfo" => a.info = true,
            // nvc's other `-M` switches (`-Mvect=simd`, `-Minline`, `-Munroll`, `-Mprof=…`)
            // tune its own code generation; gcc's `-M` flags go on with a capital letter.
            _ if arg.len() > 2
                && arg.starts_with("-M")
                && arg.as_bytes()[2].is_ascii_lowercase()
                && !matches!(arg, "-Mfma" | "-Mnofma") =>
            {
                a.warnings.push(format!(
                    "`{arg}` is an nvc option acc does not have: ignored"
                ));
            }
            // nvc's OpenMP and C dialect switches, in gcc's words.
            "-mp" | "-mp=multicore" => a.common.push("-fopenmp".to_string()),
            "-c99" => a.preprocess.push("-std=gnu99".to_string()),
            "-c11" => a.preprocess.push("-std=gnu11".to_string()),
            // nvc's `-fast`: its generally fastest set of optimizations.
            "-fast" => {
                a.optimize = true;
                a.common.push("-O3".to_string());
            }
            // nvc's words for fusing multiply-adds, for host and device alike.
            "-Mfma" => a.common.push("-ffp-contract=fast".to_string()),
            "-Mnofma" => a.common.push("-ffp-contract=off".to_string()),
            _ if LINK_ONLY.contains(&arg) || arg.starts_with("-Wl,") => {
                a.link.push(arg.to_string())
            }
            _ if arg.starts_with("-Wp,")
                || arg.starts_with("-std=")
                || arg.starts_with("--std=") =>
            {
                a.preprocess.push(arg.to_string())
            }
            _ if arg.starts_with("-Wa,") => a.compile.push(arg.to_string()),
            _ => {
                if arg.starts_with("-O") {
                    a.optimize = true;
                }
                a.common.push(arg.to_string());
            }
        }
    }
    Ok(a)
}

/// `--via=openmp` or `--via=runtime` (the default): whether the program goes through OpenMP.
fn via(value: &str) -> Result<bool, String> {
    match value {
        "openmp" => Ok(true),
        "runtime" => Ok(false),
        other => Err(format!(
            "unknown `--via={other}`: the choices are `openmp` (compile through the host \
             compiler's OpenMP) and `runtime` (acc's runtime, the default)"
        )),
    }
}

/// The words of a response file (`@file`), as gcc reads them: separated by
/// blanks, with single or double quotes and backslash escapes.
pub fn split_response(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (c, quote) {
            ('\\', _) => {
                if let Some(n) = chars.next() {
                    word.push(n);
                }
                in_word = true;
            }
            (q, Some(open)) if q == open => quote = None,
            (_, Some(_)) => word.push(c),
            ('\'' | '"', None) => {
                quote = Some(c);
                in_word = true;
            }
            (c, None) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (c, None) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

fn earliest(stage: Option<Stage>, s: Stage) -> Option<Stage> {
    Some(stage.map_or(s, |t| t.min(s)))
}

fn put(
    a: &mut CcArgs,
    lang: &mut Option<String>,
    dest: Dest,
    flag: &str,
    value: &str,
    separate: bool,
) {
    let push = |list: &mut Vec<String>| {
        if separate {
            list.push(flag.to_string());
            list.push(value.to_string());
        } else {
            list.push(format!("{flag}{value}"));
        }
    };
    match dest {
        Dest::Output => a.output = Some(value.to_string()),
        Dest::Preprocess => push(&mut a.preprocess),
        Dest::Compile => push(&mut a.compile),
        Dest::Link => push(&mut a.link),
        Dest::Common => push(&mut a.common),
        Dest::Lib => a.inputs.push(Input::Lib(format!("-l{value}"))),
        Dest::Lang => *lang = (value != "none").then(|| value.to_string()),
        Dest::DepFile => a.dep_file = Some(value.to_string()),
    }
}

/// What kind of input a file is, by `-x` or else by its name (gcc's table,
/// for the kinds a C project meets).
fn classify(path: &str, lang: Option<&str>) -> Input {
    // Standard input cannot be lowered (we read files); the host compiler
    // reads it as it is.
    if path == "-" {
        return Input::Foreign {
            path: path.to_string(),
            lang: lang.map(str::to_string),
        };
    }
    match lang {
        Some("c") => return Input::C(path.to_string()),
        Some(l) => {
            return Input::Foreign {
                path: path.to_string(),
                lang: Some(l.to_string()),
            }
        }
        None => {}
    }
    let ext = std::path::Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("");
    match ext {
        "c" | "i" => Input::C(path.to_string()),
        "s" | "S" | "sx" | "cc" | "cp" | "cpp" | "cxx" | "c++" | "C" | "ii" | "m" | "mm" | "h" => {
            Input::Foreign {
                path: path.to_string(),
                lang: None,
            }
        }
        _ => Input::Link(path.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(line: &str) -> CcArgs {
        let args: Vec<String> = line.split_whitespace().map(String::from).collect();
        parse(&args).unwrap()
    }

    fn strs(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_typical_compile() {
        let a = p("-O2 -g -Wall -std=c11 -I inc -Iother -DN=3 -D M -UX -c foo.c -o build/foo.o");
        assert_eq!(a.stage(), Stage::Compile);
        assert_eq!(a.output.as_deref(), Some("build/foo.o"));
        assert_eq!(a.inputs, vec![Input::C("foo.c".into())]);
        assert_eq!(
            a.preprocess,
            strs(&["-std=c11", "-I", "inc", "-Iother", "-DN=3", "-D", "M", "-UX"])
        );
        assert_eq!(a.common, strs(&["-O2", "-g", "-Wall"]));
        assert!(a.optimize);
        assert!(a.link.is_empty() && a.compile.is_empty());
    }

    #[test]
    fn via_chooses_the_path() {
        assert!(p("--via=openmp a.c").via_openmp);
        assert!(p("--via openmp -c a.c").via_openmp);
        assert!(!p("--via=runtime a.c").via_openmp);
        assert!(!p("a.c").via_openmp);
        let err = parse(&strs(&["--via=cuda", "a.c"])).unwrap_err();
        assert!(err.contains("unknown `--via=cuda`"), "{err}");
        assert!(parse(&strs(&["a.c", "--via"])).is_err());
    }

    #[test]
    fn link_inputs_keep_their_order_with_libraries() {
        let a = p("main.c util.o -L/opt/lib -lfoo libbar.a -l baz -Wl,-rpath,/x -shared -o prog");
        assert_eq!(a.stage(), Stage::Link);
        assert_eq!(
            a.inputs,
            vec![
                Input::C("main.c".into()),
                Input::Link("util.o".into()),
                Input::Lib("-lfoo".into()),
                Input::Link("libbar.a".into()),
                Input::Lib("-lbaz".into()),
            ]
        );
        assert_eq!(a.link, strs(&["-L/opt/lib", "-Wl,-rpath,/x", "-shared"]));
        assert!(!a.optimize);
    }

    #[test]
    fn the_earliest_stage_wins() {
        assert_eq!(p("-c -S a.c").stage(), Stage::Assemble);
        assert_eq!(p("-S -c a.c").stage(), Stage::Assemble);
        assert_eq!(p("-c -E a.c").stage(), Stage::Preprocess);
        assert_eq!(p("-E -c a.c").stage(), Stage::Preprocess);
        assert_eq!(p("-MM a.c").stage(), Stage::Preprocess);
    }

    #[test]
    fn dependency_flags_go_to_the_compile_step() {
        let a = p("-MMD -MP -MF dep/foo.d -MT foo.o -c foo.c");
        assert!(a.dep_file_wanted);
        assert_eq!(a.dep_file.as_deref(), Some("dep/foo.d"));
        assert_eq!(a.compile, strs(&["-MMD", "-MP", "-MT", "foo.o"]));
        assert_eq!(a.stage(), Stage::Compile);
        let a = p("-MD -MFfoo.d -c foo.c");
        assert_eq!(a.dep_file.as_deref(), Some("foo.d"));
    }

    #[test]
    fn x_sets_the_language_of_the_files_after_it() {
        let a = p("-x c prog.txt -x assembler start.txt -x none lib.txt other.c");
        assert_eq!(
            a.inputs,
            vec![
                Input::C("prog.txt".into()),
                Input::Foreign {
                    path: "start.txt".into(),
                    lang: Some("assembler".into())
                },
                Input::Link("lib.txt".into()),
                Input::C("other.c".into()),
            ]
        );
        let a = p("-xc -");
        assert_eq!(
            a.inputs,
            vec![Input::Foreign {
                path: "-".into(),
                lang: Some("c".into())
            }]
        );
    }

    #[test]
    fn files_by_name() {
        let a = p("a.c b.i c.s d.S e.cpp f.o g.a h.so i.so.1");
        let kinds: Vec<&str> = a
            .inputs
            .iter()
            .map(|i| match i {
                Input::C(_) => "c",
                Input::Foreign { .. } => "foreign",
                Input::Link(_) => "link",
                Input::Lib(_) => "lib",
            })
            .collect();
        assert_eq!(
            kinds,
            ["c", "c", "foreign", "foreign", "foreign", "link", "link", "link", "link"]
        );
    }

    #[test]
    fn openacc_flags_of_other_compilers_are_ignored() {
        let a = p("-acc -fopenacc -acc=gpu -fopenacc-dim=32 -Minfo=accel a.c");
        assert!(a.common.is_empty(), "{:?}", a.common);
        assert!(a.info);
        assert_eq!(a.inputs, vec![Input::C("a.c".into())]);
    }

    #[test]
    fn nvcs_target_flags_are_taken() {
        let a = p("-fast -ta=tesla:cc80 -gpu=cc80,cuda12.2 -target=gpu a.c");
        assert_eq!(a.common, strs(&["-O3"]));
        assert!(a.optimize && a.warnings.is_empty(), "{:?}", a.warnings);
        let a = p("-gpu=mem:managed a.c");
        assert!(a.warnings[0].contains("managed memory"), "{:?}", a.warnings);
        assert!(p("-ta=tesla:managed a.c").warnings.len() == 1);
    }

    #[test]
    fn nvcs_other_switches_are_taken() {
        let a = p("-Msafeptr -Mvect=simd -Minline -mp -c99 a.c");
        assert!(a.safe_pointers);
        assert_eq!(a.common, strs(&["-fopenmp"]));
        assert_eq!(a.preprocess, strs(&["-std=gnu99"]));
        assert_eq!(a.warnings.len(), 2, "{:?}", a.warnings);
        assert!(p("-Mneginfo a.c").info);
        // gcc's dependency flags are not nvc's.
        assert!(p("-MD -MP a.c").warnings.is_empty());
    }

    #[test]
    fn nvcs_fma_flags_are_gccs() {
        assert_eq!(p("-Mnofma a.c").common, strs(&["-ffp-contract=off"]));
        assert_eq!(p("-Mfma a.c").common, strs(&["-ffp-contract=fast"]));
    }

    #[test]
    fn our_flags() {
        let a = p("--keep --info a.c");
        assert!(a.keep && a.info && !a.help);
        assert!(p("--help").help);
    }

    #[test]
    fn unknown_flags_go_to_every_step() {
        let a = p("-fPIC -march=native -pthread -w -pedantic -flto -Xclang -foo --weird a.c");
        assert_eq!(
            a.common,
            strs(&[
                "-fPIC",
                "-march=native",
                "-pthread",
                "-w",
                "-pedantic",
                "-flto",
                "-Xclang",
                "-foo",
                "--weird"
            ])
        );
    }

    #[test]
    fn preprocessor_and_assembler_pass_through_flags() {
        let a = p(
            "-include cfg.h -isystem /sys -iquote q -Wp,-DX -Wa,--noexecstack -Xlinker -zdefs a.c",
        );
        assert_eq!(
            a.preprocess,
            strs(&["-include", "cfg.h", "-isystem", "/sys", "-iquote", "q", "-Wp,-DX"])
        );
        assert_eq!(a.compile, strs(&["-Wa,--noexecstack"]));
        assert_eq!(a.link, strs(&["-Xlinker", "-zdefs"]));
    }

    #[test]
    fn mpi_wrapper_flags_pass_through() {
        // What Open MPI's `mpicc` adds around the user's flags (Debian's `--showme`, and the
        // -pthread and -Wl,… pairs other builds add), with `OMPI_CC="acc cc"`.
        let a = p("-O2 -I/usr/lib/x86_64-linux-gnu/openmpi/include \
             -I/usr/lib/x86_64-linux-gnu/openmpi/include/openmpi -pthread -c jacobi.c \
             -o jacobi.o");
        assert_eq!(
            a.preprocess,
            strs(&[
                "-I/usr/lib/x86_64-linux-gnu/openmpi/include",
                "-I/usr/lib/x86_64-linux-gnu/openmpi/include/openmpi"
            ])
        );
        assert_eq!(a.common, strs(&["-O2", "-pthread"]));
        assert_eq!(a.stage(), Stage::Compile);
        let a = p(
            "-O2 -pthread -o jacobi jacobi.o -lm -Wl,-rpath -Wl,/usr/lib/openmpi/lib \
             -Wl,--enable-new-dtags -L/usr/lib/x86_64-linux-gnu/openmpi/lib -lmpi",
        );
        assert_eq!(
            a.inputs,
            vec![
                Input::Link("jacobi.o".into()),
                Input::Lib("-lm".into()),
                Input::Lib("-lmpi".into()),
            ]
        );
        assert_eq!(
            a.link,
            strs(&[
                "-Wl,-rpath",
                "-Wl,/usr/lib/openmpi/lib",
                "-Wl,--enable-new-dtags",
                "-L/usr/lib/x86_64-linux-gnu/openmpi/lib"
            ])
        );
        assert_eq!(a.common, strs(&["-O2", "-pthread"]));
    }

    #[test]
    fn missing_arguments_are_errors() {
        for flag in ["-o", "-I", "-D", "-l", "-x", "-MF", "-include", "-Xlinker"] {
            let err = parse(&strs(&["a.c", flag])).unwrap_err();
            assert_eq!(err, format!("missing argument to `{flag}`"));
        }
    }

    #[test]
    fn response_files_split_like_gcc() {
        assert_eq!(
            split_response("-O2  a.o\n'b c.o' \"d\\\"e\" f\\ g ''\n"),
            strs(&["-O2", "a.o", "b c.o", "d\"e", "f g", ""])
        );
        assert!(split_response(" \n\t").is_empty());
    }

    #[test]
    fn the_last_output_wins() {
        assert_eq!(p("-o a -o b x.c").output.as_deref(), Some("b"));
    }
}
