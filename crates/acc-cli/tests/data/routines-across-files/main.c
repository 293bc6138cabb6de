/* A kernel calling a routine another file defines (scale.c, whose routines read a global of
 * their file), which calls one of a third file (twice.c), whose own kernel calls back into
 * scale.c: on a GPU the runtime links the files' device code. Checks its results; exits 1 on
 * a wrong one. */
#include <stdio.h>
#include "routines.h"

#define N 1000

int main(void) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc parallel loop copy(a)
  for (int i = 0; i < N; i++) a[i] = scale(a[i]);
  for (int i = 0; i < N; i++)
    if (a[i] != 3.0 * i + 1.0) { printf("scale: a[%d] = %g\n", i, a[i]); return 1; }
  if (twice_all(a, N) != 0) return 1;
  printf("routines across files: ok\n");
  return 0;
}
