/* acc check corpus (seeded bug): reference counts: enter data keeps the array present, so the region's copy moves nothing back. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double *a = malloc(N * sizeof *a);
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:N])
  #pragma acc data copy(a[0:N])
  {
    #pragma acc parallel loop present(a[0:N])
    for (int i = 0; i < N; i++) a[i] += 1;
  }
  printf("%f\n", a[3]);
  #pragma acc exit data delete(a[0:N])
  free(a);
  return 0;
}
