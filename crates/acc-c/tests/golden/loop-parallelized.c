/* Parallelized Loops: gang -> distribute, worker -> parallel for,
 * vector -> simd, in that order whatever the clause order; collapse ->
 * collapse; with worker imp shared -> exp shared; exp private -> private;
 * reductions go to the worker/vector loop. */
void f(int n, double *a, double *b) {
  double t;
  double s = 0;
  #pragma acc parallel copy(a[0:n*n], b[0:n])
  {
    #pragma acc loop vector worker gang collapse(2) private(t)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        t = b[i];
        a[i * n + j] = t;
      }
    #pragma acc loop gang
    for (int i = 0; i < n; ++i) {
      #pragma acc loop worker reduction(+:s)
      for (int j = 0; j < n; ++j)
        s += a[j];
      #pragma acc loop vector
      for (int j = 0; j < n; ++j)
        b[j] = a[j];
    }
  }
}
