/* kernels with an independent loop and a dependent one; serial. */
#include <stdio.h>

#define N 500

int main(void) {
  double a[N], prefix[N];
  double total = 0;
  #pragma acc kernels copyout(a) copy(total)
  {
    #pragma acc loop independent
    for (int i = 0; i < N; i++)
      a[i] = i * 0.5;
    for (int i = 0; i < N; i++)
      total += a[i];
  }
  #pragma acc serial copyin(a) copyout(prefix)
  {
    prefix[0] = a[0];
    for (int i = 1; i < N; i++)
      prefix[i] = prefix[i - 1] + a[i];
  }
  double want = 0.5 * (N - 1) * N / 2;
  if (total != want || prefix[N - 1] != want) {
    printf("kernels-serial: total %g prefix %g want %g\n", total, prefix[N - 1], want);
    return 1;
  }
  printf("kernels-serial: ok\n");
  return 0;
}
