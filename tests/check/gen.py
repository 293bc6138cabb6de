# Writes the corpus: each entry is (name, description, bug source, fixed source).
# Kept in the tree so the pairs stay side by side; run `python3 gen.py` to rewrite them.
import os
H = "#include <stdio.h>\n#include <stdlib.h>\n#define N 100\n"
C = {}
def case(name, desc, bug, fix):
    C[name] = (desc, bug, fix)

case("create_no_copyout", "create where the host reads the result: missing copyout", """
int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc data copyin(a) create(b)
  {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) b[i] = 2 * a[i];
  }
  printf("%f\\n", b[10]);
  return 0;
}
""", None)
C["create_no_copyout"] = (C["create_no_copyout"][0], C["create_no_copyout"][1], C["create_no_copyout"][1].replace("create(b)", "copyout(b)"))

def sub(name, desc, bug, *pairs):
    fix = bug
    for a, b in pairs:
        assert a in fix, (name, a)
        fix = fix.replace(a, b, 1)
    case(name, desc, bug, fix)

sub("copyin_no_copyout", "copyin of an array the kernel writes and the host reads after", """
int main(void) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc parallel loop copyin(a)
  for (int i = 0; i < N; i++) a[i] = a[i] * 2;
  printf("%f\\n", a[10]);
  return 0;
}
""", ("copyin(a)", "copy(a)"))

sub("global_host_write_no_update", "a file-scope array the host changes inside the data region, read by the kernel with no update", """
static double b[N], o[N];
int main(void) {
  for (int i = 0; i < N; i++) b[i] = i;
  #pragma acc data copyin(b) copyout(o)
  {
    b[0] = 100;
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) o[i] = b[0] + b[i];
  }
  printf("%f\\n", o[10]);
  return 0;
}
""", ("    b[0] = 100;\n", "    b[0] = 100;\n    #pragma acc update device(b[0:1])\n"))

sub("rows_copyout_read_modify", "copyout of a heap 2-D array (a pointer to rows, passed as `double D[N][N]`) whose old values the kernel reads", """
static void scale(double D[N][N]) {
  #pragma acc data copyout(D)
  {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) D[i][j] *= 2.0;
  }
}
int main(void) {
  double (*D)[N] = calloc(N, sizeof *D);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) D[i][j] = i + j;
  scale(D);
  printf("%f\\n", D[1][2]);
  free(D);
  return 0;
}
""", ("copyout(D)", "copy(D)"))

sub("inner_copy_outer_region", "reference counts: the inner copy moves nothing, the outer region holds the data", """
int main(void) {
  double c[N];
  for (int i = 0; i < N; i++) c[i] = 0;
  #pragma acc data copyin(c)
  {
    #pragma acc parallel loop copy(c)
    for (int i = 0; i < N; i++) c[i] += 1;
    printf("%f\\n", c[10]);
  }
  return 0;
}
""", ("    printf(", "    #pragma acc update self(c)\n    printf("))

sub("enter_data_holds_copy", "reference counts: enter data keeps the array present, so the region's copy moves nothing back", """
int main(void) {
  double *a = malloc(N * sizeof *a);
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:N])
  #pragma acc data copy(a[0:N])
  {
    #pragma acc parallel loop present(a[0:N])
    for (int i = 0; i < N; i++) a[i] += 1;
  }
  printf("%f\\n", a[3]);
  #pragma acc exit data delete(a[0:N])
  free(a);
  return 0;
}
""", ("  printf(\"%f\\n\", a[3]);\n  #pragma acc exit data delete(a[0:N])", "  #pragma acc exit data copyout(a[0:N])\n  printf(\"%f\\n\", a[3]);"))

sub("host_write_in_region", "the host changes an array inside a data region; the kernel reads the old device copy", """
int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc data copyin(a) copyout(b)
  {
    for (int i = 0; i < N; i++) a[i] = 2 * i;
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) b[i] = a[i] + 1;
  }
  printf("%f\\n", b[1]);
  return 0;
}
""", ("    #pragma acc parallel loop\n", "    #pragma acc update device(a)\n    #pragma acc parallel loop\n"))

sub("host_write_after_enter", "enter data, then a host write, then a present kernel reads the stale copy", """
int main(void) {
  double *x = malloc(N * sizeof *x), s = 0;
  for (int i = 0; i < N; i++) x[i] = 1;
  #pragma acc enter data copyin(x[0:N])
  x[0] = 100;
  #pragma acc parallel loop present(x[0:N]) reduction(+:s)
  for (int i = 0; i < N; i++) s += x[i];
  #pragma acc exit data delete(x[0:N])
  printf("%f\\n", s);
  free(x);
  return 0;
}
""", ("  x[0] = 100;\n", "  x[0] = 100;\n  #pragma acc update device(x[0:N])\n"))

