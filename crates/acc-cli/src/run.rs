//! `acc run prog.c [more.c ...] [cc flags] [-- args...]`: compile to a
//! temporary executable with `acc cc`, run it, and exit with its status.

use std::path::PathBuf;
use std::process::Command;

use crate::cc;
use crate::flags::{self, Input};
use crate::toolchain::{self, Fail, HostCc, TempDir};

pub const USAGE: &str = "\
usage: acc run prog.c [more.c ...] [acc cc flags] [-- args...]

Compiles the files with `acc cc` (with -O2 unless an -O flag is given) into a
temporary executable, runs it with the arguments after `--`, and exits with
its status. --keep leaves the generated C in the current directory.
";

/// Runs `acc run` on its arguments (after `run`) and returns the exit status.
pub fn main(raw: &[String]) -> u8 {
    let (cc_args, prog_args) = match raw.iter().position(|a| a == "--") {
        Some(i) => (&raw[..i], &raw[i + 1..]),
        None => (raw, &[][..]),
    };
    match run(&cc::expand_response_files(cc_args, 0), prog_args) {
        Ok(code) => code,
        Err(f) => cc::report(f),
    }
}

fn run(cc_args: &[String], prog_args: &[String]) -> toolchain::Result<u8> {
    let mut args = flags::parse(cc_args).map_err(Fail::Msg)?;
    if args.help {
        print!("{USAGE}");
        return Ok(0);
    }
    if args.stage.is_some() || args.output.is_some() {
        return Err(Fail::Msg(
            "`acc run` builds and runs a program: leave out -c, -S, -E and -o".into(),
        ));
    }
    let Some(first) = args.inputs.iter().find_map(|i| match i {
        Input::C(p) | Input::Foreign { path: p, .. } => Some(p.clone()),
        _ => None,
    }) else {
        return Err(Fail::Msg(
            "no C file to run; usage: acc run prog.c [-- args...]".into(),
        ));
    };
    if !args.optimize {
        args.common.insert(0, "-O2".into());
    }
    let tmp = TempDir::new("run")?;
    let name = PathBuf::from(&first)
        .file_stem()
        .map_or_else(|| "prog".into(), |s| s.to_string_lossy().into_owned());
    let exe = tmp.path().join(name);
    args.output = Some(exe.to_string_lossy().into_owned());
    let opts = cc::Options {
        keep_dir: args.keep.then(|| PathBuf::from(".")),
    };
    cc::drive(&HostCc::from_env(), &args, &opts)?;
    // The program is the user's, not acc's C compiler (see `toolchain::INSIDE_HOST_CC`).
    let status = Command::new(&exe)
        .args(prog_args)
        .env_remove(toolchain::INSIDE_HOST_CC)
        .status()
        .map_err(|e| Fail::Msg(format!("cannot run {}: {e}", exe.display())))?;
    // `tmp` is dropped here, after the program ended: the directory goes.
    Ok(toolchain::exit_code(status))
}
