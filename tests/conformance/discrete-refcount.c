/* Discrete memory and reference counts: a data clause on data that is
 * already present moves nothing -- an inner copy neither refreshes the
 * device copy on entry nor copies back on exit; an exit data copyout that
 * only lowers the count copies nothing, the one that drops it to zero (or
 * a finalize) does.
 *
 * Expects a device with separate memory (host_discrete, a GPU): prints
 * "discrete-refcount: ok" and exits 0.
 * On a shared-memory device the host sees every change at once, so the
 * first staleness check fails and it exits 1. */
#include <stdio.h>

#define N 64

int main(void) {
  static int a[N], b[N];
  int ok_inner_exit = 1, ok_outer = 1, ok_exit1 = 1, ok_final = 1;
  for (int i = 0; i < N; i++) { a[i] = i; b[i] = i; }

  #pragma acc data copy(a)
  {
    #pragma acc data copy(a)
    {
      #pragma acc parallel loop present(a)
      for (int i = 0; i < N; i++)
        a[i] *= 2;
    }
    for (int i = 0; i < N; i++) {
      if (a[i] != i) ok_inner_exit = 0; /* inner copy did not copy back */
      a[i] = 1000;                      /* host only */
    }
    #pragma acc data copyin(a)
    {
      #pragma acc parallel loop present(a)
      for (int i = 0; i < N; i++)
        a[i] += 1; /* device copy was 2i: the inner copyin did not refresh it */
    }
  }
  for (int i = 0; i < N; i++)
    if (a[i] != 2 * i + 1) ok_outer = 0;

  #pragma acc enter data copyin(b)
  #pragma acc enter data copyin(b)
  #pragma acc parallel loop present(b)
  for (int i = 0; i < N; i++)
    b[i] = -b[i];
  #pragma acc exit data copyout(b)
  for (int i = 0; i < N; i++)
    if (b[i] != i) ok_exit1 = 0; /* count 2 -> 1: nothing copied */
  #pragma acc exit data copyout(b) finalize
  for (int i = 0; i < N; i++)
    if (b[i] != -i) ok_final = 0;

  if (!ok_inner_exit || !ok_exit1) {
    printf("discrete-refcount: host copy changed before the last reference went (inner exit %d, "
           "exit data %d) -- is device memory shared?\n", ok_inner_exit, ok_exit1);
    return 1;
  }
  if (!ok_outer || !ok_final) {
    printf("discrete-refcount: wrong data after the outer region (%d: an inner copyin must not refresh "
           "present data) or the finalize (%d)\n", ok_outer,
           ok_final);
    return 1;
  }
  printf("discrete-refcount: ok\n");
  return 0;
}
