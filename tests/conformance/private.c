/* private on loop, parallel, combined and kernels loop constructs: private
 * scalars, fixed-size arrays and structs used as per-iteration scratch,
 * gang-private variables (private on parallel) written inside a gang loop,
 * and worker-private scratch inside a gang loop. Every private copy is
 * written before it is read. */
#include <stdio.h>

#define N 128
#define M 16

struct pair { int lo, hi; };

int main(void) {
  static int a[N], b[N], c[N][M], d[N], e[N], f[N];
  int tmp, scratch[4], g;
  struct pair pr;
  for (int i = 0; i < N; i++) a[i] = i * 7 % 31;

  #pragma acc parallel loop private(tmp, scratch) copyin(a) copyout(b)
  for (int i = 0; i < N; i++) {
    tmp = a[i] * 2;
    for (int k = 0; k < 4; k++) scratch[k] = tmp + k;
    b[i] = scratch[0] + scratch[3];
  }

  #pragma acc parallel private(g) copyin(a) copyout(c)
  {
    #pragma acc loop gang
    for (int i = 0; i < N; i++) {
      g = a[i] + 1;
      #pragma acc loop worker vector private(tmp)
      for (int j = 0; j < M; j++) {
        tmp = g * j;
        c[i][j] = tmp - j;
      }
    }
  }

  #pragma acc parallel copyin(a) copyout(d)
  {
    #pragma acc loop gang private(pr)
    for (int i = 0; i < N; i++) {
      pr.lo = a[i] & 3;
      pr.hi = a[i] >> 2;
      d[i] = pr.hi * 10 + pr.lo;
    }
  }

  #pragma acc kernels copyin(a) copyout(e)
  {
    #pragma acc loop independent private(tmp)
    for (int i = 0; i < N; i++) {
      tmp = a[i] - 3;
      e[i] = tmp * tmp;
    }
  }

  #pragma acc serial private(tmp) copyin(a) copyout(f)
  {
    tmp = 0;
    for (int i = 0; i < N; i++) {
      tmp += a[i];
      f[i] = tmp;
    }
  }

  int run = 0;
  for (int i = 0; i < N; i++) {
    run += a[i];
    if (b[i] != 4 * a[i] + 3 || d[i] != (a[i] >> 2) * 10 + (a[i] & 3) ||
        e[i] != (a[i] - 3) * (a[i] - 3) || f[i] != run) {
      printf("private: i=%d b=%d d=%d e=%d f=%d\n", i, b[i], d[i], e[i], f[i]);
      return 1;
    }
    for (int j = 0; j < M; j++)
      if (c[i][j] != (a[i] + 1) * j - j) { printf("private: c[%d][%d] = %d\n", i, j, c[i][j]); return 1; }
  }
  printf("private: ok\n");
  return 0;
}
