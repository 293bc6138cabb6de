/* Scalars declared at the top of a function (C89 style) and assigned first in each iteration
 * of a `kernels` loop: each iteration's own, as nvc and GCC make them ("privatized"), so the
 * loop runs in parallel without a race (a book's CT reconstruction wrote them under
 * `loop independent`; acc kept one shared copy, which every iteration wrote). A scalar read
 * before it is assigned, read after the loop, or whose address the function takes stays the
 * region's one copy (its loop sequential where it decides), and keeps its last value. */
#include <math.h>
#include <stdio.h>
#define N 4096
#define M 64
static double in[N], out[N], grid[M][M], sums[M];
static void touch(double *p) { *p += 0; }
int main(void) {
  double x, t, w, last, kept;
  int i, j, bad = 0;
  for (i = 0; i < N; i++)
    in[i] = 0.5 * i;
  for (i = 0; i < M; i++)
    for (j = 0; j < M; j++)
      grid[i][j] = i + 0.25 * j;
  /* A loop the dependence test proves independent once `x` and `t` are the iteration's. */
#pragma acc kernels copyin(in) copyout(out)
  for (i = 0; i < N; i++) {
    x = in[i] * 2;
    t = sqrt(x + 1);
    out[i] = t + x;
  }
  for (i = 0; i < N; i++)
    if (fabs(out[i] - (sqrt(in[i] * 2 + 1) + in[i] * 2)) > 1e-12) {
      printf("auto loop: out[%d] = %g\n", i, out[i]);
      bad = 1;
      break;
    }
  /* `loop independent` on a nest whose inner loop assigns `w` first in each pass. */
#pragma acc kernels copyin(grid) copyout(sums)
  {
#pragma acc loop independent
    for (i = 0; i < M; i++) {
      double s = 0;
      for (j = 0; j < M; j++) {
        w = grid[i][j] * grid[i][j];
        s += w;
      }
      sums[i] = s;
    }
  }
  for (i = 0; i < M; i++) {
    double s = 0;
    for (j = 0; j < M; j++)
      s += grid[i][j] * grid[i][j];
    if (fabs(sums[i] - s) > 1e-9 * s) {
      printf("independent nest: sums[%d] = %g, want %g\n", i, sums[i], s);
      bad = 1;
    }
  }
  /* Read after the loop: the last iteration's value. */
#pragma acc kernels copyin(in) copyout(out)
  for (i = 0; i < N; i++) {
    last = in[i] + 1;
    out[i] = last;
  }
  if (last != in[N - 1] + 1) {
    printf("last value: %g, want %g\n", last, in[N - 1] + 1);
    bad = 1;
  }
  /* Its address taken: reached through the pointer after the loop. */
  double *through = &kept;
#pragma acc kernels copyin(in) copyout(out)
  for (i = 0; i < N; i++) {
    kept = in[i] * 3;
    out[i] = kept;
  }
  touch(through);
  if (*through != in[N - 1] * 3) {
    printf("through a pointer: %g, want %g\n", *through, in[N - 1] * 3);
    bad = 1;
  }
  if (!bad)
    printf("kernels-scalar-temporaries: ok\n");
  return bad;
}
