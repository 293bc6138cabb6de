/* serial construct: one gang, one worker, vector length one. Sequential
 * recurrences (prefix sum, running maximum), a loop directive inside serial,
 * scalars copied back with copy, serial with async/wait, and serial loop. */
#include <stdio.h>

#define N 300

int main(void) {
  static long a[N], pre[N], run[N], sq[N];
  long last = 0;
  for (int i = 0; i < N; i++) a[i] = (i * 37) % 101 - 50;

  #pragma acc serial copyin(a) copyout(pre, run) copy(last)
  {
    pre[0] = a[0];
    for (int i = 1; i < N; i++)
      pre[i] = pre[i - 1] + a[i];
    run[0] = a[0];
    #pragma acc loop seq
    for (int i = 1; i < N; i++)
      run[i] = a[i] > run[i - 1] ? a[i] : run[i - 1];
    last = pre[N - 1] + run[N - 1];
  }

  #pragma acc serial loop copyin(a) copyout(sq) async(1)
  for (int i = 0; i < N; i++)
    sq[i] = a[i] * a[i];
  #pragma acc wait(1)

  long p = 0, r = a[0];
  for (int i = 0; i < N; i++) {
    p += a[i];
    if (a[i] > r) r = a[i];
    if (pre[i] != p || run[i] != r || sq[i] != a[i] * a[i]) {
      printf("serial: i=%d pre=%ld run=%ld sq=%ld\n", i, pre[i], run[i], sq[i]);
      return 1;
    }
  }
  if (last != p + r) { printf("serial: last = %ld, expected %ld\n", last, p + r); return 1; }
  printf("serial: ok\n");
  return 0;
}
