/* acc check corpus (seeded bug): a file-scope array the host changes inside the data region, read by the kernel with no update. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
static double b[N], o[N];
int main(void) {
  for (int i = 0; i < N; i++) b[i] = i;
  #pragma acc data copyin(b) copyout(o)
  {
    b[0] = 100;
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) o[i] = b[0] + b[i];
  }
  printf("%f\n", o[10]);
  return 0;
}
