/* host_data use_device: inside the construct the name stands for the
 * device address, which must equal acc_deviceptr of the host address; the
 * device address handed to a function that uses deviceptr; host_data
 * if(false) keeps the host address; if_present (OpenACC 3.x) with data
 * that is not present keeps the host address too. */
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

#define N 256

static void triple_on_device(double *dp, int n) {
  #pragma acc parallel loop deviceptr(dp)
  for (int i = 0; i < n; i++)
    dp[i] *= 3.0;
}

int main(void) {
  int n = N, no = 0;
  double *a = malloc(n * sizeof *a), *absent = malloc(n * sizeof *absent);
  double *host_a = a;
  void *dev_a = NULL, *seen = NULL, *seen_if = NULL, *seen_absent = NULL;
  for (int i = 0; i < n; i++) { a[i] = i; absent[i] = 0.0; }

  #pragma acc data copy(a[0:n])
  {
    dev_a = acc_deviceptr(a);
    #pragma acc host_data use_device(a)
    {
      seen = a;
      triple_on_device(a, n);
    }
    #pragma acc host_data use_device(a) if(no)
    {
      seen_if = a;
    }
    #pragma acc host_data use_device(absent) if_present
    {
      seen_absent = absent;
    }
  }

  if (dev_a == NULL || seen != dev_a) {
    printf("api-host-data: use_device gave %p, acc_deviceptr %p\n", seen, dev_a);
    return 1;
  }
  if (seen_if != (void *)host_a || seen_absent != (void *)absent) {
    printf("api-host-data: if(false) gave %p (host %p), if_present gave %p (host %p)\n", seen_if,
           (void *)host_a, seen_absent, (void *)absent);
    return 1;
  }
  for (int i = 0; i < n; i++)
    if (a[i] != 3.0 * i) { printf("api-host-data: a[%d] = %g\n", i, a[i]); return 1; }
  printf("api-host-data: ok\n");
  free(a); free(absent);
  return 0;
}
