//! `acc cc` on the idioms of programs others write (found running acc on public OpenACC codes
//! and the V&V suite): what the front end and the lowering make of each, run where the answer
//! depends on it, and the diagnostic where acc cannot take it. What comes through the
//! preprocessor (headers, macros, `#if` chains) is `cc_headers.rs`'s; the driver itself (flags,
//! stages, dependency files, links) is `cc.rs`'s.

use std::process::Command;

mod support;
use support::{acc, have_cc, ok, project, stderr, stdout, stdout_on};

/// A jagged array (`double **rows`) is mapped two levels deep, `rows[lo:n][k:m]` (each row's
/// section attached to its row pointer); a third level (`double ***cube`) acc does not map,
/// and says so at the item (never a kernel that follows host row pointers). A section of a
/// contiguous 2-D array is fine.
#[test]
fn a_jagged_array_section_acc_cannot_map_is_an_error_at_the_item() {
    if !have_cc() {
        return;
    }
    let src = "void f(int n, double **rows, double ***cube, double (*grid)[8]) {\n  #pragma acc parallel loop copy(rows[0:n][1:n], cube[0:n][0:n][0:n], grid[0:n][0:8])\n  for (int i = 0; i < n; i++) grid[i][0] = rows[i][1] + cube[i][0][0];\n}\n";
    let dir = project("jagged", &[("jagged.c", src)]);
    let out = acc(&dir).args(["cc", "-c", "jagged.c"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("jagged.c:2:50: error: `cube[0:n][0:n][0:n]` spans rows that are separate allocations (`cube` points to pointers): acc maps two levels"),
        "{err}"
    );
    assert_eq!(err.matches("error:").count(), 1, "{err}");
}

/// In `kernels`, the counter of a loop nested in a parallelized loop, declared before both
/// (`for (i…) for (k = 0; …)`, C89 style, no `private(k)`): acc makes it each iteration's own,
/// as compilers that parallelize such loops do, so the loop is parallelized and correct. (By
/// OpenACC's letter `k` is the region's one copy and the program races; OpenMP would share it,
/// so this is acc's own behaviour, not a conformance program.)
#[test]
fn a_nested_counter_declared_before_a_kernels_loop_is_each_iterations_own() {
    if !have_cc() {
        return;
    }
    let src = "#include <stdio.h>\n#include <stdlib.h>\n#define N 200000\nint main(void) {\n  int i, k, bad = 0;\n  int *a = calloc(N, sizeof(int));\n#pragma acc kernels copy(a[0:N])\n  for (i = 0; i < N; i++) {\n    for (k = 0; k < 8; k++) a[i] += 1;\n  }\n#pragma acc kernels copy(a[0:N])\n  {\n#pragma acc loop independent\n    for (i = 0; i < N; i++)\n      for (k = 0; k < 2; k++) a[i] += 1;\n  }\n  for (i = 0; i < N; i++) bad += a[i] != 10;\n  printf(\"%d\\n\", bad);\n  return bad != 0;\n}\n";
    let dir = project("nested-counter", &[("counter.c", src)]);
    let out = ok(acc(&dir)
        .args(["cc", "--info", "counter.c", "-o", "counter"])
        .output()
        .unwrap());
    let info = stderr(&out);
    assert!(
        info.contains("counter.c:7: kernels region: one kernel; data: copy(a[0:N]), implicit copy(i), implicit copy(k); loop: gang (independent by the dependence test)"),
        "{info}"
    );
    for device in ["host", "host_discrete"] {
        assert_eq!(stdout_on(&dir, "counter", device), "0\n", "{device}");
    }
}

/// A pointer a compute construct assigns before it reads it (`p = buf + 4 * i;` then `p[0]`,
/// Rodinia nn's `rec_iter`) never uses the value it had at the launch, so the launch does not
/// look for a device copy of its target nor warn that there is none; a pointer read before it
/// is assigned still gets the device address of its target, and the warning where there is
/// none.
#[test]
fn a_pointer_assigned_before_it_is_read_needs_no_device_copy_of_its_target() {
    if !have_cc() {
        return;
    }
    let src = "#include <stdio.h>\n#include <string.h>\nint main(void) {\n  char buf[16], spare[4]; char *p = spare; float out[4]; int bad = 0;\n  double a[4] = {1, 2, 3, 4}; double *q = a;\n  strcpy(buf, \"1.5 2.5 3.5 4.5\");\n#pragma acc kernels copyin(buf) copyout(out)\n  for (int i = 0; i < 4; i++) { p = buf + 4 * i; out[i] = (p[0] - '0') + 0.5f; }\n#pragma acc parallel loop copy(a)\n  for (int i = 0; i < 4; i++) { if (i > 8) q = a; q[i] *= 2; }\n  for (int i = 0; i < 4; i++) bad += out[i] != i + 1.5f || a[i] != 2 * (i + 1);\n  char *r = buf;\n#pragma acc parallel loop copyout(out)\n  for (int i = 0; i < 4; i++) { out[i] = r[0]; if (i > 8) r = 0; }\n  printf(\"%d\\n\", bad);\n  return bad != 0;\n}\n";
    let dir = project("pointer-assigned-first", &[("first.c", src)]);
    ok(acc(&dir)
        .args(["cc", "first.c", "-o", "first"])
        .output()
        .unwrap());
    let out = Command::new(dir.join("first"))
        .env("ACC_DEVICE_TYPE", "host_discrete")
        .output()
        .unwrap();
    let out = ok(out);
    assert_eq!(stdout(&out), "0\n");
    let warnings = stderr(&out);
    assert!(!warnings.contains("'p'"), "{warnings}");
    assert!(!warnings.contains("'q'"), "{warnings}");
    assert!(
        warnings.contains("first.c:13: 'r'")
            && warnings.contains("points to memory that is not present"),
        "{warnings}"
    );
}

/// A typedef of a variably modified type (`typedef double row_t[n];`) names the host's `n`:
/// variables declared through it reach kernels as the type it stands for (conformance
/// `vla-typedefs.c`), but a construct's own text naming it is an error saying what to write.
#[test]
fn a_kernel_naming_a_variably_modified_typedef_is_an_error_saying_what_to_write() {
    if !have_cc() {
        return;
    }
    let src = "void f(int n, double *p) {\n  typedef double row_t[n];\n  row_t *a = (row_t *)p;\n#pragma acc parallel loop copy(a[0:4])\n  for (int i = 0; i < 4; i++) {\n    row_t *r = a + i;\n    r[0][0] = 1;\n  }\n}\n";
    let dir = project("vm-typedef", &[("vm.c", src)]);
    let out = acc(&dir).args(["cc", "-c", "vm.c"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("vm.c:6:5: error: a compute construct cannot name `row_t`, a typedef of a variably modified type"),
        "{err}"
    );
    assert!(
        err.contains("`row_t` is `double [n]`: write the type out inside the construct (a pointer to it is `double (*)[n]`)"),
        "{err}"
    );
    assert_eq!(err.matches("error:").count(), 1, "{err}");
}

/// acc gives each gang its copy of a section of a pointer's target in `private` and
/// `firstprivate`, and of a whole array for a section of one; a section of rows behind
/// pointers is an error at the item.
#[test]
fn a_private_section_acc_cannot_give_each_gang_is_an_error_at_the_item() {
    if !have_cc() {
        return;
    }
    let src = "void f(int n, double **q, double *p) {\n  double arr[100];\n  #pragma acc parallel private(arr[0:n], p[0:n]) firstprivate(q[0:n][0:4])\n  { arr[0] = 1; q[0][0] = 2; p[0] = 3; }\n}\n";
    let dir = project("private_section", &[("ps.c", src)]);
    let out = acc(&dir).args(["cc", "-c", "ps.c"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("ps.c:3:63: error: `q[0:n][0:4]`: acc gives each gang its copy of an array, or of a section of a pointer's target (`p[lo:n]`), not of rows behind pointers"),
        "{err}"
    );
    assert_eq!(err.matches("error:").count(), 1, "{err}");
}

/// A parameter declared `double x[]` is a pointer with no size: a data clause that names it
/// whole is an error that asks for a section (never an 8-byte map of the pointer).
#[test]
fn an_unsized_array_parameter_named_whole_asks_for_a_section() {
    if !have_cc() {
        return;
    }
    let src = "void f(int n, double x[]) {\n  #pragma acc parallel loop copy(x)\n  for (int i = 0; i < n; i++) x[i] = i;\n}\n";
    let dir = project("array-param", &[("param.c", src)]);
    let out = acc(&dir).args(["cc", "-c", "param.c"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("param.c:2:34: error: `x` is a pointer: the parameter was declared `x[]`")
            && err.contains("name a section, as in `x[0:n]`"),
        "{err}"
    );
}

/// An `atomic` whose statement acc cannot read (a macro stands for it) takes the GPU's lock,
/// which does not exclude another `atomic`'s compare-and-swap on the same variable: a warning
/// says so, once, at the locked one; a variable only the lock updates is fine.
#[test]
fn a_locked_atomic_beside_a_compare_and_swap_on_its_variable_is_a_warning() {
    if !have_cc() {
        return;
    }
    let src = "#define BUMP(x) x++\nvoid f(int *n, int *m) {\n  #pragma acc parallel loop copy(n[0:1], m[0:1])\n  for (int i = 0; i < 100; i++) {\n    #pragma acc atomic update\n    BUMP(n[0]);\n    #pragma acc atomic update\n    n[0] += 2;\n    #pragma acc atomic update\n    BUMP(m[0]);\n  }\n}\n";
    let dir = project("mixed-atomics", &[("mixed.c", src)]);
    let out = ok(acc(&dir).args(["cc", "-c", "mixed.c"]).output().unwrap());
    let err = stderr(&out);
    assert!(
        err.contains("mixed.c:5:17: warning: on a GPU this `atomic` takes the device's lock"),
        "{err}"
    );
    assert!(
        err.contains("compare-and-swap on `n` of the `atomic` at line 7"),
        "{err}"
    );
    assert_eq!(err.matches("warning:").count(), 1, "{err}");
}

/// A file another tool generated says with `#line` where its lines come from (a parser
/// generator's actions, a template expander): `--info`, the runtime's messages and the C
/// compiler's all name that file and line, as for any other code of the file.
#[test]
fn a_generated_files_line_directives_name_the_places_acc_reports() {
    if !have_cc() {
        return;
    }
    let src = "#include <stdio.h>\nstatic double a[8];\nint main(void) {\n#line 40 \"grammar.y\"\n  for (int r = 0; r < 2; r++) {\n#pragma acc parallel loop copy(a[0:8])\n    for (int i = 0; i < 8; i++) a[i] += i;\n  }\n#line 12 \"main.c\"\n  printf(\"%g\\n\", a[7]);\n#pragma acc update self(a[0:8])\n  return 0;\n}\n";
    let dir = project("line-directives", &[("gen.c", src)]);
    let out = ok(acc(&dir)
        .args(["cc", "--info", "gen.c", "-o", "gen"])
        .output()
        .unwrap());
    let info = stderr(&out);
    assert!(
        info.contains("grammar.y:41: parallel region: one kernel; data: copy(a[0:8])"),
        "{info}"
    );
    assert!(info.contains("main.c:13: update: "), "{info}");
    let out = Command::new(dir.join("gen"))
        .env("ACC_DEVICE_TYPE", "host_discrete")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("main.c:13") && err.contains("not present"),
        "the update names the place its #line gives: {err}"
    );
}

/// A portability header's empty macros (a qualifier or `inline` the compiler may lack,
/// defined away) stand before a parameter's type: the kernel's copy of the parameter keeps
/// its type (LQCD codes write `#define __restrict`; acc read `Q vec *v` as a `Q` and wrote a
/// kernel the C compiler refused).
#[test]
fn empty_macros_before_a_type_leave_the_type_alone() {
    if !have_cc() {
        return;
    }
    let port = "#ifndef PORT_H\n#define PORT_H\n#define RESTRICT\n#define INLINE\n#endif\n";
    let main = "#include <stdio.h>\n#include \"port.h\"\n#define QUAL\ntypedef struct { double c[100]; } vec;\nstatic INLINE double sum(RESTRICT vec *const v, QUAL const int n) {\n  double s = 0.0;\n#pragma acc kernels present(v[0:1])\n#pragma acc loop reduction(+:s)\n  for (int i = 0; i < n; i++) s += v->c[i];\n  return s;\n}\nint main(void) {\n  static vec a;\n  for (int i = 0; i < 100; i++) a.c[i] = i;\n  vec *p = &a;\n  double s;\n#pragma acc data copyin(p[0:1])\n  s = sum(p, 100);\n  printf(\"%g\\n\", s);\n  return s != 4950.0;\n}\n";
    let dir = project("empty-macros", &[("port.h", port), ("main.c", main)]);
    let out = ok(acc(&dir)
        .args(["cc", "main.c", "-o", "main"])
        .output()
        .unwrap());
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    for device in ["host", "host_discrete"] {
        assert_eq!(stdout_on(&dir, "main", device), "4950\n", "{device}");
    }
}

/// A function called in a compute construct without a `routine` directive is a routine
/// implicitly (OpenACC 3.3 2.15.1); one that reads a global no `declare` gives a device copy
/// has no device version, which `--info` says (and a GPU launch then names), as for an
/// explicit routine; on the CPU devices it runs.
#[test]
fn an_implicit_routine_reading_an_undeclared_global_is_explained() {
    if !have_cc() {
        return;
    }
    let src = "#include <stdio.h>
static double scale = 2.0;
static double get(int i) { return scale * i; }
               int main(void) {
  double a[100];
#pragma acc parallel loop copyout(a)
                 for (int i = 0; i < 100; i++) a[i] = get(i);
  printf(\"%g\\n\", a[99]);
  return 0;
}
";
    let dir = project("implicit-routine-global", &[("irg.c", src)]);
    let out = ok(acc(&dir)
        .args(["cc", "--info", "irg.c", "-o", "irg"])
        .output()
        .unwrap());
    assert!(
        stderr(&out).contains(
            "irg.c:3: no CUDA version: the routine uses the file-scope variable `scale`, which \
             no `declare` directive gives a device copy"
        ),
        "{}",
        stderr(&out)
    );
    assert_eq!(stdout_on(&dir, "irg", "host_discrete"), "198\n");
}

/// A scalar that every iteration of a `kernels loop independent` assigns, shared by the
/// region and not a reduction (the training materials' `error = fmax(error, …)`): a race the
/// clause asks for, which `acc cc` names with the clause that fixes it; with the reduction
/// there is no warning.
#[test]
fn a_shared_scalar_written_by_an_independent_loop_is_a_warned_race() {
    if !have_cc() {
        return;
    }
    let body = |clause: &str| {
        format!(
            "#include <math.h>\n#include <stdio.h>\nint main(void) {{\n  double a[1000], err = 0;\n  \
             for (int i = 0; i < 1000; i++) a[i] = i % 37;\n  \
             #pragma acc kernels loop independent {clause} copyin(a)\n  \
             for (int i = 0; i < 1000; i++) err = fmax(err, a[i]);\n  \
             printf(\"%g\\n\", err);\n  return 0;\n}}\n"
        )
    };
    let racy = body("");
    let fixed = body("reduction(max:err)");
    let dir = project(
        "shared-scalar-race",
        &[("racy.c", &racy), ("fixed.c", &fixed)],
    );
    let out = ok(acc(&dir)
        .args(["cc", "racy.c", "-o", "racy", "-lm"])
        .output()
        .unwrap());
    let said = stderr(&out);
    assert!(
        said.contains(
            "racy.c:7:34: warning: every iteration of this `independent` loop assigns `err`"
        ) && said.contains("add `reduction(op:err)` (`max` for `err = fmax(err, …)`)"),
        "{said}"
    );
    let out = ok(acc(&dir)
        .args(["cc", "fixed.c", "-o", "fixed", "-lm"])
        .output()
        .unwrap());
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    assert_eq!(stdout_on(&dir, "fixed", "host_discrete"), "36\n");
    // Inside two `independent` loops (the training materials' `loop gang worker` around `loop
    // vector`): said once.
    let nested = "#include <math.h>\ndouble a[64][64], err;\nvoid f(void) {\n  \
                  #pragma acc kernels loop gang independent copyin(a)\n  \
                  for (int i = 0; i < 64; i++)\n    \
                  #pragma acc loop vector independent\n    \
                  for (int j = 0; j < 64; j++) err = fmax(err, a[i][j]);\n}\n";
    std::fs::write(dir.join("nested.c"), nested).unwrap();
    let out = ok(acc(&dir).args(["cc", "-c", "nested.c"]).output().unwrap());
    let said = stderr(&out);
    assert_eq!(said.matches("every iteration of this").count(), 1, "{said}");
    // Under `atomic` the program shares the scalar on purpose: no warning, the count right.
    let counted = "#include <stdio.h>
int main(void) {
  int a[64], n = 0, k = 0;
                     for (int i = 0; i < 64; i++) a[i] = i % 4 == 0;
                     #pragma acc kernels loop independent copyin(a) copy(n, k)
                     for (int i = 0; i < 64; i++)
    if (a[i]) {
      int seen;
                         #pragma acc atomic capture
      seen = n++;
                         #pragma acc atomic update
      k += seen;
    }
                     printf(\"%d %d\\n\", n, k);
  return 0;
}
";
    std::fs::write(dir.join("counted.c"), counted).unwrap();
    let out = ok(acc(&dir)
        .args(["cc", "counted.c", "-o", "counted"])
        .output()
        .unwrap());
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    assert_eq!(stdout_on(&dir, "counted", "host_discrete"), "16 120\n");
}

/// A scalar private to the inner loop where it is written (OpenUH's kernels benchmarks:
/// `loop independent gang` around `loop independent vector private(t)`) races with nothing:
/// no warning. Assigned first in the outer loop's own body too, it is that loop's own
/// iterations' (`DepFacts::iteration_locals`): no warning; read there before it is assigned,
/// it is shared: warned.
#[test]
fn a_scalar_private_to_the_inner_loop_that_writes_it_is_no_race() {
    if !have_cc() {
        return;
    }
    let program = |outer: &str| {
        format!(
            "#include <stdio.h>\ndouble a[4096], b[4096];\nint main(void) {{\n  int i, j, t = 0;\n  \
             for (i = 0; i < 4096; i++) a[i] = i;\n  \
             #pragma acc kernels copyin(a) copyout(b)\n  {{\n  \
             #pragma acc loop independent gang\n  for (j = 0; j < 64; j++) {{\n    {outer}\n    \
             #pragma acc loop independent vector private(t)\n    \
             for (i = 0; i < 64; i++) {{ t = j * 64 + i; b[t] = 2 * a[t]; }}\n  }}\n  }}\n  \
             for (i = 0; i < 4096; i++) if (b[i] != 2.0 * i) return 1;\n  \
             printf(\"ok\\n\");\n  return 0;\n}}\n"
        )
    };
    let inner = program("");
    let first = program("t = j;");
    let outer = program("b[j] = t; t = j;");
    let dir = project(
        "inner-private-race",
        &[
            ("inner.c", &inner),
            ("first.c", &first),
            ("outer.c", &outer),
        ],
    );
    for own in ["inner", "first"] {
        let out = ok(acc(&dir)
            .args(["cc", &format!("{own}.c"), "-o", own])
            .output()
            .unwrap());
        assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
        assert_eq!(stdout_on(&dir, own, "host_discrete"), "ok\n");
    }
    let out = ok(acc(&dir)
        .args(["cc", "outer.c", "-o", "outer"])
        .output()
        .unwrap());
    assert!(
        stderr(&out).contains("every iteration of this `independent` loop assigns `t`"),
        "{}",
        stderr(&out)
    );
}

/// Another compiler's pragma between a loop directive and its loop (`#pragma GCC ivdep`,
/// OpenARC's `#pragma openarc transform`, `#pragma omp for` in Cray's hybrid examples) is left
/// out with a warning naming it: the directive applies to the loop, on a combined construct and
/// on a `loop` inside a region, and the program gives the right answer. Another statement
/// there is still the directive's error.
#[test]
fn a_foreign_pragma_before_a_directives_loop_is_left_out_and_named() {
    if !have_cc() {
        return;
    }
    let src = "#include <stdio.h>\nint a[100], b[100];\nint main(void) {\n#pragma acc parallel loop copyout(a)\n#pragma GCC ivdep\n  for (int i = 0; i < 100; i++) a[i] = i;\n#pragma acc parallel copyout(b)\n  {\n#pragma acc loop\n#pragma omp for\n    for (int i = 0; i < 100; i++) b[i] = 2 * i;\n  }\n  for (int i = 0; i < 100; i++) if (a[i] != i || b[i] != 2 * i) return 1;\n  printf(\"ok\\n\");\n  return 0;\n}\n";
    let dir = project("foreign-pragma", &[("ivdep.c", src)]);
    let out = ok(acc(&dir)
        .args(["cc", "ivdep.c", "-o", "ivdep"])
        .output()
        .unwrap());
    let err = stderr(&out);
    for at in [
        "ivdep.c:5:1: warning: `#pragma GCC ivdep` between a loop directive and its loop is left out",
        "ivdep.c:10:1: warning: `#pragma omp for` between a loop directive and its loop is left out",
    ] {
        assert!(err.contains(at), "{at}:\n{err}");
    }
    assert_eq!(stdout_on(&dir, "ivdep", "host_discrete"), "ok\n");
    let statement =
        "void f(int *a) {\n#pragma acc parallel loop copyout(a[0:100])\n  a[0] = 1;\n}\n";
    std::fs::write(dir.join("s.c"), statement).unwrap();
    let out = acc(&dir).args(["cc", "-c", "s.c"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

/// A compute construct calling a function with neither a definition in the file nor a
/// `routine` directive (`sscanf` in Rodinia's nn): a warning at the call, since a GPU cannot run
/// it (OpenACC 3.3 2.15.1); math functions, macros and the file's own functions are fine.
#[test]
fn a_call_without_a_device_version_is_warned() {
    if !have_cc() {
        return;
    }
    let src = "#include <stdio.h>\n#include <math.h>\n#define SQ(x) ((x) * (x))\nstatic double half(double x) { return x / 2; }\nint main(void) {\n  double a[10];\n  char buf[10][8];\n  for (int i = 0; i < 10; i++) snprintf(buf[i], 8, \"%d\", i);\n#pragma acc parallel loop copyout(a) copyin(buf)\n  for (int i = 0; i < 10; i++) {\n    int v;\n    sscanf(buf[i], \"%d\", &v);\n    a[i] = SQ(v) + sqrtf(4.0f) + half(fabs(-2.0));\n  }\n  printf(\"%g\\n\", a[9]);\n  return 0;\n}\n";
    let dir = project("no-device-version", &[("nn.c", src)]);
    let out = ok(acc(&dir).args(["cc", "nn.c", "-o", "nn"]).output().unwrap());
    let err = stderr(&out);
    assert!(
        err.contains(
            "nn.c:12:5: warning: `sscanf` has no `routine` directive and no device version"
        ),
        "{err}"
    );
    assert_eq!(err.matches("warning:").count(), 1, "{err}");
    assert_eq!(stdout_on(&dir, "nn", "host_discrete"), "84\n");
}

/// A scalar the `kernels` region writes and reads through a macro's replacement text: the
/// macro cannot reach the device copy the writes go to, so acc says so where the macro is
/// used, rather than give the macro a copy that misses the writes.
#[test]
fn a_written_scalar_read_through_a_macro_is_an_error_not_a_stale_copy() {
    if !have_cc() {
        return;
    }
    let src = "#define AT(a, i) a[(i) * stride]\n\
               int main(void) {\n  double a[64];\n  int stride = 1;\n  \
               #pragma acc kernels copyout(a)\n  {\n    stride = 2;\n    \
               #pragma acc loop independent\n    for (int i = 0; i < 32; i++) AT(a, i) = i;\n  }\n  \
               return a[2] != 1;\n}\n";
    let dir = project("macro-written-scalar", &[("w.c", src)]);
    let out = acc(&dir).args(["cc", "w.c", "-o", "w"]).output().unwrap();
    let said = stderr(&out);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("w.c:9:34: error: `stride` is used here through a macro's replacement text, and the region writes it")
            && said.contains("written here"),
        "{said}"
    );
}

/// A `kernels` region's reduction variable set before its loop: with one kernel a statement
/// the region reads in order (no warning, the right sum); where the region must run as one
/// kernel (a variable declared in one statement is used by the next), each gang has its own
/// copy there, and acc says so.
#[test]
fn a_kernels_reduction_variable_set_before_its_loop() {
    if !have_cc() {
        return;
    }
    let program = |first: &str| {
        format!(
            "#include <stdio.h>\nint main(void) {{\n  double a[100], s = 5;\n  \
             for (int i = 0; i < 100; i++) a[i] = 1;\n  \
             #pragma acc kernels copyin(a) copyout(s)\n  {{\n    {first}\n    \
             #pragma acc loop reduction(+:s)\n    for (int i = 0; i < 100; i++) s += a[i];\n  }}\n  \
             printf(\"%g\\n\", s);\n  return 0;\n}}\n"
        )
    };
    let parts = program("s = 1;");
    let one = program("double start = 1; s = start;");
    let dir = project(
        "kernels-reduction-set",
        &[("parts.c", &parts), ("one.c", &one)],
    );
    let out = ok(acc(&dir)
        .args(["cc", "parts.c", "-o", "parts"])
        .output()
        .unwrap());
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    assert_eq!(stdout_on(&dir, "parts", "host_discrete"), "101\n");
    let out = ok(acc(&dir)
        .args(["cc", "one.c", "-o", "one"])
        .output()
        .unwrap());
    assert!(
        stderr(&out).contains(
            "one.c:7:23: warning: `s` is used in the `kernels` region outside its reduction loop, \
             and the region runs as one kernel"
        ),
        "{}",
        stderr(&out)
    );
}

/// A parameter declared as an array without an extent (`int arr[]`, a pointer) that a
/// `kernels` region copies implicitly: the generated code measures the pointer without the C
/// compiler's `-Wsizeof-array-argument` warning about the user's line.
#[test]
fn an_unsized_array_parameter_draws_no_warning_from_generated_code() {
    if !have_cc() {
        return;
    }
    let src = "#include <stdio.h>\nstatic void twice(int arr[], int n) {\n  \
               #pragma acc kernels\n  for (int i = 0; i < n; i++) arr[i] *= 2;\n}\n\
               int main(void) {\n  int a[100];\n  long s = 0;\n  \
               for (int i = 0; i < 100; i++) a[i] = i;\n  \
               #pragma acc data copy(a)\n  twice(a, 100);\n  \
               for (int i = 0; i < 100; i++) s += a[i];\n  printf(\"%ld\\n\", s);\n  return 0;\n}\n";
    let dir = project("unsized-array-parameter", &[("p.c", src)]);
    let out = ok(acc(&dir)
        .args(["cc", "-Wall", "p.c", "-o", "p"])
        .output()
        .unwrap());
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    assert_eq!(stdout_on(&dir, "p", "host_discrete"), "9900\n");
}

/// A compute construct whose statement is a `loop` directive and its loop, without braces:
/// the calls the function makes before and after the construct are none of the kernel's (no
/// device-version warning, no implicit routine for them).
#[test]
fn calls_around_an_unbraced_construct_are_not_the_kernels() {
    if !have_cc() {
        return;
    }
    let src = "#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n  \
               float *b = malloc(100 * sizeof(float));\n  srand(1);\n  \
               #pragma acc kernels copyout(b[0:100])\n  #pragma acc loop independent\n  \
               for (int i = 0; i < 100; i++) b[i] = i;\n  fflush(stdout);\n  double s = 0;\n  \
               for (int i = 0; i < 100; i++) s += b[i];\n  printf(\"%g\\n\", s);\n  free(b);\n  \
               return 0;\n}\n";
    let dir = project("unbraced-construct-calls", &[("u.c", src)]);
    let out = ok(acc(&dir).args(["cc", "u.c", "-o", "u"]).output().unwrap());
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    assert_eq!(stdout_on(&dir, "u", "host_discrete"), "4950\n");
}

/// A scalar that a `parallel loop` or `serial` construct assigns with no data clause is
/// firstprivate (OpenACC 3.3 2.5.1): the assignment never reaches the host. Where the host reads
/// it after the construct (the training materials' `error = fmax(error, …)` without a
/// reduction), acc says so; a scratch scalar the host assigns afresh draws nothing.
#[test]
fn a_firstprivate_scalar_the_host_reads_after_the_region_is_a_warned_lost_update() {
    if !have_cc() {
        return;
    }
    let src = "#include <math.h>\n#include <stdio.h>\nint main(void) {\n  \
               double a[100], err = 0, t = 0;\n  \
               for (int i = 0; i < 100; i++) a[i] = i % 17;\n  \
               #pragma acc parallel loop copyin(a)\n  \
               for (int i = 0; i < 100; i++) { t = a[i] * 2; err = fmax(err, t); }\n  \
               t = 1;\n  printf(\"%g %g\\n\", err, t);\n  return 0;\n}\n";
    let dir = project("firstprivate-lost-update", &[("l.c", src)]);
    let out = ok(acc(&dir)
        .args(["cc", "l.c", "-o", "l", "-lm"])
        .output()
        .unwrap());
    let said = stderr(&out);
    assert!(
        said.contains("l.c:7:49: warning: `err` is firstprivate in this `parallel loop` construct")
            && said.contains("l.c:9:21: note: read here")
            && !said.contains("`t` is firstprivate"),
        "{said}"
    );
    // Firstprivate as the specification says: the host keeps its own value.
    assert_eq!(stdout_on(&dir, "l", "host_discrete"), "0 1\n");
    // No warning for a loop construct's control variable (private to the loop, whatever the
    // construct's clauses) nor for a later `sizeof`, which reads nothing.
    let quiet = "#include <stdio.h>\nint main(void) {\n  int a[100], j = -1;\n  double y = 0;\n  \
                 #pragma acc parallel loop copyout(a)\n  for (j = 0; j < 100; j++) { y = j; a[j] = j; }\n  \
                 printf(\"%d %zu\\n\", j, sizeof(y));\n  return 0;\n}\n";
    std::fs::write(dir.join("q.c"), quiet).unwrap();
    let out = ok(acc(&dir).args(["cc", "q.c", "-o", "q"]).output().unwrap());
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    // Read by the test of a loop around the construct, when the loop goes round again.
    let again = "int main(void) {\n  int done = 0, it = 0;\n  while (!done && it < 3) {\n    \
                 #pragma acc parallel loop\n    for (int i = 0; i < 100; i++)\n      \
                 if (i == 7) done = 1;\n    it++;\n  }\n  return it;\n}\n";
    std::fs::write(dir.join("w.c"), again).unwrap();
    let out = ok(acc(&dir).args(["cc", "-c", "w.c"]).output().unwrap());
    let said = stderr(&out);
    assert!(
        said.contains(
            "w.c:6:19: warning: `done` is firstprivate in this `parallel loop` construct"
        ) && said.contains("w.c:3:11: note: read here"),
        "{said}"
    );
}

/// `acc_free` of memory that `acc_malloc` returned while another device was current (the
/// program's `acc_init(acc_device_not_host)` came after it): the error names the device the
/// memory is from, not a double free.
#[test]
fn acc_free_of_another_devices_memory_names_that_device() {
    if !have_cc() {
        return;
    }
    let src = "#include <openacc.h>\nint main(void) {\n  void *p = acc_malloc(64);\n  \
               acc_init(acc_device_not_host);\n  acc_free(p);\n  return 0;\n}\n";
    let dir = project("free-other-device", &[("f.c", src)]);
    ok(acc(&dir).args(["cc", "f.c", "-o", "f"]).output().unwrap());
    let out = std::process::Command::new(dir.join("f"))
        .env("ACC_DEVICE_TYPE", "host")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = stderr(&out);
    assert!(
        said.contains("is memory acc_malloc returned on device host 0, not on the current device host-discrete 0"),
        "{said}"
    );
}

/// A `tile` whose sizes are variables (OpenACC 3.3 asks for constants; code written for nvc
/// uses run-time sizes): the kernel gets the variables the sizes name, in `parallel` and in
/// `kernels`.
#[test]
fn tile_sizes_that_name_variables_reach_the_kernel() {
    if !have_cc() {
        return;
    }
    let program = |construct: &str| {
        format!(
            "#include <stdio.h>\nint main(int argc, char **argv) {{\n  \
             int n = 16, ts = argc > 5 ? 4 : 8;\n  double a[256];\n  \
             #pragma acc {construct} loop tile(ts, ts) copyout(a)\n  \
             for (int i = 0; i < n; i++)\n    for (int j = 0; j < n; j++) a[i * n + j] = i + j;\n  \
             for (int i = 0; i < 256; i++) if (a[i] != i / 16 + i % 16) return 1;\n  \
             printf(\"ok\\n\");\n  return 0;\n}}\n"
        )
    };
    let (p, k) = (program("parallel"), program("kernels"));
    let dir = project("tile-variable-sizes", &[("p.c", &p), ("k.c", &k)]);
    for name in ["p", "k"] {
        ok(acc(&dir)
            .args(["cc", &format!("{name}.c"), "-o", name])
            .output()
            .unwrap());
        assert_eq!(stdout_on(&dir, name, "host_discrete"), "ok\n");
    }
}

/// A `routine gang` whose gang loop updates in place, called from a `parallel num_gangs(4)`
/// region: every element is updated once (the gangs share the routine's gang loop), and acc
/// says it runs the region as one gang to give that.
#[test]
fn a_routine_gangs_loop_runs_once_over_its_iterations() {
    if !have_cc() {
        return;
    }
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/conformance/routine-gang-shared.c"),
    )
    .unwrap()
    .replace(
        "#pragma acc parallel copy(m)",
        "#pragma acc parallel copy(m) num_gangs(4)",
    );
    let dir = project("routine-gang-num-gangs", &[("r.c", &src)]);
    let out = ok(acc(&dir).args(["cc", "r.c", "-o", "r"]).output().unwrap());
    assert!(
        stderr(&out).contains("calls `bump_rows`, a `routine gang`")
            && stderr(&out).contains("it runs as one gang"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        stdout_on(&dir, "r", "host_discrete"),
        "routine-gang-shared: ok\n"
    );
}

/// acc translates C: a C++ source with OpenACC directives is an error at its first directive
/// (the C++ compiler would ignore them, with `_OPENACC` defined), whether the directive is a
/// `#pragma` or a `_Pragma`, the language from the extension or from `-x c++`; a C++ source
/// without directives compiles as the compiler compiles it.
#[test]
fn openacc_in_cxx_is_refused_at_the_directive() {
    if !have_cc() {
        return;
    }
    let with = "int f(int *a, int n) {\n  // #pragma acc in a comment is not one\n#pragma acc parallel loop copy(a[0:n])\n  for (int i = 0; i < n; i++) a[i] = i;\n  return 0;\n}\n";
    let operator = "int f(int *a, int n) {\n  _Pragma(\"acc kernels\") for (int i = 0; i < n; i++) a[i] = i;\n  return 0;\n}\n";
    let without = "#pragma once\nint f(int *a, int n) {\n  for (int i = 0; i < n; i++) a[i] = i;\n  return 0;\n}\n";
    let dir = project(
        "cxx-directives",
        &[
            ("m.cpp", with),
            ("o.cc", operator),
            ("x.c", with),
            ("w.cxx", without),
        ],
    );
    for (args, at) in [
        (
            vec!["cc", "-c", "m.cpp"],
            "m.cpp:3:2: error: OpenACC in C++ is not supported",
        ),
        (
            vec!["cc", "-c", "o.cc"],
            "o.cc:2:3: error: OpenACC in C++ is not supported",
        ),
        (
            vec!["cc", "-c", "-x", "c++", "x.c"],
            "x.c:3:2: error: OpenACC in C++ is not supported",
        ),
    ] {
        let out = acc(&dir).args(&args).output().unwrap();
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains(at), "{args:?}:\n{}", stderr(&out));
    }
    ok(acc(&dir).args(["cc", "-c", "x.c"]).output().unwrap());
    // The C++ compiler proper (`cc1plus`) may be missing where `cc` is; not a tool CI needs.
    let cxx = std::process::Command::new("g++")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if cxx {
        let out = ok(acc(&dir).args(["cc", "-c", "w.cxx"]).output().unwrap());
        assert!(!stderr(&out).contains("not supported"), "{}", stderr(&out));
    }
}

/// nvc's `-Msafeptr` (PGI-era Makefiles pass it so that `kernels` loops over pointer
/// arguments run in parallel): every pointer is taken as `restrict` by the dependence test.
/// Without it, the loop stays sequential, saying why; the answer is the same.
#[test]
fn msafeptr_lets_kernels_loops_over_pointers_run_in_parallel() {
    if !have_cc() {
        return;
    }
    let src = "#include <stdio.h>\nvoid axpy(int n, double a, double *x, double *y) {\n#pragma acc kernels copyin(x[0:n]) copy(y[0:n])\n  for (int i = 0; i < n; i++) y[i] += a * x[i];\n}\nint main(void) {\n  double x[100], y[100];\n  for (int i = 0; i < 100; i++) { x[i] = i; y[i] = 1; }\n  axpy(100, 2, x, y);\n  for (int i = 0; i < 100; i++) if (y[i] != 1 + 2.0 * i) return 1;\n  printf(\"ok\\n\");\n  return 0;\n}\n";
    let dir = project("msafeptr", &[("axpy.c", src)]);
    let info = |flags: &[&str]| {
        let out = ok(acc(&dir)
            .args(["cc", "--info", "-o", "axpy"])
            .args(flags)
            .arg("axpy.c")
            .output()
            .unwrap());
        assert_eq!(stdout_on(&dir, "axpy", "host_discrete"), "ok\n");
        stderr(&out)
    };
    let plain = info(&[]);
    assert!(plain.contains("may point to the same data"), "{plain}");
    let safe = info(&["-Msafeptr", "-Minline"]);
    assert!(
        safe.contains("loop: gang (independent by the dependence test)"),
        "{safe}"
    );
    assert!(
        safe.contains("`-Minline` is an nvc option acc does not have"),
        "{safe}"
    );
}
