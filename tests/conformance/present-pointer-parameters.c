/* `present(p)` naming a pointer alone, in functions whose pointer parameters point into data
 * the caller mapped: the idiom of code written for PGI/nvc (Rodinia's gaussian). OpenACC 3.3
 * §2.7.1 reads a bare pointer as the pointer variable, which nothing mapped (a parameter is a
 * fresh variable); acc, like nvc, then takes the data it points to. Covers `kernels`,
 * `parallel loop` and a `data` construct, on pointers the callers pass at an offset too. */
#include <stdio.h>
#include <stdlib.h>

static void scale(float *m, int n) {
  int i;
#pragma acc kernels present(m)
  for (i = 0; i < n; i++) m[i] *= 2;
}

static void add(float *m, const float *a, int n) {
#pragma acc parallel loop present(m, a)
  for (int i = 0; i < n; i++) m[i] += a[i];
}

static void bump_tail(float *tail, int len) {
#pragma acc data present(tail)
  {
#pragma acc parallel loop
    for (int i = 0; i < len; i++) tail[i] += 100;
  }
}

int main(void) {
  const int n = 1000;
  float *m = malloc(n * sizeof *m), *a = malloc(n * sizeof *a);
  for (int i = 0; i < n; i++) {
    m[i] = i;
    a[i] = i % 7;
  }
#pragma acc data copy(m[0:n]) copyin(a[0:n])
  {
    for (int rep = 0; rep < 3; rep++) {
      scale(m, n);
      add(m, a, n);
    }
    bump_tail(m + n / 2, n / 2);
  }
  for (int i = 0; i < n; i++) {
    float want = i;
    for (int rep = 0; rep < 3; rep++) want = 2 * want + i % 7;
    if (i >= n / 2) want += 100;
    if (m[i] != want) {
      printf("present-pointer-parameters: m[%d] = %g, want %g\n", i, m[i], want);
      return 1;
    }
  }
  free(m);
  free(a);
  puts("present-pointer-parameters: ok");
  return 0;
}
