/* acc check corpus (seeded bug): a temporary created on the device, changed by the host between two kernels. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double t[N], out[N];
  #pragma acc data create(t) copyout(out)
  {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) t[i] = i;
    t[0] = -1;
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) out[i] = t[i];
  }
  printf("%f\n", out[0]);
  return 0;
}
