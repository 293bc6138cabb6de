/* copy, copyin, copyout and create on data and compute constructs: whole
 * fixed-size arrays, subarrays of malloc'd arrays (with non-zero starts and
 * only the section written), a 2-D subarray, scalars and structs, nested
 * data regions (data already present is neither reallocated nor copied),
 * a device scratch buffer (create) that is written by one kernel and read
 * by the next, and a data construct with if(0). Compute constructs inside
 * the data region name the pointer-based sections again (present_or
 * semantics) or with present. */
#include <stdio.h>
#include <stdlib.h>

#define N 400
#define R 10
#define C 16

struct params { double scale; int offset; };

int main(void) {
  int n = N;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
  double *tmp = malloc(n * sizeof *tmp);
  static int m[R][C], m2[R][C];
  struct params p = {3.0, 4};
  long total = 0;
  int no = 0;
  double *e = malloc(n * sizeof *e);
  for (int i = 0; i < n; i++) e[i] = 1.0;
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = -1.0; c[i] = i * 0.5; }
  for (int r = 0; r < R; r++)
    for (int k = 0; k < C; k++) { m[r][k] = r + k; m2[r][k] = 0; }

  #pragma acc data copyin(a[0:n], p) copyout(b[10:n - 20]) create(tmp[0:n]) copy(c[0:n], total)
  {
    #pragma acc parallel loop present(a[0:n], tmp[0:n], p)
    for (int i = 0; i < n; i++)
      tmp[i] = a[i] * p.scale;
    #pragma acc parallel loop copyin(tmp[0:n]) copyout(b[10:n - 20]) present(p)
    for (int i = 10; i < n - 10; i++)
      b[i] = tmp[i] + p.offset;
    #pragma acc data copyin(a[0:n]) copy(c[0:n])
    {
      #pragma acc parallel loop copy(c[0:n]) present(a[0:n])
      for (int i = 0; i < n; i++)
        c[i] += a[i];
    }
    #pragma acc parallel loop present(c[0:n], total) reduction(+:total)
    for (int i = 0; i < n; i++)
      total += (long)c[i];
  }

  #pragma acc parallel copyin(m[2:5][0:C]) copy(m2[2:5][0:C])
  {
    #pragma acc loop collapse(2)
    for (int r = 2; r < 7; r++)
      for (int k = 0; k < C; k++)
        m2[r][k] = m[r][k] * 2;
  }

  /* data if(0): nothing is mapped, the inner copy does the work */
  #pragma acc data copy(e[0:n]) if(no)
  {
    #pragma acc parallel loop copy(e[0:n])
    for (int i = 0; i < n; i++)
      e[i] += i;
  }

  long rtotal = 0;
  for (int i = 0; i < n; i++) {
    double rb = (i >= 10 && i < n - 10) ? i * 3.0 + 4 : -1.0;
    double rc = i * 0.5 + i;
    rtotal += (long)rc;
    if (b[i] != rb || c[i] != rc || e[i] != 1.0 + i) {
      printf("data-clauses: i=%d b=%g c=%g e=%g\n", i, b[i], c[i], e[i]);
      return 1;
    }
  }
  if (total != rtotal) { printf("data-clauses: total = %ld, expected %ld\n", total, rtotal); return 1; }
  for (int r = 0; r < R; r++)
    for (int k = 0; k < C; k++) {
      int want = (r >= 2 && r < 7) ? 2 * (r + k) : 0;
      if (m2[r][k] != want) { printf("data-clauses: m2[%d][%d] = %d\n", r, k, m2[r][k]); return 1; }
    }
  printf("data-clauses: ok\n");
  free(a); free(b); free(c); free(tmp); free(e);
  return 0;
}
