//! `acc check --run prog.c [more.c …] [cc flags] [-- args]`: the dynamic half of `acc check`.
//!
//! The program is compiled as `acc run` compiles it, then run:
//!
//! 1. on `host_discrete` (separate memory) with the runtime's checking mode on
//!    (`ACC_CHECK=<report>`, `acc_runtime::check`), which lists *candidates*: launches that use
//!    a device copy older than the host's, constructs whose device writes never reach the host;
//! 2. on `host` (shared memory), the result the directives must not change (OmpSan's rule: a
//!    program gives the same result with its directives enabled or disabled); when the two
//!    differ, once more on `host`, so that a program whose output changes from run to run is
//!    not blamed;
//! 3. when they differ, once per candidate with the transfer it says is missing made by the
//!    runtime (`ACC_CHECK_REPAIR`): a candidate whose repair makes the program give the
//!    shared-memory result is a *proven* finding. When no single one does, all of them
//!    together, narrowed down one by one. At most [`MAX_RUNS`] runs in all.
//!
//! Only proven findings are errors (the house style: `file:line:col`, the source line and a
//! caret, notes for the last transfer and the proof, a fix-it); a difference no repair
//! explains is a warning that says so. The static check runs too, and each finding says
//! which static finding it confirms. The program runs with no standard input (it runs more
//! than once). Exit status: 1 when there is a finding, else the program's own.
//!
//! It owns the runs and the wording; it decides nothing about the directives (the runtime's
//! candidates, the static check's findings) and prints the program's own output unchanged.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use acc_engine::{Diagnostic, Span};

use crate::cc;
use crate::flags::{self, CcArgs, Input};
use crate::toolchain::{self, HostCc, TempDir};

pub const USAGE: &str = "\
usage: acc check --run prog.c [more.c ...] [acc cc flags] [-- args...]

Compiles the program as `acc run` does and runs it on host_discrete (separate memory) with
the runtime's checking mode, which compares the host and device copies of every mapped range
at each runtime event, then on host (shared memory). When the results differ, it runs the
program again with each transfer the check found missing made for it: a transfer that makes
the program give the shared-memory result is a proven finding (a device read of a stale
copy, or device writes that never reach the host), printed with the lines involved and the
directive to add, and with the static findings (`acc check`) it confirms. The program runs a
few times, with no standard input. Exit status: 1 when there is a finding, else the
program's own.
";

/// Which kind of stale use a candidate is (the runtime's `check::track::CandKind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CandKind {
    StaleDevice,
    LostWrite,
}

/// A candidate of the runtime's report file (`acc_runtime::check::format_candidate`: `kind`,
/// `file`, `line`, `var`, then `key=value` fields, tab-separated). The CLI does not link the
/// runtime, so the few fields are read here.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Candidate {
    kind: CandKind,
    file: String,
    line: u32,
    /// The variable's text in its mapping clause.
    var: String,
    /// The variable as the construct names it.
    shown: String,
    host_changed: (u32, u32),
    to_device: u32,
    made: u32,
    written: u32,
    ended: u32,
    kept: bool,
    released: bool,
    /// An `update self` reads the stale device copy (not a launch).
    to_host: bool,
    /// The line as the runtime wrote it (what a repair file repeats).
    raw: String,
}

/// The base name of a clause's variable text: `p` for `p[0:n]`.
fn base(var: &str) -> &str {
    var.split('[').next().unwrap_or(var).trim()
}

fn parse_candidate(line: &str) -> Option<Candidate> {
    let mut f = line.split('\t');
    let kind = match f.next()? {
        "stale-device" => CandKind::StaleDevice,
        "lost-write" => CandKind::LostWrite,
        _ => return None,
    };
    let (file, line_no, var) = (f.next()?, f.next()?.parse().ok()?, f.next()?);
    let mut c = Candidate {
        kind,
        file: file.to_string(),
        line: line_no,
        var: var.to_string(),
        shown: base(var).to_string(),
        host_changed: (0, 0),
        to_device: 0,
        made: 0,
        written: 0,
        ended: 0,
        kept: false,
        released: false,
        to_host: false,
        raw: line.to_string(),
    };
    for field in f {
        let Some((name, value)) = field.split_once('=') else {
            continue;
        };
        let num = || value.parse::<u32>().unwrap_or(0);
        match name {
            "shown" if !value.is_empty() => c.shown = value.to_string(),
            "host" => {
                let (a, b) = value.split_once('-').unwrap_or(("0", "0"));
                c.host_changed = (a.parse().unwrap_or(0), b.parse().unwrap_or(0));
            }
            "to_device" => c.to_device = num(),
            "made" => c.made = num(),
            "written" => c.written = num(),
            "ended" => c.ended = num(),
            "kept" => c.kept = value == "1",
            "released" => c.released = value == "1",
            "to_host" => c.to_host = value == "1",
            _ => {}
        }
    }
    Some(c)
}

