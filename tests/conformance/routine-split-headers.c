/* Routines whose header and first statements are chosen by `#if` arms that the closing part
 * shares (`#ifdef SCALED` / header … `{` … `#else` / other header … `{` … `#endif` / the
 * rest `}`, as lattice-QCD codes write variants): the kernels call the version the
 * preprocessor keeps, the first arm's or the last's. */
#include <stdio.h>

#define VERSION 2

#if VERSION >= 2
#pragma acc routine seq
static double shifted(double x, double by) {
  double y = x + by;
#else
#pragma acc routine seq
static double shifted(double x) {
  double y = x + 1.0;
#endif
  return 2.0 * y;
}

#ifdef SCALED
#pragma acc routine seq
static double scaled(double x, double s) {
  double y = x * s;
#else
#pragma acc routine seq
static double scaled(double x) {
  double y = x;
#endif
  return y + 0.5;
}

int main(void) {
  enum { N = 64 };
  double a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = b[i] = i;
#pragma acc parallel loop copy(a, b)
  for (int i = 0; i < N; i++) {
    a[i] = shifted(a[i], 3.0);
    b[i] = scaled(b[i]);
  }
  int bad = 0;
  for (int i = 0; i < N; i++) bad += a[i] != 2.0 * (i + 3.0) || b[i] != i + 0.5;
  if (bad) {
    printf("routine-split-headers: %d wrong\n", bad);
    return 1;
  }
  printf("routine-split-headers: ok\n");
  return 0;
}
