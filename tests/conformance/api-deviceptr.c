/* deviceptr with memory from acc_malloc: deviceptr on parallel, on a data
 * construct (the pointer keeps its device value inside), and declare
 * deviceptr on a pointer parameter; data moved with acc_memcpy_to_device /
 * acc_memcpy_from_device; acc_free at the end. */
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

#define N 500

static void add_ten(double *dp, int n) {
  #pragma acc declare deviceptr(dp)
  #pragma acc parallel loop
  for (int i = 0; i < n; i++)
    dp[i] += 10.0;
}

int main(void) {
  int n = N;
  size_t bytes = n * sizeof(double);
  double *h = malloc(bytes), *out = malloc(bytes);
  double *d = acc_malloc(bytes);
  if (!d) { printf("api-deviceptr: acc_malloc failed\n"); return 1; }
  for (int i = 0; i < n; i++) { h[i] = i; out[i] = -1.0; }
  acc_memcpy_to_device(d, h, bytes);

  #pragma acc parallel loop deviceptr(d)
  for (int i = 0; i < n; i++)
    d[i] *= 2.0;

  add_ten(d, n);

  #pragma acc data deviceptr(d) copyout(out[0:n])
  {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++)
      out[i] = d[i] + 1.0;
  }

  acc_memcpy_from_device(h, d, bytes);
  acc_free(d);
  for (int i = 0; i < n; i++)
    if (h[i] != 2.0 * i + 10.0 || out[i] != 2.0 * i + 11.0) {
      printf("api-deviceptr: i=%d h=%g out=%g\n", i, h[i], out[i]);
      return 1;
    }
  printf("api-deviceptr: ok\n");
  free(h); free(out);
  return 0;
}
