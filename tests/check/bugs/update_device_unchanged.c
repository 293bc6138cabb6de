/* acc check corpus (seeded bug): update device of data the host did not change (warning). */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc data copyin(a) copyout(b)
  {
    #pragma acc update device(a)
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) b[i] = a[i];
  }
  printf("%f\n", b[3]);
  return 0;
}
