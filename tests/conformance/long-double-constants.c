/* long double constants in a kernel, exact doubles or not (0.1L has more bits
 * than a double), decimal and hexadecimal, down to the denormals: the device
 * must see the values the host compiler made of them. */
#include <stdio.h>

#define N 64

int main(void) {
  long double x[N], y[N], z[N];
  #pragma acc parallel loop copyout(x, y, z)
  for (int i = 0; i < N; i++) {
    x[i] = i * 0.1L + 3.14159265358979323846264338327950288L;
    y[i] = i * 0x1.123456789abcdefp-3L - 1e-4940L;
    z[i] = (i + 1) * 3.6451995318824746025e-4951L + 1.18973149535723176502e+4932L / (i + 2);
  }
  for (int i = 0; i < N; i++) {
    volatile long double a = i * 0.1L + 3.14159265358979323846264338327950288L;
    volatile long double b = i * 0x1.123456789abcdefp-3L - 1e-4940L;
    volatile long double c = (i + 1) * 3.6451995318824746025e-4951L + 1.18973149535723176502e+4932L / (i + 2);
    if (x[i] != a || y[i] != b || z[i] != c) {
      printf("long-double-constants: %d: %.21Lg/%.21Lg %.21Lg/%.21Lg %.21Lg/%.21Lg\n", i, x[i], a,
             y[i], b, z[i], c);
      return 1;
    }
  }
  printf("long-double-constants: ok\n");
  return 0;
}
