/* acc check corpus (seeded bug): a reduction into a scalar a data region holds: the result lands in the device copy. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double a[N], sum = 0;
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc data copyin(a) copy(sum)
  {
    #pragma acc parallel loop reduction(+:sum)
    for (int i = 0; i < N; i++) sum += a[i];
    printf("%f\n", sum);
  }
  return 0;
}
