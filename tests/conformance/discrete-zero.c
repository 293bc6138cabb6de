/* Discrete memory and the zero modifier (OpenACC 3.3): create(zero:)
 * gives zeroed device memory whatever the host holds, and copyout(zero:)
 * brings the device result back over host garbage.
 *
 * Expects a device with separate memory (host_discrete, a GPU): prints
 * "discrete-zero: ok" and exits 0.
 * On a shared-memory device nothing is allocated, so the device sees the
 * host's non-zero values and it exits 1. */
#include <stdio.h>

#define N 50

int main(void) {
  static int a[N], b[N], seen[N];
  for (int i = 0; i < N; i++) { a[i] = 99; b[i] = -7; }

  #pragma acc data create(zero: a) copyout(zero: b) copyout(seen)
  {
    #pragma acc parallel loop present(a, b, seen)
    for (int i = 0; i < N; i++) {
      seen[i] = a[i];
      b[i] += i;
    }
  }
  for (int i = 0; i < N; i++) {
    if (seen[i] != 0 || b[i] != i) {
      printf("discrete-zero: device saw a[%d] = %d and b[%d] = %d, expected 0 and %d -- is device "
             "memory shared?\n", i, seen[i], i, b[i], i);
      return 1;
    }
    if (a[i] != 99) { printf("discrete-zero: host a[%d] = %d changed\n", i, a[i]); return 1; }
  }
  printf("discrete-zero: ok\n");
  return 0;
}
