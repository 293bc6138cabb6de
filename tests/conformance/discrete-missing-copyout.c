/* Discrete memory is real: data that is only copied in and changed on the
 * device stays stale on the host (no copyout), until update self brings it
 * back; a copy on a later region then copies it out.
 *
 * Expects a device with separate memory (host_discrete, a GPU): prints
 * "discrete-missing-copyout: ok" and exits 0.
 * On a shared-memory device (host, gcc's host fallback) the changes show
 * up at once, so it prints the "not stale" line and exits 1. */
#include <stdio.h>

#define N 100

int main(void) {
  static int a[N];
  int stale = 1, fixed = 1, final = 1;
  for (int i = 0; i < N; i++) a[i] = i;

  #pragma acc data copyin(a)
  {
    #pragma acc parallel loop present(a)
    for (int i = 0; i < N; i++)
      a[i] = 100 + i;
    for (int i = 0; i < N; i++)
      if (a[i] != i) stale = 0;
    #pragma acc update self(a)
    for (int i = 0; i < N; i++)
      if (a[i] != 100 + i) fixed = 0;
    #pragma acc parallel loop present(a)
    for (int i = 0; i < N; i++)
      a[i] *= 2;
  }
  /* copyin only: the last change never comes back */
  for (int i = 0; i < N; i++)
    if (a[i] != 100 + i) final = 0;

  if (!stale || !final) {
    printf("discrete-missing-copyout: host copy not stale (%s) -- is device memory shared?\n",
           !stale ? "before update self" : "after the copyin-only data region");
    return 1;
  }
  if (!fixed) { printf("discrete-missing-copyout: update self did not bring the device data back\n"); return 1; }

  #pragma acc parallel loop copy(a)
  for (int i = 0; i < N; i++)
    a[i] += 1;
  for (int i = 0; i < N; i++)
    if (a[i] != 101 + i) { printf("discrete-missing-copyout: a[%d] = %d after copyout\n", i, a[i]); return 1; }
  printf("discrete-missing-copyout: ok\n");
  return 0;
}
