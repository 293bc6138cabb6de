/* Implicit Gang Clauses: the outermost loop that may have gang gets imp
 * gang; not a loop under a seq loop's gang-permitted ancestor; not a loop
 * whose nested loop has exp gang; auto loops become seq first. */
void f(int n, double *a) {
  #pragma omp target teams map(ompx_hold,tofrom: a[0:n*n]) shared(a) firstprivate(n)
  {
    #pragma omp distribute
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j)
        a[i * n + j] = 0;
    }
    for (int i = 0; i < n; ++i) {
      #pragma omp distribute parallel for shared(n,a,i)
      for (int j = 0; j < n; ++j)
        a[i * n + j] = 1;
    }
    for (int i = 0; i < n; ++i) {
      #pragma omp distribute
      for (int j = 0; j < n; ++j)
        a[i * n + j] = 2;
    }
    for (int i = 0; i < n; ++i) {
      #pragma omp distribute simd
      for (int j = 0; j < n; ++j)
        a[i * n + j] = 3;
    }
  }
}