sub("create_then_read", "create, then a kernel reads device memory nothing wrote", """
int main(void) {
  double t[N], out[N];
  for (int i = 0; i < N; i++) t[i] = i;
  #pragma acc data create(t) copyout(out)
  {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) out[i] = t[i] * 2;
  }
  printf("%f\\n", out[5]);
  return 0;
}
""", ("create(t)", "copyin(t)"))

sub("copyout_read_modify", "copyout of an array the kernel updates in place: it reads uninitialized device memory", """
int main(void) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc parallel loop copyout(a)
  for (int i = 0; i < N; i++) a[i] += 1;
  printf("%f\\n", a[5]);
  return 0;
}
""", ("copyout(a)", "copy(a)"))

sub("present_never_mapped", "present of an array nothing mapped", """
int main(void) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc parallel loop present(a)
  for (int i = 0; i < N; i++) a[i] += 1;
  printf("%f\\n", a[5]);
  return 0;
}
""", ("present(a)", "copy(a)"))

sub("exit_never_entered", "exit data of data never entered", """
int main(void) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc parallel loop copy(a)
  for (int i = 0; i < N; i++) a[i] += 1;
  #pragma acc exit data copyout(a)
  printf("%f\\n", a[5]);
  return 0;
}
""", ("  #pragma acc exit data copyout(a)\n", ""))

sub("present_after_delete", "exit data delete, then a kernel that expects the data present", """
int main(void) {
  double *a = malloc(N * sizeof *a);
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:N])
  #pragma acc exit data delete(a[0:N])
  #pragma acc parallel loop present(a[0:N])
  for (int i = 0; i < N; i++) a[i] += 1;
  printf("%f\\n", a[5]);
  free(a);
  return 0;
}
""", ("  #pragma acc exit data delete(a[0:N])\n", ""), ("  printf(", "  #pragma acc exit data copyout(a[0:N])\n  printf("))

sub("update_not_present", "update self of data that is not present", """
int main(void) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc parallel loop copy(a)
  for (int i = 0; i < N; i++) a[i] += 1;
  #pragma acc update self(a)
  printf("%f\\n", a[5]);
  return 0;
}
""", ("  #pragma acc update self(a)\n", ""))

sub("loop_update_device_sometimes", "a loop changes the array on the host every iteration but updates the device only on even ones", """
int main(void) {
  double a[N], s = 0;
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc data copyin(a)
  for (int it = 0; it < 10; it++) {
    a[it] = -1;
    if (it % 2 == 0) {
      #pragma acc update device(a)
    }
    #pragma acc parallel loop reduction(+:s)
    for (int i = 0; i < N; i++) s += a[i];
  }
  printf("%f\\n", s);
  return 0;
}
""", ("    if (it % 2 == 0) {\n      #pragma acc update device(a)\n    }\n", "    #pragma acc update device(a)\n"))

sub("loop_update_self_sometimes", "a loop reads the result on the host every iteration but updates it only every tenth", """
int main(void) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = 0;
  #pragma acc data copy(a)
  for (int it = 0; it < 100; it++) {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) a[i] += 1;
    if (it % 10 == 0) {
      #pragma acc update self(a)
    }
    printf("%d %f\\n", it, a[0]);
  }
  return 0;
}
""", ("    if (it % 10 == 0) {\n      #pragma acc update self(a)\n    }\n", "    #pragma acc update self(a)\n"))

sub("async_update_no_wait", "update self async, then the host reads without a wait", """
int main(void) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = 0;
  #pragma acc data copy(a)
  {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) a[i] = i;
    #pragma acc update self(a) async(1)
    printf("%f\\n", a[7]);
  }
  return 0;
}
""", ("async(1)\n", "async(1)\n    #pragma acc wait(1)\n"))

sub("async_exit_no_wait", "exit data copyout async, then the host reads without a wait", """
int main(void) {
  double *a = malloc(N * sizeof *a);
  for (int i = 0; i < N; i++) a[i] = 0;
  #pragma acc enter data copyin(a[0:N])
  #pragma acc parallel loop present(a[0:N])
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc exit data copyout(a[0:N]) async(2)
  printf("%f\\n", a[7]);
  free(a);
  return 0;
}
""", ("async(2)\n", "async(2)\n  #pragma acc wait(2)\n"))

sub("pointer_section_delete", "a pointer's section created and deleted with enter/exit data; the results never come back", """
void scale(double *p, int n);
int main(void) {
  int n = N;
  double *p = malloc(n * sizeof *p);
  #pragma acc enter data create(p[0:n])
  #pragma acc parallel loop present(p[0:n])
  for (int i = 0; i < n; i++) p[i] = i * 0.5;
  #pragma acc exit data delete(p[0:n])
  printf("%f\\n", p[n - 1]);
  free(p);
  return 0;
}
""", ("exit data delete(p[0:n])", "exit data copyout(p[0:n])"))

