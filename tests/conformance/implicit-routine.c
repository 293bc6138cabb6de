/* Functions of the file called in compute constructs without a `routine` directive: OpenACC
 * 3.3 2.15.1 applies an implicit `routine seq` to each (and to what they call), so they run in
 * the kernels on every device, a GPU included; one reads a `declare`d global, whose device copy
 * it then sees. */
#include <math.h>
#include <stdio.h>

#define N 1000

static double scale = 3.0;
#pragma acc declare copyin(scale)

static inline double sq(double x) { return x * x; }

static double hyp(double x, double y) { return sqrt(sq(x) + sq(y)); }

double scaled(double x) { return scale * x; }

#pragma acc routine seq
static double twice_scaled(double x) { return 2.0 * scaled(x); }

int main(void) {
  static double a[N], b[N], c[N];
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc parallel loop copyin(a) copyout(b)
  for (int i = 0; i < N; i++) b[i] = hyp(a[i], 1.0);
  #pragma acc kernels copyin(a) copyout(c)
  for (int i = 0; i < N; i++) c[i] = twice_scaled(a[i]);
  for (int i = 0; i < N; i++) {
    if (fabs(b[i] - sqrt(a[i] * a[i] + 1.0)) > 1e-12 * (1 + b[i])) { printf("b[%d] = %g\n", i, b[i]); return 1; }
    if (c[i] != 6.0 * i) { printf("c[%d] = %g\n", i, c[i]); return 1; }
  }
  printf("implicit routines: ok\n");
  return 0;
}
