/* enter data, update both ways, exit data with copyout. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  double *a = malloc(n * sizeof *a);
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:n])
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++)
    a[i] *= 2;
  #pragma acc update self(a[0:n])
  for (int i = 0; i < n; i++)
    if (a[i] != 2.0 * i) { printf("data-update: after update self a[%d] = %g\n", i, a[i]); return 1; }
  for (int i = 0; i < n; i++) a[i] += 1;
  #pragma acc update device(a[0:n])
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++)
    a[i] *= 3;
  #pragma acc exit data copyout(a[0:n])
  for (int i = 0; i < n; i++)
    if (a[i] != 3.0 * (2.0 * i + 1)) { printf("data-update: a[%d] = %g\n", i, a[i]); return 1; }
  printf("data-update: ok\n");
  free(a);
  return 0;
}
