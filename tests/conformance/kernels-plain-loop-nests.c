/* `kernels` regions whose outer loops have no directive (the dependence test proves them
 * independent, so they run on many gangs) around an inner loop with none, with `loop vector`,
 * and with `loop reduction`, and a block of two such nests: on a GPU each gang iteration is a
 * thread of its own, and the inner loops run in it. */
#include <stdio.h>
#define N 240
#define M 180
double a[N][M], b[N][M], s[N];
int main(void) {
  int bad = 0;
#pragma acc kernels copyout(a)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      a[i][j] = 10.0 * i + j;
#pragma acc kernels copyout(b)
  for (int i = 0; i < N; i++) {
#pragma acc loop vector
    for (int j = 0; j < M; j++)
      b[i][j] = i - 2.0 * j;
  }
#pragma acc kernels copyin(a) copyout(s)
  for (int i = 0; i < N; i++) {
    double t = 0;
#pragma acc loop reduction(+:t)
    for (int j = 0; j < M; j++)
      t += a[i][j];
    s[i] = t;
  }
#pragma acc kernels copy(a, b)
  {
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++) a[i][j] += 1;
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++) b[i][j] += a[i][j];
  }
  for (int i = 0; i < N; i++) {
    double t = 0;
    for (int j = 0; j < M; j++) {
      t += 10.0 * i + j;
      bad += a[i][j] != 10.0 * i + j + 1 || b[i][j] != i - 2.0 * j + 10.0 * i + j + 1;
    }
    bad += s[i] != t;
  }
  if (bad) {
    printf("kernels-plain-loop-nests: %d wrong\n", bad);
    return 1;
  }
  printf("kernels-plain-loop-nests: ok\n");
  return 0;
}