/// The most runs of the program in all (the checked run and the shared-memory ones included).
pub const MAX_RUNS: usize = 24;

/// What is compared between runs: the exit status and standard output.
#[derive(Clone, PartialEq, Eq)]
struct Outcome {
    status: u8,
    stdout: Vec<u8>,
}

struct Runner {
    exe: PathBuf,
    args: Vec<String>,
    dir: PathBuf,
    runs: usize,
}

impl Runner {
    /// Runs the program on `device`; `check`: the report file of the checking mode and the
    /// candidates to repair.
    fn run(
        &mut self,
        device: &str,
        check: Option<(&Path, &[Candidate])>,
    ) -> Result<(Outcome, Vec<u8>), String> {
        self.runs += 1;
        let mut cmd = Command::new(&self.exe);
        cmd.args(&self.args)
            .env("ACC_DEVICE_TYPE", device)
            .env_remove("ACC_CHECK")
            .env_remove("ACC_CHECK_REPAIR")
            .stdin(Stdio::null());
        if let Some((report, repairs)) = check {
            cmd.env("ACC_CHECK", report);
            if !repairs.is_empty() {
                let file = self.dir.join(format!("repair-{}", self.runs));
                let text: String = repairs.iter().map(|c| format!("{}\n", c.raw)).collect();
                std::fs::write(&file, text).map_err(|e| format!("{}: {e}", file.display()))?;
                cmd.env("ACC_CHECK_REPAIR", file);
            }
        }
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.exe.display()))?;
        let outcome = Outcome {
            status: toolchain::exit_code(out.status),
            stdout: out.stdout,
        };
        Ok((outcome, out.stderr))
    }

    /// The outcome with `repairs` made, on separate memory.
    fn repaired(&mut self, repairs: &[Candidate]) -> Result<Outcome, String> {
        let scratch = self.dir.join("scratch-report");
        Ok(self.run("host_discrete", Some((&scratch, repairs)))?.0)
    }
}

/// `acc check --run` (the arguments after `check`, without `--run`).
pub fn main(raw: &[String]) -> u8 {
    let (cc_args, prog_args) = match raw.iter().position(|a| a == "--") {
        Some(i) => (&raw[..i], &raw[i + 1..]),
        None => (raw, &[][..]),
    };
    // `--verbose` is the static check's; the run has nothing more to say.
    let cc_args: Vec<String> = cc_args
        .iter()
        .filter(|a| *a != "--verbose")
        .cloned()
        .collect();
    match check_run(&cc::expand_response_files(&cc_args, 0), prog_args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("acc: error: {e}");
            1
        }
    }
}

