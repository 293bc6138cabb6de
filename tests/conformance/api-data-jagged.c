/* Jagged arrays (`double **a` mapped as a[0:n][0:m]): the row pointers and each row go to the
 * device, and the device's row pointers point at the device's rows (a kernel never follows a
 * host row pointer); update moves the rows; exit data copies them back and keeps the host's
 * row pointers. */
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>
int main(void) {
  int n = 10, m = 7;
  double **a = malloc(n * sizeof *a), **b = malloc(n * sizeof *b);
  for (int i = 0; i < n; i++) {
    a[i] = malloc(m * sizeof **a); b[i] = malloc(m * sizeof **b);
    for (int j = 0; j < m; j++) { a[i][j] = i * m + j; b[i][j] = 0; }
  }
  #pragma acc data copyin(a[0:n][0:m]) copyout(b[0:n][0:m])
  {
    /* The device has its own copy of the rows (on a device with separate memory): a host
     * write now is not what the kernel reads. */
    if (acc_get_device_type() != acc_device_host)
      for (int i = 0; i < n; i++) a[i][0] = 1000;
    #pragma acc parallel loop collapse(2)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++) b[i][j] = 2 * a[i][j];
  }
  for (int i = 0; i < n; i++) a[i][0] = i * m;
  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++)
    if (b[i][j] != 2.0 * (i * m + j)) { printf("b[%d][%d] = %g\n", i, j, b[i][j]); return 1; }
  #pragma acc enter data copyin(a[0:n][0:m])
  for (int i = 0; i < n; i++) a[i][0] = -1;
  #pragma acc update device(a[0:n][0:m])
  #pragma acc parallel loop present(a[0:n][0:m])
  for (int i = 0; i < n; i++) a[i][1] = a[i][0] * 3;
  #pragma acc exit data copyout(a[0:n][0:m])
  for (int i = 0; i < n; i++) if (a[i][1] != -3 || a[i] == NULL) { printf("a[%d][1] = %g\n", i, a[i][1]); return 1; }
  printf("api-data-jagged: ok\n");
  return 0;
}
