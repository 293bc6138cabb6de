/* Large transfers in every direction, whole and in sections at odd offsets and
 * lengths: copyin, copyout, copy, update device and update self, synchronous
 * and async. On a GPU, copies this large go through pinned staging buffers in
 * chunks; every byte must arrive, in place, exactly once. */
#include <stdio.h>
#include <stdlib.h>

#define N (3 * 1000 * 1000 + 7)

static int check(const char *what, const double *x, long lo, long hi, double scale, double add) {
  for (long i = lo; i < hi; i++) {
    double want = (double)(i % 9973) * scale + add;
    if (x[i] != want) {
      printf("data-large: %s: x[%ld] = %g, want %g\n", what, i, x[i], want);
      return 0;
    }
  }
  return 1;
}

int main(void) {
  double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
  if (!a || !b || !c) return 2;
  for (long i = 0; i < N; i++) {
    a[i] = (double)(i % 9973);
    b[i] = -1.0;
    c[i] = (double)(i % 9973);
  }
  int ok = 1;

  /* copyin, copyout, copy of whole arrays. */
  #pragma acc parallel loop copyin(a[0:N]) copyout(b[0:N]) copy(c[0:N])
  for (long i = 0; i < N; i++) {
    b[i] = a[i] * 2.0;
    c[i] = c[i] * 3.0 + 1.0;
  }
  ok &= check("copyout", b, 0, N, 2.0, 0.0);
  ok &= check("copy", c, 0, N, 3.0, 1.0);

  /* update of a section at an odd offset, both ways, inside a data region. */
  const long lo = 12345, len = N - 2 * 12345 - 3;
  #pragma acc data copy(a[0:N])
  {
    for (long i = lo; i < lo + len; i++) a[i] = (double)(i % 9973) * 5.0;
    #pragma acc update device(a[lo:len])
    #pragma acc parallel loop present(a[0:N])
    for (long i = 0; i < N; i++) a[i] = a[i] + 1.0;
    #pragma acc update self(a[lo:len])
    ok &= check("update self", a, lo, lo + len, 5.0, 1.0);
  }
  /* The data region's copyout brings the whole array back. */
  ok &= check("copy out of the region (front)", a, 0, lo, 1.0, 1.0);
  ok &= check("copy out of the region (section)", a, lo, lo + len, 5.0, 1.0);

  /* async updates on two queues. */
  #pragma acc enter data create(b[0:N], c[0:N])
  for (long i = 0; i < N; i++) {
    b[i] = (double)(i % 9973) * 7.0;
    c[i] = (double)(i % 9973) * 11.0;
  }
  #pragma acc update device(b[0:N]) async(1)
  #pragma acc update device(c[0:N]) async(2)
  #pragma acc parallel loop present(b[0:N]) async(1)
  for (long i = 0; i < N; i++) b[i] += 2.0;
  #pragma acc parallel loop present(c[0:N]) async(2)
  for (long i = 0; i < N; i++) c[i] += 3.0;
  #pragma acc update self(b[0:N]) async(1)
  #pragma acc update self(c[0:N]) async(2)
  #pragma acc wait
  ok &= check("async update b", b, 0, N, 7.0, 2.0);
  ok &= check("async update c", c, 0, N, 11.0, 3.0);
  #pragma acc exit data delete(b[0:N], c[0:N])

  free(a);
  free(b);
  free(c);
  if (!ok) return 1;
  printf("data-large: ok\n");
  return 0;
}
