/* Discrete memory: host changes do not reach the device without update
 * device; update device if(0) does nothing; update device / update self on
 * part of an array move only that part.
 *
 * Expects a device with separate memory (host_discrete, a GPU): prints
 * "discrete-update: ok" and exits 0.
 * On a shared-memory device every host change is seen at once, so it
 * reports "device saw the host change" and exits 1. */
#include <stdio.h>

#define N 100

int main(void) {
  static int a[N], b[N], c[N], d[N];
  int no = 0, bad = 0;
  for (int i = 0; i < N; i++) a[i] = i;

  #pragma acc enter data copyin(a) create(b, c, d)
  for (int i = 0; i < N; i++) a[i] = 50 + i; /* host only */
  #pragma acc parallel loop present(a, b)
  for (int i = 0; i < N; i++)
    b[i] = a[i];
  #pragma acc update device(a) if(no)
  #pragma acc parallel loop present(a, c)
  for (int i = 0; i < N; i++)
    c[i] = a[i];
  #pragma acc update device(a[0:N / 2])
  #pragma acc parallel loop present(a, d)
  for (int i = 0; i < N; i++)
    d[i] = a[i];
  #pragma acc update self(b, c, d)
  /* now change the device copy and bring back only the second half */
  #pragma acc parallel loop present(a)
  for (int i = 0; i < N; i++)
    a[i] = -i;
  #pragma acc update self(a[N / 2:N - N / 2])
  #pragma acc exit data delete(a, b, c, d)

  for (int i = 0; i < N; i++) {
    int want_d = i < N / 2 ? 50 + i : i;
    int want_a = i < N / 2 ? 50 + i : -i;
    if (b[i] != i || c[i] != i) {
      printf("discrete-update: device saw the host change without update device (b[%d]=%d c[%d]=%d) "
             "-- is device memory shared?\n", i, b[i], i, c[i]);
      bad = 1;
      break;
    }
    if (d[i] != want_d || a[i] != want_a) {
      printf("discrete-update: partial update wrong at %d: d=%d (want %d) a=%d (want %d)\n", i, d[i],
             want_d, a[i], want_a);
      bad = 1;
      break;
    }
  }
  if (bad) return 1;
  printf("discrete-update: ok\n");
  return 0;
}
