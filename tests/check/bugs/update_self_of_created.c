/* acc check corpus (seeded bug): update self of device memory nothing wrote overwrites the host's data. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc data create(a)
  {
    #pragma acc update self(a)
  }
  printf("%f\n", a[3]);
  return 0;
}
