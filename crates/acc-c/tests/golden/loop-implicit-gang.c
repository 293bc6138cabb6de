/* Implicit Gang Clauses: the outermost loop that may have gang gets imp
 * gang; not a loop under a seq loop's gang-permitted ancestor; not a loop
 * whose nested loop has exp gang; auto loops become seq first. */
void f(int n, double *a) {
  #pragma acc parallel copy(a[0:n*n])
  {
    #pragma acc loop
    for (int i = 0; i < n; ++i) {
      #pragma acc loop
      for (int j = 0; j < n; ++j)
        a[i * n + j] = 0;
    }
    #pragma acc loop seq
    for (int i = 0; i < n; ++i) {
      #pragma acc loop worker
      for (int j = 0; j < n; ++j)
        a[i * n + j] = 1;
    }
    #pragma acc loop
    for (int i = 0; i < n; ++i) {
      #pragma acc loop gang
      for (int j = 0; j < n; ++j)
        a[i * n + j] = 2;
    }
    #pragma acc loop auto
    for (int i = 0; i < n; ++i) {
      #pragma acc loop vector
      for (int j = 0; j < n; ++j)
        a[i * n + j] = 3;
    }
  }
}
