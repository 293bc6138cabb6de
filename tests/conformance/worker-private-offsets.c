/* A worker loop's private scalar set in its body, outside the vector loop inside, and used by
 * every vector lane (NPB MG's `i2 = 2*j2 - d2` before its vector loop): on a GPU that spreads
 * the worker loop over a block's rows and the vector loop over a row's lanes, each lane has
 * its own copy and must compute it, not only the row's first lane. */
#include <stdio.h>

#define NG 4
#define NW 4
#define NV 32

int main(void) {
  static double a[NG * NW * NV];
  int off = -1;
  #pragma acc parallel loop gang num_gangs(NG) num_workers(NW) vector_length(NV) copyout(a)
  for (int i = 0; i < NG; i++) {
    #pragma acc loop worker private(off)
    for (int j = 0; j < NW; j++) {
      off = (i * NW + j) * NV;
      #pragma acc loop vector
      for (int k = 0; k < NV; k++)
        a[off + k] = off + k;
    }
  }
  for (int i = 0; i < NG * NW * NV; i++)
    if (a[i] != i) {
      printf("a[%d] = %g\n", i, a[i]);
      return 1;
    }
  printf("worker-private-offsets: ok\n");
  return 0;
}
