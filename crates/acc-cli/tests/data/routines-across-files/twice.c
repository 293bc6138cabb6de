/* twice, and a kernel of this file that calls scale (scale.c), which calls twice back. */
#include <stdio.h>
#include "routines.h"

#pragma acc routine seq
double twice(double x) { return 2.0 * x; }

int twice_all(double *a, int n) {
  #pragma acc parallel loop copy(a[0:n])
  for (int i = 0; i < n; i++) a[i] = twice(a[i]) - scale(0.0);
  for (int i = 0; i < n; i++)
    if (a[i] != 6.0 * i + 1.0) { printf("twice_all: a[%d] = %g\n", i, a[i]); return 1; }
  return 0;
}
