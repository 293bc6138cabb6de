/* Discrete memory: create and delete move no data. Device results in a
 * create'd array or in data removed with exit data delete never reach the
 * host; copyout on the same data would.
 *
 * Expects a device with separate memory (host_discrete, a GPU): prints
 * "discrete-delete: ok" and exits 0.
 * On a shared-memory device the host array is the device array, so the
 * results show up and it exits 1. */
#include <stdio.h>

#define N 80

int main(void) {
  static int a[N], b[N], c[N];
  for (int i = 0; i < N; i++) { a[i] = 1; b[i] = 2; c[i] = 3; }

  #pragma acc data create(a)
  {
    #pragma acc parallel loop present(a)
    for (int i = 0; i < N; i++)
      a[i] = 10 * i;
  }
  #pragma acc enter data copyin(b, c)
  #pragma acc parallel loop present(b, c)
  for (int i = 0; i < N; i++) {
    b[i] += 5;
    c[i] += 5;
  }
  #pragma acc exit data delete(b) copyout(c)

  for (int i = 0; i < N; i++) {
    if (a[i] != 1 || b[i] != 2) {
      printf("discrete-delete: a[%d]=%d b[%d]=%d: device results reached the host without a copy "
             "-- is device memory shared?\n", i, a[i], i, b[i]);
      return 1;
    }
    if (c[i] != 8) { printf("discrete-delete: c[%d] = %d after copyout\n", i, c[i]); return 1; }
  }
  printf("discrete-delete: ok\n");
  return 0;
}
