//! `acc cc` and `acc run` end to end: real programs built with the host C
//! compiler and the runtime library, run, and their output checked; and the
//! example Makefile project built with `make CC="acc cc"`.

use std::path::Path;
use std::process::Command;

mod support;
use support::{acc, exe, have, have_cc, ok, project, runtime_lib, stderr, stdout};

const CRATE: &str = env!("CARGO_MANIFEST_DIR");

const HELLO: &str = "#include <stdio.h>\nint main(void) { printf(\"hello\\n\"); return 0; }\n";

#[test]
fn one_file_to_a_program() {
    if !have_cc() {
        return;
    }
    let dir = project("one-file", &[("hello.c", HELLO)]);
    ok(acc(&dir)
        .args([
            "cc", "-O2", "-g", "-Wall", "-std=c11", "-o", "hello", "hello.c",
        ])
        .output()
        .unwrap());
    assert_eq!(stdout(&ok(exe(&dir, "hello"))), "hello\n");
    // Without -o the program is a.out, as with cc.
    ok(acc(&dir).args(["cc", "hello.c"]).output().unwrap());
    assert_eq!(stdout(&ok(exe(&dir, "a.out"))), "hello\n");
}

const UTIL_H: &str = "#ifndef UTIL_H\n#define UTIL_H\nint twice(int);\nint square(int);\n#endif\n";
const TWICE: &str = "#include \"util.h\"\nint twice(int x) { return 2 * x; }\n";
const SQUARE: &str = "#include \"util.h\"\nint square(int x) { return x * x; }\n";
const MAIN: &str = "#include <stdio.h>\n#include <math.h>\n#include \"util.h\"\n\
    int main(void) { printf(\"%d %d %.0f\\n\", twice(3), square(4), sqrt(81.0)); return 0; }\n";

