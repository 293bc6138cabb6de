/* reduction + * max min on long double (an arithmetic type too), with
 * exactly representable values. */
#include <float.h>
#include <stdio.h>

#define N 100

int main(void) {
  long double v[N], p[N];
  for (int i = 0; i < N; i++) {
    v[i] = (long double)(i % 9) * 0.125L - 0.5L;
    p[i] = i % 21 == 0 ? 4.0L : 1.0L;
  }
  long double sum = 0, prod = 1, mx = -LDBL_MAX, mn = LDBL_MAX;
  #pragma acc parallel loop copyin(v, p) reduction(+:sum) reduction(*:prod) reduction(max:mx) reduction(min:mn)
  for (int i = 0; i < N; i++) {
    sum += v[i];
    prod *= p[i];
    mx = v[i] > mx ? v[i] : mx;
    mn = v[i] < mn ? v[i] : mn;
  }
  long double rsum = 0, rprod = 1, rmx = -LDBL_MAX, rmn = LDBL_MAX;
  for (int i = 0; i < N; i++) {
    rsum += v[i];
    rprod *= p[i];
    rmx = v[i] > rmx ? v[i] : rmx;
    rmn = v[i] < rmn ? v[i] : rmn;
  }
  if (sum != rsum || prod != rprod || mx != rmx || mn != rmn) {
    printf("reduction-long-double: + %Lg/%Lg * %Lg/%Lg max %Lg/%Lg min %Lg/%Lg\n", sum, rsum, prod,
           rprod, mx, rmx, mn, rmn);
    return 1;
  }
  printf("reduction-long-double: ok\n");
  return 0;
}
