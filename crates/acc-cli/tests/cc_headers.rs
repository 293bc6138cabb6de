//! `acc cc` on programs whose directives, declarations and macros come through the
//! preprocessor: the program's own headers (guarded, `#pragma once`, nested), `#if` chains the
//! command line decides, macros that stand for directives or declarations, feature-test macros.
//! The idioms of the code itself are `cc_programs.rs`'s; the driver is `cc.rs`'s.

use std::process::Command;

mod support;
use support::{acc, have_cc, ok, project, stderr, stdout, stdout_on};

/// acc applies the directives of the file it compiles: one in a header of the program's own
/// (a compute construct in a `static inline` function, a `declare` beside an `extern`) would
/// run as plain C with the host's data, so `acc cc` says so at the `#include`, also when
/// nothing else in the file needs the headers' facts; a `routine` directive there changes
/// nothing on the host and is not reported.
#[test]
fn directives_in_the_programs_own_headers_apply_where_the_file_includes_them() {
    if !have_cc() {
        return;
    }
    // A guarded header, included twice, whose own quoted include is found only beside it.
    let header = "#ifndef TWICE_H\n#define TWICE_H\n#include \"factor.h\"\nstatic inline void twice(double *a, int n) {\n#pragma acc parallel loop present(a[0:n])\n  for (int i = 0; i < n; i++) a[i] *= FACTOR;\n}\n#pragma acc routine seq\nint one(void);\n#endif\n";
    let main = "#include <stdio.h>\n#include \"inc/twice.h\"\n#include \"inc/twice.h\"\nint main(void) {\n  double a[4] = {1, 2, 3, 4};\n#pragma acc data copy(a)\n  twice(a, 4);\n  printf(\"%g\\n\", a[3]);\n  return 0;\n}\n";
    let dir = project(
        "header-directives",
        &[
            ("inc/twice.h", header),
            ("inc/factor.h", "#define FACTOR 2\n"),
            ("main.c", main),
        ],
    );
    let out = ok(acc(&dir)
        .args(["cc", "--info", "-MD", "main.c", "-o", "main"])
        .output()
        .unwrap());
    let info = stderr(&out);
    assert!(!info.contains("warning"), "{info}");
    assert!(
        info.contains("inc/twice.h:5: parallel region: one kernel; data: present(a[0:n])"),
        "{info}"
    );
    assert!(info.contains("main.c:6: data region: "), "{info}");
    // The header's construct runs on the device copy that the file's data region made: on
    // separate memory the copy out brings its result back (the header read as plain C left
    // the device copy unchanged, and the copy out wrote 4 over the host's 8).
    for device in ["host", "host_discrete"] {
        assert_eq!(stdout_on(&dir, "main", device), "8\n", "{device}");
    }
    let deps = std::fs::read_to_string(dir.join("main.d")).unwrap();
    assert!(
        deps.contains("inc/twice.h") && deps.contains("inc/factor.h"),
        "{deps}"
    );
}

#[test]
fn directives_of_a_header_another_header_includes_apply_too() {
    if !have_cc() {
        return;
    }
    let inner = "#ifndef INNER_H\n#define INNER_H\nstatic inline void twice(double *a, int n) {\n#pragma acc parallel loop present(a[0:n])\n  for (int i = 0; i < n; i++) a[i] *= 2;\n}\n#endif\n";
    let main = "#include <stdio.h>\n#include \"outer.h\"\nint main(void) {\n  double a[4] = {1, 2, 3, 4};\n#pragma acc data copy(a)\n  twice(a, 4);\n  printf(\"%g\\n\", a[3]);\n  return 0;\n}\n";
    let dir = project(
        "nested-header-directives",
        &[
            ("inc/inner.h", inner),
            ("inc/outer.h", "#include \"inner.h\"\n#include <stdlib.h>\n"),
            ("main.c", main),
        ],
    );
    let out = ok(acc(&dir)
        .args(["cc", "--info", "-Iinc", "main.c", "-o", "main"])
        .output()
        .unwrap());
    let info = stderr(&out);
    assert!(!info.contains("warning"), "{info}");
    assert!(info.contains("inc/inner.h:4: parallel region: "), "{info}");
    for device in ["host", "host_discrete"] {
        assert_eq!(stdout_on(&dir, "main", device), "8\n", "{device}");
    }
}

