/* A promoted loop reduction's variable used in the region outside the loop (set to 0 before
 * it, read after it): OpenACC 3.3 2.9.11 updates the original only as the region ends and
 * leaves such uses undefined; the mapping gives each team its copy (`reduction` on
 * `omp target teams`), and a warning says what the program gets. */
double sum(const double *a, int n, double *last) {
  double s = 100;
#pragma acc parallel copyin(a[0:n]) copy(s) copyout(last[0:1])
  {
    s = 0.0;
#pragma acc loop reduction(+:s)
    for (int k = 0; k < n; k++) s += a[k];
    last[0] = s;
  }
  return s;
}