fn check_run(cc_args: &[String], prog_args: &[String]) -> Result<u8, String> {
    let mut args = flags::parse(cc_args)?;
    if args.help {
        print!("{USAGE}");
        return Ok(0);
    }
    if args.stage.is_some() || args.output.is_some() {
        return Err(
            "`acc check --run` builds and runs a program: leave out -c, -S, -E and -o".into(),
        );
    }
    let inputs: Vec<String> = args
        .inputs
        .iter()
        .filter_map(|i| match i {
            Input::C(p) => Some(p.clone()),
            _ => None,
        })
        .collect();
    let Some(first) = inputs.first() else {
        return Err(format!("no C file to run\n{USAGE}"));
    };
    if !args.optimize {
        args.common.insert(0, "-O2".into());
    }
    let host = HostCc::from_env();
    let tmp = TempDir::new("check").map_err(fail)?;
    let name = Path::new(first)
        .file_stem()
        .map_or_else(|| "prog".into(), |s| s.to_string_lossy().into_owned());
    let exe = tmp.path().join(name);
    args.output = Some(exe.to_string_lossy().into_owned());
    cc::drive(&host, &args, &cc::Options::default()).map_err(fail)?;
    let mut runner = Runner {
        exe,
        args: prog_args.to_vec(),
        dir: tmp.path().to_path_buf(),
        runs: 0,
    };
    let report = tmp.path().join("report");
    let (checked, stderr) = runner.run("host_discrete", Some((&report, &[])))?;
    // The program's own output, as it would print it.
    {
        use std::io::Write;
        let _ = std::io::stdout().write_all(&checked.stdout);
        let _ = std::io::stdout().flush();
        let _ = std::io::stderr().write_all(&stderr);
    }
    let (shared, _) = runner.run("host", None)?;
    if shared == checked {
        return Ok(checked.status);
    }
    let (again, _) = runner.run("host", None)?;
    if again != shared {
        eprintln!(
            "acc: warning: the program's result changes from run to run on shared memory \
             (ACC_DEVICE_TYPE=host), so `acc check --run` cannot compare it with separate memory"
        );
        return Ok(checked.status);
    }
    let candidates: Vec<Candidate> = std::fs::read_to_string(&report)
        .unwrap_or_default()
        .lines()
        .filter_map(parse_candidate)
        .collect();
    let proven = prove(&mut runner, &shared, &candidates)?;
    if proven.is_empty() {
        let runtime_error = String::from_utf8_lossy(&stderr).contains("acc: error: ");
        let why = if runtime_error {
            "the runtime's error above stopped it there"
        } else {
            "no single missing transfer the check found explains it"
        };
        eprintln!(
            "{first}: warning: the program gives a different result on separate memory \
             (host_discrete: {}) than on shared memory (host: {}), and {why}",
            describe(&checked),
            describe(&shared)
        );
        return Ok(checked.status);
    }
    let statics = static_findings(&host, &args, &inputs);
    let together = proven.len();
    let mut err = std::io::stderr().lock();
    for c in &proven {
        let text = render(c, &inputs, &statics, together > 1 && c.1);
        let _ = std::io::Write::write_all(&mut err, text.as_bytes());
    }
    Ok(1)
}

fn fail(f: toolchain::Fail) -> String {
    match f {
        toolchain::Fail::Msg(m) => m,
        toolchain::Fail::Status(s) => format!("compiling failed (status {s})"),
    }
}

fn describe(o: &Outcome) -> String {
    let lines = o.stdout.split(|&b| b == b'\n').count().saturating_sub(1);
    let s = if lines == 1 { "" } else { "s" };
    format!("exit status {}, {lines} line{s} of output", o.status)
}

/// The candidates whose repairs are proven to matter; `true` with each when only the set
/// as a whole gives the shared-memory result.
fn prove(
    runner: &mut Runner,
    shared: &Outcome,
    cands: &[Candidate],
) -> Result<Vec<(Candidate, bool)>, String> {
    let mut proven = Vec::new();
    for c in cands {
        if runner.runs >= MAX_RUNS {
            break;
        }
        if runner.repaired(std::slice::from_ref(c))? == *shared {
            proven.push((c.clone(), false));
        }
    }
    if !proven.is_empty() || cands.len() < 2 || runner.runs >= MAX_RUNS {
        return Ok(proven);
    }
    let mut set = cands.to_vec();
    if runner.repaired(&set)? != *shared {
        return Ok(proven);
    }
    // Narrowed down: drop each one whose repair the others do not need.
    let mut i = 0;
    while i < set.len() && runner.runs < MAX_RUNS {
        let mut fewer = set.clone();
        fewer.remove(i);
        if runner.repaired(&fewer)? == *shared {
            set = fewer;
        } else {
            i += 1;
        }
    }
    Ok(set.into_iter().map(|c| (c, true)).collect())
}

/// A static finding: the file it is about, its line and column, its message.
struct Static {
    path: String,
    line: usize,
    col: usize,
    message: String,
}

