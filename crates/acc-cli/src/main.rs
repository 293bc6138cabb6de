//! The `acc` command: `acc translate` prints OpenACC C as OpenMP (Clacc's
//! source-to-source modes); `acc cc` compiles OpenACC C with the runtime;
//! `acc run` compiles and runs.
//!
//! This binary owns the I/O at the edge: reading files, running the
//! preprocessor, rendering diagnostics, exit codes. Everything OpenACC is
//! decided in acc-engine, everything C in acc-c.

mod cc;
mod check;
mod check_run;
mod flags;
mod generated_includes;
mod run;
mod toolchain;
mod via_openmp;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use acc_engine::omp::OmpOptions;
use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser)]
#[command(name = "acc", version, about = "OpenACC for C and Rust")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print OpenACC C as OpenMP (or both), keeping the rest of the file.
    Translate(TranslateArgs),
    /// Compile OpenACC C like `cc` (`acc cc --help` for the flags).
    Cc(RawArgs),
    /// Compile to a temporary executable and run it: `acc run prog.c [-- args]`.
    Run(RawArgs),
    /// Find data-mapping bugs without running: `acc check [--verbose] [cc flags] FILE.c…`.
    Check(RawArgs),
}

/// The arguments of `acc cc` and `acc run`, which read them themselves
/// (gcc's command line is not clap's); `main` hands them over before clap
/// sees them, so this is only for `acc --help`.
#[derive(clap::Args)]
#[command(disable_help_flag = true)]
struct RawArgs {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum PrintMode {
    /// The source unchanged.
    Acc,
    /// OpenMP only.
    Omp,
    /// OpenACC, with the OpenMP form in comments.
    AccOmp,
    /// OpenMP, with the OpenACC directives in comments.
    OmpAcc,
}

#[derive(Clone, Copy, ValueEnum)]
enum Hold {
    Hold,
    NoHold,
}

#[derive(Clone, Copy, ValueEnum)]
enum Present {
    Present,
    NoPresent,
}

#[derive(Clone, Copy, ValueEnum)]
enum NoCreate {
    #[value(name = "no_alloc")]
    NoAlloc,
    #[value(name = "no-no_alloc")]
    NoNoAlloc,
}

#[derive(clap::Args)]
struct TranslateArgs {
    /// What to print.
    #[arg(long = "print", value_enum, default_value = "omp")]
    mode: PrintMode,
    /// Map structured reference counts with `ompx_hold` (Clang) or not.
    #[arg(long, value_enum, default_value = "hold")]
    structured_ref_count_omp: Hold,
    /// Map `present` with the OpenMP `present` map-type modifier or not.
    #[arg(long, value_enum, default_value = "present")]
    present_omp: Present,
    /// Map `no_create` with Clacc's `ompx_no_alloc` or not.
    #[arg(long, value_enum, default_value = "no_alloc")]
    no_create_omp: NoCreate,
    /// Map `update` with the `present` motion modifier or not.
    #[arg(long, value_enum, default_value = "present")]
    update_present_omp: Present,
    /// Add a directory to the include path (for header facts).
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<String>,
    /// Define a macro, as the C compiler would.
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    define: Vec<String>,
    /// Undefine a macro.
    #[arg(short = 'U', value_name = "NAME")]
    undefine: Vec<String>,
    /// Do not run the preprocessor for header facts.
    #[arg(long)]
    no_preprocess: bool,
    /// Output file (standard output if absent).
    #[arg(short = 'o', value_name = "OUT")]
    output: Option<PathBuf>,
    /// The OpenACC C file.
    file: PathBuf,
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().collect();
    // Installed or linked as `acc-cc`, the binary is `acc cc` (for
    // `CC=acc-cc`, where a build wants one word).
    let invoked_as = argv.first().map(|a| {
        std::path::Path::new(a)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
    let cc_args = if invoked_as.as_deref() == Some("acc-cc") {
        Some(&argv[1..])
    } else if argv.get(1).map(String::as_str) == Some("cc") {
        Some(&argv[2..])
    } else {
        None
    };
    if let Some(args) = cc_args {
        // Started by `acc cc` as its C compiler, through a `$CC` that is a script around
        // acc: be the C compiler it meant (see `toolchain::INSIDE_HOST_CC`).
        if toolchain::inside_host_cc() {
            return ExitCode::from(toolchain::host_cc_pass_through(args));
        }
        mark_children_as_host_cc();
        return ExitCode::from(cc::main(args));
    }
    mark_children_as_host_cc();
    match argv.get(1).map(String::as_str) {
        Some("run") => return ExitCode::from(run::main(&argv[2..])),
        Some("check") => return ExitCode::from(check::main(&argv[2..])),
        _ => {}
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Translate(args) => translate(args),
        Command::Cc(raw) => Ok(ExitCode::from(cc::main(&raw.args))),
        Command::Run(raw) => Ok(ExitCode::from(run::main(&raw.args))),
        Command::Check(raw) => Ok(ExitCode::from(check::main(&raw.args))),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("acc: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Every command acc starts from here on is its C compiler or the C preprocessor (`acc run`
/// takes the mark off the program it runs): marked, so that a `$CC` leading back to acc is
/// found (`toolchain::INSIDE_HOST_CC`). Set before any thread starts.
fn mark_children_as_host_cc() {
    std::env::set_var(toolchain::INSIDE_HOST_CC, "1");
}

fn translate(args: TranslateArgs) -> Result<ExitCode> {
    let src = std::fs::read(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    // Any bytes a C compiler takes survive, byte for byte: see `acc_c::text`.
    let (src, layout) = acc_c::text::prepare(acc_c::text::decode(src));
    let opts = OmpOptions {
        hold: matches!(args.structured_ref_count_omp, Hold::Hold),
        present: matches!(args.present_omp, Present::Present),
        no_alloc: matches!(args.no_create_omp, NoCreate::NoAlloc),
        update_present: matches!(args.update_present_omp, Present::Present),
    };
    let mode = match args.mode {
        PrintMode::Acc => acc_c::Mode::Acc,
        PrintMode::Omp => acc_c::Mode::Omp,
        PrintMode::AccOmp => acc_c::Mode::AccOmp,
        PrintMode::OmpAcc => acc_c::Mode::OmpAcc,
    };
    let headers = if args.no_preprocess {
        acc_c::TypeEnv::default()
    } else {
        let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
        let mut pp = Vec::new();
        pp.extend(args.include.iter().map(|i| format!("-I{i}")));
        pp.extend(args.define.iter().map(|d| format!("-D{d}")));
        pp.extend(args.undefine.iter().map(|u| format!("-U{u}")));
        match acc_c::preprocess::header_facts(&cc, &args.file, &pp) {
            Ok(env) => env,
            Err(e) => bail!("{e}"),
        }
    };
    let acc_c::Translation {
        text,
        diags,
        source,
    } = acc_c::translate_source(&src, headers, opts, mode);
    let text = acc_c::text::restore(&text, layout);
    let name = args.file.display().to_string();
    let mut stderr = std::io::stderr().lock();
    let shown = source.as_deref().unwrap_or(&src);
    for d in &diags {
        stderr.write_all(&acc_c::text::encode(&acc_c::render::render(
            d, &name, shown,
        )))?;
    }
    let errors = diags.iter().filter(|d| d.is_error()).count();
    if errors > 0 {
        writeln!(
            stderr,
            "{errors} error{} generated.",
            if errors == 1 { "" } else { "s" }
        )?;
        return Ok(ExitCode::FAILURE);
    }
    match &args.output {
        Some(path) => std::fs::write(path, acc_c::text::encode(&text))
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => std::io::stdout()
            .lock()
            .write_all(&acc_c::text::encode(&text))?,
    }
    Ok(ExitCode::SUCCESS)
}
