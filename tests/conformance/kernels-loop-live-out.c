/* A loop without a directive in `kernels` whose variable, declared before it, the program
 * reads after the loop: its final value is the program's, so the loop runs in order (`acc cc
 * --info` says why) and `i` ends at the bound, as with any C compiler. A loop whose variable is
 * assigned afresh before any later read still runs in parallel, also inside a loop of the host
 * that runs it again (the pass's first use of `i` assigns it). */
#include <stdio.h>

#define N 3000

static double a[N];

int main(void) {
  int i;
#pragma acc kernels copy(a)
  for (i = 0; i < N; i++) a[i] = 2.0 * i;
  if (i != N) { printf("i = %d after the loop, not %d\n", i, N); return 1; }
#pragma acc kernels copy(a)
  for (i = 0; i < N; i++) a[i] += 1.0;
  for (int t = 0; t < 2; t++) {
#pragma acc kernels copy(a)
    for (i = 0; i < N; i++) a[i] += 1.0;
#pragma acc parallel loop copy(a)
    for (i = 0; i < N; i++) a[i] -= 1.0;
  }
  i = 0;
  for (int k = 0; k < N; k++)
    if (a[k] != 2.0 * k + 1.0) { printf("a[%d] = %g\n", k, a[k]); return 1; }
  printf("kernels loop live-out: ok (%d)\n", i);
  return 0;
}