fn static_findings(cc: &HostCc, args: &CcArgs, inputs: &[String]) -> Vec<Static> {
    let mut out = Vec::new();
    for path in inputs {
        let Ok((src, checked)) = crate::check::check_only(cc, args, path, false) else {
            continue;
        };
        for d in checked.report.findings.iter().filter(|d| d.is_error()) {
            let (line, col) = acc_c::render::line_col(&src, d.span.start);
            out.push(Static {
                path: path.clone(),
                line,
                col,
                message: d.message.clone(),
            });
        }
    }
    out
}

/// The input whose file the runtime named (by the path `acc cc` compiled).
fn input_for(file: &str, inputs: &[String]) -> String {
    let canon = |p: &str| std::fs::canonicalize(p).ok();
    let want = canon(file);
    inputs
        .iter()
        .find(|i| want.is_some() && canon(i) == want)
        .cloned()
        .unwrap_or_else(|| file.to_string())
}

/// The byte offset where line `line` (1-based) starts.
fn line_start(src: &str, line: u32) -> usize {
    if line <= 1 {
        return 0;
    }
    src.match_indices('\n')
        .nth(line as usize - 2)
        .map_or(src.len(), |(i, _)| i + 1)
}

/// The text of line `line` without its indentation, as a span.
fn line_span(src: &str, line: u32) -> Span {
    let start = line_start(src, line);
    let end = src[start..].find('\n').map_or(src.len(), |i| start + i);
    let text = &src[start..end];
    let indent = text.len() - text.trim_start().len();
    Span::new(start + indent, end.max(start + indent))
}

fn indent_of(src: &str, line: u32) -> String {
    let start = line_start(src, line);
    src[start..]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect()
}

/// Where a construct that starts on `line` ends: the start of the line after its statement.
fn after_construct(src: &str, line: u32) -> Option<usize> {
    let analysis = acc_c::analyze_for(src, acc_c::types::TypeEnv::default(), None);
    let c = analysis
        .unit
        .constructs
        .iter()
        .find(|c| acc_c::render::line_col(src, c.pragma_span.start).0 == line as usize)?;
    let end = c.body?.end;
    Some(src[end..].find('\n').map_or(src.len(), |i| end + i + 1))
}

/// The fix's text for the candidate's variable: the mapping clause's section when it names
/// the same variable, else a section of it on the construct's line (`present(p[0:n])`), else
/// the name the construct used.
fn fix_var(c: &Candidate, src: &str) -> String {
    if base(&c.var) == c.shown {
        return c.var.clone();
    }
    let start = line_start(src, c.line);
    let end = src[start..].find('\n').map_or(src.len(), |i| start + i);
    section_in(&src[start..end], &c.shown).unwrap_or_else(|| c.shown.clone())
}

/// The first `var[…]…` section in `text`.
fn section_in(text: &str, var: &str) -> Option<String> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
    for (i, _) in text.match_indices(&format!("{var}[")) {
        if text[..i].chars().next_back().is_some_and(word) {
            continue;
        }
        let rest = &text[i + var.len()..];
        let mut end = 0;
        while rest[end..].starts_with('[') {
            end += rest[end..].find(']')? + 1;
        }
        return Some(format!("{var}{}", &rest[..end]));
    }
    None
}

