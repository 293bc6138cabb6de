/* acc check corpus (fixed): enter data, then a host write, then a present kernel reads the stale copy. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double *x = malloc(N * sizeof *x), s = 0;
  for (int i = 0; i < N; i++) x[i] = 1;
  #pragma acc enter data copyin(x[0:N])
  x[0] = 100;
  #pragma acc update device(x[0:N])
  #pragma acc parallel loop present(x[0:N]) reduction(+:s)
  for (int i = 0; i < N; i++) s += x[i];
  #pragma acc exit data delete(x[0:N])
  printf("%f\n", s);
  free(x);
  return 0;
}
