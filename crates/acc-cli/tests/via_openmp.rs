//! `acc cc --via=openmp`: the option set follows what the compiler takes (golden `-v` lines,
//! with stand-in compilers whose answers are known), the OpenACC API behaves as in acc's own
//! runtime, and the conformance corpus runs through gcc's and clang's OpenMP with the failures
//! `tests/conformance/expected-via-openmp` lists and explains, no more and no fewer.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod support;
use support::{have, programs, root, runtime_lib};

fn acc() -> Command {
    Command::new(env!("CARGO_BIN_EXE_acc"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("via-openmp")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A stand-in C compiler: it says it is `family`, refuses (at `-fsyntax-only`) any snippet
/// that names one of `refused`, writes empty outputs for everything else, and never compiles.
fn stand_in(dir: &Path, family: &str, refused: &[&str]) -> PathBuf {
    let path = dir.join(format!("{family}-stand-in"));
    let pattern = refused.join("\\|");
    let script = format!(
        r#"#!/bin/sh
if [ "$1" = --version ]; then echo "{family} version 99 (stand-in)"; exit 0; fi
out=
syntax=
prev=
for a in "$@"; do
  [ "$prev" = -o ] && out=$a
  [ "$a" = -fsyntax-only ] && syntax=1
  case "$a" in *.c) src=$a ;; esac
  prev=$a
done
if [ -n "$syntax" ] && [ -n "{pattern}" ] && grep -q '{pattern}' "$src"; then
  echo "$src: error: not taken" >&2; exit 1
fi
[ -n "$out" ] && : > "$out"
exit 0
"#
    );
    std::fs::write(&path, script).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

const DATA_REGION: &str = "int main(void) {
  int n = 4, a[4] = {0};
#pragma acc data copy(a[0:n])
  {
#pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++)
      a[i] = i;
#pragma acc update self(a[0:n])
  }
  return a[3] != 3;
}
";

/// A stand-in compiler's family and what it refuses; the `-v` line it must give; what the
/// OpenMP form must and must not hold.
type OptionCase<'a> = (
    &'a str,
    &'a [&'a str],
    &'a str,
    &'a [&'a str],
    &'a [&'a str],
);

#[test]
fn the_option_set_is_what_the_compiler_takes() {
    let dir = scratch("options");
    std::fs::write(dir.join("data.c"), DATA_REGION).unwrap();
    let cases: &[OptionCase] = &[
        (
            "clang",
            &["ompx_no_alloc"],
            "acc: OpenMP through clang (-fopenmp -fopenmp-version=51): ompx_hold yes, present \
             yes, ompx_no_alloc no, update present yes",
            &[
                "map(ompx_hold,tofrom: a[0:n])",
                "map(present,ompx_hold,alloc: a[0:n])",
                "update from(present: a[0:n])",
            ],
            &[],
        ),
        (
            "gcc",
            &["ompx_hold", "present", "ompx_no_alloc"],
            "acc: OpenMP through gcc (-fopenmp): ompx_hold no, present no, ompx_no_alloc no, \
             update present no",
            &["map(tofrom: a[0:n])", "update from(a[0:n])"],
            &["ompx_hold", "present"],
        ),
    ];
    for (family, refused, line, present, absent) in cases {
        let cc = stand_in(&dir, family, refused);
        let out = acc()
            .current_dir(&dir)
            .args([
                "cc",
                "--via=openmp",
                "-v",
                "--keep",
                "-c",
                "data.c",
                "-o",
                "data.o",
            ])
            .env("CC", &cc)
            .env_remove("ACC_CC")
            .env("XDG_CACHE_HOME", dir.join(format!("cache-{family}")))
            .output()
            .unwrap();
        let stderr = text(&out.stderr);
        assert!(out.status.success(), "{family}: {stderr}");
        assert!(
            stderr.lines().any(|l| l == *line),
            "{family}: no `{line}` in:\n{stderr}"
        );
        let omp = std::fs::read_to_string(dir.join("data.omp.c")).unwrap();
        for p in *present {
            assert!(omp.contains(p), "{family}: no `{p}` in:\n{omp}");
        }
        for a in *absent {
            assert!(!omp.contains(a), "{family}: `{a}` in:\n{omp}");
        }
    }
}

#[test]
fn a_compiler_without_openmp_is_a_clear_error() {
    let dir = scratch("no-openmp");
    std::fs::write(dir.join("data.c"), DATA_REGION).unwrap();
    let cc = stand_in(&dir, "gcc", &["omp"]);
    let out = acc()
        .current_dir(&dir)
        .args(["cc", "--via=openmp", "-c", "data.c"])
        .env("CC", &cc)
        .env_remove("ACC_CC")
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("does not compile OpenMP target constructs"),
        "{stderr}"
    );
}

/// The compilers of this machine that CI requires (`ACC_REQUIRE_TOOLS`): gcc and clang with
/// their OpenMP runtimes.
fn compilers() -> Vec<&'static str> {
    ["gcc", "clang"].into_iter().filter(|c| have(c)).collect()
}

