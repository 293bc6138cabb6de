/* Combined Directives: private and reduction go to the effective loop,
 * every other clause to the one directive that permits it. */
void f(int n, double *a) {
  double t, s = 0;
  int u = 2;
  #pragma acc parallel loop num_gangs(4) gang vector private(t) firstprivate(u) \
      reduction(max:s) copy(a[0:n])
  for (int i = 0; i < n; ++i) {
    t = a[i] * u;
    s = t > s ? t : s;
  }
}
