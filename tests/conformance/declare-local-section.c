/* A function-scope `declare` of a section (OpenACC 3.3 allows subarrays in declare): the
 * section is on the device from the directive to the end of the function, copied back when
 * the function returns, and reused by the constructs in between. */
#include <stdio.h>

#define N 500

static void add(double *c, const double *a, int n) {
  #pragma acc declare copy(c[0:n])
  #pragma acc parallel loop present(c[0:n]) copyin(a[0:n])
  for (int i = 0; i < n; i++) c[i] += a[i];
  #pragma acc parallel loop present(c[0:n])
  for (int i = 0; i < n; i++) c[i] *= 2;
}

int main(void) {
  static double a[N], c[N];
  for (int i = 0; i < N; i++) {
    a[i] = i;
    c[i] = 1;
  }
  add(c, a, N);
  add(c + 100, a, 50);
  for (int i = 0; i < N; i++) {
    double want = 2 * (1 + i);
    if (i >= 100 && i < 150) want = 2 * (want + (i - 100));
    if (c[i] != want) {
      printf("c[%d] = %g, want %g\n", i, c[i], want);
      return 1;
    }
  }
  printf("declare-local-section: ok\n");
  return 0;
}
