/* A `kernels` region's block whose statements are loops without braces around a directive
 * that stands for their body (`for (…)` / `#pragma acc loop` / `for (…) …`, PolyBench's
 * style), written with `#pragma`, with `_Pragma`, under a loop without a directive, and as an
 * `if`'s branch: each statement of the block, with the loops it nests, is one kernel. */
#include <stdio.h>

#define N 24
#define M 18

int main(void) {
  double a[N][M], b[N][M], c[N][M], d[N][M];
  int i, j, on = 1, bad = 0;
#pragma acc kernels copyout(a, b, c, d)
  {
#pragma acc loop
    for (i = 0; i < N; i++)
#pragma acc loop
      for (j = 0; j < M; j++)
        a[i][j] = 10.0 * i + j;
    for (i = 0; i < N; i++)
#pragma acc loop independent
      for (j = 0; j < M; j++)
        b[i][j] = 2.0 * i - j;
#pragma acc loop
    for (i = 0; i < N; i++)
      _Pragma("acc loop")
      for (j = 0; j < M; j++)
        c[i][j] = i * j;
    if (on)
#pragma acc loop collapse(2)
      for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
          d[i][j] = i - 3.0 * j;
  }
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      bad += a[i][j] != 10.0 * i + j || b[i][j] != 2.0 * i - j || c[i][j] != i * j ||
             d[i][j] != i - 3.0 * j;
  if (bad) {
    printf("kernels-unbraced-loops: %d wrong\n", bad);
    return 1;
  }
  printf("kernels-unbraced-loops: ok\n");
  return 0;
}
