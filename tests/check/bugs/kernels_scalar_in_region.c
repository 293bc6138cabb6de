/* acc check corpus (seeded bug): a scalar the kernels region writes inside a data region that only copies it in. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double a[N];
  int count = 0;
  for (int i = 0; i < N; i++) a[i] = i - 50;
  #pragma acc data copyin(a, count)
  {
    #pragma acc kernels
    {
      for (int i = 0; i < N; i++)
        if (a[i] > 0) count = i;
    }
  }
  printf("%d\n", count);
  return 0;
}
