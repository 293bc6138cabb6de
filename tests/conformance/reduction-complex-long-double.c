/* `long double _Complex` in kernels and in a reduction: on the GPU it is the complex template
 * over acc's 80-bit long double, so sums of values exact in long double match the host's. */
#include <complex.h>
#include <stdio.h>

#define N 300

int main(void) {
  long double _Complex a[N], b[N];
  for (int i = 0; i < N; i++) {
    a[i] = (long double)(i % 7) + (long double)(i % 5) * I;
    b[i] = 0.5L - (long double)(i % 3) * I;
  }
  long double _Complex total = 10 + 10 * I, prod[N];
  #pragma acc parallel loop copyin(a, b) copyout(prod) reduction(+:total)
  for (int i = 0; i < N; i++) {
    total += a[i] + b[i];
    prod[i] = a[i] * b[i];
  }
  long double _Complex want = 10 + 10 * I;
  for (int i = 0; i < N; i++) {
    want += a[i] + b[i];
    long double _Complex p = a[i] * b[i];
    if (creall(prod[i]) != creall(p) || cimagl(prod[i]) != cimagl(p)) {
      printf("prod[%d] = %Lg%+Lgi, want %Lg%+Lgi\n", i, creall(prod[i]), cimagl(prod[i]), creall(p), cimagl(p));
      return 1;
    }
  }
  if (creall(total) != creall(want) || cimagl(total) != cimagl(want)) {
    printf("total %Lg%+Lgi, want %Lg%+Lgi\n", creall(total), cimagl(total), creall(want), cimagl(want));
    return 1;
  }
  printf("reduction-complex-long-double: ok\n");
  return 0;
}
