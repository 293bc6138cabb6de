//! The data-mapping check (`acc_c::check`) on small programs: where it must stay silent
//! (no false positives: calls, aliases, `if` clauses, sections it cannot compare, `goto`),
//! and what `verbose` says there. The corpus of seeded bugs is `tests/check` (run through
//! the `acc` binary by acc-cli's tests).

use acc_engine::check_data::Options;

fn findings(src: &str) -> Vec<String> {
    let checked = acc_c::check::check_source(src, &Options { verbose: true });
    assert!(
        !checked.diags.iter().any(|d| d.is_error()),
        "{:?}",
        checked.diags
    );
    checked
        .report
        .findings
        .iter()
        .map(|d| {
            let (l, c) = acc_c::render::line_col(src, d.span.start);
            format!("{l}:{c}: {}", d.message)
        })
        .collect()
}

fn unknown(src: &str) -> Vec<String> {
    acc_c::check::check_source(src, &Options { verbose: true })
        .report
        .unknown
        .into_iter()
        .map(|u| u.1)
        .collect()
}

const BUG: &str = "
void f(void) {
  double a[8];
  for (int i = 0; i < 8; i++) a[i] = i;
  #pragma acc data create(a)
  {
    #pragma acc parallel loop
    for (int i = 0; i < 8; i++) a[i] = 2 * i;
  }
  double x = a[3];
  (void)x;
}
";

#[test]
fn the_plain_bug_is_found() {
    assert_eq!(
        findings(BUG),
        ["10:14: the host reads `a`, which the device changed, with no transfer back"]
    );
}

#[test]
fn a_call_that_may_touch_the_data_silences_it() {
    let src = BUG.replace("  double x", "  sync_back(a);\n  double x");
    assert!(findings(&src).is_empty());
    assert!(
        unknown(&src)
            .iter()
            .any(|u| u.contains("aliased or passed")),
        "{:?}",
        unknown(&src)
    );
}

#[test]
fn an_alias_silences_it() {
    let src = BUG.replace("  double x", "  double *p = a;\n  (void)p;\n  double x");
    assert!(findings(&src).is_empty());
}

#[test]
fn goto_silences_the_function() {
    let src = BUG.replace("  double x", "  goto out;\nout:;\n  double x");
    assert!(findings(&src).is_empty());
    assert!(unknown(&src).iter().any(|u| u.contains("goto")));
}

#[test]
fn a_transfer_under_an_if_clause_is_trusted() {
    // `update self(a) if(c)`: the read may be guarded by the same condition.
    let src = BUG.replace(
        "  }\n  double x",
        "    #pragma acc update self(a) if(c)\n  }\n  double x",
    );
    let src = src.replace("void f(void)", "void f(int c)");
    assert!(findings(&src).is_empty(), "{:?}", findings(&src));
}

#[test]
fn present_under_an_if_clause_is_not_an_error() {
    let src = "
void f(int c) {
  double a[8];
  #pragma acc parallel loop present(a) if(c)
  for (int i = 0; i < 8; i++) a[i] = i;
}
";
    assert!(findings(src).is_empty(), "{:?}", findings(src));
}

#[test]
fn sections_it_cannot_compare_say_nothing() {
    let src = "
#include <stdlib.h>
void f(int n, int m) {
  double *a = malloc(n * sizeof *a);
  for (int i = 0; i < n; i++) a[i] = 0;
  #pragma acc enter data copyin(a[0:n])
  // Whether this copy's count reaches zero depends on m against n.
  #pragma acc parallel loop copy(a[0:m])
  for (int i = 0; i < m; i++) a[i] = i;
  #pragma acc exit data delete(a[0:n])
  double x = a[0];
  (void)x;
}
";
    assert!(findings(src).is_empty(), "{:?}", findings(src));
    assert!(
        unknown(src).iter().any(|u| u.contains("another section")),
        "{:?}",
        unknown(src)
    );
}

#[test]
fn a_parameter_may_be_present_already() {
    // The caller may have mapped `p`: `present` is no error, `copyout` may move nothing.
    let src = "
void f(double *p, int n) {
  #pragma acc parallel loop present(p[0:n])
  for (int i = 0; i < n; i++) p[i] = i;
  #pragma acc parallel loop copy(p[0:n])
  for (int i = 0; i < n; i++) p[i] += 1;
}
";
    assert!(findings(src).is_empty(), "{:?}", findings(src));
}

#[test]
fn a_kernel_that_writes_before_it_reads_reads_its_own_values() {
    let src = "
void f(void) {
  double t[8], out[8];
  #pragma acc data create(t) copyout(out)
  {
    #pragma acc parallel loop
    for (int i = 0; i < 8; i++) { t[i] = i; out[i] = t[i] * 2; }
  }
}
";
    assert!(findings(src).is_empty(), "{:?}", findings(src));
}

#[test]
fn the_skeleton_is_only_built_for_the_check() {
    // Analysing for anything else leaves `Unit::flow` empty: nothing else changes.
    let a = acc_c::analyze_for(BUG, acc_c::TypeEnv::default(), None);
    assert!(a.unit.flow.is_empty());
}

