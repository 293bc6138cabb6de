/* Routines that take `void *` and declare typed pointers from it (`const double *d = base;`,
 * as generic C code does), a `char *` set from a string constant, and a kernel's typed
 * pointer set from a `void *`: C converts all implicitly, a GPU's C++ only with a cast, so the
 * module did not compile there (the CUDA simulator and NVRTC refused it). */
#include <stdio.h>

#define N 16

#pragma acc routine seq
static double load(const void *base, int k) {
  const double *values = base;
  return values[k];
}

#pragma acc routine seq
static void store(void *base, int k, double v) {
  double *values = base, *next = values + 1;
  values[k] = v;
  (void)next;
}

#pragma acc routine seq
static int letters(int k) {
  const char *word = "openacc";
  return word[k % 7];
}

int main(void) {
  double a[N], b[N];
  int c[N];
  for (int i = 0; i < N; i++)
    a[i] = i;
#pragma acc parallel loop copyin(a) copyout(b, c)
  for (int i = 0; i < N; i++) {
    void *out = b;
    double *typed = out;
    store(typed, i, 2 * load(a, i));
    c[i] = letters(i);
  }
  int wrong = 0;
  for (int i = 0; i < N; i++)
    wrong += b[i] != 2.0 * i || c[i] != "openacc"[i % 7];
  if (wrong)
    printf("routine-void-pointers: %d wrong\n", wrong);
  else
    printf("routine-void-pointers: ok\n");
  return wrong != 0;
}
