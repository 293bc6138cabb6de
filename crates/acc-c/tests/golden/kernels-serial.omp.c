/* kernels and serial (not mapped by Clacc): both -> omp target. In
 * kernels a scalar is imp copy, an independent loop -> parallel for, any
 * other loop is sequential; in serial every loop is sequential. */
void f(int n, double *a) {
  double s = 0;
  #pragma omp target map(ompx_hold,tofrom: a[0:n]) map(ompx_hold,tofrom: n,s)
  {
    #pragma omp parallel for shared(n,a)
    for (int i = 0; i < n; ++i)
      a[i] = i;
    for (int i = 0; i < n; ++i)
      s += a[i];
  }
  #pragma omp target map(ompx_hold,tofrom: a[0:n]) firstprivate(n)
  for (int i = 1; i < n; ++i)
    a[i] += a[i - 1];
  #pragma omp target map(ompx_hold,tofrom: a[0:n]) map(ompx_hold,tofrom: n)
  #pragma omp parallel for simd shared(n,a)
  for (int i = 0; i < n; ++i)
    a[i] *= 2;
}