/// A header guarded by `#pragma once` alone goes into the file where it was first read, its
/// directives applied (a compute construct in a `static inline` function, a `routine` on a
/// prototype whose definition another file holds), and the file's later `#include` of it reads
/// nothing; a header that includes it again goes in too; one acc cannot put in (where the
/// compiler would read its text a second time) keeps it a header, and acc says its directives
/// are not applied.
#[test]
fn directives_of_a_pragma_once_header_apply_and_it_is_read_once() {
    if !have_cc() {
        return;
    }
    let header = "#pragma once\nstruct pair { double a, b; };\n#pragma acc routine seq\ndouble twice(double x);\nstatic inline void scale(double *a, int n) {\n#pragma acc parallel loop present(a[0:n])\n  for (int i = 0; i < n; i++) a[i] = twice(a[i]);\n}\n";
    let main = "#include <stdio.h>\n#include \"twice.h\"\n#include \"twice.h\"\nint main(void) {\n  double a[4] = {1, 2, 3, 4};\n  struct pair p = {0, 0};\n#pragma acc data copy(a)\n  scale(a, 4);\n  printf(\"%g %g\\n\", a[3], p.a);\n  return 0;\n}\n";
    let twice = "#include \"twice.h\"\ndouble twice(double x) { return 2 * x; }\n";
    let dir = project(
        "once-header-directives",
        &[("twice.h", header), ("main.c", main), ("twice.c", twice)],
    );
    let out = ok(acc(&dir)
        .args(["cc", "main.c", "twice.c", "-o", "main"])
        .output()
        .unwrap());
    let warnings = stderr(&out);
    assert!(!warnings.contains("warning"), "{warnings}");
    for device in ["host", "host_discrete"] {
        assert_eq!(stdout_on(&dir, "main", device), "8 0\n", "{device}");
    }
    // A header of the program's that includes it again goes in too.
    let again = project(
        "once-header-again",
        &[
            ("twice.h", header),
            ("other.h", "#pragma once\n#include \"twice.h\"\n"),
            ("main.c", &format!("{main}#include \"other.h\"\n")),
            ("twice.c", twice),
        ],
    );
    let out = ok(acc(&again)
        .args(["cc", "main.c", "twice.c", "-o", "main"])
        .output()
        .unwrap());
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    assert_eq!(stdout_on(&again, "main", "host_discrete"), "8 0\n");
    // One acc cannot put in (its `#include` names a macro) keeps it a header.
    let kept = project(
        "once-header-kept",
        &[
            ("twice.h", header),
            ("other.h", "#include \"twice.h\"\n"),
            (
                "main.c",
                &format!("{main}#define OTHER \"other.h\"\n#include OTHER\n"),
            ),
            ("twice.c", twice),
        ],
    );
    let out = ok(acc(&kept)
        .args(["cc", "main.c", "twice.c", "-o", "main"])
        .output()
        .unwrap());
    let warnings = stderr(&out);
    assert!(
        warnings.contains("main.c:2:1: warning: acc does not apply the OpenACC directives of the program's headers: `#pragma acc parallel loop present(a[0:n])` at twice.h:6 is ignored"),
        "{warnings}"
    );
    assert_eq!(stdout_on(&kept, "main", "host"), "8 0\n");
}