#[test]
fn no_create_of_absent_data_uses_the_host_memory() {
    let src = "
void f(int n) {
  double a[100];
  #pragma acc data no_create(a[0:n])
  {
    #pragma acc parallel
    {
      a[0] = 1;
    }
  }
  double x = a[0];
  (void)x;
}
";
    assert!(findings(src).is_empty(), "{:?}", findings(src));
}

#[test]
fn comparing_a_pointer_keeps_it_followed() {
    let src = "
#include <stdlib.h>
void f(void) {
  double *a = malloc(8 * sizeof *a);
  if (a == NULL || !a) return;
  #pragma acc data create(a[0:8])
  {
    #pragma acc parallel loop
    for (int i = 0; i < 8; i++) a[i] = i;
  }
  double x = a[3];
  (void)x;
}
";
    assert_eq!(
        findings(src),
        ["11:14: the host reads `a`, which the device changed, with no transfer back"]
    );
}

#[test]
fn statements_under_conditional_compilation_silence_the_function() {
    let src = BUG.replace(
        "  double x",
        "#ifdef NEVER_DEFINED\n  a[0] = 1;\n#endif\n  double x",
    );
    assert!(findings(&src).is_empty(), "{:?}", findings(&src));
}

#[test]
fn a_section_within_the_present_one_is_the_same_data() {
    // `a` whole, then `a[0:4]`; `b[0:8]`, then `b[2:4]`: present, so the inner copies
    // move nothing and the host's reads are stale.
    let src = "
void f(void) {
  double a[8], b[8];
  #pragma acc data copyin(a, b[0:8])
  {
    #pragma acc parallel loop copy(a[:4], b[2:4])
    for (int i = 0; i < 4; i++) { a[i] = i; b[i + 2] = i; }
    double x = a[1] + b[3];
    (void)x;
  }
}
";
    assert_eq!(
        findings(src),
        [
            "8:16: the host reads `a`, which the device changed, with no transfer back",
            "8:23: the host reads `b`, which the device changed, with no transfer back"
        ]
    );
}

#[test]
fn an_endless_loop_leaves_only_by_break() {
    let src = "
void f(void) {
  double a[8];
  #pragma acc data copyin(a)
  {
    #pragma acc parallel loop
    for (int i = 0; i < 8; i++) a[i] = i;
    while (1) {
      #pragma acc update self(a)
      if (a[0] >= 0) break;
    }
    double x = a[3];
    (void)x;
  }
}
";
    assert!(findings(src).is_empty(), "{:?}", findings(src));
}

#[test]
fn a_kept_result_may_alias_the_arguments() {
    // `d` is the device address of `h`'s data: writes through it define that data.
    let src = "
void *acc_create(void *, unsigned long);
void f(void) {
  double h[8];
  double *d = (double *)acc_create(h, sizeof h);
  #pragma acc parallel loop deviceptr(d)
  for (int i = 0; i < 8; i++) d[i] = i;
  #pragma acc update self(h)
}
";
    assert!(findings(src).is_empty(), "{:?}", findings(src));
}

#[test]
fn a_pointer_members_value_is_not_the_data_it_points_to() {
    // `s.arr != keep` reads the pointer in `s`, not the section of what it points to that the
    // kernel changed and that goes back only at the `exit data`.
    let src = "
struct v { int n; double *arr; };
void f(double *keep) {
  struct v s;
  s.n = 8;
  s.arr = keep;
  #pragma acc enter data copyin(s.arr[0:8])
  #pragma acc parallel loop
  for (int i = 0; i < 8; i++) s.arr[i] *= 2;
  int moved = s.arr != keep;
  #pragma acc exit data copyout(s.arr[0:8])
  (void)moved;
}
";
    assert!(findings(src).is_empty(), "{:?}", findings(src));
}

/// A row of a 2-D array (`m[r]`, an array, whose value is its address) read in a kernel that
/// only writes through it is no read of the uninitialized device copy; an element is.
#[test]
fn a_row_of_an_array_is_its_address_not_a_read() {
    let src = |body: &str| {
        format!(
            "int main(void) {{\n  static double m[4][8];\n  #pragma acc parallel loop copyout(m)\n  for (int r = 0; r < 4; r++) {{\n    {body}\n  }}\n  return (int)m[0][0];\n}}\n"
        )
    };
    let row = src("double *e = m[r];\n    e[0] = r;");
    assert!(findings(&row).is_empty(), "{:?}", findings(&row));
    assert_eq!(findings(&src("double x = m[r][1];\n    (void)x;")).len(), 1);
}

/// A function-like macro may assign what it is given (`BUMP(n)` for `n = n + 1`): a kernel
/// using one writes the variable, as far as the check can tell.
#[test]
fn a_function_like_macro_may_write_its_arguments() {
    let src = "#define BUMP(x) x = x + 1\nint main(void) {\n  long n = 0;\n  #pragma acc parallel loop copy(n)\n  for (int i = 0; i < 4; i++) {\n    #pragma acc atomic update\n    BUMP(n);\n  }\n  return (int)n;\n}\n";
    assert!(findings(src).is_empty(), "{:?}", findings(src));
}
