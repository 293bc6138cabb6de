/* GNU C's `typeof` in kernels and routines: of a mapped array's element (the kernel must
 * name its own copy: acc had left `out` there, and the kernel did not compile), in a
 * swapping macro, under `sizeof`, and `__typeof` in a routine. A GPU's C++ spells it
 * `decltype`: NVRTC knew none of them. */
#include <stdio.h>

#define N 16
#define SWAP(x, y)                                                                                \
  do {                                                                                            \
    typeof(x) swap_tmp = (x);                                                                     \
    (x) = (y);                                                                                    \
    (y) = swap_tmp;                                                                               \
  } while (0)

#pragma acc routine seq
static long twice(long v) {
  __typeof(v) r = 2 * v;
  return r;
}

int main(void) {
  double out[N];
  int a[N], b[N];
  long sizes[N];
  for (int i = 0; i < N; i++) {
    a[i] = i;
    b[i] = -i;
  }
#pragma acc parallel loop copyout(out, sizes) copy(a, b)
  for (int i = 0; i < N; i++) {
    __typeof__(out[0]) half = i / 2.0;
    out[i] = half;
    SWAP(a[i], b[i]);
    float f = (float)i;
    sizes[i] = (long)sizeof(__typeof__(f)) + twice((long)sizeof(half));
  }
  int wrong = 0;
  for (int i = 0; i < N; i++)
    wrong += out[i] != i / 2.0 || a[i] != -i || b[i] != i || sizes[i] != 4 + 16;
  if (wrong)
    printf("gnu-typeof-in-kernels: %d wrong\n", wrong);
  else
    printf("gnu-typeof-in-kernels: ok\n");
  return wrong != 0;
}
