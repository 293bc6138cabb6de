/* acc check corpus (fixed): exit data copyout async, then the host reads without a wait. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double *a = malloc(N * sizeof *a);
  for (int i = 0; i < N; i++) a[i] = 0;
  #pragma acc enter data copyin(a[0:N])
  #pragma acc parallel loop present(a[0:N])
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc exit data copyout(a[0:N]) async(2)
  #pragma acc wait(2)
  printf("%f\n", a[7]);
  free(a);
  return 0;
}
