/* routine bind: bind(name) makes device code call another function in
 * place of the named one (here one computing the same value a different
 * way, so the answer does not depend on which runs); bind on a named
 * routine directive too. */
#include <stdio.h>

#define N 100

#pragma acc routine seq
static int cube_dev(int x) {
  int r = 1;
  for (int k = 0; k < 3; k++) r *= x;
  return r;
}

#pragma acc routine seq bind(cube_dev)
static int cube(int x) {
  return x * x * x;
}

#pragma acc routine seq
static int twice_dev(int x) { return x + x; }

static int twice(int x);
#pragma acc routine(twice) seq bind(twice_dev)

static int twice(int x) { return 2 * x; }

int main(void) {
  static int out[N], out2[N];
  #pragma acc parallel loop copyout(out, out2)
  for (int i = 0; i < N; i++) {
    out[i] = cube(i - 50);
    out2[i] = twice(i) + cube_dev(2);
  }
  for (int i = 0; i < N; i++)
    if (out[i] != (i - 50) * (i - 50) * (i - 50) || out2[i] != twice_dev(i) + 8) {
      printf("routine-bind: i=%d out=%d out2=%d\n", i, out[i], out2[i]);
      return 1;
    }
  printf("routine-bind: ok\n");
  return 0;
}
