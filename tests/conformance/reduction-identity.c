/* Scalar reductions start each gang's copy from the operator's identity, whatever the type
 * (through typedefs, _Bool, the extremes of signed and unsigned types, -infinity for
 * max of a float), in every shape of kernel: a gang loop, a loop with a worker/vector loop
 * inside, gang-redundant code of several gangs, a serial region. The variable's own value
 * is combined exactly once. Launches with different reductions alternate, so the runtime's
 * reuse of one launch's reduction buffer for the next is exercised too. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>

typedef long long wide_t;

static int failures;

static void expect(const char *what, double got, double want) {
  if (got != want) {
    printf("%s: got %.17g, want %.17g\n", what, got, want);
    failures++;
  }
}

int main(void) {
  const int n = 1000;
  for (int round = 0; round < 3; round++) {
    double dmax = -INFINITY, dmin = INFINITY, dsum = 0.5;
    float fmax_v = -INFINITY;
    signed char cmin = 5;
    unsigned short umax = 0;
    unsigned long band = ~0UL;
    wide_t wmin = LLONG_MAX, wmax = LLONG_MIN;
    _Bool all = 1, any = 0;
    int lmax = -3;
#pragma acc parallel loop reduction(max : dmax, fmax_v, umax, wmax, lmax) \
    reduction(min : dmin, cmin, wmin) reduction(+ : dsum) reduction(& : band) \
    reduction(&& : all) reduction(|| : any)
    for (int i = 0; i < n; i++) {
      dmax = fmax(dmax, -1.0 - i);
      dmin = fmin(dmin, 2.0 + i);
      dsum += 1.0;
      if (-1.0f - i > fmax_v) fmax_v = -1.0f - i;
      if ((signed char)(-100 + i % 7) < cmin) cmin = (signed char)(-100 + i % 7);
      if ((unsigned short)(60000 + i % 5) > umax) umax = (unsigned short)(60000 + i % 5);
      band &= ~(1UL << (i % 3));
      if ((wide_t)i * -3 < wmin) wmin = (wide_t)i * -3;
      if ((wide_t)i * 5 > wmax) wmax = (wide_t)i * 5;
      all = all && (i >= 0);
      any = any || (i == 777);
      if (i == 500) lmax = 40;
    }
    expect("max double", dmax, -1.0);
    expect("min double", dmin, 2.0);
    expect("sum double", dsum, 0.5 + n);
    expect("max float", fmax_v, -1.0f);
    expect("min signed char", cmin, -100);
    expect("max unsigned short", umax, 60004);
    expect("bitand unsigned long", (double)band, (double)(~0UL & ~7UL));
    expect("min long long", (double)wmin, -3.0 * (n - 1));
    expect("max long long", (double)wmax, 5.0 * (n - 1));
    expect("and _Bool", all, 1);
    expect("or _Bool", any, 1);
    expect("max int", lmax, 40);

    /* A reduction that only some launches have, between the others. */
    long count = 7;
#pragma acc parallel loop reduction(+ : count)
    for (int i = 0; i < n; i++) count += i % 2;
    expect("sum long", (double)count, 7.0 + n / 2);

    /* Worker and vector loops inside a gang loop. */
    int imax = INT_MIN;
    double inner = 0;
#pragma acc parallel loop gang reduction(max : imax) reduction(+ : inner)
    for (int i = 0; i < 64; i++) {
#pragma acc loop vector reduction(max : imax) reduction(+ : inner)
      for (int j = 0; j < 32; j++) {
        if (i * 32 + j > imax) imax = i * 32 + j;
        inner += 1.0;
      }
    }
    expect("max int (nested)", imax, 64 * 32 - 1);
    expect("sum double (nested)", inner, 64.0 * 32);

    /* Gang-redundant code: each of 8 gangs adds once, and the identity of every other gang
     * must not change the result. */
    int gangs = 100;
    unsigned int ubits = 0;
#pragma acc parallel num_gangs(8) reduction(+ : gangs) reduction(| : ubits)
    {
      gangs += 1;
      ubits |= 4u;
    }
    expect("sum int (redundant, 8 gangs)", gangs, 108);
    expect("bitor unsigned (redundant)", ubits, 4);

    /* A serial region runs once. */
    double prod = 3.0;
#pragma acc serial reduction(* : prod)
    prod *= 2.0;
    expect("product double (serial)", prod, 6.0);
  }
  if (failures) {
    printf("%d wrong\n", failures);
    return 1;
  }
  puts("ok");
  return 0;
}
