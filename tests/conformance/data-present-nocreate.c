/* present and no_create. present: data made present by an enclosing data
 * construct or by enter data, whole or as a subsection of a larger present
 * array, in a function called from inside the data region. no_create: when
 * the data is present the region uses the device copy (changes reach the
 * host at the copyout); when it is absent nothing is allocated and the
 * region (as here) does not touch it. */
#include <stdio.h>
#include <stdlib.h>

#define N 300

static void add_one(double *v, int lo, int len) {
  #pragma acc parallel loop present(v[lo:len])
  for (int i = lo; i < lo + len; i++)
    v[i] += 1.0;
}

int main(void) {
  int n = N, use_absent = 0;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 100.0 + i; c[i] = -i; }

  #pragma acc data copy(a[0:n])
  {
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++)
      a[i] *= 2.0;
    add_one(a, 0, n);
    add_one(a, 50, 100);
  }

  #pragma acc enter data copyin(c[0:n])
  #pragma acc parallel loop no_create(c[0:n])
  for (int i = 0; i < n; i++)
    c[i] -= 1.0;
  /* b is not present: no_create allocates nothing, and the region leaves b alone */
  #pragma acc parallel loop no_create(b[0:n]) present(c[0:n]) firstprivate(use_absent)
  for (int i = 0; i < n; i++) {
    if (use_absent) b[i] = 0.0;
    c[i] *= 3.0;
  }
  #pragma acc exit data copyout(c[0:n])

  for (int i = 0; i < n; i++) {
    double ra = 2.0 * i + 1.0 + ((i >= 50 && i < 150) ? 1.0 : 0.0);
    double rc = (-i - 1.0) * 3.0;
    if (a[i] != ra || b[i] != 100.0 + i || c[i] != rc) {
      printf("data-present-nocreate: i=%d a=%g b=%g c=%g\n", i, a[i], b[i], c[i]);
      return 1;
    }
  }
  printf("data-present-nocreate: ok\n");
  free(a); free(b); free(c);
  return 0;
}
