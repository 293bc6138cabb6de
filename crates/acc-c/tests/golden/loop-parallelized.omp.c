/* Parallelized Loops: gang -> distribute, worker -> parallel for,
 * vector -> simd, in that order whatever the clause order; collapse ->
 * collapse; with worker imp shared -> exp shared; exp private -> private;
 * reductions go to the worker/vector loop. */
void f(int n, double *a, double *b) {
  double t;
  double s = 0;
  #pragma omp target teams map(ompx_hold,tofrom: a[0:n*n],b[0:n]) shared(a,b) firstprivate(t,n,s)
  {
    #pragma omp distribute parallel for simd collapse(2) shared(n,b,a) private(t)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        t = b[i];
        a[i * n + j] = t;
      }
    #pragma omp distribute
    for (int i = 0; i < n; ++i) {
      #pragma omp parallel for shared(n,a) reduction(+: s)
      for (int j = 0; j < n; ++j)
        s += a[j];
      #pragma omp simd
      for (int j = 0; j < n; ++j)
        b[j] = a[j];
    }
  }
}