fn build(cc: Option<&str>, src: &Path, exe: &Path) -> Output {
    let mut cmd = acc();
    cmd.arg("cc");
    if let Some(cc) = cc {
        cmd.arg("--via=openmp").env("CC", cc).env_remove("ACC_CC");
    } else {
        cmd.env("ACC_RUNTIME_LIB", runtime_lib());
    }
    cmd.args(["-O1", "-o"])
        .arg(exe)
        .arg(src)
        .arg("-lm")
        .output()
        .unwrap()
}

fn run(exe: &Path) -> Output {
    Command::new(exe)
        .env("OMP_NUM_THREADS", "2")
        .env_remove("ACC_DEVICE_TYPE")
        .env_remove("ACC_DEVICE_NUM")
        .output()
        .unwrap()
}

#[test]
fn the_api_behaves_as_in_acc_runtime() {
    let dir = scratch("api");
    let src = root().join("crates/acc-cli/tests/data/via-openmp/api.c");
    let exe = dir.join("api-runtime");
    let built = build(None, &src, &exe);
    assert!(built.status.success(), "{}", text(&built.stderr));
    let want = run(&exe);
    assert!(want.status.success(), "{}", text(&want.stdout));
    for cc in compilers() {
        let exe = dir.join(format!("api-{cc}"));
        let built = build(Some(cc), &src, &exe);
        assert!(built.status.success(), "{cc}: {}", text(&built.stderr));
        let got = run(&exe);
        assert!(got.status.success(), "{cc}: {}", text(&got.stdout));
        assert_eq!(text(&got.stdout), text(&want.stdout), "{cc}");
    }
}

/// `tests/conformance/expected-via-openmp`: `NAME RESULT COMPILERS reason…`.
fn expected_failures() -> Vec<(String, String, Vec<String>)> {
    let list =
        std::fs::read_to_string(root().join("tests/conformance/expected-via-openmp")).unwrap();
    list.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut w = l.split_whitespace();
            let name = w.next().unwrap().to_string();
            let result = w.next().unwrap().to_string();
            let who = w.next().unwrap().split(',').map(String::from).collect();
            assert!(w.next().is_some(), "no reason for {name}");
            (name, result, who)
        })
        .collect()
}

#[test]
fn the_corpus_runs_through_gcc_and_clang() {
    let expected = expected_failures();
    let corpus = programs();
    for cc in compilers() {
        let dir = scratch(&format!("corpus-{cc}"));
        let results: Vec<(String, &'static str, String)> = std::thread::scope(|s| {
            let chunks: Vec<_> = corpus.chunks(corpus.len().div_ceil(2)).collect();
            let handles: Vec<_> = chunks
                .into_iter()
                .map(|chunk| {
                    let dir = &dir;
                    s.spawn(move || {
                        chunk
                            .iter()
                            .map(|src| {
                                let stem = src.file_stem().unwrap().to_string_lossy().to_string();
                                let exe = dir.join(&stem);
                                let built = build(Some(cc), src, &exe);
                                if !built.status.success() {
                                    return (stem, "compilefail", text(&built.stderr));
                                }
                                let ran = run(&exe);
                                let result = if ran.status.success() {
                                    "pass"
                                } else {
                                    "runfail"
                                };
                                (stem, result, text(&ran.stdout) + &text(&ran.stderr))
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect()
        });
        let mut unexpected = Vec::new();
        for (name, got, said) in &results {
            let want = expected
                .iter()
                .find(|(n, _, who)| n == name && who.iter().any(|w| w == "*" || w == cc))
                .map_or("pass", |(_, r, _)| r.as_str());
            if *got != want {
                let said: String = said.lines().take(6).collect::<Vec<_>>().join("\n    ");
                unexpected.push(format!("{name}: {got}, expected {want}\n    {said}"));
            }
        }
        assert!(results.len() > 80, "{cc}: only {} programs", results.len());
        assert!(
            unexpected.is_empty(),
            "{cc}: {} unexpected results:\n{}",
            unexpected.len(),
            unexpected.join("\n")
        );
    }
}

/// The drop-in driver: an ordinary Makefile (separate `-c` compiles, then the link) builds and
/// runs through each compiler's OpenMP as it does through acc's runtime.
#[test]
fn a_makefile_project_builds_through_openmp() {
    if !have("make") {
        return;
    }
    let src = root().join("examples/make-project");
    for cc in compilers() {
        let dir = scratch(&format!("make-{cc}"));
        for name in ["Makefile", "main.c", "vec.c", "vec.h"] {
            std::fs::copy(src.join(name), dir.join(name)).unwrap();
        }
        let acc_cc = format!("CC={} cc --via=openmp", env!("CARGO_BIN_EXE_acc"));
        let out = Command::new("make")
            .args(["--no-print-directory", &acc_cc, "check"])
            .current_dir(&dir)
            .env("ACC_CC", cc)
            .env_remove("MAKEFLAGS")
            .env_remove("MFLAGS")
            .output()
            .unwrap();
        let said = text(&out.stdout) + &text(&out.stderr);
        assert!(out.status.success(), "{cc}: {said}");
        assert!(said.contains("OpenACC 202211"), "{cc}: {said}");
        assert!(
            said.contains("saxpy ok") && said.contains("dot ok"),
            "{cc}: {said}"
        );
        assert!(dir.join("main.o").is_file() && dir.join("vec.o").is_file());
    }
}
