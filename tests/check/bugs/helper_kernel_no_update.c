/* acc check corpus (seeded bug): a helper runs the kernel on data its caller entered; the caller reads without an update. */
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
  #pragma acc enter data copyin(p[0:N])
  scale(p, N);
  printf("%f\n", p[3]);
  #pragma acc exit data delete(p[0:N])
  free(p);
  return 0;
}
