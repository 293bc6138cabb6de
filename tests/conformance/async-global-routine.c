/* An async kernel whose routine reads a `declare`d global, followed without a wait by
 * synchronous data directives (enter/exit data, update) on the same device: the synchronous
 * actions must not block the queued kernel from finding the global (on host_discrete they
 * once waited for it while holding what it needed, and the program hung). Then wait, and
 * check every kernel ran once, in order. */
#include <stdio.h>

#define N 4096
#define ROUNDS 12

static double scale = 3.0;
#pragma acc declare copyin(scale)

#pragma acc routine seq
static double step(double x) { return x * scale / 3.0 + 1.0; }

int main(void) {
  static double a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = i, b[i] = -1.0;
  #pragma acc data copy(a)
  {
    for (int r = 0; r < ROUNDS; r++) {
      #pragma acc parallel loop present(a) async(1)
      for (int i = 0; i < N; i++) a[i] = step(a[i]);
      #pragma acc enter data copyin(b)
      #pragma acc update device(b)
      #pragma acc exit data delete(b)
    }
    #pragma acc wait(1)
  }
  int bad = 0;
  for (int i = 0; i < N; i++)
    if (a[i] != i + ROUNDS) bad++;
  if (bad) {
    printf("async-global-routine: %d wrong (a[1] = %g, expected %d)\n", bad, a[1], 1 + ROUNDS);
    return 1;
  }
  printf("async-global-routine: ok\n");
  return 0;
}
