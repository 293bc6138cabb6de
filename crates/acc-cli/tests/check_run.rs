//! `acc check --run`: the seeded bugs of `tests/check/bugs` whose stale use a run proves give
//! their finding (variable, lines, the static finding confirmed); their fixed versions run
//! clean with the program's own exit status; and `tests/check/dynamic` holds programs whose
//! bug lies where the static check cannot follow (a call through a function pointer, a
//! function of another file), found only by the run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod support;
use support::runtime_lib;

const CRATE: &str = env!("CARGO_MANIFEST_DIR");

fn root() -> PathBuf {
    Path::new(CRATE).join("../..")
}

fn acc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_acc"))
        .args(args)
        .current_dir(root())
        .env("ACC_RUNTIME_LIB", runtime_lib())
        .env_remove("ACC_DEVICE_TYPE")
        .output()
        .expect("acc runs")
}

/// One expectation: the files to run, the finding's `path:line:col: error: ` prefix, words
/// its message must hold, and whether it confirms a static finding.
struct Case {
    files: &'static [&'static str],
    at: &'static str,
    words: &'static [&'static str],
    confirms: bool,
}

const BUGS: &[Case] = &[
    Case {
        files: &["tests/check/bugs/create_then_read.c"],
        at: "tests/check/bugs/create_then_read.c:10:5: error: ",
        words: &["reads `t` on the device", "nothing copied"],
        confirms: true,
    },
    Case {
        files: &["tests/check/bugs/host_write_between_kernels.c"],
        at: "tests/check/bugs/host_write_between_kernels.c:12:5: error: ",
        words: &["stale device copy of `t`", "between line 9 and line 12"],
        confirms: true,
    },
    Case {
        files: &["tests/check/bugs/host_write_in_region.c"],
        at: "tests/check/bugs/host_write_in_region.c:11:5: error: ",
        words: &["stale device copy of `a`"],
        confirms: true,
    },
    Case {
        files: &["tests/check/bugs/loop_update_device_sometimes.c"],
        at: "tests/check/bugs/loop_update_device_sometimes.c:14:5: error: ",
        words: &["stale device copy of `a`"],
        confirms: true,
    },
    Case {
        files: &["tests/check/bugs/inner_copy_outer_region.c"],
        at: "tests/check/bugs/inner_copy_outer_region.c:10:5: error: ",
        words: &["writes to `c`", "line 10 never reach the host"],
        confirms: true,
    },
    Case {
        files: &["tests/check/bugs/copyin_no_copyout.c"],
        at: "tests/check/bugs/copyin_no_copyout.c:8:3: error: ",
        words: &["writes to `a`", "never reach the host"],
        confirms: true,
    },
    Case {
        files: &["tests/check/bugs/helper_kernel_no_update.c"],
        at: "tests/check/bugs/helper_kernel_no_update.c:6:3: error: ",
        words: &["writes to `p`"],
        confirms: true,
    },
    Case {
        files: &["tests/check/bugs/enter_create_read.c"],
        at: "tests/check/bugs/enter_create_read.c:9:3: error: ",
        words: &["reads `a` on the device"],
        confirms: true,
    },
    Case {
        files: &["tests/check/bugs/update_self_of_created.c"],
        at: "tests/check/bugs/update_self_of_created.c:10:5: error: ",
        words: &["`update self` at line 10", "`a`", "nothing wrote"],
        confirms: true,
    },
    Case {
        files: &["tests/check/dynamic/bugs/fnptr_no_update_self.c"],
        at: "tests/check/dynamic/bugs/fnptr_no_update_self.c:6:3: error: ",
        words: &["writes to `p`", "never reach the host"],
        confirms: false,
    },
    Case {
        files: &[
            "tests/check/dynamic/bugs/other_file_host_write.c",
            "tests/check/dynamic/bugs/other_file_helper.c",
        ],
        at: "tests/check/dynamic/bugs/other_file_host_write.c:15:3: error: ",
        words: &["stale device copy of `a`", "between line 12 and line 15"],
        confirms: false,
    },
];

/// Runs `f` on every case, a few at a time; the failures' descriptions.
fn each<T: Sync>(cases: &[T], f: impl Fn(&T) -> Option<String> + Sync) -> Vec<String> {
    let chunks: Vec<&[T]> = cases.chunks(cases.len().div_ceil(3).max(1)).collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| s.spawn(|| chunk.iter().filter_map(&f).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a checking thread"))
            .collect()
    })
}

