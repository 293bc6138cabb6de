/* acc check corpus (fixed): create where the host reads the result: missing copyout. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc data copyin(a) copyout(b)
  {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) b[i] = 2 * a[i];
  }
  printf("%f\n", b[10]);
  return 0;
}
