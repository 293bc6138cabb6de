/* Where a compute construct's reduction result lands (OpenACC 3.3 2.5.15: the reduction implies
 * a copy of the variable). Not mapped anywhere: in the host variable, synchronously and with
 * async. Present from `enter data`: in the device copy, where `update self` finds it (the host
 * copy keeps its old value on a device with separate memory). Mapped by an enclosing data
 * region: in the device copy, copied out at the region's end. Arrays too. */
#include <openacc.h>
#include <stdio.h>

#define N 1000

/* Whether `p`, present, has a device copy apart from the host's (not on `host`). */
static int separate(void *p) { return acc_deviceptr(p) != NULL && acc_deviceptr(p) != p; }

/* On shared memory every address counts as present. */
static int shared_memory(void) { return acc_get_device_type() == acc_device_host; }

int main(void) {
  int v[N];
  long want = 0;
  for (int i = 0; i < N; i++) {
    v[i] = i % 13 - 4;
    want += v[i];
  }
  int failed = 0;

  long s = 5;
  #pragma acc parallel loop copyin(v) reduction(+:s)
  for (int i = 0; i < N; i++) s += v[i];
  if (s != want + 5) { printf("not mapped: %ld, want %ld\n", s, want + 5); failed = 1; }

  long a = 1;
  #pragma acc parallel loop copyin(v) reduction(+:a) async(2)
  for (int i = 0; i < N; i++) a += v[i];
  #pragma acc wait(2)
  if (a != want + 1) { printf("async: %ld, want %ld\n", a, want + 1); failed = 1; }

  long p = 7;
  #pragma acc enter data copyin(p)
  #pragma acc parallel loop copyin(v) reduction(+:p)
  for (int i = 0; i < N; i++) p += v[i];
  if (separate(&p) && p != 7) { printf("present: host copy changed to %ld\n", p); failed = 1; }
  #pragma acc update self(p)
  if (p != want + 7) { printf("present: device copy %ld, want %ld\n", p, want + 7); failed = 1; }
  #pragma acc exit data delete(p)
  if (!shared_memory() && acc_is_present(&p, sizeof p)) { printf("present: still present after delete\n"); failed = 1; }

  long d = 3;
  #pragma acc data copy(d) copyin(v)
  {
    #pragma acc parallel loop reduction(+:d)
    for (int i = 0; i < N; i++) d += v[i];
    #pragma acc parallel loop reduction(+:d)
    for (int i = 0; i < N; i++) d += 1;
  }
  if (d != want + 3 + N) { printf("data region: %ld, want %ld\n", d, want + 3 + N); failed = 1; }

  int hist[4] = {1, 1, 1, 1};
  #pragma acc parallel loop copyin(v) reduction(+:hist)
  for (int i = 0; i < N; i++) hist[(v[i] + 4) % 4] += 1;
  int total = 0;
  for (int k = 0; k < 4; k++) total += hist[k];
  if (total != N + 4) { printf("array: %d, want %d\n", total, N + 4); failed = 1; }
  if (!shared_memory() && (acc_is_present(hist, sizeof hist) || acc_is_present(&s, sizeof s))) {
    printf("a reduction variable stayed present\n");
    failed = 1;
  }

  if (!failed) printf("api-reduction-target: ok\n");
  return failed;
}
