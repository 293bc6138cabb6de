//! Golden tests: every mapping rule and every error of `clacc-design.md`
//! has a fixture `tests/golden/<rule>.c`; its OpenMP output is
//! `<rule>.omp.c` and its rendered diagnostics `<rule>.diag`. A first line
//! `// options: …` sets the print mode and the Clacc options.
//!
//! Refresh the expected files with `UPDATE_GOLDEN=1 cargo test -p acc-c
//! --test golden` and review the diff.

use std::fs;
use std::path::{Path, PathBuf};

use acc_c::Mode;
use acc_engine::omp::OmpOptions;

fn options(src: &str) -> (Mode, OmpOptions) {
    let mut mode = Mode::Omp;
    let mut opts = OmpOptions::default();
    if let Some(line) = src
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// options:"))
    {
        for word in line.split_whitespace() {
            match word {
                "acc-omp" => mode = Mode::AccOmp,
                "omp-acc" => mode = Mode::OmpAcc,
                "acc" => mode = Mode::Acc,
                "no-hold" => opts.hold = false,
                "no-present" => opts.present = false,
                "no-no_alloc" => opts.no_alloc = false,
                "no-update-present" => opts.update_present = false,
                other => panic!("unknown fixture option `{other}`"),
            }
        }
    }
    (mode, opts)
}

fn check(expected_path: &Path, actual: &str, failures: &mut Vec<String>) {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let expected = fs::read_to_string(expected_path).unwrap_or_default();
    if expected == actual {
        return;
    }
    if update {
        if actual.is_empty() {
            let _ = fs::remove_file(expected_path);
        } else {
            fs::write(expected_path, actual).unwrap();
        }
    } else {
        failures.push(format!(
            "{} differs:\n--- expected\n{expected}\n--- actual\n{actual}",
            expected_path.display()
        ));
    }
}

#[test]
fn golden() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut inputs: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "c") && !p.to_string_lossy().ends_with(".omp.c")
        })
        .collect();
    inputs.sort();
    assert!(inputs.len() > 10, "the golden corpus is missing");
    let mut failures = Vec::new();
    for input in &inputs {
        let src = fs::read_to_string(input).unwrap();
        let (mode, opts) = options(&src);
        let acc_c::Translation {
            text,
            diags,
            source,
        } = acc_c::translate_source(&src, Default::default(), opts, mode);
        let shown = source.as_deref().unwrap_or(&src);
        let name = input.file_name().unwrap().to_string_lossy().to_string();
        let rendered: String = diags
            .iter()
            .map(|d| acc_c::render::render(d, &name, shown))
            .collect();
        let stem = input.with_extension("");
        check(&stem.with_extension("diag"), &rendered, &mut failures);
        let has_errors = diags.iter().any(|d| d.is_error());
        let omp_path = stem.with_extension("omp.c");
        if has_errors {
            assert!(
                !omp_path.exists() || std::env::var_os("UPDATE_GOLDEN").is_some(),
                "{} has errors but an expected output",
                input.display()
            );
            if omp_path.exists() {
                let _ = fs::remove_file(&omp_path);
            }
        } else {
            check(&omp_path, &text, &mut failures);
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden file(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
