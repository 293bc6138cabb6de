/* cache directive at the top of loop bodies: a sliding window subarray
 * depending on the loop index (3-point stencil), a whole small array,
 * several variables in one directive, and a cache inside an inner loop of
 * a nest. The directive is a hint; the results must be unaffected. */
#include <stdio.h>

#define N 500
#define R 20
#define C 30

int main(void) {
  static double a[N], b[N], m[R][C], out[R][C];
  double coef[3] = {0.25, 0.5, 0.25};
  static double c[N];
  for (int i = 0; i < N; i++) a[i] = (i % 10) * 1.0;
  for (int r = 0; r < R; r++)
    for (int k = 0; k < C; k++) m[r][k] = r * C + k;

  #pragma acc parallel loop copyin(a, coef) copyout(b)
  for (int i = 1; i < N - 1; i++) {
    #pragma acc cache(a[i - 1:3], coef[0:3])
    b[i] = coef[0] * a[i - 1] + coef[1] * a[i] + coef[2] * a[i + 1];
  }

  #pragma acc parallel loop copyin(a) copyout(c)
  for (int i = 0; i < N; i++) {
    #pragma acc cache(a[i:1])
    c[i] = a[i] * a[i];
  }

  #pragma acc parallel copyin(m) copyout(out)
  {
    #pragma acc loop gang
    for (int r = 0; r < R; r++) {
      #pragma acc loop vector
      for (int k = 0; k < C; k++) {
        #pragma acc cache(m[r][0:C])
        out[r][k] = m[r][k] + m[r][C - 1 - k];
      }
    }
  }

  for (int i = 1; i < N - 1; i++) {
    double want = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
    if (b[i] != want || c[i] != a[i] * a[i]) { printf("cache: i=%d b=%g c=%g\n", i, b[i], c[i]); return 1; }
  }
  for (int r = 0; r < R; r++)
    for (int k = 0; k < C; k++)
      if (out[r][k] != m[r][k] + m[r][C - 1 - k]) { printf("cache: out[%d][%d] = %g\n", r, k, out[r][k]); return 1; }
  printf("cache: ok\n");
  return 0;
}
