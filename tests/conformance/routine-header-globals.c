/* Routines that use file-scope variables a program's own header defines (a lattice-QCD code's
 * style), given device copies by the .c file's `declare` directives: one set by `update
 * device`, constants (a scalar and a table), and names that parameters and locals hide. The
 * file's own constant is used the same way. */
#include <stdio.h>
#include "routine-header-globals.h"
#pragma acc declare create(rhg_scale)
#pragma acc declare copyin(rhg_offset, rhg_weights)

enum { N = 64 };
static const double local_bias = 2.0;
#pragma acc declare copyin(local_bias)

#pragma acc routine seq
static double scaled(double x, int rhg_n) {
  return x * rhg_scale + rhg_offset + rhg_weights[rhg_n % 4] + local_bias;
}

#pragma acc routine seq
static int counted(int k) {
  int rhg_n = k * 2;
  return rhg_n + rhg_weights[k % 4];
}

int main(void) {
  double a[N];
  int c[N];
  for (int i = 0; i < N; i++) a[i] = i;
  rhg_scale = 3.0;
#pragma acc update device(rhg_scale)
#pragma acc parallel loop copy(a) copyout(c)
  for (int i = 0; i < N; i++) {
    a[i] = scaled(a[i], i);
    c[i] = counted(i);
  }
  int bad = 0;
  const int weights[4] = {3, 1, 4, 1};
  for (int i = 0; i < N; i++) {
    bad += a[i] != i * 3.0 + 0.25 + weights[i % 4] + 2.0;
    bad += c[i] != 2 * i + weights[i % 4];
  }
  bad += rhg_n != 1000;
  if (bad) {
    printf("routine-header-globals: %d wrong\n", bad);
    return 1;
  }
  printf("routine-header-globals: ok\n");
  return 0;
}
