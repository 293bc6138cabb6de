/* Reductions: a reduction on a gang-partitioned loop of a scalar with no
 * exp DA gets imp copy on the parallel overriding imp firstprivate, and
 * being gang-shared, imp reduction there. A reduction of a gang-private
 * variable (declared in the region) is trivial for the gang and stays on
 * the worker loop. A reduction on a sequential loop of a gang-shared
 * variable is also promoted. */
void f(int n, double *a) {
  double sum = 0, prod = 1;
  #pragma omp target teams map(ompx_hold,to: a[0:n]) map(ompx_hold,tofrom: sum) shared(a) firstprivate(n) reduction(+: sum)
  #pragma omp distribute
  for (int i = 0; i < n; ++i)
    sum += a[i];
  #pragma omp target teams map(ompx_hold,to: a[0:n]) map(ompx_hold,tofrom: prod) shared(a) firstprivate(n) reduction(*: prod)
  {
    double local = 0;
    #pragma omp distribute parallel for shared(n,a) reduction(+: local)
    for (int i = 0; i < n; ++i)
      local += a[i];
    for (int i = 0; i < n; ++i)
      prod *= a[i];
  }
}
