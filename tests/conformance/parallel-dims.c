/* parallel with num_gangs, num_workers and vector_length (constant and
 * run-time arguments) driving gang, worker and vector loops: a three-level
 * gang/worker/vector nest, a gang-worker + vector nest, and a combined
 * parallel loop gang worker vector. */
#include <stdio.h>

#define N 16
#define M 12
#define K 40

static double a[N][M][K], b[N][M][K], c[N][M][K];
static long d[N * M * K];

int main(void) {
  int ng = 5, nw = 3, vl = 16;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      for (int k = 0; k < K; k++) a[i][j][k] = i * 100.0 + j * 10.0 + k * 0.5;

  #pragma acc parallel num_gangs(8) num_workers(4) vector_length(32) copyin(a) copyout(b)
  {
    #pragma acc loop gang
    for (int i = 0; i < N; i++) {
      #pragma acc loop worker
      for (int j = 0; j < M; j++) {
        #pragma acc loop vector
        for (int k = 0; k < K; k++)
          b[i][j][k] = 2.0 * a[i][j][k] + 1.0;
      }
    }
  }

  #pragma acc parallel num_gangs(ng) num_workers(nw) vector_length(vl) copyin(a) copyout(c)
  {
    #pragma acc loop gang worker
    for (int i = 0; i < N; i++) {
      for (int j = 0; j < M; j++) {
        #pragma acc loop vector
        for (int k = 0; k < K; k++)
          c[i][j][k] = a[i][j][k] - j;
      }
    }
  }

  #pragma acc parallel loop gang worker vector num_gangs(ng + 1) num_workers(nw) vector_length(vl * 2) copyout(d)
  for (int x = 0; x < N * M * K; x++)
    d[x] = 3L * x + 7;

  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      for (int k = 0; k < K; k++) {
        if (b[i][j][k] != 2.0 * a[i][j][k] + 1.0) {
          printf("parallel-dims: b[%d][%d][%d] = %g\n", i, j, k, b[i][j][k]);
          return 1;
        }
        if (c[i][j][k] != a[i][j][k] - j) {
          printf("parallel-dims: c[%d][%d][%d] = %g\n", i, j, k, c[i][j][k]);
          return 1;
        }
      }
  for (int x = 0; x < N * M * K; x++)
    if (d[x] != 3L * x + 7) { printf("parallel-dims: d[%d] = %ld\n", x, d[x]); return 1; }
  printf("parallel-dims: ok\n");
  return 0;
}
