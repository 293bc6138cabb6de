/* Directives written through macros that expand to `_Pragma("acc …")` (pragma-macros.h): each
 * applies where the macro is used, as a `#pragma acc` line there would. With separate memory a
 * compute construct ignored inside the data region would run on the host copy, which the
 * region's copyout then overwrites: the answers below catch that. Macros in the clauses
 * (`PM_N`) are replaced as the preprocessor replaces them. */
#include <stdio.h>
#include "pragma-macros.h"

ACC(routine seq)
static double halve(double v) { return v / 2; }

#define LOCAL_PRAGMA(x) _Pragma(#x)

int main(void) {
  static double a[PM_N], b[PM_N][16];
  int n = PM_N;
  double sum = 0;
  for (int i = 0; i < PM_N; i++) a[i] = i;
  #pragma acc data copy(a[0:PM_N]) create(b)
  {
    ACC(parallel loop gang, vector
        present(a))
    for (int i = 0; i < n; i++)
      a[i] = halve(4 * a[i]);
    ACC(parallel present(a, b))
    {
      ACC_LOOP
      for (int i = 0; i < PM_N; i++)
        ACC_LOOP
        for (int j = 0; j < 16; j++)
          b[i][j] = a[i] + j;
    }
    LOCAL_PRAGMA(acc kernels loop present(a, b) reduction(+:sum))
    for (int i = 0; i < PM_N; i++)
      sum += b[i][15] - a[i];
    /* A compute construct whose statement is a loop directive from a function-like macro
       and its loop, without braces. */
    ACC(parallel present(a))
    ACC(loop)
    for (int i = 0; i < n; i++)
      a[i] += 1;
    ACC(update self(b[0:1][0:16]))
  }
  int failed = 0;
  for (int i = 0; i < PM_N; i++)
    if (a[i] != 2.0 * i + 1) {
      printf("pragma-macros: a[%d] = %g, not %g\n", i, a[i], 2.0 * i + 1);
      failed = 1;
      break;
    }
  for (int j = 0; j < 16; j++)
    if (b[0][j] != j) {
      printf("pragma-macros: b[0][%d] = %g, not %d\n", j, b[0][j], j);
      failed = 1;
    }
  if (sum != 15.0 * PM_N) {
    printf("pragma-macros: sum = %g, not %g\n", sum, 15.0 * PM_N);
    failed = 1;
  }
  if (failed)
    return 1;
  printf("pragma-macros: ok\n");
  return 0;
}
