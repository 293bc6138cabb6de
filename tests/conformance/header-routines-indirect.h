/* Helpers for header-routines-indirect.c: a plain and a `static inline` function, defined
 * without `routine` directives, that only the file's own functions call. */
#ifndef HEADER_ROUTINES_INDIRECT_H
#define HEADER_ROUTINES_INDIRECT_H

float hri_square(float x) { return x * x; }

static inline float hri_cube(float x) { return x * hri_square(x); }

#endif
