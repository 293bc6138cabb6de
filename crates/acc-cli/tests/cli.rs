//! The `acc` command end to end: files, the preprocessor, exit codes and
//! rendered diagnostics.

use std::path::PathBuf;
use std::process::Command;

fn acc() -> Command {
    Command::new(env!("CARGO_BIN_EXE_acc"))
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn have_cc() -> bool {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    Command::new(cc)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn header_facts_come_from_the_preprocessor() {
    if !have_cc() {
        assert!(
            std::env::var_os("ACC_REQUIRE_TOOLS").is_none(),
            "cc is required"
        );
        eprintln!("skipped: no C compiler for the preprocessor");
        return;
    }
    let out = acc()
        .args(["translate"])
        .arg(data("uses_header.c"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("map(ompx_hold,tofrom: g)"), "{stdout}");
    assert!(stdout.contains("firstprivate(scale)"), "{stdout}");
    // The header's macro is a constant: no warning about vector_length.
    assert!(!stderr.contains("vector_length"), "{stderr}");
    assert!(stdout.contains("num_teams(GRID_GANGS)"), "{stdout}");
    assert!(stdout.contains("#include \"grid.h\""), "{stdout}");

    // Without the preprocessor the typedef is unknown, and we say so.
    let out = acc()
        .args(["translate", "--no-preprocess"])
        .arg(data("uses_header.c"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("unknown type `grid_t` of `g` is treated as a scalar"),
        "{stderr}"
    );
}

#[test]
fn errors_exit_1_with_clang_style_diagnostics() {
    let scratch = tempfile::Builder::new()
        .prefix("acc-cli-")
        .tempdir()
        .unwrap();
    let dir = scratch.path();
    let file = dir.join("bad.c");
    std::fs::write(
        &file,
        "void f(int n, double *a) {\n  #pragma acc parallel copyinn(a[0:n])\n  { }\n}\n",
    )
    .unwrap();
    let out = acc()
        .args(["translate", "--no-preprocess"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.c:2:24: error: unknown OpenACC clause `copyinn`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("                       ^~~~~~~"),
        "{stderr}"
    );
    assert!(stderr.contains("1 error generated."), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn output_file_and_modes() {
    let scratch = tempfile::Builder::new()
        .prefix("acc-cli-out-")
        .tempdir()
        .unwrap();
    let dir = scratch.path();
    let file = dir.join("ok.c");
    let src = "void f(int n, double *a) {\n  #pragma acc parallel loop copy(a[0:n])\n  for (int i = 0; i < n; i++) a[i] = 0;\n}\n";
    std::fs::write(&file, src).unwrap();
    let out_file = dir.join("ok.omp.c");
    let st = acc()
        .args([
            "translate",
            "--no-preprocess",
            "--print=omp-acc",
            "--structured-ref-count-omp=no-hold",
        ])
        .arg(&file)
        .arg("-o")
        .arg(&out_file)
        .status()
        .unwrap();
    assert!(st.success());
    let text = std::fs::read_to_string(&out_file).unwrap();
    assert!(text.contains("// #pragma acc parallel loop copy(a[0:n])\n  #pragma omp target teams map(tofrom: a[0:n])"), "{text}");
    let out = acc()
        .args(["translate", "--no-preprocess", "--print=acc"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), src);
    let out = acc()
        .args(["translate", "--print=bogus"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "clap rejects an unknown mode");
}
