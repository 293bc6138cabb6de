/* default(none) on parallel, kernels, serial and combined constructs: every
 * variable used in the region appears in an explicit clause (arrays in data
 * clauses, scalars in firstprivate / copy / reduction, a loop-local
 * temporary declared inside). A loop's own variables need no clause there: a loop control
 * variable declared before the loop (predetermined private, OpenACC 3.3 2.6.1) and a
 * scratch variable in the combined construct's `private`. */
#include <stdio.h>
#include <stdlib.h>

#define N 400

int main(void) {
  int n = N;
  double scale = 1.5;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  static float c[N];
  long total = 0;
  int count = 0;
  for (int i = 0; i < n; i++) a[i] = i - 50.0;

  #pragma acc parallel loop default(none) copyin(a[0:n]) copyout(b[0:n]) firstprivate(n, scale)
  for (int i = 0; i < n; i++) {
    double t = a[i] * scale;
    b[i] = t + 1.0;
  }

  #pragma acc kernels default(none) copyin(a[0:n]) copyout(c) copyin(n)
  {
    #pragma acc loop independent
    for (int i = 0; i < n; i++)
      c[i] = (float)(a[i] / 2.0);
  }

  #pragma acc parallel default(none) copyin(a[0:n]) firstprivate(n) copy(total)
  {
    #pragma acc loop reduction(+:total)
    for (int i = 0; i < n; i++)
      total += (long)a[i];
  }

  #pragma acc serial default(none) copyin(a[0:n]) firstprivate(n) copy(count)
  {
    for (int i = 0; i < n; i++)
      if (a[i] > 0.0) count++;
  }

  int i, k;
  double tmp, twice[N];
  #pragma acc parallel loop default(none) private(tmp) copyin(a[0:n]) copyout(twice) firstprivate(n)
  for (i = 0; i < n; i++) {
    tmp = 0;
    #pragma acc loop seq
    for (k = 0; k < 2; k++) tmp += a[i];
    twice[i] = tmp;
  }
  for (i = 0; i < n; i++)
    if (twice[i] != 2 * a[i]) { printf("default-none: twice[%d] = %g\n", i, twice[i]); return 1; }

  long rt = 0;
  int rc = 0;
  for (int i = 0; i < n; i++) {
    if (b[i] != a[i] * scale + 1.0 || c[i] != (float)(a[i] / 2.0)) {
      printf("default-none: i=%d b=%g c=%g\n", i, b[i], (double)c[i]);
      return 1;
    }
    rt += (long)a[i];
    if (a[i] > 0.0) rc++;
  }
  if (total != rt || count != rc) {
    printf("default-none: total=%ld (expected %ld) count=%d (expected %d)\n", total, rt, count, rc);
    return 1;
  }
  printf("default-none: ok\n");
  free(a);
  free(b);
  return 0;
}