#[test]
fn compile_then_link() {
    if !have_cc() {
        return;
    }
    let dir = project(
        "compile-then-link",
        &[
            ("src/util.h", UTIL_H),
            ("src/twice.c", TWICE),
            ("src/square.c", SQUARE),
            ("src/main.c", MAIN),
        ],
    );
    std::fs::create_dir_all(dir.join("build")).unwrap();
    // -c with several files: objects named after the sources, here.
    ok(acc(&dir)
        .args(["cc", "-c", "-O1", "src/twice.c", "src/square.c"])
        .output()
        .unwrap());
    assert!(dir.join("twice.o").is_file() && dir.join("square.o").is_file());
    // -c with -o.
    ok(acc(&dir)
        .args(["cc", "-c", "src/main.c", "-o", "build/main.o"])
        .output()
        .unwrap());
    // Link objects, with a library after them.
    ok(acc(&dir)
        .args([
            "cc",
            "build/main.o",
            "twice.o",
            "square.o",
            "-o",
            "build/prog",
            "-lm",
        ])
        .output()
        .unwrap());
    assert_eq!(stdout(&ok(exe(&dir, "build/prog"))), "6 16 9\n");
    // -o with -c and several files is an error, as with gcc.
    let out = acc(&dir)
        .args(["cc", "-c", "src/twice.c", "src/square.c", "-o", "x.o"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("cannot specify `-o`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn several_sources_and_an_object_in_one_command() {
    if !have_cc() {
        return;
    }
    let dir = project(
        "several",
        &[
            ("util.h", UTIL_H),
            ("twice.c", TWICE),
            ("square.c", SQUARE),
            ("main.c", MAIN),
        ],
    );
    ok(acc(&dir).args(["cc", "-c", "square.c"]).output().unwrap());
    ok(acc(&dir)
        .args([
            "cc", "-O2", "main.c", "twice.c", "square.o", "-lm", "-o", "prog",
        ])
        .output()
        .unwrap());
    assert_eq!(stdout(&ok(exe(&dir, "prog"))), "6 16 9\n");
    // A response file, as build systems write for long lists of objects.
    ok(acc(&dir)
        .args(["cc", "-c", "main.c", "twice.c"])
        .output()
        .unwrap());
    std::fs::write(dir.join("objs.rsp"), "main.o 'twice.o'\nsquare.o\n").unwrap();
    ok(acc(&dir)
        .args(["cc", "@objs.rsp", "-lm", "-o", "prog2"])
        .output()
        .unwrap());
    assert_eq!(stdout(&ok(exe(&dir, "prog2"))), "6 16 9\n");
}

#[test]
fn x_c_compiles_a_file_of_any_name_as_c() {
    if !have_cc() {
        return;
    }
    let dir = project("x-c", &[("hello.txt", HELLO)]);
    ok(acc(&dir)
        .args(["cc", "-x", "c", "hello.txt", "-x", "none", "-o", "hello"])
        .output()
        .unwrap());
    assert_eq!(stdout(&ok(exe(&dir, "hello"))), "hello\n");
    ok(acc(&dir)
        .args(["cc", "--keep", "-xc", "hello.txt", "-o", "hello2"])
        .output()
        .unwrap());
    assert_eq!(stdout(&ok(exe(&dir, "hello2"))), "hello\n");
    assert!(dir.join("hello2.acc.c").is_file());
}

#[test]
fn defines_undefines_and_include_directories() {
    if !have_cc() {
        return;
    }
    let src = "#include <stdio.h>\n#include \"a.h\"\n#include <b.h>\n\
        #ifndef GONE\nint main(void) { printf(\"%d %d %s %d\\n\", A, B, WORD, FLAG); return 0; }\n#endif\n";
    let dir = project(
        "defines",
        &[
            ("p.c", src),
            ("inc1/a.h", "#define A 1\n"),
            ("inc2/b.h", "#define B 2\n"),
        ],
    );
    ok(acc(&dir)
        .args([
            "cc",
            "-I",
            "inc1",
            "-Iinc2",
            "-D",
            "WORD=\"w\"",
            "-DFLAG",
            "-DGONE",
            "-U",
            "GONE",
            "p.c",
            "-o",
            "p",
        ])
        .output()
        .unwrap());
    assert_eq!(stdout(&ok(exe(&dir, "p"))), "1 2 w 1\n");
}

#[test]
fn run_passes_arguments_and_the_exit_status() {
    if !have_cc() {
        return;
    }
    let src = "#include <stdio.h>\nint main(int argc, char **argv) {\n\
        for (int i = 1; i < argc; i++) printf(\"[%s]\", argv[i]);\n\
        printf(\" %d\\n\", N);\n  fprintf(stderr, \"to stderr\\n\");\n  return 40 + argc;\n}\n";
    let dir = project("run", &[("args.c", src)]);
    let out = acc(&dir)
        .args(["run", "args.c", "-DN=5", "--", "a b", "-c", "--"])
        .output()
        .unwrap();
    assert_eq!(stdout(&out), "[a b][-c][--] 5\n");
    assert_eq!(stderr(&out), "to stderr\n");
    assert_eq!(out.status.code(), Some(44));
    // Without `--` there are no arguments.
    let out = acc(&dir).args(["run", "-DN=1", "args.c"]).output().unwrap();
    assert_eq!(stdout(&out), " 1\n");
    assert_eq!(out.status.code(), Some(41));
    // Stage flags make no sense for run.
    let out = acc(&dir).args(["run", "-c", "args.c"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn openacc_errors_exit_1_with_clang_style_diagnostics() {
    if !have_cc() {
        return;
    }
    let dir = project(
        "error",
        &[(
            "bad.c",
            "void f(int n, double *a) {\n  #pragma acc parallel copyinn(a[0:n])\n  { }\n}\n",
        )],
    );
    let out = acc(&dir).args(["cc", "-c", "bad.c"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("bad.c:2:24: error: unknown OpenACC clause `copyinn`"),
        "{err}"
    );
    assert!(err.contains("1 error generated."), "{err}");
    assert!(!dir.join("bad.o").exists());
}

/// A section whose partial dimension has a partial one before it (`a[0:2][3:2]`) is not one
/// block of memory: an error naming the rule (one of length 1 before it is fine, see the
/// conformance program `data-row-sections.c`).
#[test]
fn a_section_that_is_not_contiguous_is_an_error_saying_why() {
    if !have_cc() {
        return;
    }
    let src = "int a[4][10];\nvoid f(void) {\n#pragma acc update self(a[0:2][3:2])\n}\n";
    let dir = project("noncontiguous", &[("nc.c", src)]);
    let out = acc(&dir).args(["cc", "-c", "nc.c"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("nc.c:3:25: error: `a[0:2][3:2]` is not contiguous; only one dimension of a subarray may be partial, those before it of length 1 and those after it whole"),
        "{err}"
    );
}

/// The C compiler's message about the body of a collapsed nest names the body's line: the
/// loop headers acc rewrites keep the lines they spanned.
#[test]
fn messages_about_a_collapsed_loops_body_name_its_line() {
    if !have_cc() {
        return;
    }
    let src = "void f(int n, int *d) {\n#pragma acc parallel loop collapse(3) copyout(d[0:n * n * n])\n  for (int z = 0; z < n; z++)\n    for (int y = 0; y < n; y++) {\n      for (int x = 0; x < n; x++) {\n        int q = x;\n        int unused_here;\n        d[(z * n + y) * n + x] = q;\n      }\n    }\n}\n";
    let dir = project("collapsed-lines", &[("c.c", src)]);
    let out = ok(acc(&dir)
        .args(["cc", "-Wall", "-c", "c.c"])
        .output()
        .unwrap());
    let err = stderr(&out);
    // The kernel's copy of the body (written after the rewritten headers) says so.
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("unused variable"))
        .collect();
    assert!(!lines.is_empty(), "{err}");
    assert!(lines.iter().all(|l| l.starts_with("c.c:7:")), "{err}");
}

/// The C compiler's message about a clause's expression (a misspelt name in `async(q)`,
/// `num_gangs(ng)`, a section's bound, a `wait` queue, on a continued line too) is at the
/// expression: its line and column, with the caret under it (gcc's display column, a tab
/// reaching the next multiple of 8).
#[test]
fn messages_about_clause_expressions_name_their_line_and_column() {
    if !have_cc() {
        return;
    }
    let src = "void f(int n, double *a) {\n#pragma acc data copy(a[0:nn])\n  {\n#pragma acc parallel loop \\\n    num_gangs(ng) async(q)\n    for (int i = 0; i < n; i++)\n      a[i] *= 2;\n  }\n\t#pragma acc update self(a[lo:n])\n#pragma acc wait(qq)\n}\n";
    let dir = project("clause-expression-lines", &[("e.c", src)]);
    let out = acc(&dir).args(["cc", "-c", "e.c"]).output().unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    for at in [
        "e.c:2:27: error: \u{2018}nn\u{2019}",
        "e.c:5:15: error: \u{2018}ng\u{2019}",
        "e.c:5:25: error: \u{2018}q\u{2019}",
        "e.c:9:35: error: \u{2018}lo\u{2019}",
        "e.c:10:18: error: \u{2018}qq\u{2019}",
    ] {
        assert!(err.contains(at), "{at}:\n{err}");
    }
}

/// An argument OpenACC asks an integer of (`async`, `wait`, `num_gangs`, a section's bound)
/// given a floating value or a pointer is the compiler's error at the argument; a condition
/// (`if`) may be any scalar.
#[test]
fn integer_arguments_of_other_types_are_errors_at_the_argument() {
    if !have_cc() {
        return;
    }
    let src = "void f(int n, double *a, double q, int *p) {\n#pragma acc parallel loop copy(a[0:n]) async(q) num_gangs(p) if(q)\n  for (int i = 0; i < n; i++) a[i] = i;\n#pragma acc wait(q)\n#pragma acc update self(a[0:q])\n}\n";
    let dir = project("integer-arguments", &[("q.c", src)]);
    let out = acc(&dir).args(["cc", "-c", "q.c"]).output().unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    let at: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("error: switch quantity not an integer"))
        .map(|l| l.split(": error").next().unwrap_or(""))
        .collect();
    assert_eq!(
        at,
        ["q.c:2:46", "q.c:2:59", "q.c:4:18", "q.c:5:29"],
        "{err}"
    );
}

/// A list item with a subscript its variable's type does not have (`s[0:1]` of a scalar,
/// `b[0:1][0:1]` of a 1-D array, three of a 2-D one) is the compiler's error at the item;
/// the subscripts a type has are none.
#[test]
fn subscripts_a_variable_does_not_have_are_errors_at_the_item() {
    if !have_cc() {
        return;
    }
    let src = "void f(int n, double *p, double **rows) {\n  double s = 0, b[4], m[8][8];\n#pragma acc parallel loop copy(s[0:1]) reduction(+:s)\n  for (int i = 0; i < 4; i++) s += i;\n#pragma acc data copy(b[0:1][0:1]) copyout(m[0:8][0:8][0:1])\n  {}\n#pragma acc data copy(p[0:n], rows[0:n][0:n], b[1:2], m[2:3][:])\n  {}\n}\n";
    let dir = project("item-subscripts", &[("s.c", src)]);
    let out = acc(&dir).args(["cc", "-c", "s.c"]).output().unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    let errors: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("error: subscripted value"))
        .collect();
    // At the item's first subscript the type lacks: `s[`, `b[0:1][`, `m[0:8][0:8][`.
    for at in ["s.c:3:33:", "s.c:5:27:", "s.c:5:51:"] {
        assert!(errors.iter().any(|l| l.starts_with(at)), "{at}:\n{err}");
    }
    assert!(!errors.iter().any(|l| l.starts_with("s.c:7:")), "{err}");
}

/// A subscript whose step is a constant the file names (`data[x + y * W]`, `#define W 48`)
/// steps with the loop as a literal's does: the inner loop gets the vector level; with a
/// run-time stride the dependence stays unknown, and the loop sequential, saying why.
#[test]
fn a_named_constant_stride_is_a_known_step() {
    if !have_cc() {
        return;
    }
    let src = |stride: &str| {
        format!(
            "#define W 48\nvoid f(char *data, int w) {{\n#pragma acc parallel copyout(data[0:W * 27])\n  {{\n#pragma acc loop independent\n    for (int x = 0; x < W; ++x) {{\n#pragma acc loop independent\n      for (int y = 0; y < 27; ++y) data[x + y * {stride}] = (char)(x ^ y);\n    }}\n  }}\n}}\n"
        )
    };
    let dir = project("constant-stride", &[("k.c", &src("W")), ("r.c", &src("w"))]);
    let info = |file: &str| {
        stderr(&ok(acc(&dir)
            .args(["cc", "--info", "-c", file])
            .output()
            .unwrap()))
    };
    let known = info("k.c");
    assert!(
        known.contains("loop: vector (implicit: its iterations are independent)"),
        "{known}"
    );
    let runtime = info("r.c");
    assert!(
        runtime.contains("it writes an element acc cannot tell is its iteration's own"),
        "{runtime}"
    );
}

/// A host compiler that searches its own include directory first (a GCC whose specs or
/// wrapper add it before acc's, as one GPU machine's did) and has an `openacc.h` there, as
/// GCC's: the program still gets acc's API (OpenACC 3.3's `acc_async_default`,
/// `acc_set_default_async`), and GCC's header adds nothing.
#[test]
fn the_host_compilers_own_openacc_h_does_not_hide_accs() {
    if !have_cc() || cfg!(windows) {
        return;
    }
    let gcc_like =
        "#ifndef _OPENACC_H\n#define _OPENACC_H 1\n#error GCC's openacc.h was used\n#endif\n";
    let src = "#include <openacc.h>\n#include <stdio.h>\nint main(void) {\n  int t = acc_get_device_type();\n  #pragma acc set if(acc_get_device_type() == t) default_async(acc_async_default)\n  acc_set_default_async(acc_async_default);\n  printf(\"%d\\n\", acc_get_default_async());\n  return 0;\n}\n";
    let dir = project(
        "own_openacc_h",
        &[("gcc-include/openacc.h", gcc_like), ("set.c", src)],
    );
    let wrapper = dir.join("wrapped-cc");
    let real = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nexec {real} -isystem '{}' \"$@\"\n",
            dir.join("gcc-include").display()
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    ok(acc(&dir)
        .env("ACC_CC", &wrapper)
        .args(["cc", "-o", "set", "set.c"])
        .output()
        .unwrap());
    let out = exe(&dir, "set");
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn host_compiler_errors_keep_its_status_and_name_the_users_file() {
    if !have_cc() {
        return;
    }
    // `#pragma acc` in a comment sends the file through the lowering (which
    // leaves it as it is); the messages still name the user's file.
    let src = "/* no #pragma acc here */\nint main(void) {\n  return nope;\n}\n";
    let dir = project("host-error", &[("e.c", src)]);
    let out = acc(&dir).args(["cc", "-c", "e.c"]).output().unwrap();
    let err = stderr(&out);
    assert!(!out.status.success());
    assert_ne!(out.status.code(), Some(0));
    assert!(err.contains("e.c:3:10"), "{err}");
    assert!(!err.contains(".acc.c"), "{err}");
}

#[test]
fn lowered_files_keep_quoted_includes_dependency_files_and_keep() {
    if !have_cc() {
        return;
    }
    let src = "/* #pragma acc comes later */\n#include <stdio.h>\n#include \"k.h\"\n\
        int main(void) { printf(\"%d\\n\", K); return 0; }\n";
    let dir = project(
        "lowered",
        &[("src/k.c", src), ("src/k.h", "#define K 11\n")],
    );
    std::fs::create_dir_all(dir.join("obj")).unwrap();
    ok(acc(&dir)
        .args([
            "cc", "--keep", "-MMD", "-MP", "-c", "src/k.c", "-o", "obj/k.o",
        ])
        .output()
        .unwrap());
    let dep = std::fs::read_to_string(dir.join("obj/k.d")).unwrap();
    assert!(dep.starts_with("obj/k.o: src/k.c src/k.h"), "{dep}");
    assert!(
        !dep.contains("acc_rt.h"),
        "runtime headers are system headers: {dep}"
    );
    let kept = std::fs::read_to_string(dir.join("obj/k.acc.c")).unwrap();
    assert!(kept.contains("#line 1 \"src/k.c\""), "{kept}");
    // A file with a kernel, whose host part is compiled apart: the rule still names the
    // object asked for (it named the host part's temporary object).
    let kernel = "#include \"k.h\"\nvoid scale(double *a, int n) {\n#pragma acc parallel loop copy(a[0:n])\n  for (int i = 0; i < n; i++) a[i] *= K;\n}\n";
    std::fs::write(dir.join("src/v.c"), kernel).unwrap();
    ok(acc(&dir)
        .args(["cc", "-MMD", "-MP", "-c", "src/v.c", "-o", "obj/v.o"])
        .output()
        .unwrap());
    let dep = std::fs::read_to_string(dir.join("obj/v.d")).unwrap();
    assert!(dep.starts_with("obj/v.o: src/v.c src/k.h"), "{dep}");
    ok(acc(&dir)
        .args(["cc", "obj/k.o", "-o", "k"])
        .output()
        .unwrap());
    assert_eq!(stdout(&ok(exe(&dir, "k"))), "11\n");
    // Linking one file with --keep: the generated C is named after the program.
    ok(acc(&dir)
        .args(["cc", "--keep", "src/k.c", "-o", "k2"])
        .output()
        .unwrap());
    assert!(dir.join("k2.acc.c").is_file());
}

#[test]
fn openacc_program_runs() {
    if !have_cc() {
        return;
    }
    let src = "#include <stdio.h>\nint main(void) {\n  double a[100], s = 0;\n\
        #pragma acc parallel loop copyout(a)\n  for (int i = 0; i < 100; i++) a[i] = i;\n\
        #pragma acc parallel loop reduction(+:s) copyin(a)\n  for (int i = 0; i < 100; i++) s += a[i];\n\
        printf(\"%.0f\\n\", s);\n  return s != 4950;\n}\n";
    let dir = project("openacc", &[("sum.c", src)]);
    let out = acc(&dir).args(["run", "--info", "sum.c"]).output().unwrap();
    assert_eq!(stdout(&ok(out.clone())), "4950\n");
    assert!(stderr(&out).contains("sum.c:4:"), "{}", stderr(&out));
    let out = ok(acc(&dir)
        .args(["run", "sum.c"])
        .env("ACC_DEVICE_TYPE", "host_discrete")
        .output()
        .unwrap());
    assert_eq!(stdout(&out), "4950\n");
}

/// A program that also links GCC's libgomp (`-fopenmp`, or for `omp_get_wtime`, as many
/// OpenACC programs do) runs: libgomp exports an `acc_register_library` of its own, which a
/// weak reference finds and which stops the program ("libgomp: TODO") if called as a
/// profiling tool's.
#[test]
fn a_program_linked_with_libgomp_runs() {
    if !have_cc() {
        return;
    }
    let src = "#include <stdio.h>\n#include <omp.h>\nint main(void) {\n  int a[4] = {0};\n  double t = omp_get_wtime();\n#pragma acc parallel loop copy(a)\n  for (int i = 0; i < 4; i++) a[i] = i;\n  printf(\"%d %d\\n\", a[3], t > 0);\n  return 0;\n}\n";
    let dir = project("libgomp", &[("wtime.c", src)]);
    let built = acc(&dir)
        .args(["cc", "-fopenmp", "wtime.c", "-o", "wtime"])
        .output()
        .unwrap();
    if !built.status.success() && stderr(&built).contains("omp.h") {
        return; // A compiler without OpenMP.
    }
    ok(built);
    for device in ["host", "host_discrete"] {
        let out = Command::new(dir.join("wtime"))
            .env("ACC_DEVICE_TYPE", device)
            .output()
            .unwrap();
        assert_eq!(stdout(&ok(out)), "3 1\n", "{device}");
    }
}

#[test]
fn preprocess_and_assembly_pass_through() {
    if !have_cc() {
        return;
    }
    let dir = project(
        "stages",
        &[(
            "v.c",
            "int v = _OPENACC;\n#include <openacc.h>\nint f(void) { return v; }\n",
        )],
    );
    let out = ok(acc(&dir).args(["cc", "-E", "v.c"]).output().unwrap());
    assert!(stdout(&out).contains("int v = 202211;"), "{}", stdout(&out));
    ok(acc(&dir).args(["cc", "-S", "v.c"]).output().unwrap());
    assert!(dir.join("v.s").is_file());
}

#[test]
fn questions_without_inputs_go_to_the_host_compiler() {
    if !have_cc() {
        return;
    }
    let dir = project("questions", &[]);
    std::fs::create_dir_all(&dir).unwrap();
    let out = ok(acc(&dir).args(["cc", "--version"]).output().unwrap());
    assert!(!out.stdout.is_empty());
    let out = acc(&dir).arg("cc").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no input files"), "{}", stderr(&out));
}

#[test]
fn a_missing_runtime_library_says_how_to_build_it() {
    if !have_cc() {
        return;
    }
    let dir = project("no-runtime", &[("hello.c", HELLO)]);
    let out = acc(&dir)
        .env("ACC_RUNTIME_LIB", dir.join("nowhere"))
        .args(["cc", "hello.c"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("ACC_RUNTIME_LIB"), "{}", stderr(&out));
    // Compiling alone does not need it.
    ok(acc(&dir)
        .env("ACC_RUNTIME_LIB", dir.join("nowhere"))
        .args(["cc", "-c", "hello.c"])
        .output()
        .unwrap());
}

#[test]
fn acc_cc_is_the_name_of_a_link_to_acc() {
    if !have_cc() {
        return;
    }
    let dir = project("acc-cc", &[("hello.c", HELLO)]);
    let link = dir.join("acc-cc");
    #[cfg(unix)]
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_acc"), &link).unwrap();
    #[cfg(not(unix))]
    std::fs::copy(env!("CARGO_BIN_EXE_acc"), &link).unwrap();
    ok(Command::new(&link)
        .current_dir(&dir)
        .env("ACC_RUNTIME_LIB", runtime_lib())
        .args(["hello.c", "-o", "hello"])
        .output()
        .unwrap());
    assert_eq!(stdout(&ok(exe(&dir, "hello"))), "hello\n");
}

/// The example project: an ordinary Makefile, built with a plain compiler
/// (the directives ignored) and with `make CC="acc cc"`, where `make`
/// exports `CC="acc cc"` to the commands it runs and acc must not take
/// itself for the host compiler.
#[test]
fn example_makefile_project_builds_with_acc_cc() {
    if !have_cc() || !have("make") {
        return;
    }
    let src = Path::new(CRATE).join("../../examples/make-project");
    let mut files = Vec::new();
    for e in std::fs::read_dir(&src).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if ["Makefile", "main.c", "vec.c", "vec.h"].contains(&name.as_str()) {
            files.push((name, std::fs::read_to_string(e.path()).unwrap()));
        }
    }
    assert_eq!(files.len(), 4, "the example project has moved");
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let dir = project("make-project", &files);
    let make = |args: &[&str]| {
        Command::new("make")
            .args(["--no-print-directory"])
            .args(args)
            .current_dir(&dir)
            .env("ACC_RUNTIME_LIB", runtime_lib())
            .env_remove("MAKEFLAGS")
            .env_remove("MFLAGS")
            .output()
            .unwrap()
    };
    let out = ok(make(&["check"]));
    assert!(
        stdout(&out).contains("built without OpenACC"),
        "{}",
        stdout(&out)
    );
    ok(make(&["clean"]));
    let cc = format!("CC={} cc", env!("CARGO_BIN_EXE_acc"));
    let out = ok(make(&[&cc, "check"]));
    let text = stdout(&out);
    assert!(text.contains("OpenACC 202211"), "{text}");
    assert!(
        text.contains("saxpy ok") && text.contains("dot ok"),
        "{text}"
    );
    ok(make(&["clean"]));
}

#[test]
fn c_errors_inside_a_kernel_are_reported_on_the_users_code() {
    if !have_cc() {
        return;
    }
    // The loop body is outlined into a kernel; the missing `;` is still
    // reported at its column in the user's line, by the host compiler.
    let src = "int main(void) {\n  int a[10];\n  #pragma acc parallel loop copy(a)\n  for (int i = 0; i < 10; i++) a[i] = i\n  return 0;\n}\n";
    let dir = project("kernel-syntax-error", &[("k.c", src)]);
    let out = acc(&dir).args(["cc", "-c", "k.c"]).output().unwrap();
    let err = stderr(&out);
    assert!(!out.status.success());
    assert!(err.contains("k.c:4:40"), "{err}");
    assert!(!err.contains("__acc_"), "{err}");
}

/// A file with one kernel (`__acc_kernel1_0` in each file), a non-static
/// global and a non-static routine the kernel calls.
fn split_file(name: &str, k: i32) -> String {
    format!(
        "int {name}_scale = {k};\nconst int {name}_t[] = {{1, 2, 3}};\n\
         #pragma acc routine seq\nint {name}_f(int x) {{ return x * {name}_scale + {name}_t[2]; }}\n\
         int {name}(int n) {{\n  int a[64];\n\
         #pragma acc parallel loop copyout(a[0:n])\n  for (int i = 0; i < n; i++) a[i] = {name}_f(i);\n\
         int s = 0;\n  for (int i = 0; i < n; i++) s += a[i];\n  return s;\n}}\n"
    )
}

#[test]
fn kernels_compile_in_their_own_unit_and_files_link_together() {
    if !have_cc() {
        return;
    }
    let main = "#include <stdio.h>\nint one(int);\nint two(int);\n\
        int main(void) { printf(\"%d %d\\n\", one(10), two(10)); return 0; }\n";
    let dir = project(
        "split",
        &[
            ("one.c", &split_file("one", 1)),
            ("two.c", &split_file("two", 2)),
            ("main.c", main),
        ],
    );
    // Both files name their kernel `__acc_kernel1_0`.
    for f in ["one", "two"] {
        let out = ok(acc(&dir)
            .args(["cc", "-v", "-O2", "-Wall", "-Wextra", "--keep", "-c"])
            .arg(format!("{f}.c"))
            .output()
            .unwrap());
        assert!(
            !stderr(&out).contains("one translation unit"),
            "{}",
            stderr(&out)
        );
        let kernels = std::fs::read_to_string(dir.join(format!("{f}.acc.kernels.c"))).unwrap();
        assert!(kernels.contains("void __acc_kernel1_0(const acc_rt_chunk *__acc_chunk)"));
    }
    ok(acc(&dir)
        .args(["cc", "one.o", "two.o", "main.c", "-o", "prog"])
        .output()
        .unwrap());
    // sum of i*k + 3 for i < 10
    assert_eq!(stdout(&ok(exe(&dir, "prog"))), "75 120\n");
    // Compile and link in one step, split too.
    ok(acc(&dir)
        .args(["cc", "-O2", "one.c", "two.c", "main.c", "-o", "prog2"])
        .output()
        .unwrap());
    assert_eq!(stdout(&ok(exe(&dir, "prog2"))), "75 120\n");
}

#[test]
fn a_warning_in_a_kernel_is_said_once() {
    if !have_cc() {
        return;
    }
    let src = "static int helper(void) { return 1; }\nint main(void) {\n  int a[8];\n\
        #pragma acc parallel loop copyout(a[0:8])\n  for (int i = 0; i < 8; i++) {\n    int unused_here;\n    a[i] = i;\n  }\n\
        return a[7] - 7 + helper() - 1;\n}\n";
    let dir = project("split-warning", &[("w.c", src)]);
    for single in ["0", "1"] {
        let out = ok(acc(&dir)
            .env("ACC_SINGLE_TU", single)
            .args(["cc", "-Wall", "-Wextra", "-c", "w.c"])
            .output()
            .unwrap());
        let err = stderr(&out);
        assert_eq!(err.matches("unused variable").count(), 1, "{single}: {err}");
        assert!(err.contains("w.c:6:"), "{err}");
        assert_eq!(err.matches("warning:").count(), 1, "{single}: {err}");
    }
}

#[test]
fn assembly_and_the_single_unit_switch() {
    if !have_cc() {
        return;
    }
    let dir = project("split-single", &[("s.c", &split_file("s", 3))]);
    ok(acc(&dir).args(["cc", "-S", "s.c"]).output().unwrap());
    let asm = std::fs::read_to_string(dir.join("s.s")).unwrap();
    assert!(asm.contains("__acc_kernel1_0"), "{asm}");
    let out = ok(acc(&dir)
        .env("ACC_SINGLE_TU", "1")
        .args(["cc", "-v", "--keep", "-c", "s.c"])
        .output()
        .unwrap());
    assert!(stderr(&out).contains("one translation unit: ACC_SINGLE_TU"));
    assert!(!dir.join("s.acc.kernels.c").exists());
    let kept = std::fs::read_to_string(dir.join("s.acc.c")).unwrap();
    assert!(kept.contains("static void __acc_kernel1_0(const acc_rt_chunk *__acc_chunk) {"));
}

#[test]
fn a_definition_in_a_header_falls_back_to_one_unit() {
    if !have_cc() {
        return;
    }
    let h = "int from_header = 5;\n";
    let src = format!("#include \"h.h\"\n{}", split_file("h", 1));
    let dir = project("split-header", &[("h.h", h), ("h.c", &src)]);
    let out = ok(acc(&dir).args(["cc", "-v", "-c", "h.c"]).output().unwrap());
    assert!(stderr(&out).contains("do not combine"), "{}", stderr(&out));
}

#[test]
fn generated_code_is_quiet_under_pedantic() {
    if !have_cc() {
        return;
    }
    // A gang loop with a reduction: the file embeds its CUDA module (a
    // literal longer than ISO C's 4095 characters), and chunk bounds must
    // not need GNU extensions such as `__int128`.
    let src = "#include <stdio.h>\nint main(void) {\n  double a[64], s = 0;\n  for (int i = 0; i < 64; i++) a[i] = i;\n\
        #pragma acc parallel loop copyin(a) reduction(+:s)\n  for (int i = 0; i < 64; i++)\n    s += a[i];\n\
        printf(\"%g\\n\", s);\n  return s == 2016.0 ? 0 : 1;\n}\n";
    let dir = project("pedantic", &[("p.c", src)]);
    let out = ok(acc(&dir)
        .args([
            "cc",
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-pedantic",
            "-c",
            "p.c",
        ])
        .output()
        .unwrap());
    let err = stderr(&out);
    assert!(!err.contains("warning:"), "{err}");
}

/// The CUDA versions take the faster exact forms where they apply: lanes (a block a gang
/// iteration) for the four lanes kernels of `lanes.c` but not the one with `continue`, rows
/// for the worker loops of `rows.c` whose vector reductions stay within a row, and
/// compare-and-swap atomics for every form of update and capture. Always
/// correct fallbacks exist, so only the generated text shows which form was chosen.
#[test]
fn cuda_versions_use_lanes_and_lock_free_atomics_where_they_apply() {
    if !have_cc() {
        return;
    }
    let root = Path::new(CRATE).join("../../tests/conformance");
    let dir = project("cuda-forms", &[]);
    std::fs::create_dir_all(&dir).unwrap();
    let build = |stem: &str| -> (String, String) {
        let out = ok(acc(&dir)
            .args(["cc", "-c", "--keep", "--info", "-o"])
            .arg(format!("{stem}.o"))
            .arg(root.join(format!("{stem}.c")))
            .output()
            .unwrap());
        let cu = std::fs::read_to_string(dir.join(format!("{stem}.acc.cu"))).unwrap();
        (stderr(&out), cu)
    };
    let (info, _) = build("lanes");
    assert_eq!(
        info.matches("CUDA: a block a gang iteration").count(),
        4,
        "{info}"
    );
    // Worker loops with vector loops inside go over rows (threadIdx.y) and lanes
    // (threadIdx.x), except where a vector loop reduces into a variable of the whole block.
    let (info, cu) = build("rows");
    assert_eq!(
        info.matches("worker loops over the block's rows").count(),
        2,
        "{info}"
    );
    let uses = |word: &str| {
        cu.lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.matches(word).count())
            .sum::<usize>()
    };
    assert_eq!(uses("__ACC_WRED_BEGIN(double"), 3, "{cu}");
    assert_eq!(uses("__ACC_VRED_BEGIN(double __acc_vo_g"), 1, "{cu}");
    assert_eq!(uses("__ACC_XSINGLE_BEGIN"), 7, "{cu}");
    // A combined construct's loop is its whole region: nothing of it is gang-redundant code
    // for one thread of a block (its reductions are the loop's).
    let (_, cu) = build("combined");
    assert!(
        !cu.lines()
            .any(|l| !l.starts_with('#') && l.contains("__ACC_REDUNDANT_BEGIN")),
        "{cu}"
    );
    // Once-per-gang code beside a gang loop (in a block, or a loop as the whole region):
    // blocks of one thread, for those two kernels only.
    let (info, _) = build("gang-redundant");
    assert_eq!(info.matches("CUDA: one thread a gang").count(), 2, "{info}");
    // Every atomic of the two atomic programs is one location the module compare-and-swaps
    // (or reads or writes whole): the device-wide lock is left to the prelude's fallback for
    // values of other sizes.
    for (stem, updates, captures) in [("atomic", 25, 0), ("atomic-capture", 0, 23)] {
        let (_, cu) = build(stem);
        let kernels = &cu[acc_engine::cuda::PRELUDE.len()..];
        assert!(!kernels.contains("acc_rt_atomic_begin"), "{kernels}");
        let calls = |name: &str| kernels.matches(name).count();
        assert_eq!(
            calls("__ACC_ATOMIC(") + calls("__ACC_ATOMIC_R("),
            updates,
            "{kernels}"
        );
        assert_eq!(
            calls("__ACC_CAPTURE(") + calls("__ACC_CAPTURE_R("),
            captures,
            "{kernels}"
        );
    }
}
