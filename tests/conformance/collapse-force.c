/* collapse(force:n) (OpenACC 3.3): code between the collapsed loops is
 * allowed and behaves as if it were moved into the innermost loop. */
#include <stdio.h>

#define N 16
#define M 25
#define K 6

static double a[N], b[N][M];
static int c[N][M][K];

int main(void) {
  for (int i = 0; i < N; i++) a[i] = i * 1.5;

  #pragma acc parallel loop collapse(force:2) copyin(a) copyout(b)
  for (int i = 0; i < N; i++) {
    double t = a[i] * 2.0;
    for (int j = 0; j < M; j++)
      b[i][j] = t + j;
  }

  #pragma acc parallel copyout(c)
  {
    #pragma acc loop gang vector collapse(force:3)
    for (int i = 0; i < N; i++) {
      int base = i * 100;
      for (int j = 0; j < M; j++) {
        int row = base + j * 10;
        for (int k = 0; k < K; k++)
          c[i][j][k] = row + k;
      }
    }
  }

  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      if (b[i][j] != a[i] * 2.0 + j) { printf("collapse-force: b[%d][%d] = %g\n", i, j, b[i][j]); return 1; }
      for (int k = 0; k < K; k++)
        if (c[i][j][k] != i * 100 + j * 10 + k) {
          printf("collapse-force: c[%d][%d][%d] = %d\n", i, j, k, c[i][j][k]);
          return 1;
        }
    }
  printf("collapse-force: ok\n");
  return 0;
}
