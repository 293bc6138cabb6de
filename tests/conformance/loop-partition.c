/* loop gang / worker / vector / gang(static:) in a parallel region: every
 * combination on single loops and nests, loops with strides, decreasing
 * loops, <= bounds, unsigned and long control variables, and a control
 * variable declared before the loop. */
#include <stdio.h>

#define N 200
#define M 50

int main(void) {
  static int a[N], b[N][M], c[N][M], d[N], e[N], f[N], g[N];
  int i;
  for (int x = 0; x < N; x++) { d[x] = -1; e[x] = -1; f[x] = -1; g[x] = -1; }

  #pragma acc parallel num_gangs(4) num_workers(2) vector_length(8) copyout(a, b, c) copy(d, e, f, g)
  {
    #pragma acc loop gang worker vector
    for (i = 0; i < N; i++)
      a[i] = i * i;

    #pragma acc loop gang
    for (int x = 0; x < N; x++) {
      #pragma acc loop worker vector
      for (int y = 0; y < M; y++)
        b[x][y] = x - y;
    }

    #pragma acc loop gang(static:4) worker
    for (int x = 0; x < N; x++) {
      #pragma acc loop vector
      for (int y = 0; y < M; y++)
        c[x][y] = x + y;
    }

    #pragma acc loop gang(static:*) vector
    for (int x = N - 1; x >= 0; x -= 3)
      d[x] = x * 2;

    #pragma acc loop worker
    for (unsigned u = 1; u <= N / 2; u += 2)
      e[u] = (int)u + 1;

    #pragma acc loop vector
    for (long l = 10; l < N; l += 7)
      f[l] = (int)(l * 3);

    #pragma acc loop gang(static:2)
    for (int x = 0; x < N; x += 4)
      g[x] = 5;
  }

  for (int x = 0; x < N; x++) {
    if (a[x] != x * x) { printf("loop-partition: a[%d] = %d\n", x, a[x]); return 1; }
    for (int y = 0; y < M; y++)
      if (b[x][y] != x - y || c[x][y] != x + y) {
        printf("loop-partition: b/c[%d][%d] = %d/%d\n", x, y, b[x][y], c[x][y]);
        return 1;
      }
    int rd = ((N - 1 - x) % 3 == 0) ? x * 2 : -1;
    int re = (x >= 1 && x <= N / 2 && x % 2 == 1) ? x + 1 : -1;
    int rf = (x >= 10 && (x - 10) % 7 == 0) ? x * 3 : -1;
    int rg = (x % 4 == 0) ? 5 : -1;
    if (d[x] != rd || e[x] != re || f[x] != rf || g[x] != rg) {
      printf("loop-partition: x=%d d=%d e=%d f=%d g=%d\n", x, d[x], e[x], f[x], g[x]);
      return 1;
    }
  }
  printf("loop-partition: ok\n");
  return 0;
}
