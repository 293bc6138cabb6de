//! `acc cc --via=openmp`: Clacc's own path. Each C file is translated to OpenMP by the engine's
//! mapping (`acc_c::translate`, the text `acc translate` prints) and compiled with the host
//! compiler's OpenMP; the link adds `acc2omp.c`, the OpenACC runtime API over the OpenMP device
//! API (`crates/acc-runtime/acc2omp`), compiled once per compiler and flags and cached.
//!
//! Which OpenMP the translation may use depends on the compiler: Clang knows `ompx_hold` and
//! OpenMP 5.1's `present` modifiers, GCC 12 neither, and no released compiler `ompx_no_alloc`.
//! [`probe`] asks the compiler itself (a `-fsyntax-only` run per option; the answers are cached
//! by the compiler's identity) and `-v` says what it chose. An option the compiler lacks takes
//! its portable form, as Clacc's command-line switches do (see `acc_engine::omp::OmpOptions`):
//! a construct whose meaning needs what the compiler lacks is diagnosed by the translation,
//! never silently changed.
//!
//! This module owns the OpenMP path's choices (flags, option set, library object); it must not
//! know the lowering of acc's own runtime path (`cc` calls one or the other).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use acc_engine::omp::OmpOptions;

use crate::flags::CcArgs;
use crate::toolchain::{self, Fail, HostCc, Result};

/// The OpenACC runtime API over OpenMP, compiled into every program of this mode.
pub const LIBRARY_SOURCE: &str = include_str!("../../acc-runtime/acc2omp/acc2omp.c");

/// What the host compiler's OpenMP is and takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenMp {
    /// `clang`, `gcc` or `cc` (another compiler, taken as GCC-like).
    pub family: &'static str,
    /// Flags for every compile and the link (`-fopenmp`, and for Clang `-fopenmp-version=51`).
    pub flags: Vec<String>,
    /// What the translation may print.
    pub options: OmpOptions,
    /// Libraries the link needs for the OpenMP device API (`-lomptarget` for LLVM before 15,
    /// whose `libomp` leaves `omp_target_*` to libomptarget).
    pub link_libs: Vec<String>,
}

impl OpenMp {
    /// The line `-v` prints.
    pub fn describe(&self) -> String {
        let yes = |b: bool| if b { "yes" } else { "no" };
        let o = &self.options;
        format!(
            "OpenMP through {} ({}): ompx_hold {}, present {}, ompx_no_alloc {}, update present {}",
            self.family,
            self.flags.join(" "),
            yes(o.hold),
            yes(o.present),
            yes(o.no_alloc),
            yes(o.update_present)
        )
    }
}

/// A snippet per option: the compiler takes the option when it compiles its snippet.
const PROBES: &[(&str, &str)] = &[
    (
        "hold",
        "void f(int *x) {\n#pragma omp target data map(ompx_hold, tofrom: x[0:1])\n  { x[0] = 1; }\n}\n",
    ),
    (
        "present",
        "void f(int *x) {\n#pragma omp target map(present, alloc: x[0:1])\n  x[0] = 1;\n}\n",
    ),
    (
        "no_alloc",
        "void f(int *x) {\n#pragma omp target map(ompx_no_alloc, tofrom: x[0:1])\n  x[0] = 1;\n}\n",
    ),
    (
        "update_present",
        "void f(int *x) {\n#pragma omp target update to(present: x[0:1])\n}\n",
    ),
];

/// A program that needs at link time what translated programs and the library need: the
/// OpenMP device API, and a `long double` reduction (which Clang makes calls of libatomic).
const LINK_PROBE: &str = "#include <omp.h>\nint main(void) {\n  int x = 0;\n  long double s = 0;\n#pragma omp parallel for reduction(+: s)\n  for (int i = 0; i < 4; i++)\n    s += i;\n  return !omp_target_is_present(&x, omp_get_initial_device()) || s != 6;\n}\n";

/// The libraries tried, in order, until the link probe links.
const LINK_LIBS: &[&[&str]] = &[
    &[],
    &["-latomic"],
    &["-lomptarget"],
    &["-lomptarget", "-latomic"],
];

