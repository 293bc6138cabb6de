/* routine nohost: the routine is compiled only for the device, so it is
 * only ever called from compute regions (unnamed and named forms, and a
 * nohost routine calling another one). */
#include <stdio.h>

#define N 100

#pragma acc routine seq nohost
static int cube_dev(int x) {
  return x * x * x;
}

static int halve(int x);
#pragma acc routine(halve) seq nohost

static int halve(int x) { return x / 2 + cube_dev(0); }

int main(void) {
  static int out[N];
  #pragma acc parallel loop copyout(out)
  for (int i = 0; i < N; i++)
    out[i] = halve(i) + cube_dev(i % 4);
  for (int i = 0; i < N; i++)
    if (out[i] != i / 2 + (i % 4) * (i % 4) * (i % 4)) {
      printf("routine-nohost: out[%d] = %d\n", i, out[i]);
      return 1;
    }
  printf("routine-nohost: ok\n");
  return 0;
}
