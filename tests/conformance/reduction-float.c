/* reduction with + * max min && || on float and double, on a combined
 * parallel loop, on a loop inside parallel (with the variable in copy on
 * the parallel), and on kernels loop. The values are small multiples of
 * 1/4 and the products powers of two, so every order of combination gives
 * the exact sequential answer. */
#include <float.h>
#include <stdio.h>

#define N 200

static int test_float(void) {
  float v[N], p[N];
  for (int i = 0; i < N; i++) {
    v[i] = (float)((i % 11) - 5) * 0.25f;
    p[i] = i % 37 == 0 ? -2.0f : (i % 41 == 1 ? 0.5f : 1.0f);
  }
  float sum = 0, prod = 1, mx = -FLT_MAX, mn = FLT_MAX, land = 1, lor = 0;
  float sum2 = 0, mx2 = -FLT_MAX, sum3 = 0, prod3 = 1;
  #pragma acc parallel loop copyin(v, p) reduction(+:sum) reduction(*:prod) reduction(max:mx) \
      reduction(min:mn) reduction(&&:land) reduction(||:lor)
  for (int i = 0; i < N; i++) {
    sum += v[i];
    prod *= p[i];
    mx = v[i] > mx ? v[i] : mx;
    mn = v[i] < mn ? v[i] : mn;
    land = land && v[i] != 3.0f;
    lor = lor || v[i] == 1.25f;
  }
  #pragma acc parallel copyin(v) copy(sum2, mx2)
  {
    #pragma acc loop gang worker vector reduction(+:sum2) reduction(max:mx2)
    for (int i = 0; i < N; i++) {
      sum2 += v[i] * 2.0f;
      mx2 = -v[i] > mx2 ? -v[i] : mx2;
    }
  }
  #pragma acc kernels loop copyin(v, p) reduction(+:sum3) reduction(*:prod3)
  for (int i = 0; i < N; i++) {
    sum3 += v[i] + 1.0f;
    prod3 *= p[i] * p[i];
  }
  float rsum = 0, rprod = 1, rmx = -FLT_MAX, rmn = FLT_MAX, rland = 1, rlor = 0, rsum2 = 0, rmx2 = -FLT_MAX, rsum3 = 0, rprod3 = 1;
  for (int i = 0; i < N; i++) {
    rsum += v[i];
    rprod *= p[i];
    rmx = v[i] > rmx ? v[i] : rmx;
    rmn = v[i] < rmn ? v[i] : rmn;
    rland = rland && v[i] != 3.0f;
    rlor = rlor || v[i] == 1.25f;
    rsum2 += v[i] * 2.0f;
    rmx2 = -v[i] > rmx2 ? -v[i] : rmx2;
    rsum3 += v[i] + 1.0f;
    rprod3 *= p[i] * p[i];
  }
  if (sum != rsum || prod != rprod || mx != rmx || mn != rmn || land != rland || lor != rlor ||
      sum2 != rsum2 || mx2 != rmx2 || sum3 != rsum3 || prod3 != rprod3) {
    printf("reduction-float: float: + %g/%g * %g/%g max %g/%g min %g/%g && %g/%g || %g/%g "
           "loop+ %g/%g loopmax %g/%g kernels+ %g/%g kernels* %g/%g\n",
           (double)sum, (double)rsum, (double)prod, (double)rprod, (double)mx, (double)rmx,
           (double)mn, (double)rmn, (double)land, (double)rland, (double)lor, (double)rlor,
           (double)sum2, (double)rsum2, (double)mx2, (double)rmx2, (double)sum3, (double)rsum3,
           (double)prod3, (double)rprod3);
    return 1;
  }
  return 0;
}

static int test_double(void) {
  double v[N], p[N];
  for (int i = 0; i < N; i++) {
    v[i] = (double)((i % 11) - 5) * 0.25;
    p[i] = i % 37 == 0 ? -2.0 : (i % 41 == 1 ? 0.5 : 1.0);
  }
  double sum = 0, prod = 1, mx = -DBL_MAX, mn = DBL_MAX, land = 1, lor = 0;
  double sum2 = 0, mx2 = -DBL_MAX, sum3 = 0, prod3 = 1;
  #pragma acc parallel loop copyin(v, p) reduction(+:sum) reduction(*:prod) reduction(max:mx) \
      reduction(min:mn) reduction(&&:land) reduction(||:lor)
  for (int i = 0; i < N; i++) {
    sum += v[i];
    prod *= p[i];
    mx = v[i] > mx ? v[i] : mx;
    mn = v[i] < mn ? v[i] : mn;
    land = land && v[i] != 3.0;
    lor = lor || v[i] == 1.25;
  }
  #pragma acc parallel copyin(v) copy(sum2, mx2)
  {
    #pragma acc loop gang worker vector reduction(+:sum2) reduction(max:mx2)
    for (int i = 0; i < N; i++) {
      sum2 += v[i] * 2.0;
      mx2 = -v[i] > mx2 ? -v[i] : mx2;
    }
  }
  #pragma acc kernels loop copyin(v, p) reduction(+:sum3) reduction(*:prod3)
  for (int i = 0; i < N; i++) {
    sum3 += v[i] + 1.0;
    prod3 *= p[i] * p[i];
  }
  double rsum = 0, rprod = 1, rmx = -DBL_MAX, rmn = DBL_MAX, rland = 1, rlor = 0, rsum2 = 0, rmx2 = -DBL_MAX, rsum3 = 0, rprod3 = 1;
  for (int i = 0; i < N; i++) {
    rsum += v[i];
    rprod *= p[i];
    rmx = v[i] > rmx ? v[i] : rmx;
    rmn = v[i] < rmn ? v[i] : rmn;
    rland = rland && v[i] != 3.0;
    rlor = rlor || v[i] == 1.25;
    rsum2 += v[i] * 2.0;
    rmx2 = -v[i] > rmx2 ? -v[i] : rmx2;
    rsum3 += v[i] + 1.0;
    rprod3 *= p[i] * p[i];
  }
  if (sum != rsum || prod != rprod || mx != rmx || mn != rmn || land != rland || lor != rlor ||
      sum2 != rsum2 || mx2 != rmx2 || sum3 != rsum3 || prod3 != rprod3) {
    printf("reduction-float: double: + %g/%g * %g/%g max %g/%g min %g/%g && %g/%g || %g/%g "
           "loop+ %g/%g loopmax %g/%g kernels+ %g/%g kernels* %g/%g\n",
           (double)sum, (double)rsum, (double)prod, (double)rprod, (double)mx, (double)rmx,
           (double)mn, (double)rmn, (double)land, (double)rland, (double)lor, (double)rlor,
           (double)sum2, (double)rsum2, (double)mx2, (double)rmx2, (double)sum3, (double)rsum3,
           (double)prod3, (double)rprod3);
    return 1;
  }
  return 0;
}

int main(void) {
  int bad = test_float() | test_double();
  if (bad) return 1;
  printf("reduction-float: ok\n");
  return 0;
}