/// The compiler's OpenMP, from the cache or by asking it.
pub fn probe(cc: &HostCc, args: &CcArgs) -> Result<OpenMp> {
    // Target flags (`-m32`, `--target`) and the user's own OpenMP flags change the answers.
    let target_flags: Vec<String> = args
        .common
        .iter()
        .filter(|f| {
            f.starts_with("-m")
                || f.starts_with("--target")
                || f.starts_with("-target")
                || f.starts_with("-fopenmp")
                || f.starts_with("-foffload")
        })
        .cloned()
        .collect();
    let version = capture(cc.command().arg("--version"))
        .map_err(|e| Fail::Msg(format!("cannot run the C compiler: {e}")))?;
    let mut key = cc.words.join(" ");
    key.push('\n');
    key.push_str(&version);
    key.push_str(&target_flags.join(" "));
    key.push_str(LINK_PROBE);
    let cache = toolchain::cache_file(&format!(
        "openmp-probe-{:016x}",
        toolchain::fnv(key.as_bytes())
    ));
    if let Some(found) = cache
        .as_ref()
        .and_then(|c| std::fs::read_to_string(c).ok())
        .and_then(|t| parse_cached(&t))
    {
        return Ok(found);
    }
    let found = ask(cc, &target_flags, &version)?;
    if let Some(c) = cache {
        let _ = toolchain::write_atomically(&c, &to_cache(&found));
    }
    Ok(found)
}

fn ask(cc: &HostCc, target_flags: &[String], version: &str) -> Result<OpenMp> {
    let family = if version.contains("clang") {
        "clang"
    } else if version.contains("gcc")
        || version.contains("GCC")
        || version.contains("Free Software")
    {
        "gcc"
    } else {
        "cc"
    };
    let mut flags = vec!["-fopenmp".to_string()];
    if family == "clang"
        && !target_flags
            .iter()
            .any(|f| f.starts_with("-fopenmp-version"))
    {
        flags.push("-fopenmp-version=51".into());
    }
    let tmp = toolchain::TempDir::new("openmp-probe")?;
    let compiles = |name: &str, text: &str, link: bool, libs: &[&str]| -> Result<bool> {
        let src = tmp.path().join(format!("{name}.c"));
        std::fs::write(&src, text)
            .map_err(|e| Fail::Msg(format!("cannot write {}: {e}", src.display())))?;
        let mut cmd = cc.command();
        cmd.args(&flags).args(target_flags).arg(&src);
        if link {
            cmd.arg("-o").arg(tmp.path().join(name)).args(libs);
        } else {
            cmd.arg("-fsyntax-only");
        }
        Ok(cmd
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success()))
    };
    if !compiles(
        "target",
        "void f(int *x) {\n#pragma omp target\n  x[0] = 1;\n}\n",
        false,
        &[],
    )? {
        return Err(Fail::Msg(format!(
            "`{}` does not compile OpenMP target constructs with `{}`: --via=openmp needs a C \
             compiler with OpenMP 4.5 or later (gcc, clang)",
            cc.words.join(" "),
            flags.join(" ")
        )));
    }
    let mut options = OmpOptions::portable();
    for (name, text) in PROBES {
        let takes = compiles(name, text, false, &[])?;
        match *name {
            "hold" => options.hold = takes,
            "present" => options.present = takes,
            "no_alloc" => options.no_alloc = takes,
            _ => options.update_present = takes,
        }
    }
    let mut link_libs = None;
    for libs in LINK_LIBS {
        if compiles("link", LINK_PROBE, true, libs)? {
            link_libs = Some(libs.iter().map(|l| l.to_string()).collect());
            break;
        }
    }
    let Some(link_libs) = link_libs else {
        return Err(Fail::Msg(format!(
            "`{}` compiles OpenMP but cannot link a program that calls omp_target_is_present \
             and has a `long double` reduction, with or without -lomptarget and -latomic (for \
             clang, install its OpenMP runtime: libomp-dev)",
            cc.words.join(" ")
        )));
    };
    Ok(OpenMp {
        family,
        flags,
        options,
        link_libs,
    })
}

fn to_cache(o: &OpenMp) -> String {
    let b = |v: bool| if v { "1" } else { "0" };
    format!(
        "{}\n{}\n{} {} {} {}\n{}\n",
        o.family,
        o.flags.join(" "),
        b(o.options.hold),
        b(o.options.present),
        b(o.options.no_alloc),
        b(o.options.update_present),
        o.link_libs.join(" ")
    )
}

