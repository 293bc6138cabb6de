/* Error: compute and data constructs inside a compute construct; loop
 * levels nested out of order. */
void f(int n, double *a) {
  #pragma acc parallel copy(a[0:n*n])
  {
    #pragma acc parallel
    { a[0] = 1; }
    #pragma acc data copy(a[0:n])
    { a[0] = 1; }
    #pragma acc loop vector
    for (int i = 0; i < n; ++i) {
      #pragma acc loop gang
      for (int j = 0; j < n; ++j)
        a[i * n + j] = 0;
    }
  }
}
