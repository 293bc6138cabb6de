/* loop seq, loop auto and loop independent inside parallel: seq loops with
 * carried dependences (one with an assigned, not declared, control variable
 * whose final value is used), auto on a dependent and on an independent
 * loop, independent on a plain loop, and seq nested in gang loops. (The
 * value of an assigned control variable after the loop is not specified by
 * OpenACC -- gcc makes it private, Clacc shared -- so it is not checked.) */
#include <stdio.h>

#define N 300
#define R 20
#define C 40

int main(void) {
  static int a[N], b[N], c[N], m[R][C];
  int j = 0;
  for (int i = 0; i < N; i++) { a[i] = i % 9; b[i] = 1; c[i] = 0; }

  #pragma acc parallel num_gangs(1) copy(a, b, c) firstprivate(j)
  {
    /* seq: true dependence */
    #pragma acc loop seq
    for (int i = 1; i < N; i++)
      b[i] = b[i - 1] + a[i];
    /* auto: true dependence, the implementation must run it sequentially */
    #pragma acc loop auto
    for (int i = 2; i < N; i++)
      c[i] = c[i - 2] + 1;
    /* auto: independent */
    #pragma acc loop auto
    for (int i = 0; i < N; i++)
      a[i] = a[i] * 2;
    /* seq with an assigned (not declared) control variable */
    #pragma acc loop seq
    for (j = 0; j < N; j += 7)
      a[j] += 1;
  }

  #pragma acc parallel copyout(m)
  {
    #pragma acc loop gang independent
    for (int r = 0; r < R; r++) {
      m[r][0] = r;
      #pragma acc loop seq
      for (int k = 1; k < C; k++)
        m[r][k] = m[r][k - 1] * 3 % 1000 + k;
    }
  }

  int rb = 1;
  for (int i = 0; i < N; i++) {
    if (i > 0) rb += i % 9;
    int ra = (i % 9) * 2 + (i % 7 == 0 ? 1 : 0);
    int rc = i / 2;
    if (b[i] != rb || a[i] != ra || c[i] != rc) {
      printf("loop-seq-auto: i=%d a=%d b=%d c=%d\n", i, a[i], b[i], c[i]);
      return 1;
    }
  }
  for (int r = 0; r < R; r++) {
    int v = r;
    for (int k = 0; k < C; k++) {
      if (k > 0) v = v * 3 % 1000 + k;
      if (m[r][k] != v) { printf("loop-seq-auto: m[%d][%d] = %d\n", r, k, m[r][k]); return 1; }
    }
  }
  printf("loop-seq-auto: ok\n");
  return 0;
}
