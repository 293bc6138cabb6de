//! `acc check`: the corpus of seeded data-mapping bugs (`tests/check/bugs`, each with the
//! finding it must give in `NAME.expected`) and their fixed versions (`tests/check/fixed`,
//! which must check clean); the conformance corpus, the examples and the V&V suite's data
//! tests, whose every finding is listed with its reason in `tests/check/expected-findings`.

use std::path::{Path, PathBuf};
use std::process::Command;

const CRATE: &str = env!("CARGO_MANIFEST_DIR");

fn root() -> PathBuf {
    Path::new(CRATE).join("../..")
}

/// Runs `acc check` in the repository root; gives the exit status and the finding lines
/// (`path:line:col: severity: message`).
fn check(args: &[&str]) -> (i32, Vec<String>) {
    let out = Command::new(env!("CARGO_BIN_EXE_acc"))
        .arg("check")
        .args(args)
        .current_dir(root())
        .output()
        .expect("acc runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let findings = stderr
        .lines()
        .filter(|l| {
            let mut parts = l.splitn(4, ':');
            let (_, line, col) = (parts.next(), parts.next(), parts.next());
            line.is_some_and(|x| x.parse::<u32>().is_ok())
                && col.is_some_and(|x| x.parse::<u32>().is_ok())
                && (l.contains(": error: ") || l.contains(": warning: "))
        })
        .map(str::to_string)
        .collect();
    (out.status.code().unwrap_or(-1), findings)
}

fn c_files(dir: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".c"))
        .map(|n| format!("{dir}/{n}"))
        .collect();
    v.sort();
    v
}

/// Runs the files through `acc check` on a few threads; the findings of all, in file order.
fn check_all(files: &[String], flags: &[&str]) -> Vec<String> {
    let chunks: Vec<&[String]> = files.chunks(files.len().div_ceil(4).max(1)).collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| {
                s.spawn(move || {
                    let mut out = Vec::new();
                    for f in *chunk {
                        let mut args = flags.to_vec();
                        args.push(f);
                        out.extend(check(&args).1);
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a checking thread"))
            .collect()
    })
}

#[test]
fn corpus_bugs_give_their_findings() {
    let bugs = c_files("tests/check/bugs");
    assert!(bugs.len() >= 25, "the corpus has {} programs", bugs.len());
    let mut wrong = Vec::new();
    for f in &bugs {
        let expected_path = root().join(f.replace(".c", ".expected"));
        let expected = std::fs::read_to_string(&expected_path)
            .unwrap_or_else(|e| panic!("{}: {e}", expected_path.display()));
        let (status, findings) = check(&[f]);
        let got: Vec<String> = findings
            .iter()
            .map(|l| l.strip_prefix(&format!("{f}:")).unwrap_or(l).to_string())
            .collect();
        let want: Vec<&str> = expected.lines().filter(|l| !l.trim().is_empty()).collect();
        let errors = want.iter().any(|l| l.contains(": error: "));
        if got != want || status != i32::from(errors) {
            wrong.push(format!(
                "{f} (status {status}):\n  got  {got:?}\n  want {want:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn corpus_fixed_versions_check_clean() {
    let fixed = c_files("tests/check/fixed");
    assert_eq!(fixed.len(), c_files("tests/check/bugs").len());
    let mut wrong = Vec::new();
    for f in &fixed {
        let (status, findings) = check(&[f]);
        if status != 0 || !findings.is_empty() {
            wrong.push(format!("{f} (status {status}): {findings:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The findings `tests/check/expected-findings` lists (each line a finding; the reason on
/// the indented lines after it).
fn expected_findings() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("tests/check/expected-findings")).unwrap();
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with(' ') && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

fn compare(got: Vec<String>, prefix: &[&str]) {
    let want: Vec<String> = expected_findings()
        .into_iter()
        .filter(|l| prefix.iter().any(|p| l.starts_with(p)))
        .collect();
    let unexpected: Vec<&String> = got.iter().filter(|l| !want.contains(l)).collect();
    let missing: Vec<&String> = want.iter().filter(|l| !got.contains(l)).collect();
    assert!(
        unexpected.is_empty() && missing.is_empty(),
        "findings not in tests/check/expected-findings: {unexpected:#?}\nlisted but not found: {missing:#?}"
    );
}

#[test]
fn conformance_corpus_and_examples_have_only_listed_findings() {
    let dirs = ["tests/conformance", "tests/corpus", "examples"];
    let files: Vec<String> = dirs.iter().flat_map(|d| c_files(d)).collect();
    compare(check_all(&files, &[]), &dirs);
}

/// The V&V suite's tests of data clauses, data constructs and the data API.
fn vv_data_test(name: &str) -> bool {
    let n = name.rsplit('/').next().unwrap_or(name);
    let prefixes = [
        "acc_attach",
        "acc_copy",
        "acc_create",
        "acc_delete",
        "acc_detach",
        "acc_is_present",
        "acc_map",
        "acc_unmap",
        "acc_update",
        "data_",
        "enter_",
        "exit_",
        "update",
        "declare",
        "host_data",
        "reference_count",
    ];
    let parts = [
        "_copy",
        "_copyin",
        "_copyout",
        "_create",
        "_present",
        "_if",
        "_no_create",
        "_deviceptr",
    ];
    prefixes.iter().any(|p| n.starts_with(p))
        || parts
            .iter()
            .any(|p| n.contains(&format!("{p}.")) || n.contains(&format!("{p}_")))
}

#[test]
fn vv_data_tests_have_only_listed_findings() {
    let dir = "tests/vv/openacc-vv/Tests";
    if !root().join(dir).is_dir() {
        return;
    }
    let files: Vec<String> = c_files(dir)
        .into_iter()
        .filter(|f| vv_data_test(f))
        .collect();
    let got = check_all(&files, &["-I", dir]);
    let got: Vec<String> = got
        .into_iter()
        .filter(|l| files.iter().any(|f| l.starts_with(&format!("{f}:"))))
        .collect();
    let want_prefix: Vec<String> = files.iter().map(|f| format!("{f}:")).collect();
    let prefixes: Vec<&str> = want_prefix.iter().map(String::as_str).collect();
    compare(got, &prefixes);
}

#[test]
fn cc_wdata_prints_the_findings_as_warnings_and_compiles() {
    let dir = std::env::temp_dir().join(format!("acc-check-wdata-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let object = dir.join("bug.o");
    let out = Command::new(env!("CARGO_BIN_EXE_acc"))
        .args([
            "cc",
            "-Wdata",
            "-c",
            "tests/check/bugs/create_no_copyout.c",
            "-o",
        ])
        .arg(&object)
        .current_dir(root())
        .output()
        .expect("acc runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "create_no_copyout.c:13:18: warning: the host reads `b`, which the device changed"
        ),
        "{stderr}"
    );
    assert!(object.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