/// A directive macro defined only in a header of the program's own (`ACC(...)` expanding to
/// `_Pragma("acc …")`), in a file that has no other directive: `acc cc` reads the header's
/// facts for it and applies the constructs, which `--info` lists and host_discrete shows (an
/// ignored `parallel loop` inside the data region would leave the host copy unchanged).
#[test]
fn a_directive_macro_from_a_header_applies_in_a_file_with_no_other_directive() {
    if !have_cc() {
        return;
    }
    let header = "#define ACC_STR(...) #__VA_ARGS__\n#ifdef _OPENACC\n#define ACC(...) _Pragma(ACC_STR(acc __VA_ARGS__))\n#else\n#define ACC(...)\n#endif\n";
    let main = "#include <stdio.h>\n#include \"accmacros.h\"\nint main(void) {\n  double a[8];\n  for (int i = 0; i < 8; i++) a[i] = i;\n  ACC(data copyin(a))\n  {\n    ACC(parallel loop present(a))\n    for (int i = 0; i < 8; i++) a[i] = -1;\n  }\n  printf(\"%g\\n\", a[3]);\n  return 0;\n}\n";
    let dir = project(
        "header-directive-macro",
        &[("inc/accmacros.h", header), ("main.c", main)],
    );
    let out = ok(acc(&dir)
        .args(["cc", "--info", "-Iinc", "main.c", "-o", "main"])
        .output()
        .unwrap());
    let info = stderr(&out);
    assert!(info.contains("main.c:6: data region: copyin(a)"), "{info}");
    assert!(info.contains("main.c:8: parallel region"), "{info}");
    // Without `--info`, through the check that a file holds no directive at all.
    ok(acc(&dir)
        .args(["cc", "-Iinc", "main.c", "-o", "main"])
        .output()
        .unwrap());
    let out = Command::new(dir.join("main"))
        .env("ACC_DEVICE_TYPE", "host_discrete")
        .output()
        .unwrap();
    // copyin: the device's -1 never comes back; on the host (directives ignored) it would.
    assert_eq!(stdout(&ok(out)), "3\n");
}

/// Directives in the branches of `#if`/`#elif` on macros of the command line (the NPB style:
/// `#ifdef USE_ASYNC` with one `kernels loop`, `#else` with another, the loop after `#endif`):
/// the preprocessor's view decides which directive owns the loop, also when no `-D` defines
/// either macro (then the loop has none).
#[test]
fn the_command_lines_macros_choose_the_directive_of_a_conditional() {
    if !have_cc() {
        return;
    }
    let src = "#include <stdio.h>\n#define N 64\ndouble a[N];\nint main(void) {\n  \
               for (int i = 0; i < N; i++) a[i] = i;\n#if defined(V1)\n#pragma acc kernels copy(a)\n\
               #elif defined(V2)\n#pragma acc parallel loop copy(a)\n#endif\n  \
               for (int i = 0; i < N; i++) a[i] = a[i] * 2;\n  double s = 0;\n  \
               for (int i = 0; i < N; i++) s += a[i];\n  printf(\"%g\\n\", s);\n  return s != 4032;\n}\n";
    let dir = project("conditional-directives", &[("elif.c", src)]);
    for (flag, says) in [
        ("-DV1", Some("elif.c:7: kernels region")),
        ("-DV2", Some("elif.c:9: parallel region")),
        ("-DNEITHER", None),
    ] {
        let out = ok(acc(&dir)
            .args(["cc", "--info", flag, "elif.c", "-o", "elif"])
            .output()
            .unwrap());
        let info = stderr(&out);
        match says {
            Some(s) => assert!(info.contains(s), "{flag}: {info}"),
            None => assert!(!info.contains("region"), "{flag}: {info}"),
        }
        assert_eq!(stdout_on(&dir, "elif", "host_discrete"), "4032\n", "{flag}");
    }
    // A bare `#if USE_ASYNC` on a macro nothing defines is 0, as C says: the `#else` holds.
    let bare = src
        .replace("#if defined(V1)", "#if USE_ASYNC")
        .replace("#elif defined(V2)", "#else");
    std::fs::write(dir.join("bare.c"), bare).unwrap();
    let out = ok(acc(&dir)
        .args(["cc", "--info", "bare.c", "-o", "bare"])
        .output()
        .unwrap());
    assert!(
        stderr(&out).contains("bare.c:9: parallel region"),
        "{}",
        stderr(&out)
    );
    assert_eq!(stdout_on(&dir, "bare", "host_discrete"), "4032\n");
}

