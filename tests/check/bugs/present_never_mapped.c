/* acc check corpus (seeded bug): present of an array nothing mapped. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc parallel loop present(a)
  for (int i = 0; i < N; i++) a[i] += 1;
  printf("%f\n", a[5]);
  return 0;
}
