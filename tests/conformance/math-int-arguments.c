/* C's math and integer library called with arguments of other arithmetic types in kernels, as
 * C converts them to the parameter's type (`abs(a - b)` on unsigned values, Parboil sad;
 * `sqrt(i)`, `pow(i, 2)` on ints; `sin(x)` of a float computes in double; `abs(-0.75)` is 0).
 * C++ (a GPU's kernels) overloads these functions, where such a call is ambiguous or takes
 * the float version: the answers must be C's. */
/* GCC's -Wextra warns of `abs` on an unsigned or a long value, and of `fabs` on an int:
   meant here. */
#pragma GCC diagnostic ignored "-Wabsolute-value"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  enum { N = 64 };
  unsigned int a[N], b[N];
  unsigned long ul[N];
  double out[N], precise[N];
  int truncated[N];
  /* The float arguments are made on the host: `0.1f * i + 0.05f` in a kernel may round once
     (a GPU fuses the multiply-add unless told -ffp-contract=off) where the host rounds twice. */
  float xs[N];
  for (int i = 0; i < N; i++) {
    xs[i] = 0.1f * i + 0.05f;
    a[i] = i % 17;
    b[i] = i % 5;
    ul[i] = (unsigned long)(i % 7);
  }
#pragma acc parallel loop copyin(a, b, ul, xs) copyout(out, precise, truncated)
  for (int i = 0; i < N; i++) {
    int d = abs(a[i] - b[i]);
    int e = abs(ul[i] - 3);
    double r = sqrt(i) + pow(i, 2) + fabs(i - 30) + floor(i / 2) + exp(i % 2) + log(i + 1) +
               fmin(i, 10) + fmax(i, 50) + ceil(i) + sin(i % 3) + cos(0) + atan2(i, 1) +
               fmod(i, 7) + hypot(i % 3, 4) + cbrt(i) + round(i) + trunc(i) + copysign(i, -1);
    out[i] = d + e + r;
    float xf = xs[i];
    precise[i] = sin(xf) + exp(xf) + sqrt(xf) + pow(xf, 1.5f) + atan2(xf, 3.0f);
    truncated[i] = abs(-0.75 * i);
  }
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int d = abs((int)(a[i] - b[i]));
    int e = abs((int)(ul[i] - 3));
    double r = sqrt((double)i) + pow((double)i, 2.0) + fabs((double)(i - 30)) +
               floor((double)(i / 2)) + exp((double)(i % 2)) + log((double)(i + 1)) +
               fmin((double)i, 10.0) + fmax((double)i, 50.0) + ceil((double)i) +
               sin((double)(i % 3)) + cos(0.0) + atan2((double)i, 1.0) + fmod((double)i, 7.0) +
               hypot((double)(i % 3), 4.0) + cbrt((double)i) + round((double)i) +
               trunc((double)i) + copysign((double)i, -1.0);
    double want = d + e + r;
    bad += fabs(out[i] - want) > 1e-9 * (1 + fabs(want));
    double xd = (double)xs[i];
    double p = sin(xd) + exp(xd) + sqrt(xd) + pow(xd, 1.5) + atan2(xd, 3.0);
    bad += fabs(precise[i] - p) > 1e-14 * (1 + fabs(p));
    bad += truncated[i] != abs((int)(-0.75 * i));
  }
  if (bad) {
    printf("math-int-arguments: %d wrong\n", bad);
    return 1;
  }
  printf("math-int-arguments: ok\n");
  return 0;
}
