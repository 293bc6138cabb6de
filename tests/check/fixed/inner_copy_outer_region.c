/* acc check corpus (fixed): reference counts: the inner copy moves nothing, the outer region holds the data. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double c[N];
  for (int i = 0; i < N; i++) c[i] = 0;
  #pragma acc data copyin(c)
  {
    #pragma acc parallel loop copy(c)
    for (int i = 0; i < N; i++) c[i] += 1;
    #pragma acc update self(c)
    printf("%f\n", c[10]);
  }
  return 0;
}
