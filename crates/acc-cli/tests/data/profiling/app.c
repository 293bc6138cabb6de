/* Data, compute, update, async enter data, wait and exit data, for the recorder's events. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  double *a = malloc(n * sizeof *a);
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc data copy(a[0:n])
  {
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] *= 2;
    #pragma acc update self(a[0:n])
  }
  #pragma acc enter data copyin(a[0:n]) async(1)
  #pragma acc wait(1)
  #pragma acc exit data delete(a[0:n])
  for (int i = 0; i < n; i++)
    if (a[i] != 2.0 * i) { printf("a[%d] = %g\n", i, a[i]); return 1; }
  printf("app: ok\n");
  free(a);
  return 0;
}
