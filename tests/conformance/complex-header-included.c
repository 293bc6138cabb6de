/* `double complex` and `I` in kernels and a routine of a file that gets the C library's
 * complex header only through a header of its own (lattice-QCD codes do): the GPU's module
 * must read them as the complex type and the imaginary unit, as where the file names it; and
 * GNU C's imaginary constants (`0.5i`, `2.0fI`), which those codes write too. */
#include <stdio.h>
#include "complex-header-included.h"

#define N 64

#pragma acc routine seq
static void set(double complex *a, int i) { a[i] = i + I * 2.0; }

int main(void) {
  double complex a[N];
  double complex b[N], c[N];
#pragma acc parallel loop copyout(a[0:N], b[0:N], c[0:N])
  for (int i = 0; i < N; i++) {
    set(a, i);
    b[i] = a[i] * I;
    c[i] = i * 0.5i + 2.0fI;
  }
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += creal(a[i]) != i || cimag(a[i]) != 2.0 || creal(b[i]) != -2.0 || cimag(b[i]) != i ||
           creal(c[i]) != 0.0 || cimag(c[i]) != i * 0.5 + 2.0;
  if (bad) {
    printf("complex-header-included: %d wrong\n", bad);
    return 1;
  }
  printf("complex-header-included: ok\n");
  return 0;
}
