/* acc check corpus (fixed): a malloc'ed pointer used in a kernel with no data clause at all. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double *p = malloc(N * sizeof *p), s = 0;
  for (int i = 0; i < N; i++) p[i] = i;
  #pragma acc parallel loop copyin(p[0:N]) reduction(+:s)
  for (int i = 0; i < N; i++) s += p[i];
  printf("%f\n", s);
  free(p);
  return 0;
}
