/* A directive as the unbraced body of a for loop (which GCC accepts):
 * the directive and the next statement are the body. */
void f(int n, double *a) {
  #pragma omp target teams map(ompx_hold,tofrom: a[0:n*n]) shared(a) firstprivate(n)
  #pragma omp distribute
  for (int i = 0; i < n; ++i)
    #pragma omp simd
    for (int j = 0; j < n; ++j)
      a[i * n + j] = 0;
}