fn parse_cached(text: &str) -> Option<OpenMp> {
    let mut lines = text.lines();
    let family = match lines.next()? {
        "clang" => "clang",
        "gcc" => "gcc",
        "cc" => "cc",
        _ => return None,
    };
    let flags = lines.next()?.split_whitespace().map(String::from).collect();
    let bits: Vec<bool> = lines.next()?.split_whitespace().map(|w| w == "1").collect();
    let [hold, present, no_alloc, update_present] = bits[..] else {
        return None;
    };
    let link_libs = lines.next()?.split_whitespace().map(String::from).collect();
    Some(OpenMp {
        family,
        flags,
        options: OmpOptions {
            hold,
            present,
            no_alloc,
            update_present,
        },
        link_libs,
    })
}

/// The offload vendor the user's flags name, as `acc2omp.c`'s `ACC2OMP_VENDOR`.
fn vendor(args: &CcArgs) -> Option<&'static str> {
    let offload = args
        .common
        .iter()
        .chain(&args.link)
        .filter(|f| f.starts_with("-foffload") || f.starts_with("-fopenmp-targets"));
    let mut found = None;
    for f in offload {
        if f.contains("nvptx") {
            found = Some("acc_device_nvidia");
        } else if f.contains("amdgcn") || f.contains("amdgpu") {
            found = Some("acc_device_radeon");
        }
    }
    found
}

/// The library's object for this compiler and these flags: compiled once into the cache
/// (`include` holds openacc.h).
pub fn library_object(
    cc: &HostCc,
    args: &CcArgs,
    omp: &OpenMp,
    include: &Path,
    tmp: &Path,
) -> Result<PathBuf> {
    let mut cmd = cc.command();
    cmd.arg("-std=gnu11").arg("-O2").args(&omp.flags);
    // The program's target and offload flags; not its warnings or -Werror.
    cmd.args(args.common.iter().filter(|f| {
        f.starts_with("-m")
            || f.starts_with("--target")
            || f.starts_with("-target")
            || f.starts_with("-fopenmp")
            || f.starts_with("-foffload")
            || f.starts_with("-fPIC")
            || f.starts_with("-fpic")
    }));
    if let Some(v) = vendor(args) {
        cmd.arg(format!("-DACC2OMP_VENDOR={v}"));
    }
    if omp.options.hold {
        cmd.arg("-DACC2OMP_HOLD");
    }
    cmd.arg("-isystem").arg(include);
    let mut key = toolchain::show(&cmd);
    key.push_str(LIBRARY_SOURCE);
    let name = format!("acc2omp-{:016x}.o", toolchain::fnv(key.as_bytes()));
    let cached = toolchain::cache_file(&name);
    if let Some(c) = cached.as_ref().filter(|c| c.is_file()) {
        return Ok(c.clone());
    }
    let src = tmp.join("acc2omp.c");
    std::fs::write(&src, LIBRARY_SOURCE)
        .map_err(|e| Fail::Msg(format!("cannot write {}: {e}", src.display())))?;
    let object = tmp.join(&name);
    cmd.arg("-c").arg(&src).arg("-o").arg(&object);
    toolchain::run(cmd, args.verbose)?;
    match cached {
        Some(c) if toolchain::copy_atomically(&object, &c).is_ok() => Ok(c),
        _ => Ok(object),
    }
}

fn capture(cmd: &mut Command) -> std::io::Result<String> {
    let out = cmd.stderr(Stdio::null()).output()?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_reads_back_what_it_wrote() {
        let o = OpenMp {
            family: "clang",
            flags: vec!["-fopenmp".into(), "-fopenmp-version=51".into()],
            options: OmpOptions {
                hold: true,
                present: true,
                no_alloc: false,
                update_present: true,
            },
            link_libs: vec!["-lomptarget".into()],
        };
        assert_eq!(parse_cached(&to_cache(&o)), Some(o.clone()));
        assert_eq!(parse_cached("icc\n\n1 1 1 1\n\n"), None);
        assert_eq!(parse_cached("gcc\n-fopenmp\n1 1\n\n"), None);
    }

    #[test]
    fn offload_flags_name_the_vendor() {
        let args = |line: &str| {
            crate::flags::parse(
                &line
                    .split_whitespace()
                    .map(String::from)
                    .collect::<Vec<_>>(),
            )
            .unwrap()
        };
        assert_eq!(
            vendor(&args("-foffload=nvptx-none a.c")),
            Some("acc_device_nvidia")
        );
        assert_eq!(
            vendor(&args("-fopenmp-targets=amdgcn-amd-amdhsa a.c")),
            Some("acc_device_radeon")
        );
        assert_eq!(vendor(&args("-O2 a.c")), None);
    }
}
