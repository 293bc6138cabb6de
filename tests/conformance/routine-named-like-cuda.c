/* A program's own `routine` functions named `max` and `min` (C has no such functions; CUDA
 * declares its own for every kernel), and one named `noreturn` (an ordinary name in C without
 * <stdnoreturn.h>, which the parse had read as the function specifier, leaving the function
 * unnamed and its calls without a device version): the kernels call the program's. */
#include <stdio.h>

#pragma acc routine seq
int max(float a, float b) { return a > b ? (int)a : (int)b; }
#pragma acc routine seq
static int min(int a, int b) { return a < b ? a : b; }
#pragma acc routine seq
static int noreturn (int x) { return x + 1; }

#define N 100

int main(void) {
  float a[N];
  int lo[N], next[N];
  for (int i = 0; i < N; i++) a[i] = (float)((i * 37) % N) + 0.75f;
  int m = 0;
  #pragma acc parallel loop reduction(max:m) copyin(a) copyout(lo, next)
  for (int i = 0; i < N; i++) {
    m = max((float)m, a[i]);
    lo[i] = min(i, 10);
    next[i] = noreturn(i);
  }
  for (int i = 0; i < N; i++)
    if (lo[i] != (i < 10 ? i : 10) || next[i] != i + 1) {
      printf("lo[%d] = %d\n", i, lo[i]);
      return 1;
    }
  if (m != 99) {
    printf("m = %d, want 99\n", m);
    return 1;
  }
  printf("routine-named-like-cuda: ok\n");
  return 0;
}
