/* The data clause aliases OpenACC keeps for compatibility: pcopy /
 * present_or_copy, pcopyin / present_or_copyin, pcopyout /
 * present_or_copyout, pcreate / present_or_create. */
#include <stdio.h>

#define N 128

int main(void) {
  static int a[N], b[N], c[N], d[N], t[N], u[N];
  for (int i = 0; i < N; i++) { a[i] = i; b[i] = 2 * i; }

  #pragma acc data pcopyin(a) present_or_copyin(b) pcopyout(c) present_or_copy(d) pcreate(t) present_or_create(u)
  {
    #pragma acc parallel loop pcopy(d) present_or_copyout(c) pcreate(t)
    for (int i = 0; i < N; i++) {
      t[i] = a[i] + b[i];
      c[i] = t[i] * 2;
      d[i] = t[i] - 1;
    }
    #pragma acc parallel loop present_or_create(u) pcopyin(c) pcopy(d)
    for (int i = 0; i < N; i++) {
      u[i] = c[i] + 1;
      d[i] += u[i] - c[i];
    }
  }
  for (int i = 0; i < N; i++)
    if (c[i] != 6 * i || d[i] != 3 * i) { printf("data-aliases: c[%d]=%d d[%d]=%d\n", i, c[i], i, d[i]); return 1; }
  printf("data-aliases: ok\n");
  return 0;
}
