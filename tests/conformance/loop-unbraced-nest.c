/* A loop directive as the unbraced body of a plain `for` nested in a partitioned loop (the shape of
 * stencil and factorization codes): the partitioned loop spans the whole nest. */
#include <stdio.h>
#define N 16
int main(void) {
  double a[N][N][N];
  #pragma acc parallel copyout(a)
  {
    #pragma acc loop gang
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++)
        #pragma acc loop seq
        for (int k = 0; k < N; k++)
          a[i][j][k] = i + j * k;
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        if (a[i][j][k] != i + j * k) { printf("wrong\n"); return 1; }
  printf("loop-unbraced-nest: ok\n");
  return 0;
}
