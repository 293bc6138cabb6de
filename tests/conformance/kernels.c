/* kernels region with several loop nests: loops with no directive, with
 * loop independent, with loop auto, loops carrying true and anti
 * dependences (which must still give the sequential answer), a 2-D nest, a
 * nest mixing independent and seq, a loop reduction, and scalars (copy by
 * default in kernels) assigned in the region and read afterwards. */
#include <stdio.h>

#define N 512
#define R 24
#define C 33

int main(void) {
  static double a[N], b[N], c[N], d[N], e[N];
  static int m[R][C], p[R][C];
  double s = 0.0, last = 0.0;
  int flag = 0;
  for (int i = 0; i < N; i++) { a[i] = (i % 17) * 0.5; d[i] = i; e[i] = 0.0; }

  #pragma acc kernels copyin(a) copyout(b, c) copy(d, e, m, p)
  {
    /* no directive: independent */
    for (int i = 0; i < N; i++)
      b[i] = a[i] * 2.0;
    /* explicitly independent */
    #pragma acc loop independent
    for (int i = 0; i < N; i++)
      e[i] = a[i] + b[i];
    /* true dependence: a running sum */
    c[0] = a[0];
    for (int i = 1; i < N; i++)
      c[i] = c[i - 1] + a[i];
    /* anti dependence under auto: must not be run as an unordered parallel loop */
    #pragma acc loop auto
    for (int i = 0; i < N - 1; i++)
      d[i] = d[i + 1] + a[i];
    /* 2-D nest, no directives */
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++)
        m[i][j] = i * C + j;
    /* independent rows, sequential recurrence along each row */
    #pragma acc loop independent
    for (int i = 0; i < R; i++) {
      p[i][0] = i;
      #pragma acc loop seq
      for (int j = 1; j < C; j++)
        p[i][j] = p[i][j - 1] + m[i][j];
    }
    /* reduction */
    #pragma acc loop reduction(+:s)
    for (int i = 0; i < N; i++)
      s += a[i];
    /* scalars written in the region */
    last = c[N - 1];
    flag = 1;
  }

  double rc = 0.0, rs = 0.0;
  for (int i = 0; i < N; i++) {
    rc += a[i];
    rs += a[i];
    double rd = i < N - 1 ? (i + 1) + a[i] : (double)i;
    if (b[i] != a[i] * 2.0 || e[i] != a[i] * 3.0 || c[i] != rc || d[i] != rd) {
      printf("kernels: i=%d b=%g e=%g c=%g d=%g\n", i, b[i], e[i], c[i], d[i]);
      return 1;
    }
  }
  for (int i = 0; i < R; i++) {
    int acc = i;
    for (int j = 0; j < C; j++) {
      if (j > 0) acc += i * C + j;
      if (m[i][j] != i * C + j || p[i][j] != acc) {
        printf("kernels: m/p[%d][%d] = %d/%d\n", i, j, m[i][j], p[i][j]);
        return 1;
      }
    }
  }
  if (s != rs || last != rc || flag != 1) {
    printf("kernels: s=%g last=%g flag=%d\n", s, last, flag);
    return 1;
  }
  printf("kernels: ok\n");
  return 0;
}
