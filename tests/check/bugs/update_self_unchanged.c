/* acc check corpus (seeded bug): update self of data the device did not change (warning). */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc data copyin(a) copyout(b)
  {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) b[i] = a[i];
    #pragma acc update self(a)
  }
  printf("%f %f\n", a[3], b[3]);
  return 0;
}