#[test]
fn run_proves_the_seeded_bugs() {
    let wrong = each(BUGS, |c| {
        let mut args = vec!["check", "--run"];
        args.extend(c.files);
        let out = acc(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let finding = stderr.lines().find(|l| l.starts_with(c.at));
        let fix = [
            "add `update ",
            "(`copy`, not `copyin`)",
            "(`copyin`, not `create`)",
        ]
        .iter()
        .any(|f| stderr.contains(f));
        let ok = out.status.code() == Some(1)
            && finding.is_some_and(|l| c.words.iter().all(|w| l.contains(w)))
            && stderr.contains("note: proven by running it again")
            && fix
            && stderr.contains("note: confirms the static finding") == c.confirms;
        (!ok).then(|| format!("{:?} ({:?}):\n{stderr}", c.files, out.status))
    });
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_static_check_misses_what_only_the_run_proves() {
    for c in BUGS.iter().filter(|c| !c.confirms) {
        let mut args = vec!["check"];
        args.extend(c.files);
        let out = acc(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && !stderr.contains(": error: "),
            "{:?}: {stderr}",
            c.files
        );
    }
}

#[test]
fn fixed_versions_run_clean_with_their_own_status() {
    let fixed: Vec<Vec<String>> = BUGS
        .iter()
        .map(|c| {
            c.files
                .iter()
                .map(|f| f.replace("/bugs/", "/fixed/"))
                .collect()
        })
        .collect();
    let wrong = each(&fixed, |files| {
        let mut args = vec!["check", "--run"];
        args.extend(files.iter().map(String::as_str));
        let out = acc(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let clean = !stderr.contains(": error: ") && !stderr.contains(": warning: the program");
        (!(out.status.success() && clean))
            .then(|| format!("{files:?} ({:?}):\n{stderr}", out.status))
    });
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_clean_program_exits_with_its_own_status_and_output() {
    let dir = std::env::temp_dir().join(format!("acc-check-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("status.c");
    std::fs::write(
        &prog,
        "#include <stdio.h>\nint main(int argc, char **argv) {\n  double a[8];\n  \
         for (int i = 0; i < 8; i++) a[i] = i;\n  #pragma acc parallel loop copy(a)\n  \
         for (int i = 0; i < 8; i++) a[i] += 1;\n  printf(\"%g %s\\n\", a[7], argv[1]);\n  \
         return argc + 4;\n}\n",
    )
    .unwrap();
    let out = acc(&["check", "--run", prog.to_str().unwrap(), "--", "word"]);
    assert_eq!(out.status.code(), Some(6), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "8 word\n");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `create(zero:)` initialises device memory on purpose: the program differs from its
/// shared-memory run by design, and no missing transfer explains it, so it is a warning that
/// says so, not a finding.
#[test]
fn a_difference_no_transfer_explains_is_a_warning() {
    let out = acc(&["check", "--run", "tests/conformance/discrete-zero.c"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("warning: the program gives a different result on separate memory")
            && !stderr.contains(": error: "),
        "{stderr}"
    );
}

/// A program that frees data it left present (a leak on the device, not a stale use): the
/// check skips the host memory that is gone instead of reading it.
#[test]
fn host_memory_freed_while_present_is_not_read() {
    let dir = std::env::temp_dir().join(format!("acc-check-freed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("freed.c");
    std::fs::write(
        &prog,
        "#include <stdio.h>\n#include <stdlib.h>\n#define N (1 << 20)\nint main(void) {\n  \
         double *big = malloc(N * sizeof *big), small[8];\n  \
         for (int i = 0; i < N; i++) big[i] = i;\n  \
         #pragma acc enter data copyin(big[0:N])\n  free(big);\n  \
         for (int i = 0; i < 8; i++) small[i] = i;\n  \
         #pragma acc parallel loop copy(small)\n  for (int i = 0; i < 8; i++) small[i] += 1;\n  \
         printf(\"%g\\n\", small[7]);\n  return 0;\n}\n",
    )
    .unwrap();
    let out = acc(&["check", "--run", prog.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "8\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The program's arguments after `--` reach every run: with one argument the program takes
/// the `switch` case that lacks the `update self`, which the run then proves; without, it
/// takes a case with the update and runs clean.
#[test]
fn arguments_after_the_double_dash_choose_the_path() {
    let file = "tests/check/bugs/switch_missing_update.c";
    let out = acc(&["check", "--run", file, "--", "x"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("{file}:10:5: error: the device's writes to `a`")),
        "{stderr}"
    );
    let out = acc(&["check", "--run", file]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && !stderr.contains(": error: "),
        "{stderr}"
    );
}
