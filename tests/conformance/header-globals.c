/* A program's own header declares the globals, typedefs, struct types, macros and enumerators
 * its kernels use: the kernels (and their GPU versions) see them as the C compiler does. A
 * scalar global is firstprivate, a struct global is copied, a reduction's type comes through a
 * typedef. */
#include "header-globals.h"

int main(void) {
  hg_real v[HG_N];
  hg_point p[HG_N];
  hg_real sum = 0;
  enum hg_mode mode = HG_MUL;
  (void)hg_log;
  #pragma acc parallel loop copyout(v, p) reduction(+:sum)
  for (long long i = 0; i < hg_count; i++) {
    v[i] = (hg_real)(mode == HG_MUL ? i * 2 : i + 2);
    p[i].x = hg_origin.x + (hg_real)i;
    p[i].y = hg_origin.y;
    sum += v[i];
  }
  int failed = 0;
  for (int i = 0; i < HG_N; i++)
    if (v[i] != 2.0f * i || p[i].x != 1.0f + i || p[i].y != 2.0f) {
      printf("element %d: %g %g %g\n", i, v[i], p[i].x, p[i].y);
      failed = 1;
      break;
    }
  if (sum != (hg_real)(HG_N * (HG_N - 1))) {
    printf("sum %g\n", sum);
    failed = 1;
  }
  if (!failed) printf("header-globals: ok\n");
  return failed;
}
