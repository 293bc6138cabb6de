/* acc check corpus (seeded bug): exit data delete, then a kernel that expects the data present. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double *a = malloc(N * sizeof *a);
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:N])
  #pragma acc exit data delete(a[0:N])
  #pragma acc parallel loop present(a[0:N])
  for (int i = 0; i < N; i++) a[i] += 1;
  printf("%f\n", a[5]);
  free(a);
  return 0;
}
