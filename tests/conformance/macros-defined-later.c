/* Macros a compute region uses that the file changes, or first defines, after the region:
 * the region means them as they are where it stands (`K` is 1 there, `DBG` undefined, `F(x)`
 * doubles), on every device, though acc writes the kernels (and the GPU's module, with every
 * definition of the file) after all of them. */
#include <stdio.h>

#define N 64
#define K 1
#define F(x) (2 * (x))

static void step(float *x, float *y) {
#pragma acc parallel loop copy(x[0:N])
  for (int i = 0; i < N; i++) {
    x[i] += K;
#ifdef DBG
    x[i] += 100;
#endif
  }
#pragma acc kernels copyout(y[0:N])
  for (int i = 0; i < N; i++) y[i] = F(i) + K;
}

#define DBG
#undef K
#define K 2
#undef F
#define F(x) (3 * (x))

int main(void) {
  float x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = i;
  step(x, y);
  int bad = 0;
  for (int i = 0; i < N; i++) bad += x[i] != i + 1 || y[i] != 2 * i + 1;
  /* And as they are here. */
#pragma acc parallel loop copy(x[0:N])
  for (int i = 0; i < N; i++) {
    x[i] = F(i) + K;
#ifdef DBG
    x[i] += 100;
#endif
  }
  for (int i = 0; i < N; i++) bad += x[i] != 3 * i + 102;
  if (bad) {
    printf("macros-defined-later: %d wrong\n", bad);
    return 1;
  }
  printf("macros-defined-later: ok\n");
  return 0;
}
