/* acc check corpus (seeded bug): enter data create, then a kernel reads what nothing wrote. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double *a = malloc(N * sizeof *a), s = 0;
  for (int i = 0; i < N; i++) a[i] = 1;
  #pragma acc enter data create(a[0:N])
  #pragma acc parallel loop present(a[0:N]) reduction(+:s)
  for (int i = 0; i < N; i++) s += a[i];
  #pragma acc exit data delete(a[0:N])
  printf("%f\n", s);
  free(a);
  return 0;
}
