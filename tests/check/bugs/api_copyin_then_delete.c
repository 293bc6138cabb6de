/* acc check corpus (seeded bug): the API's acc_copyin and acc_delete around a kernel that writes the data: nothing copies it back. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
void *acc_copyin(void *, unsigned long);
void acc_delete(void *, unsigned long);
void acc_copyout(void *, unsigned long);
int main(void) {
  double *a = malloc(N * sizeof *a);
  for (int i = 0; i < N; i++) a[i] = i;
  acc_copyin(a, N * sizeof *a);
  #pragma acc parallel loop present(a[0:N])
  for (int i = 0; i < N; i++) a[i] *= 2;
  acc_delete(a, N * sizeof *a);
  printf("%f\n", a[1]);
  free(a);
  return 0;
}
