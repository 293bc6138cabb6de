/* collapse and gang/worker/vector nests. */
#include <stdio.h>

#define N 64
#define M 48

int main(void) {
  static double a[N][M], b[N][M];
  #pragma acc parallel loop collapse(2) copyout(a)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      a[i][j] = i * 1000 + j;
  #pragma acc parallel copyout(b) num_workers(4) vector_length(32)
  {
    #pragma acc loop gang
    for (int i = 0; i < N; i++) {
      #pragma acc loop worker
      for (int j = 0; j < M / 2; j++)
        b[i][j] = i - j;
      #pragma acc loop vector
      for (int j = M / 2; j < M; j++)
        b[i][j] = i + j;
    }
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      if (a[i][j] != i * 1000 + j) { printf("collapse: a[%d][%d]\n", i, j); return 1; }
      double want = j < M / 2 ? i - j : i + j;
      if (b[i][j] != want) { printf("levels: b[%d][%d]\n", i, j); return 1; }
    }
  printf("collapse-levels: ok\n");
  return 0;
}
