/* Sections in private and firstprivate on a compute construct (OpenACC 3.3 §2.5.13-14):
 * each gang gets its own copy of `c[lo:len]` of a pointer's target, shared by the gang's
 * workers and vectors; firstprivate copies start as the section was when the construct was
 * encountered. The host's section is never written. On a combined construct (`parallel loop
 * private(c[0:n])`) a gang's copy serves the iterations it runs, which write it before they
 * read it. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 64, gangs = 10;
  double *a = malloc(sizeof(double) * gangs * n), *b = malloc(sizeof(double) * gangs * n);
  double *c = malloc(sizeof(double) * (n + 8)), *d = malloc(sizeof(double) * gangs);
  double *e = malloc(sizeof(double) * gangs * n);
  for (int i = 0; i < gangs * n; i++) {
    a[i] = i % 17;
    b[i] = i % 5;
  }
  for (int i = 0; i < n + 8; i++) c[i] = 1000 + i;

  /* private: every gang fills its copy, then sums it. */
#pragma acc parallel num_gangs(gangs) private(c[4:n]) copyin(a[0:gangs*n], b[0:gangs*n]) \
    copyout(d[0:gangs])
  {
#pragma acc loop gang
    for (int g = 0; g < gangs; g++) {
#pragma acc loop worker
      for (int y = 0; y < n; y++) c[4 + y] = a[g * n + y] + b[g * n + y];
      double s = 0;
#pragma acc loop seq
      for (int y = 0; y < n; y++) s += c[4 + y];
      d[g] = s;
    }
  }
  for (int g = 0; g < gangs; g++) {
    double want = 0;
    for (int y = 0; y < n; y++) want += a[g * n + y] + b[g * n + y];
    if (d[g] != want) {
      printf("private: d[%d] = %g, want %g\n", g, d[g], want);
      return 1;
    }
  }
  for (int i = 0; i < n + 8; i++)
    if (c[i] != 1000 + i) {
      printf("private: the host's c[%d] changed to %g\n", i, c[i]);
      return 1;
    }

  /* firstprivate: every gang (one gang iteration each) starts from the host's values and adds
   * its own. */
#pragma acc parallel num_gangs(gangs) firstprivate(c[0:n]) copyin(a[0:gangs*n]) \
    copyout(e[0:gangs*n])
  {
#pragma acc loop gang
    for (int g = 0; g < gangs; g++) {
#pragma acc loop vector
      for (int y = 0; y < n; y++) c[y] += a[g * n + y];
#pragma acc loop vector
      for (int y = 0; y < n; y++) e[g * n + y] = c[y];
    }
  }
  for (int g = 0; g < gangs; g++)
    for (int y = 0; y < n; y++)
      if (e[g * n + y] != 1000 + y + a[g * n + y]) {
        printf("firstprivate: e[%d] = %g, want %g\n", g * n + y, e[g * n + y],
               1000 + y + a[g * n + y]);
        return 1;
      }
  /* One gang: exactly the host's values plus its own. */
#pragma acc parallel num_gangs(1) firstprivate(c[0:n]) copyout(e[0:n])
  {
#pragma acc loop vector
    for (int y = 0; y < n; y++) e[y] = c[y] * 2;
  }
  for (int y = 0; y < n; y++)
    if (e[y] != 2 * (1000 + y)) {
      printf("firstprivate, one gang: e[%d] = %g\n", y, e[y]);
      return 1;
    }
  for (int i = 0; i < n + 8; i++)
    if (c[i] != 1000 + i) {
      printf("firstprivate: the host's c[%d] changed to %g\n", i, c[i]);
      return 1;
    }
  /* Combined constructs: a private section, then a firstprivate one, whose every iteration
   * reads the host's values (the iterations never write it). */
#pragma acc parallel loop gang private(c[0:n]) copyin(a[0:gangs*n]) copyout(d[0:gangs])
  for (int g = 0; g < gangs; g++) {
    for (int y = 0; y < n; y++) c[y] = 2 * a[g * n + y];
    double s = 0;
    for (int y = 0; y < n; y++) s += c[y];
    d[g] = s;
  }
  for (int g = 0; g < gangs; g++) {
    double want = 0;
    for (int y = 0; y < n; y++) want += 2 * a[g * n + y];
    if (d[g] != want) {
      printf("parallel loop private: d[%d] = %g, want %g\n", g, d[g], want);
      return 1;
    }
  }
#pragma acc parallel loop firstprivate(c[0:n]) copyout(e[0:gangs*n])
  for (int i = 0; i < gangs * n; i++) e[i] = c[i % n] + i;
  for (int i = 0; i < gangs * n; i++)
    if (e[i] != 1000 + i % n + i) {
      printf("parallel loop firstprivate: e[%d] = %g\n", i, e[i]);
      return 1;
    }
#pragma acc serial loop private(c[2:n]) copyin(b[0:gangs*n]) copyout(d[0:gangs])
  for (int g = 0; g < gangs; g++) {
    for (int y = 0; y < n; y++) c[2 + y] = b[g * n + y] + 1;
    double s = 0;
    for (int y = 0; y < n; y++) s += c[2 + y];
    d[g] = s;
  }
#pragma acc kernels loop independent private(c[0:n]) copyin(b[0:gangs*n]) copyout(e[0:gangs])
  for (int g = 0; g < gangs; g++) {
    for (int y = 0; y < n; y++) c[y] = b[g * n + y] + 1;
    double s = 0;
    for (int y = 0; y < n; y++) s += c[y];
    e[g] = s;
  }
  for (int g = 0; g < gangs; g++) {
    double want = 0;
    for (int y = 0; y < n; y++) want += b[g * n + y] + 1;
    if (d[g] != want || e[g] != want) {
      printf("serial loop / kernels loop private: %g and %g, want %g\n", d[g], e[g], want);
      return 1;
    }
  }
  for (int i = 0; i < n + 8; i++)
    if (c[i] != 1000 + i) {
      printf("combined: the host's c[%d] changed to %g\n", i, c[i]);
      return 1;
    }
  free(a);
  free(b);
  free(c);
  free(d);
  free(e);
  puts("ok");
  return 0;
}
