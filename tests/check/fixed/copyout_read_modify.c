/* acc check corpus (fixed): copyout of an array the kernel updates in place: it reads uninitialized device memory. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc parallel loop copy(a)
  for (int i = 0; i < N; i++) a[i] += 1;
  printf("%f\n", a[5]);
  return 0;
}
