/* Inner `loop` directives without a level of parallelism: where their iterations are
 * independent (in `parallel`, or `independent` in `kernels`) and each writes its own elements,
 * the compiled program runs them vector-partitioned inside the gang loop (`acc cc --info`:
 * "vector (implicit: ...)"); one that assigns a scalar from outside, or `auto`, stays
 * sequential, as does an `independent` one between a gang and a vector loop (--info says so,
 * not the dependence test's doubts about a call). The answers are the sequential ones. */
#include <stdio.h>

#define N 64
#define M 300

static double a[N][M], b[N][M], row_sum[N], last[N], d[N][4][M];

static double scaled(double v) { return 2 * v; }

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) a[i][j] = i + 0.5 * j;

  #pragma acc parallel loop copyin(a) copyout(b)
  for (int i = 0; i < N; i++) {
    #pragma acc loop
    for (int j = 0; j < M; j++) b[i][j] = 2 * a[i][j];
  }

  #pragma acc kernels copyin(a) copyout(row_sum)
  #pragma acc loop independent
  for (int i = 0; i < N; i++) {
    double s = 0;
    #pragma acc loop independent reduction(+:s)
    for (int j = 0; j < M; j++) s += a[i][j];
    row_sum[i] = s;
  }

  #pragma acc parallel loop copyin(a) copyout(last)
  for (int i = 0; i < N; i++) {
    double t = -1;
    #pragma acc loop
    for (int j = 0; j < M; j++)
      if (a[i][j] > i) t = j;
    last[i] = t;
  }

  #pragma acc parallel loop copy(b)
  for (int i = 0; i < N; i++) {
    #pragma acc loop auto
    for (int j = 1; j < M; j++) b[i][j] += b[i][j - 1];
  }

  #pragma acc kernels copyin(a) copyout(d)
  #pragma acc loop independent gang
  for (int i = 0; i < N; i++) {
    #pragma acc loop independent
    for (int k = 0; k < 4; k++) {
      #pragma acc loop independent vector
      for (int j = 0; j < M; j++) d[i][k][j] = scaled(a[i][j]) + k;
    }
  }

  for (int i = 0; i < N; i++) {
    for (int k = 0; k < 4; k++)
      for (int j = 0; j < M; j++)
        if (d[i][k][j] != 2 * a[i][j] + k) { printf("d[%d][%d][%d] = %g\n", i, k, j, d[i][k][j]); return 1; }
    double s = 0, run = 0, t = -1;
    for (int j = 0; j < M; j++) {
      s += a[i][j];
      run += 2 * a[i][j];
      if (a[i][j] > i) t = j;
      if (b[i][j] != run) { printf("b[%d][%d] = %g, not %g\n", i, j, b[i][j], run); return 1; }
    }
    if (row_sum[i] != s) { printf("row_sum[%d] = %g, not %g\n", i, row_sum[i], s); return 1; }
    if (last[i] != t) { printf("last[%d] = %g, not %g\n", i, last[i], t); return 1; }
  }
  printf("inner loops: ok\n");
  return 0;
}
