/* acc check corpus (seeded bug): the host changes an array inside a data region; the kernel reads the old device copy. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc data copyin(a) copyout(b)
  {
    for (int i = 0; i < N; i++) a[i] = 2 * i;
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) b[i] = a[i] + 1;
  }
  printf("%f\n", b[1]);
  return 0;
}
