/* Helpers for header-implicit-routines.c: defined here without `routine` directives, as a
 * program's utility header has them. */
#ifndef HEADER_IMPLICIT_ROUTINES_H
#define HEADER_IMPLICIT_ROUTINES_H
#include <math.h>
#include <stdio.h>

static inline float hir_square(float x) { return x * x; }

/* Calls another helper of the header. */
static inline float hir_distance(const float *a, const float *b, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += hir_square(a[i] - b[i]);
  return sqrtf(s);
}

/* Host-only: no kernel calls it. */
static inline void hir_report(const char *what, int wrong) {
  if (wrong) printf("%s: %d wrong\n", what, wrong);
  else printf("%s: ok\n", what);
}
#endif
