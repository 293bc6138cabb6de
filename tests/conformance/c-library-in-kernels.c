/* What kernels use of C's library headers besides the common math functions: <math.h>'s
 * INFINITY, NAN and HUGE_VAL (a min/max search's starting values), its classification macros
 * (fpclassify, isnormal, isgreater, isunordered), its functions with an integer or pointer
 * parameter (ldexp, scalbn, frexp, modf, remquo, ilogb, lround) and fma, with the arguments C
 * converts (a float to ldexp computes in double, as C has one ldexp); <stddef.h>'s offsetof,
 * <stdlib.h>'s RAND_MAX and <inttypes.h>'s PRId64. A GPU's C++ has none of the macros and
 * overloads the functions by precision. */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

struct cell {
  char tag;
  double value;
};

enum { N = 40 };

int main(void) {
  double lowest[N], highest[N], parts[N];
  long ints[N];
  int classes[N];
#pragma acc parallel loop copyout(lowest, highest, parts, ints, classes)
  for (int i = 0; i < N; i++) {
    double lo = INFINITY, hi = -HUGE_VAL;
    for (int k = 0; k < 5; k++) {
      double v = (double)((i * 7 + k * 3) % 11) - 5.0;
      lo = fmin(lo, v);
      hi = fmax(hi, v);
    }
    lowest[i] = lo;
    highest[i] = hi;
    float f = 0.75f + i;
    int e = 0, q = 0;
    double whole = 0.0;
    double mant = frexp(f, &e);
    double frac = modf(i + 0.25, &whole);
    double rem = remquo(i + 0.5, 2.0, &q);
    /* ldexp of a float by 200 is finite only in double, as C computes it. */
    parts[i] = ldexp(f, 200) / ldexp(1.0, 200) + scalbn(1.0, i % 4) + mant * (1 << e) + frac +
               whole + rem + fma(f, 2.0f, 0.5);
    ints[i] = lround(i + 0.5) + ilogb(i + 1.0) + (long)offsetof(struct cell, value) +
              (RAND_MAX > 32766) + (long)sizeof(PRId64);
    double odd = i % 3 == 0 ? NAN : i % 3 == 1 ? 0.0 : (double)i;
    classes[i] = fpclassify(odd) * 100 + isnormal(odd) * 10 + isgreater(odd, 1.0) +
                 2 * isunordered(odd, 0.0);
  }
  int bad = 0;
  for (int i = 0; i < N; i++) {
    double lo = 1e300, hi = -1e300;
    for (int k = 0; k < 5; k++) {
      double v = (double)((i * 7 + k * 3) % 11) - 5.0;
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    bad += lowest[i] != lo || highest[i] != hi;
    double f = 0.75 + i;
    double want = f + (double)(1 << (i % 4)) + f + 0.25 + i + remainder(i + 0.5, 2.0) + (f * 2.0 + 0.5);
    bad += fabs(parts[i] - want) > 1e-9 * fabs(want);
    long want_int = lround(i + 0.5) + ilogb(i + 1.0) + (long)offsetof(struct cell, value) + 1 +
                    (long)sizeof(PRId64);
    bad += ints[i] != want_int;
    int want_class = i % 3 == 0 ? FP_NAN * 100 + 2
                     : i % 3 == 1 ? FP_ZERO * 100
                                  : FP_NORMAL * 100 + 10 + (i > 1);
    bad += classes[i] != want_class;
  }
  if (bad) {
    printf("c-library-in-kernels: %d wrong\n", bad);
    return 1;
  }
  printf("c-library-in-kernels: ok\n");
  return 0;
}
