//! The OpenMP we print is real OpenMP: every golden fixture's output passes
//! `clang -fopenmp -fopenmp-version=51 -fsyntax-only` (with
//! `--no-create-omp=no-no_alloc`, since no upstream clang knows
//! `ompx_no_alloc`) and, with all portable options, `gcc -fopenmp
//! -fsyntax-only`; and the self-checking programs of `tests/corpus`,
//! translated and built with `gcc -fopenmp`, print what the sequential
//! program prints.
//!
//! A missing compiler skips with a message, or fails under
//! `ACC_REQUIRE_TOOLS=1` (as CI runs).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use acc_c::Mode;
use acc_engine::omp::OmpOptions;

fn have(tool: &str) -> bool {
    let found = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("ACC_REQUIRE_TOOLS").is_none(),
            "`{tool}` is required (ACC_REQUIRE_TOOLS is set) but was not found"
        );
        eprintln!("skipped: `{tool}` is not installed (install it, or see .ci/run)");
    }
    found
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "c") && !p.to_string_lossy().ends_with(".omp.c")
        })
        .collect();
    v.sort();
    v
}

fn translate(path: &Path, opts: OmpOptions) -> Option<String> {
    let src = fs::read_to_string(path).unwrap();
    let (text, diags) = acc_c::translate(&src, Default::default(), opts, Mode::Omp);
    (!diags.iter().any(|d| d.is_error())).then_some(text)
}

fn syntax_check(
    cc: &str,
    args: &[&str],
    file: &Path,
    text: &str,
    scratch: &Path,
) -> Result<(), String> {
    let out_path = scratch.join(file.file_name().unwrap());
    fs::write(&out_path, text).unwrap();
    // The OpenMP form of a program that names the OpenACC API needs acc's openacc.h (which
    // `acc cc --via=openmp` puts on the path).
    let out = Command::new(cc)
        .args(args)
        .arg("-isystem")
        .arg(root().join("crates/acc-runtime/include"))
        .arg("-fsyntax-only")
        .arg(&out_path)
        .output()
        .unwrap();
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{cc} rejects the OpenMP of {}:\n{}",
            file.display(),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

fn corpus() -> Vec<PathBuf> {
    let mut files = c_files(&root().join("tests/corpus"));
    files.push(root().join("examples/jacobi.c"));
    files
}

fn inputs() -> Vec<PathBuf> {
    let mut files = c_files(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden"));
    files.extend(corpus());
    files
}

#[test]
fn clang_accepts_the_openmp() {
    if !have("clang") {
        return;
    }
    let scratch_dir = tempdir("clang");
    let scratch = scratch_dir.path();
    let opts = OmpOptions {
        no_alloc: false,
        ..OmpOptions::default()
    };
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in inputs() {
        if let Some(text) = translate(&f, opts) {
            checked += 1;
            if let Err(e) = syntax_check(
                "clang",
                &["-fopenmp", "-fopenmp-version=51", "-Wno-openmp-mapping"],
                &f,
                &text,
                scratch,
            ) {
                failures.push(e);
            }
        }
    }
    assert!(checked > 20, "too few files checked: {checked}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn gcc_accepts_the_portable_openmp() {
    if !have("gcc") {
        return;
    }
    let scratch_dir = tempdir("gcc");
    let scratch = scratch_dir.path();
    let mut failures = Vec::new();
    for f in inputs() {
        if let Some(text) = translate(&f, OmpOptions::portable()) {
            if let Err(e) = syntax_check("gcc", &["-fopenmp"], &f, &text, scratch) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn build_and_run(cc: &str, args: &[&str], src: &Path, exe: &Path) -> Result<String, String> {
    let out = Command::new(cc)
        .args(args)
        .arg(src)
        .arg("-o")
        .arg(exe)
        .arg("-lm")
        .output()
        .unwrap();
    if !out.status.success() {
        return Err(format!(
            "{cc} failed on {}:\n{}",
            src.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let run = Command::new(exe)
        .env("OMP_NUM_THREADS", "4")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout).to_string();
    if !run.status.success() {
        return Err(format!(
            "{} failed ({}):\n{stdout}",
            exe.display(),
            run.status
        ));
    }
    Ok(stdout)
}

#[test]
fn translated_programs_give_the_sequential_answers() {
    if !have("gcc") {
        return;
    }
    let scratch_dir = tempdir("run");
    let scratch = scratch_dir.path();
    let mut failures = Vec::new();
    for f in corpus() {
        let stem = f.file_stem().unwrap().to_string_lossy().to_string();
        let text = translate(&f, OmpOptions::portable())
            .unwrap_or_else(|| panic!("{} has errors", f.display()));
        let omp_src = scratch.join(format!("{stem}.omp.c"));
        fs::write(&omp_src, text).unwrap();
        let omp = build_and_run(
            "gcc",
            &["-O1", "-fopenmp"],
            &omp_src,
            &scratch.join(format!("{stem}-omp")),
        );
        let seq = build_and_run(
            "gcc",
            &["-O1", "-Wno-unknown-pragmas"],
            &f,
            &scratch.join(format!("{stem}-seq")),
        );
        match (omp, seq) {
            (Ok(a), Ok(b)) => {
                // Timings differ from run to run; everything else must not.
                let strip = |s: &str| {
                    s.lines()
                        .filter(|l| !l.starts_with("time:") && !l.starts_with("device:"))
                        .collect::<Vec<_>>()
                        .join("\n")
                };
                if strip(&a) != strip(&b) {
                    failures.push(format!(
                        "{stem}: OpenMP printed\n{a}\nsequential printed\n{b}"
                    ));
                }
            }
            (a, b) => failures.push(format!("{stem}: {:?} / {:?}", a.err(), b.err())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn tempdir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("acc-c-{tag}-"))
        .tempdir()
        .unwrap()
}
