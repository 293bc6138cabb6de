/* Combined Directives: private and reduction go to the effective loop,
 * every other clause to the one directive that permits it. */
void f(int n, double *a) {
  double t, s = 0;
  int u = 2;
  #pragma omp target teams num_teams(4) firstprivate(u) map(ompx_hold,tofrom: a[0:n]) map(ompx_hold,tofrom: s) shared(a) firstprivate(n) reduction(max: s)
  #pragma omp distribute simd private(t) reduction(max: s)
  for (int i = 0; i < n; ++i) {
    t = a[i] * u;
    s = t > s ? t : s;
  }
}
