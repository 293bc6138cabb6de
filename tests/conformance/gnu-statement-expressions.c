/* GNU statement expressions in kernels and a routine: the `MAX`/`CLAMP` macros of GNU C
 * code (`({ typeof(a) a_ = (a); … })`), nested ones, one holding a block, and one with no
 * value. A GPU's C++ has none: the CUDA module writes each as a lambda called in place
 * (NVRTC had refused the module). */
#include <stdio.h>

#define N 32
#define MAX(a, b)                                                                                 \
  ({                                                                                              \
    typeof(a) max_a = (a);                                                                        \
    typeof(b) max_b = (b);                                                                        \
    max_a > max_b ? max_a : max_b;                                                                \
  })
#define CLAMP(x, lo, hi) MAX(lo, ({ typeof(x) c_ = (x); c_ < (hi) ? c_ : (hi); }))

#pragma acc routine seq
static int triple_at_least(int v, int floor) {
  return ({
    int t = 3 * v;
    if (t < floor) {
      t = floor;
    }
    t;
  });
}

int main(void) {
  int a[N], b[N], c[N];
#pragma acc parallel loop copyout(a, b, c)
  for (int i = 0; i < N; i++) {
    a[i] = MAX(i, 10);
    b[i] = CLAMP(i - 5, 0, 20);
    c[i] = triple_at_least(i, 12);
    ({
      if (i == 0)
        c[i] += 1;
    });
  }
  int wrong = 0;
  for (int i = 0; i < N; i++) {
    int clamp = i - 5 < 0 ? 0 : i - 5 > 20 ? 20 : i - 5;
    int tri = 3 * i < 12 ? 12 : 3 * i;
    wrong += a[i] != (i > 10 ? i : 10) || b[i] != clamp || c[i] != tri + (i == 0);
  }
  if (wrong)
    printf("gnu-statement-expressions: %d wrong\n", wrong);
  else
    printf("gnu-statement-expressions: ok\n");
  return wrong != 0;
}
