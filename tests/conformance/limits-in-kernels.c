/* The C library's constants and classification macros in kernels (<limits.h>, <stdint.h>,
   <float.h>, <math.h>) and C11's `_Static_assert`: the GPU's kernels have them as the host
   does. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#define N 64
int main(void) {
  long long out[N];
  double d[N];
  #pragma acc parallel loop copyout(out, d)
  for (int i = 0; i < N; i++) {
    _Static_assert(CHAR_BIT == 8, "bytes of 8 bits");
    long long v = i % 8;
    if (v == 0) v = SHRT_MAX + (long long)SCHAR_MIN + UCHAR_MAX;
    if (v == 1) v = INT8_MIN + INT16_MAX + (long long)UINT8_MAX;
    if (v == 2) v = (long long)(UINT64_C(1) << 40) + INT32_MAX;
    if (v == 3) v = FLT_MANT_DIG + DBL_MANT_DIG + DBL_DIG + (SIZE_MAX > UINT32_MAX);
    out[i] = v;
    double x = i * 0.5;
    d[i] = isfinite(x) && !isnan(x) && !signbit(x) && DBL_MIN > 0 ? x + M_SQRT2 : -1;
  }
  for (int i = 0; i < N; i++) {
    long long v = i % 8, want = v;
    if (v == 0) want = SHRT_MAX + (long long)SCHAR_MIN + UCHAR_MAX;
    if (v == 1) want = INT8_MIN + INT16_MAX + (long long)UINT8_MAX;
    if (v == 2) want = (long long)(UINT64_C(1) << 40) + INT32_MAX;
    if (v == 3) want = FLT_MANT_DIG + DBL_MANT_DIG + DBL_DIG + (SIZE_MAX > UINT32_MAX);
    if (out[i] != want || d[i] != i * 0.5 + M_SQRT2) {
      printf("limits-in-kernels: %d: %lld %g\n", i, out[i], d[i]);
      return 1;
    }
  }
  printf("limits-in-kernels: ok\n");
  return 0;
}
