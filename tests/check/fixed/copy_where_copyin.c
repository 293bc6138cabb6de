/* acc check corpus (fixed): copy of an input the device only reads (warning). */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc parallel loop copyin(a) copyout(b)
  for (int i = 0; i < N; i++) b[i] = 2 * a[i];
  printf("%f\n", b[3]);
  return 0;
}
