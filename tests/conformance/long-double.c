/* long double arithmetic in kernels: division, products, sums with cancellation,
 * square roots, conversions from and to int and double, comparisons, a private and a reduction,
 * each compared bit for bit with the same expressions on the host (the device must
 * round as the host does). */
#include <float.h>
#include <math.h>
#include <stdio.h>

#define N 500

int main(void) {
  long double a[N], b[N], r[N], lo = LDBL_MAX, total = 0.0L;
  double c[N];
  long long d[N];
  int above[N];
  #pragma acc parallel loop copyout(a, b, c, d, r, above) reduction(min:lo) reduction(+:total)
  for (int i = 0; i < N; i++) {
    long double t = (long double)(i + 1) / 3;
    a[i] = t * t - 1.0L / 7;
    b[i] = (a[i] + 1e10L) - 1e10L + (long double)0.1 * i;
    c[i] = (double)b[i];
    d[i] = (long long)(b[i] * 1000);
    r[i] = sqrtl(fabsl(b[i]) + i);
    above[i] = b[i] > (long double)c[i];
    lo = b[i] < lo ? b[i] : lo;
    total += a[i] / (i + 3);
  }
  long double rlo = LDBL_MAX, rtotal = 0.0L;
  for (int i = 0; i < N; i++) {
    volatile long double t = (long double)(i + 1) / 3;
    long double ra = t * t - 1.0L / 7;
    long double rb = (ra + 1e10L) - 1e10L + (long double)0.1 * i;
    if (a[i] != ra || b[i] != rb || c[i] != (double)rb || d[i] != (long long)(rb * 1000) ||
        r[i] != sqrtl(fabsl(rb) + i) ||
        above[i] != (rb > (long double)(double)rb)) {
      printf("long-double: element %d: a %.21Lg/%.21Lg b %.21Lg/%.21Lg\n", i, a[i], ra, b[i], rb);
      return 1;
    }
    rlo = rb < rlo ? rb : rlo;
  }
  for (int i = 0; i < N; i++) rtotal += a[i] / (i + 3);
  /* The sum's order differs between devices: allow rounding in the last bits. */
  long double diff = total - rtotal;
  if (lo != rlo || diff > 1e-15L || diff < -1e-15L) {
    printf("long-double: min %.21Lg/%.21Lg sum %.21Lg/%.21Lg\n", lo, rlo, total, rtotal);
    return 1;
  }
  printf("long-double: ok\n");
  return 0;
}
