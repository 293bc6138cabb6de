/* Loop partitioning arguments that are only allowed inside kernels:
 * gang(num:), gang(n), worker(num:), worker(n), vector(length:), vector(n),
 * on a three-level nest and on kernels loop. */
#include <stdio.h>

#define N 32
#define M 16
#define K 24

static float a[N][M][K];
static int b[N * M];

int main(void) {
  int ng = 4;
  #pragma acc kernels copyout(a)
  {
    #pragma acc loop gang(num:ng)
    for (int i = 0; i < N; i++) {
      #pragma acc loop worker(num:4)
      for (int j = 0; j < M; j++) {
        #pragma acc loop vector(length:32)
        for (int k = 0; k < K; k++)
          a[i][j][k] = (float)(i * 4 + j * 2 + k);
      }
    }
  }

  #pragma acc kernels loop gang(8) worker(2) copyout(b)
  for (int x = 0; x < N * M; x++)
    b[x] = x * 3;

  #pragma acc kernels copy(b)
  {
    #pragma acc loop gang vector(64)
    for (int x = 0; x < N * M; x++)
      b[x] -= x;
  }

  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      for (int k = 0; k < K; k++)
        if (a[i][j][k] != (float)(i * 4 + j * 2 + k)) {
          printf("loop-kernels-args: a[%d][%d][%d] = %g\n", i, j, k, (double)a[i][j][k]);
          return 1;
        }
  for (int x = 0; x < N * M; x++)
    if (b[x] != 2 * x) { printf("loop-kernels-args: b[%d] = %d\n", x, b[x]); return 1; }
  printf("loop-kernels-args: ok\n");
  return 0;
}
