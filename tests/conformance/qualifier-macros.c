/* Qualifiers written through macros, as portability headers spell them: a macro that stands
   for `restrict` after a `*`, one longer than its name (`__restrict__`), `const` and `inline`
   through macros; the declared names stay the program's. */
#include <stdio.h>
#define RESTRICT restrict
#define REST __restrict__
#define CST const
#define INL inline
#define N 300
static INL double twice(double v) { return 2 * v; }
static void axpy(int n, double a, const double *RESTRICT x, double *REST y) {
  #pragma acc parallel loop present(x[0:n], y[0:n])
  for (int i = 0; i < n; i++) y[i] += a * x[i];
}
static double dot(int n, CST double *CST u, CST double *RESTRICT v) {
  double s = 0;
  #pragma acc parallel loop reduction(+:s) present(u[0:n], v[0:n])
  for (int i = 0; i < n; i++) s += u[i] * v[i];
  return s;
}
int main(void) {
  double x[N], y[N];
  for (int i = 0; i < N; i++) { x[i] = i; y[i] = 1; }
  double s;
  #pragma acc data copyin(x) copy(y)
  {
    axpy(N, twice(1.5), x, y);
    s = dot(N, x, y);
  }
  double want = 0;
  for (int i = 0; i < N; i++) {
    if (y[i] != 1 + 3.0 * i) { printf("qualifier-macros: y[%d] = %f\n", i, y[i]); return 1; }
    want += (double)i * (1 + 3.0 * i);
  }
  if (s != want) { printf("qualifier-macros: dot %f, want %f\n", s, want); return 1; }
  printf("qualifier-macros: ok\n");
  return 0;
}
