/* Multi-dimensional gangs (OpenACC 3.3): num_gangs with up to three
 * arguments on parallel, and loop gang(dim:d) nests, outer loops using the
 * higher dimensions; also gang(dim:1), which is the plain gang. */
#include <stdio.h>

#define NI 8
#define NJ 6
#define NK 40

static int a[NI][NJ][NK], b[NI][NJ];

int main(void) {
  #pragma acc parallel num_gangs(4, 3, 2) copyout(a)
  {
    #pragma acc loop gang(dim:3)
    for (int i = 0; i < NI; i++) {
      #pragma acc loop gang(dim:2)
      for (int j = 0; j < NJ; j++) {
        #pragma acc loop gang(dim:1) vector
        for (int k = 0; k < NK; k++)
          a[i][j][k] = i * 10000 + j * 100 + k;
      }
    }
  }

  #pragma acc parallel num_gangs(2, 5) copyout(b)
  {
    #pragma acc loop gang(dim:2)
    for (int i = 0; i < NI; i++) {
      #pragma acc loop gang(dim:1)
      for (int j = 0; j < NJ; j++)
        b[i][j] = i * j;
    }
  }

  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      if (b[i][j] != i * j) { printf("gang-dim: b[%d][%d] = %d\n", i, j, b[i][j]); return 1; }
      for (int k = 0; k < NK; k++)
        if (a[i][j][k] != i * 10000 + j * 100 + k) { printf("gang-dim: a[%d][%d][%d] = %d\n", i, j, k, a[i][j][k]); return 1; }
    }
  printf("gang-dim: ok\n");
  return 0;
}
