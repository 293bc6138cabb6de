/* One array under two names in the data clauses of one construct: a function whose input and
 * output parameters the caller points at the same array (`resid(u, r, r, …)` in NPB MG), with
 * `copyin` and `copyout` in either order, `create` before `copyin`, and `copy` beside `copyin`.
 * OpenACC 3.3 2.1 makes the clauses' order insignificant, so each must copy in and copy out as
 * the union of its clauses says. Run one by one, the first clause to exit had found the
 * other's reference and skipped its copy out (the result was lost), and a `create` first had
 * left `copyin` nothing to copy (the kernel read uninitialized memory). */
#include <stdio.h>

#define N 64

static void add_one(const double *in, double *out, int n) {
#pragma acc parallel loop copyin(in[0:n]) copyout(out[0:n])
  for (int i = 0; i < n; i++)
    out[i] = in[i] + 1.0;
}

static void twice(const double *in, double *out, int n) {
#pragma acc parallel loop copyout(out[0:n]) copyin(in[0:n])
  for (int i = 0; i < n; i++)
    out[i] = 2.0 * in[i];
}

static void plus_three(const double *in, double *scratch, double *out, int n) {
#pragma acc parallel loop create(scratch[0:n]) copyin(in[0:n]) copyout(out[0:n])
  for (int i = 0; i < n; i++) {
    scratch[i] = in[i] + 1.0;
    out[i] = scratch[i] + 2.0;
  }
}

static void square(const double *in, double *out, int n) {
#pragma acc parallel loop copyin(in[0:n]) copy(out[0:n])
  for (int i = 0; i < n; i++)
    out[i] = in[i] * in[i];
}

int main(void) {
  double a[N], b[N], c[N];
  for (int i = 0; i < N; i++)
    a[i] = b[i] = i;
  add_one(a, a, N);
  twice(a, a, N);
  square(a, a, N);
  plus_three(b, b, c, N);
  int errors = 0;
  for (int i = 0; i < N; i++) {
    double want = 2.0 * (i + 1.0) * 2.0 * (i + 1.0);
    if (a[i] != want)
      errors++;
    if (c[i] != i + 3.0)
      errors++;
  }
  printf("%s (%d wrong)\n", errors ? "FAILED" : "ok", errors);
  return errors != 0;
}
