/* Real and complex operands mixed as C allows (`x + y * I` with double x and y, `2 * z`,
 * `z / 4.0f`, a long times I): C converts to the wider type, and kernels compute what the host
 * does on every device. GCC's builtin names of the <complex.h> functions work in kernels too. */
#include <complex.h>
#include <stdio.h>

#define N 64

int main(void) {
  double complex a[N];
  float complex b[N];
  for (int i = 0; i < N; i++) {
    a[i] = 0;
    b[i] = 0;
  }
  #pragma acc parallel loop copy(a, b)
  for (int i = 0; i < N; i++) {
    double x = i, y = 2.0 * i;
    long k = i % 3;
    a[i] = x + y * I;
    a[i] = 2 * a[i] - k * I + 0.5;
    b[i] = (float)i * I + 1.0f;
    b[i] = b[i] / 4.0f + 3 * b[i];
    b[i] = __builtin_conjf(b[i]) + __builtin_crealf(b[i]) - __builtin_cimagf(b[i]);
    a[i] = __builtin_conj(a[i]) * __builtin_creal(a[i]) + __builtin_cimag(a[i]);
  }
  for (int i = 0; i < N; i++) {
    double complex wa = 2 * ((double)i + 2.0 * i * I) - (long)(i % 3) * I + 0.5;
    float complex wb0 = (float)i * I + 1.0f;
    float complex wb1 = wb0 / 4.0f + 3 * wb0;
    float complex wb = conjf(wb1) + crealf(wb1) - cimagf(wb1);
    wa = conj(wa) * creal(wa) + cimag(wa);
    if (creal(a[i]) != creal(wa) || cimag(a[i]) != cimag(wa) || crealf(b[i]) != crealf(wb) ||
        cimagf(b[i]) != cimagf(wb)) {
      printf("%d: a = %g%+gi (want %g%+gi), b = %g%+gi (want %g%+gi)\n", i, creal(a[i]),
             cimag(a[i]), creal(wa), cimag(wa), crealf(b[i]), cimagf(b[i]), crealf(wb),
             cimagf(wb));
      return 1;
    }
  }
  printf("complex-mixed-arithmetic: ok\n");
  return 0;
}
