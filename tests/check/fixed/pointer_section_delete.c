/* acc check corpus (fixed): a pointer's section created and deleted with enter/exit data; the results never come back. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
void scale(double *p, int n);
int main(void) {
  int n = N;
  double *p = malloc(n * sizeof *p);
  #pragma acc enter data create(p[0:n])
  #pragma acc parallel loop present(p[0:n])
  for (int i = 0; i < n; i++) p[i] = i * 0.5;
  #pragma acc exit data copyout(p[0:n])
  printf("%f\n", p[n - 1]);
  free(p);
  return 0;
}
