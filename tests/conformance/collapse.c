/* collapse(2) and collapse(3) on loop and combined constructs, with gang /
 * worker / vector, non-unit strides and non-zero lower bounds, run-time
 * bounds, a reduction over a collapsed nest, and collapse(1). */
#include <stdio.h>

#define N 20
#define M 30
#define K 12

static int a[N][M], b[N][M][K], c[N][M];

int main(void) {
  int n = N, m = M;
  long sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) c[i][j] = -1;

  #pragma acc parallel loop collapse(2) gang vector copyout(a)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i][j] = i * 1000 + j;

  #pragma acc parallel copyout(b)
  {
    #pragma acc loop gang worker vector collapse(3)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++)
        for (int k = 0; k < K; k++)
          b[i][j][k] = i + j * k;
  }

  #pragma acc parallel copy(c)
  {
    #pragma acc loop gang collapse(2)
    for (int i = 1; i < N; i += 2)
      for (int j = M - 1; j >= 3; j -= 3)
        c[i][j] = i - j;
  }

  #pragma acc parallel loop collapse(2) reduction(+:sum) copyin(a)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      sum += a[i][j] % 97;

  #pragma acc kernels loop collapse(1) independent copy(a)
  for (int i = 0; i < N; i++)
    a[i][0] += 1;

  long rs = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      int ra = i * 1000 + j + (j == 0 ? 1 : 0);
      int rc = (i % 2 == 1 && j >= 3 && (M - 1 - j) % 3 == 0) ? i - j : -1;
      if (a[i][j] != ra || c[i][j] != rc) {
        printf("collapse: a/c[%d][%d] = %d/%d\n", i, j, a[i][j], c[i][j]);
        return 1;
      }
      rs += (i * 1000 + j) % 97;
      for (int k = 0; k < K; k++)
        if (b[i][j][k] != i + j * k) {
          printf("collapse: b[%d][%d][%d] = %d\n", i, j, k, b[i][j][k]);
          return 1;
        }
    }
  if (sum != rs) { printf("collapse: sum = %ld, expected %ld\n", sum, rs); return 1; }
  printf("collapse: ok\n");
  return 0;
}
