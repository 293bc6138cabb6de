//! `acc check [cc flags] FILE.c…`: the static data-mapping check (acc-engine's
//! `check_data`) on each C file, its findings printed as the compiler's diagnostics; and
//! the same check that `acc cc -Wdata` runs before compiling.
//!
//! It owns the I/O of the check (reading files, the preprocessor for header facts, printing,
//! the exit status); it decides nothing about the findings.

use std::io::Write;
use std::path::Path;

use acc_engine::check_data::Options;

use crate::flags::{self, CcArgs, Input};
use crate::toolchain::HostCc;

pub const USAGE: &str = "\
usage: acc check [--verbose] [cc flags] FILE.c...
       acc check --run prog.c [more.c ...] [cc flags] [-- args...]

Finds data-mapping bugs without running the program: a device read of data the host changed
with no transfer in between, a host read of data the device changed with no transfer back
(a copy that moves nothing because an enclosing region holds the data), device memory read
before anything wrote it, `present` and `exit data` of data no path maps, and transfers
nothing needs. It reports only what it can prove; `--verbose` lists where it stopped
following a variable (calls that may touch it, aliases, sections it cannot compare).
Exit status: 1 when there is an error, else 0. `acc cc -Wdata` prints the same findings as
warnings before compiling.

With --run, it compiles and runs the program instead, on separate memory (host_discrete)
with the runtime's checking mode and on shared memory (host), and proves the stale uses that
make the results differ by running the program again with the missing transfer made:
`acc check --run --help` says more.
";

/// `acc check`.
pub fn main(raw: &[String]) -> u8 {
    let before_args = raw.iter().take_while(|a| *a != "--");
    if let Some(i) = before_args.into_iter().position(|a| a == "--run") {
        let rest: Vec<String> = [&raw[..i], &raw[i + 1..]].concat();
        return crate::check_run::main(&rest);
    }
    let verbose = raw.iter().any(|a| a == "--verbose");
    let rest: Vec<String> = raw.iter().filter(|a| *a != "--verbose").cloned().collect();
    let rest = crate::cc::expand_response_files(&rest, 0);
    let args = match flags::parse(&rest) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("acc: error: {e}");
            return 1;
        }
    };
    if args.help {
        print!("{USAGE}");
        return 0;
    }
    let cc = HostCc::from_env();
    let mut status = 0;
    let mut any = false;
    for i in &args.inputs {
        let Input::C(path) = i else { continue };
        any = true;
        match check_path(&cc, &args, path, verbose, false) {
            Ok(errors) if errors > 0 => status = 1,
            Ok(_) => {}
            Err(e) => {
                eprintln!("acc: error: {e}");
                status = 1;
            }
        }
    }
    if !any {
        eprintln!("acc: error: no C input files\n{USAGE}");
        return 1;
    }
    status
}

/// Checks one file and prints its findings (as warnings when `as_warnings`, for `acc cc
/// -Wdata`); returns how many errors it printed.
pub fn check_path(
    cc: &HostCc,
    args: &CcArgs,
    path: &str,
    verbose: bool,
    as_warnings: bool,
) -> Result<usize, String> {
    let (src, checked) = check_only(cc, args, path, verbose)?;
    let src = src.as_str();
    let mut stderr = std::io::stderr().lock();
    let mut errors = 0;
    for d in checked.diags.iter().filter(|d| d.is_error()) {
        errors += 1;
        let _ = stderr.write_all(&acc_c::text::encode(&acc_c::render::render(d, path, src)));
    }
    for d in &checked.report.findings {
        let mut d = d.clone();
        if as_warnings {
            d.severity = acc_engine::Severity::Warning;
        } else if d.is_error() {
            errors += 1;
        }
        let _ = stderr.write_all(&acc_c::text::encode(&acc_c::render::render(&d, path, src)));
    }
    for (at, why) in &checked.report.unknown {
        let (line, col) = acc_c::render::line_col(src, at.start);
        let _ = writeln!(stderr, "{path}:{line}:{col}: note: {why}");
    }
    Ok(errors)
}

/// The check of one file, printing nothing: its text (as analysed) and what the check found.
pub fn check_only(
    cc: &HostCc,
    args: &CcArgs,
    path: &str,
    verbose: bool,
) -> Result<(String, acc_c::check::Checked), String> {
    let src = read_source(path)?;
    let (program, mut pp) = cc.for_preprocessor();
    pp.extend(args.preprocess.iter().cloned());
    pp.extend(args.common.iter().cloned());
    let mut headers = || acc_c::preprocess::header_facts(&program, Path::new(path), &pp);
    let checked = acc_c::check::check_file(&src, &mut headers, &Options { verbose })?;
    // The findings are about the text checked (the file, or it with macros expanded).
    let src = checked.text.clone().unwrap_or(src);
    Ok((src, checked))
}

/// A C file's text as the analysis reads it.
pub fn read_source(path: &str) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read `{path}`: {e}"))?;
    Ok(acc_c::text::prepare(acc_c::text::decode(bytes)).0)
}
