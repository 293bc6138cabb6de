/* A header of the program's own that holds directives (header-directives.c): acc cc puts it
 * into the file at its #include. A complex type named through <complex.h>'s `complex`, a
 * routine and a compute construct in a static inline function. */
#ifndef HEADER_DIRECTIVES_H
#define HEADER_DIRECTIVES_H
#include <complex.h>

#define HD_N 1000

typedef double complex hd_complex;

typedef struct {
  hd_complex z[HD_N];
} hd_field;

#pragma acc routine seq
static inline double hd_norm2(hd_complex z) {
  return creal(z) * creal(z) + cimag(z) * cimag(z);
}

/* Scales the field where it is present (the caller's data region): on separate memory, a
 * construct left as plain C would scale the host copy, which the region's copy out then
 * overwrites. */
static inline void hd_scale(hd_field *f, double by) {
#pragma acc parallel loop present(f[0:1])
  for (int i = 0; i < HD_N; i++) f->z[i] *= by;
}

static inline double hd_total(const hd_field *f) {
  double total = 0;
#pragma acc parallel loop present(f[0:1]) reduction(+:total)
  for (int i = 0; i < HD_N; i++) total += hd_norm2(f->z[i]);
  return total;
}
#endif
