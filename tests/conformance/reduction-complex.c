/* reduction + and * on float _Complex and double _Complex (the operators
 * that apply to complex types), also through a typedef (acc had read
 * `typedef double _Complex cplx;` as a `double`, and summed the real parts
 * only). Gaussian-integer values keep every partial sum and product exact. */
#include <complex.h>
#include <stdio.h>

#define N 120

typedef double _Complex cplx;

int main(void) {
  float _Complex fv[N], fp[N];
  double _Complex dv[N], dp[N];
  for (int i = 0; i < N; i++) {
    fv[i] = (float)(i % 5) - 2.0f + ((float)(i % 3) - 1.0f) * I;
    dv[i] = (double)(i % 7) + (double)(i % 4) * I;
    fp[i] = i % 30 == 0 ? 1.0f + 1.0f * I : 1.0f;
    dp[i] = i % 17 == 0 ? 0.0 + 1.0 * I : (i % 40 == 3 ? 2.0 : 1.0);
  }
  float _Complex fsum = 0, fprod = 1;
  double _Complex dsum = 0, dprod = 1;
  cplx tsum = 0;
  #pragma acc parallel loop copyin(fv, fp, dv, dp) reduction(+:fsum, dsum, tsum) reduction(*:fprod, dprod)
  for (int i = 0; i < N; i++) {
    tsum += dv[i];
    fsum += fv[i];
    dsum += dv[i];
    fprod *= fp[i];
    dprod *= dp[i];
  }
  float _Complex rfsum = 0, rfprod = 1;
  double _Complex rdsum = 0, rdprod = 1;
  for (int i = 0; i < N; i++) {
    rfsum += fv[i];
    rdsum += dv[i];
    rfprod *= fp[i];
    rdprod *= dp[i];
  }
  if (tsum != rdsum) {
    printf("reduction-complex: typedef'd sum %g%+gi, want %g%+gi\n", creal(tsum), cimag(tsum),
           creal(rdsum), cimag(rdsum));
    return 1;
  }
  if (fsum != rfsum || fprod != rfprod || dsum != rdsum || dprod != rdprod) {
    printf("reduction-complex: fsum %g%+gi/%g%+gi fprod %g%+gi/%g%+gi dsum %g%+gi/%g%+gi dprod %g%+gi/%g%+gi\n",
           crealf(fsum), cimagf(fsum), crealf(rfsum), cimagf(rfsum), crealf(fprod), cimagf(fprod),
           crealf(rfprod), cimagf(rfprod), creal(dsum), cimag(dsum), creal(rdsum), cimag(rdsum),
           creal(dprod), cimag(dprod), creal(rdprod), cimag(rdprod));
    return 1;
  }
  printf("reduction-complex: ok\n");
  return 0;
}
