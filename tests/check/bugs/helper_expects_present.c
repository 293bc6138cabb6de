/* acc check corpus (seeded bug): a helper's kernel expects its argument present; the caller never maps it. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
static void scale(double *p, int n) {
  #pragma acc parallel loop present(p[0:n])
  for (int i = 0; i < n; i++) p[i] *= 2;
}
int main(void) {
  double *p = malloc(N * sizeof *p);
  for (int i = 0; i < N; i++) p[i] = i;
  scale(p, N);
  printf("%f\n", p[3]);
  free(p);
  return 0;
}
