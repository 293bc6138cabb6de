/* acc check corpus (fixed): a loop changes the array on the host every iteration but updates the device only on even ones. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double a[N], s = 0;
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc data copyin(a)
  for (int it = 0; it < 10; it++) {
    a[it] = -1;
    #pragma acc update device(a)
    #pragma acc parallel loop reduction(+:s)
    for (int i = 0; i < N; i++) s += a[i];
  }
  printf("%f\n", s);
  return 0;
}
