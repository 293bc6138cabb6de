/* A file that defines functions of the C library's names (`fmax` "not in every math.h", as a
 * public heat-equation code writes it; `hypot`) and calls them in compute constructs, one as
 * a `routine`, one as an implicit routine: C lets the program's definitions stand for the
 * library's, and the GPU's module must call them too (its own `fmax` wrapper is a macro, which
 * turned the program's definition into a second definition of the wrapper). And a library
 * function the file only names in a `routine` directive (`routine(fmin) seq`, as the V&V
 * suite writes it): the library's. */
#include <math.h>
#include <stdio.h>
#define N 500

#pragma acc routine seq
double fmax(double v1, double v2) { return v1 > v2 ? v1 : v2; }
#pragma acc routine(fmin) seq

double hypot(double x, double y) { return sqrt(x * x + y * y); }

int main(void) {
  static double a[N], b[N], h[N];
  double m = 0.0, lo = 1e9;
  for (int i = 0; i < N; i++) {
    a[i] = (i * 37) % 101;
    b[i] = (i * 11) % 7;
  }
#pragma acc parallel loop reduction(max : m) copyin(a)
  for (int i = 0; i < N; i++)
    m = fmax(m, a[i]);
#pragma acc parallel loop copyin(a, b) copyout(h)
  for (int i = 0; i < N; i++)
    h[i] = hypot(a[i], b[i]);
#pragma acc parallel loop reduction(min : lo) copyin(a)
  for (int i = 0; i < N; i++)
    lo = fmin(lo, a[i] + 1);
  int bad = m != 100.0 || lo != 1.0;
  for (int i = 0; i < N; i++)
    if (fabs(h[i] - sqrt(a[i] * a[i] + b[i] * b[i])) > 1e-12 * (1 + h[i])) {
      printf("h[%d] = %.17g\n", i, h[i]);
      bad = 1;
      break;
    }
  if (bad)
    printf("m = %g, want 100; lo = %g, want 1\n", m, lo);
  else
    printf("OK\n");
  return bad;
}
