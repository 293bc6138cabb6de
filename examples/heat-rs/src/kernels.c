/* kernels.c: OpenACC C kernels, translated and compiled by acc-build. */
#include "heat.h"

void heat_run(int n, int steps, double alpha, double *u, double *tmp) {
  #pragma acc data copy(u[0:n]) create(tmp[0:n])
  {
    for (int s = 0; s < steps; ++s) {
      #pragma acc parallel loop present(u[0:n], tmp[0:n])
      for (int i = 1; i < n - 1; ++i)
        tmp[i] = u[i] + alpha * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
      #pragma acc parallel loop present(u[0:n], tmp[0:n])
      for (int i = 1; i < n - 1; ++i)
        u[i] = tmp[i];
    }
  }
}

double heat_sum(int n, const double *u) {
  double s = 0;
  #pragma acc parallel loop reduction(+:s) copyin(u[0:n])
  for (int i = 0; i < n; ++i)
    s += u[i];
  return s;
}
