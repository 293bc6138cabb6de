/* tile: tile(4,8) on a 2-level nest, tile(*,*) (implementation-chosen
 * sizes), tile on a single loop, tile with gang vector, tile on kernels
 * loop, tile(2,2,2) on a 3-level nest, and tile sizes that do not divide
 * the trip counts. */
#include <stdio.h>

#define N 37
#define M 45
#define K 11

static int a[N][M], b[N][M], c[N * M], d[N][M], e[N][M][K];

int main(void) {
  static int t[M][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) a[i][j] = i * M + j;

  #pragma acc parallel loop tile(4, 8) copyin(a) copyout(t)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      t[j][i] = a[i][j];

  #pragma acc parallel copyin(a) copyout(b)
  {
    #pragma acc loop tile(*, *) gang vector
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++)
        b[i][j] = 2 * a[i][j];
  }

  #pragma acc parallel loop tile(16) copyout(c)
  for (int x = 0; x < N * M; x++)
    c[x] = x + 1;

  #pragma acc kernels loop tile(3, 5) copyin(a) copyout(d)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      d[i][j] = a[i][j] - i;

  #pragma acc parallel loop tile(2, 2, 2) copyout(e)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      for (int k = 0; k < K; k++)
        e[i][j][k] = i ^ j ^ k;

  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      if (t[j][i] != a[i][j] || b[i][j] != 2 * a[i][j] || c[i * M + j] != i * M + j + 1 ||
          d[i][j] != a[i][j] - i) {
        printf("tile: i=%d j=%d t=%d b=%d c=%d d=%d\n", i, j, t[j][i], b[i][j], c[i * M + j], d[i][j]);
        return 1;
      }
      for (int k = 0; k < K; k++)
        if (e[i][j][k] != (i ^ j ^ k)) { printf("tile: e[%d][%d][%d] = %d\n", i, j, k, e[i][j][k]); return 1; }
    }
  printf("tile: ok\n");
  return 0;
}