sub("pointer_unmapped", "a malloc'ed pointer used in a kernel with no data clause at all", """
int main(void) {
  double *p = malloc(N * sizeof *p), s = 0;
  for (int i = 0; i < N; i++) p[i] = i;
  #pragma acc parallel loop reduction(+:s)
  for (int i = 0; i < N; i++) s += p[i];
  printf("%f\\n", s);
  free(p);
  return 0;
}
""", ("reduction(+:s)", "copyin(p[0:N]) reduction(+:s)"))

sub("struct_member", "a struct member's section (deep copy): the kernel writes it, nothing copies it back", """
struct vec { int n; double *data; };
int main(void) {
  struct vec v;
  v.n = N;
  v.data = malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) v.data[i] = i;
  #pragma acc enter data copyin(v)
  #pragma acc enter data copyin(v.data[0:N])
  #pragma acc parallel loop present(v)
  for (int i = 0; i < N; i++) v.data[i] *= 2;
  #pragma acc exit data delete(v.data[0:N])
  #pragma acc exit data delete(v)
  printf("%f\\n", v.data[3]);
  free(v.data);
  return 0;
}
""", ("exit data delete(v.data[0:N])", "exit data copyout(v.data[0:N])"))

sub("reduction_into_present", "a reduction into a scalar a data region holds: the result lands in the device copy", """
int main(void) {
  double a[N], sum = 0;
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc data copyin(a) copy(sum)
  {
    #pragma acc parallel loop reduction(+:sum)
    for (int i = 0; i < N; i++) sum += a[i];
    printf("%f\\n", sum);
  }
  return 0;
}
""", ("    printf(", "    #pragma acc update self(sum)\n    printf("))

sub("exit_without_finalize", "two enter data, one exit data copyout: the count stays at one and nothing is copied", """
int main(void) {
  double *a = malloc(N * sizeof *a);
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:N])
  #pragma acc enter data copyin(a[0:N])
  #pragma acc parallel loop present(a[0:N])
  for (int i = 0; i < N; i++) a[i] += 1;
  #pragma acc exit data copyout(a[0:N])
  printf("%f\\n", a[3]);
  free(a);
  return 0;
}
""", ("exit data copyout(a[0:N])", "exit data copyout(a[0:N]) finalize"))

sub("switch_missing_update", "one case of a switch forgets the update before the host reads", """
int main(int argc, char **argv) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = 0;
  #pragma acc data copy(a)
  {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) a[i] = i;
    switch (argc) {
    case 1:
      #pragma acc update self(a)
      break;
    case 2:
      break;
    default:
      #pragma acc update self(a)
    }
    printf("%f\\n", a[2]);
  }
  return 0;
}
""", ("    case 2:\n      break;", "    case 2:\n      #pragma acc update self(a)\n      break;"))

sub("while_break_skips_update", "a loop left by break on a path that skips the update", """
int main(void) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = 0;
  int it = 0;
  #pragma acc data copy(a)
  {
    while (1) {
      #pragma acc parallel loop
      for (int i = 0; i < N; i++) a[i] += 1;
      if (++it > 5) break;
      #pragma acc update self(a)
    }
    printf("%f\\n", a[0]);
  }
  return 0;
}
""", ("      if (++it > 5) break;\n      #pragma acc update self(a)\n", "      #pragma acc update self(a)\n      if (++it > 5) break;\n"))

sub("update_device_unchanged", "update device of data the host did not change (warning)", """
int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc data copyin(a) copyout(b)
  {
    #pragma acc update device(a)
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) b[i] = a[i];
  }
  printf("%f\\n", b[3]);
  return 0;
}
""", ("    #pragma acc update device(a)\n", ""))

sub("update_self_unchanged", "update self of data the device did not change (warning)", """
int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc data copyin(a) copyout(b)
  {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) b[i] = a[i];
    #pragma acc update self(a)
  }
  printf("%f %f\\n", a[3], b[3]);
  return 0;
}
""", ("    #pragma acc update self(a)\n", ""))

sub("copy_where_copyin", "copy of an input the device only reads (warning)", """
int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc parallel loop copy(a) copyout(b)
  for (int i = 0; i < N; i++) b[i] = 2 * a[i];
  printf("%f\\n", b[3]);
  return 0;
}
""", ("copy(a)", "copyin(a)"))

sub("enter_create_read", "enter data create, then a kernel reads what nothing wrote", """
int main(void) {
  double *a = malloc(N * sizeof *a), s = 0;
  for (int i = 0; i < N; i++) a[i] = 1;
  #pragma acc enter data create(a[0:N])
  #pragma acc parallel loop present(a[0:N]) reduction(+:s)
  for (int i = 0; i < N; i++) s += a[i];
  #pragma acc exit data delete(a[0:N])
  printf("%f\\n", s);
  free(a);
  return 0;
}
""", ("enter data create(a[0:N])", "enter data copyin(a[0:N])"))