fn render(
    proven: &(Candidate, bool),
    inputs: &[String],
    statics: &[Static],
    together: bool,
) -> String {
    let (c, _) = proven;
    let path = input_for(&c.file, inputs);
    let Ok(src) = crate::check::read_source(&path) else {
        return format!("{path}:{}: error: {}\n", c.line, message(c));
    };
    let (l, var, fix) = (c.line, &c.shown, fix_var(c, &src));
    let mut d = Diagnostic::error(line_span(&src, l), message(c));
    match c.kind {
        CandKind::StaleDevice => {
            if c.written > 0 {
                let what = format!("the construct that last wrote the device copy of `{var}`");
                d = d.with_secondary(line_span(&src, c.written), what);
            } else if c.to_device > 0 {
                let what = format!("the last transfer of `{var}` to the device");
                d = d.with_secondary(line_span(&src, c.to_device), what);
            } else if c.made > 0 {
                let what = format!("`{var}` was allocated on the device here, with no copy in");
                d = d.with_secondary(line_span(&src, c.made), what);
            }
            let what = if c.to_host {
                format!("the host's `{var}` copied to the device")
            } else {
                format!("`update device({fix})` made")
            };
            d = d.with_note(format!(
                "proven by running it again with {what} just before line {l}: \
                 the program then gives the result it gives with shared memory"
            ));
        }
        CandKind::LostWrite => {
            if c.kept {
                if c.made > 0 && c.made != l {
                    let what = format!(
                        "`{var}` was mapped here, and stays present until this mapping ends"
                    );
                    d = d.with_secondary(line_span(&src, c.made), what);
                }
                d = d.with_note(format!(
                    "the construct's copy back moved nothing: `{var}` stayed present, held by an \
                     enclosing data region or `enter data`"
                ));
            } else if c.released && c.ended > 0 {
                d = d.with_note(format!(
                    "the device copy was released at line {} without a copy back",
                    c.ended
                ));
            } else {
                let why = "the construct ended with no transfer back; the host went on with its \
                           older copy";
                d = d.with_note(why);
            }
            d = d.with_note(format!(
                "proven by running it again with the device's `{var}` copied back to the host as \
                 the construct ends: the program then gives the result it gives with shared memory"
            ));
        }
    }
    if together {
        d = d.with_note(
            "only together with the other findings of this run does the fix give that result",
        );
    }
    for s in confirmed(c, &path, statics) {
        d = d.with_note(format!(
            "confirms the static finding at {}:{}:{}: {}",
            s.path, s.line, s.col, s.message
        ));
    }
    let indent = indent_of(&src, l);
    d = match c.kind {
        CandKind::StaleDevice if c.to_host => match clause_fix(&src, c.made, &c.shown, true) {
            Some((span, from, to)) => d.with_fix(
                format!("copy `{var}` in when it is mapped (`{to}`, not `{from}`)"),
                span,
                to,
            ),
            None => d,
        },
        CandKind::StaleDevice => {
            let at = line_start(&src, l);
            d.with_fix(
                format!("add `update device({fix})` before the construct"),
                Span::new(at, at),
                format!("{indent}#pragma acc update device({fix})\n"),
            )
        }
        CandKind::LostWrite if c.released => match clause_fix(&src, c.ended, &c.shown, false) {
            Some((span, from, to)) => d.with_fix(
                format!("copy `{var}` back when it is released (`{to}`, not `{from}`)"),
                span,
                to,
            ),
            None => {
                let at = line_start(&src, c.ended);
                d.with_fix(
                    format!("add `update self({fix})` before the release"),
                    Span::new(at, at),
                    format!(
                        "{}#pragma acc update self({fix})\n",
                        indent_of(&src, c.ended)
                    ),
                )
            }
        },
        CandKind::LostWrite => {
            let at = after_construct(&src, l).unwrap_or_else(|| line_start(&src, l));
            d.with_fix(
                format!("add `update self({fix})` after the construct"),
                Span::new(at, at),
                format!("{indent}#pragma acc update self({fix})\n"),
            )
        }
    };
    acc_c::render::render(&d, &path, &src)
}

/// The clause on line `line` that releases `var` without a copy back (`copyin`, `create`,
/// `delete`), and the clause that would copy it back; with `copy_in`, the clause that maps it
/// without a copy in (`create`) and the one that copies it in: its name's span, old and new
/// name.
fn clause_fix(
    src: &str,
    line: u32,
    var: &str,
    copy_in: bool,
) -> Option<(Span, &'static str, &'static str)> {
    let start = line_start(src, line);
    let end = src[start..].find('\n').map_or(src.len(), |i| start + i);
    let text = &src[start..end];
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let pairs: &[(&'static str, &'static str)] = if copy_in {
        &[("create", "copyin")]
    } else {
        &[
            ("copyin", "copy"),
            ("create", "copyout"),
            ("delete", "copyout"),
        ]
    };
    for &(from, to) in pairs {
        for (i, _) in text.match_indices(&format!("{from}(")) {
            if text[..i].chars().next_back().is_some_and(word) {
                continue;
            }
            let args = &text[i + from.len() + 1..];
            let args = &args[..args.find(')').unwrap_or(args.len())];
            let names = args.split(',').map(|a| base(a.trim()));
            if names.into_iter().any(|n| n == var) {
                return Some((Span::new(start + i, start + i + from.len()), from, to));
            }
        }
    }
    None
}

