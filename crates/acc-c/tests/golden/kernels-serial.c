/* kernels and serial (not mapped by Clacc): both -> omp target. In
 * kernels a scalar is imp copy, an independent loop -> parallel for, any
 * other loop is sequential; in serial every loop is sequential. */
void f(int n, double *a) {
  double s = 0;
  #pragma acc kernels copy(a[0:n])
  {
    #pragma acc loop independent
    for (int i = 0; i < n; ++i)
      a[i] = i;
    for (int i = 0; i < n; ++i)
      s += a[i];
  }
  #pragma acc serial loop copy(a[0:n])
  for (int i = 1; i < n; ++i)
    a[i] += a[i - 1];
  #pragma acc kernels loop independent vector copy(a[0:n])
  for (int i = 0; i < n; ++i)
    a[i] *= 2;
}
