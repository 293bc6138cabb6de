/* acc check corpus (seeded bug): copyin of an array the kernel writes and the host reads after. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc parallel loop copyin(a)
  for (int i = 0; i < N; i++) a[i] = a[i] * 2;
  printf("%f\n", a[10]);
  return 0;
}