fn message(c: &Candidate) -> String {
    let (l, var) = (c.line, &c.shown);
    match c.kind {
        CandKind::StaleDevice if c.to_host => format!(
            "the `update self` at line {l} copies over the host's `{var}` a device copy that \
             nothing wrote"
        ),
        CandKind::StaleDevice if c.written == 0 && c.to_device == 0 => format!(
            "the construct at line {l} reads `{var}` on the device, where nothing copied the \
             host's data in"
        ),
        CandKind::StaleDevice => {
            let when = match c.host_changed {
                (0, 0) => String::new(),
                (0, b) => format!(" before line {b}"),
                (a, b) if a == b => format!(" at line {a}"),
                (a, b) => format!(" between line {a} and line {b}"),
            };
            let after = if c.written > 0 {
                format!(
                    "after the construct at line {} wrote the device copy",
                    c.written
                )
            } else {
                "after its last transfer to the device".to_string()
            };
            format!(
                "the construct at line {l} reads a stale device copy of `{var}`: the host changed \
                 it{when}, {after}, and nothing updated the device"
            )
        }
        CandKind::LostWrite => format!(
            "the device's writes to `{var}` in the construct at line {l} never reach the host"
        ),
    }
}

/// The static findings about the same variable and the same kind of stale use.
fn confirmed<'a>(c: &Candidate, path: &str, statics: &'a [Static]) -> Vec<&'a Static> {
    let name = format!("`{}`", base(&c.shown));
    statics
        .iter()
        .filter(|s| s.message.contains(&name))
        .filter(|s| match c.kind {
            CandKind::StaleDevice => {
                s.message.starts_with("the device reads")
                    || s.message.starts_with("reads the device copy")
            }
            CandKind::LostWrite => s.message.starts_with("the host reads"),
        })
        .filter(|s| s.path == path || inputs_same(&s.path, path))
        .collect()
}

fn inputs_same(a: &str, b: &str) -> bool {
    let ca = std::fs::canonicalize(a).ok();
    ca.is_some() && ca == std::fs::canonicalize(b).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_lines() {
        let c = parse_candidate(
            "lost-write\ta.c\t12\tp[0:n]\tshown=p\thost=3-4\tto_device=8\tmade=8\tended=12\
             \tkept=1\treleased=0",
        )
        .unwrap();
        assert_eq!(
            (c.kind, c.line, c.var.as_str()),
            (CandKind::LostWrite, 12, "p[0:n]")
        );
        assert_eq!((c.host_changed, c.to_device, c.kept), ((3, 4), 8, true));
        assert_eq!(parse_candidate("stale-device\ta.c"), None);
        assert_eq!(fix_var(&c, ""), "p[0:n]");
        assert_eq!(
            section_in(
                "  #pragma acc parallel loop present(q[0:n], p[1:n][0:2])",
                "p"
            ),
            Some("p[1:n][0:2]".to_string())
        );
        assert_eq!(section_in("present(pp[0:n])", "p"), None);
    }

    #[test]
    fn lines_and_spans() {
        let src = "a\n  #pragma acc x\nb";
        assert_eq!(line_start(src, 2), 2);
        assert_eq!(line_span(src, 2), Span::new(4, 17));
        assert_eq!(indent_of(src, 2), "  ");
        assert_eq!(line_start(src, 9), src.len());
        let src = "  #pragma acc parallel loop copyin(b, a[0:n]) create(x)\n";
        let (span, from, to) = clause_fix(src, 1, "a", false).unwrap();
        assert_eq!(
            (&src[span.start..span.end], from, to),
            ("copyin", "copyin", "copy")
        );
        assert_eq!(clause_fix(src, 1, "x", false).map(|f| f.2), Some("copyout"));
        assert_eq!(clause_fix(src, 1, "x", true).map(|f| f.2), Some("copyin"));
        assert_eq!(clause_fix(src, 1, "y", false), None);
    }
}
