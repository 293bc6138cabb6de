/* Reductions: a reduction on a gang-partitioned loop of a scalar with no
 * exp DA gets imp copy on the parallel overriding imp firstprivate, and
 * being gang-shared, imp reduction there. A reduction of a gang-private
 * variable (declared in the region) is trivial for the gang and stays on
 * the worker loop. A reduction on a sequential loop of a gang-shared
 * variable is also promoted. */
void f(int n, double *a) {
  double sum = 0, prod = 1;
  #pragma acc parallel loop reduction(+:sum) copyin(a[0:n])
  for (int i = 0; i < n; ++i)
    sum += a[i];
  #pragma acc parallel copyin(a[0:n]) copy(prod)
  {
    double local = 0;
    #pragma acc loop worker reduction(+:local)
    for (int i = 0; i < n; ++i)
      local += a[i];
    #pragma acc loop seq reduction(*:prod)
    for (int i = 0; i < n; ++i)
      prod *= a[i];
  }
}