sub("update_self_of_created", "update self of device memory nothing wrote overwrites the host's data", """
int main(void) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc data create(a)
  {
    #pragma acc update self(a)
  }
  printf("%f\\n", a[3]);
  return 0;
}
""", ("create(a)", "copyin(a)"), ("    #pragma acc update self(a)\n", "    #pragma acc parallel loop\n    for (int i = 0; i < N; i++) a[i] += 1;\n    #pragma acc update self(a)\n"))

sub("kernels_scalar_in_region", "a scalar the kernels region writes inside a data region that only copies it in", """
int main(void) {
  double a[N];
  int count = 0;
  for (int i = 0; i < N; i++) a[i] = i - 50;
  #pragma acc data copyin(a, count)
  {
    #pragma acc kernels
    {
      for (int i = 0; i < N; i++)
        if (a[i] > 0) count = i;
    }
  }
  printf("%d\\n", count);
  return 0;
}
""", ("copyin(a, count)", "copyin(a) copy(count)"))

sub("host_write_between_kernels", "a temporary created on the device, changed by the host between two kernels", """
int main(void) {
  double t[N], out[N];
  #pragma acc data create(t) copyout(out)
  {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) t[i] = i;
    t[0] = -1;
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) out[i] = t[i];
  }
  printf("%f\\n", out[0]);
  return 0;
}
""", ("    t[0] = -1;\n", "    #pragma acc serial\n    t[0] = -1;\n"))

sub("caller_enters_callee_writes", "a function enters data for its caller; the caller's kernel writes and nothing copies back", """
static void open_data(double *p, int n) {
  #pragma acc enter data create(p[0:n])
}
static void close_data(double *p, int n) {
  #pragma acc exit data delete(p[0:n])
}
int main(void) {
  double *p = malloc(N * sizeof *p);
  open_data(p, N);
  #pragma acc parallel loop present(p[0:N])
  for (int i = 0; i < N; i++) p[i] = i;
  close_data(p, N);
  printf("%f\\n", p[4]);
  free(p);
  return 0;
}
""", ("  close_data(p, N);\n", "  #pragma acc update self(p[0:N])\n  close_data(p, N);\n"))

sub("helper_kernel_no_update", "a helper runs the kernel on data its caller entered; the caller reads without an update", """
static void scale(double *p, int n) {
  #pragma acc parallel loop present(p[0:n])
  for (int i = 0; i < n; i++) p[i] *= 2;
}
int main(void) {
  double *p = malloc(N * sizeof *p);
  for (int i = 0; i < N; i++) p[i] = i;
  #pragma acc enter data copyin(p[0:N])
  scale(p, N);
  printf("%f\\n", p[3]);
  #pragma acc exit data delete(p[0:N])
  free(p);
  return 0;
}
""", ("  printf(", "  #pragma acc update self(p[0:N])\n  printf("))

sub("helper_expects_present", "a helper's kernel expects its argument present; the caller never maps it", """
static void scale(double *p, int n) {
  #pragma acc parallel loop present(p[0:n])
  for (int i = 0; i < n; i++) p[i] *= 2;
}
int main(void) {
  double *p = malloc(N * sizeof *p);
  for (int i = 0; i < N; i++) p[i] = i;
  scale(p, N);
  printf("%f\\n", p[3]);
  free(p);
  return 0;
}
""", ("  scale(p, N);\n", "  #pragma acc data copy(p[0:N])\n  scale(p, N);\n"))

sub("api_copyin_then_delete", "the API's acc_copyin and acc_delete around a kernel that writes the data: nothing copies it back", """
void *acc_copyin(void *, unsigned long);
void acc_delete(void *, unsigned long);
void acc_copyout(void *, unsigned long);
int main(void) {
  double *a = malloc(N * sizeof *a);
  for (int i = 0; i < N; i++) a[i] = i;
  acc_copyin(a, N * sizeof *a);
  #pragma acc parallel loop present(a[0:N])
  for (int i = 0; i < N; i++) a[i] *= 2;
  acc_delete(a, N * sizeof *a);
  printf("%f\\n", a[1]);
  free(a);
  return 0;
}
""", ("  acc_delete(a, N * sizeof *a);", "  acc_copyout(a, N * sizeof *a);"))

for name, (desc, bug, fix) in C.items():
    for d, src in (("bugs", bug), ("fixed", fix)):
        with open(os.path.join(d, name + ".c"), "w") as f:
            what = "seeded bug" if d == "bugs" else "fixed"
            f.write(f"/* acc check corpus ({what}): {desc}. */\n" + H + src.lstrip("\n"))
print(len(C), "cases")
