/* vec.c — the kernels, written with OpenACC. A compiler without OpenACC
 * ignores the directives and runs them sequentially, with the same result. */
#include "vec.h"

void saxpy(int n, float a, const float *x, float *y) {
  #pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

double dot(int n, const double *x, const double *y) {
  double sum = 0.0;
  #pragma acc parallel loop reduction(+:sum) copyin(x[0:n], y[0:n])
  for (int i = 0; i < n; i++)
    sum += x[i] * y[i];
  return sum;
}
