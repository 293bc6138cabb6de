/* acc check corpus (fixed): copyout of a heap 2-D array (a pointer to rows, passed as `double D[N][N]`) whose old values the kernel reads. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
static void scale(double D[N][N]) {
  #pragma acc data copy(D)
  {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) D[i][j] *= 2.0;
  }
}
int main(void) {
  double (*D)[N] = calloc(N, sizeof *D);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) D[i][j] = i + j;
  scale(D);
  printf("%f\n", D[1][2]);
  free(D);
  return 0;
}
