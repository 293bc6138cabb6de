/* saxpy with data clauses and a combined gang vector loop. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 10000;
  float a = 2.5f;
  float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  for (int i = 0; i < n; i++) { x[i] = i; y[i] = 1.0f; }
  #pragma acc data copyin(x[0:n]) copy(y[0:n])
  {
    #pragma acc parallel loop gang vector
    for (int i = 0; i < n; i++)
      y[i] = a * x[i] + y[i];
  }
  for (int i = 0; i < n; i++)
    if (y[i] != a * i + 1.0f) { printf("saxpy: y[%d] = %f\n", i, y[i]); return 1; }
  printf("saxpy: ok\n");
  free(x); free(y);
  return 0;
}
