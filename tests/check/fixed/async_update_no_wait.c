/* acc check corpus (fixed): update self async, then the host reads without a wait. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = 0;
  #pragma acc data copy(a)
  {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) a[i] = i;
    #pragma acc update self(a) async(1)
    #pragma acc wait(1)
    printf("%f\n", a[7]);
  }
  return 0;
}