/// A loop whose braces are split across `#if` branches around directives (Rodinia's srad:
/// `#ifdef ITERATION` / `for (…) {` / `#endif` … `#ifdef ITERATION` / `}` / `#endif`): acc reads
/// the file as the compiler will see it, both with the macro and without, and the answer is
/// right. Where it cannot (a branch that also defines a macro, whose conditions acc evaluates
/// with the macros the file ends with), the directive is an error, never left out without a
/// word to run on the host.
#[test]
fn braces_split_across_conditionals_are_read_as_the_compiler_sees_them() {
    if !have_cc() {
        return;
    }
    let src = "#include <stdio.h>\nvoid f(float *J) {\n  int i;\n#pragma acc data copy(J[0:16])\n#ifdef ITER\n  for (int it = 0; it < 2; it++) {\n#endif\n#pragma acc parallel loop\n    for (i = 0; i < 16; i++) J[i] += 1;\n#ifdef ITER\n  }\n#endif\n}\nint main(void) {\n#if 1\n  {\n#endif\n  float J[16] = {0};\n  f(J);\n  printf(\"%g\\n\", J[15]);\n#if 1\n  }\n#endif\n  return 0;\n}\n";
    let dir = project("split-braces", &[("srad.c", src)]);
    ok(acc(&dir)
        .args(["cc", "srad.c", "-o", "once"])
        .output()
        .unwrap());
    ok(acc(&dir)
        .args(["cc", "-DITER", "srad.c", "-o", "twice"])
        .output()
        .unwrap());
    for device in ["host", "host_discrete"] {
        assert_eq!(stdout_on(&dir, "once", device), "1\n", "{device}");
        assert_eq!(stdout_on(&dir, "twice", device), "2\n", "{device}");
    }
    let defines = src.replace(
        "#ifdef ITER\n  for (int it = 0; it < 2;",
        "#ifdef ITER\n#define STEPS 2\n  for (int it = 0; it < STEPS;",
    );
    let dir = project("split-braces-define", &[("srad.c", &defines)]);
    let out = acc(&dir).args(["cc", "-c", "srad.c"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("srad.c:4:1: error: acc cannot read the code around this directive as C, so it cannot apply it"),
        "{err}"
    );
}

/// Macros of the program named as acc's headers and generated code name their parameters and
/// members (`-Dn=4`, `-Diterations=20` as Rodinia's cfd is built, `#define count …` in the
/// file): the program compiles and runs as it does with gcc.
#[test]
fn the_programs_macros_leave_the_generated_code_alone() {
    if !have_cc() {
        return;
    }
    let src = "#include <stdio.h>\n#define count 3\n#define index 2\n#define active 1\nint main(void) {\n  int a[8];\n#pragma acc data copyout(a)\n  {\n#pragma acc parallel loop present(a)\n    for (int i = 0; i < 8; i++) a[i] = i + iterations + n + count + index + active;\n  }\n  printf(\"%d\\n\", a[7]);\n  return 0;\n}\n";
    let dir = project("program-macros", &[("cfd.c", src)]);
    ok(acc(&dir)
        .args([
            "cc",
            "-Diterations=20",
            "-Dn=4",
            "-Dline=5",
            "-Dbytes=6",
            "cfd.c",
            "-o",
            "cfd",
        ])
        .output()
        .unwrap());
    for device in ["host", "host_discrete"] {
        assert_eq!(stdout_on(&dir, "cfd", device), "37\n", "{device}");
    }
}

/// A file whose only directives are data directives naming a global of the program's own
/// header (NPB's `update host(rhs)` in a file of host code): acc reads the header, as for a
/// compute construct.
#[test]
fn data_directives_name_a_global_of_the_programs_header() {
    if !have_cc() {
        return;
    }
    let header = "#define N 100\ndouble a[N];\n";
    let src = "#include <stdio.h>\n#include \"field.h\"\nint main(void) {\n  double sum = 0;\n  for (int i = 0; i < N; i++) a[i] = i;\n#pragma acc enter data copyin(a)\n#pragma acc update host(a)\n#pragma acc exit data delete(a)\n  for (int i = 0; i < N; i++) sum += a[i];\n  printf(\"%g\\n\", sum);\n  return 0;\n}\n";
    let dir = project("header-data", &[("field.h", header), ("verify.c", src)]);
    ok(acc(&dir)
        .args(["cc", "verify.c", "-o", "verify"])
        .output()
        .unwrap());
    assert_eq!(stdout_on(&dir, "verify", "host_discrete"), "4950\n");
}

/// A program's feature-test macro defined before its first `#include` (`#define _GNU_SOURCE`),
/// in the file or in a header of its own ahead of the header's first system `#include`, still
/// selects the C library's declarations, though acc's own header now comes first.
#[test]
fn a_programs_feature_test_macros_still_select_the_librarys_declarations() {
    if !have_cc() {
        return;
    }
    let src =
        "/* GNU extensions */\n#define _GNU_SOURCE\n#include <string.h>\n#include <stdio.h>\n\
               int main(void) {\n  int a[8];\n  #pragma acc parallel loop copyout(a)\n  \
               for (int i = 0; i < 8; i++) a[i] = i;\n  \
               const char *p = strcasestr(\"Hello OpenACC\", \"openacc\");\n  \
               printf(\"%s %d\\n\", p, a[7]);\n  return 0;\n}\n";
    let dir = project(
        "feature-test-macros",
        &[
            ("g.c", src),
            (
                "h.c",
                &src.replace("/* GNU extensions */\n", "#include \"local.h\"\n"),
            ),
            ("local.h", "#define LOCAL_ONLY 1\n"),
            (
                "k.c",
                &src.replace(
                    "/* GNU extensions */\n#define _GNU_SOURCE\n#include <string.h>\n",
                    "#include \"gnu.h\"\n",
                ),
            ),
            ("gnu.h", "#define _GNU_SOURCE\n#include <string.h>\n"),
        ],
    );
    let out = ok(acc(&dir)
        .args([
            "cc",
            "-Werror=implicit-function-declaration",
            "g.c",
            "-o",
            "g",
        ])
        .output()
        .unwrap());
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    assert_eq!(stdout_on(&dir, "g", "host_discrete"), "OpenACC 7\n");
    // After a header of the program's own that includes no system header: still in time.
    let out = ok(acc(&dir)
        .args([
            "cc",
            "-Werror=implicit-function-declaration",
            "h.c",
            "-o",
            "h",
        ])
        .output()
        .unwrap());
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    assert_eq!(stdout_on(&dir, "h", "host_discrete"), "OpenACC 7\n");
    // Defined by a header of the program's own, ahead of the system header it includes.
    let out = ok(acc(&dir)
        .args([
            "cc",
            "-Werror=implicit-function-declaration",
            "k.c",
            "-o",
            "k",
        ])
        .output()
        .unwrap());
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    assert_eq!(stdout_on(&dir, "k", "host_discrete"), "OpenACC 7\n");
}

/// `CC` naming a script around `acc cc` (`make CC=./my-cc`, which make exports to the
/// commands it runs): acc reads `$CC` for its own C compiler and preprocessor, and the script
/// led back to acc, which started acc again and again until the machine ran out of
/// processes. The inner `acc cc` now runs the C compiler the outer one falls back to (`cc`).
/// The script counts its depth, so a regression fails here instead of forking forever.
#[test]
fn a_cc_script_around_acc_is_not_taken_for_accs_own_compiler() {
    if !have_cc() || cfg!(windows) {
        return;
    }
    let main = "#include <stdio.h>\n#include \"scale.h\"\nint main(void) {\n  double a[4] = {1, 2, 3, 4};\n#pragma acc parallel loop copy(a)\n  for (int i = 0; i < 4; i++) a[i] *= SCALE;\n  printf(\"%g\\n\", a[3]);\n  return a[3] != 8;\n}\n";
    let dir = project(
        "cc-script-around-acc",
        &[("scale.h", "#define SCALE 2\n"), ("main.c", main)],
    );
    let script = dir.join("my-cc");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ndepth=${{MY_CC_DEPTH:-0}}\nif [ \"$depth\" -ge 3 ]; then echo 'my-cc: acc ran itself' >&2; exit 99; fi\nMY_CC_DEPTH=$((depth + 1)) exec '{}' cc \"$@\"\n",
            env!("CARGO_BIN_EXE_acc")
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let out = Command::new(&script)
        .current_dir(&dir)
        .env("CC", &script)
        .env_remove("ACC_CC")
        .env("ACC_RUNTIME_LIB", support::runtime_lib())
        .args(["-o", "main", "main.c"])
        .output()
        .unwrap();
    ok(out);
    let run = Command::new(dir.join("main")).output().unwrap();
    assert!(run.status.success(), "{}", stderr(&run));
    assert_eq!(stdout(&run).trim(), "8");
}
