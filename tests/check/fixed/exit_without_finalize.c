/* acc check corpus (fixed): two enter data, one exit data copyout: the count stays at one and nothing is copied. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double *a = malloc(N * sizeof *a);
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:N])
  #pragma acc enter data copyin(a[0:N])
  #pragma acc parallel loop present(a[0:N])
  for (int i = 0; i < N; i++) a[i] += 1;
  #pragma acc exit data copyout(a[0:N]) finalize
  printf("%f\n", a[3]);
  free(a);
  return 0;
}
