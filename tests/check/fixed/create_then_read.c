/* acc check corpus (fixed): create, then a kernel reads device memory nothing wrote. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double t[N], out[N];
  for (int i = 0; i < N; i++) t[i] = i;
  #pragma acc data copyin(t) copyout(out)
  {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) out[i] = t[i] * 2;
  }
  printf("%f\n", out[5]);
  return 0;
}
