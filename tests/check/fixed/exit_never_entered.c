/* acc check corpus (fixed): exit data of data never entered. */
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
